package cpu

import (
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// elemOffset returns the storage element offset of the row-major i-th
// element of v.
func elemOffset(v *raw.View, i int) int {
	off := v.Offset
	for d := v.Dim() - 1; d >= 0; d-- {
		s := v.Shape[d]
		off += (i % s) * v.Strides[d]
		i /= s
	}
	return off
}

// setElem stores f into the row-major i-th element of v (raw's conversion:
// integers from int64, 16-bit floats through float32).
func setElem(v *raw.View, i int, f float64) { v.SetFloat64(elemOffset(v, i), f) }

// getElem returns the row-major i-th element of v as a float64.
func getElem(v *raw.View, i int) float64 { return v.Float64At(elemOffset(v, i)) }

// roundTo rounds a float64 result to float dtype d (16-bit floats through
// float32, as the kernels and PyTorch do).
func roundTo(d dtype.DType, x float64) float64 { return dtype.Round(d, x) }

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
