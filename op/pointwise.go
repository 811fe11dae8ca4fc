package op

import (
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// Pointwise defines an elementwise op: how its compute dtype follows from
// its inputs, which dtypes it accepts, and the kernel code that runs it.
type Pointwise struct {
	Name  string
	Code  kernel.Code
	Arity int
	// IntToFloat computes integer and bool inputs in float32.
	IntToFloat bool
	// Accepts reports whether the op is defined for a compute dtype; nil accepts all.
	Accepts func(dtype.DType) bool
	// Check rejects arguments that PyTorch rejects with a message of its own.
	Check func(compute dtype.DType, ins []*raw.View, args *kernel.Args) error
	// AlphaName names the op's multiplier (alpha, value) in the error for a
	// float one with an integer or bool compute dtype; empty: no such check.
	AlphaName string
	// IntIdentity: on integer and bool inputs the op returns its input (floor, ceil, round, trunc).
	IntIdentity bool
	// StrictOut: out= must have exactly the result dtype (abs, neg).
	StrictOut bool
	// PromoteFrom lists the inputs that decide the compute dtype (nil: all).
	PromoteFrom []int
	// BoolToInt64 computes bool inputs in int64 (square is pow(x, 2), and
	// bool promoted with an integer scalar gives int64).
	BoolToInt64 bool
}

// ResultType returns the dtype the op computes in for these inputs.
func (d *Pointwise) ResultType(ins []*raw.View) dtype.DType {
	var st dtype.ResultState
	if d.PromoteFrom != nil {
		for _, i := range d.PromoteFrom {
			st.Update(ins[i].DType, ins[i].Dim(), ins[i].Wrapped)
		}
	} else {
		for _, v := range ins {
			st.Update(v.DType, v.Dim(), v.Wrapped)
		}
	}
	c := st.Result()
	if d.IntToFloat && c.IsIntOrBool() {
		c = dtype.Default
	}
	if d.BoolToInt64 && c == dtype.Bool {
		c = dtype.Int64
	}
	return c
}

func (d *Pointwise) resultDType(compute dtype.DType) dtype.DType {
	if kernel.OutputsBool(d.Code) {
		return dtype.Bool
	}
	return compute
}

// Run computes the op over ins into a new view (out nil), into out (out=),
// or into ins[0] (inPlace, with out == ins[0]). It returns the result view.
// See Note [Per-op overhead].
func (d *Pointwise) Run(out *raw.View, inPlace bool, args *kernel.Args, ins ...*raw.View) (*raw.View, error) {
	if len(ins) != d.Arity {
		return nil, errs.New(errs.Value, d.Name, "expected %d inputs, got %d", d.Arity, len(ins))
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	if inPlace {
		out = ins[0]
	}
	compute := d.ResultType(ins)
	if d.Accepts != nil && !d.Accepts(compute) {
		return nil, d.shapeFirst(out, inPlace, ins, errs.New(errs.DType, d.Name, "\"%s_cpu\" not implemented for '%s'", d.Name, compute))
	}
	if d.Check != nil {
		// A copy of ins, so that ins itself does not escape through the
		// func value (and the callers' arrays stay on their stacks).
		if err := d.Check(compute, append([]*raw.View(nil), ins...), args); err != nil {
			return nil, err
		}
	}
	if d.AlphaName != "" && compute.IsIntOrBool() && args.AlphaFloat {
		return nil, errs.New(errs.DType, d.Name, "For integral input tensors, argument %s must not be a floating point number.", d.AlphaName)
	}
	result := d.resultDType(compute)
	if out != nil {
		if d.StrictOut && out.DType != result {
			return nil, d.shapeFirst(out, inPlace, ins, errs.New(errs.DType, d.Name, "Found dtype %s but expected %s", out.DType, result))
		}
		if !dtype.CanCast(result, out.DType) {
			return nil, d.shapeFirst(out, inPlace, ins, errs.New(errs.DType, d.Name, "result type %s can't be cast to the desired output type %s", result, out.DType))
		}
	}
	if d.IntIdentity && compute.IsIntOrBool() {
		return identity(d.Name, out, inPlace, ins[0])
	}
	cfg := iter.NewConfig().Op(d.Name).StaticDType(compute)
	if out == nil {
		cfg.AddOutputDType(result)
	} else {
		cfg.AddOutput(out).CastCommonDTypeToOutputs(true)
		if inPlace {
			cfg.ResizeOutputs(false)
		}
	}
	for _, v := range ins {
		if v.Wrapped && v.DType != compute && !(d.Code == kernel.Where && v == ins[0]) {
			v = ScalarOf(v).ViewAs(compute)
		}
		cfg.AddInput(v)
	}
	p, err := cfg.Build()
	if err != nil {
		return nil, err
	}
	if p.NumEl() > 0 {
		err = Backend.Pointwise(d.Code, p, args)
	}
	r := p.Output(0)
	p.Release()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// shapeFirst returns the shape error of the op's inputs (and in-place
// output) if they have one,
// else dtypeErr: PyTorch's iterator computes shapes before dtypes, and its
// kernels are looked up after both, so an op whose operands are wrong in
// both ways reports the shape. Only error paths call it.
func (d *Pointwise) shapeFirst(out *raw.View, inPlace bool, ins []*raw.View, dtypeErr error) error {
	cfg := iter.NewConfig().Op(d.Name)
	if inPlace {
		cfg.AddOutput(out).ResizeOutputs(false) // out is ins[0]: broadcast with the others
	} else {
		cfg.AddOutput(nil) // PyTorch resizes an out= of another shape (with a warning): no shape error of its own
	}
	for _, v := range ins {
		cfg.AddInput(v)
	}
	if err := cfg.CheckShapes(); err != nil {
		return err
	}
	return dtypeErr
}

// Note [Per-op overhead]
//
// On small tensors an op costs what it takes to get to its loop, so the path
// from the user API to the kernel allocates nothing that it can avoid: the
// tensor layer passes its views in an array on its stack, Run keeps them from
// escaping (Check gets a copy), the iter.Config lives on Run's stack, the
// Plan is reused (Note [Reusing plans]), and alpha 1 needs no Args of its own
// (WithAlpha). An out= op on small contiguous tensors then allocates
// nothing; a test holds that.

// identity returns in itself where an op is the identity (a copy for out=).
func identity(name string, out *raw.View, inPlace bool, in *raw.View) (*raw.View, error) {
	if inPlace {
		return in, nil
	}
	if out == nil {
		return Clone(in)
	}
	return CopyInto(name, out, in, true)
}

// ClampBounds picks clamp's definition for its bounds lo and hi (either may
// be nil, not both) and returns it with the inputs that follow x: Clamp for
// both, ClampMin or ClampMax for one. A lone scalar bound that is NaN bounds
// nothing, as in PyTorch, whose one-bound clamp compares with std::max and
// std::min (clamp(x, max=nan) is x, where clamp(x, 0, nan) is NaN): it
// becomes -Inf (+Inf for max), which keeps the result dtype.
func ClampBounds(lo, hi *raw.View) (*Pointwise, []*raw.View, error) {
	lone := func(b *raw.View, inf float64) *raw.View {
		if b.Wrapped && b.DType.IsFloat() && math.IsNaN(ScalarOf(b).F) {
			return Float(inf).Wrap()
		}
		return b
	}
	switch {
	case lo != nil && hi != nil:
		return Clamp, []*raw.View{lo, hi}, nil
	case lo != nil:
		return ClampMin, []*raw.View{lone(lo, math.Inf(-1))}, nil
	case hi != nil:
		return ClampMax, []*raw.View{lone(hi, math.Inf(1))}, nil
	}
	return nil, nil, errs.New(errs.Value, "clamp", "torch.clamp: At least one of 'min' or 'max' must not be None")
}

// boolClampBound refuses a bool clamp against a scalar bound, which PyTorch
// has no kernel for; against a tensor bound it is PyTorch's maximum
// (minimum) of bools.
func boolClampBound(kernelName string) func(dtype.DType, []*raw.View, *kernel.Args) error {
	return func(c dtype.DType, ins []*raw.View, _ *kernel.Args) error {
		if c == dtype.Bool && ins[1].Wrapped {
			return errs.New(errs.DType, "clamp", "%q not implemented for '%s'", kernelName, c)
		}
		return nil
	}
}

// dtype predicates for Accepts.
func notBool(d dtype.DType) bool   { return d != dtype.Bool }
func floatOnly(d dtype.DType) bool { return d.IsFloat() }
func intOrBool(d dtype.DType) bool { return d.IsIntOrBool() }
func intOnly(d dtype.DType) bool   { return d.IsInt() }
func anyDType(dtype.DType) bool    { return true }

func unary(name string, code kernel.Code) *Pointwise {
	return &Pointwise{Name: name, Code: code, Arity: 1}
}

func floatUnary(name string, code kernel.Code) *Pointwise {
	return &Pointwise{Name: name, Code: code, Arity: 1, IntToFloat: true}
}

func binary(name string, code kernel.Code) *Pointwise {
	return &Pointwise{Name: name, Code: code, Arity: 2}
}

// The pointwise ops.
var (
	Neg = &Pointwise{Name: "neg", Code: kernel.Neg, Arity: 1, StrictOut: true,
		Check: func(c dtype.DType, _ []*raw.View, _ *kernel.Args) error {
			if c == dtype.Bool {
				return errs.New(errs.DType, "neg", "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
			}
			return nil
		}}
	Abs        = &Pointwise{Name: "abs", Code: kernel.Abs, Arity: 1, StrictOut: true, Accepts: notBool}
	Sign       = unary("sign", kernel.Sign)
	Exp        = floatUnary("exp", kernel.Exp)
	Exp2       = floatUnary("exp2", kernel.Exp2)
	Expm1      = floatUnary("expm1", kernel.Expm1)
	Log        = floatUnary("log", kernel.Log)
	Log2       = floatUnary("log2", kernel.Log2)
	Log10      = floatUnary("log10", kernel.Log10)
	Log1p      = floatUnary("log1p", kernel.Log1p)
	Sqrt       = floatUnary("sqrt", kernel.Sqrt)
	Rsqrt      = floatUnary("rsqrt", kernel.Rsqrt)
	Reciprocal = floatUnary("reciprocal", kernel.Reciprocal)
	Square     = &Pointwise{Name: "square", Code: kernel.Square, Arity: 1, BoolToInt64: true}
	Sin        = floatUnary("sin", kernel.Sin)
	Cos        = floatUnary("cos", kernel.Cos)
	Tan        = floatUnary("tan", kernel.Tan)
	Asin       = floatUnary("asin", kernel.Asin)
	Acos       = floatUnary("acos", kernel.Acos)
	Atan       = floatUnary("atan", kernel.Atan)
	Sinh       = floatUnary("sinh", kernel.Sinh)
	Cosh       = floatUnary("cosh", kernel.Cosh)
	Tanh       = floatUnary("tanh", kernel.Tanh)
	Asinh      = floatUnary("asinh", kernel.Asinh)
	Acosh      = floatUnary("acosh", kernel.Acosh)
	Atanh      = floatUnary("atanh", kernel.Atanh)
	Sigmoid    = floatUnary("sigmoid", kernel.Sigmoid)
	Logit      = floatUnary("logit", kernel.Logit)
	Relu       = &Pointwise{Name: "relu", Code: kernel.Relu, Arity: 1, Accepts: notBool}
	Gelu       = &Pointwise{Name: "gelu", Code: kernel.Gelu, Arity: 1, Accepts: floatOnly}
	GeluTanh   = &Pointwise{Name: "gelu", Code: kernel.GeluTanh, Arity: 1, Accepts: floatOnly}
	Silu       = &Pointwise{Name: "silu", Code: kernel.Silu, Arity: 1, Accepts: floatOnly}
	Erf        = floatUnary("erf", kernel.Erf)
	Erfc       = floatUnary("erfc", kernel.Erfc)
	Floor      = &Pointwise{Name: "floor", Code: kernel.Floor, Arity: 1, IntIdentity: true, Accepts: notBool}
	Ceil       = &Pointwise{Name: "ceil", Code: kernel.Ceil, Arity: 1, IntIdentity: true, Accepts: notBool}
	Round      = &Pointwise{Name: "round", Code: kernel.Round, Arity: 1, IntIdentity: true, Accepts: notBool}
	Trunc      = &Pointwise{Name: "trunc", Code: kernel.Trunc, Arity: 1, IntIdentity: true, Accepts: notBool}
	Frac       = &Pointwise{Name: "frac", Code: kernel.Frac, Arity: 1, Accepts: floatOnly}
	LogicalNot = unary("logical_not", kernel.LogicalNot)
	BitwiseNot = &Pointwise{Name: "bitwise_not", Code: kernel.BitwiseNot, Arity: 1, Accepts: intOrBool}
	IsNan      = unary("isnan", kernel.IsNan)
	IsInf      = unary("isinf", kernel.IsInf)
	IsFinite   = unary("isfinite", kernel.IsFinite)
	Signbit    = unary("signbit", kernel.Signbit)

	Add = &Pointwise{Name: "add", Code: kernel.Add, Arity: 2, AlphaName: "alpha"}
	Sub = &Pointwise{Name: "sub", Code: kernel.Sub, Arity: 2, AlphaName: "alpha",
		Check: func(_ dtype.DType, ins []*raw.View, _ *kernel.Args) error {
			if ins[0].DType == dtype.Bool && ins[1].DType == dtype.Bool {
				return errs.New(errs.DType, "sub", "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
			}
			return nil
		}}
	Mul         = binary("mul", kernel.Mul)
	Div         = &Pointwise{Name: "div", Code: kernel.Div, Arity: 2, IntToFloat: true}
	DivTrunc    = binary("div", kernel.DivTrunc)
	DivFloor    = binary("div", kernel.DivFloor)
	FloorDivide = binary("floor_divide", kernel.DivFloor)
	Remainder   = binary("remainder", kernel.Remainder)
	Fmod        = binary("fmod", kernel.Fmod)
	Pow         = &Pointwise{Name: "pow", Code: kernel.Pow, Arity: 2, Check: func(c dtype.DType, _ []*raw.View, _ *kernel.Args) error {
		if c == dtype.Bool {
			return errs.New(errs.DType, "pow", "\"pow\" not implemented for '%s'", c)
		}
		return nil
	}}
	Maximum    = binary("maximum", kernel.Maximum)
	Minimum    = binary("minimum", kernel.Minimum)
	Fmax       = binary("fmax", kernel.Fmax)
	Fmin       = binary("fmin", kernel.Fmin)
	Atan2      = &Pointwise{Name: "atan2", Code: kernel.Atan2, Arity: 2, IntToFloat: true}
	Hypot      = &Pointwise{Name: "hypot", Code: kernel.Hypot, Arity: 2, Accepts: floatOnly} // no int-to-float promotion in PyTorch
	Copysign   = &Pointwise{Name: "copysign", Code: kernel.Copysign, Arity: 2, IntToFloat: true}
	Eq         = binary("eq", kernel.Eq)
	Ne         = binary("ne", kernel.Ne)
	Lt         = binary("lt", kernel.Lt)
	Le         = binary("le", kernel.Le)
	Gt         = binary("gt", kernel.Gt)
	Ge         = binary("ge", kernel.Ge)
	LogicalAnd = binary("logical_and", kernel.LogicalAnd)
	LogicalOr  = binary("logical_or", kernel.LogicalOr)
	LogicalXor = binary("logical_xor", kernel.LogicalXor)
	BitwiseAnd = &Pointwise{Name: "bitwise_and", Code: kernel.BitwiseAnd, Arity: 2, Accepts: intOrBool}
	BitwiseOr  = &Pointwise{Name: "bitwise_or", Code: kernel.BitwiseOr, Arity: 2, Accepts: intOrBool}
	BitwiseXor = &Pointwise{Name: "bitwise_xor", Code: kernel.BitwiseXor, Arity: 2, Accepts: intOrBool}
	ShiftLeft  = &Pointwise{Name: "lshift", Code: kernel.ShiftLeft, Arity: 2, Accepts: intOnly}
	ShiftRight = &Pointwise{Name: "rshift", Code: kernel.ShiftRight, Arity: 2, Accepts: intOnly}
	ClampMin   = &Pointwise{Name: "clamp", Code: kernel.ClampMin, Arity: 2, Check: boolClampBound("clamp_min_cpu")}
	ClampMax   = &Pointwise{Name: "clamp", Code: kernel.ClampMax, Arity: 2, Check: boolClampBound("clamp_max_cpu")}

	// Where takes a bool condition, or PyTorch's deprecated uint8 one, which
	// the backend reads converted to bool (nonzero is true) like any operand
	// of another dtype.
	Where = &Pointwise{Name: "where", Code: kernel.Where, Arity: 3, PromoteFrom: []int{1, 2},
		Check: func(_ dtype.DType, ins []*raw.View, _ *kernel.Args) error {
			if ins[0].DType != dtype.Bool && ins[0].DType != dtype.Uint8 {
				return errs.New(errs.DType, "where", "where expected condition to be a boolean tensor, but got a tensor with dtype %s", ins[0].DType)
			}
			return nil
		}}
	// Clamp with both bounds has no bool kernel in PyTorch (one tensor
	// bound has: ClampMin, ClampMax).
	Clamp = &Pointwise{Name: "clamp", Code: kernel.Clamp, Arity: 3, Accepts: notBool}
	// Addcmul on integers truncates a float value (PyTorch does not refuse it, unlike add's alpha).
	Addcmul = &Pointwise{Name: "addcmul", Code: kernel.Addcmul, Arity: 3, Accepts: notBool}
	Addcdiv = &Pointwise{Name: "addcdiv", Code: kernel.Addcdiv, Arity: 3, AlphaName: "value",
		Check: func(_ dtype.DType, ins []*raw.View, _ *kernel.Args) error {
			if ins[1].DType.IsIntOrBool() && ins[2].DType.IsIntOrBool() {
				return errs.New(errs.DType, "addcdiv", "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
			}
			return nil
		}}
	Lerp = &Pointwise{Name: "lerp", Code: kernel.Lerp, Arity: 3, Accepts: floatOnly,
		Check: func(_ dtype.DType, ins []*raw.View, _ *kernel.Args) error {
			// lerp computes in its input's dtype: a float weight does not promote an integer input
			if !ins[0].DType.IsFloat() {
				kernelName := "lerp_kernel_tensor"
				if ins[2].Wrapped {
					kernelName = "lerp_kernel_scalar"
				}
				return errs.New(errs.DType, "lerp", "%q not implemented for '%s'", kernelName, ins[0].DType)
			}
			for i, name := range []string{"", "end", "weight"} {
				if i > 0 && !ins[i].Wrapped && ins[i].DType != ins[0].DType {
					return errs.New(errs.DType, "lerp", "expected dtype %s for `%s` but got dtype %s", ins[0].DType, name, ins[i].DType)
				}
			}
			return nil
		}}
)

// Args for the usual multipliers, shared: kernels never modify Args.
var (
	alphaInt1   = kernel.Args{AlphaF: 1, AlphaI: 1}
	alphaFloat1 = kernel.Args{AlphaF: 1, AlphaI: 1, AlphaFloat: true}
)

// WithAlpha returns Args carrying alpha (the multiplier of add, sub,
// addcmul and addcdiv). The caller must not modify them.
func WithAlpha(alpha Scalar) *kernel.Args {
	if alpha.F == 1 && alpha.I == 1 {
		switch alpha.Kind {
		case dtype.CatInt:
			return &alphaInt1
		case dtype.CatFloat:
			return &alphaFloat1
		}
	}
	return &kernel.Args{AlphaF: alpha.F, AlphaI: alpha.I, AlphaFloat: alpha.IsFloat()}
}
