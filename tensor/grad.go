package tensor

import (
	"math"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// derivative is an op's derivative: fn sets the gradient of each input
// the node needs; reads[i] says what input i's expression reads (bit k:
// input k; readsResult, readsIndices), so that recording saves only that.
type derivative struct {
	fn    func(c *gradCall)
	reads []uint8
}

const (
	readsResult  = 1 << 6
	readsIndices = 1 << 7
)

// derivatives holds the table's derivatives by op code (zz_grad.go).
var derivatives = make([]derivative, optable.NumCodes())

// gradCall is what an op's derivative reads: the gradient g of its first
// output, its saved inputs and outputs, its arguments, and where it puts
// the inputs' gradients.
type gradCall struct {
	node    *node
	g       *Tensor
	in      []*Tensor // inputs the expressions read (nil for the others)
	result  *Tensor
	indices *Tensor
	args    *kernel.Args
	out     []*Tensor

	// Reductions: the input's shape, the reduced dims (increasing),
	// keepdim, and flat (max and min without a dim: flat indices).
	shape   []int
	dims    []int
	keepDim bool
	flat    bool
	// Scans and row ops: the dim; layer_norm: the number of normalized
	// trailing dims and eps.
	dim        int
	normalized int
	eps        float64
	// layer_norm: x (float32 when 16-bit), its mean and rstd, computed by
	// the first derivative that reads them (layerNormStats).
	layerNorm [3]*Tensor
}

func (c *gradCall) needs(i int) bool { return c.node.needs(i) }

// recordOp records a table op over ins, whose outputs outs its derivative
// differentiates (outs[1], indices, takes no gradient). original is the
// receiver's value before an in-place op overwrote it (nil otherwise);
// setup fills the call's op-specific fields.
func recordOp(op *optable.Op, args *kernel.Args, ins, outs []*Tensor, original *Tensor, receiver int, setup func(c *gradCall)) *node {
	d := derivatives[op.Code]
	if d.fn == nil {
		panic(errs.New(errs.Autograd, op.Name, "the derivative for '%s' is not implemented.", op.Name))
	}
	var mask uint8
	for i, t := range ins {
		if t != nil && t.RequiresGrad() {
			mask |= d.reads[i]
		}
	}
	saved := make([]*Tensor, len(ins), len(ins)+2)
	for k, t := range ins {
		if mask&(1<<k) != 0 {
			saved[k] = t
			if original != nil && k == receiver {
				saved[k] = original
			}
		}
	}
	var result, indices *Tensor
	if mask&readsResult != 0 {
		result = outs[0]
	}
	if mask&readsIndices != 0 {
		indices = outs[1]
	}
	diffOuts := outs[:1]
	apply := func(n *node, grads []*Tensor) []*Tensor {
		if grads[0] == nil {
			return nil
		}
		c := &gradCall{node: n, g: grads[0], in: saved, result: result, indices: indices, args: args, out: make([]*Tensor, len(ins))}
		if setup != nil {
			setup(c)
		}
		d.fn(c)
		return c.out
	}
	return record(op.Name, ins, diffOuts, apply, append(saved, result, indices)...)
}

// alphaScaled returns g times the op's alpha (add, sub) or value
// (addcmul, addcdiv).
func alphaScaled(c *gradCall, g *Tensor) *Tensor {
	if c.args == nil || c.args.AlphaF == 1 {
		return g
	}
	return g.Mul(Scalar(c.args.AlphaF))
}

// keepGrad returns g where keep holds and 0 elsewhere (NaN included).
func keepGrad(g, keep *Tensor) *Tensor { return Where(keep, g, Scalar(0)) }

// tieGrad is the gradient of maximum and minimum for one input: none
// where the other input wins (drop), half where they tie (eq).
func tieGrad(g, eq, drop *Tensor) *Tensor {
	return Where(drop, Scalar(0), Where(eq, g.Div(Scalar(2)), g))
}

// logitGrad is logit's derivative: g/(x(1-x)); with eps, 0 where x was
// clamped; without, NaN outside [0, 1] (PyTorch's logit_backward).
func logitGrad(c *gradCall, g, x *Tensor) *Tensor {
	d := g.Div(x.Mul(x.Neg().Add(Scalar(1))))
	if c.args != nil && c.args.HasEps {
		lo := c.args.Eps
		return Where(x.Lt(Scalar(lo)).LogicalOr(x.Gt(Scalar(1-lo))), Scalar(0), d)
	}
	return Where(x.Lt(Scalar(0)).LogicalOr(x.Gt(Scalar(1))), Scalar(math.NaN()), d)
}

// geluGrad is the derivative of x·Φ(x): Φ(x) + x·φ(x).
func geluGrad(g, x *Tensor) *Tensor {
	cdf := x.Mul(Scalar(1 / math.Sqrt2)).Erf().Add(Scalar(1)).Mul(Scalar(0.5))
	pdf := x.Square().Mul(Scalar(-0.5)).Exp().Mul(Scalar(1 / math.Sqrt(2*math.Pi)))
	return g.Mul(cdf.Add(x.Mul(pdf)))
}

// geluTanhGrad is the derivative of gelu's tanh approximation
// (PyTorch's GeluBackward with approximate='tanh').
func geluTanhGrad(g, x *Tensor) *Tensor {
	const beta = math.Sqrt2 * 2 / math.SqrtPi * 0.5 // √(2/π)
	const kappa = 0.044715
	inner := x.Add(x.Pow(Scalar(3)).Mul(Scalar(kappa))).Mul(Scalar(beta))
	th := inner.Tanh()
	left := x.Mul(Scalar(0.5))
	dLeft := th.Add(Scalar(1)).Mul(Scalar(0.5))
	dInner := x.Square().Mul(Scalar(3 * kappa)).Add(Scalar(1)).Mul(Scalar(beta))
	dRight := left.Mul(th.Square().Neg().Add(Scalar(1))).Mul(dInner)
	return g.Mul(dLeft.Add(dRight))
}

// siluGrad is the derivative of x·σ(x): σ(x)(1 + x(1-σ(x))).
func siluGrad(g, x *Tensor) *Tensor {
	s := x.Sigmoid()
	return g.Mul(s.Mul(x.Mul(s.Neg().Add(Scalar(1))).Add(Scalar(1))))
}

// copysignGrad is copysign's derivative in its magnitude: the sign
// change, 0 where a is 0.
func copysignGrad(g, a, result *Tensor) *Tensor {
	return Where(a.Eq(Scalar(0)), Scalar(0), g.Mul(result.Div(a)))
}

// powBaseGrad is pow's derivative in its base: b·a^(b-1), 0 where b is 0.
// b-1 is written b+(-1): b may be bool, which Sub refuses as PyTorch does.
// A Go-number exponent b gives PyTorch's pow_backward with a Scalar: b-1
// stays a Go number (a float), so that a^(b-1) runs pow's special
// exponents as torch's self.pow(exp - 1) does (Note [Pow's special
// exponents] in package op): x^0.5's gradient at -0 is 0.5·rsqrt(-0) =
// -Inf, not 0.5·pow(-0, -0.5) = +Inf.
func powBaseGrad(g, a, b *Tensor) *Tensor {
	if b.IsScalar() && b.DType() != Bool {
		e := b.Item()
		if e == 0 {
			return ZerosLike(g)
		}
		return g.Mul(b.Mul(a.Pow(Scalar(e - 1))))
	}
	return Where(b.Eq(Scalar(0)), Scalar(0), g.Mul(b.Mul(a.Pow(b.Add(Scalar(-1))))))
}

// powExponentGrad is pow's derivative in its exponent: a^b·ln a, 0 where
// a is 0 and b ≥ 0.
func powExponentGrad(g, a, b, result *Tensor) *Tensor {
	return g.Mul(Where(a.Eq(Scalar(0)).LogicalAnd(b.Ge(Scalar(0))), Scalar(0), result.Mul(a.Log())))
}

// keepDims returns t, a reduction's result, with the reduced dims back as
// size 1 (as keepdim gives).
func keepDims(c *gradCall, t *Tensor) *Tensor {
	if c.keepDim {
		return t
	}
	for _, d := range c.dims {
		t = t.Unsqueeze(d)
	}
	return t
}

// unreduce returns a reduction's gradient g broadcast back over the input.
func unreduce(c *gradCall, g *Tensor) *Tensor { return keepDims(c, g).Expand(c.shape...) }

// count returns the number of elements reduced into each output.
func (c *gradCall) count() float64 {
	n := 1
	for _, d := range c.dims {
		n *= c.shape[d]
	}
	return float64(n)
}

// over returns the reduced dims, kept.
func (c *gradCall) over() Dims { return Over(c.dims...).KeepDim() }

// prodGrad is prod's derivative: result/x where x ≠ 0; where x is the only
// zero of its product, the product of the others; else 0.
func prodGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	gk, rk := keepDims(c, g), keepDims(c, result)
	zero := x.Eq(Scalar(0))
	// x with its zeros made 1: the products of the nonzero elements, and a
	// divisor that keeps the branch Where drops finite (a NaN there would
	// reach the second derivative)
	safe := Where(zero, Scalar(1), x)
	others := safe.Prod(c.over())
	lone := zero.Sum(c.over()).Eq(Scalar(1))
	return Where(zero, Where(lone, gk.Mul(others), Scalar(0)), gk.Mul(rk).Div(safe))
}

// evenGrad is amax's and amin's derivative: the gradient split evenly
// among the elements equal to the result.
func evenGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	mask := x.Eq(keepDims(c, result))
	return keepDims(c, g).Div(mask.Sum(c.over())).Mul(mask)
}

// indexGrad is the derivative of max and min (values and indices): the
// gradient goes to the element each index names.
func indexGrad(c *gradCall, g, x, indices *Tensor) *Tensor {
	if c.flat {
		at := Arange(0, float64(x.NumEl()), 1, Int64).ToDevice(x.Device()).Eq(indices)
		return keepGrad(g, at).Reshape(c.shape...)
	}
	return keepGrad(keepDims(c, g), positions(c.shape, c.dims[0]).ToDevice(x.Device()).Eq(keepDims(c, indices)))
}

// positions returns the index along dim of every element of a tensor of
// shape sh, broadcastable to sh.
func positions(sh []int, dim int) *Tensor {
	view := make([]int, len(sh))
	for d := range view {
		view[d] = 1
	}
	view[dim] = sh[dim]
	return Arange(0, float64(sh[dim]), 1, Int64).Reshape(view...)
}

// varGrad is var's derivative: 2(x - mean)/(n - correction).
func varGrad(c *gradCall, g, x *Tensor) *Tensor {
	return keepDims(c, g).Mul(Scalar(2 / (c.count() - c.args.Correction))).Mul(x.Sub(x.Mean(c.over())))
}

// stdGrad is std's derivative: var's scaled by 1/(2 std), 0 where std is 0.
func stdGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	gv := Where(result.Eq(Scalar(0)), Scalar(0), g.Div(result.Mul(Scalar(2))))
	return varGrad(c, gv, x)
}

// normGrad is norm's derivative (PyTorch's norm_backward), by order p.
func normGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	p := c.args.P
	gk, nk := keepDims(c, g), keepDims(c, result)
	zeroNorm := nk.Eq(Scalar(0))
	switch {
	case p == 0:
		return ZerosLike(x)
	case p == 1:
		return x.Sign().Mul(gk)
	case p == 2:
		return gk.Mul(Where(zeroNorm, Scalar(0), x.Div(nk)))
	case math.IsInf(p, 0):
		ax := x.Abs()
		mask := ax.Eq(nk).LogicalOr(ax.IsNan())
		return x.Sign().Mul(gk.Div(mask.Sum(c.over())).Mul(mask))
	case p < 1:
		scaled := Where(x.Eq(Scalar(0)), Scalar(0), x.Sign().Mul(x.Abs().Pow(Scalar(p-1))))
		return scaled.Mul(gk).Mul(nk.Pow(Scalar(1 - p)))
	case p < 2:
		scaled := x.Sign().Mul(x.Abs().Pow(Scalar(p - 1)))
		return scaled.Mul(Where(zeroNorm, Scalar(0), gk.Div(nk.Pow(Scalar(p-1)))))
	}
	scaled := x.Mul(x.Abs().Pow(Scalar(p - 2)))
	return scaled.Mul(Where(zeroNorm, Scalar(0), gk.Div(nk.Pow(Scalar(p-1)))))
}

// reverseCumSum returns the sums of g from each position to the end of
// its dim: cumsum's derivative.
func reverseCumSum(c *gradCall, g *Tensor) *Tensor {
	return flip(flip(g, c.dim).CumSum(Over(c.dim)), c.dim)
}

// cumProdGrad is cumprod's derivative, O(n) with zeros (PyTorch's
// cumprod_backward): before the first zero of a row, the reverse cumsum
// of g·result over x; at the first zero, the reverse cumsum of g times
// the products that skip it; after it, 0.
func cumProdGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	if IsGradEnabled() {
		return cumProdGradExact(c, g, x)
	}
	zero := x.Eq(Scalar(0))
	zeros := zero.CumSum(Over(c.dim))
	before := zeros.Eq(Scalar(0))
	first := zero.LogicalAnd(zeros.Eq(Scalar(1)))
	atBefore := reverseCumSum(c, g.Mul(result)).Div(Where(zero, Scalar(1), x)) // (see prodGrad)
	skipping := Where(first, Scalar(1), x).CumProd(Over(c.dim))
	atFirst := reverseCumSum(c, g.Mul(skipping))
	return Where(before, atBefore, Where(first, atFirst, Scalar(0)))
}

// cumProdGradExact is cumprod's derivative written so that it can be
// differentiated again, zeros included (PyTorch does the same when it
// records a backward pass): grad_k = Σ_{j≥k} g_j·Π_{i≤j, i≠k} x_i, from the
// n running products of x with one element made 1 each, O(n²) per row.
func cumProdGradExact(c *gradCall, g, x *Tensor) *Tensor {
	xm, gm := x.Movedim([]int{c.dim}, []int{-1}), g.Movedim([]int{c.dim}, []int{-1})
	n := xm.Size(-1)
	ar := Arange(0, float64(n), 1, Int64).ToDevice(x.Device())
	k, j := ar.Unsqueeze(1), ar.Unsqueeze(0) // [n,1], [1,n]
	sh := append(xm.Shape()[:xm.Dim()-1], n, n)
	others := Where(k.Eq(j), Scalar(1), xm.Unsqueeze(-2).Expand(sh...)).CumProd(Over(-1)) // [..., k, j]
	terms := keepGrad(others.Mul(gm.Unsqueeze(-2)), j.Ge(k))
	return terms.Sum(Over(-1)).Movedim([]int{-1}, []int{c.dim})
}

// scanIndexGrad is cummax's and cummin's derivative: each output's
// gradient goes to the element its index names, a scatter-add along the
// dim into zeros (PyTorch's cummaxmin_backward), which is O(n) per row and
// itself differentiable.
func scanIndexGrad(c *gradCall, g, x, indices *Tensor) *Tensor {
	if x.NumEl() == 0 {
		return ZerosLike(x)
	}
	return ScatterAdd(ZerosLike(g), c.dim, indices, g)
}

// logCumSumExpGrad is logcumsumexp's derivative, computed in log space by
// the sign of g (PyTorch's logcumsumexp_backward).
func logCumSumExpGrad(c *gradCall, g, x, result *Tensor) *Tensor {
	lowest := Scalar(-math.MaxFloat64)
	if g.DType() != Float64 {
		lowest = Scalar(-math.MaxFloat32)
	}
	logAbs := g.Abs().Log()
	pos := Where(g.Gt(Scalar(0)), logAbs, lowest)
	neg := Where(g.Lt(Scalar(0)), logAbs, lowest)
	rev := func(t *Tensor) *Tensor { return flip(flip(t, c.dim).LogCumSumExp(Over(c.dim)), c.dim) }
	return rev(pos.Sub(result)).Add(x).Exp().Sub(rev(neg.Sub(result)).Add(x).Exp())
}

// softmaxGrad is the derivative of softmax (log false: y·(g − Σg·y)) or
// log_softmax (g − e^y·Σg) over c.dim, y the result, as PyTorch 1.13's
// backward kernels compute it (Note [bfloat16 log_softmax] in package
// op): a 16-bit y and g in float32, rounded once at the end, except the
// sum over the last dim, which that kernel keeps in the 16-bit dtype.
func softmaxGrad(c *gradCall, g, y *Tensor, log bool) *Tensor {
	over := Over(c.dim).KeepDim()
	d := y.DType()
	if d.IsReduced() {
		g, y = g.To(Float32), y.To(Float32)
	}
	var s *Tensor
	if log {
		s = g.Sum(over)
	} else {
		s = g.Mul(y).Sum(over)
	}
	if d.IsReduced() && (c.dim == y.Dim()-1 || y.Dim() == 0) {
		s = s.To(d).To(Float32)
	}
	var r *Tensor
	if log {
		r = g.Sub(y.Exp().Mul(s))
	} else {
		r = g.Sub(s).Mul(y)
	}
	if d.IsReduced() {
		r = r.To(d)
	}
	return r
}

// layerNormDims returns the normalized trailing dims of an input of ndim
// dims.
func (c *gradCall) layerNormDims(ndim int) Dims {
	dims := make([]int, c.normalized)
	for i := range dims {
		dims[i] = ndim - c.normalized + i
	}
	return Over(dims...).KeepDim()
}

// layerNormStats returns what layer_norm's derivatives read: x, its mean
// and its rstd = 1/√(var+eps) over the normalized dims, computed once per
// call. A 16-bit x comes back in float32 with the statistics its forward
// computed, rounded to x's dtype (op.LayerNormMoments; Note [16-bit
// layer_norm grads]).
func layerNormStats(c *gradCall, x *Tensor) (xf, mean, rstd *Tensor) {
	if s := c.layerNorm; s[0] != nil {
		return s[0], s[1], s[2]
	}
	over := c.layerNormDims(x.Dim())
	if !x.DType().IsReduced() {
		xf, mean, rstd = x, x.Mean(over), x.Var(over.Correction(0)).Add(Scalar(c.eps)).Rsqrt()
	} else if d := x.DType(); recording(x) {
		// a backward that records its own graph differentiates the
		// statistics too, which the op's do not carry: they are x's in
		// float32, rounded to its dtype as PyTorch saves them
		xf = x.To(Float32)
		mean = xf.Mean(over).To(d).To(Float32)
		rstd = xf.Var(over.Correction(0)).Add(Scalar(c.eps)).Rsqrt().To(d).To(Float32)
	} else {
		m, r, err := op.LayerNormMoments(x.v, x.Shape()[x.Dim()-c.normalized:], c.eps)
		must(err)
		xf, mean, rstd = x.To(Float32), wrap(m).To(Float32), wrap(r).To(Float32)
	}
	c.layerNorm = [3]*Tensor{xf, mean, rstd}
	return xf, mean, rstd
}

// opmath returns a 16-bit t in float32, other tensors as they are.
func opmath(t *Tensor) *Tensor {
	if t.DType().IsReduced() {
		return t.To(Float32)
	}
	return t
}

// layerNormGrad is layer_norm's derivative in its input, from the
// normalized input x̂ = (x - mean)·rstd: rstd·(ĝ - mean(ĝ) - x̂·mean(ĝ·x̂))
// over the normalized dims, ĝ = g·weight. A 16-bit x takes PyTorch's
// steps instead (Note [16-bit layer_norm grads]).
func layerNormGrad(c *gradCall, g, x, weight *Tensor) *Tensor {
	over := c.layerNormDims(x.Dim())
	xf, mean, rstd := layerNormStats(c, x)
	gh := opmath(g)
	if weight != nil {
		gh = gh.Mul(opmath(weight))
	}
	d := x.DType()
	if !d.IsReduced() {
		xhat := xf.Sub(mean).Mul(rstd)
		return rstd.Mul(gh.Sub(gh.Mean(over)).Sub(xhat.Mul(gh.Mul(xhat).Mean(over))))
	}
	round := func(t *Tensor) *Tensor { return t.To(d).To(Float32) }
	scale := Scalar(1 / float64(shape.NumEl(x.Shape()[x.Dim()-c.normalized:])))
	ds, db := round(gh.Mul(xf).Sum(over)), round(gh.Sum(over))
	b := db.Mul(mean).Sub(ds).Mul(rstd).Mul(rstd).Mul(rstd).Mul(scale)
	cc := b.Neg().Mul(mean).Sub(db.Mul(rstd).Mul(scale))
	return rstd.Mul(gh).Add(b.Mul(xf)).Add(cc).To(d)
}

// layerNormWeightGrad is layer_norm's derivative in its weight: g·x̂
// summed over the leading dims (by the engine's sumTo; for a 16-bit x
// here, in float32, Note [16-bit layer_norm grads]).
func layerNormWeightGrad(c *gradCall, g, x *Tensor) *Tensor {
	xf, mean, rstd := layerNormStats(c, x)
	d := x.DType()
	if !d.IsReduced() {
		return g.Mul(xf.Sub(mean).Mul(rstd))
	}
	r := opmath(g).Mul(rstd.Mul(xf).Add(rstd.Neg().Mul(mean)))
	return sumTo(r, x.Shape()[x.Dim()-c.normalized:]).To(d)
}

// Note [16-bit layer_norm grads]
// PyTorch 1.13's CPU backward of a bfloat16 layer_norm
// (LayerNormBackwardKernelImplInternal) reads the mean and rstd its
// forward saved, in bfloat16 (from its moments in bfloat16 arithmetic,
// Note [Bfloat16 steps] in optable/elem), and computes in float: per row,
// ds = Σ g·w·x and db = Σ g·w, each returned in bfloat16 by its
// vectorised reduction, b = (db·mean − ds)·rstd³/N, c = −b·mean −
// db·rstd/N, and the input's gradient rstd·g·w + b·x + c rounded once; the
// weight's gradient sums g·(rstd·x − rstd·mean) over the rows. goten's
// derivatives for 16-bit inputs take those steps, in float32 ops, from the
// same statistics (op.LayerNormMoments); float16, which PyTorch 1.13's CPU
// layer_norm does not take, the same steps. Composed of bfloat16 ops with
// statistics of their own, they had come out several ulps away: seed 509,
// nested_autograd/layer_norm/003, and a quarter of random bfloat16 cases
// that PyTorch computes within tolerance of float64. What is left: PyTorch
// sums the weight's and bias's gradients over the rows in a bfloat16
// buffer per thread, rounded at every row, and the threads' buffers in
// float; goten sums in float32 and rounds once, since those roundings
// depend on the reference's thread count (six of those 842 cases).

// flip returns t reversed along dim, a copy (PyTorch's flip): backward
// needs reverse scans. Its own derivative is the same flip.
func flip(t *Tensor, dim int) *Tensor {
	d := wrapDim(dim, t.Dim())
	v := t.v.Clone()
	if n := v.Shape[d]; n > 1 {
		v.Offset += (n - 1) * v.Strides[d]
		v.Strides[d] = -v.Strides[d]
	}
	e, err := raw.NewOn(t.v.Storage.Allocator(), t.DType(), t.v.Shape, nil, false)
	must(err)
	r := wrap(e).CopyFrom(wrap(v))
	if recording(t) {
		record("FlipBackward0", []*Tensor{t}, []*Tensor{r}, func(_ *node, gs []*Tensor) []*Tensor {
			return []*Tensor{flip(gs[0], d)}
		})
	}
	return r
}
