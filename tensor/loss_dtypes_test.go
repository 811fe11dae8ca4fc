package tensor_test

import (
	"math"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestLossDTypeRules checks PyTorch 1.13's dtype rules of the losses that
// the conformance variants found.
func TestLossDTypeRules(t *testing.T) {
	x := FromSlice([]float32{0.5, -1, 2}, 3).SetRequiresGrad(true)
	// mse_loss promotes in its forward; its backward refuses two dtypes
	l := MSELoss(x, FromSlice([]int8{1, 0, 2}, 3))
	if got := l.Float64s()[0]; math.Abs(got-(0.25+1+0)/3) > 1e-6 {
		t.Errorf("mse_loss(float32, int8) = %g", got)
	}
	if k := kindOf(func() { l.Backward() }); k != DTypeError {
		t.Errorf("mse_loss(float32, int8) backward: %q, want a dtype error", k)
	}
	// nll_loss takes uint8 class targets of 1-D/2-D scores, not int32
	scores := FromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3)
	if got := NLLLoss(scores, FromSlice([]uint8{2, 0}, 2)).Float64s()[0]; got != 3.5 {
		t.Errorf("nll_loss with uint8 targets = %g, want 3.5", got)
	}
	if k := kindOf(func() { NLLLoss(scores, FromSlice([]int32{2, 0}, 2)) }); k != DTypeError {
		t.Errorf("nll_loss with int32 targets: %q, want a dtype error", k)
	}
	if k := kindOf(func() {
		NLLLoss(scores, FromSlice([]int64{2, 0}, 2), LossOptions{Weight: FromSlice([]float64{1, 1, 1}, 3)})
	}); k != DTypeError {
		t.Errorf("nll_loss with a float64 weight of float32 scores: %q, want a dtype error", k)
	}
	// bce_with_logits: the loss in t's dtype; an integer t refused
	if d := BinaryCrossEntropyWithLogits(FromSlice([]float64{1, 2}, 2), FromSlice([]float32{0, 1}, 2)).DType(); d != Float32 {
		t.Errorf("bce_with_logits(float64, float32) has dtype %v, want float32", d)
	}
	if k := kindOf(func() { BinaryCrossEntropyWithLogits(FromSlice([]float64{1, 2}, 2), FromSlice([]uint8{0, 1}, 2)) }); k != DTypeError {
		t.Errorf("bce_with_logits with a uint8 target: %q, want a dtype error", k)
	}
	// its in-place steps cannot grow the loss: a larger weight is a shape error
	if k := kindOf(func() {
		BinaryCrossEntropyWithLogits(FromSlice([]float64{1, 2, 3}, 3), FromSlice([]float64{0, 1, 0}, 3), LossOptions{Weight: Ones(Float64, 2, 3)})
	}); k != ShapeError {
		t.Errorf("bce_with_logits with a weight larger than x: %q, want a shape error", k)
	}
	// an infinite pos_weight: PyTorch's formula gives NaN, not ±Inf
	xl := FromSlice([]float64{0.5}, 1).SetRequiresGrad(true)
	BinaryCrossEntropyWithLogits(xl, FromSlice([]float64{0.25}, 1), LossOptions{PosWeight: FromSlice([]float64{math.Inf(-1)}, 1)}).Backward()
	if g := xl.Grad().Float64s()[0]; !math.IsNaN(g) {
		t.Errorf("bce_with_logits grad with pos_weight -inf = %g, want NaN", g)
	}
}
