package tensor

import (
	"math/bits"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
)

// Storage is a buffer of bytes on a device, shared by every view of it;
// see package device.
type Storage = device.Storage

// FromStorage returns a tensor viewing s without copying it: element idx
// of the result lives at element offset + Σ idx[k]·strides[k] of s, in
// units of dt's size (torch.as_strided over a storage, PyTorch's
// Tensor.set_). Tensors made over the same storage share memory
// ([Tensor.SharesStorage] is true for them), as views of one tensor do;
// file readers use it to keep a checkpoint's shared storages shared and to
// view memory-mapped files (see [device.WrapHost]). strides nil means
// row-major contiguous.
//
// It panics with a value error if dt is not one of the ten dtypes, a size,
// stride or the offset is negative, len(strides) differs from len(shape),
// some element lies outside s, or s is host memory whose elements would
// not be aligned to dt's size (a wrapped buffer: allocated storages are
// aligned for every dtype).
func FromStorage(s *Storage, dt DType, shape, strides []int, offset int) *Tensor {
	const name = "from_storage"
	if s == nil {
		panic(errs.New(errs.Value, name, "nil storage"))
	}
	if !dt.Valid() {
		panic(errs.New(errs.Value, name, "invalid dtype %v", dt))
	}
	checkShape(name, shape)
	if strides == nil {
		strides = make([]int, len(shape))
		n := 1
		for k := len(shape) - 1; k >= 0; k-- {
			strides[k] = n
			n *= max(shape[k], 1)
		}
	}
	if len(strides) != len(shape) {
		panic(errs.New(errs.Value, name, "%d strides for %d dims", len(strides), len(shape)))
	}
	end, ok := storageExtent(shape, strides, offset)
	if !ok || end > uint64(s.Len()/dt.Size()) {
		panic(errs.New(errs.Value, name, "view of sizes %v, strides %v and offset %d lies outside a storage of %d %s elements",
			shape, strides, offset, s.Len()/dt.Size(), dt))
	}
	if s.Device().IsHost() && s.Len() > 0 && uintptr(s.Pointer())%uintptr(dt.Size()) != 0 {
		panic(errs.New(errs.Value, name, "storage at %p holds misaligned %s elements", s.Pointer(), dt))
	}
	v := &raw.View{Storage: s, DType: dt, Shape: append([]int{}, shape...), Strides: append([]int{}, strides...), Offset: offset}
	return wrap(v)
}

// storageExtent returns one past the largest storage element offset that a view
// of the given sizes, strides and offset touches (offset itself for an
// empty view), and false if a size, stride or the offset is negative or
// the sum overflows.
func storageExtent(shape, strides []int, offset int) (uint64, bool) {
	if offset < 0 {
		return 0, false
	}
	empty := false
	for k, n := range shape {
		if n < 0 || strides[k] < 0 {
			return 0, false
		}
		empty = empty || n == 0
	}
	if empty {
		return uint64(offset), true
	}
	end := uint64(offset) + 1
	for k, n := range shape {
		hi, lo := bits.Mul64(uint64(n-1), uint64(strides[k]))
		var c uint64
		end, c = bits.Add64(end, lo, 0)
		if hi != 0 || c != 0 || end > 1<<62 {
			return 0, false
		}
	}
	return end, true
}
