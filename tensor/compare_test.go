package tensor_test

import (
	"math"
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestIsClose checks torch.isclose's rule on its edge cases: the
// tolerance relative to b, infinities, NaN with and without equalNaN,
// broadcasting and integers; and AllClose and Equal.
func TestIsClose(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	a := FromSlice([]float64{1, 1, 100, inf, inf, nan, 0}, 7)
	b := FromSlice([]float64{1.05, 1.2, 110, inf, -inf, nan, 1e-9}, 7)
	got := ToSlice[bool](IsClose(a, b, 0.1, 0, false))
	// |1 − 1.05| ≤ 0.105; |1 − 1.2| > 0.12; |100 − 110| ≤ 11; inf = inf;
	// inf ≠ −inf; NaN; |0 − 1e−9| > 1e−10 (no atol)
	want := []bool{true, false, true, true, false, false, false}
	if !slices.Equal(got, want) {
		t.Errorf("isclose %v, want %v", got, want)
	}
	got = ToSlice[bool](IsClose(a, b, 0.1, 1e-8, true))
	want = []bool{true, false, true, true, false, true, true}
	if !slices.Equal(got, want) {
		t.Errorf("isclose with atol and equalNaN %v, want %v", got, want)
	}
	ints := IsClose(FromSlice([]int64{10, 10}, 2), FromSlice([]int64{11}, 1), 0.1, 0, false)
	if !slices.Equal(ToSlice[bool](ints), []bool{true, true}) || !slices.Equal(ints.Shape(), []int{2}) {
		t.Errorf("integer isclose broadcast: %v %v", ToSlice[bool](ints), ints.Shape())
	}
	if AllClose(a, b, 0.1, 0, false) || !AllClose(b, b.Clone().Add(Scalar(1e-12)), 1e-9, 1e-11, true) {
		t.Errorf("allclose")
	}
	if !Equal(b.Narrow(0, 0, 3), FromSlice([]float64{1.05, 1.2, 110}, 3)) || Equal(b, b) || Equal(a.Narrow(0, 0, 2), a.Narrow(0, 0, 2).Reshape(2, 1)) {
		t.Errorf("equal: NaN equals nothing and shapes must match")
	}
	if err := Try(func() { IsClose(a, FromSlice([]float32{1}, 1), 0, 0, false) }); err == nil {
		t.Errorf("isclose of float64 and float32 ran")
	}
}
