package tensor

import (
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// Dims selects the dims a reduction, scan or softmax works along, with the
// keyword arguments these ops share: keepdim and dtype=, and the few that
// one op takes (var's and std's correction, norm's p). Make one with
// [Over] and refine it with its methods, which return changed copies:
//
//	t.Sum()                                // all dims
//	t.Sum(tensor.Over(1))                  // dim 1
//	t.Mean(tensor.Over(0, 2).KeepDim())    // dims 0 and 2, kept with size 1
//	t.Sum(tensor.Over().As(tensor.Int32))  // all dims, computed in int32
//	t.Var(tensor.Over(-1).Correction(0))   // the biased variance of the last dim
//	t.CumSum(tensor.Over(0))               // scans and softmax take one dim
//
// An option an op does not take is a value error, as a keyword argument
// PyTorch's op does not take.
type Dims struct {
	dims          []int
	listed        bool // made by Over: dims is PyTorch's dim argument, [] included
	keepDim       bool
	dtype         DType
	correction, p float64
	hasCorrection bool
	hasP          bool
}

// Over returns the Dims of dims (negative dims count from the end); no
// dims selects all of them, for a reduction. Over() is PyTorch's dim=[],
// which [LogSumExp] refuses without KeepDim for an input with dims and
// elements, as PyTorch 1.13 does; a reduction given no Dims at all
// reduces every dim to a 0-d result.
func Over(dims ...int) Dims { return Dims{dims: dims, listed: true} }

// KeepDim returns o keeping the reduced dims with size 1.
func (o Dims) KeepDim() Dims { o.keepDim = true; return o }

// As returns o with PyTorch's dtype= argument: the input is read converted
// to dt, and the result has dtype dt.
func (o Dims) As(dt DType) Dims { o.dtype = dt; return o }

// Correction returns o with the divisor max(n - c, 0) of [Var] and [Std]
// (1 by default: the unbiased estimate; 0: the biased one).
func (o Dims) Correction(c float64) Dims { o.correction, o.hasCorrection = c, true; return o }

// P returns o with the order p of [Norm] (2 by default; ±Inf, 0 and any
// positive or negative p allowed).
func (o Dims) P(p float64) Dims { o.p, o.hasP = p, true; return o }

// refuse panics if o carries an option r does not take, or an invalid
// dtype.
func (o Dims) refuse(r *optable.Op) {
	bad := func(kw string) {
		panic(errs.New(errs.Value, r.Name, "%s() got an unexpected keyword argument '%s'", r.Name, kw))
	}
	if o.hasCorrection && r.Keyword != "correction" {
		bad("correction")
	}
	if o.hasP && r.Keyword != "p" {
		bad("p")
	}
	if o.keepDim && r.Kind != optable.Reduction {
		bad("keepdim")
	}
	if o.dtype != 0 && !o.dtype.Valid() {
		panic(errs.New(errs.Value, r.Name, "invalid dtype %s", o.dtype))
	}
}

// reduce runs the reduction r of t over the dims o selects, into dsts
// (out=) if given, and returns the results (values, and indices for max
// and min).
func reduce(r *optable.Op, dsts []*Tensor, t *Tensor, o []Dims) []*Tensor {
	if len(o) > 1 {
		panic(errs.New(errs.Value, r.Name, "%s takes at most one Dims, got %d", r.Name, len(o)))
	}
	var d Dims
	if len(o) == 1 {
		d = o[0]
	}
	d.refuse(r)
	var args *kernel.Args
	switch r.Keyword {
	case "correction":
		c := 1.0
		if d.hasCorrection {
			c = d.correction
		}
		args = op.ReduceArgs(c, 0)
	case "p":
		p := 2.0
		if d.hasP {
			p = d.p
		}
		args = op.ReduceArgs(0, p)
	}
	outs := views(dsts)
	if dsts != nil {
		for _, dst := range dsts {
			dst.in(r.Name)
			checkOut(r.Name, dst, t)
		}
	}
	var res []*raw.View
	var err error
	flat := r.OneDim && len(d.dims) == 0
	switch {
	case flat:
		res, err = op.ReduceFlat(r, t.view(), outs)
	case r.OneDim && len(d.dims) > 1:
		err = errs.New(errs.Value, r.Name, "%s reduces one dim, got %d", r.Name, len(d.dims))
	default:
		dims := d.dims
		if d.listed && dims == nil {
			dims = []int{} // PyTorch's dim=[] (op.Reduce)
		}
		res, err = op.Reduce(r, t.view(), dims, d.keepDim, d.dtype, outs, args)
	}
	must(err)
	rs := results(res, dsts)
	if dsts != nil {
		written(dsts...)
	}
	if recording(t) && rs[0].DType().IsFloat() {
		mask, _ := op.ReduceDims(r.Name, d.dims, t.Dim())
		var dims []int
		for i, m := range mask {
			if m {
				dims = append(dims, i)
			}
		}
		sh, keep := t.Shape(), d.keepDim
		recordOp(r, args, []*Tensor{t}, rs, nil, 0, func(c *gradCall) {
			c.shape, c.dims, c.keepDim, c.flat = sh, dims, keep, flat
		})
	}
	return rs
}

// scan runs the scan or row op s of t along the one dim o selects, into
// dsts (out=) if given.
func scan(s *optable.Op, dsts []*Tensor, t *Tensor, o Dims) []*Tensor {
	o.refuse(s)
	if len(o.dims) != 1 {
		panic(errs.New(errs.Value, s.Name, "%s works along one dim (Over(dim)), got %d", s.Name, len(o.dims)))
	}
	if dsts != nil {
		for _, dst := range dsts {
			dst.in(s.Name)
			checkOut(s.Name, dst, t)
		}
	}
	res, err := op.Scan(s, t.view(), o.dims[0], o.dtype, views(dsts))
	must(err)
	rs := results(res, dsts)
	if dsts != nil {
		written(dsts...)
	}
	if recording(t) && rs[0].DType().IsFloat() {
		dim := wrapDim(o.dims[0], t.Dim())
		recordOp(s, nil, []*Tensor{t}, rs, nil, 0, func(c *gradCall) { c.dim = dim })
	}
	return rs
}

// LayerNormTo writes [LayerNorm](x, normalizedShape, weight, bias, eps)
// into dst and returns dst, with the rules of [MatmulTo]: dst has x's dtype,
// and its shape or no elements.
func LayerNormTo(dst, x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	out, xv := dst.in("layer_norm"), x.in("layer_norm")
	checkOut("layer_norm", dst, x, weight, bias)
	_, err := op.LayerNormTo(out, xv, normalizedShape, weight.view(), bias.view(), eps)
	must(err)
	written(dst)
	return dst
}

// views returns the views of ts (nil for nil tensors).
func views(ts []*Tensor) []*raw.View {
	if ts == nil {
		return nil
	}
	vs := make([]*raw.View, len(ts))
	for i, t := range ts {
		vs[i] = t.view()
	}
	return vs
}

// results wraps an op's result views: dsts themselves where given.
func results(res []*raw.View, dsts []*Tensor) []*Tensor {
	out := make([]*Tensor, len(res))
	for i, v := range res {
		if i < len(dsts) && dsts[i] != nil {
			out[i] = dsts[i]
		} else {
			out[i] = wrap(v)
		}
	}
	return out
}

// LayerNorm returns x normalised over its trailing dims normalizedShape
// (biased variance, eps added to it), times weight plus bias (either may
// be nil; else of shape normalizedShape): torch.nn.functional.layer_norm.
// Trailing sizes that differ from normalizedShape are a shape error.
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	v, err := op.LayerNorm(x.in("layer_norm"), normalizedShape, weight.view(), bias.view(), eps)
	must(err)
	r := wrap(v)
	if recording(x, weight, bias) {
		n := len(normalizedShape)
		recordOp(optable.LayerNorm, nil, []*Tensor{x, weight, bias}, []*Tensor{r}, nil, 0, func(c *gradCall) {
			c.normalized, c.eps = n, eps
		})
	}
	return r
}
