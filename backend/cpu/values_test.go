package cpu

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// A naive reference for every pointwise code, written independently of the
// generated loops: floats in float64 (then rounded to the dtype), integers
// in int64 (then wrapped to the dtype), bools as 0/1.

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
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

// wrap wraps an int64 result to integer dtype d.
func wrap(d dtype.DType, x int64) float64 {
	switch d {
	case dtype.Uint8:
		return float64(uint8(x))
	case dtype.Int8:
		return float64(int8(x))
	case dtype.Int16:
		return float64(int16(x))
	case dtype.Int32:
		return float64(int32(x))
	}
	return float64(x)
}

func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return math.Max(a, b)
}

func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return math.Min(a, b)
}

// sel is c ? x : y.
func sel[T any](c bool, x, y T) T {
	if c {
		return x
	}
	return y
}
