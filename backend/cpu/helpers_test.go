package cpu

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// elemOffset returns the byte offset of the row-major i-th element of v.
func elemOffset(v *raw.View, i int) int {
	off := v.Offset
	for d := v.Dim() - 1; d >= 0; d-- {
		s := v.Shape[d]
		off += (i % s) * v.Strides[d]
		i /= s
	}
	return off * v.DType.Size()
}

// setElem stores f into the row-major i-th element of v, converted as a
// test reference would: integers from int64, 16-bit floats through float32.
func setElem(v *raw.View, i int, f float64) {
	off, st := elemOffset(v, i), v.Storage
	switch v.DType {
	case dtype.Bool:
		device.Slice[bool](st, off, 1)[0] = f != 0
	case dtype.Uint8:
		device.Slice[uint8](st, off, 1)[0] = uint8(int64(f))
	case dtype.Int8:
		device.Slice[int8](st, off, 1)[0] = int8(int64(f))
	case dtype.Int16:
		device.Slice[int16](st, off, 1)[0] = int16(int64(f))
	case dtype.Int32:
		device.Slice[int32](st, off, 1)[0] = int32(int64(f))
	case dtype.Int64:
		device.Slice[int64](st, off, 1)[0] = int64(f)
	case dtype.Float16:
		device.Slice[dtype.Half](st, off, 1)[0] = dtype.HalfFromFloat32(float32(f))
	case dtype.BFloat16:
		device.Slice[dtype.BF16](st, off, 1)[0] = dtype.BF16FromFloat32(float32(f))
	case dtype.Float32:
		device.Slice[float32](st, off, 1)[0] = float32(f)
	case dtype.Float64:
		device.Slice[float64](st, off, 1)[0] = f
	default:
		panic("bad dtype")
	}
}

// getElem returns the row-major i-th element of v as a float64.
func getElem(v *raw.View, i int) float64 {
	off, st := elemOffset(v, i), v.Storage
	switch v.DType {
	case dtype.Bool:
		if device.Slice[bool](st, off, 1)[0] {
			return 1
		}
		return 0
	case dtype.Uint8:
		return float64(device.Slice[uint8](st, off, 1)[0])
	case dtype.Int8:
		return float64(device.Slice[int8](st, off, 1)[0])
	case dtype.Int16:
		return float64(device.Slice[int16](st, off, 1)[0])
	case dtype.Int32:
		return float64(device.Slice[int32](st, off, 1)[0])
	case dtype.Int64:
		return float64(device.Slice[int64](st, off, 1)[0])
	case dtype.Float16:
		return float64(device.Slice[dtype.Half](st, off, 1)[0].Float32())
	case dtype.BFloat16:
		return float64(device.Slice[dtype.BF16](st, off, 1)[0].Float32())
	case dtype.Float32:
		return float64(device.Slice[float32](st, off, 1)[0])
	case dtype.Float64:
		return device.Slice[float64](st, off, 1)[0]
	}
	panic("bad dtype")
}

// roundTo rounds a float64 result to float dtype d (16-bit floats through
// float32, as the kernels and PyTorch do).
func roundTo(d dtype.DType, x float64) float64 {
	switch d {
	case dtype.Float32:
		return float64(float32(x))
	case dtype.Float16:
		return float64(dtype.HalfFromFloat32(float32(x)).Float32())
	case dtype.BFloat16:
		return float64(dtype.BF16FromFloat32(float32(x)).Float32())
	}
	return x
}

// closeTo reports whether g is within atol + rtol·|w| of w (floats; NaN
// matches NaN, infinities match exactly) or equal to it.
func closeTo(g, w, rtol, atol float64, isFloat bool) bool {
	if !isFloat {
		return g == w
	}
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return g == w
	}
	return math.Abs(g-w) <= atol+rtol*math.Abs(w)
}
