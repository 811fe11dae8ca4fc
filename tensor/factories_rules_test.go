package tensor_test

import (
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestFactoryDTypeRules checks PyTorch 1.13's rules that the conformance
// variants found in einsum, kron, repeat_interleave, pad and the
// backward of an empty view.
func TestFactoryDTypeRules(t *testing.T) {
	a := FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	// nothing contracted: a product, which promotes
	if y := Einsum("ij,jk->ik", a, FromSlice([]int32{2}, 1, 1)); y.DType() != Float64 || !slices.Equal(y.Float64s(), []float64{12, 30}) {
		t.Errorf("einsum over a broadcast j: %v %v", y.DType(), y.Float64s())
	}
	// a real contraction of two dtypes: bmm refuses them
	if k := kindOf(func() { Einsum("ij,jk->ik", a, Ones(Int32, 3, 2)) }); k != DTypeError {
		t.Errorf("einsum contracting float64 with int32: %q, want a dtype error", k)
	}
	// kron views its product: a transposed input is a view error
	if k := kindOf(func() { Kron(Ones(Float32, 2, 2).T(), Ones(Float32, 3, 1)) }); k != ViewError {
		t.Errorf("kron of a transposed matrix: %q, want a view error", k)
	}
	if y := Kron(Ones(Float32, 2, 2), Ones(Float32, 3, 1)); !slices.Equal(y.Shape(), []int{6, 2}) {
		t.Errorf("kron shape %v", y.Shape())
	}
	x := FromSlice([]int64{7, 8}, 2)
	if k := kindOf(func() { x.RepeatInterleaveBy(FromSlice([]int8{1, 2}, 2)) }); k != DTypeError {
		t.Errorf("repeat_interleave with int8 repeats: %q, want a dtype error", k)
	}
	if y := x.RepeatInterleaveBy(FromSlice([]int32{1, 2}, 2)); !slices.Equal(y.Int64s(), []int64{7, 8, 8}) {
		t.Errorf("repeat_interleave with int32 repeats: %v", y.Int64s())
	}
	if k := kindOf(func() { Ones(Int32, 1, 2, 2).Pad([]int{1, 1}, PadReplicate, 0) }); k != DTypeError {
		t.Errorf("replicate pad of int32: %q, want a dtype error", k)
	}
	// an empty diagonal of an expanded tensor: zero gradient
	e := FromSlice([]float64{1, 2, 3, 4}, 4, 1, 1).SetRequiresGrad(true)
	e.Expand(4, 2, 1).Diagonal(5, 0, 2).Sum().Backward()
	if g := e.Grad().Float64s(); !slices.Equal(g, []float64{0, 0, 0, 0}) {
		t.Errorf("grad of an empty diagonal: %v", g)
	}
}
