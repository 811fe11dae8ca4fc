package tensor_test

import (
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// kindOf returns the kind of the error f panics with, or 0 if none.
func kindOf(f func()) ErrorKind {
	if e, ok := Try(f).(*Error); ok {
		return e.Kind
	}
	return 0
}

// TestIndexDTypeRules checks PyTorch 1.13's rules on the dtypes of index
// tensors and masks that the conformance variants found: an empty index
// of any dtype, 0-dim integer indices, masks of 0s and 1s of another
// dtype, and the order of index's checks.
func TestIndexDTypeRules(t *testing.T) {
	x := FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	empty16 := Zeros(Int16, 2, 0)
	if g := x.Gather(1, empty16); !slices.Equal(g.Shape(), []int{2, 0}) {
		t.Errorf("gather with an empty int16 index: shape %v", g.Shape())
	}
	if k := kindOf(func() { x.Gather(1, Zeros(Int16, 2, 1)) }); k != DTypeError {
		t.Errorf("gather with a non-empty int16 index: %q, want a dtype error", k)
	}
	if y := ScatterAdd(x, 1, empty16, Zeros(Float64, 2, 0)); !slices.Equal(y.Float64s(), x.Float64s()) {
		t.Errorf("scatter_add with an empty int16 index changed the values: %v", y.Float64s())
	}
	// a 0-dim integer tensor of any dtype but uint8 selects
	if y := x.Index(Idx(Full(Scalar(-1), Int8))); !slices.Equal(y.Float64s(), []float64{4, 5, 6}) {
		t.Errorf("x[int8(-1)] = %v", y.Float64s())
	}
	if k := kindOf(func() { x.Index(Idx(Full(Scalar(1), Int8, 1))) }); k != DTypeError {
		t.Errorf("x[int8 [1]]: %q, want a dtype error", k)
	}
	// Python's items (an integer out of range) fail before the dtype check
	if k := kindOf(func() { x.Index(Pos(5), Idx(Full(Scalar(0), Int16, 1))) }); k != IndexError {
		t.Errorf("x[5, int16 [0]]: %q, want an index error", k)
	}
	// a nonempty index into an empty dim
	if k := kindOf(func() { Zeros(Float32, 0, 3).Index(Idx(FromSlice([]int64{0}, 1))) }); k != IndexError {
		t.Errorf("index into an empty dim: %q, want an index error", k)
	}
	// masks of 0s and 1s of another dtype; other values refused
	m := FromSlice([]int32{1, 0, 1}, 3)
	if y := MaskedFill(FromSlice([]float64{1, 2, 3}, 3), m, Scalar(0)); !slices.Equal(y.Float64s(), []float64{0, 2, 0}) {
		t.Errorf("masked_fill with an int32 mask: %v", y.Float64s())
	}
	if k := kindOf(func() { MaskedFill(FromSlice([]float64{1, 2, 3}, 3), FromSlice([]int32{1, 0, 2}, 3), Scalar(0)) }); k != ValueError {
		t.Errorf("masked_fill with a mask holding 2: %q, want a value error", k)
	}
	if y := MaskedScatter(FromSlice([]float64{1, 2, 3}, 3), m, FromSlice([]float64{7, 8}, 2)); !slices.Equal(y.Float64s(), []float64{7, 2, 8}) {
		t.Errorf("masked_scatter with an int32 mask: %v", y.Float64s())
	}
	// index_put_ with one mask and one value is masked_fill: the value is converted
	a := FromSlice([]int16{1, 2, 3}, 3)
	a.IndexPutInPlace([]Item{Idx(FromSlice([]bool{true, false, true}, 3))}, Full(Scalar(-7.5), Float64), false)
	if got := a.Int64s(); !slices.Equal(got, []int64{-7, 2, -7}) {
		t.Errorf("index_put_ of a float64 value through a mask into int16: %v", got)
	}
}
