package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Reduction defines a reduction over dims: its dtype rule, whether it has
// a value over no elements, and the kernel code that runs it. One executor
// ([Reduction.Run]) serves them all; see Note [Reduction plans] in package
// kernel for what the backend receives.
type Reduction struct {
	Name string
	Code kernel.Code
	// NoIdentity: the reduction has no value over no elements; reducing an
	// empty dim is an index error (amax, max, argmax, ...).
	NoIdentity bool
	// Result returns the result dtype for an input of dtype d (after any
	// dtype= conversion), or a dtype error; nil means d.
	Result func(d dtype.DType) (dtype.DType, error)
	// InInput computes in the input's dtype whatever the result's (index,
	// bool and count results).
	InInput bool
	// OutDecides: the dtype= argument, or else an out= tensor's dtype, is
	// the result dtype (sum, prod).
	OutDecides bool
	// StrictOut: out= must have the input's dtype (amax, amin).
	StrictOut bool
	// NoBool: PyTorch has no kernel for bool inputs (argmax, argmin).
	NoBool bool
	// NoKernel reports the dtypes PyTorch 1.13 has no CPU kernel for (a
	// dtype error, raised only when there are elements to reduce): in is
	// the input's dtype, d the one computed in, explicit whether dtype=
	// gave it. nil: none.
	NoKernel func(in, d dtype.DType, explicit bool) bool
}

func intToInt64(d dtype.DType) (dtype.DType, error) {
	if d.IsIntOrBool() {
		return dtype.Int64, nil
	}
	return d, nil
}

func alwaysInt64(dtype.DType) (dtype.DType, error) { return dtype.Int64, nil }

func floatOnlyResult(name, msg string) func(d dtype.DType) (dtype.DType, error) {
	return func(d dtype.DType) (dtype.DType, error) {
		if !d.IsFloat() {
			return 0, errs.New(errs.DType, name, msg, d)
		}
		return d, nil
	}
}

var (
	// Sum is torch.sum: bool and integer inputs give int64.
	Sum = &Reduction{Name: "sum", Code: kernel.Sum, Result: intToInt64, OutDecides: true}
	// NanSum is torch.nansum: a sum counting NaN as 0.
	NanSum = &Reduction{Name: "nansum", Code: kernel.NanSum, Result: intToInt64, OutDecides: true,
		// an integer input is summed by sum whatever dtype=
		NoKernel: func(in, d dtype.DType, explicit bool) bool { return in.IsFloat() && explicit && !d.IsFloat() }}
	// Prod is torch.prod.
	Prod = &Reduction{Name: "prod", Code: kernel.Prod, Result: intToInt64, OutDecides: true,
		NoKernel: func(_, d dtype.DType, _ bool) bool { return d.IsReduced() }}
	// Mean is torch.mean: float inputs only (or a float dtype=).
	Mean = &Reduction{Name: "mean", Code: kernel.Mean, OutDecides: true,
		Result: floatOnlyResult("mean", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s")}
	// Amax is torch.amax.
	Amax = &Reduction{Name: "amax", Code: kernel.Amax, NoIdentity: true, StrictOut: true}
	// Amin is torch.amin.
	Amin = &Reduction{Name: "amin", Code: kernel.Amin, NoIdentity: true, StrictOut: true}
	// Max is torch.max along a dim: values and int64 indices.
	Max = &Reduction{Name: "max", Code: kernel.Max, NoIdentity: true}
	// Min is torch.min along a dim: values and int64 indices.
	Min = &Reduction{Name: "min", Code: kernel.Min, NoIdentity: true}
	// ArgMax is torch.argmax.
	ArgMax = &Reduction{Name: "argmax", Code: kernel.ArgMax, NoIdentity: true, InInput: true, NoBool: true, Result: alwaysInt64}
	// ArgMin is torch.argmin.
	ArgMin = &Reduction{Name: "argmin", Code: kernel.ArgMin, NoIdentity: true, InInput: true, NoBool: true, Result: alwaysInt64}
	// Var is torch.var (Args.Correction).
	Var = &Reduction{Name: "var", Code: kernel.Var, Result: floatOnlyResult("var", "std and var only support floating point and complex dtypes, got %s")}
	// Std is torch.std (Args.Correction).
	Std = &Reduction{Name: "std", Code: kernel.Std, Result: floatOnlyResult("std", "std and var only support floating point and complex dtypes, got %s")}
	// Norm is torch.norm's vector p-norm (Args.P).
	Norm = &Reduction{Name: "norm", Code: kernel.Norm,
		Result: floatOnlyResult("norm", "norm(): input dtype should be either floating point or complex. Got %s instead.")}
	// LogSumExp is torch.logsumexp: integer inputs give float32.
	LogSumExp = &Reduction{Name: "logsumexp", Code: kernel.LogSumExp, Result: func(d dtype.DType) (dtype.DType, error) {
		if d.IsIntOrBool() {
			return dtype.Default, nil
		}
		return d, nil
	}}
	// All is torch.all: bool, or uint8 for uint8 inputs.
	All = &Reduction{Name: "all", Code: kernel.All, InInput: true, Result: boolOrUint8}
	// Any is torch.any: bool, or uint8 for uint8 inputs.
	Any = &Reduction{Name: "any", Code: kernel.Any, InInput: true, Result: boolOrUint8}
	// CountNonzero is torch.count_nonzero.
	CountNonzero = &Reduction{Name: "count_nonzero", Code: kernel.CountNonzero, InInput: true, Result: alwaysInt64}
)

func boolOrUint8(d dtype.DType) (dtype.DType, error) {
	if d == dtype.Uint8 {
		return dtype.Uint8, nil
	}
	return dtype.Bool, nil
}

// ReduceDims wraps dims for an input of ndim dims and returns a mask of the
// reduced dims; no dims means all of them. A repeated dim is a value error.
func ReduceDims(name string, dims []int, ndim int) ([]bool, error) {
	mask := make([]bool, ndim)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		w, err := shape.WrapDim(d, ndim)
		if err != nil {
			return nil, err
		}
		if ndim == 0 {
			continue
		}
		if mask[w] {
			return nil, errs.New(errs.Value, name, "dim %d appears multiple times in the list of dims", w)
		}
		mask[w] = true
	}
	return mask, nil
}

// ReduceArgs returns kernel arguments for Var and Std (correction) and Norm
// (p); the other reductions take none.
func ReduceArgs(correction, p float64) *kernel.Args {
	a := kernel.DefaultArgs
	a.Correction, a.P = correction, p
	return &a
}

// Run reduces in over dims (all when empty) into a new view, or into out.
// dt, when valid, is the dtype= argument: the input is read converted to
// it, and the result has it. args carries Var's correction and Norm's p
// (nil: none). Max and Min return only their values here; see
// [Reduction.RunIndices].
func (r *Reduction) Run(in *raw.View, dims []int, keepdim bool, dt dtype.DType, out *raw.View, args *kernel.Args) (*raw.View, error) {
	outs, err := r.run(in, dims, keepdim, dt, out, args)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// RunIndices reduces in along dim, returning the values and their int64
// indices along dim (Max, Min: the first occurrence; a NaN wins).
func (r *Reduction) RunIndices(in *raw.View, dim int, keepdim bool) (values, indices *raw.View, err error) {
	if kernel.NumOutputs(r.Code) != 2 {
		return nil, nil, errs.New(errs.Value, r.Name, "%s returns no indices", r.Name)
	}
	outs, err := r.run(in, []int{dim}, keepdim, dtype.Invalid, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}

// RunFlat reduces all of in as a flattened 1-D tensor: the index ops
// (ArgMax, ArgMin) report the flat index. The result is 0-d.
func (r *Reduction) RunFlat(in *raw.View) (*raw.View, error) {
	if in.NumEl() == 0 && r.NoIdentity {
		return nil, errs.New(errs.Index, r.Name, "%s(): Expected reduction dim to be specified for input.numel() == 0.", r.Name)
	}
	if r.NoBool && in.DType == dtype.Bool && in.NumEl() > 0 {
		return nil, errs.New(errs.DType, r.Name, "\"%s_cpu\" not implemented for '%s'", r.Name, in.DType)
	}
	flat, err := Reshape(in, []int{-1})
	if err != nil {
		return nil, err
	}
	return r.Run(flat, []int{0}, false, dtype.Invalid, nil, nil)
}

func (r *Reduction) run(in *raw.View, dims []int, keepdim bool, dt dtype.DType, out *raw.View, args *kernel.Args) ([]*raw.View, error) {
	if args == nil {
		args = &kernel.DefaultArgs
	}
	// The dtype rule first: PyTorch checks it before the dims (mean(x, 3,
	// dtype=int64) of a 2-D x is a dtype error).
	src := in.DType
	if dt.Valid() {
		src = dt
	}
	result := src
	var err error
	if r.Result != nil {
		if result, err = r.Result(src); err != nil {
			return nil, err
		}
	}
	mask, err := ReduceDims(r.Name, dims, in.Dim())
	if err != nil {
		return nil, err
	}
	if r.NoIdentity && in.NumEl() == 0 && len(dims) == 0 {
		return nil, errs.New(errs.Index, r.Name, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", r.Name)
	}
	keepShape := make([]int, in.Dim())
	outShape := []int{}
	for i, s := range in.Shape {
		if mask[i] {
			keepShape[i] = 1
			if s == 0 && r.NoIdentity {
				return nil, errs.New(errs.Index, r.Name, "%s(): Expected reduction dim %d to have non-zero size.", r.Name, i)
			}
			if keepdim {
				outShape = append(outShape, 1)
			}
		} else {
			keepShape[i] = s
			outShape = append(outShape, s)
		}
	}
	// PyTorch runs no kernel for an empty result, nor along one dim of size 1
	// (whose indices are all 0).
	if r.NoBool && src == dtype.Bool && shape.NumEl(outShape) > 0 && !(len(dims) == 1 && in.Dim() > 0 && in.NumEl() == shape.NumEl(outShape)) {
		return nil, errs.New(errs.DType, r.Name, "\"%s_cpu\" not implemented for '%s'", r.Name, src)
	}
	switch {
	case r.OutDecides && dt.Valid():
		result = dt // dtype= names the result: sum(int8, dtype=int16) is int16
	case r.OutDecides && out != nil:
		result = out.DType
	}
	compute := result
	if r.InInput {
		compute = src
	}
	if r.NoKernel != nil && in.NumEl() > 0 && r.NoKernel(in.DType, compute, dt.Valid()) {
		return nil, errs.New(errs.DType, r.Name, "\"%s_cpu\" not implemented for '%s'", r.Name, compute)
	}
	if compute == dtype.Bool && !r.InInput {
		// A sum or product of bools into bool: computed in int64 and cast
		// (nonzero is true), which is PyTorch's bool add (or) and mul (and).
		// The input is converted to bool first (dtype=bool), not to int64.
		if in.DType != dtype.Bool {
			if in, err = To(in, dtype.Bool); err != nil {
				return nil, err
			}
		}
		compute = dtype.Int64
	}
	nout := kernel.NumOutputs(r.Code)
	outs := make([]*raw.View, nout)
	if out != nil {
		if r.StrictOut && out.DType != in.DType {
			return nil, errs.New(errs.DType, r.Name, "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.", in.DType, out.DType)
		}
		if out.DType != result {
			return nil, errs.New(errs.DType, r.Name, "Expected out tensor to have dtype %s, but got %s instead", result, out.DType)
		}
		if !shape.Equal(out.Shape, outShape) {
			if out.NumEl() != 0 {
				return nil, errs.New(errs.Shape, r.Name, "output with shape %v doesn't match the result shape %v", out.Shape, outShape)
			}
			out.Resize(append([]int{}, outShape...), nil)
		}
		outs[0] = out
	} else {
		outs[0] = raw.New(result, outShape)
	}
	if nout == 2 {
		outs[1] = raw.New(dtype.Int64, outShape)
	}
	if outs[0].NumEl() == 0 {
		return outs, nil
	}
	if r.Code == kernel.Norm && in.NumEl() == 0 {
		// PyTorch's norm of no elements is 0 for every p, negative and
		// -inf included (where the formula would give +Inf).
		_, err := Fill(outs[0], Int(0))
		return outs, err
	}
	cfg := iter.NewConfig().Op(r.Name).IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(compute)
	for _, o := range outs {
		cfg.AddOutput(keptView(o, mask, keepShape, keepdim))
	}
	p, err := cfg.AddInput(in).Build()
	if err != nil {
		return nil, err
	}
	if err := Backend.Reduce(r.Code, p, args); err != nil {
		return nil, err
	}
	return outs, nil
}

// keptView returns o seen with the input's number of dims: size 1 and
// stride 0 on the reduced dims.
func keptView(o *raw.View, mask []bool, keepShape []int, keepdim bool) *raw.View {
	strides := make([]int, len(keepShape))
	j := 0
	for i := range keepShape {
		if mask[i] && !keepdim {
			continue
		}
		if !mask[i] {
			strides[i] = o.Strides[j]
		}
		j++
	}
	return o.WithLayout(keepShape, strides, o.Offset)
}
