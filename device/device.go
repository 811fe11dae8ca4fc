// Package device describes where tensor memory lives and allocates it.
//
// A [Storage] is a buffer of bytes on one device, made by that device's
// [Allocator]. Everything above the kernels refers to memory only through
// a *Storage and byte offsets, never through Go slices, so that a GPU
// backend can run the same plans. This package is also the one audited
// place that turns host bytes into typed Go slices ([Slice]).
package device

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Kind is a kind of device.
type Kind uint8

// The device kinds.
const (
	// CPU is host memory, computed by the CPU backend (backend/cpu).
	CPU Kind = iota
	// CUDA is an NVIDIA GPU's memory (no backend yet).
	CUDA
	// Ref is host memory computed by the reference backend (backend/ref):
	// tests run the same programs on CPU and Ref tensors side by side, each
	// on its own backend, to compare them.
	Ref
	// NumKinds is the number of kinds: tables indexed by Kind have this
	// length.
	NumKinds
)

// Device names one device.
type Device struct {
	Kind  Kind
	Index int
}

// String returns PyTorch's spelling: "cpu", "cuda:0" (and "ref").
func (d Device) String() string {
	switch d.Kind {
	case CPU:
		return "cpu"
	case Ref:
		return "ref"
	case CUDA:
		return fmt.Sprintf("cuda:%d", d.Index)
	}
	return fmt.Sprintf("device(%d)", d.Kind)
}

// IsHost reports whether the device's memory is host memory, which Go code
// may address ([Storage.Pointer]).
func (d Device) IsHost() bool { return d.Kind == CPU || d.Kind == Ref }

// Allocator makes storages on one device.
type Allocator interface {
	// Device returns the device the allocator's storages live on.
	Device() Device
	// Alloc returns a storage of nbytes bytes, zeroed if zero is set and
	// of unspecified contents otherwise (for outputs an op overwrites
	// whole).
	Alloc(nbytes int, zero bool) (*Storage, error)
}

// Storage is a buffer of bytes on a device, shared by every view of it.
type Storage struct {
	dev    Device // its allocator's, kept here: every op asks for it
	alloc  Allocator
	nbytes int
	ptr    unsafe.Pointer // host memory: keeps the buffer alive
	// version counts writes into the storage through the user API; every
	// view shares it (autograd's check of saved tensors, Note [Version
	// counters] in package tensor).
	version atomic.Uint64
}

// Version returns the number of recorded writes into s.
func (s *Storage) Version() uint64 { return s.version.Load() }

// BumpVersion records a write into s.
func (s *Storage) BumpVersion() { s.version.Add(1) }

// Device returns the storage's device.
func (s *Storage) Device() Device { return s.dev }

// Allocator returns the allocator that made the storage: outputs of ops on
// it are allocated by the same one, on the same device.
func (s *Storage) Allocator() Allocator { return s.alloc }

// Len returns the storage's size in bytes.
func (s *Storage) Len() int { return s.nbytes }

// Pointer returns the address of byte 0 of a host storage. Only code that
// runs on the host (the CPU and reference backends, element access from
// Go) calls it.
func (s *Storage) Pointer() unsafe.Pointer {
	if s.ptr == nil {
		panic("device: Pointer of a storage on " + s.Device().String())
	}
	return s.ptr
}

// Bytes returns a host storage's bytes.
func (s *Storage) Bytes() []byte { return unsafe.Slice((*byte)(s.Pointer()), s.nbytes) }

// Grow makes s at least nbytes long, keeping its contents, as PyTorch's
// resize_ grows a storage: in place, so that every view of s sees the new
// memory (the bytes past the old end are zero). Pointers taken from s before
// Grow are stale after it.
func (s *Storage) Grow(nbytes int) error {
	if nbytes <= s.nbytes {
		return nil
	}
	n, err := s.alloc.Alloc(nbytes, true)
	if err != nil {
		return err
	}
	if s.nbytes > 0 {
		if !s.Device().IsHost() {
			return fmt.Errorf("device: growing a storage on %s", s.Device())
		}
		copy(n.Bytes(), s.Bytes())
	}
	s.nbytes, s.ptr = n.nbytes, n.ptr
	return nil
}

// Slice returns the n elements of type T starting at byte offset off of a
// host storage. It panics if they do not lie inside the storage.
func Slice[T any](s *Storage, off, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if off < 0 || n < 0 || off+n*size > s.nbytes {
		panic(fmt.Sprintf("device: slice [%d, %d) of %d-byte storage", off, off+n*size, s.nbytes))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Add(s.Pointer(), off)), n)
}

// SameMemory reports whether two storages are the same buffer.
func SameMemory(a, b *Storage) bool { return a == b }
