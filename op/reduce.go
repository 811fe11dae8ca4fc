package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// ReduceDims wraps dims for an input of ndim dims and returns a mask of the
// reduced dims; no dims means all of them. A repeated dim is a value error.
func ReduceDims(name string, dims []int, ndim int) ([]bool, error) {
	return reduceDims(name, dims, make([]bool, ndim))
}

// reduceDims is ReduceDims into mask, of the input's number of dims.
func reduceDims(name string, dims []int, mask []bool) ([]bool, error) {
	ndim := len(mask)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		w, err := shape.WrapDim(d, ndim)
		if err != nil {
			return nil, errs.WithOp(err, name)
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

// Reduce runs the reduction r over dims of in (all when empty) into new
// views, or into outs (out=: outs[0] the values, outs[1] the indices of
// max and min; a nil one is allocated). dt, when valid, is the dtype=
// argument: the input is read converted to it, and the result has it.
// args carries var's correction and norm's p (nil: none). It returns the
// values, and the indices of max and min. A nil dims reduces every dim; a
// non-nil empty one is PyTorch's dim=[], which does too, except that r may
// refuse it without keepdim (optable's ListedAllNeedsKeep).
func Reduce(r *optable.Op, in *raw.View, dims []int, keepdim bool, dt dtype.DType, outs []*raw.View, args *kernel.Args) ([]*raw.View, error) {
	if r.Kind != optable.Reduction {
		return nil, errs.New(errs.Value, r.Name, "%s is not a reduction", r.Name)
	}
	if in == nil {
		return nil, errs.New(errs.Value, r.Name, "the input is nil")
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	var out *raw.View
	if len(outs) > 0 {
		out = outs[0]
	}
	dev := Device(in).String()
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
	var maskBuf [16]bool // Note [Per-op overhead]: no allocation for the usual few dims
	mask := maskBuf[:0]
	if in.Dim() <= len(maskBuf) {
		mask = maskBuf[:in.Dim()]
	} else {
		mask = make([]bool, in.Dim())
	}
	mask, err = reduceDims(r.Name, dims, mask)
	if err != nil {
		return nil, err
	}
	if r.NoIdentity && in.NumEl() == 0 && len(dims) == 0 {
		return nil, errs.New(errs.Index, r.Name, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", r.Name)
	}
	// the kept shape and each output's strides in one allocation
	lay := make([]int, (1+r.Outputs)*in.Dim())
	keepShape := lay[:in.Dim():in.Dim()]
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
		return nil, errs.New(errs.DType, r.Name, "%q not implemented for '%s'", r.KernelName(dev), src)
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
		return nil, errs.New(errs.DType, r.Name, "%q not implemented for '%s'", r.KernelName(dev), compute)
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
	nout := r.Outputs
	res := make([]*raw.View, nout)
	if out != nil {
		if r.StrictOut && out.DType != in.DType {
			return nil, errs.New(errs.DType, r.Name, "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.", in.DType, out.DType)
		}
		if out.DType != result {
			return nil, errs.New(errs.DType, r.Name, "Expected out tensor to have dtype %s, but got %s instead", result, out.DType)
		}
	}
	if r.ListedAllNeedsKeep && dims != nil && len(dims) == 0 && !keepdim && in.Dim() > 0 && in.NumEl() > 0 {
		kept := make([]int, in.Dim())
		for i := range kept {
			kept[i] = 1
		}
		return nil, errs.New(errs.Shape, r.Name, "output with shape [] doesn't match the broadcast shape %s", shape.Format(kept))
	}
	if out != nil {
		if !shape.Equal(out.Shape, outShape) {
			if out.NumEl() != 0 {
				return nil, errs.New(errs.Shape, r.Name, "output with shape %v doesn't match the result shape %v", out.Shape, outShape)
			}
			if err := resize(r.Name, out, outShape); err != nil {
				return nil, err
			}
		}
		res[0] = out
	} else if res[0], err = empty(r.Name, result, outShape, in); err != nil {
		return nil, err
	}
	if nout == 2 {
		if len(outs) > 1 && outs[1] != nil {
			o := outs[1]
			if o.DType != dtype.Int64 {
				return nil, errs.New(errs.DType, r.Name, "Expected out tensor to have dtype int64, but got %s instead", o.DType)
			}
			if !shape.Equal(o.Shape, outShape) {
				if o.NumEl() != 0 {
					return nil, errs.New(errs.Shape, r.Name, "output with shape %v doesn't match the result shape %v", o.Shape, outShape)
				}
				if err := resize(r.Name, o, outShape); err != nil {
					return nil, err
				}
			}
			res[1] = o
		} else if res[1], err = empty(r.Name, dtype.Int64, outShape, in); err != nil {
			return nil, err
		}
	}
	if res[0].NumEl() == 0 {
		return res, nil
	}
	if r == optable.Norm && in.NumEl() == 0 {
		// PyTorch's norm of no elements is 0 for every p, negative and
		// -inf included (where the formula would give +Inf).
		_, err := Fill(res[0], Int(0))
		return res, err
	}
	if r == optable.LogSumExp && compute == dtype.BFloat16 && in.NumEl() > 0 {
		return res, logSumExpSteps(in, mask, res[0])
	}
	kern := r
	if r == optable.Norm {
		// PyTorch 1.13's norm kernels take p as a float32: 0.001 is
		// 0.0010000000475, 1e300 is +Inf (max |x|) and 1e-50 is 0 (the
		// count of nonzeros). Its derivative reads p itself.
		a := *args
		a.P = float64(float32(args.P))
		args = &a
	}
	if r.Pick != nil {
		kern = r.Pick(args.P)
	}
	cfg := iter.NewConfig().Op(r.Name).IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(compute)
	for i, o := range res {
		cfg.AddOutput(keptView(o, mask, keepShape, keepdim, lay[(1+i)*in.Dim():(2+i)*in.Dim():(2+i)*in.Dim()]))
	}
	p, err := cfg.AddInput(in).Build()
	if err != nil {
		return nil, err
	}
	be, err := backendOn(r.Name, p.Device())
	if err != nil {
		return nil, err
	}
	err = be.Reduce(kern, p, args)
	p.Release() // Note [Reusing plans] in package iter
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ReduceFlat reduces all of in as a flattened 1-D tensor: the index ops
// (argmax, argmin, max, min) report the flat index. The results are 0-d.
func ReduceFlat(r *optable.Op, in *raw.View, outs []*raw.View) ([]*raw.View, error) {
	if in == nil {
		return nil, errs.New(errs.Value, r.Name, "the input is nil")
	}
	if in.NumEl() == 0 && r.NoIdentity {
		return nil, errs.New(errs.Index, r.Name, "%s(): Expected reduction dim to be specified for input.numel() == 0.", r.Name)
	}
	if r.NoBool && in.DType == dtype.Bool && in.NumEl() > 0 {
		return nil, errs.New(errs.DType, r.Name, "%q not implemented for '%s'", r.KernelName(Device(in).String()), in.DType)
	}
	flat, err := Reshape(in, []int{-1})
	if err != nil {
		return nil, err
	}
	return Reduce(r, flat, []int{0}, false, dtype.Invalid, outs, nil)
}

// keptView returns o seen with the input's number of dims: size 1 and
// stride 0 on the reduced dims, its strides written to strides (of
// len(keepShape), all zero).
func keptView(o *raw.View, mask []bool, keepShape []int, keepdim bool, strides []int) *raw.View {
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

// Note [bfloat16 logsumexp]
// PyTorch 1.13's logsumexp is a composite of ops: m = amax(x, dims,
// keepdim) with its infinities set to 0, then log(sum(exp(x − m), dims)) +
// m. Over bfloat16 each of those ops rounds its result to bfloat16, which
// differs from the once-rounded log Σ e^x in the last bits for about one
// result in ten. logSumExpSteps runs that composite for bfloat16 inputs;
// the other dtypes keep the one-pass fold, within an ulp of it.

// logSumExpSteps is logsumexp of bfloat16 in over the dims of mask as
// PyTorch's composite computes it, into out (the reduced shape). in is
// not empty: PyTorch takes log(sum(exp(x))) of an empty one, the fold's
// -Inf.
func logSumExpSteps(in *raw.View, mask []bool, out *raw.View) error {
	dims := make([]int, 0, len(mask))
	for i, m := range mask {
		if m {
			dims = append(dims, i)
		}
	}
	maxes, err := Reduce(optable.Amax, in, dims, true, dtype.Invalid, nil, nil)
	if err != nil {
		return err
	}
	inf, err := Pointwise(optable.IsInf, nil, false, nil, maxes[0])
	if err != nil {
		return err
	}
	m, err := Pointwise(optable.Where, nil, false, nil, inf, Float(0).ViewAs(dtype.BFloat16), maxes[0])
	if err != nil {
		return err
	}
	t, err := Pointwise(optable.Sub, nil, false, nil, in, m)
	if err == nil {
		t, err = Pointwise(optable.Exp, nil, false, nil, t)
	}
	var sums []*raw.View
	if err == nil {
		sums, err = Reduce(optable.Sum, t, dims, true, dtype.Invalid, nil, nil)
	}
	if err == nil {
		t, err = Pointwise(optable.Log, nil, false, nil, sums[0])
	}
	if err == nil {
		t, err = Pointwise(optable.Add, nil, false, nil, t, m)
	}
	if err != nil {
		return err
	}
	flat, err := Reshape(t, out.Shape)
	if err != nil {
		return err
	}
	_, err = CopyInto("logsumexp", out, flat, false)
	return err
}
