package tensor_test

// More rules of PyTorch 1.13 that goten did not follow (kl_div's dtypes,
// cross of operands of two ranks, clamp of float16), each pinned to
// torch's results.

import (
	"math"
	"slices"
	"strings"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestKLDivDTypes: PyTorch 1.13's kl_div refuses an integer or bool
// operand (either one), refuses a float16 target with log_target (exp has
// no float16 CPU kernel), and otherwise computes xlogy(t, t) − t·x in the
// steps' dtypes: a bfloat16 t's xlogy is bfloat16 (its log rounded
// first), a float16 t's rounded once; t's gradient is NaN where t is 0.
// batchmean of a 0-dim x is the sum. The expectations are torch's.
func TestKLDivDTypes(t *testing.T) {
	f64 := func(xs ...float64) *Tensor { return FromSlice(xs, len(xs)) }
	none := LossOptions{Reduction: ReduceLossNone}
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"int64 x", func() { KLDiv(FromSlice([]int64{1}, 1), f64(0.5)) }, DTypeError},
		{"bool t", func() { KLDiv(f64(-1), FromSlice([]bool{true}, 1)) }, DTypeError},
		{"uint8 t, log_target", func() { KLDiv(f64(-1), FromSlice([]uint8{1}, 1), LossOptions{LogTarget: true}) }, DTypeError},
		{"int32 t of another shape", func() { KLDiv(f64(-1, -2), FromSlice([]int32{1, 2, 3}, 3)) }, DTypeError},
		{"float16 t, log_target", func() { KLDiv(f64(-1), f64(-0.5).To(Float16), LossOptions{LogTarget: true}) }, DTypeError},
		{"float16 x, log_target", func() { KLDiv(f64(-1).To(Float16), f64(-0.5).To(BFloat16), LossOptions{LogTarget: true}) }, 0},
		{"float16 t", func() { KLDiv(f64(-1), f64(0.5).To(Float16)) }, 0},
		{"shapes", func() { KLDiv(f64(-1, -2), f64(0.5, 0.25, 0.25)) }, ShapeError},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}

	x := f64(-0.5, -1.25, -2).SetRequiresGrad(true)
	tb := FromSlice([]float64{0, 0.0037689208984375, 0.5}, 3).To(BFloat16).SetRequiresGrad(true)
	y := KLDiv(x, tb, none)
	if got, want := y.Float64s(), []float64{0, -0.016407012939453125, 0.654296875}; y.DType() != Float64 || !slices.Equal(got, want) {
		t.Errorf("kl_div(float64, bfloat16): %v %v, want float64 %v", y.DType(), got, want)
	}
	y.Sum().Backward()
	if got, want := x.Grad().Float64s(), []float64{0, -0.0037689208984375, -0.5}; !slices.Equal(got, want) {
		t.Errorf("x's gradient: %v, want %v", got, want)
	}
	gt := tb.Grad().Float64s()
	if tb.Grad().DType() != BFloat16 || !math.IsNaN(gt[0]) || gt[1] != -3.34375 || gt[2] != 2.3125 {
		t.Errorf("bfloat16 t's gradient: %v %v, want bfloat16 [NaN -3.34375 2.3125]", tb.Grad().DType(), gt)
	}
	th := FromSlice([]float64{0, 0.0037689208984375, 0.5}, 3).To(Float16)
	if got, want := KLDiv(f64(-0.5, -1.25, -2), th, none).Float64s(), []float64{0, -0.016315460205078125, 0.6533203125}; !slices.Equal(got, want) {
		t.Errorf("kl_div(float64, float16): %v, want %v", got, want)
	}
	bm := LossOptions{Reduction: ReduceLossBatchMean}
	if got := KLDiv(Full(Scalar(-1.0), Float32), Full(Scalar(0.5), Float32), bm).Float64s()[0]; got != 0.1534264087677002 {
		t.Errorf("batchmean of 0-dim: %v, want the sum 0.1534264087677002", got)
	}
	if got := KLDiv(FromSlice([]float32{-1, -2}, 2, 1), FromSlice([]float32{0.5}, 1), bm).Float64s()[0]; got != 0.4034264087677002 {
		t.Errorf("batchmean of [2, 1] and a broadcast target: %v, want 0.4034264087677002", got)
	}
}

// TestCrossRules: PyTorch 1.13's torch.cross (linalg.cross) refuses
// operands of two ranks rather than broadcasting them, checks the dim
// against the first operand, then the sizes along it, then broadcasts the
// other dims, then dispatches on the first operand's dtype (no bool or
// float16 kernel) before comparing the second's. Without a dim it takes
// the first dim of size 3 of the first operand. The expectations are
// torch's.
func TestCrossRules(t *testing.T) {
	z := func(dt DType, sh ...int) *Tensor { return Zeros(dt, sh...) }
	for _, c := range []struct {
		name string
		f    func() *Tensor
		want ErrorKind
	}{
		{"[2,3] × [3]", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float32, 3), -1) }, ShapeError},
		{"[3] × [2,3] dim 0", func() *Tensor { return Cross(z(Float32, 3), z(Float32, 2, 3), 0) }, ShapeError},
		{"[2,3] × [1,3]", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float32, 1, 3), 1) }, 0},
		{"[2,3] dim 2", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float32, 2, 3), 2) }, IndexError},
		{"[2,3] dim 0", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float32, 2, 3), 0) }, ShapeError},
		{"float32 [2,3] × float64 [5,3]", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float64, 5, 3), 1) }, ShapeError},
		{"float32 × float64", func() *Tensor { return Cross(z(Float32, 2, 3), z(Float64, 2, 3), 1) }, DTypeError},
		{"float16 × float32", func() *Tensor { return Cross(z(Float16, 2, 3), z(Float32, 2, 3), 1) }, DTypeError},
		{"bool", func() *Tensor { return Cross(z(Bool, 3), z(Bool, 3), 0) }, DTypeError},
		{"bfloat16", func() *Tensor { return Cross(z(BFloat16, 3), z(BFloat16, 3), 0) }, 0},
		{"uint8", func() *Tensor { return Cross(z(Uint8, 3), z(Uint8, 3), 0) }, 0},
		{"no dim: [2,2]", func() *Tensor { a := z(Float32, 2, 2); return Cross(a, a, CrossDim(a)) }, ShapeError},
		{"0-dim, dim 0", func() *Tensor { return Cross(z(Float32), z(Float32), 0) }, IndexError},
		{"0-dim, no dim", func() *Tensor { a := z(Float32); return Cross(a, a, CrossDim(a)) }, ShapeError},
	} {
		if got := kindOf(func() { c.f() }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
	// [3, 2] × [3, 1] without a dim: dim 0, the other dim broadcast
	a := FromSlice([]float64{1, 0, 0, 1, 0, 0}, 3, 2)
	b := FromSlice([]float64{0, 1, 0}, 3, 1)
	r := Cross(a, b, CrossDim(a))
	if got, want := r.Float64s(), []float64{0, 0, 0, 0, 1, 0}; !slices.Equal(r.Shape(), []int{3, 2}) || !slices.Equal(got, want) {
		t.Errorf("cross([3,2], [3,1]) without a dim: %v %v, want [3 2] %v", r.Shape(), got, want)
	}
}

// TestClampFloat16AndNumberOut: PyTorch 1.13's CPU clamp kernels have no
// float16 loop (bfloat16 they have): clamp with Go-number bounds or two
// tensor bounds refuses a float16 compute dtype, where one tensor bound
// alone runs maximum's or minimum's kernel, which takes it; two number
// bounds of which one is NaN fill the result with NaN before any kernel.
// The Number overloads are unary ops over x cast to the result dtype, so
// an out= of another dtype is a dtype error, checked first. The
// expectations are torch's.
func TestClampFloat16AndNumberOut(t *testing.T) {
	h := func() *Tensor { return FromSlice([]float64{0.5, 2, -1}, 3).To(Float16) }
	hb := func() *Tensor { return Zeros(Float16, 3) }
	for _, c := range []struct {
		name string
		f    func() *Tensor
		want ErrorKind
	}{
		{"clamp(f16, 0, 1)", func() *Tensor { return h().Clamp(Scalar(0.0), Scalar(1.0)) }, DTypeError},
		{"clamp(f16, min=0)", func() *Tensor { return h().Clamp(Scalar(0.0), nil) }, DTypeError},
		{"clamp(f16, max=1)", func() *Tensor { return h().Clamp(nil, Scalar(1.0)) }, DTypeError},
		{"clamp(f16, t, t)", func() *Tensor { return h().Clamp(hb(), hb()) }, DTypeError},
		{"clamp_(f16, 0, 1)", func() *Tensor { return h().ClampInPlace(Scalar(0.0), Scalar(1.0)) }, DTypeError},
		{"clamp(f16, min=t)", func() *Tensor { return h().Clamp(hb(), nil) }, 0},
		{"clamp(f16, max=t)", func() *Tensor { return h().Clamp(nil, hb()) }, 0},
		{"clamp(f16, f32 t, f32 t)", func() *Tensor { return h().Clamp(Zeros(Float32, 3), Ones(Float32, 3)) }, 0},
		{"clamp(bf16, 0, 1)", func() *Tensor { return h().To(BFloat16).Clamp(Scalar(0.0), Scalar(1.0)) }, 0},
		{"clamp(bf16, max=1)", func() *Tensor { return h().To(BFloat16).Clamp(nil, Scalar(1.0)) }, 0},
		{"clamp(int8, min=f16 t)", func() *Tensor { return Zeros(Int8, 3).Clamp(hb(), nil) }, 0},
		{"clamp(f16, nan, 1)", func() *Tensor { return h().Clamp(Scalar(math.NaN()), Scalar(1.0)) }, 0},
		{"clamp(f32, 0, 1, out=f64)", func() *Tensor { return ClampTo(Zeros(Float64, 3), Zeros(Float32, 3), Scalar(0.0), Scalar(1.0)) }, DTypeError},
		{"clamp(f32, max=1, out=f16)", func() *Tensor { return ClampTo(Zeros(Float16, 3), Zeros(Float32, 3), nil, Scalar(1.0)) }, DTypeError},
		{"clamp(f16, nan, 1, out=f32)", func() *Tensor { return ClampTo(Zeros(Float32, 3), h(), Scalar(math.NaN()), Scalar(1.0)) }, DTypeError},
		{"clamp(int8, 0, 1.5, out=f32)", func() *Tensor { return ClampTo(Zeros(Float32, 3), Zeros(Int8, 3), Scalar(0), Scalar(1.5)) }, 0},
		{"clamp(f32, t, t, out=f64)", func() *Tensor { return ClampTo(Zeros(Float64, 3), Zeros(Float32, 3), hb(), hb()) }, 0},
		{"clamp_(int8, 0, 1.5)", func() *Tensor { return Zeros(Int8, 3).ClampInPlace(Scalar(0), Scalar(1.5)) }, DTypeError},
	} {
		if got := kindOf(func() { c.f() }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
	r := h().Clamp(Scalar(math.NaN()), Scalar(1.0))
	if got := r.Float64s(); r.DType() != Float16 || !math.IsNaN(got[0]) || !math.IsNaN(got[1]) || !math.IsNaN(got[2]) {
		t.Errorf("clamp(float16, nan, 1): %v %v, want float16 NaNs", r.DType(), got)
	}
	if got, want := h().Clamp(FromSlice([]float64{1, 1, 1}, 3).To(Float16), nil).Float64s(), []float64{1, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("clamp(float16, min=ones): %v, want %v", got, want)
	}
}

// TestLossAndDivGradOrder pins the order in which PyTorch 1.13's backward
// formulas compute, which a fresh variant set (seed 59) found goten's
// compositions missing: div's −g·((a/b)/b) stays finite where −g·a/b²
// overflows or is inf/inf; mse_loss_backward scales x − t by 2/n before
// g; huber_loss_backward with δ = inf is the quadratic branch's (no
// 0·inf); binary_cross_entropy's weight multiplies in place (the loss
// keeps x's dtype); binary_cross_entropy_with_logits divides by n after
// the product with a float16 g. The expectations are torch's.
func TestLossAndDivGradOrder(t *testing.T) {
	f64 := func(xs ...float64) *Tensor { return FromSlice(xs, len(xs)) }
	a := f64(-1e308, -1e308, 1).SetRequiresGrad(true)
	b := f64(1.5, math.Inf(-1), 2).SetRequiresGrad(true)
	a.Div(b).Backward(f64(3, 3, 1))
	if got, want := b.Grad().Float64s(), []float64{1.3333333333333333e+308, 0, -0.25}; !slices.Equal(got, want) {
		t.Errorf("div's gradient of b: %v, want %v", got, want)
	}

	x := FromSlice([]float32{3, 0}, 2).SetRequiresGrad(true)
	MSELoss(x, FromSlice([]float32{-3.4e38, 1}, 2)).Backward()
	if got, want := x.Grad().Float64s(), []float64{3.3999999521443642e+38, -1}; !slices.Equal(got, want) {
		t.Errorf("mse_loss's gradient: %v, want %v", got, want)
	}

	x = FromSlice([]float32{2.75, -1.5}, 2).SetRequiresGrad(true)
	tt := FromSlice([]float32{-1.9, 0.5}, 2).SetRequiresGrad(true)
	HuberLoss(x, tt, LossOptions{Reduction: ReduceLossSum, Delta: math.Inf(1), HasDel: true}).Backward()
	if got, want := x.Grad().Float64s(), []float64{4.650000095367432, -2}; !slices.Equal(got, want) {
		t.Errorf("huber_loss δ=inf, x's gradient: %v, want %v", got, want)
	}
	if got, want := tt.Grad().Float64s(), []float64{-4.650000095367432, 2}; !slices.Equal(got, want) {
		t.Errorf("huber_loss δ=inf, t's gradient: %v, want %v", got, want)
	}

	l := BinaryCrossEntropy(FromSlice([]float32{0.25}, 1), FromSlice([]float32{0.5}, 1), LossOptions{Reduction: ReduceLossNone, Weight: f64(2.75)})
	if l.DType() != Float32 {
		t.Errorf("binary_cross_entropy of float32 with a float64 weight: %v, want float32", l.DType())
	}

	x = Full(Scalar(2.8779986201538184), Float64, 5).SetRequiresGrad(true)
	y := BinaryCrossEntropyWithLogits(x, Full(Scalar(0.5), Float16, 5))
	y.Backward()
	if got := x.Grad().Float64s()[0]; y.DType() != Float16 || got != 0.08934961036994626 {
		t.Errorf("binary_cross_entropy_with_logits(float64, float16): %v, gradient %v, want float16, 0.08934961036994626", y.DType(), got)
	}
}

// TestLossArgumentChecks: PyTorch 1.13 refuses a NaN β of smooth_l1_loss
// and a NaN δ of huber_loss (its checks are β ≥ 0 and δ > 0), and a
// label_smoothing above 1 of cross_entropy (class or probability
// targets), where a negative one goes. The expectations are torch's.
func TestLossArgumentChecks(t *testing.T) {
	x, y := FromSlice([]float32{-0.75, 0.5}, 2), FromSlice([]float32{-0.25, 1}, 2)
	cls, probs := FromSlice([]int64{1}, 1), FromSlice([]float32{0.25, 0.75}, 1, 2)
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"smooth_l1 β NaN", func() { SmoothL1Loss(x, y, LossOptions{Beta: math.NaN(), HasBeta: true}) }, ValueError},
		{"smooth_l1 β inf", func() { SmoothL1Loss(x, y, LossOptions{Beta: math.Inf(1), HasBeta: true}) }, 0},
		{"huber δ NaN", func() { HuberLoss(x, y, LossOptions{Delta: math.NaN(), HasDel: true}) }, ValueError},
		{"cross_entropy ε 1.5, class", func() { CrossEntropy(x.Reshape(1, 2), cls, LossOptions{LabelSmoothing: 1.5}) }, ValueError},
		{"cross_entropy ε 1.5, probabilities", func() { CrossEntropy(x.Reshape(1, 2), probs, LossOptions{LabelSmoothing: 1.5}) }, ValueError},
		{"cross_entropy ε −0.5", func() { CrossEntropy(x.Reshape(1, 2), cls, LossOptions{LabelSmoothing: -0.5}) }, 0},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestIndexingCheckOrder pins four of PyTorch 1.13's indexing rules that a
// fresh variant set (seed 67) found goten missing: masked_select takes a
// uint8 mask of 0s and 1s (deprecated), checking its dtype, then the
// broadcast, then its values; masked_scatter's broadcast message names
// the mask first; index_add_ checks self's overlaps before the slice
// shapes; index_put_ counts index tensors, not a mask's dims, against
// self's dims, so an oversized mask fails its shape check. The
// expectations are torch's.
func TestIndexingCheckOrder(t *testing.T) {
	u8 := func(xs ...uint8) *Tensor { return FromSlice(xs, len(xs)) }
	if got, want := MaskedSelect(Arange(0, 3, 1, Int64), u8(0, 1, 1)).Float64s(), []float64{1, 2}; !slices.Equal(got, want) {
		t.Errorf("masked_select with a uint8 mask: %v, want %v", got, want)
	}
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"masked_select uint8 mask of 2", func() { MaskedSelect(Zeros(Int64, 3), u8(0, 2, 1)) }, ValueError},
		{"masked_select uint8 mask [5] of [3]", func() { MaskedSelect(Zeros(Int64, 3), Zeros(Uint8, 5)) }, ShapeError},
		{"masked_select float32 mask [5] of [3]", func() { MaskedSelect(Zeros(Int64, 3), Zeros(Float32, 5)) }, DTypeError},
		{"index_add_ expanded self, other slices", func() {
			Zeros(Uint8, 1, 3, 1).Expand(1, 3, 3).IndexAddInPlace(2, FromSlice([]int64{0}, 1), Zeros(Uint8, 3, 3, 1))
		}, OverlapError},
		{"index_add_ other slices", func() { Zeros(Uint8, 1, 3, 3).IndexAddInPlace(2, FromSlice([]int64{0}, 1), Zeros(Uint8, 3, 3, 1)) }, ShapeError},
		{"index_put_ mask [1,2] of [4]", func() { Zeros(Uint8, 4).IndexPutInPlace([]Item{Idx(u8(1, 0).Reshape(1, 2))}, Zeros(Uint8, 1), false) }, ShapeError},
		{"index_put_ mask [2,2] of [2]", func() {
			Zeros(Uint8, 2).IndexPutInPlace([]Item{Idx(u8(1, 0, 0, 1).Reshape(2, 2))}, Zeros(Uint8, 1), false)
		}, IndexError},
		{"index [1,2] mask of [4]", func() { Zeros(Uint8, 4).Index(Idx(u8(1, 0).Reshape(1, 2))) }, IndexError},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
	err := Try(func() { MaskedScatter(Zeros(Float16, 1, 3, 3), Zeros(Bool, 0, 3), Zeros(Float16, 3)) })
	if want := "The size of tensor a (0) must match the size of tensor b (3) at non-singleton dimension 1"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("masked_scatter: %v, want %q", err, want)
	}
}

// TestPadConstantNegative: PyTorch 1.13's constant pad narrows by the
// negative pads first, dim by dim, so a pad beyond the size is narrow's
// index error (an empty dim included), and only then, when some pad is
// positive, wants every padded dim non-empty. The expectations are
// torch's.
func TestPadConstantNegative(t *testing.T) {
	for _, c := range []struct {
		name  string
		shape []int
		pads  []int
		want  ErrorKind
		out   []int
	}{
		{"[2] −3 0", []int{2}, []int{-3, 0}, IndexError, nil},
		{"[2] −2 0", []int{2}, []int{-2, 0}, 0, []int{0}},
		{"[2] −2 −1", []int{2}, []int{-2, -1}, IndexError, nil},
		{"[2] −2 1", []int{2}, []int{-2, 1}, 0, []int{1}},
		{"[0] −1 0", []int{0}, []int{-1, 0}, IndexError, nil},
		{"[0] 2 −1", []int{0}, []int{2, -1}, IndexError, nil},
		{"[0,1] 1 2 −1 1", []int{0, 1}, []int{1, 2, -1, 1}, IndexError, nil},
		{"[0,1] 1 2 0 1", []int{0, 1}, []int{1, 2, 0, 1}, 0, []int{1, 4}},
		{"[2,3] 1 1 −1 −1", []int{2, 3}, []int{1, 1, -1, -1}, ValueError, nil},
		{"[2,0] 0 0 −1 0", []int{2, 0}, []int{0, 0, -1, 0}, 0, []int{1, 0}},
		{"[2,3] −4 1 −3 1", []int{2, 3}, []int{-4, 1, -3, 1}, IndexError, nil},
	} {
		var r *Tensor
		if got := kindOf(func() { r = Zeros(Float32, c.shape...).Pad(c.pads, PadConstant, 0) }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		} else if got == 0 && !slices.Equal(r.Shape(), c.out) {
			t.Errorf("%s: shape %v, want %v", c.name, r.Shape(), c.out)
		}
	}
}

// TestNLLLossEmptyBatchTargetDType: reduced over an empty batch, PyTorch
// 1.13's nll_loss (and cross_entropy's) returns 0 (sum) or NaN (mean)
// without reading the target, so a target of another dtype passes the
// forward and fails the backward; unreduced, or with a batch, it fails at
// once. The expectations are torch's.
func TestNLLLossEmptyBatchTargetDType(t *testing.T) {
	tf := Zeros(Float32, 0)
	if got := NLLLoss(Zeros(Float32, 0, 3), tf, LossOptions{Reduction: ReduceLossSum}).Float64s()[0]; got != 0 {
		t.Errorf("sum over an empty batch: %v, want 0", got)
	}
	if got := CrossEntropy(Zeros(Float64, 0, 3, 2), Zeros(Int32, 0, 2), LossOptions{Reduction: ReduceLossMean}).Float64s()[0]; !math.IsNaN(got) {
		t.Errorf("mean over an empty batch: %v, want NaN", got)
	}
	x := Zeros(Float32, 0, 3).SetRequiresGrad(true)
	y := NLLLoss(x, Zeros(Int32, 0), LossOptions{Reduction: ReduceLossSum})
	if got := kindOf(func() { y.Backward() }); got != DTypeError {
		t.Errorf("backward with an int32 target: error kind %v, want a dtype error", got)
	}
	for name, f := range map[string]func(){
		"none":  func() { NLLLoss(Zeros(Float32, 0, 3), tf, LossOptions{Reduction: ReduceLossNone}) },
		"batch": func() { NLLLoss(Zeros(Float32, 2, 3), Zeros(Float32, 2), LossOptions{Reduction: ReduceLossSum}) },
	} {
		if got := kindOf(f); got != DTypeError {
			t.Errorf("%s: error kind %v, want a dtype error", name, got)
		}
	}
}

// TestBoolProductsEmpty: PyTorch 1.13 has no bool product kernel, but its
// mm, mv, bmm and matmul check the shapes first and return before they
// dispatch when the result is empty or the inner size is 0 (zeros); dot
// dispatches first. The expectations are torch's (seed 73 found it).
func TestBoolProductsEmpty(t *testing.T) {
	b := func(sh ...int) *Tensor { return Zeros(Bool, sh...) }
	for _, c := range []struct {
		name string
		f    func() *Tensor
		want ErrorKind
		out  []int
	}{
		{"mm [2,0]·[0,3]", func() *Tensor { return b(2, 0).Matmul(b(0, 3)) }, 0, []int{2, 3}},
		{"mm [0,2]·[2,3]", func() *Tensor { return Mm(b(0, 2), b(2, 3)) }, 0, []int{0, 3}},
		{"mm [2,3]·[2,3]", func() *Tensor { return Mm(b(2, 3), b(2, 3)) }, ShapeError, nil},
		{"mm [2,1]·[1,3]", func() *Tensor { return Mm(b(2, 1), b(1, 3)) }, DTypeError, nil},
		{"mv [0,6]·[6]", func() *Tensor { return Mv(b(0, 6), b(6)) }, 0, []int{0}},
		{"mv [2,0]·[0]", func() *Tensor { return Mv(b(2, 0), b(0)) }, 0, []int{2}},
		{"bmm [1,2,0]·[1,0,2]", func() *Tensor { return Bmm(b(1, 2, 0), b(1, 0, 2)) }, 0, []int{1, 2, 2}},
		{"matmul [2,0,3]·[2,3,3]", func() *Tensor { return b(2, 0, 3).Matmul(b(2, 3, 3)) }, 0, []int{2, 0, 3}},
		{"matmul [2]·[2,0]", func() *Tensor { return b(2).Matmul(b(2, 0)) }, 0, []int{0}},
		{"matmul [2,2,3]·[2,3,1]", func() *Tensor { return b(2, 2, 3).Matmul(b(2, 3, 1)) }, DTypeError, nil},
		{"dot [0]·[0]", func() *Tensor { return Dot(b(0), b(0)) }, DTypeError, nil},
	} {
		var r *Tensor
		if got := kindOf(func() { r = c.f() }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		} else if got == 0 && (r.DType() != Bool || !slices.Equal(r.Shape(), c.out) || slices.Contains(r.Float64s(), 1)) {
			t.Errorf("%s: %v %v %v, want bool zeros of %v", c.name, r.DType(), r.Shape(), r.Float64s(), c.out)
		}
	}
}

// TestNLLLossNoClasses: with no class (C = 0) and some target, PyTorch
// 1.13's nll_loss of a 3-d or 5-d and larger input fails its 2-d kernel's
// size check (a shape error) before reading the targets, where a 2-d or
// 4-d input reports the first target out of bounds; with no target it is
// NaN. The expectations are torch's.
func TestNLLLossNoClasses(t *testing.T) {
	for _, c := range []struct {
		name   string
		x, tgt []int
		want   ErrorKind
	}{
		{"[4,0,6]", []int{4, 0, 6}, []int{4, 6}, ShapeError},
		{"[4,0,6,2,1]", []int{4, 0, 6, 2, 1}, []int{4, 6, 2, 1}, ShapeError},
		{"[4,0,2,3]", []int{4, 0, 2, 3}, []int{4, 2, 3}, IndexError},
		{"[4,0]", []int{4, 0}, []int{4}, IndexError},
		{"[3,0,0], no target", []int{3, 0, 0}, []int{3, 0}, 0},
		{"[3,0,2,0,1], no target", []int{3, 0, 2, 0, 1}, []int{3, 2, 0, 1}, 0},
	} {
		f := func() { CrossEntropy(Zeros(Float32, c.x...), Zeros(Int64, c.tgt...)) }
		if got := kindOf(f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}
