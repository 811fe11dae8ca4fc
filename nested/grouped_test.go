package nested_test

import (
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// denseAttention is attention over one component by dense ops: softmax(q·kᵀ/√d
// + mask)·v, the causal mask −∞ above the diagonal.
func denseAttention(q, k, v *tensor.Tensor, causal bool) *tensor.Tensor {
	s := tensor.Mul(tensor.Matmul(q, k.Transpose(-2, -1)), tensor.Scalar(1/math.Sqrt(float64(q.Size(-1)))))
	if causal {
		lq, lk := s.Size(-2), s.Size(-1)
		m := make([]float64, lq*lk)
		for r := range lq {
			for c := r + 1; c < lk; c++ {
				m[r*lk+c] = math.Inf(-1)
			}
		}
		s = s.Add(tensor.FromSlice(m, lq, lk).To(s.DType()))
	}
	return tensor.Matmul(s.Softmax(tensor.Over(-1)), v)
}

// TestGroupedMatmul checks nested@nested products run as one grouped
// product (their result records GroupedMmBackward) against the dense
// product of each pair: matrices of ragged sizes with an empty one, 3-D
// components, a transposed (unpacked) operand, float32 and float64.
func TestGroupedMatmul(t *testing.T) {
	g := tensor.NewGenerator(12)
	as := ragged(g, []int{3, 4}, []int{1, 2}, []int{0, 5}, []int{7, 3})
	bs := ragged(g, []int{4, 2}, []int{2, 6}, []int{5, 3}, []int{3, 1})
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32} {
		a, b := nested.New(as, tensor.Float64), nested.New(bs, tensor.Float64)
		a, b = nested.To(a, dt), nested.To(b, dt)
		a.SetRequiresGrad(true)
		for name, r := range map[string]*nested.Tensor{"matmul": nested.Matmul(a, b), "bmm": nested.Bmm(a, b)} {
			if fn := r.Values().GradFn(); fn != "GroupedMmBackward" {
				t.Errorf("%s %v: recorded %q, not one grouped product", name, dt, fn)
			}
			for i := range as {
				want := tensor.Matmul(as[i], bs[i])
				got := r.Component(i).To(tensor.Float64)
				if dt == tensor.Float32 {
					if want.NumEl() == 0 {
						near(t, name, got, want)
					} else if d := got.Sub(want).Abs().Amax().Item(); d > 1e-5 {
						t.Errorf("%s float32 component %d: off by %v", name, i, d)
					}
					continue
				}
				near(t, name, got, want)
			}
		}
	}
	// a transposed view: components [n, k] read through their strides
	at := make([]*tensor.Tensor, len(as))
	for i, c := range as {
		at[i] = c.T().Contiguous()
	}
	tv := nested.Transpose(nested.New(at, tensor.Float64), 1, 2)
	if tv.IsPacked() {
		t.Fatal("the transposed view is packed")
	}
	r := nested.Matmul(tv, nested.New(bs, tensor.Float64))
	for i := range as {
		near(t, "matmul of a transposed view", r.Component(i), tensor.Matmul(as[i], bs[i]))
	}
	// 3-D components: each batch entry is a group
	a3 := ragged(g, []int{2, 3, 4}, []int{1, 1, 2}, []int{3, 5, 2})
	b3 := ragged(g, []int{2, 4, 3}, []int{1, 2, 2}, []int{3, 2, 1})
	r3 := nested.Matmul(nested.New(a3, tensor.Float64), nested.New(b3, tensor.Float64))
	for i := range a3 {
		near(t, "matmul of 3-D components", r3.Component(i), tensor.Matmul(a3[i], b3[i]))
	}
	// sizes that do not match fall back to the loop, which raises the dense error
	bad := nested.New(ragged(g, []int{3, 4}, []int{3, 4}, []int{2, 4}, []int{2, 2}), tensor.Float64)
	if k := errKind(func() { nested.Matmul(nested.New(as, tensor.Float64), bad) }); k != tensor.ShapeError {
		t.Errorf("mismatched sizes: kind %v", k)
	}
}

// TestGroupedAttention checks attention as grouped products and a ragged
// softmax (its result records their backward) against dense attention
// per component: [L, d] and [H, L, d] components, causal or not, ragged
// lengths with a length of 1, float64 and float32.
func TestGroupedAttention(t *testing.T) {
	g := tensor.NewGenerator(13)
	for _, heads := range []int{0, 3} {
		var qs, ks, vs []*tensor.Tensor
		for _, l := range []int{5, 1, 9, 2} {
			sh := func(d int) []int {
				if heads == 0 {
					return []int{l, d}
				}
				return []int{heads, l, d}
			}
			qs, ks, vs = append(qs, g.Randn(tensor.Float64, sh(4)...)), append(ks, g.Randn(tensor.Float64, sh(4)...)), append(vs, g.Randn(tensor.Float64, sh(3)...))
		}
		for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32} {
			q := nested.To(nested.New(qs, tensor.Float64), dt).SetRequiresGrad(true)
			k, v := nested.To(nested.New(ks, tensor.Float64), dt), nested.To(nested.New(vs, tensor.Float64), dt)
			for _, causal := range []bool{false, true} {
				r := nested.Attention(q, k, v, causal)
				if fn := r.Values().GradFn(); fn != "GroupedMmBackward" {
					t.Errorf("heads %d causal %v: recorded %q, not a grouped product", heads, causal, fn)
				}
				for i := range qs {
					want := denseAttention(qs[i], ks[i], vs[i], causal)
					got := r.Component(i).To(tensor.Float64)
					if dt == tensor.Float32 {
						if d := got.Sub(want).Abs().Amax().Item(); d > 1e-5 {
							t.Errorf("heads %d causal %v float32 component %d: off by %v", heads, causal, i, d)
						}
						continue
					}
					near(t, "attention", got, want)
				}
			}
		}
	}
}

// TestGroupedGradcheck checks the gradients of the grouped forms against
// finite differences, first and second order, into nested leaves: q, k
// and v of [L, d] and [H, L, d] components (ragged, one of length 1),
// causal and not, and a product of two nested tensors.
func TestGroupedGradcheck(t *testing.T) {
	g := tensor.NewGenerator(14)
	lens := []int{3, 1, 4}
	wrapL := func(b *tensor.Tensor, heads, d int) *nested.Tensor {
		sizes := make([][]int, len(lens))
		offs := make([]int, len(lens))
		at := 0
		for i, l := range lens {
			sizes[i], offs[i] = []int{l, d}, at
			if heads > 0 {
				sizes[i] = []int{heads, l, d}
			}
			at += max(heads, 1) * l * d
		}
		return nested.Wrap(b, sizes, offs)
	}
	buf := func(heads, d int) *tensor.Tensor {
		return g.Randn(tensor.Float64, max(heads, 1)*8*d).SetRequiresGrad(true)
	}
	type gcase struct {
		name   string
		f      gradcheck.Func
		inputs []*tensor.Tensor
	}
	var cases []gcase
	for _, heads := range []int{0, 2} {
		for _, causal := range []bool{false, true} {
			h, c := heads, causal
			cases = append(cases, gcase{
				name: "attention", inputs: []*tensor.Tensor{buf(h, 3), buf(h, 3), buf(h, 2)},
				f: func(in []*tensor.Tensor) []*tensor.Tensor {
					return []*tensor.Tensor{nested.Attention(wrapL(in[0], h, 3), wrapL(in[1], h, 3), wrapL(in[2], h, 2), c).Values()}
				}})
		}
	}
	cases = append(cases, gcase{
		name: "matmul", inputs: []*tensor.Tensor{buf(0, 3), g.Randn(tensor.Float64, 3*2+3*2+3*2).SetRequiresGrad(true)},
		f: func(in []*tensor.Tensor) []*tensor.Tensor {
			b := nested.Wrap(in[1], [][]int{{3, 2}, {3, 2}, {3, 2}}, []int{0, 6, 12})
			return []*tensor.Tensor{nested.Matmul(wrapL(in[0], 0, 3), b).Values()}
		}})
	for _, c := range cases {
		if err := gradcheck.Check(c.f, c.inputs, gradcheck.Options{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if err := gradcheck.CheckSecond(c.f, c.inputs, gradcheck.Options{}); err != nil {
			t.Errorf("%s, second order: %v", c.name, err)
		}
		// CheckSecond differentiates the gradients computed with CreateGraph,
		// which take another path (differentiable ops, not the backward
		// kernel): they must be the first-order ones
		y := c.f(c.inputs)[0]
		seed := g.Randn(tensor.Float64, y.Shape()...)
		plain := tensor.Grad([]*tensor.Tensor{y}, c.inputs, []*tensor.Tensor{seed}, tensor.GradOptions{RetainGraph: true})
		graph := tensor.Grad([]*tensor.Tensor{y}, c.inputs, []*tensor.Tensor{seed}, tensor.GradOptions{CreateGraph: true})
		for k := range plain {
			near(t, c.name+": gradient with CreateGraph", graph[k], plain[k])
		}
	}
}

// TestMatmulBoolComponents: bool components have no product kernel, so
// nested matmul runs them per component as the dense op does: products
// with nothing to sum are zeros, the others a dtype error (seed 463).
func TestMatmulBoolComponents(t *testing.T) {
	z := func(s ...int) *tensor.Tensor { return tensor.Zeros(tensor.Bool, s...) }
	a := nested.New([]*tensor.Tensor{z(1, 0), z(0, 0)}, tensor.Bool)
	b := nested.New([]*tensor.Tensor{z(0, 6), z(0, 1)}, tensor.Bool)
	r := nested.Matmul(a, b)
	if r.DType() != tensor.Bool || r.Len() != 2 || r.Component(0).NumEl() != 6 || r.Component(1).NumEl() != 0 {
		t.Fatalf("bool [1, 0]·[0, 6] and [0, 0]·[0, 1]: %v components of dtype %v", r.Len(), r.DType())
	}
	for _, v := range tensor.ToSlice[bool](r.Component(0)) {
		if v {
			t.Fatal("an empty sum gave true")
		}
	}
	c := nested.New([]*tensor.Tensor{z(2, 3)}, tensor.Bool)
	d := nested.New([]*tensor.Tensor{z(3, 4)}, tensor.Bool)
	if k := errKind(func() { nested.Matmul(c, d) }); k != tensor.DTypeError {
		t.Errorf("bool [2, 3]·[3, 4]: error kind %v, want a dtype error", k)
	}
}

// TestAttentionDividesScores: attention divides q·kᵀ by √d after the
// product, as the reference formula does, not by a product with 1/√d,
// whose last bit differs: over scores near 1e20 that bit decides the
// softmax (seed 487, over ±1.7e308). The expectation is torch_runner's
// _sdpa: an even split of the second row.
func TestAttentionDividesScores(t *testing.T) {
	const x, y = 5.23566300160595e+19, 1.0000000000000002
	m := func(xs ...float64) *tensor.Tensor { return tensor.FromSlice(xs, len(xs)/2, 2) }
	q := nested.New([]*tensor.Tensor{m(1, 0, x, 0)}, tensor.Float64)
	k := nested.New([]*tensor.Tensor{m(1, 0, y, 0)}, tensor.Float64)
	v := nested.New([]*tensor.Tensor{m(1, 0, 0, 1)}, tensor.Float64)
	got := nested.Attention(q, k, v, true).Component(0).Float64s()
	if want := []float64{1, 0, 0.5, 0.5}; !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
