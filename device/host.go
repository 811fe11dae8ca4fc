package device

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Note [Uninitialised host memory]
//
// Go zeroes every allocation, and for outputs that an op overwrites whole
// that is wasted work: a memory-bound op writes its output twice (up to
// half of layer_norm's time). The Go runtime's own allocator can skip the
// zeroing — it does for strings.Builder and append — and allocates
// pointer-free memory with runtime.mallocgc(size, nil, false), which the
// runtime keeps callable from other packages (it is named in its "hall of
// shame" of widely linknamed functions, with the promise not to change its
// signature; go.dev/issue/67401). The memory is garbage collected like any
// other and is never scanned for pointers. A host storage holds its buffer
// through an unsafe.Pointer, which keeps it alive.
//
// Sizes are rounded up to 16 bytes: below that, mallocgc's tiny allocator
// may pack several objects into one block with less than 8-byte alignment.

//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// Note [Huge pages]
//
// A large tensor streamed through once per op (a sum, a copy, an add over
// 64 MiB) touches a new 4 KiB page every 4 KiB, and on the machines goten
// is measured on (virtual machines, where a TLB miss walks two levels of
// page tables) the misses cost some of the memory bandwidth a reduction
// reaches with two workers: summing 2^24 float32 in 64 chunks streamed at
// 47-51 GB/s from 4 KiB pages and 57-58 GB/s from 2 MiB pages (medians,
// side by side in one process, three runs on a 2-core AMD EPYC VM in its
// slow memory state); with one core left by a busy machine, cmd/bench's
// sums and copies gained 2-4%, but on a quiet machine five runs of
// cmd/bench with and without the advice differed by less than their noise
// (sum_all 0.72 and 0.67 ms, relu 1.26 and 1.37 ms). Linux gives anonymous memory transparent huge pages
// only where the program asks (the common setting "madvise"), and the Go
// runtime does not ask for its heap. So the host allocator can advise
// MADV_HUGEPAGE on the 2 MiB-aligned interior of every allocation of at
// least hugeMin bytes. The advice applies to the address range, not to
// the object: pages first touched after it (memory fresh from the system,
// or given back by the scavenger and touched again) come as huge pages,
// while memory the heap reuses keeps the pages it has until the kernel's
// khugepaged merges them. Smaller allocations are left alone: most of
// their pages would straddle other objects, and the system call (about a
// microsecond) would weigh on them. The price, which made the Go runtime
// itself stop advising huge pages: a fault in an advised range may stall
// in the kernel's compaction when free memory is fragmented (with the
// common defrag setting "madvise"; go.dev/issue/61718), and the advice
// outlives the storage: in an advised range that the runtime has partly
// given back to the system, khugepaged may bring whole huge pages back in
// around the parts still in use, so a program that frees large tensors and
// reuses their memory for small objects can hold more resident memory
// (go.dev/issue/64332). With those costs and no gain measured side by
// side, the advice is opt-in, as PyTorch's THP_MEM_ALLOC_ENABLE is:
// GOTEN_HUGEPAGES=1 in the environment turns it on.

// hugeMin is the least allocation, in bytes, whose pages the host
// allocator advises to be huge (Note [Huge pages]); hugePage the size of a
// transparent huge page on the platforms goten runs on.
const (
	hugeMin  = 4 << 20
	hugePage = 2 << 20
)

// HostAllocator allocates host memory for a host device (CPU, Ref).
type HostAllocator struct{ dev Device }

// NewHostAllocator returns the allocator of host device dev.
func NewHostAllocator(dev Device) *HostAllocator {
	if !dev.IsHost() {
		panic("device: " + dev.String() + " is not a host device")
	}
	return &HostAllocator{dev: dev}
}

// CPUAllocator allocates the CPU device's memory.
var CPUAllocator = NewHostAllocator(Device{Kind: CPU})

// Device returns the allocator's device.
func (a *HostAllocator) Device() Device { return a.dev }

// Alloc returns a host storage of nbytes bytes, 8-byte aligned; its
// contents are zero if zero is set, else unspecified (Note [Uninitialised
// host memory]). An allocation over [MemoryLimit] is refused with an error
// that wraps [ErrMemoryLimit].
func (a *HostAllocator) Alloc(nbytes int, zero bool) (*Storage, error) {
	if nbytes < 0 {
		return nil, fmt.Errorf("device: allocating %d bytes", nbytes)
	}
	if limit := MemoryLimit(); nbytes > limit {
		return nil, fmt.Errorf("%w: you tried to allocate %d bytes, more than the limit of %d bytes (see device.SetMemoryLimit)", ErrMemoryLimit, nbytes, limit)
	}
	size := max(uintptr(nbytes+15)&^15, 16)
	p := mallocgc(size, nil, zero)
	adviseHuge(p, nbytes)
	return &Storage{dev: a.dev, alloc: a, nbytes: nbytes, ptr: p}, nil
}

// Alloc returns a zeroed CPU storage of nbytes bytes. It panics if nbytes
// is negative.
func Alloc(nbytes int) *Storage {
	s, err := CPUAllocator.Alloc(nbytes, true)
	if err != nil {
		panic(err)
	}
	return s
}

// Note [Wrapped host memory]
//
// File readers map a file into memory and hand its bytes to tensors without
// copying them (a 1 GiB checkpoint opens without its pages being read).
// [WrapHost] makes a CPU storage over such memory. The storage does not own
// it: release, when given, is called by a finalizer once the storage is
// unreachable — no view of it and no plan over it is left — so a file
// mapping is unmapped only after its last tensor is gone. Unlike Go
// memory, wrapped memory is not kept alive by the addresses kernels
// compute from Storage.Pointer: a backend must keep the plan (or the
// storage) reachable until it has finished with those addresses
// (runtime.KeepAlive), as the CPU backend's walks do by running as methods
// of the plan. Outputs of ops on a wrapped storage are allocated by the
// CPU allocator, as any CPU tensor's.

// WrapHost returns a CPU storage over the host memory b, without copying:
// tensors over it read and write b. Views of it must be aligned for their
// dtype (kernels load whole elements; vector loads take any alignment),
// which tensor.FromStorage checks. release, if not nil, is called once
// when the storage becomes unreachable (Note [Wrapped host memory]); b
// must stay valid until then.
func WrapHost(b []byte, release func()) *Storage {
	if len(b) == 0 {
		s := Alloc(0)
		if release != nil {
			release()
		}
		return s
	}
	s := &Storage{dev: CPUAllocator.dev, alloc: CPUAllocator, nbytes: len(b), ptr: unsafe.Pointer(unsafe.SliceData(b))}
	if release != nil {
		runtime.SetFinalizer(s, func(*Storage) { release() })
	}
	return s
}
