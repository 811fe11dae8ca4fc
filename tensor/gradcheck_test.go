package tensor_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	. "github.com/goten-ml/goten/tensor"
)

// domain is the interval a checked input's values are drawn from: where
// the op is differentiable and the finite differences are well behaved.
type domain struct{ lo, hi float64 }

var (
	anywhere = domain{-2, 2}
	positive = domain{0.5, 2}
	unit     = domain{-0.9, 0.9}
)

// domains gives the domains of the inputs of ops that need other than
// anywhere; a cond input is a random bool tensor.
var domains = map[*optable.Op][]domain{
	optable.Log: {positive}, optable.Log2: {positive}, optable.Log10: {positive}, optable.Log1p: {positive},
	optable.Sqrt: {positive}, optable.Rsqrt: {positive}, optable.Reciprocal: {positive},
	optable.Asin: {unit}, optable.Acos: {unit}, optable.Atanh: {unit}, optable.Acosh: {{1.2, 3}},
	optable.Logit: {{0.1, 0.9}},
	optable.Div:   {anywhere, {1, 2}}, optable.DivTrunc: {anywhere, {1, 2}}, optable.DivFloor: {anywhere, {1, 2}},
	optable.FloorDivide: {anywhere, {1, 2}},
	optable.Remainder:   {{0.2, 0.8}, {1.5, 2}}, optable.Fmod: {{0.2, 0.8}, {1.5, 2}},
	optable.Pow:     {positive, anywhere},
	optable.Hypot:   {positive, positive},
	optable.Addcdiv: {anywhere, anywhere, {1, 2}},
	optable.Lerp:    {anywhere, anywhere, {0, 1}},
}

// argsOf gives ops checked with arguments (alpha, value, eps).
var argsOf = map[*optable.Op]*kernel.Args{
	optable.Add:     op.WithAlpha(op.Float(-1.5)),
	optable.Sub:     op.WithAlpha(op.Float(2.5)),
	optable.Addcmul: op.WithAlpha(op.Float(0.5)),
	optable.Addcdiv: op.WithAlpha(op.Float(-2)),
	optable.Logit:   {AlphaF: 1, AlphaI: 1, Eps: 0.05, HasEps: true},
}

// draw returns a float64 leaf of shape sh whose values lie in dom.
func draw(g *Generator, dom domain, sh ...int) *Tensor {
	return g.Rand(Float64, sh...).Mul(Scalar(dom.hi - dom.lo)).Add(Scalar(dom.lo)).SetRequiresGrad(true)
}

// strided returns a leaf of shape sh with transposed strides.
func strided(g *Generator, dom domain, sh ...int) *Tensor {
	rev := make([]int, len(sh))
	for i, s := range sh {
		rev[len(sh)-1-i] = s
	}
	return draw(g, dom, rev...).Detach().Permute(reverse(len(sh))...).SetRequiresGrad(true)
}

func reverse(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = n - 1 - i
	}
	return r
}

// pointwiseLayouts are the input shapes each elementwise op is checked
// with: the same shape, broadcast (a row, a 0-d tensor), strided, and an
// input expanded inside the function.
var pointwiseLayouts = []struct {
	name    string
	shapes  func(arity, k int) []int
	strided bool
	expand  bool
}{
	{"same", func(_, _ int) []int { return []int{3, 4} }, false, false},
	{"row", func(arity, k int) []int {
		if k == arity-1 && arity > 1 {
			return []int{4}
		}
		return []int{3, 4}
	}, false, false},
	{"0d", func(arity, k int) []int {
		if k == 0 && arity > 1 {
			return []int{3, 4}
		}
		return []int{}
	}, false, false},
	{"strided", func(_, _ int) []int { return []int{3, 4} }, true, false},
	{"expanded", func(_, _ int) []int { return []int{1, 4} }, false, true},
}

// TestGradcheckPointwise checks the derivative of every elementwise op of
// the table against finite differences, over several layouts, and its
// second derivative on one.
func TestGradcheckPointwise(t *testing.T) {
	for _, d := range optable.Ops[1:] {
		if d.Kind != optable.Pointwise || d.Grad == nil {
			continue
		}
		for li, l := range pointwiseLayouts {
			name := fmt.Sprintf("%s/%s", d.Go, l.name)
			t.Run(name, func(t *testing.T) {
				g := NewGenerator(uint64(d.Code)*31 + uint64(li))
				ins := make([]*Tensor, d.Arity)
				for k := range ins {
					dom := anywhere
					if ds := domains[d]; k < len(ds) {
						dom = ds[k]
					}
					sh := l.shapes(d.Arity, k)
					switch {
					case d == optable.Where && k == 0:
						ins[k] = g.Rand(Float64, sh...).Gt(Scalar(0.5))
					case l.strided && len(sh) > 1:
						ins[k] = strided(g, dom, sh...)
					default:
						ins[k] = draw(g, dom, sh...)
					}
				}
				f := func(in []*Tensor) []*Tensor {
					xs := in
					if l.expand {
						xs = make([]*Tensor, len(in))
						for k, x := range in {
							xs[k] = x.Expand(3, 4)
						}
					}
					return []*Tensor{ApplyPointwise(d, argsOf[d], xs...)}
				}
				if err := gradcheck.Check(f, ins, gradcheck.Options{}); err != nil {
					t.Error(err)
				}
				if li == 0 {
					if err := gradcheck.CheckSecond(f, ins, gradcheck.Options{}); err != nil {
						t.Errorf("second derivative: %v", err)
					}
				}
			})
		}
	}
}

// reduceCases are the dims each reduction is checked over.
var reduceCases = []struct {
	name string
	dims Dims
}{
	{"all", Dims{}}, // no dim list (Over() is dim=[], which logsumexp refuses)
	{"dim1", Over(1)},
	{"dim0-keep", Over(0).KeepDim()},
	{"dims02", Over(0, 2)},
}

// TestGradcheckReduce checks every reduction's derivative (norm at several
// orders, var and std at two corrections, prod with and without a zero).
func TestGradcheckReduce(t *testing.T) {
	for _, r := range optable.Ops[1:] {
		if r.Kind != optable.Reduction || r.Grad == nil {
			continue
		}
		variants := []func(Dims) Dims{func(o Dims) Dims { return o }}
		switch r.Keyword {
		case "p":
			variants = nil
			for _, p := range []float64{2, 1, 3, 1.5, 0.5, math.Inf(1), math.Inf(-1), 0} {
				variants = append(variants, func(o Dims) Dims { return o.P(p) })
			}
		case "correction":
			variants = []func(Dims) Dims{
				func(o Dims) Dims { return o.Correction(0) },
				func(o Dims) Dims { return o.Correction(1) },
			}
		}
		for vi, variant := range variants {
			for ci, c := range reduceCases {
				if r.OneDim && (len(c.name) > 4 && c.name[:4] == "dims") {
					continue
				}
				name := fmt.Sprintf("%s/%d/%s", r.Go, vi, c.name)
				t.Run(name, func(t *testing.T) {
					g := NewGenerator(uint64(r.Code)*131 + uint64(vi)*7 + uint64(ci))
					x := draw(g, anywhere, 2, 3, 4)
					if r == optable.Prod && ci == 1 {
						x = x.Detach().Set(Scalar(0.0), 1, 2, 3).SetRequiresGrad(true)
					}
					f := func(in []*Tensor) []*Tensor { return ApplyReduce(r, in[0], variant(c.dims))[:1] }
					if err := gradcheck.Check(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
						t.Error(err)
					}
					if ci == 1 {
						if err := gradcheck.CheckSecond(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
							t.Errorf("second derivative: %v", err)
						}
					}
				})
			}
		}
	}
}

// TestGradcheckScan checks every scan's and row op's derivative along each
// dim (cumprod with and without zeros).
func TestGradcheckScan(t *testing.T) {
	for _, s := range optable.Ops[1:] {
		if (s.Kind != optable.Scan && s.Kind != optable.Row) || s.Grad == nil || s.ManualAPI {
			continue
		}
		for dim := -1; dim < 2; dim++ {
			for _, zeros := range []bool{false, true} {
				if zeros && s != optable.CumProd {
					continue
				}
				t.Run(fmt.Sprintf("%s/dim%d/zeros=%v", s.Go, dim, zeros), func(t *testing.T) {
					g := NewGenerator(uint64(s.Code)*17 + uint64(dim+1))
					x := draw(g, anywhere, 3, 4)
					if zeros {
						x = x.Detach()
						x.Set(Scalar(0.0), 1, 1)
						x.Set(Scalar(0.0), 2, 0)
						x.Set(Scalar(0.0), 2, 2)
						x.SetRequiresGrad(true)
					}
					f := func(in []*Tensor) []*Tensor { return ApplyScan(s, in[0], Over(dim))[:1] }
					if err := gradcheck.Check(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
						t.Error(err)
					}
					if err := gradcheck.CheckSecond(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
						t.Errorf("second derivative: %v", err)
					}
				})
			}
		}
	}
}

// TestGradcheckLayerNorm checks layer_norm in its input, weight and bias.
func TestGradcheckLayerNorm(t *testing.T) {
	g := NewGenerator(5)
	for _, affine := range []bool{false, true} {
		x := draw(g, anywhere, 2, 3, 4)
		var w, b *Tensor
		if affine {
			w, b = draw(g, anywhere, 4), draw(g, anywhere, 4)
		}
		for _, shape := range [][]int{{4}, {3, 4}} {
			if affine && len(shape) > 1 {
				continue
			}
			f := func(in []*Tensor) []*Tensor { return []*Tensor{LayerNorm(in[0], shape, in[1], in[2], 1e-5)} }
			if err := gradcheck.Check(f, []*Tensor{x, w, b}, gradcheck.Options{}); err != nil {
				t.Errorf("affine %v %v: %v", affine, shape, err)
			}
			if err := gradcheck.CheckSecond(f, []*Tensor{x, w, b}, gradcheck.Options{}); err != nil {
				t.Errorf("affine %v %v: second derivative: %v", affine, shape, err)
			}
		}
	}
}

// TestGradcheckHandWritten checks the derivatives written beside their
// forward code: views, matrix products, casts, copies, cat and stack.
func TestGradcheckHandWritten(t *testing.T) {
	one := func(f func(x *Tensor) *Tensor) gradcheck.Func {
		return func(in []*Tensor) []*Tensor { return []*Tensor{f(in[0])} }
	}
	two := func(f func(a, b *Tensor) *Tensor) gradcheck.Func {
		return func(in []*Tensor) []*Tensor { return []*Tensor{f(in[0], in[1])} }
	}
	three := func(f func(a, b, c *Tensor) *Tensor) gradcheck.Func {
		return func(in []*Tensor) []*Tensor { return []*Tensor{f(in[0], in[1], in[2])} }
	}
	g := NewGenerator(9)
	x := func(sh ...int) *Tensor { return draw(g, anywhere, sh...) }
	cases := []struct {
		name   string
		f      gradcheck.Func
		inputs []*Tensor
	}{
		{"view", one(func(x *Tensor) *Tensor { return x.View(4, 3) }), []*Tensor{x(3, 4)}},
		{"reshape-copy", one(func(x *Tensor) *Tensor { return x.T().Reshape(12) }), []*Tensor{x(3, 4)}},
		{"flatten", one(func(x *Tensor) *Tensor { return x.Flatten(0, 1) }), []*Tensor{x(2, 3, 2)}},
		{"unflatten", one(func(x *Tensor) *Tensor { return x.Unflatten(1, 2, 2) }), []*Tensor{x(3, 4)}},
		{"permute", one(func(x *Tensor) *Tensor { return x.Permute(2, 0, 1).Mul(x.Permute(2, 0, 1)) }), []*Tensor{x(2, 3, 4)}},
		{"transpose", one(func(x *Tensor) *Tensor { return x.Transpose(0, 2) }), []*Tensor{x(2, 3, 4)}},
		{"t", one(func(x *Tensor) *Tensor { return x.T().Exp() }), []*Tensor{x(3, 4)}},
		{"expand", one(func(x *Tensor) *Tensor { return x.Expand(2, 3, 4).Sin() }), []*Tensor{x(3, 1)}},
		{"narrow", one(func(x *Tensor) *Tensor { return x.Narrow(1, 1, 2).Square() }), []*Tensor{x(3, 4)}},
		{"select", one(func(x *Tensor) *Tensor { return x.Select(0, -1).Exp() }), []*Tensor{x(3, 4)}},
		{"slice", one(func(x *Tensor) *Tensor { return x.Slice(1, 0, 4, 2) }), []*Tensor{x(3, 4)}},
		{"slice-from", one(func(x *Tensor) *Tensor { return x.SliceFrom(0, 1, 1) }), []*Tensor{x(3, 4)}},
		{"squeeze", one(func(x *Tensor) *Tensor { return x.Squeeze() }), []*Tensor{x(3, 1, 4)}},
		{"squeeze-dim", one(func(x *Tensor) *Tensor { return x.Squeeze(1) }), []*Tensor{x(3, 1, 4)}},
		{"unsqueeze", one(func(x *Tensor) *Tensor { return x.Unsqueeze(1) }), []*Tensor{x(3, 4)}},
		{"movedim", one(func(x *Tensor) *Tensor { return x.Movedim([]int{0}, []int{2}) }), []*Tensor{x(2, 3, 4)}},
		{"as-strided", one(func(x *Tensor) *Tensor { return x.AsStrided([]int{2, 2}, []int{1, 4}) }), []*Tensor{x(3, 4)}},
		{"as-strided-at", one(func(x *Tensor) *Tensor { return x.AsStridedAt([]int{3}, []int{3}, 2) }), []*Tensor{x(3, 4)}},
		{"split", one(func(x *Tensor) *Tensor { p := x.Split(3, 1); return p[0].Sum().Add(p[1].Exp().Sum()) }), []*Tensor{x(3, 4)}},
		{"split-sizes", one(func(x *Tensor) *Tensor { return x.SplitSizes([]int{1, 2}, 0)[1] }), []*Tensor{x(3, 4)}},
		{"chunk", one(func(x *Tensor) *Tensor { return x.Chunk(2, -1)[1].Mul(Scalar(3)) }), []*Tensor{x(3, 4)}},
		{"cat", three(func(a, b, c *Tensor) *Tensor { return Cat([]*Tensor{a, b, c}, 1) }), []*Tensor{x(3, 1), x(3, 2), x(3, 3)}},
		{"cat-legacy-empty", two(func(a, b *Tensor) *Tensor { return Cat([]*Tensor{a, b}, 0) }), []*Tensor{x(0), x(2, 3)}},
		{"stack", two(func(a, b *Tensor) *Tensor { return Stack([]*Tensor{a, b}, -1) }), []*Tensor{x(3, 4), x(3, 4)}},
		{"matmul-2x2", two(Matmul), []*Tensor{x(3, 4), x(4, 2)}},
		{"matmul-1x1", two(Matmul), []*Tensor{x(4), x(4)}},
		{"matmul-2x1", two(Matmul), []*Tensor{x(3, 4), x(4)}},
		{"matmul-1x3", two(Matmul), []*Tensor{x(4), x(2, 4, 3)}},
		{"matmul-batch-broadcast", two(Matmul), []*Tensor{x(2, 1, 3, 4), x(3, 4, 2)}},
		{"mm", two(Mm), []*Tensor{x(3, 4), x(4, 2)}},
		{"bmm", two(Bmm), []*Tensor{x(2, 3, 4), x(2, 4, 2)}},
		{"mv", two(Mv), []*Tensor{x(3, 4), x(4)}},
		{"dot", two(Dot), []*Tensor{x(4), x(4)}},
		{"linear", three(Linear), []*Tensor{x(2, 3, 4), x(5, 4), x(5)}},
		{"linear-1d", two(func(a, w *Tensor) *Tensor { return Linear(a, w, nil) }), []*Tensor{x(4), x(5, 4)}},
		{"addmm", three(func(i, a, b *Tensor) *Tensor { return Addmm(i, a, b, Scalar(0.5), Scalar(-2)) }), []*Tensor{x(2), x(3, 4), x(4, 2)}},
		{"baddbmm", three(func(i, a, b *Tensor) *Tensor { return Baddbmm(i, a, b, Scalar(2), Scalar(0.5)) }), []*Tensor{x(3, 2), x(2, 3, 4), x(2, 4, 2)}},
		{"to-float32", one(func(x *Tensor) *Tensor { return x.To(Float32).Mul(Scalar(2)).To(Float64) }), []*Tensor{x(3)}}, // (Eps below)
		{"clone", one(func(x *Tensor) *Tensor { return x.T().Clone() }), []*Tensor{x(3, 4)}},
		{"contiguous", one(func(x *Tensor) *Tensor { return x.T().Contiguous().Square() }), []*Tensor{x(3, 4)}},
		{"copy-into", two(func(a, b *Tensor) *Tensor {
			y := a.Mul(Scalar(1))
			y.Narrow(0, 1, 2).CopyFrom(b)
			return y.Exp()
		}), []*Tensor{x(3, 4), x(4)}},
		{"in-place-view", two(func(a, b *Tensor) *Tensor {
			y := a.Mul(Scalar(1))
			y.Select(1, 2).MulInPlace(b)
			return y
		}), []*Tensor{x(3, 4), x(3)}},
		{"in-place-view-chain", two(func(a, b *Tensor) *Tensor {
			y := a.Mul(Scalar(1))
			y.Narrow(0, 1, 2).DivInPlace(b.Exp())
			y.Select(1, 0).MulInPlace(b.Narrow(0, 1, 3).Cos())
			y.T().Narrow(0, 2, 2).AddInPlace(b.Narrow(0, 0, 2).Unsqueeze(1), Scalar(-0.5))
			return y.Sin()
		}), []*Tensor{x(3, 4), x(4)}},
		{"in-place-index-view", two(func(a, b *Tensor) *Tensor {
			y := a.Mul(Scalar(1))
			y.Narrow(1, 1, 3).IndexAddInPlace(1, FromSlice([]int64{2, 0}), b.Square())
			y.Select(0, 2).MaskedFillInPlace(FromSlice([]bool{true, false, false, true}), Scalar(0.5))
			return y.Mul(y)
		}), []*Tensor{x(3, 4), x(3, 2)}},
		{"set", two(func(a, b *Tensor) *Tensor {
			y := a.Mul(Scalar(1))
			y.Set(b.Sum(), 1, 1)
			return y
		}), []*Tensor{x(3, 4), x(2)}},
		{"fill-zero", one(func(a *Tensor) *Tensor {
			y := a.Mul(Scalar(2))
			y.Narrow(0, 0, 1).Fill(Scalar(3.0))
			y.Narrow(0, 2, 1).Zero()
			return y
		}), []*Tensor{x(3, 4)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := gradcheck.Options{}
			if c.name == "to-float32" {
				o.Eps = 1e-2 // steps float32 resolves
			}
			if err := gradcheck.Check(c.f, c.inputs, o); err != nil {
				t.Error(err)
			}
			if err := gradcheck.CheckSecond(c.f, c.inputs, o); err != nil {
				t.Errorf("second derivative: %v", err)
			}
		})
	}
}
