package tensor

import (
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// pointwise runs an elementwise op definition: into a new tensor (dst
// nil), into dst (out=), or into ins[0] (inPlace).
func pointwise(d *optable.Op, dst *Tensor, inPlace bool, args *kernel.Args, ins ...*Tensor) *Tensor {
	var buf [4]*raw.View // on the stack: Note [Per-op overhead] in package op
	vs := buf[:0]
	if len(ins) > len(buf) {
		vs = make([]*raw.View, 0, len(ins))
	}
	vs = vs[:len(ins)]
	for i, t := range ins {
		if t != nil {
			vs[i] = t.v
		}
	}
	var out *raw.View
	if dst != nil {
		out = dst.v
	}
	r, err := op.Pointwise(d, out, inPlace, args, vs...)
	must(err)
	switch {
	case inPlace:
		return ins[0]
	case dst != nil:
		return dst
	}
	return wrap(r)
}

// Neg returns -x (a dtype error for bool), elementwise.
func (t *Tensor) Neg() *Tensor { return pointwise(optable.Neg, nil, false, nil, t) }

// NegTo writes -x (a dtype error for bool) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func NegTo(dst, t *Tensor) *Tensor { return pointwise(optable.Neg, dst, false, nil, t) }

// NegInPlace overwrites t with -x (a dtype error for bool) and returns t.
func (t *Tensor) NegInPlace() *Tensor { return pointwise(optable.Neg, nil, true, nil, t) }

// Abs returns |x|, elementwise.
func (t *Tensor) Abs() *Tensor { return pointwise(optable.Abs, nil, false, nil, t) }

// AbsTo writes |x| of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AbsTo(dst, t *Tensor) *Tensor { return pointwise(optable.Abs, dst, false, nil, t) }

// AbsInPlace overwrites t with |x| and returns t.
func (t *Tensor) AbsInPlace() *Tensor { return pointwise(optable.Abs, nil, true, nil, t) }

// Sign returns the sign of x: -1, 0 or 1 (0 for NaN), elementwise.
func (t *Tensor) Sign() *Tensor { return pointwise(optable.Sign, nil, false, nil, t) }

// SignTo writes the sign of x: -1, 0 or 1 (0 for NaN) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SignTo(dst, t *Tensor) *Tensor { return pointwise(optable.Sign, dst, false, nil, t) }

// SignInPlace overwrites t with the sign of x: -1, 0 or 1 (0 for NaN) and returns t.
func (t *Tensor) SignInPlace() *Tensor { return pointwise(optable.Sign, nil, true, nil, t) }

// Exp returns e^x, elementwise.
func (t *Tensor) Exp() *Tensor { return pointwise(optable.Exp, nil, false, nil, t) }

// ExpTo writes e^x of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func ExpTo(dst, t *Tensor) *Tensor { return pointwise(optable.Exp, dst, false, nil, t) }

// ExpInPlace overwrites t with e^x and returns t.
func (t *Tensor) ExpInPlace() *Tensor { return pointwise(optable.Exp, nil, true, nil, t) }

// Exp2 returns 2^x, elementwise.
func (t *Tensor) Exp2() *Tensor { return pointwise(optable.Exp2, nil, false, nil, t) }

// Exp2To writes 2^x of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func Exp2To(dst, t *Tensor) *Tensor { return pointwise(optable.Exp2, dst, false, nil, t) }

// Exp2InPlace overwrites t with 2^x and returns t.
func (t *Tensor) Exp2InPlace() *Tensor { return pointwise(optable.Exp2, nil, true, nil, t) }

// Expm1 returns e^x - 1, elementwise.
func (t *Tensor) Expm1() *Tensor { return pointwise(optable.Expm1, nil, false, nil, t) }

// Expm1To writes e^x - 1 of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func Expm1To(dst, t *Tensor) *Tensor { return pointwise(optable.Expm1, dst, false, nil, t) }

// Expm1InPlace overwrites t with e^x - 1 and returns t.
func (t *Tensor) Expm1InPlace() *Tensor { return pointwise(optable.Expm1, nil, true, nil, t) }

// Log returns the natural logarithm, elementwise.
func (t *Tensor) Log() *Tensor { return pointwise(optable.Log, nil, false, nil, t) }

// LogTo writes the natural logarithm of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func LogTo(dst, t *Tensor) *Tensor { return pointwise(optable.Log, dst, false, nil, t) }

// LogInPlace overwrites t with the natural logarithm and returns t.
func (t *Tensor) LogInPlace() *Tensor { return pointwise(optable.Log, nil, true, nil, t) }

// Log2 returns the base-2 logarithm, elementwise.
func (t *Tensor) Log2() *Tensor { return pointwise(optable.Log2, nil, false, nil, t) }

// Log2To writes the base-2 logarithm of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func Log2To(dst, t *Tensor) *Tensor { return pointwise(optable.Log2, dst, false, nil, t) }

// Log2InPlace overwrites t with the base-2 logarithm and returns t.
func (t *Tensor) Log2InPlace() *Tensor { return pointwise(optable.Log2, nil, true, nil, t) }

// Log10 returns the base-10 logarithm, elementwise.
func (t *Tensor) Log10() *Tensor { return pointwise(optable.Log10, nil, false, nil, t) }

// Log10To writes the base-10 logarithm of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func Log10To(dst, t *Tensor) *Tensor { return pointwise(optable.Log10, dst, false, nil, t) }

// Log10InPlace overwrites t with the base-10 logarithm and returns t.
func (t *Tensor) Log10InPlace() *Tensor { return pointwise(optable.Log10, nil, true, nil, t) }

// Log1p returns ln(1 + x), elementwise.
func (t *Tensor) Log1p() *Tensor { return pointwise(optable.Log1p, nil, false, nil, t) }

// Log1pTo writes ln(1 + x) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func Log1pTo(dst, t *Tensor) *Tensor { return pointwise(optable.Log1p, dst, false, nil, t) }

// Log1pInPlace overwrites t with ln(1 + x) and returns t.
func (t *Tensor) Log1pInPlace() *Tensor { return pointwise(optable.Log1p, nil, true, nil, t) }

// Sqrt returns the square root, elementwise.
func (t *Tensor) Sqrt() *Tensor { return pointwise(optable.Sqrt, nil, false, nil, t) }

// SqrtTo writes the square root of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SqrtTo(dst, t *Tensor) *Tensor { return pointwise(optable.Sqrt, dst, false, nil, t) }

// SqrtInPlace overwrites t with the square root and returns t.
func (t *Tensor) SqrtInPlace() *Tensor { return pointwise(optable.Sqrt, nil, true, nil, t) }

// Rsqrt returns 1/√x, elementwise.
func (t *Tensor) Rsqrt() *Tensor { return pointwise(optable.Rsqrt, nil, false, nil, t) }

// RsqrtTo writes 1/√x of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func RsqrtTo(dst, t *Tensor) *Tensor { return pointwise(optable.Rsqrt, dst, false, nil, t) }

// RsqrtInPlace overwrites t with 1/√x and returns t.
func (t *Tensor) RsqrtInPlace() *Tensor { return pointwise(optable.Rsqrt, nil, true, nil, t) }

// Reciprocal returns 1/x, elementwise.
func (t *Tensor) Reciprocal() *Tensor { return pointwise(optable.Reciprocal, nil, false, nil, t) }

// ReciprocalTo writes 1/x of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func ReciprocalTo(dst, t *Tensor) *Tensor { return pointwise(optable.Reciprocal, dst, false, nil, t) }

// ReciprocalInPlace overwrites t with 1/x and returns t.
func (t *Tensor) ReciprocalInPlace() *Tensor { return pointwise(optable.Reciprocal, nil, true, nil, t) }

// Square returns x² (bool gives int64), elementwise.
func (t *Tensor) Square() *Tensor { return pointwise(optable.Square, nil, false, nil, t) }

// SquareTo writes x² (bool gives int64) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SquareTo(dst, t *Tensor) *Tensor { return pointwise(optable.Square, dst, false, nil, t) }

// SquareInPlace overwrites t with x² (bool gives int64) and returns t.
func (t *Tensor) SquareInPlace() *Tensor { return pointwise(optable.Square, nil, true, nil, t) }

// Sin returns the sine, elementwise.
func (t *Tensor) Sin() *Tensor { return pointwise(optable.Sin, nil, false, nil, t) }

// SinTo writes the sine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SinTo(dst, t *Tensor) *Tensor { return pointwise(optable.Sin, dst, false, nil, t) }

// SinInPlace overwrites t with the sine and returns t.
func (t *Tensor) SinInPlace() *Tensor { return pointwise(optable.Sin, nil, true, nil, t) }

// Cos returns the cosine, elementwise.
func (t *Tensor) Cos() *Tensor { return pointwise(optable.Cos, nil, false, nil, t) }

// CosTo writes the cosine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func CosTo(dst, t *Tensor) *Tensor { return pointwise(optable.Cos, dst, false, nil, t) }

// CosInPlace overwrites t with the cosine and returns t.
func (t *Tensor) CosInPlace() *Tensor { return pointwise(optable.Cos, nil, true, nil, t) }

// Tan returns the tangent, elementwise.
func (t *Tensor) Tan() *Tensor { return pointwise(optable.Tan, nil, false, nil, t) }

// TanTo writes the tangent of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func TanTo(dst, t *Tensor) *Tensor { return pointwise(optable.Tan, dst, false, nil, t) }

// TanInPlace overwrites t with the tangent and returns t.
func (t *Tensor) TanInPlace() *Tensor { return pointwise(optable.Tan, nil, true, nil, t) }

// Asin returns the arcsine, elementwise.
func (t *Tensor) Asin() *Tensor { return pointwise(optable.Asin, nil, false, nil, t) }

// AsinTo writes the arcsine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AsinTo(dst, t *Tensor) *Tensor { return pointwise(optable.Asin, dst, false, nil, t) }

// AsinInPlace overwrites t with the arcsine and returns t.
func (t *Tensor) AsinInPlace() *Tensor { return pointwise(optable.Asin, nil, true, nil, t) }

// Acos returns the arccosine, elementwise.
func (t *Tensor) Acos() *Tensor { return pointwise(optable.Acos, nil, false, nil, t) }

// AcosTo writes the arccosine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AcosTo(dst, t *Tensor) *Tensor { return pointwise(optable.Acos, dst, false, nil, t) }

// AcosInPlace overwrites t with the arccosine and returns t.
func (t *Tensor) AcosInPlace() *Tensor { return pointwise(optable.Acos, nil, true, nil, t) }

// Atan returns the arctangent, elementwise.
func (t *Tensor) Atan() *Tensor { return pointwise(optable.Atan, nil, false, nil, t) }

// AtanTo writes the arctangent of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AtanTo(dst, t *Tensor) *Tensor { return pointwise(optable.Atan, dst, false, nil, t) }

// AtanInPlace overwrites t with the arctangent and returns t.
func (t *Tensor) AtanInPlace() *Tensor { return pointwise(optable.Atan, nil, true, nil, t) }

// Sinh returns the hyperbolic sine, elementwise.
func (t *Tensor) Sinh() *Tensor { return pointwise(optable.Sinh, nil, false, nil, t) }

// SinhTo writes the hyperbolic sine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SinhTo(dst, t *Tensor) *Tensor { return pointwise(optable.Sinh, dst, false, nil, t) }

// SinhInPlace overwrites t with the hyperbolic sine and returns t.
func (t *Tensor) SinhInPlace() *Tensor { return pointwise(optable.Sinh, nil, true, nil, t) }

// Cosh returns the hyperbolic cosine, elementwise.
func (t *Tensor) Cosh() *Tensor { return pointwise(optable.Cosh, nil, false, nil, t) }

// CoshTo writes the hyperbolic cosine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func CoshTo(dst, t *Tensor) *Tensor { return pointwise(optable.Cosh, dst, false, nil, t) }

// CoshInPlace overwrites t with the hyperbolic cosine and returns t.
func (t *Tensor) CoshInPlace() *Tensor { return pointwise(optable.Cosh, nil, true, nil, t) }

// Tanh returns the hyperbolic tangent, elementwise.
func (t *Tensor) Tanh() *Tensor { return pointwise(optable.Tanh, nil, false, nil, t) }

// TanhTo writes the hyperbolic tangent of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func TanhTo(dst, t *Tensor) *Tensor { return pointwise(optable.Tanh, dst, false, nil, t) }

// TanhInPlace overwrites t with the hyperbolic tangent and returns t.
func (t *Tensor) TanhInPlace() *Tensor { return pointwise(optable.Tanh, nil, true, nil, t) }

// Asinh returns the inverse hyperbolic sine, elementwise.
func (t *Tensor) Asinh() *Tensor { return pointwise(optable.Asinh, nil, false, nil, t) }

// AsinhTo writes the inverse hyperbolic sine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AsinhTo(dst, t *Tensor) *Tensor { return pointwise(optable.Asinh, dst, false, nil, t) }

// AsinhInPlace overwrites t with the inverse hyperbolic sine and returns t.
func (t *Tensor) AsinhInPlace() *Tensor { return pointwise(optable.Asinh, nil, true, nil, t) }

// Acosh returns the inverse hyperbolic cosine, elementwise.
func (t *Tensor) Acosh() *Tensor { return pointwise(optable.Acosh, nil, false, nil, t) }

// AcoshTo writes the inverse hyperbolic cosine of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AcoshTo(dst, t *Tensor) *Tensor { return pointwise(optable.Acosh, dst, false, nil, t) }

// AcoshInPlace overwrites t with the inverse hyperbolic cosine and returns t.
func (t *Tensor) AcoshInPlace() *Tensor { return pointwise(optable.Acosh, nil, true, nil, t) }

// Atanh returns the inverse hyperbolic tangent, elementwise.
func (t *Tensor) Atanh() *Tensor { return pointwise(optable.Atanh, nil, false, nil, t) }

// AtanhTo writes the inverse hyperbolic tangent of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func AtanhTo(dst, t *Tensor) *Tensor { return pointwise(optable.Atanh, dst, false, nil, t) }

// AtanhInPlace overwrites t with the inverse hyperbolic tangent and returns t.
func (t *Tensor) AtanhInPlace() *Tensor { return pointwise(optable.Atanh, nil, true, nil, t) }

// Sigmoid returns 1/(1+e^-x), elementwise.
func (t *Tensor) Sigmoid() *Tensor { return pointwise(optable.Sigmoid, nil, false, nil, t) }

// SigmoidTo writes 1/(1+e^-x) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SigmoidTo(dst, t *Tensor) *Tensor { return pointwise(optable.Sigmoid, dst, false, nil, t) }

// SigmoidInPlace overwrites t with 1/(1+e^-x) and returns t.
func (t *Tensor) SigmoidInPlace() *Tensor { return pointwise(optable.Sigmoid, nil, true, nil, t) }

// Logit returns log(x/(1-x)), elementwise.
func (t *Tensor) Logit() *Tensor { return pointwise(optable.Logit, nil, false, nil, t) }

// LogitTo writes log(x/(1-x)) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func LogitTo(dst, t *Tensor) *Tensor { return pointwise(optable.Logit, dst, false, nil, t) }

// LogitInPlace overwrites t with log(x/(1-x)) and returns t.
func (t *Tensor) LogitInPlace() *Tensor { return pointwise(optable.Logit, nil, true, nil, t) }

// Relu returns max(x, 0) (a dtype error for bool), elementwise.
func (t *Tensor) Relu() *Tensor { return pointwise(optable.Relu, nil, false, nil, t) }

// ReluTo writes max(x, 0) (a dtype error for bool) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func ReluTo(dst, t *Tensor) *Tensor { return pointwise(optable.Relu, dst, false, nil, t) }

// ReluInPlace overwrites t with max(x, 0) (a dtype error for bool) and returns t.
func (t *Tensor) ReluInPlace() *Tensor { return pointwise(optable.Relu, nil, true, nil, t) }

// Gelu returns x·Φ(x), the erf form of GELU (floats only), elementwise.
func (t *Tensor) Gelu() *Tensor { return pointwise(optable.Gelu, nil, false, nil, t) }

// GeluTo writes x·Φ(x), the erf form of GELU (floats only) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func GeluTo(dst, t *Tensor) *Tensor { return pointwise(optable.Gelu, dst, false, nil, t) }

// GeluInPlace overwrites t with x·Φ(x), the erf form of GELU (floats only) and returns t.
func (t *Tensor) GeluInPlace() *Tensor { return pointwise(optable.Gelu, nil, true, nil, t) }

// GeluTanh returns the tanh approximation of GELU (floats only), elementwise.
func (t *Tensor) GeluTanh() *Tensor { return pointwise(optable.GeluTanh, nil, false, nil, t) }

// GeluTanhTo writes the tanh approximation of GELU (floats only) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func GeluTanhTo(dst, t *Tensor) *Tensor { return pointwise(optable.GeluTanh, dst, false, nil, t) }

// GeluTanhInPlace overwrites t with the tanh approximation of GELU (floats only) and returns t.
func (t *Tensor) GeluTanhInPlace() *Tensor { return pointwise(optable.GeluTanh, nil, true, nil, t) }

// Silu returns x·sigmoid(x) (floats only), elementwise.
func (t *Tensor) Silu() *Tensor { return pointwise(optable.Silu, nil, false, nil, t) }

// SiluTo writes x·sigmoid(x) (floats only) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SiluTo(dst, t *Tensor) *Tensor { return pointwise(optable.Silu, dst, false, nil, t) }

// SiluInPlace overwrites t with x·sigmoid(x) (floats only) and returns t.
func (t *Tensor) SiluInPlace() *Tensor { return pointwise(optable.Silu, nil, true, nil, t) }

// Erf returns the error function, elementwise.
func (t *Tensor) Erf() *Tensor { return pointwise(optable.Erf, nil, false, nil, t) }

// ErfTo writes the error function of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func ErfTo(dst, t *Tensor) *Tensor { return pointwise(optable.Erf, dst, false, nil, t) }

// ErfInPlace overwrites t with the error function and returns t.
func (t *Tensor) ErfInPlace() *Tensor { return pointwise(optable.Erf, nil, true, nil, t) }

// Erfc returns the complementary error function, elementwise.
func (t *Tensor) Erfc() *Tensor { return pointwise(optable.Erfc, nil, false, nil, t) }

// ErfcTo writes the complementary error function of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func ErfcTo(dst, t *Tensor) *Tensor { return pointwise(optable.Erfc, dst, false, nil, t) }

// ErfcInPlace overwrites t with the complementary error function and returns t.
func (t *Tensor) ErfcInPlace() *Tensor { return pointwise(optable.Erfc, nil, true, nil, t) }

// Floor returns x rounded down (integers unchanged), elementwise.
func (t *Tensor) Floor() *Tensor { return pointwise(optable.Floor, nil, false, nil, t) }

// FloorTo writes x rounded down (integers unchanged) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func FloorTo(dst, t *Tensor) *Tensor { return pointwise(optable.Floor, dst, false, nil, t) }

// FloorInPlace overwrites t with x rounded down (integers unchanged) and returns t.
func (t *Tensor) FloorInPlace() *Tensor { return pointwise(optable.Floor, nil, true, nil, t) }

// Ceil returns x rounded up (integers unchanged), elementwise.
func (t *Tensor) Ceil() *Tensor { return pointwise(optable.Ceil, nil, false, nil, t) }

// CeilTo writes x rounded up (integers unchanged) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func CeilTo(dst, t *Tensor) *Tensor { return pointwise(optable.Ceil, dst, false, nil, t) }

// CeilInPlace overwrites t with x rounded up (integers unchanged) and returns t.
func (t *Tensor) CeilInPlace() *Tensor { return pointwise(optable.Ceil, nil, true, nil, t) }

// Round returns x rounded half to even (integers unchanged), elementwise.
func (t *Tensor) Round() *Tensor { return pointwise(optable.Round, nil, false, nil, t) }

// RoundTo writes x rounded half to even (integers unchanged) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func RoundTo(dst, t *Tensor) *Tensor { return pointwise(optable.Round, dst, false, nil, t) }

// RoundInPlace overwrites t with x rounded half to even (integers unchanged) and returns t.
func (t *Tensor) RoundInPlace() *Tensor { return pointwise(optable.Round, nil, true, nil, t) }

// Trunc returns x rounded toward zero (integers unchanged), elementwise.
func (t *Tensor) Trunc() *Tensor { return pointwise(optable.Trunc, nil, false, nil, t) }

// TruncTo writes x rounded toward zero (integers unchanged) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func TruncTo(dst, t *Tensor) *Tensor { return pointwise(optable.Trunc, dst, false, nil, t) }

// TruncInPlace overwrites t with x rounded toward zero (integers unchanged) and returns t.
func (t *Tensor) TruncInPlace() *Tensor { return pointwise(optable.Trunc, nil, true, nil, t) }

// Frac returns x - trunc(x) (floats only), elementwise.
func (t *Tensor) Frac() *Tensor { return pointwise(optable.Frac, nil, false, nil, t) }

// FracTo writes x - trunc(x) (floats only) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func FracTo(dst, t *Tensor) *Tensor { return pointwise(optable.Frac, dst, false, nil, t) }

// FracInPlace overwrites t with x - trunc(x) (floats only) and returns t.
func (t *Tensor) FracInPlace() *Tensor { return pointwise(optable.Frac, nil, true, nil, t) }

// LogicalNot returns x == 0, as bool, elementwise.
func (t *Tensor) LogicalNot() *Tensor { return pointwise(optable.LogicalNot, nil, false, nil, t) }

// LogicalNotTo writes x == 0, as bool of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func LogicalNotTo(dst, t *Tensor) *Tensor { return pointwise(optable.LogicalNot, dst, false, nil, t) }

// LogicalNotInPlace overwrites t with x == 0, as bool and returns t.
func (t *Tensor) LogicalNotInPlace() *Tensor { return pointwise(optable.LogicalNot, nil, true, nil, t) }

// BitwiseNot returns ^x for integers, !x for bool (a dtype error for floats), elementwise.
func (t *Tensor) BitwiseNot() *Tensor { return pointwise(optable.BitwiseNot, nil, false, nil, t) }

// BitwiseNotTo writes ^x for integers, !x for bool (a dtype error for floats) of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func BitwiseNotTo(dst, t *Tensor) *Tensor { return pointwise(optable.BitwiseNot, dst, false, nil, t) }

// BitwiseNotInPlace overwrites t with ^x for integers, !x for bool (a dtype error for floats) and returns t.
func (t *Tensor) BitwiseNotInPlace() *Tensor { return pointwise(optable.BitwiseNot, nil, true, nil, t) }

// IsNan returns whether x is NaN, as bool, elementwise.
func (t *Tensor) IsNan() *Tensor { return pointwise(optable.IsNan, nil, false, nil, t) }

// IsNanTo writes whether x is NaN, as bool of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func IsNanTo(dst, t *Tensor) *Tensor { return pointwise(optable.IsNan, dst, false, nil, t) }

// IsNanInPlace overwrites t with whether x is NaN, as bool and returns t.
func (t *Tensor) IsNanInPlace() *Tensor { return pointwise(optable.IsNan, nil, true, nil, t) }

// IsInf returns whether x is ±inf, as bool, elementwise.
func (t *Tensor) IsInf() *Tensor { return pointwise(optable.IsInf, nil, false, nil, t) }

// IsInfTo writes whether x is ±inf, as bool of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func IsInfTo(dst, t *Tensor) *Tensor { return pointwise(optable.IsInf, dst, false, nil, t) }

// IsInfInPlace overwrites t with whether x is ±inf, as bool and returns t.
func (t *Tensor) IsInfInPlace() *Tensor { return pointwise(optable.IsInf, nil, true, nil, t) }

// IsFinite returns whether x is finite, as bool, elementwise.
func (t *Tensor) IsFinite() *Tensor { return pointwise(optable.IsFinite, nil, false, nil, t) }

// IsFiniteTo writes whether x is finite, as bool of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func IsFiniteTo(dst, t *Tensor) *Tensor { return pointwise(optable.IsFinite, dst, false, nil, t) }

// IsFiniteInPlace overwrites t with whether x is finite, as bool and returns t.
func (t *Tensor) IsFiniteInPlace() *Tensor { return pointwise(optable.IsFinite, nil, true, nil, t) }

// Signbit returns whether x's sign bit is set (-0.0 included), as bool, elementwise.
func (t *Tensor) Signbit() *Tensor { return pointwise(optable.Signbit, nil, false, nil, t) }

// SignbitTo writes whether x's sign bit is set (-0.0 included), as bool of t into dst (PyTorch's out=: dst is resized if it
// has no elements, and may have another dtype the result can be cast to) and returns dst.
func SignbitTo(dst, t *Tensor) *Tensor { return pointwise(optable.Signbit, dst, false, nil, t) }

// SignbitInPlace overwrites t with whether x's sign bit is set (-0.0 included), as bool and returns t.
func (t *Tensor) SignbitInPlace() *Tensor { return pointwise(optable.Signbit, nil, true, nil, t) }

// Mul returns a·b, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Mul(a, b *Tensor) *Tensor { return pointwise(optable.Mul, nil, false, nil, a, b) }

// Mul returns a·b for a = t, b = other; see [Mul].
func (t *Tensor) Mul(other *Tensor) *Tensor { return pointwise(optable.Mul, nil, false, nil, t, other) }

// MulTo writes a·b into dst (PyTorch's out=) and returns dst.
func MulTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Mul, dst, false, nil, a, b) }

// MulInPlace overwrites t with a·b for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) MulInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Mul, nil, true, nil, t, other)
}

// Div returns a/b in true division (integers give float32), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Div(a, b *Tensor) *Tensor { return pointwise(optable.Div, nil, false, nil, a, b) }

// Div returns a/b in true division (integers give float32) for a = t, b = other; see [Div].
func (t *Tensor) Div(other *Tensor) *Tensor { return pointwise(optable.Div, nil, false, nil, t, other) }

// DivTo writes a/b in true division (integers give float32) into dst (PyTorch's out=) and returns dst.
func DivTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Div, dst, false, nil, a, b) }

// DivInPlace overwrites t with a/b in true division (integers give float32) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) DivInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Div, nil, true, nil, t, other)
}

// FloorDivide returns floor(a/b) (Python's //), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func FloorDivide(a, b *Tensor) *Tensor { return pointwise(optable.FloorDivide, nil, false, nil, a, b) }

// FloorDivide returns floor(a/b) (Python's //) for a = t, b = other; see [FloorDivide].
func (t *Tensor) FloorDivide(other *Tensor) *Tensor {
	return pointwise(optable.FloorDivide, nil, false, nil, t, other)
}

// FloorDivideTo writes floor(a/b) (Python's //) into dst (PyTorch's out=) and returns dst.
func FloorDivideTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.FloorDivide, dst, false, nil, a, b)
}

// FloorDivideInPlace overwrites t with floor(a/b) (Python's //) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) FloorDivideInPlace(other *Tensor) *Tensor {
	return pointwise(optable.FloorDivide, nil, true, nil, t, other)
}

// Remainder returns a - floor(a/b)·b, with the sign of b (Python's %), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Remainder(a, b *Tensor) *Tensor { return pointwise(optable.Remainder, nil, false, nil, a, b) }

// Remainder returns a - floor(a/b)·b, with the sign of b (Python's %) for a = t, b = other; see [Remainder].
func (t *Tensor) Remainder(other *Tensor) *Tensor {
	return pointwise(optable.Remainder, nil, false, nil, t, other)
}

// RemainderTo writes a - floor(a/b)·b, with the sign of b (Python's %) into dst (PyTorch's out=) and returns dst.
func RemainderTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.Remainder, dst, false, nil, a, b)
}

// RemainderInPlace overwrites t with a - floor(a/b)·b, with the sign of b (Python's %) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) RemainderInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Remainder, nil, true, nil, t, other)
}

// Fmod returns C's fmod: the remainder with the sign of a, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Fmod(a, b *Tensor) *Tensor { return pointwise(optable.Fmod, nil, false, nil, a, b) }

// Fmod returns C's fmod: the remainder with the sign of a for a = t, b = other; see [Fmod].
func (t *Tensor) Fmod(other *Tensor) *Tensor {
	return pointwise(optable.Fmod, nil, false, nil, t, other)
}

// FmodTo writes C's fmod: the remainder with the sign of a into dst (PyTorch's out=) and returns dst.
func FmodTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Fmod, dst, false, nil, a, b) }

// FmodInPlace overwrites t with C's fmod: the remainder with the sign of a for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) FmodInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Fmod, nil, true, nil, t, other)
}

// Pow returns a^b, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Pow(a, b *Tensor) *Tensor { return pointwise(optable.Pow, nil, false, nil, a, b) }

// Pow returns a^b for a = t, b = other; see [Pow].
func (t *Tensor) Pow(other *Tensor) *Tensor { return pointwise(optable.Pow, nil, false, nil, t, other) }

// PowTo writes a^b into dst (PyTorch's out=) and returns dst.
func PowTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Pow, dst, false, nil, a, b) }

// PowInPlace overwrites t with a^b for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) PowInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Pow, nil, true, nil, t, other)
}

// Maximum returns the larger of a and b (NaN propagates), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Maximum(a, b *Tensor) *Tensor { return pointwise(optable.Maximum, nil, false, nil, a, b) }

// Maximum returns the larger of a and b (NaN propagates) for a = t, b = other; see [Maximum].
func (t *Tensor) Maximum(other *Tensor) *Tensor {
	return pointwise(optable.Maximum, nil, false, nil, t, other)
}

// MaximumTo writes the larger of a and b (NaN propagates) into dst (PyTorch's out=) and returns dst.
func MaximumTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Maximum, dst, false, nil, a, b) }

// MaximumInPlace overwrites t with the larger of a and b (NaN propagates) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) MaximumInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Maximum, nil, true, nil, t, other)
}

// Minimum returns the smaller of a and b (NaN propagates), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Minimum(a, b *Tensor) *Tensor { return pointwise(optable.Minimum, nil, false, nil, a, b) }

// Minimum returns the smaller of a and b (NaN propagates) for a = t, b = other; see [Minimum].
func (t *Tensor) Minimum(other *Tensor) *Tensor {
	return pointwise(optable.Minimum, nil, false, nil, t, other)
}

// MinimumTo writes the smaller of a and b (NaN propagates) into dst (PyTorch's out=) and returns dst.
func MinimumTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Minimum, dst, false, nil, a, b) }

// MinimumInPlace overwrites t with the smaller of a and b (NaN propagates) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) MinimumInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Minimum, nil, true, nil, t, other)
}

// Fmax returns the larger of a and b, ignoring a NaN, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Fmax(a, b *Tensor) *Tensor { return pointwise(optable.Fmax, nil, false, nil, a, b) }

// Fmax returns the larger of a and b, ignoring a NaN for a = t, b = other; see [Fmax].
func (t *Tensor) Fmax(other *Tensor) *Tensor {
	return pointwise(optable.Fmax, nil, false, nil, t, other)
}

// FmaxTo writes the larger of a and b, ignoring a NaN into dst (PyTorch's out=) and returns dst.
func FmaxTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Fmax, dst, false, nil, a, b) }

// FmaxInPlace overwrites t with the larger of a and b, ignoring a NaN for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) FmaxInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Fmax, nil, true, nil, t, other)
}

// Fmin returns the smaller of a and b, ignoring a NaN, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Fmin(a, b *Tensor) *Tensor { return pointwise(optable.Fmin, nil, false, nil, a, b) }

// Fmin returns the smaller of a and b, ignoring a NaN for a = t, b = other; see [Fmin].
func (t *Tensor) Fmin(other *Tensor) *Tensor {
	return pointwise(optable.Fmin, nil, false, nil, t, other)
}

// FminTo writes the smaller of a and b, ignoring a NaN into dst (PyTorch's out=) and returns dst.
func FminTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Fmin, dst, false, nil, a, b) }

// FminInPlace overwrites t with the smaller of a and b, ignoring a NaN for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) FminInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Fmin, nil, true, nil, t, other)
}

// Atan2 returns atan2(a, b), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Atan2(a, b *Tensor) *Tensor { return pointwise(optable.Atan2, nil, false, nil, a, b) }

// Atan2 returns atan2(a, b) for a = t, b = other; see [Atan2].
func (t *Tensor) Atan2(other *Tensor) *Tensor {
	return pointwise(optable.Atan2, nil, false, nil, t, other)
}

// Atan2To writes atan2(a, b) into dst (PyTorch's out=) and returns dst.
func Atan2To(dst, a, b *Tensor) *Tensor { return pointwise(optable.Atan2, dst, false, nil, a, b) }

// Atan2InPlace overwrites t with atan2(a, b) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) Atan2InPlace(other *Tensor) *Tensor {
	return pointwise(optable.Atan2, nil, true, nil, t, other)
}

// Hypot returns √(a²+b²), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Hypot(a, b *Tensor) *Tensor { return pointwise(optable.Hypot, nil, false, nil, a, b) }

// Hypot returns √(a²+b²) for a = t, b = other; see [Hypot].
func (t *Tensor) Hypot(other *Tensor) *Tensor {
	return pointwise(optable.Hypot, nil, false, nil, t, other)
}

// HypotTo writes √(a²+b²) into dst (PyTorch's out=) and returns dst.
func HypotTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Hypot, dst, false, nil, a, b) }

// HypotInPlace overwrites t with √(a²+b²) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) HypotInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Hypot, nil, true, nil, t, other)
}

// Copysign returns |a| with the sign of b, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Copysign(a, b *Tensor) *Tensor { return pointwise(optable.Copysign, nil, false, nil, a, b) }

// Copysign returns |a| with the sign of b for a = t, b = other; see [Copysign].
func (t *Tensor) Copysign(other *Tensor) *Tensor {
	return pointwise(optable.Copysign, nil, false, nil, t, other)
}

// CopysignTo writes |a| with the sign of b into dst (PyTorch's out=) and returns dst.
func CopysignTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Copysign, dst, false, nil, a, b) }

// CopysignInPlace overwrites t with |a| with the sign of b for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) CopysignInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Copysign, nil, true, nil, t, other)
}

// Eq returns a == b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Eq(a, b *Tensor) *Tensor { return pointwise(optable.Eq, nil, false, nil, a, b) }

// Eq returns a == b, as bool for a = t, b = other; see [Eq].
func (t *Tensor) Eq(other *Tensor) *Tensor { return pointwise(optable.Eq, nil, false, nil, t, other) }

// EqTo writes a == b, as bool into dst (PyTorch's out=) and returns dst.
func EqTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Eq, dst, false, nil, a, b) }

// EqInPlace overwrites t with a == b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) EqInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Eq, nil, true, nil, t, other)
}

// Ne returns a != b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Ne(a, b *Tensor) *Tensor { return pointwise(optable.Ne, nil, false, nil, a, b) }

// Ne returns a != b, as bool for a = t, b = other; see [Ne].
func (t *Tensor) Ne(other *Tensor) *Tensor { return pointwise(optable.Ne, nil, false, nil, t, other) }

// NeTo writes a != b, as bool into dst (PyTorch's out=) and returns dst.
func NeTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Ne, dst, false, nil, a, b) }

// NeInPlace overwrites t with a != b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) NeInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Ne, nil, true, nil, t, other)
}

// Lt returns a < b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Lt(a, b *Tensor) *Tensor { return pointwise(optable.Lt, nil, false, nil, a, b) }

// Lt returns a < b, as bool for a = t, b = other; see [Lt].
func (t *Tensor) Lt(other *Tensor) *Tensor { return pointwise(optable.Lt, nil, false, nil, t, other) }

// LtTo writes a < b, as bool into dst (PyTorch's out=) and returns dst.
func LtTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Lt, dst, false, nil, a, b) }

// LtInPlace overwrites t with a < b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) LtInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Lt, nil, true, nil, t, other)
}

// Le returns a <= b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Le(a, b *Tensor) *Tensor { return pointwise(optable.Le, nil, false, nil, a, b) }

// Le returns a <= b, as bool for a = t, b = other; see [Le].
func (t *Tensor) Le(other *Tensor) *Tensor { return pointwise(optable.Le, nil, false, nil, t, other) }

// LeTo writes a <= b, as bool into dst (PyTorch's out=) and returns dst.
func LeTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Le, dst, false, nil, a, b) }

// LeInPlace overwrites t with a <= b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) LeInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Le, nil, true, nil, t, other)
}

// Gt returns a > b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Gt(a, b *Tensor) *Tensor { return pointwise(optable.Gt, nil, false, nil, a, b) }

// Gt returns a > b, as bool for a = t, b = other; see [Gt].
func (t *Tensor) Gt(other *Tensor) *Tensor { return pointwise(optable.Gt, nil, false, nil, t, other) }

// GtTo writes a > b, as bool into dst (PyTorch's out=) and returns dst.
func GtTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Gt, dst, false, nil, a, b) }

// GtInPlace overwrites t with a > b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) GtInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Gt, nil, true, nil, t, other)
}

// Ge returns a >= b, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func Ge(a, b *Tensor) *Tensor { return pointwise(optable.Ge, nil, false, nil, a, b) }

// Ge returns a >= b, as bool for a = t, b = other; see [Ge].
func (t *Tensor) Ge(other *Tensor) *Tensor { return pointwise(optable.Ge, nil, false, nil, t, other) }

// GeTo writes a >= b, as bool into dst (PyTorch's out=) and returns dst.
func GeTo(dst, a, b *Tensor) *Tensor { return pointwise(optable.Ge, dst, false, nil, a, b) }

// GeInPlace overwrites t with a >= b, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) GeInPlace(other *Tensor) *Tensor {
	return pointwise(optable.Ge, nil, true, nil, t, other)
}

// LogicalAnd returns a && b on truth values, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func LogicalAnd(a, b *Tensor) *Tensor { return pointwise(optable.LogicalAnd, nil, false, nil, a, b) }

// LogicalAnd returns a && b on truth values, as bool for a = t, b = other; see [LogicalAnd].
func (t *Tensor) LogicalAnd(other *Tensor) *Tensor {
	return pointwise(optable.LogicalAnd, nil, false, nil, t, other)
}

// LogicalAndTo writes a && b on truth values, as bool into dst (PyTorch's out=) and returns dst.
func LogicalAndTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.LogicalAnd, dst, false, nil, a, b)
}

// LogicalAndInPlace overwrites t with a && b on truth values, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) LogicalAndInPlace(other *Tensor) *Tensor {
	return pointwise(optable.LogicalAnd, nil, true, nil, t, other)
}

// LogicalOr returns a || b on truth values, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func LogicalOr(a, b *Tensor) *Tensor { return pointwise(optable.LogicalOr, nil, false, nil, a, b) }

// LogicalOr returns a || b on truth values, as bool for a = t, b = other; see [LogicalOr].
func (t *Tensor) LogicalOr(other *Tensor) *Tensor {
	return pointwise(optable.LogicalOr, nil, false, nil, t, other)
}

// LogicalOrTo writes a || b on truth values, as bool into dst (PyTorch's out=) and returns dst.
func LogicalOrTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.LogicalOr, dst, false, nil, a, b)
}

// LogicalOrInPlace overwrites t with a || b on truth values, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) LogicalOrInPlace(other *Tensor) *Tensor {
	return pointwise(optable.LogicalOr, nil, true, nil, t, other)
}

// LogicalXor returns a != b on truth values, as bool, elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func LogicalXor(a, b *Tensor) *Tensor { return pointwise(optable.LogicalXor, nil, false, nil, a, b) }

// LogicalXor returns a != b on truth values, as bool for a = t, b = other; see [LogicalXor].
func (t *Tensor) LogicalXor(other *Tensor) *Tensor {
	return pointwise(optable.LogicalXor, nil, false, nil, t, other)
}

// LogicalXorTo writes a != b on truth values, as bool into dst (PyTorch's out=) and returns dst.
func LogicalXorTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.LogicalXor, dst, false, nil, a, b)
}

// LogicalXorInPlace overwrites t with a != b on truth values, as bool for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) LogicalXorInPlace(other *Tensor) *Tensor {
	return pointwise(optable.LogicalXor, nil, true, nil, t, other)
}

// BitwiseAnd returns a & b (integers and bool), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func BitwiseAnd(a, b *Tensor) *Tensor { return pointwise(optable.BitwiseAnd, nil, false, nil, a, b) }

// BitwiseAnd returns a & b (integers and bool) for a = t, b = other; see [BitwiseAnd].
func (t *Tensor) BitwiseAnd(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseAnd, nil, false, nil, t, other)
}

// BitwiseAndTo writes a & b (integers and bool) into dst (PyTorch's out=) and returns dst.
func BitwiseAndTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseAnd, dst, false, nil, a, b)
}

// BitwiseAndInPlace overwrites t with a & b (integers and bool) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) BitwiseAndInPlace(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseAnd, nil, true, nil, t, other)
}

// BitwiseOr returns a | b (integers and bool), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func BitwiseOr(a, b *Tensor) *Tensor { return pointwise(optable.BitwiseOr, nil, false, nil, a, b) }

// BitwiseOr returns a | b (integers and bool) for a = t, b = other; see [BitwiseOr].
func (t *Tensor) BitwiseOr(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseOr, nil, false, nil, t, other)
}

// BitwiseOrTo writes a | b (integers and bool) into dst (PyTorch's out=) and returns dst.
func BitwiseOrTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseOr, dst, false, nil, a, b)
}

// BitwiseOrInPlace overwrites t with a | b (integers and bool) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) BitwiseOrInPlace(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseOr, nil, true, nil, t, other)
}

// BitwiseXor returns a ^ b (integers and bool), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func BitwiseXor(a, b *Tensor) *Tensor { return pointwise(optable.BitwiseXor, nil, false, nil, a, b) }

// BitwiseXor returns a ^ b (integers and bool) for a = t, b = other; see [BitwiseXor].
func (t *Tensor) BitwiseXor(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseXor, nil, false, nil, t, other)
}

// BitwiseXorTo writes a ^ b (integers and bool) into dst (PyTorch's out=) and returns dst.
func BitwiseXorTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseXor, dst, false, nil, a, b)
}

// BitwiseXorInPlace overwrites t with a ^ b (integers and bool) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) BitwiseXorInPlace(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseXor, nil, true, nil, t, other)
}

// BitwiseLeftShift returns a << b (integers), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func BitwiseLeftShift(a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseLeftShift, nil, false, nil, a, b)
}

// BitwiseLeftShift returns a << b (integers) for a = t, b = other; see [BitwiseLeftShift].
func (t *Tensor) BitwiseLeftShift(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseLeftShift, nil, false, nil, t, other)
}

// BitwiseLeftShiftTo writes a << b (integers) into dst (PyTorch's out=) and returns dst.
func BitwiseLeftShiftTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseLeftShift, dst, false, nil, a, b)
}

// BitwiseLeftShiftInPlace overwrites t with a << b (integers) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) BitwiseLeftShiftInPlace(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseLeftShift, nil, true, nil, t, other)
}

// BitwiseRightShift returns a >> b (integers), elementwise, with a and b broadcast together and
// promoted to a common dtype. Either may be a [Scalar].
func BitwiseRightShift(a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseRightShift, nil, false, nil, a, b)
}

// BitwiseRightShift returns a >> b (integers) for a = t, b = other; see [BitwiseRightShift].
func (t *Tensor) BitwiseRightShift(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseRightShift, nil, false, nil, t, other)
}

// BitwiseRightShiftTo writes a >> b (integers) into dst (PyTorch's out=) and returns dst.
func BitwiseRightShiftTo(dst, a, b *Tensor) *Tensor {
	return pointwise(optable.BitwiseRightShift, dst, false, nil, a, b)
}

// BitwiseRightShiftInPlace overwrites t with a >> b (integers) for a = t, b = other, and returns t.
// The result must have t's shape and be castable to t's dtype.
func (t *Tensor) BitwiseRightShiftInPlace(other *Tensor) *Tensor {
	return pointwise(optable.BitwiseRightShift, nil, true, nil, t, other)
}
