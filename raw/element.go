package raw

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
)

// Note [Host element access]
// These accessors read and write single elements of a CPU storage, by
// element offset in the storage. They serve constructors, scalar access,
// printing and tests, never kernels: one dtype switch per element.

// Float64At returns the element at storage element offset off as a float64.
func (v *View) Float64At(off int) float64 { return LoadFloat64(v.Storage, v.DType, off) }

// Int64At returns the element at storage element offset off as an int64
// (floats truncate toward zero).
func (v *View) Int64At(off int) int64 { return LoadInt64(v.Storage, v.DType, off) }

// SetFloat64 writes x, converted to v's dtype, at storage element offset off.
func (v *View) SetFloat64(off int, x float64) { StoreFloat64(v.Storage, v.DType, off, x) }

// SetInt64 writes x, converted to v's dtype, at storage element offset off.
func (v *View) SetInt64(off int, x int64) { StoreInt64(v.Storage, v.DType, off, x) }

// LoadFloat64 reads element off of a storage holding dtype d.
func LoadFloat64(s *device.Storage, d dtype.DType, off int) float64 {
	b := off * d.Size()
	switch d {
	case dtype.Bool:
		if device.Slice[bool](s, b, 1)[0] {
			return 1
		}
		return 0
	case dtype.Uint8:
		return float64(device.Slice[uint8](s, b, 1)[0])
	case dtype.Int8:
		return float64(device.Slice[int8](s, b, 1)[0])
	case dtype.Int16:
		return float64(device.Slice[int16](s, b, 1)[0])
	case dtype.Int32:
		return float64(device.Slice[int32](s, b, 1)[0])
	case dtype.Int64:
		return float64(device.Slice[int64](s, b, 1)[0])
	case dtype.Float16:
		return float64(device.Slice[dtype.Half](s, b, 1)[0].Float32())
	case dtype.BFloat16:
		return float64(device.Slice[dtype.BF16](s, b, 1)[0].Float32())
	case dtype.Float32:
		return float64(device.Slice[float32](s, b, 1)[0])
	case dtype.Float64:
		return device.Slice[float64](s, b, 1)[0]
	}
	panic("raw: invalid dtype")
}

// LoadInt64 reads element off of a storage holding dtype d as an int64.
func LoadInt64(s *device.Storage, d dtype.DType, off int) int64 {
	if d == dtype.Int64 {
		return device.Slice[int64](s, off*8, 1)[0]
	}
	return int64(LoadFloat64(s, d, off))
}

// StoreFloat64 writes x converted to dtype d (PyTorch's conversion rules:
// truncation toward zero for integers, != 0 for bool, nearest even for
// 16-bit floats via float32).
func StoreFloat64(s *device.Storage, d dtype.DType, off int, x float64) {
	b := off * d.Size()
	switch d {
	case dtype.Bool:
		device.Slice[bool](s, b, 1)[0] = x != 0 || math.IsNaN(x)
	case dtype.Uint8:
		device.Slice[uint8](s, b, 1)[0] = uint8(int64(x))
	case dtype.Int8:
		device.Slice[int8](s, b, 1)[0] = int8(int64(x))
	case dtype.Int16:
		device.Slice[int16](s, b, 1)[0] = int16(int64(x))
	case dtype.Int32:
		device.Slice[int32](s, b, 1)[0] = int32(int64(x))
	case dtype.Int64:
		device.Slice[int64](s, b, 1)[0] = int64(x)
	case dtype.Float16:
		device.Slice[dtype.Half](s, b, 1)[0] = dtype.HalfFromFloat32(float32(x))
	case dtype.BFloat16:
		device.Slice[dtype.BF16](s, b, 1)[0] = dtype.BF16FromFloat32(float32(x))
	case dtype.Float32:
		device.Slice[float32](s, b, 1)[0] = float32(x)
	case dtype.Float64:
		device.Slice[float64](s, b, 1)[0] = x
	default:
		panic("raw: invalid dtype")
	}
}

// StoreInt64 writes the integer x converted to dtype d (exact for int64).
func StoreInt64(s *device.Storage, d dtype.DType, off int, x int64) {
	if d == dtype.Int64 {
		device.Slice[int64](s, off*8, 1)[0] = x
		return
	}
	if d.IsInt() || d == dtype.Bool {
		switch d {
		case dtype.Bool:
			device.Slice[bool](s, off, 1)[0] = x != 0
		case dtype.Uint8:
			device.Slice[uint8](s, off, 1)[0] = uint8(x)
		case dtype.Int8:
			device.Slice[int8](s, off, 1)[0] = int8(x)
		case dtype.Int16:
			device.Slice[int16](s, off*2, 1)[0] = int16(x)
		case dtype.Int32:
			device.Slice[int32](s, off*4, 1)[0] = int32(x)
		}
		return
	}
	StoreFloat64(s, d, off, float64(x))
}

// ElementOffsets calls fn with the storage element offset of every element
// of v in row-major order.
func (v *View) ElementOffsets(fn func(off int)) {
	n := v.NumEl()
	if n == 0 {
		return
	}
	nd := len(v.Shape)
	idx := make([]int, nd)
	off := v.Offset
	for i := 0; i < n; i++ {
		fn(off)
		for d := nd - 1; d >= 0; d-- {
			idx[d]++
			off += v.Strides[d]
			if idx[d] < v.Shape[d] {
				break
			}
			off -= idx[d] * v.Strides[d]
			idx[d] = 0
		}
	}
}
