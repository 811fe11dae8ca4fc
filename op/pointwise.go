package op

import (
	"math"
	"slices"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// ResultType returns the dtype the pointwise op d computes in for these
// inputs (its dtype rule in the table).
func ResultType(d *optable.Op, ins []*raw.View) dtype.DType {
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

// resultDType is the dtype d writes when it computes in compute.
func resultDType(d *optable.Op, compute dtype.DType) dtype.DType {
	if d.OutBool {
		return dtype.Bool
	}
	return compute
}

// Pointwise runs the elementwise op d over ins into a new view (out nil),
// into out (out=), or in place into its receiver input (inPlace). It
// returns the result view. Clamp with a nil bound runs ClampMin or
// ClampMax. See Note [Per-op overhead].
func Pointwise(d *optable.Op, out *raw.View, inPlace bool, args *kernel.Args, ins ...*raw.View) (*raw.View, error) {
	if d.Kind != optable.Pointwise {
		return nil, errs.New(errs.Value, d.Name, "%s is not an elementwise op", d.Name)
	}
	if d == optable.Clamp {
		var err error
		if d, ins, err = clampBounds(ins); err != nil {
			return nil, err
		}
	}
	if len(ins) != d.Arity {
		return nil, errs.New(errs.Value, d.Name, "expected %d inputs, got %d", d.Arity, len(ins))
	}
	for i, v := range ins {
		if v == nil {
			return nil, errs.New(errs.Value, d.Name, "input %d is nil", i)
		}
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	if inPlace {
		out = ins[d.Receiver]
	}
	compute := ResultType(d, ins)
	numbers := d.ScalarKernel != "" && numberArgs(d, ins)
	if numbers && out != nil && out.DType != resultDType(d, compute) {
		// PyTorch's Number overloads (clamp's) run as a unary op over the
		// input cast to the result dtype, checked before their kernel: in
		// place the result must be self's dtype, an out= must be of it
		r := resultDType(d, compute)
		if inPlace {
			return nil, errs.New(errs.DType, d.Name, "result type %s can't be cast to the desired output type %s", r, out.DType)
		}
		return nil, errs.New(errs.DType, d.Name, "Found dtype %s but expected %s", out.DType, r)
	}
	if !d.AcceptNumbers(compute, numbers) && !(numbers && nanScalars(d, ins)) {
		if d.Refusal != "" { // PyTorch checks these before its iterator
			return nil, errs.New(errs.DType, d.Name, "%s", d.Refusal)
		}
		return nil, iterErrorFirst(d, out, inPlace, ins, errs.New(errs.DType, d.Name, "%q not implemented for '%s'", d.KernelNameNumbers(Device(ins...).String(), numbers), compute))
	}
	if d.Check != nil {
		var in [3]optable.Operand
		for i, v := range ins {
			in[i] = optable.Operand{DType: v.DType, Dim: v.Dim(), Wrapped: v.Wrapped}
			if v.Wrapped {
				in[i].Number = ScalarOf(v).F
			}
		}
		if err := d.Check(optable.Call{Compute: compute, In: in[:len(ins)], Kernel: d.KernelName(Device(ins...).String())}); err != nil {
			return nil, errs.WithOp(err, d.Name)
		}
	}
	// PyTorch's alpha_check runs after its iterator is built
	if d.Alpha != "" && !d.IntAlpha && compute.IsIntOrBool() && args.AlphaFloat {
		return nil, iterErrorFirst(d, out, inPlace, ins, errs.New(errs.DType, d.Name, "For integral input tensors, argument %s must not be a floating point number.", d.Alpha))
	}
	if d.Alpha == "alpha" && args.AlphaBool && compute != dtype.Bool { // add and sub
		return nil, iterErrorFirst(d, out, inPlace, ins, errs.New(errs.DType, d.Name, "Boolean alpha only supported for Boolean results."))
	}
	result := resultDType(d, compute)
	var steps optable.ScalarSteps
	if d.ByScalar != nil {
		steps = scalarSteps(d, compute, ins)
	}
	if out != nil {
		if (d.StrictOut || steps.StrictOut) && out.DType != result {
			return nil, iterErrorFirst(d, out, inPlace, ins, errs.New(errs.DType, d.Name, "Found dtype %s but expected %s", out.DType, result))
		}
		if !steps.AnyOut && !dtype.CanCast(result, out.DType) {
			return nil, iterErrorFirst(d, out, inPlace, ins, errs.New(errs.DType, d.Name, "result type %s can't be cast to the desired output type %s", result, out.DType))
		}
	}
	if d.ScalarIn != optable.Wrapping {
		if err := checkScalars(d, compute, args, ins); err != nil {
			return nil, iterErrorFirst(d, out, inPlace, ins, err)
		}
	}
	if args.HasEps {
		args = epsBounds(compute, args)
	}
	if d.IntIdentity && compute.IsIntOrBool() {
		return identity(d.Name, out, inPlace, ins[0])
	}
	build := func(ins []*raw.View) (*iter.Plan, error) {
		cfg := iter.NewConfig().Op(d.Name).StaticDType(compute)
		if out == nil {
			cfg.AddOutputDType(result)
		} else {
			cfg.AddOutput(out).CastCommonDTypeToOutputs(true)
			if inPlace {
				cfg.ResizeOutputs(false)
			}
		}
		for i, v := range ins {
			if v.Wrapped && v.DType != compute && !(d.CondBool && i == 0) {
				to := compute
				if d.OpMathScalar(i, compute) {
					to = dtype.Float32 // Note [Scalars in opmath]
				}
				v = ScalarOf(v).ViewAs(to)
			}
			cfg.AddInput(v)
		}
		return cfg.Build()
	}
	p, err := build(ins)
	if err != nil {
		return nil, err
	}
	if d.VectorBody.Has(compute) && p.NumEl() > 0 {
		dense, err := denseInputs(compute, ins)
		if err == nil && dense != nil {
			p.Release()
			p, err = build(dense)
		}
		if err != nil {
			return nil, err
		}
	}
	if d.ZeroDivisor && compute.IsInt() && p.NumEl() > 0 {
		if err := zeroDivisor(d.Name, compute, ins[1]); err != nil {
			p.Release()
			return nil, err
		}
	}
	r := p.Output(0)
	if p.NumEl() > 0 {
		if steps.Special() {
			p.Release()
			if err = runScalarSteps(d, steps, compute, r, ins); err != nil {
				return nil, err
			}
			return r, nil
		}
		var be kernel.Backend
		if be, err = backendOn(d.Name, p.Device()); err == nil {
			err = be.Pointwise(d, p, args)
		}
	}
	p.Release()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// denseInputs returns ins with the inputs that are not of dtype compute
// and not non-overlapping and dense replaced by dense copies in compute,
// as PyTorch's CPU iterator converts them before it orders and coalesces
// dims, for an op whose results depend on its rows (Note [Vector bodies]
// in package optable); nil when there are none. Its caller has built a
// plan over ins first, so that the checks look at the inputs themselves.
func denseInputs(compute dtype.DType, ins []*raw.View) ([]*raw.View, error) {
	var dense []*raw.View
	for i, v := range ins {
		if v.Wrapped || v.DType == compute || v.IsNonOverlappingAndDense() {
			continue
		}
		c, err := To(v, compute)
		if err != nil {
			return nil, err
		}
		if dense == nil {
			dense = slices.Clone(ins)
		}
		dense[i] = c
	}
	return dense, nil
}

// scalarSteps returns how d runs when one of its two inputs is a Go
// number and the other a tensor (Note [Pow's special exponents]); the
// zero ScalarSteps runs its kernel with the usual out= rules.
func scalarSteps(d *optable.Op, compute dtype.DType, ins []*raw.View) optable.ScalarSteps {
	if len(ins) != 2 || ins[0].Wrapped == ins[1].Wrapped {
		return optable.ScalarSteps{}
	}
	i := 0
	if ins[1].Wrapped {
		i = 1
	}
	return d.ByScalar(compute, i, optable.Operand{DType: ins[i].DType, Dim: 0, Wrapped: true, Number: ScalarOf(ins[i]).F})
}

// runScalarSteps writes into r, the output d's plan made (a new view,
// out=, or the base itself in place), what steps compute from the base
// ins[0] (steps other than Ones come only with a Go-number exponent,
// ins[1]).
func runScalarSteps(d *optable.Op, steps optable.ScalarSteps, compute dtype.DType, r *raw.View, ins []*raw.View) error {
	name, base := d.Name, ins[0]
	switch {
	case steps.Ones:
		_, err := Fill(r, Int(1))
		return err
	case steps.Copy:
		if r == base {
			return nil
		}
		_, err := CopyInto(name, r, base, false)
		return err
	}
	if steps.Wide.Valid() {
		x, err := To(base, steps.Wide)
		if err != nil {
			return err
		}
		t, err := Pointwise(d, nil, false, nil, x, ins[1])
		if err != nil {
			return err
		}
		_, err = CopyInto(name, r, t, false)
		return err
	}
	x := base
	if x.DType != compute {
		var err error
		if x, err = To(x, compute); err != nil {
			return err
		}
	}
	if steps.Then == nil {
		_, err := Pointwise(steps.First, r, false, nil, x)
		return err
	}
	// r has the compute dtype (ScalarSteps.StrictOut), so it can hold the
	// first step unless it shares memory with x, which the second reads
	var tmp *raw.View
	if iter.GetOverlapStatus(r, x) == iter.StatusNo {
		tmp = r
	}
	t, err := Pointwise(steps.First, tmp, false, nil, x)
	if err != nil {
		return err
	}
	if steps.Then == optable.Mul {
		_, err = Pointwise(optable.Mul, r, false, nil, t, x)
	} else {
		_, err = Pointwise(steps.Then, r, false, nil, t)
	}
	return err
}

// Note [Pow's special exponents]
//
// PyTorch's pow(Tensor, Scalar) does not compute pow for some exponents:
// 0 fills ones, 1 copies, and its CPU kernel runs 0.5 as sqrt, -0.5 as
// rsqrt, -1 as reciprocal, 2 as x·x, 3 as x·x·x and -2 as 1/(x·x) (which
// dtypes, optable's powByScalar says); pow(Scalar, Tensor) fills ones for
// a base of 1. That is faster, and it changes results: sqrt(-0) is -0
// where pow(-0, 0.5) is +0, sqrt(-Inf) is NaN, rsqrt(-0) is -Inf, and the
// products round at each step. goten follows it, so that pow(x, 2) costs
// a multiply and gives torch's values on every backend. The choice is the
// op's meaning, not a CPU trick, so it lives in the table (Op.ByScalar)
// and runs here, above the backends, as the ops it names: a backend needs
// no pow-specific code, the reference backend gives the same values by
// construction, and a GPU backend will too (PyTorch's CUDA kernel makes
// the same choices). The base is cast to the compute dtype first (an
// int32 tensor to 2.0 squares in float32, where int32·int32 would wrap),
// and x·x·x and 1/(x·x) run as two ops, x·x going into the output (of
// the compute dtype, as out= must be; a temporary when the output shares
// memory with the base), so that bfloat16 rounds x·x as PyTorch's
// bfloat16 arithmetic does (float32 and float64 round the same in one
// loop or two; a fused kernel would save two passes over memory: pow(x,
// 3) takes about 2.5 times mul's time, PyTorch's one). The iterator's plan for pow
// itself is built first and gives the output, so that every check
// (overlap, out= resizing, in place) is pow's; only then do the steps run
// into that output. The same table entry carries the out= rules of
// PyTorch's two Scalar overloads: pow(Tensor, Scalar)'s out= must have
// the result dtype exactly, and pow(1, Tensor) fills any out= without a
// cast check. Autograd records pow, whose gradient reads the base through
// pow again with a Go-number exponent (powBaseGrad in package tensor), as
// PyTorch's pow_backward does.
//
// PyTorch's float32 kernel reads the exponent as a double: its scalar
// loop computes std::pow(float, double), in double (its vectorised loop,
// which takes contiguous elements 16 at a time on these machines, rounds
// the exponent to float32 first: 16 elements of -2.8675 to the power
// 9999999999 give +Inf, 15 give -Inf). An exponent float32 cannot hold
// therefore runs as the scalar loop does (ScalarSteps.Wide): the base
// cast to float64, pow in float64, the result rounded into the output. That keeps an exponent's
// parity and fraction beyond 2^24 ((-2.8675)^9999999999 is -Inf where a
// float32 exponent, 1e10, gives +Inf), and the gradient's pow(x, e-1)
// with it; an exponent float32 holds runs the float32 kernel as before.

// checkScalars refuses the Go numbers that d's kernel reads by PyTorch's
// checked conversion and that the dtype of that conversion cannot hold
// (Note [Checked scalars]): the inputs d.Scalars that are Go numbers, the
// multiplier and logit's eps.
func checkScalars(d *optable.Op, compute dtype.DType, args *kernel.Args, ins []*raw.View) error {
	to := d.ScalarIn.DType(compute)
	for _, i := range d.Scalars {
		if i < len(ins) && ins[i].Wrapped {
			if err := ScalarOf(ins[i]).Check(d.Name, to); err != nil {
				return err
			}
		}
	}
	if d.Alpha != "" && !(args.AlphaI == 1 && args.AlphaF == 1) {
		alpha := Int(args.AlphaI)
		if args.AlphaFloat {
			alpha = Float(args.AlphaF)
		}
		if d.NegatedAlpha {
			alpha = Scalar{Kind: alpha.Kind, F: -alpha.F, I: -alpha.I}
		}
		if err := alpha.Check(d.Name, to); err != nil {
			return err
		}
	}
	if args.HasEps {
		return Float(args.Eps).Check(d.Name, to)
	}
	return nil
}

// iterErrorFirst returns the error PyTorch's iterator raises for the op's
// operands, if they have one, else dtypeErr: the iterator checks the
// output's memory overlaps (with itself, then with each input), then the
// shapes, before dtypes, and its kernels are looked up after all of them,
// so an op whose operands are wrong in several ways reports the first of
// these. Only error paths call it.
func iterErrorFirst(d *optable.Op, out *raw.View, inPlace bool, ins []*raw.View, dtypeErr error) error {
	if out != nil {
		oc := iter.NewConfig().Op(d.Name).AddOutput(out)
		for _, v := range ins {
			oc.AddInput(v)
		}
		if err := oc.CheckOverlaps(); err != nil {
			return err
		}
	}
	cfg := iter.NewConfig().Op(d.Name)
	if inPlace {
		cfg.AddOutput(out).ResizeOutputs(false) // out is an input: broadcast with the others
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
// tensor layer passes its views in an array on its stack, Pointwise keeps
// them from escaping (Check gets a copy of what it needs), the iter.Config
// lives on Pointwise's stack, the Plan is reused (Note [Reusing plans]), and
// alpha 1 needs no Args of its own (WithAlpha). An out= op on small
// contiguous tensors then allocates nothing; a test holds that.
// Reductions follow the same rules where they can: Reduce keeps its dims
// mask on its stack, puts the kept shape and the outputs' strides in one
// allocation and releases its plan, and the CPU backend reuses its
// reducers and keeps a one-chunk reduction's states in them (a sum of 16
// elements went from 17 allocations and 1.3 µs of CPU to 8 and 0.6 µs on
// a loaded machine; TestSmallReduceAllocs in package tensor holds it).

// identity returns in itself where an op is the identity (a copy for out=).
func identity(name string, out *raw.View, inPlace bool, in *raw.View) (*raw.View, error) {
	if inPlace {
		// PyTorch's iterator checks the output before the copy it skips
		return in, iter.CheckNoInternalOverlap(name, in)
	}
	if out == nil {
		return Clone(in)
	}
	return CopyInto(name, out, in, true)
}

// numberArgs reports whether every input of ins that d's Scalars lists is
// a Go number: then PyTorch runs d's ScalarKernel.
func numberArgs(d *optable.Op, ins []*raw.View) bool {
	for _, i := range d.Scalars {
		if !ins[i].Wrapped {
			return false
		}
	}
	return true
}

// nanScalars reports whether one of the Go numbers of ins that d's
// Scalars lists is NaN where d fills NaN then (optable.Op.NaNScalarsFill).
func nanScalars(d *optable.Op, ins []*raw.View) bool {
	if !d.NaNScalarsFill {
		return false
	}
	for _, i := range d.Scalars {
		if v := ins[i]; v.DType.IsFloat() && math.IsNaN(ScalarOf(v).F) {
			return true
		}
	}
	return false
}

// clampBounds picks clamp's kernel for its bounds ins[1] and ins[2] (either
// may be nil, not both) and returns it with the inputs: Clamp for both,
// ClampMin or ClampMax for one. A lone scalar bound that is NaN bounds
// nothing, as in PyTorch, whose one-bound clamp compares with std::max and
// std::min (clamp(x, max=nan) is x, where clamp(x, 0, nan) is NaN): it
// becomes -Inf (+Inf for max), which keeps the result dtype.
func clampBounds(ins []*raw.View) (*optable.Op, []*raw.View, error) {
	if len(ins) != 3 {
		return nil, nil, errs.New(errs.Value, "clamp", "expected 3 inputs, got %d", len(ins))
	}
	x, lo, hi := ins[0], ins[1], ins[2]
	lone := func(b *raw.View, inf float64) *raw.View {
		if b.Wrapped && b.DType.IsFloat() && math.IsNaN(ScalarOf(b).F) {
			return Float(inf).Wrap()
		}
		return b
	}
	switch {
	case lo != nil && hi != nil:
		return optable.Clamp, ins, nil
	case lo != nil:
		return optable.ClampMin, []*raw.View{x, lone(lo, math.Inf(-1))}, nil
	case hi != nil:
		return optable.ClampMax, []*raw.View{x, lone(hi, math.Inf(1))}, nil
	}
	return nil, nil, errs.New(errs.Value, "clamp", "torch.clamp: At least one of 'min' or 'max' must not be None")
}

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
	return &kernel.Args{AlphaF: alpha.F, AlphaI: alpha.I, AlphaFloat: alpha.IsFloat(), AlphaBool: alpha.Kind == dtype.CatBool}
}
