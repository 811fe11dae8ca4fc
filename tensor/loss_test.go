package tensor_test

import (
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	. "github.com/goten-ml/goten/tensor"
)

// TestLossGradients checks the losses' gradients, of the input and of a
// float target, first and second order, against finite differences, with
// their options (Note [Losses as compositions]). Inputs keep away from the
// kinks, where finite differences are meaningless.
func TestLossGradients(t *testing.T) {
	g := NewGenerator(11)
	classes := FromSlice([]int64{2, 0, -100, 1}, 4)
	weight := FromSlice([]float64{0.5, 2, 1.5}, 3)
	cases := []struct {
		name   string
		inputs func() []*Tensor
		f      func(x, y *Tensor) *Tensor
	}{
		{"mse", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 3, 4)} },
			func(x, y *Tensor) *Tensor { return MSELoss(x, y) }},
		{"l1-sum", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, domain{3, 4}, 3, 4)} },
			func(x, y *Tensor) *Tensor { return L1Loss(x, y, LossOptions{Reduction: ReduceLossSum}) }},
		{"smooth_l1-beta", func() []*Tensor { return []*Tensor{draw(g, anywhere, 12), draw(g, anywhere, 12)} },
			func(x, y *Tensor) *Tensor { return SmoothL1Loss(x, y, LossOptions{Beta: 0.7, HasBeta: true}) }},
		{"huber-none", func() []*Tensor { return []*Tensor{draw(g, anywhere, 12), draw(g, anywhere, 12)} },
			func(x, y *Tensor) *Tensor {
				return HuberLoss(x, y, LossOptions{Delta: 0.5, HasDel: true, Reduction: ReduceLossNone})
			}},
		{"cross_entropy-classes", func() []*Tensor { return []*Tensor{draw(g, anywhere, 4, 3), nil} },
			func(x, _ *Tensor) *Tensor {
				return CrossEntropy(x, classes, LossOptions{Weight: weight, LabelSmoothing: 0.2})
			}},
		{"cross_entropy-spatial", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3, 2), nil} },
			func(x, _ *Tensor) *Tensor {
				return CrossEntropy(x, FromSlice([]int64{2, 1, 0, 1}, 2, 2), LossOptions{HasIgnoreIndex: true, IgnoreIndex: 1})
			}},
		{"cross_entropy-probabilities", func() []*Tensor {
			return []*Tensor{draw(g, anywhere, 4, 3), draw(g, positive, 4, 3).Softmax(Over(1)).Detach().SetRequiresGrad(true)}
		}, func(x, y *Tensor) *Tensor { return CrossEntropy(x, y, LossOptions{LabelSmoothing: 0.1}) }},
		{"nll", func() []*Tensor { return []*Tensor{draw(g, anywhere, 4, 3), nil} },
			func(x, _ *Tensor) *Tensor { return NLLLoss(x, classes, LossOptions{Weight: weight}) }},
		{"binary_cross_entropy", func() []*Tensor { return []*Tensor{draw(g, domain{0.1, 0.9}, 6), draw(g, domain{0, 1}, 6)} },
			func(x, y *Tensor) *Tensor {
				return BinaryCrossEntropy(x, y, LossOptions{Weight: Cat([]*Tensor{weight, weight}, 0)})
			}},
		{"binary_cross_entropy_with_logits", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3), draw(g, domain{0, 1}, 2, 3)} },
			func(x, y *Tensor) *Tensor { return BinaryCrossEntropyWithLogits(x, y, LossOptions{PosWeight: weight}) }},
		{"binary_cross_entropy_with_logits-weight-sum", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3), draw(g, domain{0, 1}, 2, 3)} },
			func(x, y *Tensor) *Tensor {
				return BinaryCrossEntropyWithLogits(x, y, LossOptions{Weight: weight, Reduction: ReduceLossSum})
			}},
		{"kl_div", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3), draw(g, positive, 2, 3)} },
			func(x, y *Tensor) *Tensor { return KLDiv(x, y, LossOptions{Reduction: ReduceLossBatchMean}) }},
		{"kl_div-log_target", func() []*Tensor { return []*Tensor{draw(g, anywhere, 2, 3), draw(g, anywhere, 2, 3)} },
			func(x, y *Tensor) *Tensor { return KLDiv(x, y, LossOptions{LogTarget: true}) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := func(in []*Tensor) []*Tensor { return []*Tensor{c.f(in[0], in[1])} }
			if err := gradcheck.Check(f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("first derivative: %v", err)
			}
			if err := gradcheck.CheckSecond(f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("second derivative: %v", err)
			}
		})
	}
}

// TestBinaryCrossEntropyEdges checks PyTorch's gradient where x is 0 or 1
// (the logs clamped at −100): (x − t)/max(x(1 − x), 1e−12), finite, and
// the loss itself 100·w there.
func TestBinaryCrossEntropyEdges(t *testing.T) {
	x := FromSlice([]float64{0, 1, 0.25}, 3).SetRequiresGrad(true)
	y := FromSlice([]float64{1, 0.5, 0}, 3)
	l := BinaryCrossEntropy(x, y, LossOptions{Reduction: ReduceLossNone})
	l.Sum().Backward()
	want := []float64{-1e12, 0.5e12, 0.25 / (0.25 * 0.75)}
	got := x.Grad().Float64s()
	for i := range want {
		if d := got[i] - want[i]; d > 1e-6*abs(want[i]) || -d > 1e-6*abs(want[i]) {
			t.Errorf("grad[%d] = %g, want %g", i, got[i], want[i])
		}
	}
	if v := l.Float64s(); v[0] != 100 || v[1] != 50 {
		t.Errorf("losses %v, want 100 and 50 where the logs clamp", v)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestQuadraticBranchesAsTorch pins PyTorch 1.13's huber_loss and
// smooth_l1_loss kernels at their edges: the quadratic branch only where
// z = |x − t| < δ (so z = δ = inf is δ·(z − 0.5·δ), NaN), and as
// (0.5·z)·z, finite where z² overflows (seed 683,
// losses/huber_loss/011: +Inf where torch gives NaN).
func TestQuadraticBranchesAsTorch(t *testing.T) {
	inf := math.Inf(1)
	for _, dt := range []DType{Float64, Float32, BFloat16, Float16} {
		x, y := FromSlice([]float64{inf, 3, -inf, 2}, 4).To(dt), FromSlice([]float64{-2.3, 1, 5, 1}, 4).To(dt)
		got := HuberLoss(x, y, LossOptions{Delta: inf, HasDel: true, Reduction: ReduceLossNone}).Float64s()
		if !math.IsNaN(got[0]) || got[1] != 2 || !math.IsNaN(got[2]) || got[3] != 0.5 {
			t.Errorf("%s huber_loss δ=inf: %v, want [NaN 2 NaN 0.5]", dt, got)
		}
	}
	x, y := FromSlice([]float64{1.4e154, 3e-162}, 2), Zeros(Float64, 2)
	if got, want := HuberLoss(x, y, LossOptions{Delta: 1e155, HasDel: true, Reduction: ReduceLossNone}).Float64s(), []float64{9.8e307, 5e-324}; !slices.Equal(got, want) {
		t.Errorf("huber_loss: %v, want %v", got, want)
	}
	if got, want := SmoothL1Loss(x, y, LossOptions{Beta: 1e155, HasBeta: true, Reduction: ReduceLossNone}).Float64s(), []float64{9.799999999999999e+152, 0}; !slices.Equal(got, want) {
		t.Errorf("smooth_l1_loss: %v, want %v", got, want)
	}
}

// TestCrossEntropySmoothedWeightedMeanWantsInt64 checks PyTorch 1.13's
// dtype error for a uint8 class target with weights, label smoothing and
// the mean reduction, which divides by weight.gather(0, target) (seed
// 691, losses/cross_entropy_error/006), and that the other reductions,
// and no weights, still take the uint8 target.
func TestCrossEntropySmoothedWeightedMeanWantsInt64(t *testing.T) {
	x := FromSlice([]float32{0.5, -1, 2, 0.25, 1, -0.5}, 2, 3)
	tu := FromSlice([]uint8{2, 0}, 2)
	w := FromSlice([]float32{0.75, 1, 0.5}, 3)
	if k := kindOf(func() { CrossEntropy(x, tu, LossOptions{Weight: w, LabelSmoothing: 0.1}) }); k != DTypeError {
		t.Errorf("uint8 target, weight, smoothing, mean: error kind %v, want a dtype error", k)
	}
	// gather checks the dtype of a non-empty index only: every target
	// ignored, or none, takes the mean
	if k := kindOf(func() {
		CrossEntropy(x, tu, LossOptions{Weight: w, LabelSmoothing: 0.1, IgnoreIndex: 2, HasIgnoreIndex: true})
	}); k != DTypeError {
		t.Errorf("one target ignored of two: error kind %v, want a dtype error", k)
	}
	same := FromSlice([]uint8{1, 1}, 2)
	if got := CrossEntropy(x, same, LossOptions{Weight: w, LabelSmoothing: 0.1, IgnoreIndex: 1, HasIgnoreIndex: true}).Float64s(); len(got) != 1 || !math.IsNaN(got[0]) {
		t.Errorf("every target ignored: %v, want NaN (0/0)", got)
	}
	if got := CrossEntropy(Zeros(Float32, 0, 3), Zeros(Uint8, 0), LossOptions{Weight: w, LabelSmoothing: 0.1}).Float64s(); len(got) != 1 || !math.IsNaN(got[0]) {
		t.Errorf("an empty batch: %v, want NaN (0/0)", got)
	}
	for _, o := range []LossOptions{{Weight: w, LabelSmoothing: 0.1, Reduction: ReduceLossSum}, {LabelSmoothing: 0.1}, {Weight: w}} {
		want := CrossEntropy(x, tu.To(Int64), o).Float64s()
		if got := CrossEntropy(x, tu, o).Float64s(); !slices.Equal(got, want) {
			t.Errorf("%+v: uint8 target %v, int64 %v", o, got, want)
		}
	}
}
