package tensor_test

import (
	"math"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// sameFloats reports whether got and want hold the same values, NaN
// matching NaN and the sign of zero not compared, within 1e-6.
func sameFloats(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) || (!math.IsNaN(want[i]) && math.Abs(got[i]-want[i]) > 1e-6) {
			return false
		}
	}
	return true
}

// TestSmoothL1BetaZeroGrad holds smooth_l1_loss's gradient to PyTorch
// 1.13's smooth_l1_loss_backward, which tests x − t ≤ −β before x − t ≥
// β: with β = 0 a tie (x = t) gets −g, not abs's 0, and a NaN difference
// NaN; with β > 0 a tie is inside the quadratic part (0) and |x − t| = β
// is on the linear one (±g). Expected values are torch's.
func TestSmoothL1BetaZeroGrad(t *testing.T) {
	x := FromSlice([]float32{1, 2, float32(math.NaN()), -1, 0.5}, 5).SetRequiresGrad(true)
	y := SmoothL1Loss(x, FromSlice([]float32{1, 1, 0, 0, 0.5}, 5), LossOptions{Reduction: ReduceLossNone, HasBeta: true})
	if got := y.Float64s(); !sameFloats(got, []float64{0, 1, math.NaN(), 1, 0}) {
		t.Errorf("smooth_l1_loss(β = 0) = %v", got)
	}
	y.Backward(FromSlice([]float32{3, 3, 3, 3, -2}, 5))
	if got := x.Grad().Float64s(); !sameFloats(got, []float64{-3, 3, math.NaN(), -3, 2}) {
		t.Errorf("smooth_l1_loss(β = 0) grad = %v, want [-3 3 NaN -3 2]", got)
	}

	x = FromSlice([]float32{1, 2, -1, 0.5}, 4).SetRequiresGrad(true)
	tt := FromSlice([]float32{1, 1, 0, 1.5}, 4).SetRequiresGrad(true)
	SmoothL1Loss(x, tt, LossOptions{Reduction: ReduceLossNone, Beta: 1, HasBeta: true}).Backward(FromSlice([]float32{3, 3, 3, -2}, 4))
	if got := x.Grad().Float64s(); !sameFloats(got, []float64{0, 3, -3, 2}) {
		t.Errorf("smooth_l1_loss(β = 1) grad of x = %v, want [0 3 -3 2]", got)
	}
	if got := tt.Grad().Float64s(); !sameFloats(got, []float64{0, -3, 3, -2}) {
		t.Errorf("smooth_l1_loss(β = 1) grad of t = %v, want [0 -3 3 -2]", got)
	}

	// broadcast operands: the gradients summed back to each one's shape
	x = FromSlice([]float32{1, 2}, 2, 1).SetRequiresGrad(true)
	tt = FromSlice([]float32{1, 2, 3}, 3).SetRequiresGrad(true)
	l := SmoothL1Loss(x, tt, LossOptions{HasBeta: true})
	l.Backward()
	if got := l.Float64s()[0]; math.Abs(got-0.8333333134651184) > 1e-6 {
		t.Errorf("broadcast smooth_l1_loss(β = 0) = %g, want 0.8333333", got)
	}
	if got := x.Grad().Float64s(); !sameFloats(got, []float64{-0.5, -0.1666666716337204}) {
		t.Errorf("broadcast smooth_l1_loss(β = 0) grad of x = %v", got)
	}
	if got := tt.Grad().Float64s(); !sameFloats(got, []float64{-0.3333333432674408, 0, 0.3333333432674408}) {
		t.Errorf("broadcast smooth_l1_loss(β = 0) grad of t = %v", got)
	}
}

// TestNLLLossZeroTotalWeightGrad holds nll_loss's mean gradient to
// PyTorch 1.13's backward, w[y]·(−g/Σw) at every element not ignored and
// nothing (0) at the ignored ones: weights of the kept targets that sum to
// 0 give NaN (w = 0) or ∓Inf, every target ignored gives 0. Expected
// values are torch's.
func TestNLLLossZeroTotalWeightGrad(t *testing.T) {
	x := FromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3)
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		target []int64
		weight []float32
		loss   float64
		grad   []float64
	}{
		{[]int64{0, -100}, []float32{0, 1, 1}, nan, []float64{nan, 0, 0, 0, 0, 0}},
		{[]int64{0, 1}, []float32{0, 0, 1}, nan, []float64{nan, 0, 0, 0, nan, 0}},
		{[]int64{-100, -100}, []float32{0, 0, 1}, nan, []float64{0, 0, 0, 0, 0, 0}},
		{[]int64{0, 1}, []float32{1, -1, 1}, -inf, []float64{-inf, 0, 0, 0, inf, 0}},
	} {
		xs := x.Clone().SetRequiresGrad(true)
		l := NLLLoss(xs, FromSlice(c.target, 2), LossOptions{Weight: FromSlice(c.weight, 3)})
		l.Backward()
		if got := l.Float64s(); !sameFloats(got, []float64{c.loss}) {
			t.Errorf("nll_loss(target %v, weight %v) = %v, want %g", c.target, c.weight, got, c.loss)
		}
		if got := xs.Grad().Float64s(); !sameInfs(got, c.grad) {
			t.Errorf("nll_loss(target %v, weight %v) grad = %v, want %v", c.target, c.weight, got, c.grad)
		}
	}
}

// sameInfs is sameFloats with infinities compared by sign.
func sameInfs(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.IsInf(want[i], 0) != math.IsInf(got[i], 0) || (math.IsInf(want[i], 0) && want[i] != got[i]) {
			return false
		}
	}
	return sameFloats(infsAsZero(got), infsAsZero(want))
}

func infsAsZero(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		if !math.IsInf(f, 0) {
			out[i] = f
		}
	}
	return out
}
