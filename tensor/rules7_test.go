package tensor_test

// More rules of PyTorch 1.13 that goten did not follow (kl_div's dtypes,
// cross of operands of two ranks, clamp of float16), each pinned to
// torch's results.

import (
	"math"
	"slices"
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
