package tensor_test

import (
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	. "github.com/goten-ml/goten/tensor"
)

// TestRearrangeGradients checks the gradients of the rearrangements and
// of einsum (Notes [Rearrangements as compositions] and [Einsum by batched
// products]), first and second order, against finite differences.
func TestRearrangeGradients(t *testing.T) {
	g := NewGenerator(5)
	one := func(f func(x *Tensor) *Tensor, sh ...int) (func() []*Tensor, gradcheck.Func) {
		return func() []*Tensor { return []*Tensor{strided(g, anywhere, sh...)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{f(x[0])} }
	}
	two := func(f func(a, b *Tensor) *Tensor, sa, sb []int) (func() []*Tensor, gradcheck.Func) {
		return func() []*Tensor { return []*Tensor{draw(g, anywhere, sa...), strided(g, anywhere, sb...)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{f(x[0], x[1])} }
	}
	type check struct {
		name   string
		inputs func() []*Tensor
		f      gradcheck.Func
	}
	var cases []check
	addOne := func(name string, f func(x *Tensor) *Tensor, sh ...int) {
		in, fn := one(f, sh...)
		cases = append(cases, check{name, in, fn})
	}
	addTwo := func(name string, f func(a, b *Tensor) *Tensor, sa, sb []int) {
		in, fn := two(f, sa, sb)
		cases = append(cases, check{name, in, fn})
	}
	addOne("flip", func(x *Tensor) *Tensor { return x.Flip(0, -1) }, 3, 4)
	addOne("roll", func(x *Tensor) *Tensor { return x.Roll([]int{1, -3}, 0, 1) }, 3, 4)
	addOne("roll-flat", func(x *Tensor) *Tensor { return x.Roll([]int{5}) }, 3, 4)
	addOne("rot90", func(x *Tensor) *Tensor { return x.Rot90(3, 1, 0) }, 3, 4)
	addOne("repeat", func(x *Tensor) *Tensor { return x.Repeat(2, 1, 3) }, 3, 2)
	addOne("tile", func(x *Tensor) *Tensor { return x.Tile(2) }, 3, 2)
	addOne("tril", func(x *Tensor) *Tensor { return x.Tril(-1) }, 2, 3, 4)
	addOne("triu", func(x *Tensor) *Tensor { return x.Triu(1) }, 3, 4)
	addOne("diagonal", func(x *Tensor) *Tensor { return x.Diagonal(-1, 2, 0) }, 4, 2, 3)
	addOne("diag_embed", func(x *Tensor) *Tensor { return x.DiagEmbed(1, 0, 2) }, 2, 3)
	addOne("trace", func(x *Tensor) *Tensor { return x.Trace() }, 3, 4)
	addOne("repeat_interleave", func(x *Tensor) *Tensor { return x.RepeatInterleave([]int64{2, 0, 1}, 0) }, 3, 2)
	addOne("pad-constant", func(x *Tensor) *Tensor { return x.Pad([]int{2, -1, 1, 0}, PadConstant, 1.5) }, 3, 4)
	addOne("pad-reflect", func(x *Tensor) *Tensor { return x.Pad([]int{2, 3, 1, 1}, PadReflect, 0) }, 1, 3, 4)
	addOne("pad-replicate", func(x *Tensor) *Tensor { return x.Pad([]int{3, 1}, PadReplicate, 0) }, 2, 3)
	addOne("pad-circular", func(x *Tensor) *Tensor { return x.Pad([]int{2, 1}, PadCircular, 0) }, 1, 2, 3)
	addOne("einsum-diagonal", func(x *Tensor) *Tensor { return Einsum("ii->i", x) }, 3, 3)
	addOne("einsum-sum", func(x *Tensor) *Tensor { return Einsum("i...j->j", x) }, 3, 2, 4)
	addTwo("einsum-matmul", func(a, b *Tensor) *Tensor { return Einsum("bij,bjk->bik", a, b) }, []int{2, 3, 4}, []int{2, 4, 5})
	addTwo("einsum-broadcast", func(a, b *Tensor) *Tensor { return Einsum("ij,kj->ik", a, b) }, []int{3, 1}, []int{2, 4})
	// kron views its product, so (as in PyTorch) not of a permuted input
	cases = append(cases, check{"kron", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3), draw(g, anywhere, 2, 1, 2)} },
		func(x []*Tensor) []*Tensor { return []*Tensor{Kron(x[0], x[1])} }})
	addTwo("cross", func(a, b *Tensor) *Tensor { return Cross(a, b, 1) }, []int{2, 3}, []int{2, 3})
	addTwo("outer", Outer, []int{3}, []int{4})
	addTwo("cartesian_prod", func(a, b *Tensor) *Tensor { return CartesianProd(a, b) }, []int{3}, []int{2})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := gradcheck.Check(c.f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("first derivative: %v", err)
			}
			if err := gradcheck.CheckSecond(c.f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("second derivative: %v", err)
			}
		})
	}
}

// TestEinsumMatchesMatmul checks einsum's contraction against the
// product it names, with a label summed inside one operand and one that
// broadcasts.
func TestEinsumMatchesMatmul(t *testing.T) {
	g := NewGenerator(9)
	a, b := g.Randn(Float64, 2, 3, 4), g.Randn(Float64, 2, 4, 5)
	got := Einsum("bij,bjk->bik", a, b).Float64s()
	want := Bmm(a, b).Float64s()
	for i := range want {
		if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
			t.Fatalf("element %d: %g, want %g", i, got[i], want[i])
		}
	}
	// "ij,j->i" over a row of size 1 on the shared label: broadcast, then summed
	x, v := g.Randn(Float64, 3, 4), g.Randn(Float64, 1)
	got = Einsum("ij,j->i", x, v).Float64s()
	want = x.Sum(Over(1)).Mul(v).Float64s()
	for i := range want {
		if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
			t.Fatalf("broadcast element %d: %g, want %g", i, got[i], want[i])
		}
	}
}
