package device

import (
	"fmt"
	"sync"
	"unsafe"
)

// GuardBytes is the size of each of the two guard bands around a storage
// of a [GuardedAllocator]: a multiple of 16, so the storage keeps the host
// allocator's alignment.
const GuardBytes = 64

// guardByte is the pattern of the guard bands, and junkByte the contents
// of an allocation that need not be zeroed: reading it before writing it
// gives values a test notices.
const (
	guardByte = 0xA5
	junkByte  = 0xCD
)

// GuardedAllocator is a CPU allocator for tests that check that no code
// writes outside its storages (gonum's guard bands): each storage lies
// between two bands of [GuardBytes] bytes of a known pattern, which
// [GuardedAllocator.Check] verifies, and a storage that need not be zeroed
// is filled with junk instead. Ops allocate their outputs with their
// operands' allocator, so a program whose tensors come from one
// GuardedAllocator is guarded throughout. Allocations over [MemoryLimit]
// are refused as by the host allocator. It is safe for concurrent use; the
// storages it made stay alive as long as it does.
type GuardedAllocator struct {
	mu   sync.Mutex
	bufs []guarded
}

// guarded is a storage's bytes with its bands and padding: the storage is
// buf[GuardBytes : GuardBytes+n].
type guarded struct {
	buf []byte
	n   int
}

// NewGuardedAllocator returns a guarded CPU allocator.
func NewGuardedAllocator() *GuardedAllocator { return &GuardedAllocator{} }

// Device returns the CPU.
func (a *GuardedAllocator) Device() Device { return Device{Kind: CPU} }

// Alloc returns a CPU storage of nbytes bytes between two guard bands.
func (a *GuardedAllocator) Alloc(nbytes int, zero bool) (*Storage, error) {
	if nbytes < 0 {
		return nil, fmt.Errorf("device: allocating %d bytes", nbytes)
	}
	if limit := MemoryLimit(); nbytes > limit {
		return nil, fmt.Errorf("%w: you tried to allocate %d bytes, more than the limit of %d bytes (see device.SetMemoryLimit)", ErrMemoryLimit, nbytes, limit)
	}
	size := (nbytes+15)&^15 + 2*GuardBytes
	buf := unsafe.Slice((*byte)(mallocgc(uintptr(size), nil, true)), size)
	for i := range buf {
		buf[i] = guardByte
	}
	mid := buf[GuardBytes : GuardBytes+nbytes]
	for i := range mid {
		mid[i] = junkByte
		if zero {
			mid[i] = 0
		}
	}
	a.mu.Lock()
	a.bufs = append(a.bufs, guarded{buf, nbytes})
	a.mu.Unlock()
	return &Storage{dev: a.Device(), alloc: a, nbytes: nbytes, ptr: unsafe.Pointer(&buf[GuardBytes])}, nil
}

// Check returns an error naming the first storage whose guard bands
// changed, or nil.
func (a *GuardedAllocator) Check() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, g := range a.bufs {
		for _, band := range [2][2]int{{0, GuardBytes}, {GuardBytes + g.n, len(g.buf)}} {
			for i := band[0]; i < band[1]; i++ {
				if g.buf[i] != guardByte {
					return fmt.Errorf("device: storage %d of %d bytes: its guard byte at %d (from the storage's start) was overwritten", k, g.n, i-GuardBytes)
				}
			}
		}
	}
	return nil
}
