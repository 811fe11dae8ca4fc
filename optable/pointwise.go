package optable

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
)

// loop is the meaning of an op for loop dtypes t.
func loop(t DTypes, expr string) Loop { return Loop{Types: t, Expr: expr} }

// loopPre is loop with statements run once per row first.
func loopPre(t DTypes, pre, expr string) Loop { return Loop{Types: t, Pre: pre, Expr: expr} }

// unit adds to l a row-wide shortcut: unitExpr when cond holds.
func unit(l Loop, cond, unitExpr string) Loop {
	l.UnitIf, l.UnitExpr = cond, unitExpr
	return l
}

// viaFloat64 is a float op computed through float64 math, rounded to T.
func viaFloat64(fn string) Loop { return loop(Floats, "T(math."+fn+"(float64(a)))") }

// sleefHyperbolic are the compute dtypes whose sinh and cosh PyTorch
// vectorizes with SLEEF (Note [SLEEF's sinh and cosh] in optable/elem).
var sleefHyperbolic = Of(dtype.Float32, dtype.Float64, dtype.BFloat16)

// sleefFmod are the compute dtypes whose fmod, remainder and floor_divide
// PyTorch vectorizes with SLEEF's fmod (Note [SLEEF's fmod] in
// optable/elem; bfloat16 through float32 vectors); its float16 vectors
// call the C library.
var sleefFmod = Of(dtype.Float32, dtype.Float64, dtype.BFloat16)

// hyperbolic is the loops of sinh or cosh (fn): elem's Sinh or Cosh in a
// row's scalar tail and elsewhere, its SinhVec or CoshVec in the vector
// body, with the bound of the dtype the vector computes in.
func hyperbolic(fn string) []Loop {
	expr := "T(elem." + fn + "(float64(a)))"
	return []Loop{
		unit(loop(Of(dtype.Float64), expr), "args.VectorBody", "elem."+fn+"Vec(a, elem.LnMaxF64)"),
		unit(loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), expr), "args.VectorBody", "elem."+fn+"Vec(a, elem.LnMaxF32)"),
	}
}

// unary declares a unary pointwise op named name (Go name goName) that
// computes doc.
func unary(name, goName, doc string, o Op, loops ...Loop) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity, o.Loops = name, goName, doc, Pointwise, 1, loops
	return def(&o)
}

// binary declares a binary pointwise op.
func binary(name, goName, doc string, o Op, loops ...Loop) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity, o.Loops = name, goName, doc, Pointwise, 2, loops
	return def(&o)
}

// ternary declares a ternary pointwise op whose inputs are named params.
func ternary(name, goName, doc string, params []string, o Op, loops ...Loop) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity, o.Loops, o.Params = name, goName, doc, Pointwise, 3, loops, params
	return def(&o)
}

const (
	alphaInt   = "alpha := T(args.AlphaI)"
	alphaFloat = "alpha := T(args.AlphaF)"
)

// The unary pointwise ops.
var (
	Neg = unary("neg", "Neg", "-x", Op{Grad: []string{"g.Neg()"}, SIMD: SIMD{Unary: "Neg", Types: Numbers}, StrictOut: true, Accepts: NotBool,
		Refusal: "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."},
		loop(Numbers, "-a"))
	Abs = unary("abs", "Abs", "|x|", Op{Grad: []string{"g.Mul(x.Sign())"}, SIMD: SIMD{Unary: "Abs", Types: Numbers}, StrictOut: true, Accepts: NotBool},
		loop(Uint8s, "a"), loop(Signed, "elem.AbsInt(a)"), loop(Floats, "T(math.Abs(float64(a)))"))
	Sign = unary("sign", "Sign", "the sign of x: -1, 0 or 1 (0 for NaN; bool x itself)", Op{Grad: []string{"ZerosLike(g)"}, SIMD: SIMD{Unary: "Sign", Types: Numbers}},
		loop(Bools, "a"), loop(Uint8s, "elem.SignU(a)"), loop(Signed|Floats, "elem.Sign(a)"))
	Exp        = unary("exp", "Exp", "e^x (float32, and bfloat16 and float16 through it: SLEEF's expf, as PyTorch computes float32 and bfloat16, Note [SLEEF's exp] in optable/elem)", Op{Grad: []string{"g.Mul(result)"}, IntToFloat: true, SIMD: SIMD{Unary: "Exp", Types: Floats, Stream: Of(dtype.Float32, dtype.Float64)}}, loop(Of(dtype.Float64), "T(elem.Exp(float64(a)))"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.ExpF32(float32(a)))"))
	Exp2       = unary("exp2", "Exp2", "2^x", Op{Grad: []string{"g.Mul(result).Mul(Scalar(math.Ln2))"}, SIMD: SIMD{Unary: "Exp2", Types: Floats}, IntToFloat: true}, viaFloat64("Exp2"))
	Expm1      = unary("expm1", "Expm1", "e^x - 1 (float32, and bfloat16 and float16 through it: SLEEF's expm1f, as PyTorch computes float32 and bfloat16)", Op{Grad: []string{"g.Mul(result.Add(Scalar(1)))"}, SIMD: SIMD{Unary: "Expm1", Types: Floats}, IntToFloat: true}, loop(Of(dtype.Float64), "T(math.Expm1(float64(a)))"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.Expm1F32(float32(a)))"))
	Log        = unary("log", "Log", "the natural logarithm of x (float32, and bfloat16 and float16 through it: SLEEF's logf, as PyTorch computes float32 and bfloat16, Note [SLEEF's log] in internal/sleef)", Op{Grad: []string{"g.Div(x)"}, SIMD: SIMD{Unary: "Log", Types: Floats}, IntToFloat: true}, loop(Of(dtype.Float64), "T(elem.Log(float64(a)))"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.LogF32(float32(a)))"))
	Log2       = unary("log2", "Log2", "the base-2 logarithm of x (float32, and bfloat16 and float16 through it: SLEEF's log2f, as PyTorch computes float32 and bfloat16, Note [SLEEF's log] in internal/sleef)", Op{Grad: []string{"g.Div(x.Mul(Scalar(math.Ln2)))"}, SIMD: SIMD{Unary: "Log2", Types: Floats}, IntToFloat: true}, loop(Of(dtype.Float64), "T(math.Log2(float64(a)))"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.Log2F32(float32(a)))"))
	Log10      = unary("log10", "Log10", "the base-10 logarithm of x (float32, and bfloat16 and float16 through it: SLEEF's log10f, as PyTorch computes float32 and bfloat16, Note [SLEEF's log] in internal/sleef)", Op{Grad: []string{"g.Div(x.Mul(Scalar(math.Ln10)))"}, SIMD: SIMD{Unary: "Log10", Types: Floats}, IntToFloat: true}, loop(Of(dtype.Float64), "T(elem.Log10(float64(a)))"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.Log10F32(float32(a)))"))
	Log1p      = unary("log1p", "Log1p", "ln(1 + x) (float32, and bfloat16 and float16 through it: SLEEF's log1pf, as PyTorch computes float32 and bfloat16, +Inf above 1e38; float64: +Inf above 1e307, as PyTorch's SLEEF log1p gives)", Op{Grad: []string{"g.Div(x.Add(Scalar(1)))"}, SIMD: SIMD{Unary: "Log1p", Types: Floats}, IntToFloat: true}, loop(Of(dtype.Float64), "elem.Log1p(a, 1e307)"), loop(Of(dtype.Float16, dtype.BFloat16, dtype.Float32), "T(elem.Log1pF32(float32(a)))"))
	Sqrt       = unary("sqrt", "Sqrt", "√x", Op{Grad: []string{"g.Div(result.Mul(Scalar(2)))"}, SIMD: SIMD{Unary: "Sqrt", Types: Floats, Stream: Numbers}, IntToFloat: true}, viaFloat64("Sqrt"))
	Rsqrt      = unary("rsqrt", "Rsqrt", "1/√x", Op{Grad: []string{"g.Mul(result.Pow(Scalar(3))).Mul(Scalar(-0.5))"}, SIMD: SIMD{Unary: "Rsqrt", Types: Floats}, IntToFloat: true, VectorBody: Of(dtype.BFloat16), BF16Steps: true}, unit(loop(Floats, "T(elem.RsqrtBF16(float32(a), args.VectorBody))"), "!args.BF16Steps || args.VectorBody", "1 / T(math.Sqrt(float64(a)))"))
	Reciprocal = unary("reciprocal", "Reciprocal", "1/x", Op{Grad: []string{"g.Mul(result.Square()).Neg()"}, SIMD: SIMD{Unary: "Reciprocal", Types: Floats}, IntToFloat: true}, loop(Floats, "1 / a"))
	Square     = unary("square", "Square", "x·x (bool x gives int64, as pow(x, 2))", Op{Grad: []string{"g.Mul(x.Mul(Scalar(2)))"}, SIMD: SIMD{Unary: "Square", Types: Numbers, Stream: Numbers}, BoolToInt64: true}, loop(Numbers, "a * a"))
	Sin        = unary("sin", "Sin", "the sine of x", Op{Grad: []string{"g.Mul(x.Cos())"}, SIMD: SIMD{Unary: "Sin", Types: Floats}, IntToFloat: true}, viaFloat64("Sin"))
	Cos        = unary("cos", "Cos", "the cosine of x", Op{Grad: []string{"g.Mul(x.Sin()).Neg()"}, SIMD: SIMD{Unary: "Cos", Types: Floats}, IntToFloat: true}, viaFloat64("Cos"))
	Tan        = unary("tan", "Tan", "the tangent of x", Op{Grad: []string{"g.Mul(result.Square().Add(Scalar(1)))"}, SIMD: SIMD{Unary: "Tan", Types: Floats}, IntToFloat: true}, viaFloat64("Tan"))
	Asin       = unary("asin", "Asin", "the arcsine of x", Op{Grad: []string{"g.Mul(x.Square().Neg().Add(Scalar(1)).Rsqrt())"}, IntToFloat: true, SIMD: SIMD{Unary: "Asin", Types: Floats}}, viaFloat64("Asin"))
	Acos       = unary("acos", "Acos", "the arccosine of x", Op{Grad: []string{"g.Mul(x.Square().Neg().Add(Scalar(1)).Rsqrt()).Neg()"}, IntToFloat: true, SIMD: SIMD{Unary: "Acos", Types: Floats}}, viaFloat64("Acos"))
	Atan       = unary("atan", "Atan", "the arctangent of x", Op{Grad: []string{"g.Div(x.Square().Add(Scalar(1)))"}, IntToFloat: true, SIMD: SIMD{Unary: "Atan", Types: Floats}}, viaFloat64("Atan"))
	Sinh       = unary("sinh", "Sinh", "the hyperbolic sine of x (±Inf for |x| > ln of the dtype's largest value in the vector body of PyTorch's loops, as its SLEEF kernel gives)", Op{Grad: []string{"g.Mul(x.Cosh())"}, IntToFloat: true, VectorBody: sleefHyperbolic, SIMD: SIMD{Unary: "Sinh", Types: Floats}}, hyperbolic("Sinh")...)
	Cosh       = unary("cosh", "Cosh", "the hyperbolic cosine of x (+Inf for |x| > ln of the dtype's largest value in the vector body of PyTorch's loops, as its SLEEF kernel gives)", Op{Grad: []string{"g.Mul(x.Sinh())"}, IntToFloat: true, VectorBody: sleefHyperbolic, SIMD: SIMD{Unary: "Cosh", Types: Floats}}, hyperbolic("Cosh")...)
	Tanh       = unary("tanh", "Tanh", "the hyperbolic tangent of x", Op{Grad: []string{"g.Mul(result.Square().Neg().Add(Scalar(1)))"}, IntToFloat: true, SIMD: SIMD{Unary: "Tanh", Types: Floats, Stream: Of(dtype.Float32)}}, viaFloat64("Tanh"))
	Asinh      = unary("asinh", "Asinh", "the inverse hyperbolic sine of x", Op{Grad: []string{"g.Mul(x.Square().Add(Scalar(1)).Rsqrt())"}, IntToFloat: true, SIMD: SIMD{Unary: "Asinh", Types: Floats}}, viaFloat64("Asinh"))
	Acosh      = unary("acosh", "Acosh", "the inverse hyperbolic cosine of x", Op{Grad: []string{"g.Mul(x.Square().Sub(Scalar(1)).Rsqrt())"}, IntToFloat: true, SIMD: SIMD{Unary: "Acosh", Types: Floats}}, viaFloat64("Acosh"))
	Atanh      = unary("atanh", "Atanh", "the inverse hyperbolic tangent of x", Op{Grad: []string{"g.Div(x.Square().Neg().Add(Scalar(1)))"}, IntToFloat: true, SIMD: SIMD{Unary: "Atanh", Types: Floats}}, viaFloat64("Atanh"))
	Sigmoid    = unary("sigmoid", "Sigmoid", "1/(1+e^-x)", Op{Grad: []string{"g.Mul(result.Mul(result.Neg().Add(Scalar(1))))"}, IntToFloat: true, SIMD: SIMD{Unary: "Sigmoid", Types: Floats, Stream: Of(dtype.Float32)}},
		loop(Floats, "T(elem.Sigmoid(float64(a)))"))
	// Logit takes an optional eps: x is clamped to [eps, 1-eps] first.
	Logit = unary("logit", "Logit", "log(x/(1-x)), x first clamped to [eps, 1-eps] when eps is given", Op{Grad: []string{"logitGrad(c, g, x)"}, IntToFloat: true, Options: "Eps", ScalarIn: InCompute, VectorBody: Floats, BF16Steps: true, SIMD: SIMD{Unary: "Logit", Types: Floats, UnaryArgs: "LogitEps", Args: []string{"args.LogitLo()", "args.EpsHi"}}},
		unit(loopPre(Floats, "lo := T(args.LogitLo())\nhi := T(args.EpsHi)\nclamp := args.HasEps\nsteps := args.BF16Steps", "elem.LogitOf(a, lo, hi, clamp, steps)"), "!args.HasEps && !args.BF16Steps", "elem.Logit(a, 0, 0, false)"))
	// Relu's gradient is PyTorch's threshold_backward: 0 where the result
	// is ≤ 0, so that a NaN passes g on.
	Relu     = unary("relu", "Relu", "max(x, 0)", Op{Grad: []string{"keepGrad(g, result.Le(Scalar(0)).LogicalNot())"}, SIMD: SIMD{Unary: "Relu", Types: Numbers, Stream: Numbers}, Accepts: NotBool}, loop(Numbers, "max(a, 0)"))
	GeluTanh = unary("gelu", "GeluTanh", "gelu's tanh approximation, 0.5x(1+tanh(√(2/π)(x+0.044715x³)))", Op{Grad: []string{"geluTanhGrad(g, x)"}, Accepts: Floats, Internal: true, BF16Steps: true, SIMD: SIMD{Unary: "GeluTanh", Types: Floats}},
		unit(loop(Floats, "T(elem.GeluTanhBF16(float32(a)))"), "!args.BF16Steps", "T(elem.GeluTanh(float64(a)))"))
	// Gelu takes an optional approximation: GeluTanh.
	Gelu = unary("gelu", "Gelu", "x·Φ(x), Φ the standard normal CDF (the tanh approximation with ApproxTanh)",
		Op{Grad: []string{"geluGrad(g, x)"}, Accepts: Floats, BF16Steps: true, SIMD: SIMD{Unary: "Gelu", Types: Floats, Stream: Of(dtype.Float32)}, Options: "Approximate", Modes: []*Op{nil, GeluTanh}},
		unit(loop(Floats, "T(elem.GeluBF16(float32(a)))"), "!args.BF16Steps", "T(elem.Gelu(float64(a)))"))
	Silu = unary("silu", "Silu", "x·sigmoid(x)", Op{Grad: []string{"siluGrad(g, x)"}, BF16Steps: true, SIMD: SIMD{Unary: "Silu", Types: Floats}, Accepts: Floats},
		unit(loop(Floats, "T(elem.SiluBF16(float32(a)))"), "!args.BF16Steps", "T(elem.Silu(float64(a)))"))
	// Softsign is PyTorch's composite x / (1 + x.abs()), whose abs
	// refuses bool.
	Softsign = unary("softsign", "Softsign", "x/(1+|x|)", Op{Grad: []string{"g.Div(x.Abs().Add(Scalar(1)).Square())"}, IntToFloat: true, Kernel: "abs_{dev}", Check: noBoolInput},
		loop(Floats, "a / (1 + T(math.Abs(float64(a))))"))
	Erf        = unary("erf", "Erf", "the error function of x", Op{Grad: []string{"g.Mul(x.Square().Neg().Exp()).Mul(Scalar(2 / math.SqrtPi))"}, SIMD: SIMD{Unary: "Erf", Types: Floats}, IntToFloat: true}, viaFloat64("Erf"))
	Erfc       = unary("erfc", "Erfc", "1 - erf(x)", Op{Grad: []string{"g.Mul(x.Square().Neg().Exp()).Mul(Scalar(-2 / math.SqrtPi))"}, SIMD: SIMD{Unary: "Erfc", Types: Floats}, IntToFloat: true}, viaFloat64("Erfc"))
	Floor      = unary("floor", "Floor", "the largest integer not above x", Op{Grad: []string{"ZerosLike(g)"}, SIMD: SIMD{Unary: "Floor", Types: Floats}, IntIdentity: true, Accepts: NotBool}, viaFloat64("Floor"))
	Ceil       = unary("ceil", "Ceil", "the smallest integer not below x", Op{Grad: []string{"ZerosLike(g)"}, SIMD: SIMD{Unary: "Ceil", Types: Floats}, IntIdentity: true, Accepts: NotBool}, viaFloat64("Ceil"))
	Round      = unary("round", "Round", "x rounded to the nearest integer, half to even", Op{Grad: []string{"ZerosLike(g)"}, SIMD: SIMD{Unary: "Round", Types: Floats}, IntIdentity: true, Accepts: NotBool}, viaFloat64("RoundToEven"))
	Trunc      = unary("trunc", "Trunc", "x rounded toward zero", Op{Grad: []string{"ZerosLike(g)"}, SIMD: SIMD{Unary: "Trunc", Types: Floats}, IntIdentity: true, Accepts: NotBool}, viaFloat64("Trunc"))
	Frac       = unary("frac", "Frac", "x - trunc(x)", Op{Grad: []string{"g"}, SIMD: SIMD{Unary: "Frac", Types: Floats}, Accepts: Floats}, loop(Floats, "a - T(math.Trunc(float64(a)))"))
	LogicalNot = unary("logical_not", "LogicalNot", "x == 0, as bool", Op{OutBool: true}, loop(Bools, "!a"), loop(Numbers, "a == 0"))
	BitwiseNot = unary("bitwise_not", "BitwiseNot", "the bitwise complement of x (logical not for bool)", Op{Accepts: IntsBool, SIMD: SIMD{Unary: "Not", Types: Ints}},
		loop(Bools, "!a"), loop(Ints, "^a"))
	IsNan    = unary("isnan", "IsNan", "whether x is NaN, as bool", Op{OutBool: true}, loop(AnyDType, "a != a"))
	IsInf    = unary("isinf", "IsInf", "whether x is ±Inf, as bool", Op{OutBool: true}, loop(IntsBool, "a != a"), loop(Floats, "math.IsInf(float64(a), 0)"))
	IsFinite = unary("isfinite", "IsFinite", "whether x is neither NaN nor ±Inf, as bool", Op{OutBool: true}, loop(IntsBool, "a == a"), loop(Floats, "a-a == 0"))
	Signbit  = unary("signbit", "Signbit", "whether the sign bit of x is set (-0.0 included), as bool", Op{OutBool: true},
		loop(Bools, "a && !a"), loop(Ints, "a < 0"), loop(Floats, "math.Signbit(float64(a))"))
)

// The binary pointwise ops.
var (
	Add = binary("add", "Add", "a + alpha·b (alpha 1 when not given)", Op{Grad: []string{"g", "alphaScaled(c, g)"}, Alpha: "alpha", ScalarIn: InCompute, SIMD: SIMD{Arith: "add", Binary: "Add", Types: Ints, Stream: Ints | Of(dtype.BFloat16, dtype.Float16), Half: Of(dtype.BFloat16, dtype.Float16)}},
		loopPre(Bools, "alpha := T(args.AlphaI != 0)", "a || (alpha && b)"),
		unit(loopPre(Ints, alphaInt, "a + alpha*b"), "args.AlphaI == 1", "a + b"),
		unit(loopPre(Floats, alphaFloat, "elem.MulAdd(alpha, b, a)"), "args.AlphaF == 1", "a + b"))
	Sub = binary("sub", "Sub", "a - alpha·b (alpha 1 when not given)", Op{Grad: []string{"g", "alphaScaled(c, g).Neg()"}, Alpha: "alpha", ScalarIn: InCompute, NegatedAlpha: true, SIMD: SIMD{Arith: "sub", Binary: "Sub", Types: Ints, Stream: Ints | Of(dtype.BFloat16, dtype.Float16), Half: Of(dtype.BFloat16, dtype.Float16)}, Accepts: NotBool, Check: subBool,
		Refusal: "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."},
		unit(loopPre(Ints, alphaInt, "a - alpha*b"), "args.AlphaI == 1", "a - b"),
		unit(loopPre(Floats, alphaFloat, "elem.MulAdd(-alpha, b, a)"), "args.AlphaF == 1", "a - b"))
	Mul      = binary("mul", "Mul", "a·b", Op{Grad: []string{"g.Mul(b)", "g.Mul(a)"}, SIMD: SIMD{Arith: "mul", Binary: "Mul", Types: Ints, Stream: Ints | Of(dtype.BFloat16, dtype.Float16), Half: Of(dtype.BFloat16, dtype.Float16)}}, loop(Bools, "a && b"), loop(Numbers, "a * b"))
	DivTrunc = binary("div", "DivTrunc", "a/b rounded toward zero", Op{Grad: []string{"ZerosLike(g)", "ZerosLike(g)"}, Kernel: "div_trunc_{dev}", Internal: true, ZeroDivisor: true, Accepts: NotBool},
		loop(Ints, "elem.DivTrunc(a, b)"), loop(Floats, "T(math.Trunc(float64(a / b)))"))
	DivFloor = binary("div", "DivFloor", "a/b rounded down (Python's //; NaN where SLEEF's fmod overflows in the vector body of PyTorch's loops, Note [SLEEF's fmod] in optable/elem)", Op{Grad: []string{"ZerosLike(g)", "ZerosLike(g)"}, Kernel: "div_floor_{dev}", Internal: true, ZeroDivisor: true, Accepts: NotBool, VectorBody: sleefFmod},
		loop(Uint8s, "elem.DivTrunc(a, b)"), loop(Signed, "elem.FloorDivInt(a, b)"), unit(loop(Floats, "elem.FloorDiv(a, b)"), "args.VectorBody", "elem.FloorDivVec(a, b)"))
	// Div takes an optional rounding mode: DivTrunc, DivFloor. b's
	// gradient is PyTorch's −g·((a/b)/b), which stays finite where
	// −g·a/b² overflows (a near the float64 limit) or is inf/inf (b inf).
	Div = binary("div", "Div", "a/b (integers divide as float32; rounded as mode says when given)",
		Op{Grad: []string{"g.Div(b)", "g.Neg().Mul(a.Div(b).Div(b))"}, IntToFloat: true, SIMD: SIMD{Arith: "div", Stream: Of(dtype.BFloat16, dtype.Float16), Half: Of(dtype.BFloat16, dtype.Float16)}, Options: "Rounding", Modes: []*Op{nil, DivTrunc, DivFloor}},
		loop(Floats, "a / b"))
	FloorDivide = binary("floor_divide", "FloorDivide", "a/b rounded down (Python's //)", Op{Grad: []string{"ZerosLike(g)", "ZerosLike(g)"}, Impl: DivFloor, Kernel: "div_floor_{dev}", ZeroDivisor: true, Accepts: NotBool})
	Remainder   = binary("remainder", "Remainder", "a - floor(a/b)·b, which has the sign of b (Python's %; NaN where SLEEF's fmod overflows in the vector body of PyTorch's loops, Note [SLEEF's fmod] in optable/elem)", Op{Grad: []string{"g", "g.Neg().Mul(a.Div(b, RoundFloor))"}, ZeroDivisor: true, Accepts: NotBool, VectorBody: sleefFmod},
		loop(Uint8s, "elem.ModTrunc(a, b)"), loop(Signed, "elem.RemInt(a, b)"), unit(loop(Floats, "elem.Rem(a, b)"), "args.VectorBody", "elem.RemVec(a, b)"))
	Fmod = binary("fmod", "Fmod", "C's fmod(a, b), which has the sign of a (NaN where SLEEF's fmod overflows in the vector body of PyTorch's loops, Note [SLEEF's fmod] in optable/elem)", Op{Grad: []string{"g", "g.Neg().Mul(a.Div(b, RoundTrunc))"}, ZeroDivisor: true, Accepts: NotBool, VectorBody: sleefFmod},
		loop(Ints, "elem.ModTrunc(a, b)"), unit(loop(Floats, "T(math.Mod(float64(a), float64(b)))"), "args.VectorBody", "elem.FmodVec(a, b)"))
	Pow = binary("pow", "Pow", "a^b (integers by repeated squaring)", Op{Grad: []string{"powBaseGrad(g, a, b)", "powExponentGrad(g, a, b, result)"}, SIMD: SIMD{Binary: "Pow", Types: Floats | Ints}, Accepts: NotBool, Kernel: "pow", Scalars: []int{1}, ScalarIn: InPowExponent, Check: negativeIntPower, ByScalar: powByScalar},
		loop(Uint8s, "elem.PowUint8(a, b)"), loop(Signed, "elem.PowInt(a, b)"), loop(Floats, "T(elem.Pow(float64(a), float64(b)))"))
	Maximum    = binary("maximum", "Maximum", "the larger of a and b (NaN if either is)", Op{SIMD: SIMD{Binary: "Maximum", Types: Numbers, Stream: Numbers}, Grad: []string{"tieGrad(g, a.Eq(b), a.Lt(b))", "tieGrad(g, a.Eq(b), a.Gt(b))"}}, loop(Bools, "a || b"), loop(Numbers, "max(a, b)"))
	Minimum    = binary("minimum", "Minimum", "the smaller of a and b (NaN if either is)", Op{SIMD: SIMD{Binary: "Minimum", Types: Numbers, Stream: Numbers}, Grad: []string{"tieGrad(g, a.Eq(b), a.Gt(b))", "tieGrad(g, a.Eq(b), a.Lt(b))"}}, loop(Bools, "a && b"), loop(Numbers, "min(a, b)"))
	Fmax       = binary("fmax", "Fmax", "the larger of a and b, ignoring a NaN operand", Op{Grad: []string{"keepGrad(g, a.Ge(b).LogicalOr(b.IsNan()))", "keepGrad(g, a.Ge(b).LogicalOr(b.IsNan()).LogicalNot())"}, SIMD: SIMD{Binary: "Fmax", Types: Numbers}}, loop(Bools, "a || b"), loop(Ints, "max(a, b)"), loop(Floats, "elem.Fmax(a, b)"))
	Fmin       = binary("fmin", "Fmin", "the smaller of a and b, ignoring a NaN operand", Op{Grad: []string{"keepGrad(g, a.Le(b).LogicalOr(b.IsNan()))", "keepGrad(g, a.Le(b).LogicalOr(b.IsNan()).LogicalNot())"}, SIMD: SIMD{Binary: "Fmin", Types: Numbers}}, loop(Bools, "a && b"), loop(Ints, "min(a, b)"), loop(Floats, "elem.Fmin(a, b)"))
	Atan2      = binary("atan2", "Atan2", "the angle of the point (b, a), in (-π, π]", Op{Grad: []string{"g.Mul(b).Div(a.Square().Add(b.Square()))", "g.Mul(a).Neg().Div(a.Square().Add(b.Square()))"}, SIMD: SIMD{Binary: "Atan2", Types: Floats}, IntToFloat: true}, loop(Floats, "T(math.Atan2(float64(a), float64(b)))"))
	Hypot      = binary("hypot", "Hypot", "√(a² + b²) (float inputs only, as PyTorch)", Op{Grad: []string{"g.Mul(a).Div(result)", "g.Mul(b).Div(result)"}, SIMD: SIMD{Binary: "Hypot", Types: Floats}, Accepts: Floats}, loop(Floats, "T(math.Hypot(float64(a), float64(b)))"))
	Copysign   = binary("copysign", "Copysign", "the magnitude of a with the sign of b", Op{Grad: []string{"copysignGrad(g, a, result)", "ZerosLike(g)"}, SIMD: SIMD{Binary: "Copysign", Types: Floats}, IntToFloat: true}, loop(Floats, "T(math.Copysign(float64(a), float64(b)))"))
	Eq         = binary("eq", "Eq", "a == b, as bool", Op{SIMD: SIMD{Binary: "Eq", Types: Numbers}, OutBool: true}, loop(AnyDType, "a == b"))
	Ne         = binary("ne", "Ne", "a != b, as bool", Op{SIMD: SIMD{Binary: "Ne", Types: Numbers}, OutBool: true}, loop(AnyDType, "a != b"))
	Lt         = binary("lt", "Lt", "a < b, as bool", Op{SIMD: SIMD{Binary: "Lt", Types: Numbers}, OutBool: true}, loop(Bools, "!a && b"), loop(Numbers, "a < b"))
	Le         = binary("le", "Le", "a <= b, as bool", Op{SIMD: SIMD{Binary: "Le", Types: Numbers}, OutBool: true}, loop(Bools, "!a || b"), loop(Numbers, "a <= b"))
	Gt         = binary("gt", "Gt", "a > b, as bool", Op{SIMD: SIMD{Binary: "Gt", Types: Numbers}, OutBool: true}, loop(Bools, "a && !b"), loop(Numbers, "a > b"))
	Ge         = binary("ge", "Ge", "a >= b, as bool", Op{SIMD: SIMD{Binary: "Ge", Types: Numbers}, OutBool: true}, loop(Bools, "a || !b"), loop(Numbers, "a >= b"))
	LogicalAnd = binary("logical_and", "LogicalAnd", "whether a and b are both nonzero, as bool", Op{OutBool: true},
		loop(Bools, "a && b"), loop(Numbers, "a != 0 && b != 0"))
	LogicalOr = binary("logical_or", "LogicalOr", "whether a or b is nonzero, as bool", Op{OutBool: true},
		loop(Bools, "a || b"), loop(Numbers, "a != 0 || b != 0"))
	LogicalXor = binary("logical_xor", "LogicalXor", "whether exactly one of a and b is nonzero, as bool", Op{OutBool: true},
		loop(Bools, "a != b"), loop(Numbers, "(a != 0) != (b != 0)"))
	BitwiseAnd = binary("bitwise_and", "BitwiseAnd", "a & b (logical and for bool)", Op{Accepts: IntsBool, SIMD: SIMD{Binary: "And", Types: Ints}}, loop(Bools, "a && b"), loop(Ints, "a & b"))
	BitwiseOr  = binary("bitwise_or", "BitwiseOr", "a | b (logical or for bool)", Op{Accepts: IntsBool, SIMD: SIMD{Binary: "Or", Types: Ints}}, loop(Bools, "a || b"), loop(Ints, "a | b"))
	BitwiseXor = binary("bitwise_xor", "BitwiseXor", "a ^ b (logical xor for bool)", Op{Accepts: IntsBool, SIMD: SIMD{Binary: "Xor", Types: Ints}}, loop(Bools, "a != b"), loop(Ints, "a ^ b"))
	// Shift counts go through uint64: a negative count becomes a huge one,
	// so it never panics (a count ≥ the width gives 0, or the sign for >>).
	BitwiseLeftShift = binary("bitwise_left_shift", "BitwiseLeftShift", "a << b", Op{Accepts: Ints, Kernel: "lshift_{dev}", SIMD: SIMD{Binary: "Shl", Types: Ints}},
		loop(Ints, "a << uint64(b)"))
	BitwiseRightShift = binary("bitwise_right_shift", "BitwiseRightShift", "a >> b (arithmetic for signed a)", Op{Accepts: Ints, Kernel: "rshift_{dev}", SIMD: SIMD{Binary: "Shr", Types: Ints}},
		loop(Ints, "a >> uint64(b)"))
	// ClampMin and ClampMax are clamp with one bound; PyTorch 1.13 has no
	// bool or float16 CPU kernel for a Go number as the bound, but takes
	// a tensor bound of any dtype (its maximum and minimum). The kernels
	// here have every loop: float16 is refused by the table alone.
	ClampMin = binary("clamp", "ClampMin", "max(x, lo)", Op{Grad: []string{"keepGrad(g, a.Ge(b))", "keepGrad(g, a.Lt(b))"}, SIMD: SIMD{Binary: "Maximum", Types: Numbers, Stream: Numbers}, ScalarKernel: "clamp_min_{dev}", ScalarAccepts: clampNumbers, Internal: true, Scalars: []int{1}, ScalarIn: InCompute},
		loop(Bools, "a || b"), loop(Numbers, "max(a, b)"))
	ClampMax = binary("clamp", "ClampMax", "min(x, hi)", Op{Grad: []string{"keepGrad(g, a.Le(b))", "keepGrad(g, a.Gt(b))"}, SIMD: SIMD{Binary: "Minimum", Types: Numbers, Stream: Numbers}, ScalarKernel: "clamp_max_scalar_{dev}", ScalarAccepts: clampNumbers, Internal: true, Scalars: []int{1}, ScalarIn: InCompute},
		loop(Bools, "a && b"), loop(Numbers, "min(a, b)"))
)

// The ternary pointwise ops.
var (
	// Where takes a bool condition, or PyTorch's deprecated uint8 one, which
	// backends read converted to bool (nonzero is true), like any operand
	// of another dtype.
	Where = ternary("where", "Where", "x where cond is true, else y", []string{"cond", "x", "y"},
		Op{Grad: []string{"", "keepGrad(g, cond)", "keepGrad(g, cond.LogicalNot())"}, SIMD: SIMD{Ternary: "Select", Types: AnyDType}, CondBool: true, PromoteFrom: []int{1, 2}, Receiver: 1, Check: whereCondition, Scalars: []int{1, 2}, ScalarIn: InCompute},
		loop(AnyDType, "elem.Select(a, b, c)"))
	// Clamp with a nil bound is ClampMin or ClampMax; PyTorch 1.13 has no
	// bool or float16 CPU kernel for both bounds, numbers or tensors.
	Clamp = ternary("clamp", "Clamp", "x clamped to [lo, hi] (NaN stays NaN; a nil bound bounds nothing, and a lone tensor bound takes every dtype)", []string{"x", "lo", "hi"},
		Op{Grad: []string{"keepGrad(g, x.Ge(lo).LogicalAnd(x.Le(hi)))", "keepGrad(g, x.Lt(lo).LogicalAnd(lo.Lt(hi)))", "keepGrad(g, x.Gt(hi).LogicalOr(hi.Lt(lo)))"}, Accepts: clampNumbers, ScalarKernel: "clamp_scalar_{dev}", ScalarAccepts: clampNumbers, NaNScalarsFill: true, Scalars: []int{1, 2}, ScalarIn: InCompute, SIMD: SIMD{Ternary: "Clamp", Types: Numbers}}, loop(Numbers, "min(max(a, b), c)"))
	// Addcmul truncates a float value on integers (PyTorch does not refuse
	// it, unlike add's alpha); on floats it adds the product fused
	// (elem.MulAdd), as PyTorch's kernels, built with FMA contraction, do.
	Addcmul = ternary("addcmul", "Addcmul", "x + value·t1·t2 (value 1 when not given)", []string{"x", "t1", "t2"},
		Op{Grad: []string{"g", "alphaScaled(c, g.Mul(t2))", "alphaScaled(c, g.Mul(t1))"}, Accepts: NotBool, Alpha: "value", IntAlpha: true, ScalarIn: InOpMath},
		loopPre(Ints, alphaInt, "a + alpha*b*c"), loopPre(Floats, alphaFloat, "elem.MulAdd(alpha*b, c, a)"))
	Addcdiv = ternary("addcdiv", "Addcdiv", "x + value·t1/t2 (value 1 when not given)", []string{"x", "t1", "t2"},
		Op{Grad: []string{"g", "alphaScaled(c, g.Div(t2))", "alphaScaled(c, g.Neg().Mul(t1).Div(t2.Square()))"}, Alpha: "value", Check: addcdivInts, ScalarIn: InOpMath}, loopPre(Floats, alphaFloat, "a + alpha*b/c"))
	// Lerp computes in its input's dtype: a float weight does not promote
	// an integer input.
	Lerp = ternary("lerp", "Lerp", "x + weight·(end - x), by PyTorch's formula exact at both ends", []string{"x", "end", "weight"},
		Op{Grad: []string{"g.Mul(weight.Neg().Add(Scalar(1)))", "g.Mul(weight)", "g.Mul(end.Sub(x))"}, Accepts: Floats, Check: lerpDTypes, Scalars: []int{2}, ScalarIn: InOpMath}, loop(Floats, "elem.Lerp(a, b, c)"))
)

// clampNumbers are the compute dtypes of PyTorch 1.13's CPU clamp kernels
// (clamp_cpu, clamp_scalar_cpu, clamp_min_cpu, clamp_max_scalar_cpu): no
// bool, no float16 (bfloat16 it has).
const clampNumbers = Numbers &^ (1 << dtype.Float16)

// negativeIntPower refuses an integer or bool tensor raised to a negative
// integer Go number, as PyTorch does (NumPy's rule), before anything else;
// a tensor exponent is not checked: its negative elements give 1/a^|b|
// truncated, as in PyTorch.
func negativeIntPower(c Call) error {
	if !c.In[0].Wrapped && c.In[0].DType.IsIntOrBool() && c.In[1].Wrapped && c.In[1].DType.IsIntOrBool() && c.In[1].Number < 0 {
		return errs.New(errs.Value, "pow", "Integers to negative integer powers are not allowed.")
	}
	return nil
}

// powByScalar is how PyTorch 1.13's CPU pow runs with a Go number
// (Pow.cpp and cpu/PowKernel.cpp). A base of 1 fills ones, whatever the
// out= dtype. For an exponent, out= must have the result dtype, and some
// exponents are not computed by pow, which changes values at some inputs:
// sqrt(-0) is -0 and sqrt(-Inf) NaN where pow(x, 0.5) gives +0 and +Inf;
// rsqrt(-0) is -Inf; x·x·x and 1/(x·x) round at each step. Exponent 0
// fills ones and 1 copies, for every dtype (a bool exponent is neither
// number). Float32, float64 and bfloat16 run 0.5 as sqrt, -0.5 as rsqrt,
// -1 as reciprocal, and 2, 3 and -2 as x·x, (x·x)·x and 1/(x·x);
// bfloat16 compares these three after rounding the exponent to bfloat16,
// as its kernel reads it so (2.004 is 2), and rounds x·x to bfloat16
// before the next step. Float16 runs pow for all others. Integers run
// PyTorch's repeated squaring (powi), whose wrapping result for 2 and 3
// is the product's, so they take the product's faster kernels.
func powByScalar(c dtype.DType, i int, s Operand) ScalarSteps {
	if s.DType == dtype.Bool {
		return ScalarSteps{StrictOut: i == 1}
	}
	if i == 0 {
		return ScalarSteps{Ones: s.Number == 1, AnyOut: s.Number == 1}
	}
	switch s.Number {
	case 0:
		return ScalarSteps{StrictOut: true, Ones: true}
	case 1:
		return ScalarSteps{StrictOut: true, Copy: true}
	}
	steps := ScalarSteps{StrictOut: true}
	switch c {
	case dtype.Float32, dtype.Float64, dtype.BFloat16:
		switch s.Number {
		case 0.5:
			steps.First = Sqrt
			return steps
		case -0.5:
			steps.First = Rsqrt
			return steps
		case -1:
			steps.First = Reciprocal
			return steps
		}
	case dtype.Float16:
		return steps
	}
	x := s.Number
	if c == dtype.BFloat16 {
		x = dtype.Round(c, x)
	}
	switch x {
	case 2:
		steps.First = Square
	case 3:
		steps.First, steps.Then = Square, Mul
	case -2:
		if c.IsFloat() {
			steps.First, steps.Then = Square, Reciprocal
		}
	}
	if c == dtype.Float32 && x == x && float64(float32(x)) != x {
		// an exponent float32 cannot hold (Note [Pow's special exponents])
		steps.Wide = dtype.Float64
	}
	return steps
}

// subBool refuses a bool operand of sub beside one of another dtype (two
// bools are its Refusal), a Go number true or false included, as
// PyTorch's sub_check does before anything else, whatever the result
// dtype: bool - 0.5 is refused where bool + 0.5 is 1.5.
func subBool(c Call) error {
	if c.In[0].DType == dtype.Bool || c.In[1].DType == dtype.Bool {
		return errs.New(errs.DType, "sub", "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return nil
}

// noBoolInput refuses a bool input, which PyTorch has no kernel for.
func noBoolInput(c Call) error {
	if c.In[0].DType == dtype.Bool {
		return errs.New(errs.DType, "", "%q not implemented for 'Bool'", c.Kernel)
	}
	return nil
}

func whereCondition(c Call) error {
	if d := c.In[0].DType; d != dtype.Bool && d != dtype.Uint8 {
		return errs.New(errs.DType, "where", "where expected condition to be a boolean tensor, but got a tensor with dtype %s", d)
	}
	return nil
}

func addcdivInts(c Call) error {
	if c.In[1].DType.IsIntOrBool() && c.In[2].DType.IsIntOrBool() {
		return errs.New(errs.DType, "addcdiv", "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
	}
	return nil
}

func lerpDTypes(c Call) error {
	if !c.In[0].DType.IsFloat() {
		kernel := "lerp_kernel_tensor"
		if c.In[2].Wrapped {
			kernel = "lerp_kernel_scalar"
		}
		return errs.New(errs.DType, "lerp", "%q not implemented for '%s'", kernel, c.In[0].DType)
	}
	for i, name := range []string{"", "end", "weight"} {
		if i > 0 && !c.In[i].Wrapped && c.In[i].DType != c.In[0].DType {
			return errs.New(errs.DType, "lerp", "expected dtype %s for `%s` but got dtype %s", c.In[0].DType, name, c.In[i].DType)
		}
	}
	return nil
}
