package tensor_test

import (
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// TestLossBoolTargets: mse_loss and smooth_l1_loss read a bool operand as
// its 0/1 value, as PyTorch's kernels do (sub alone refuses bools).
func TestLossBoolTargets(t *testing.T) {
	x := tensor.FromSlice([]float64{-4.88, 0.25, 2})
	b := tensor.FromSlice([]bool{true, false, true})
	for _, c := range []struct {
		name string
		f    func(x, t *tensor.Tensor, o ...tensor.LossOptions) *tensor.Tensor
	}{{"mse_loss", tensor.MSELoss}, {"smooth_l1_loss", tensor.SmoothL1Loss}} {
		got, want := c.f(x, b).Item(), c.f(x, b.To(tensor.Float64)).Item()
		if got != want {
			t.Errorf("%s with a bool target: %v, want %v", c.name, got, want)
		}
		if rev, want := c.f(b, x).Item(), c.f(b.To(tensor.Float64), x).Item(); rev != want {
			t.Errorf("%s with a bool input: %v, want %v", c.name, rev, want)
		}
	}
}
