// Package ref is goten's reference backend: obviously-correct scalar loops,
// one element at a time, computing floats in float64 and integers in int64.
// It is slow on purpose; it is the oracle that tests and fuzzers compare
// the fast backends with, and it implements the same kernel.Backend contract.
package ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
)

// Backend is the reference backend. Its zero value is ready to use.
type Backend struct{}

// New returns the reference backend.
func New() *Backend { return &Backend{} }

// Name returns "ref".
func (*Backend) Name() string { return "ref" }

// value is one element: floats in f, integers and bools in i.
type value struct {
	f float64
	i int64
}

func load(p unsafe.Pointer, d dtype.DType) value {
	switch d {
	case dtype.Bool:
		if *(*bool)(p) {
			return value{1, 1}
		}
		return value{}
	case dtype.Uint8:
		x := int64(*(*uint8)(p))
		return value{float64(x), x}
	case dtype.Int8:
		x := int64(*(*int8)(p))
		return value{float64(x), x}
	case dtype.Int16:
		x := int64(*(*int16)(p))
		return value{float64(x), x}
	case dtype.Int32:
		x := int64(*(*int32)(p))
		return value{float64(x), x}
	case dtype.Int64:
		x := *(*int64)(p)
		return value{float64(x), x}
	case dtype.Float16:
		f := float64((*(*dtype.Half)(p)).Float32())
		return value{f, truncInt(f)}
	case dtype.BFloat16:
		f := float64((*(*dtype.BF16)(p)).Float32())
		return value{f, truncInt(f)}
	case dtype.Float32:
		f := float64(*(*float32)(p))
		return value{f, truncInt(f)}
	case dtype.Float64:
		f := *(*float64)(p)
		return value{f, truncInt(f)}
	}
	panic("ref: invalid dtype")
}

func truncInt(f float64) int64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int64(f)
}

// store writes v, read in the category of from, into dtype d.
func store(p unsafe.Pointer, d dtype.DType, v value, fromFloat bool) {
	if d == dtype.Bool {
		if fromFloat {
			*(*bool)(p) = v.f != 0 || math.IsNaN(v.f)
		} else {
			*(*bool)(p) = v.i != 0
		}
		return
	}
	if d.IsInt() {
		x := v.i
		if fromFloat {
			x = truncInt(v.f)
		}
		switch d {
		case dtype.Uint8:
			*(*uint8)(p) = uint8(x)
		case dtype.Int8:
			*(*int8)(p) = int8(x)
		case dtype.Int16:
			*(*int16)(p) = int16(x)
		case dtype.Int32:
			*(*int32)(p) = int32(x)
		case dtype.Int64:
			*(*int64)(p) = x
		}
		return
	}
	f := v.f
	if !fromFloat {
		f = float64(v.i)
	}
	switch d {
	case dtype.Float16:
		*(*dtype.Half)(p) = dtype.HalfFromFloat32(float32(f))
	case dtype.BFloat16:
		*(*dtype.BF16)(p) = dtype.BF16FromFloat32(float32(f))
	case dtype.Float32:
		*(*float32)(p) = float32(f)
	case dtype.Float64:
		*(*float64)(p) = f
	}
}

// walk calls fn with the element pointers of every iteration of the plan.
func walk(p *iter.Plan, fn func(ptrs []unsafe.Pointer)) {
	nt := p.NumOperands()
	ptrs := make([]unsafe.Pointer, nt)
	p.SerialForEach(func(data []unsafe.Pointer, strides []int, size0, size1 int) {
		for j := 0; j < size1; j++ {
			for i := 0; i < size0; i++ {
				for k := 0; k < nt; k++ {
					ptrs[k] = unsafe.Add(data[k], i*strides[k]+j*strides[nt+k])
				}
				fn(ptrs)
			}
		}
	}, 0, p.NumEl())
}

// Copy converts operand 1 into operand 0.
func (*Backend) Copy(p *iter.Plan) error {
	dst, src := p.Operand(0).DType, p.Operand(1).DType
	walk(p, func(ptrs []unsafe.Pointer) {
		store(ptrs[0], dst, load(ptrs[1], src), src.IsFloat())
	})
	return nil
}

// Pointwise computes an elementwise op one element at a time.
func (*Backend) Pointwise(code kernel.Code, p *iter.Plan, args *kernel.Args) error {
	compute := p.CommonDType()
	isFloat := compute.IsFloat()
	nin := p.NumOperands() - 1
	if nin != kernel.Arity(code) {
		return errs.New(errs.Value, "ref", "op %d takes %d inputs, plan has %d", code, kernel.Arity(code), nin)
	}
	dts := make([]dtype.DType, p.NumOperands())
	for k := range dts {
		dts[k] = p.Operand(k).DType
	}
	outBool := kernel.OutputsBool(code)
	in := make([]value, nin)
	var failed error
	walk(p, func(ptrs []unsafe.Pointer) {
		for k := 0; k < nin; k++ {
			in[k] = load(ptrs[k+1], dts[k+1])
			if code == kernel.Where && k == 0 {
				continue
			}
			// reading as the compute dtype: an int compute dtype wraps the value
			in[k] = castTo(in[k], dts[k+1].IsFloat(), compute)
		}
		var r value
		var rFloat bool
		var err error
		if isFloat {
			r.f, err = floatOp(code, in, args)
			rFloat = true
			r = roundTo(r, compute)
		} else {
			r.i, err = intOp(code, in, args, compute)
		}
		if err != nil {
			failed = err
		}
		if outBool {
			store(ptrs[0], dts[0], r, rFloat)
			return
		}
		store(ptrs[0], dts[0], r, rFloat)
	})
	return failed
}

// castTo converts v (float or not) to a value of dtype d, as storing and
// reloading it would.
func castTo(v value, isFloat bool, d dtype.DType) value {
	var buf [8]byte
	p := unsafe.Pointer(&buf[0])
	store(p, d, v, isFloat)
	return load(p, d)
}

// roundTo rounds a float result to the precision of dtype d.
func roundTo(v value, d dtype.DType) value {
	return castTo(v, true, d)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func floatOp(code kernel.Code, in []value, args *kernel.Args) (float64, error) {
	a := in[0].f
	var b, c float64
	if len(in) > 1 {
		b = in[1].f
	}
	if len(in) > 2 {
		c = in[2].f
	}
	switch code {
	case kernel.Neg:
		return -a, nil
	case kernel.Abs:
		return math.Abs(a), nil
	case kernel.Sign:
		switch {
		case a > 0:
			return 1, nil
		case a < 0:
			return -1, nil
		}
		return 0, nil
	case kernel.Exp:
		return math.Exp(a), nil
	case kernel.Exp2:
		return math.Exp2(a), nil
	case kernel.Expm1:
		return math.Expm1(a), nil
	case kernel.Log:
		return logExact(a), nil
	case kernel.Log2:
		return math.Log2(a), nil
	case kernel.Log10:
		return logExact(a) / math.Ln10, nil
	case kernel.Log1p:
		return math.Log1p(a), nil
	case kernel.Sqrt:
		return math.Sqrt(a), nil
	case kernel.Rsqrt:
		return 1 / math.Sqrt(a), nil
	case kernel.Reciprocal:
		return 1 / a, nil
	case kernel.Square:
		return a * a, nil
	case kernel.Sin:
		return math.Sin(a), nil
	case kernel.Cos:
		return math.Cos(a), nil
	case kernel.Tan:
		return math.Tan(a), nil
	case kernel.Asin:
		return math.Asin(a), nil
	case kernel.Acos:
		return math.Acos(a), nil
	case kernel.Atan:
		return math.Atan(a), nil
	case kernel.Sinh:
		return math.Sinh(a), nil
	case kernel.Cosh:
		return math.Cosh(a), nil
	case kernel.Tanh:
		return math.Tanh(a), nil
	case kernel.Asinh:
		return math.Asinh(a), nil
	case kernel.Acosh:
		return math.Acosh(a), nil
	case kernel.Atanh:
		return math.Atanh(a), nil
	case kernel.Sigmoid:
		return 1 / (1 + math.Exp(-a)), nil
	case kernel.Logit:
		if args.HasEps {
			a = math.Min(math.Max(a, args.Eps), 1-args.Eps)
		}
		return logExact(a / (1 - a)), nil
	case kernel.Relu:
		if a > 0 || math.IsNaN(a) {
			return a, nil
		}
		return 0, nil
	case kernel.Gelu:
		return 0.5 * a * (1 + math.Erf(a/math.Sqrt2)), nil
	case kernel.GeluTanh:
		k := math.Sqrt(2 / math.Pi)
		return 0.5 * a * (1 + math.Tanh(k*(a+0.044715*a*a*a))), nil
	case kernel.Silu:
		return a / (1 + math.Exp(-a)), nil
	case kernel.Erf:
		return math.Erf(a), nil
	case kernel.Erfc:
		return math.Erfc(a), nil
	case kernel.Floor:
		return math.Floor(a), nil
	case kernel.Ceil:
		return math.Ceil(a), nil
	case kernel.Round:
		return math.RoundToEven(a), nil
	case kernel.Trunc:
		return math.Trunc(a), nil
	case kernel.Frac:
		return a - math.Trunc(a), nil
	case kernel.LogicalNot:
		return b2f(a == 0), nil
	case kernel.IsNan:
		return b2f(math.IsNaN(a)), nil
	case kernel.IsInf:
		return b2f(math.IsInf(a, 0)), nil
	case kernel.IsFinite:
		return b2f(!math.IsNaN(a) && !math.IsInf(a, 0)), nil
	case kernel.Signbit:
		return b2f(math.Signbit(a)), nil

	case kernel.Add:
		return a + args.AlphaF*b, nil
	case kernel.Sub:
		return a - args.AlphaF*b, nil
	case kernel.Mul:
		return a * b, nil
	case kernel.Div:
		return a / b, nil
	case kernel.DivTrunc:
		return math.Trunc(a / b), nil
	case kernel.DivFloor:
		return divFloor(a, b), nil
	case kernel.Remainder:
		m := math.Mod(a, b)
		if m != 0 && (b < 0) != (m < 0) {
			m += b
		}
		return m, nil
	case kernel.Fmod:
		return math.Mod(a, b), nil
	case kernel.Pow:
		return math.Pow(a, b), nil
	case kernel.Maximum:
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN(), nil
		}
		return math.Max(a, b), nil
	case kernel.Minimum:
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN(), nil
		}
		return math.Min(a, b), nil
	case kernel.Fmax:
		switch {
		case math.IsNaN(a):
			return b, nil
		case math.IsNaN(b):
			return a, nil
		}
		return math.Max(a, b), nil
	case kernel.Fmin:
		switch {
		case math.IsNaN(a):
			return b, nil
		case math.IsNaN(b):
			return a, nil
		}
		return math.Min(a, b), nil
	case kernel.Atan2:
		return math.Atan2(a, b), nil
	case kernel.Hypot:
		return math.Hypot(a, b), nil
	case kernel.Copysign:
		return math.Copysign(a, b), nil
	case kernel.Eq:
		return b2f(a == b), nil
	case kernel.Ne:
		return b2f(a != b), nil
	case kernel.Lt:
		return b2f(a < b), nil
	case kernel.Le:
		return b2f(a <= b), nil
	case kernel.Gt:
		return b2f(a > b), nil
	case kernel.Ge:
		return b2f(a >= b), nil
	case kernel.LogicalAnd:
		return b2f(a != 0 && b != 0), nil
	case kernel.LogicalOr:
		return b2f(a != 0 || b != 0), nil
	case kernel.LogicalXor:
		return b2f((a != 0) != (b != 0)), nil
	case kernel.ClampMin:
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN(), nil
		}
		return math.Max(a, b), nil
	case kernel.ClampMax:
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN(), nil
		}
		return math.Min(a, b), nil

	case kernel.Where:
		if in[0].i != 0 {
			return b, nil
		}
		return c, nil
	case kernel.Clamp:
		if math.IsNaN(a) {
			return a, nil
		}
		if math.IsNaN(b) || math.IsNaN(c) {
			return math.NaN(), nil
		}
		return math.Min(math.Max(a, b), c), nil
	case kernel.Addcmul:
		return a + args.AlphaF*b*c, nil
	case kernel.Addcdiv:
		return a + args.AlphaF*b/c, nil
	case kernel.Lerp:
		if c < 0.5 {
			return a + c*(b-a), nil
		}
		return b - (b-a)*(1-c), nil
	}
	return 0, errs.New(errs.DType, "ref", "op %d is not defined for floats", code)
}

// divFloor is PyTorch's div_floor_floating.
func divFloor(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fl := math.Floor(div)
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func intOp(code kernel.Code, in []value, args *kernel.Args, d dtype.DType) (int64, error) {
	a := in[0].i
	var b, c int64
	if len(in) > 1 {
		b = in[1].i
	}
	if len(in) > 2 {
		c = in[2].i
	}
	isBool := d == dtype.Bool
	switch code {
	case kernel.Neg:
		return -a, nil
	case kernel.Abs:
		if a < 0 {
			return -a, nil
		}
		return a, nil
	case kernel.Sign:
		switch {
		case a > 0:
			return 1, nil
		case a < 0:
			return -1, nil
		}
		return 0, nil
	case kernel.Square:
		return a * a, nil
	case kernel.Relu:
		return max(a, 0), nil
	case kernel.LogicalNot:
		return b2i(a == 0), nil
	case kernel.BitwiseNot:
		if isBool {
			return b2i(a == 0), nil
		}
		return ^a, nil
	case kernel.IsNan, kernel.IsInf:
		return 0, nil
	case kernel.IsFinite:
		return 1, nil
	case kernel.Signbit:
		return b2i(a < 0), nil

	case kernel.Add:
		return a + args.AlphaI*b, nil
	case kernel.Sub:
		return a - args.AlphaI*b, nil
	case kernel.Mul:
		return a * b, nil
	case kernel.DivTrunc:
		if b == 0 {
			return 0, errs.New(errs.Value, "div", "ZeroDivisionError")
		}
		return a / b, nil
	case kernel.DivFloor:
		if b == 0 {
			return 0, errs.New(errs.Value, "div", "ZeroDivisionError")
		}
		q := a / b
		if (a%b != 0) && ((a < 0) != (b < 0)) {
			q--
		}
		return q, nil
	case kernel.Remainder:
		if b == 0 {
			return 0, errs.New(errs.Value, "remainder", "ZeroDivisionError")
		}
		r := a % b
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return r, nil
	case kernel.Fmod:
		if b == 0 {
			return 0, errs.New(errs.Value, "fmod", "ZeroDivisionError")
		}
		return a % b, nil
	case kernel.Pow:
		if b < 0 { // 1/a^|b| truncated
			switch {
			case a == 1 || a == -1 && b%2 == 0:
				return 1, nil
			case a == -1:
				return -1, nil
			}
			return 0, nil
		}
		r := int64(1)
		for base, e := a, b; e > 0; e >>= 1 {
			if e&1 == 1 {
				r *= base
			}
			base *= base
		}
		return r, nil
	case kernel.Maximum, kernel.Fmax, kernel.ClampMin:
		return max(a, b), nil
	case kernel.Minimum, kernel.Fmin, kernel.ClampMax:
		return min(a, b), nil
	case kernel.Eq:
		return b2i(a == b), nil
	case kernel.Ne:
		return b2i(a != b), nil
	case kernel.Lt:
		return b2i(a < b), nil
	case kernel.Le:
		return b2i(a <= b), nil
	case kernel.Gt:
		return b2i(a > b), nil
	case kernel.Ge:
		return b2i(a >= b), nil
	case kernel.LogicalAnd:
		return b2i(a != 0 && b != 0), nil
	case kernel.LogicalOr:
		return b2i(a != 0 || b != 0), nil
	case kernel.LogicalXor:
		return b2i((a != 0) != (b != 0)), nil
	case kernel.BitwiseAnd:
		return a & b, nil
	case kernel.BitwiseOr:
		return a | b, nil
	case kernel.BitwiseXor:
		return a ^ b, nil
	case kernel.ShiftLeft:
		return a << uint(b), nil
	case kernel.ShiftRight:
		return a >> uint(b), nil

	case kernel.Where:
		if a != 0 {
			return b, nil
		}
		return c, nil
	case kernel.Clamp:
		return min(max(a, b), c), nil
	case kernel.Addcmul:
		return a + args.AlphaI*b*c, nil
	}
	return 0, errs.New(errs.DType, "ref", "op %d is not defined for %s", code, d)
}

func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return math.Max(a, b)
}

// logExact is the natural logarithm, right on subnormals too (Go's amd64
// math.Log is not: golang/go#56600): log(x) = log2(x)·ln 2, and math.Log2
// splits x with Frexp, which normalises it.
func logExact(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log2(x) * math.Ln2
	}
	return math.Log(x)
}
