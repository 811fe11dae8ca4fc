package device

import (
	"fmt"
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
	return &Storage{dev: a.dev, alloc: a, nbytes: nbytes, ptr: mallocgc(size, nil, zero)}, nil
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
