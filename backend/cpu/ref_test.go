package cpu

import (
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
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

// refOp returns the expected value of code over inputs x of compute dtype
// d (Where: x[0] is the condition), already rounded or wrapped to the
// output dtype.
func refOp(code kernel.Code, d dtype.DType, x []float64, args *kernel.Args) float64 {
	var a, b, c float64
	a = x[0]
	if len(x) > 1 {
		b = x[1]
	}
	if len(x) > 2 {
		c = x[2]
	}
	// dtype-independent: comparisons, logical ops, where, is*
	switch code {
	case kernel.Eq:
		return b2f(a == b)
	case kernel.Ne:
		return b2f(a != b)
	case kernel.Lt:
		return b2f(a < b)
	case kernel.Le:
		return b2f(a <= b)
	case kernel.Gt:
		return b2f(a > b)
	case kernel.Ge:
		return b2f(a >= b)
	case kernel.LogicalNot:
		return b2f(a == 0)
	case kernel.LogicalAnd:
		return b2f(a != 0 && b != 0)
	case kernel.LogicalOr:
		return b2f(a != 0 || b != 0)
	case kernel.LogicalXor:
		return b2f((a != 0) != (b != 0))
	case kernel.IsNan:
		return b2f(math.IsNaN(a))
	case kernel.IsInf:
		return b2f(math.IsInf(a, 0))
	case kernel.IsFinite:
		return b2f(!math.IsNaN(a) && !math.IsInf(a, 0))
	case kernel.Signbit:
		return b2f(math.Signbit(a))
	case kernel.Where:
		if a != 0 {
			return b
		}
		return c
	}
	if d == dtype.Bool {
		A, B := a != 0, b != 0
		switch code {
		case kernel.Abs, kernel.Sign:
			return a
		case kernel.BitwiseNot:
			return b2f(!A)
		case kernel.Add:
			return b2f(A || (args.AlphaI != 0 && B))
		case kernel.Mul, kernel.Minimum, kernel.Fmin, kernel.BitwiseAnd, kernel.ClampMax:
			return b2f(A && B)
		case kernel.Maximum, kernel.Fmax, kernel.BitwiseOr, kernel.ClampMin:
			return b2f(A || B)
		case kernel.BitwiseXor:
			return b2f(A != B)
		}
		panic("no bool reference for " + codeNames[code])
	}
	if d.IsInt() {
		A, B, C := int64(a), int64(b), int64(c)
		al := args.AlphaI
		var r int64
		switch code {
		case kernel.Neg:
			r = -A
		case kernel.Abs:
			r = A
			if A < 0 {
				r = -A
			}
		case kernel.Sign:
			r = int64(b2f(A > 0) - b2f(A < 0))
		case kernel.Square:
			r = A * A
		case kernel.Relu:
			r = max(A, 0)
		case kernel.BitwiseNot:
			r = ^A
		case kernel.Add:
			r = A + al*B
		case kernel.Sub:
			r = A - al*B
		case kernel.Mul:
			r = A * B
		case kernel.DivTrunc, kernel.Fmod:
			r = A / B
			if code == kernel.Fmod {
				r = A - r*B
			}
		case kernel.DivFloor, kernel.Remainder:
			q := A / B
			if q*B != A && (A < 0) != (B < 0) {
				q--
			}
			r = q
			if code == kernel.Remainder {
				r = A - q*B
			}
		case kernel.Pow:
			switch {
			case B >= 0:
				r = 1
				for i := int64(0); i < B; i++ {
					r *= A
				}
			case A == 1:
				r = 1
			case A == -1:
				r = 1 - 2*(-B%2)
			}
		case kernel.Maximum, kernel.Fmax, kernel.ClampMin:
			r = max(A, B)
		case kernel.Minimum, kernel.Fmin, kernel.ClampMax:
			r = min(A, B)
		case kernel.BitwiseAnd:
			r = A & B
		case kernel.BitwiseOr:
			r = A | B
		case kernel.BitwiseXor:
			r = A ^ B
		case kernel.ShiftLeft:
			r = A << B
		case kernel.ShiftRight:
			r = A >> B
		case kernel.Clamp:
			r = min(max(A, B), C)
		case kernel.Addcmul:
			r = A + al*B*C
		default:
			panic("no integer reference for " + codeNames[code])
		}
		return wrap(d, r)
	}
	al := args.AlphaF
	var r float64
	switch code {
	case kernel.Neg:
		r = -a
	case kernel.Abs:
		r = math.Abs(a)
	case kernel.Sign:
		r = b2f(a > 0) - b2f(a < 0)
	case kernel.Exp:
		r = math.Exp(a)
	case kernel.Exp2:
		r = math.Exp2(a)
	case kernel.Expm1:
		r = math.Expm1(a)
	case kernel.Log:
		r = math.Log(a)
	case kernel.Log2:
		r = math.Log2(a)
	case kernel.Log10:
		r = math.Log10(a)
	case kernel.Log1p:
		r = math.Log1p(a)
	case kernel.Sqrt:
		r = math.Sqrt(a)
	case kernel.Rsqrt:
		r = 1 / math.Sqrt(a)
	case kernel.Reciprocal:
		r = 1 / a
	case kernel.Square:
		r = a * a
	case kernel.Sin:
		r = math.Sin(a)
	case kernel.Cos:
		r = math.Cos(a)
	case kernel.Tan:
		r = math.Tan(a)
	case kernel.Asin:
		r = math.Asin(a)
	case kernel.Acos:
		r = math.Acos(a)
	case kernel.Atan:
		r = math.Atan(a)
	case kernel.Sinh:
		r = math.Sinh(a)
	case kernel.Cosh:
		r = math.Cosh(a)
	case kernel.Tanh:
		r = math.Tanh(a)
	case kernel.Asinh:
		r = math.Asinh(a)
	case kernel.Acosh:
		r = math.Acosh(a)
	case kernel.Atanh:
		r = math.Atanh(a)
	case kernel.Sigmoid:
		r = 1 / (1 + math.Exp(-a))
	case kernel.Logit:
		if args.HasEps {
			a = math.Min(math.Max(a, args.Eps), 1-args.Eps)
		}
		r = math.Log(a / (1 - a))
	case kernel.Relu:
		r = nanMax(a, 0)
	case kernel.Gelu:
		r = a * (1 + math.Erf(a/math.Sqrt2)) / 2
	case kernel.GeluTanh:
		r = a / 2 * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(a+0.044715*a*a*a)))
	case kernel.Silu:
		r = a / (1 + math.Exp(-a))
	case kernel.Erf:
		r = math.Erf(a)
	case kernel.Erfc:
		r = math.Erfc(a)
	case kernel.Floor:
		r = math.Floor(a)
	case kernel.Ceil:
		r = math.Ceil(a)
	case kernel.Round:
		r = math.RoundToEven(a)
	case kernel.Trunc:
		r = math.Trunc(a)
	case kernel.Frac:
		r = a - math.Trunc(a)
	case kernel.Add:
		r = a + al*b
	case kernel.Sub:
		r = a - al*b
	case kernel.Mul:
		r = a * b
	case kernel.Div:
		r = a / b
	case kernel.DivTrunc:
		r = math.Trunc(a / b)
	case kernel.DivFloor:
		r = math.Floor(a / b)
	case kernel.Remainder:
		r = a - math.Floor(a/b)*b
	case kernel.Fmod:
		r = math.Mod(a, b)
	case kernel.Pow:
		r = math.Pow(a, b)
	case kernel.Maximum, kernel.ClampMin:
		r = nanMax(a, b)
	case kernel.Minimum, kernel.ClampMax:
		r = nanMin(a, b)
	case kernel.Fmax:
		r = math.Max(a, b)
		if math.IsNaN(a) || math.IsNaN(b) {
			r = sel(math.IsNaN(a), b, a)
		}
	case kernel.Fmin:
		r = math.Min(a, b)
		if math.IsNaN(a) || math.IsNaN(b) {
			r = sel(math.IsNaN(a), b, a)
		}
	case kernel.Atan2:
		r = math.Atan2(a, b)
	case kernel.Hypot:
		r = math.Hypot(a, b)
	case kernel.Copysign:
		r = math.Copysign(a, b)
	case kernel.Clamp:
		r = nanMin(nanMax(a, b), c)
	case kernel.Addcmul:
		r = a + al*b*c
	case kernel.Addcdiv:
		r = a + al*b/c
	case kernel.Lerp:
		r = a + c*(b-a)
	default:
		panic("no float reference for " + codeNames[code])
	}
	return roundTo(d, r)
}
