package tensor_test

import (
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// TestFillValuesChecked: the value of masked_fill, index_fill and scatter
// must fit the tensor's dtype (PyTorch's checked_convert, Note [Checked
// scalars] in package op), before anything is written; a value that fits
// is written.
func TestFillValuesChecked(t *testing.T) {
	x := tensor.Zeros(tensor.Int8, 3)
	m := tensor.FromSlice([]bool{true, false, true})
	idx := tensor.FromSlice([]int64{1})
	const msg = "value cannot be converted to type int8_t without overflow"
	for _, v := range []*tensor.Tensor{tensor.Scalar(1000), tensor.ZeroDim(int64(-129))} {
		wantError(t, "masked_fill", tensor.ValueError, msg, func() { tensor.MaskedFill(x, m, v) })
		wantError(t, "masked_fill_", tensor.ValueError, msg, func() { x.MaskedFillInPlace(m, v) })
		wantError(t, "index_fill", tensor.ValueError, msg, func() { tensor.IndexFill(x, 0, idx, v) })
		wantError(t, "index_fill_", tensor.ValueError, msg, func() { x.IndexFillInPlace(0, idx, v) })
	}
	wantError(t, "scatter", tensor.ValueError, msg, func() { tensor.Scatter(x, 0, idx, tensor.Scalar(1000)) })
	wantError(t, "scatter_", tensor.ValueError, msg, func() { x.ScatterInPlace(0, idx, tensor.Scalar(-200)) })
	if got := x.Int64s(); got[0] != 0 || got[1] != 0 || got[2] != 0 {
		t.Fatalf("a refused fill wrote %v", got)
	}
	if got := tensor.MaskedFill(x, m, tensor.Scalar(127)).Int64s(); got[0] != 127 || got[1] != 0 {
		t.Errorf("masked_fill 127 into int8: %v", got)
	}
	if got := tensor.Scatter(x, 0, idx, tensor.Scalar(-128)).Int64s(); got[1] != -128 {
		t.Errorf("scatter -128 into int8: %v", got)
	}
}

// TestMaskedFillShapesBeforeValue: where mask and self do not broadcast
// and the value does not fit self's dtype, masked_fill and masked_fill_
// report the shapes, as PyTorch does (it converts the value in its kernel,
// after its iterator's checks), and write nothing. Seed 617 found the
// value error reported first.
func TestMaskedFillShapesBeforeValue(t *testing.T) {
	x := tensor.Zeros(tensor.Uint8, 2, 5)
	m := tensor.Ones(tensor.Bool, 2, 3)
	const msg = "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 1"
	v := tensor.ZeroDim(float32(-3))
	wantError(t, "masked_fill_", tensor.ShapeError, msg, func() { x.MaskedFillInPlace(m, v) })
	wantError(t, "masked_fill", tensor.ShapeError, "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1", func() { tensor.MaskedFill(x, m, v) })
	unchanged(t, "masked_fill_", x, make([]float64, 10))
}
