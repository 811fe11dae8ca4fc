package tensor_test

import (
	"slices"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// Squeeze with dims follows PyTorch 2.0's squeeze(dims) (1.13 takes one
// dim): every listed dim of size 1 goes; a repeated dim is refused with
// the message of 1.13's other dim lists (torch.sum(x, (0, 0))).

func TestSqueezeDims(t *testing.T) {
	x := tensor.Zeros(tensor.Float32, 1, 3, 1, 2)
	for _, c := range []struct {
		dims []int
		want []int
	}{
		{nil, []int{3, 2}},
		{[]int{0}, []int{3, 1, 2}},
		{[]int{0, 2}, []int{3, 2}},
		{[]int{2, 0}, []int{3, 2}},
		{[]int{0, 1}, []int{3, 1, 2}}, // dim 1 has size 3: it stays
		{[]int{-2, -4, 3}, []int{3, 2}},
	} {
		r := x.Squeeze(c.dims...)
		if !slices.Equal(r.Shape(), c.want) || !r.SharesStorage(x) {
			t.Errorf("Squeeze(%v): shape %v, want a view of shape %v", c.dims, r.Shape(), c.want)
		}
	}
	wantError(t, "repeated dim", tensor.ValueError, "dim 0 appears multiple times in the list of dims", func() { x.Squeeze(0, 0) })
	wantError(t, "repeated wrapped dim", tensor.ValueError, "dim 2 appears multiple times in the list of dims", func() { x.Squeeze(2, -2) })
	wantError(t, "dim out of range", tensor.IndexError, "Dimension out of range", func() { x.Squeeze(0, 4) })

	// the gradient flows back through every squeezed dim
	w := tensor.Ones(tensor.Float64, 1, 3, 1, 2).SetRequiresGrad(true)
	w.Squeeze(0, 2).Mul(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2)).Sum().Backward()
	if g := w.Grad(); !slices.Equal(g.Shape(), []int{1, 3, 1, 2}) || !slices.Equal(g.Float64s(), []float64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("gradient through Squeeze(0, 2): %v", g)
	}
}
