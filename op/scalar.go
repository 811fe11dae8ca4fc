package op

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// Scalar is a Go number taking part in an op (PyTorch's Scalar): an int, a
// float or a bool. Its kind decides type promotion: an int scalar counts as
// int64 and a float scalar as float32, below any tensor of its category.
type Scalar struct {
	Kind dtype.Category
	F    float64
	I    int64
}

// Float returns a float scalar.
func Float(f float64) Scalar { return Scalar{Kind: dtype.CatFloat, F: f, I: int64(f)} }

// Int returns an integer scalar.
func Int(i int64) Scalar { return Scalar{Kind: dtype.CatInt, F: float64(i), I: i} }

// Bool returns a bool scalar.
func Bool(b bool) Scalar {
	if b {
		return Scalar{Kind: dtype.CatBool, F: 1, I: 1}
	}
	return Scalar{Kind: dtype.CatBool}
}

// DType returns the dtype a wrapped scalar carries: float64, int64 or bool.
func (s Scalar) DType() dtype.DType {
	switch s.Kind {
	case dtype.CatFloat:
		return dtype.Float64
	case dtype.CatInt:
		return dtype.Int64
	}
	return dtype.Bool
}

// IsFloat reports whether s is a float scalar.
func (s Scalar) IsFloat() bool { return s.Kind == dtype.CatFloat }

// Wrap returns s as a wrapped 0-dim view (a CPU scalar that ranks below
// tensors in type promotion).
func (s Scalar) Wrap() *raw.View {
	v := s.ViewAs(s.DType())
	v.Wrapped = true
	return v
}

// ViewAs returns a 0-dim view of dtype d holding s converted to d.
func (s Scalar) ViewAs(d dtype.DType) *raw.View {
	v := &raw.View{Storage: device.Alloc(d.Size()), DType: d, Shape: []int{}, Strides: []int{}}
	if s.Kind == dtype.CatFloat {
		v.SetFloat64(0, s.F)
	} else {
		v.SetInt64(0, s.I)
	}
	return v
}

// ScalarOf reads the first element of v as a Scalar of v's category.
func ScalarOf(v *raw.View) Scalar {
	switch {
	case v.DType.IsFloat():
		return Float(v.Float64At(v.Offset))
	case v.DType == dtype.Bool:
		return Bool(v.Int64At(v.Offset) != 0)
	}
	return Int(v.Int64At(v.Offset))
}

// Note [Checked scalars]
//
// PyTorch turns a Go number (its Scalar) into an element in one of two ways,
// and goten follows it op by op. Where the op wraps the number into a 0-dim
// tensor — the operands of add, mul, div, the comparisons, pow's base — the
// iterator casts it like any tensor, and a value the compute dtype cannot
// hold wraps: int8 + 1000 adds -24, int8 < 1000 compares with -24, uint8 -
// 300 subtracts 44. Where the kernel reads the number itself with
// c10::Scalar::to<T> — fill and full, clamp's bounds, where's x and y, the
// multiplier of add, sub, addcmul and addcdiv, pow's exponent, lerp's
// weight, logit's eps, addmm's alpha and beta — c10's checked_convert
// refuses it: "value cannot be converted to type int8_t without overflow".
// The op table says which inputs an op reads so and in which dtype
// (optable.Op.Scalars and ScalarIn); [Scalar.Check] is the one copy of
// checked_convert's rule (c10::overflows):
//
//   - into bool, and from bool: always fits;
//   - an integer into an unsigned dtype: fits if |x| ≤ its max, so uint8
//     takes -255..255 and -1 becomes 255 (C's two's complement, which lets
//     a - b run as a + 255·b);
//   - an integer into a signed or float dtype: fits if lowest ≤ x ≤ max;
//   - a float into a float dtype: ±Inf and NaN fit, else lowest ≤ x ≤ max
//     (65504 for float16, so 65504.5 is refused although it would round
//     to 65504);
//   - a float into an integer dtype: NaN and ±Inf are refused, else lowest
//     ≤ x ≤ max compared in float64 (127.5 does not fit int8).
//
// The check runs before anything is written, so a refused call leaves its
// outputs as they were (PyTorch, raising from its kernel, has resized an
// out= tensor by then).

// limits holds what checked_convert knows of a dtype: its C++ name, as
// PyTorch's message spells it, and its range.
type limits struct {
	name   string
	lo, hi float64 // float dtypes: -max, max
	ilo    int64   // integer and bool dtypes: lowest and max
	ihi    int64
}

var scalarLimits = [dtype.Count]limits{
	dtype.Bool:     {name: "bool", hi: 1, ihi: 1},
	dtype.Uint8:    {name: "uint8_t", lo: 0, hi: math.MaxUint8, ilo: 0, ihi: math.MaxUint8},
	dtype.Int8:     {name: "int8_t", lo: math.MinInt8, hi: math.MaxInt8, ilo: math.MinInt8, ihi: math.MaxInt8},
	dtype.Int16:    {name: "int16_t", lo: math.MinInt16, hi: math.MaxInt16, ilo: math.MinInt16, ihi: math.MaxInt16},
	dtype.Int32:    {name: "int", lo: math.MinInt32, hi: math.MaxInt32, ilo: math.MinInt32, ihi: math.MaxInt32},
	dtype.Int64:    {name: "int64_t", lo: math.MinInt64, hi: math.MaxInt64, ilo: math.MinInt64, ihi: math.MaxInt64},
	dtype.Float16:  {name: "at::Half", lo: -65504, hi: 65504},
	dtype.BFloat16: {name: "at::BFloat16", lo: -maxBF16, hi: maxBF16},
	dtype.Float32:  {name: "float", lo: -math.MaxFloat32, hi: math.MaxFloat32},
	dtype.Float64:  {name: "double", lo: -math.MaxFloat64, hi: math.MaxFloat64},
}

// maxBF16 is the largest finite bfloat16, (2 - 2^-7)·2^127.
const maxBF16 = 0x1.fep127

// Fits reports whether dtype d holds s by PyTorch's checked conversion
// (Note [Checked scalars]).
func (s Scalar) Fits(d dtype.DType) bool {
	if d == dtype.Bool || s.Kind == dtype.CatBool || !d.Valid() {
		return true
	}
	l := &scalarLimits[d]
	if s.Kind == dtype.CatFloat {
		if d.IsFloat() && (math.IsInf(s.F, 0) || math.IsNaN(s.F)) {
			return true
		}
		return s.F >= l.lo && s.F <= l.hi // false for NaN
	}
	switch {
	case d.IsFloat():
		return float64(s.I) >= l.lo && float64(s.I) <= l.hi
	case d == dtype.Uint8 && s.I < 0:
		return -uint64(s.I) <= uint64(l.ihi)
	}
	return s.I >= l.ilo && s.I <= l.ihi
}

// Check returns PyTorch's error for a Go number that dtype d cannot hold
// (Note [Checked scalars]), raised by op name; nil if it fits.
func (s Scalar) Check(name string, d dtype.DType) error {
	if s.Fits(d) {
		return nil
	}
	return errs.New(errs.Value, name, "value cannot be converted to type %s without overflow", scalarLimits[d].name)
}

// epsBounds returns args with logit's bounds as PyTorch's logit_kernel
// holds them: lo = eps and hi = 1 - lo, each an element of the compute
// dtype d, whose arithmetic computes hi (float32's for float16 and
// bfloat16, rounded back). In bfloat16, eps 0.001 is 0.00100708 and 1 - lo
// rounds to 1, so that an input of 1 stays infinite, as in PyTorch; the
// loops, which compute 16-bit floats in float32, cannot round so
// themselves.
func epsBounds(d dtype.DType, args *kernel.Args) *kernel.Args {
	a := *args
	switch d {
	case dtype.Float64:
		a.EpsHi = 1 - a.Eps
	case dtype.Float32, dtype.Float16, dtype.BFloat16:
		lo := roundFloat32(d, float32(a.Eps))
		a.Eps, a.EpsHi = float64(lo), float64(roundFloat32(d, 1-lo))
	}
	return &a
}

// roundFloat32 rounds x to the nearest element of float dtype d (float32,
// float16 or bfloat16).
func roundFloat32(d dtype.DType, x float32) float32 {
	switch d {
	case dtype.Float16:
		return dtype.HalfFromFloat32(x).Float32()
	case dtype.BFloat16:
		return dtype.BF16FromFloat32(x).Float32()
	}
	return x
}
