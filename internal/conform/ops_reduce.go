package conform

import (
	"github.com/goten-ml/goten/tensor"
)

//go:generate go run ../gen conform

// reduction is a reduction of the op table: its generated API (fn, to; or
// fn2, to2 for max and min, which return indices too), its own keyword
// argument and whether it takes at most one dim.
type reduction struct {
	fn      func(*tensor.Tensor, ...tensor.Dims) *tensor.Tensor
	to      func(dst, t *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor
	fn2     func(*tensor.Tensor, ...tensor.Dims) (*tensor.Tensor, *tensor.Tensor)
	to2     func(v, i, t *tensor.Tensor, o ...tensor.Dims) (*tensor.Tensor, *tensor.Tensor)
	keyword string
	oneDim  bool
}

// scanOp is a scan or row op of the op table: its generated API.
type scanOp struct {
	fn  func(*tensor.Tensor, tensor.Dims) *tensor.Tensor
	to  func(dst, t *tensor.Tensor, o tensor.Dims) *tensor.Tensor
	fn2 func(*tensor.Tensor, tensor.Dims) (*tensor.Tensor, *tensor.Tensor)
	to2 func(v, i, t *tensor.Tensor, o tensor.Dims) (*tensor.Tensor, *tensor.Tensor)
}

// The reductions and scans of the op table (suites reductions, scans,
// softmax), with PyTorch's signatures.
func init() {
	for name, r := range reductions {
		add(name, func(c *call) result { return runReduction(c, r) })
	}
	for name, s := range scans {
		add(name, func(c *call) result { return runScan(c, s) })
	}
	add("layer_norm", func(c *call) result {
		x := c.tensor(0, "input")
		shape := c.intsArg(1, "normalized_shape")
		var w, b *tensor.Tensor
		if a, ok := c.opt(2, "weight", argTensor); ok {
			w = a.t
		}
		if a, ok := c.opt(3, "bias", argTensor); ok {
			b = a.t
		}
		eps := 1e-5
		if a, ok := c.opt(4, "eps", argScalar); ok {
			eps = a.float()
		}
		return one(tensor.LayerNorm(x, shape, w, b, eps))
	})
}

// runReduction runs a reduction with its PyTorch signature:
// (input, dim, keepdim, *, dtype) for most; var and std's (input, dim,
// unbiased, keepdim, *, correction) and (input, unbiased); norm's (input,
// p, dim, keepdim, dtype); count_nonzero's (input, dim).
func runReduction(c *call, r reduction) result {
	t := c.tensor(0, "input")
	var o tensor.Dims
	switch r.keyword {
	case "correction":
		o = varDims(c)
	case "p":
		o = normDims(c)
	default:
		dims, hasDim := c.dims(1, "dim")
		o = tensor.Over(dims...)
		if c.flag(2, "keepdim", false) {
			if r.oneDim && !hasDim {
				panic(c.missing("keepdim without dim"))
			}
			o = o.KeepDim()
		}
		if dt, ok := c.dtype(-1, "dtype"); ok {
			o = o.As(dt)
		}
		if r.fn2 != nil && !hasDim { // torch.max(x): the value alone
			v, _ := r.fn2(t, o)
			return one(v)
		}
	}
	if r.fn2 != nil {
		if dst := c.out(); dst != nil {
			panic(c.missing("out= of values and indices"))
		}
		v, i := r.fn2(t, o)
		return many([]*tensor.Tensor{v, i})
	}
	if dst := c.out(); dst != nil {
		return one(r.to(dst, t, o))
	}
	return one(r.fn(t, o))
}

// varDims reads var/std's two signatures: (input, dim, unbiased, keepdim,
// *, correction, keepdim) and (input, unbiased).
func varDims(c *call) tensor.Dims {
	var o tensor.Dims
	a, ok := c.get(1, "dim")
	switch {
	case ok && a.kind == argBool:
		if !a.b {
			return o.Correction(0)
		}
		return o
	case ok && a.kind == argInt:
		o = tensor.Over(a.i)
	case ok && a.kind == argInts:
		o = tensor.Over(a.ints...)
	case ok:
		panic(badf("%s: dim is a %v", c.op, a.kind))
	}
	if u, ok := c.opt(2, "unbiased", argBool); ok && !u.b {
		o = o.Correction(0)
	}
	if c.flag(3, "keepdim", false) {
		o = o.KeepDim()
	}
	if v, ok := c.optInt(-1, "correction"); ok {
		o = o.Correction(float64(v))
	}
	return o
}

// normDims reads torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None).
func normDims(c *call) tensor.Dims {
	dims, _ := c.dims(2, "dim")
	o := tensor.Over(dims...)
	if a, ok := c.opt(1, "p", argScalar, argString); ok {
		switch {
		case a.kind == argScalar:
			o = o.P(a.float())
		case a.s == "fro":
		default:
			panic(c.missing("p=" + a.s))
		}
	}
	if c.flag(3, "keepdim", false) {
		o = o.KeepDim()
	}
	if dt, ok := c.dtype(-1, "dtype"); ok {
		o = o.As(dt)
	}
	return o
}

// runScan runs a scan or row op: (input, dim, *, dtype).
func runScan(c *call, s scanOp) result {
	t := c.tensor(0, "input")
	o := tensor.Over(c.intArg(1, "dim"))
	if dt, ok := c.dtype(-1, "dtype"); ok {
		o = o.As(dt)
	}
	if s.fn2 != nil {
		v, i := s.fn2(t, o)
		return many([]*tensor.Tensor{v, i})
	}
	if dst := c.out(); dst != nil {
		return one(s.to(dst, t, o))
	}
	return one(s.fn(t, o))
}
