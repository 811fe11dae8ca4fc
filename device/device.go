// Package device describes where tensor memory lives and allocates it.
//
// A [Storage] is a buffer of bytes on one device. Everything above the
// kernels refers to memory only through a *Storage and byte offsets, never
// through Go slices, so that a GPU backend can run the same plans. This
// package is also the one audited place that turns CPU bytes into typed Go
// slices ([Slice]).
package device

import (
	"fmt"
	"unsafe"
)

// Kind is a kind of device.
type Kind uint8

// The device kinds. Only CPU has a backend today.
const (
	CPU Kind = iota
	CUDA
)

// Device names one device.
type Device struct {
	Kind  Kind
	Index int
}

// String returns PyTorch's spelling: "cpu" or "cuda:0".
func (d Device) String() string {
	if d.Kind == CPU {
		return "cpu"
	}
	return fmt.Sprintf("cuda:%d", d.Index)
}

// Storage is a buffer of bytes on a device, shared by every view of it.
type Storage struct {
	dev    Device
	nbytes int
	ptr    unsafe.Pointer
	words  []uint64 // CPU memory: 8-byte aligned, kept alive by the Storage
}

// Alloc returns a zeroed storage of nbytes bytes on the CPU.
func Alloc(nbytes int) *Storage {
	if nbytes < 0 {
		panic("device: negative allocation")
	}
	words := make([]uint64, (nbytes+7)/8+1) // one spare word: never a nil pointer, even for 0 bytes
	return &Storage{dev: Device{Kind: CPU}, nbytes: nbytes, ptr: unsafe.Pointer(&words[0]), words: words}
}

// AllocUninit returns a storage of nbytes bytes whose contents are
// unspecified (for outputs about to be overwritten). Go zeroes all memory, so
// today it is [Alloc]; the distinction is kept for other devices.
func AllocUninit(nbytes int) *Storage { return Alloc(nbytes) }

// Grow makes s at least nbytes long, keeping its contents, as PyTorch's
// resize_ grows a storage: in place, so that every view of s sees the new
// memory (the bytes past the old end are zero). Pointers taken from s before
// Grow are stale after it.
func (s *Storage) Grow(nbytes int) {
	if nbytes <= s.nbytes {
		return
	}
	words := make([]uint64, (nbytes+7)/8+1)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), s.nbytes), s.Bytes())
	s.nbytes, s.ptr, s.words = nbytes, unsafe.Pointer(&words[0]), words
}

// Device returns the storage's device.
func (s *Storage) Device() Device { return s.dev }

// Len returns the storage's size in bytes.
func (s *Storage) Len() int { return s.nbytes }

// Pointer returns the address of byte 0 of a CPU storage.
func (s *Storage) Pointer() unsafe.Pointer { return s.ptr }

// Bytes returns the storage's bytes (CPU only).
func (s *Storage) Bytes() []byte { return unsafe.Slice((*byte)(s.ptr), s.nbytes) }

// Slice returns the n elements of type T starting at byte offset off of a
// CPU storage. It panics if they do not lie inside the storage.
func Slice[T any](s *Storage, off, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if off < 0 || n < 0 || off+n*size > s.nbytes {
		panic(fmt.Sprintf("device: slice [%d, %d) of %d-byte storage", off, off+n*size, s.nbytes))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Add(s.ptr, off)), n)
}

// SameMemory reports whether two storages are the same buffer.
func SameMemory(a, b *Storage) bool { return a == b }
