package op

import (
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Note [bfloat16 log_softmax]
//
// PyTorch 1.13's log_softmax over the last dim of a bfloat16 tensor
// (_vec_log_softmax_lastdim) computes in float32, but keeps the sum of
// exponentials of each row, and then its log, in bfloat16 arrays: both
// are rounded to bfloat16 before (x − max) − log(sum) is computed in
// float32 and rounded once more. So log(1 + e^−4.5) comes out 0.0078, a
// bfloat16 of log(1.0078), instead of 0.0110. Its kernel over another dim,
// and softmax's, round only their results; softmax multiplies by 1/sum
// over the last dim but divides by the sum over another. Scan asks the
// backends for both (kernel.Args.LogSumRound, SoftmaxDivide); the
// derivatives of both ops follow PyTorch's backward kernels too
// (softmaxGrad in package tensor). Checked against PyTorch on thousands
// of random bfloat16 tensors: the results over the last dim and all the
// gradients over it agree bit for bit, over dim 0 about 97% of them (the
// rest differ in the last bit, from sums taken in another order).

// Scan runs the scan or row op s along dim of in into new views, or into
// outs (out=: its dtypes must be the results', an empty one is resized,
// and none may overlap in): the values, and the indices of cummax and
// cummin. dt, when valid, is the dtype= argument: the input is read
// converted to it, and the result has it. It restrides the dim away (Note
// [Row plans] in package kernel) so the iterator walks every other dim, in
// parallel, and the backend walks the dim itself.
func Scan(s *optable.Op, in *raw.View, dim int, dt dtype.DType, outs []*raw.View) ([]*raw.View, error) {
	if s.Kind != optable.Scan && s.Kind != optable.Row || s == optable.LayerNorm {
		return nil, errs.New(errs.Value, s.Name, "%s is not a scan along a dim", s.Name)
	}
	if in == nil {
		return nil, errs.New(errs.Value, s.Name, "the input is nil")
	}
	d, err := shape.WrapDim(dim, in.Dim())
	if err != nil && (s == optable.CumMax || s == optable.CumMin) && (in.Dim() == 0 || in.NumEl() == 0) {
		// PyTorch's cummax and cummin fill a 0-dim or empty result before
		// they look at dim: any dim goes
		d, err = 0, nil
	}
	if err != nil {
		return nil, errs.WithOp(err, s.Name)
	}
	src := in.DType
	if dt.Valid() {
		src = dt
	}
	// softmax and log_softmax run no kernel on an empty input (logcumsumexp checks anyway)
	if s.NeedsFloat != "" && !src.IsFloat() && (in.NumEl() > 0 || s == optable.LogCumSumExp) {
		kernel := strings.ReplaceAll(s.NeedsFloat, "{dev}", Device(in).String())
		return nil, errs.New(errs.DType, s.Name, "%q not implemented for '%s'", kernel, TorchName(src))
	}
	result := src
	if s.Result != nil && !dt.Valid() { // dtype= names the result
		if result, err = s.Result(src); err != nil {
			return nil, err
		}
	}
	res, err := scanOutputs(s, in, result, outs)
	if err != nil {
		return nil, err
	}
	if result == dtype.Bool && (s == optable.CumSum || s == optable.CumProd) && in.NumEl() > 0 {
		// PyTorch has no bool running sum or product; a 0-d input is only converted.
		if in.Dim() > 0 {
			return nil, errs.New(errs.DType, s.Name, "\"%s_out_%s\" not implemented for '%s'", s.Name, Device(in), result)
		}
		_, err = CopyInto(s.Name, res[0], in, false)
		return res, err
	}
	outs = res
	if in.NumEl() == 0 {
		return outs, nil
	}
	args := kernel.DefaultArgs
	args.Dim = d
	last := d == in.Dim()-1 || in.Dim() == 0 // Note [bfloat16 log_softmax]
	if s == optable.LogSoftmax && result == dtype.BFloat16 && last {
		args.LogSumRound = dtype.BFloat16
	}
	args.SoftmaxDivide = s == optable.Softmax && !last
	if err := runRows(s, outs, []*raw.View{in}, d, result, &args); err != nil {
		return nil, err
	}
	if s == optable.Softmax && result == dtype.BFloat16 && !last {
		if err := softmaxTailSteps(in, d, outs[0]); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// Note [bfloat16 softmax tail]
// PyTorch 1.13's softmax over a dim other than the last (_vec_softmax)
// takes 16 inner positions at a time through its vectorised loop, which
// computes in float32 and rounds once, and the positions left over, the
// last inner mod 16 of the inner_size positions after the dim, through a
// scalar loop that stores e = exp(x − max) (float32) rounded to bfloat16,
// sums the float32 e, and divides the stored e by that sum: the numerator
// is rounded before the division. softmaxTailSteps recomputes those
// positions so (its float32 exp is SLEEF's and its sum is rounded once,
// where PyTorch's tail calls expf and adds in float32 in order, both
// within a float32 ulp). (Its parallel loop splits the positions
// between threads, and a thread's last positions that do not fill 16 go
// through the scalar loop too: that depends on PyTorch's thread count and
// is not copied; the rule here is one thread's.)

// softmaxTailSteps rewrites, in out (the bfloat16 softmax of in along dim
// d), the positions PyTorch's scalar tail computes.
func softmaxTailSteps(in *raw.View, d int, out *raw.View) error {
	n, inner := in.Shape[d], shape.NumEl(in.Shape[d+1:])
	start := inner - inner%16
	if start == inner || n == 0 {
		return nil
	}
	rows := []int{in.NumEl() / (n * inner), n, inner}
	tailOf := func(v *raw.View) (*raw.View, error) {
		r, err := Reshape(v, rows)
		if err != nil {
			return nil, err
		}
		return Narrow(r, 2, start, inner-start)
	}
	// the tail positions of the input first, converted to float32 alone
	x, err := Contiguous(in)
	if err != nil {
		return err
	}
	if x, err = tailOf(x); err != nil {
		return err
	}
	if x.DType != dtype.BFloat16 { // dtype=bfloat16 converts the input first
		if x, err = To(x, dtype.BFloat16); err != nil {
			return err
		}
	}
	if x, err = To(x, dtype.Float32); err != nil {
		return err
	}
	m, err := Reduce(optable.Amax, x, []int{1}, true, dtype.Invalid, nil, nil)
	if err != nil {
		return err
	}
	if x, err = Pointwise(optable.Sub, nil, false, nil, x, m[0]); err != nil {
		return err
	}
	if x, err = Pointwise(optable.Exp, nil, false, nil, x); err != nil {
		return err
	}
	sum, err := Reduce(optable.Sum, x, []int{1}, true, dtype.Invalid, nil, nil)
	if err != nil {
		return err
	}
	if x, err = To(x, dtype.BFloat16); err != nil {
		return err
	}
	if x, err = Pointwise(optable.Div, nil, false, nil, x, sum[0]); err != nil {
		return err
	}
	target := out // written through a contiguous copy where out is not
	if !out.IsContiguous() {
		if target, err = Clone(out); err != nil {
			return err
		}
		if target, err = Contiguous(target); err != nil {
			return err
		}
	}
	tail, err := tailOf(target)
	if err != nil {
		return err
	}
	if _, err = CopyInto("softmax", tail, x, false); err != nil || target == out {
		return err
	}
	_, err = CopyInto("softmax", out, target, false)
	return err
}

// scanOutputs returns the outputs of scan s over in with result dtype
// result: outs checked and resized (out=), or new views; every check comes
// before any resize.
func scanOutputs(s *optable.Op, in *raw.View, result dtype.DType, outs []*raw.View) ([]*raw.View, error) {
	dts := []dtype.DType{result, dtype.Int64}[:s.Outputs]
	res := make([]*raw.View, s.Outputs)
	for i := range res {
		if i >= len(outs) || outs[i] == nil {
			continue
		}
		o := outs[i]
		if o.DType != dts[i] {
			return nil, errs.New(errs.DType, s.Name, "Expected out tensor to have dtype %s, but got %s instead", dts[i], o.DType)
		}
		if !shape.Equal(o.Shape, in.Shape) && o.NumEl() != 0 {
			return nil, errs.New(errs.Shape, s.Name, "output with shape %v doesn't match the result shape %v", o.Shape, in.Shape)
		}
		if err := iter.CheckNoOverlap(s.Name, o, in); err != nil {
			return nil, err
		}
		if err := iter.CheckNoInternalOverlap(s.Name, o); err != nil {
			return nil, err
		}
	}
	for i := range res {
		var err error
		if i < len(outs) && outs[i] != nil {
			res[i] = outs[i]
			if !shape.Equal(res[i].Shape, in.Shape) {
				err = resize(s.Name, res[i], in.Shape)
			}
		} else {
			res[i], err = empty(s.Name, dts[i], in.Shape, in)
		}
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// runRows builds the row plan of Note [Row plans] (a 0-d operand is seen as
// one element of a 1-d row) and runs code on the backend.
func runRows(s *optable.Op, outs, ins []*raw.View, dim int, compute dtype.DType, args *kernel.Args) error {
	lift := func(v *raw.View) *raw.View {
		if v.Dim() == 0 {
			return v.WithLayout([]int{1}, []int{1}, v.Offset)
		}
		return v
	}
	full := lift(ins[0]).Shape
	cfg := iter.NewConfig().Op(s.Name).StaticShapeSquash(full, dim).StaticDType(compute).CheckMemOverlap(false)
	for _, o := range outs {
		cfg.AddOutput(lift(o))
	}
	for _, v := range ins {
		cfg.AddInput(lift(v))
	}
	p, err := cfg.Build()
	if err != nil {
		return err
	}
	be, err := backendOn(s.Name, p.Device())
	if err != nil {
		return err
	}
	return be.Scan(s, p, args)
}
