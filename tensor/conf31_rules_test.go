package tensor_test

import (
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestFactoryOpRules holds rules of PyTorch 1.13 that a fresh variant set
// of the conformance cases found (gen.py seed 31); every expectation is
// what torch 1.13 gives for the same call.
func TestFactoryOpRules(t *testing.T) {
	// trace: the CPU kernel has no bool, float16 or bfloat16 loop, and
	// dispatches before it checks the rank
	for _, d := range []DType{Bool, Float16, BFloat16} {
		wantError(t, "trace "+d.String(), DTypeError, `"trace" not implemented for '`, func() { Ones(d, 2, 3).Trace() })
		wantError(t, "trace 3-D "+d.String(), DTypeError, `"trace" not implemented for '`, func() { Ones(d, 2, 2, 2).Trace() })
	}
	if r := Ones(Int8, 2, 3).Trace(); r.DType() != Int64 || r.Float64s()[0] != 2 {
		t.Errorf("trace(int8 ones [2, 3]) = %v %v, want int64 2", r.DType(), r.Float64s())
	}

	// repeat_interleave(repeats): the result has the counts' dtype
	r := RepeatInterleaveCounts(FromSlice([]int32{2, 0, 1}, 3))
	if r.DType() != Int32 || !slices.Equal(r.Float64s(), []float64{0, 0, 2}) {
		t.Errorf("repeat_interleave(int32 [2 0 1]) = %v %v, want int32 [0 0 2]", r.DType(), r.Float64s())
	}
	if r := RepeatInterleaveCounts(Zeros(Int32, 0)); r.DType() != Int32 || r.NumEl() != 0 {
		t.Errorf("repeat_interleave(int32 []) = %v of %d elements, want int32 empty", r.DType(), r.NumEl())
	}
	// float counts: the length is checked first, then the dtype, and the
	// values (a negative one) never
	x := Ones(Float32, 2, 2)
	wantError(t, "repeat_interleave float counts", DTypeError, `"repeat_interleave_cpu" not implemented for 'Float'`,
		func() { x.RepeatInterleaveBy(FromSlice([]float32{1, -1}, 2), 1) })
	wantError(t, "repeat_interleave one float count", DTypeError, `"repeat_interleave_cpu" not implemented for 'Float'`,
		func() { x.RepeatInterleaveBy(FromSlice([]float32{-1}, 1), 1) })
	wantError(t, "repeat_interleave float counts of the wrong length", ShapeError, "repeats must have the same size as input along dim",
		func() { x.RepeatInterleaveBy(FromSlice([]float32{1, 2, 3}, 3), 1) })
	wantError(t, "repeat_interleave negative int32 count", ValueError, "repeats can not be negative",
		func() { RepeatInterleaveCounts(FromSlice([]int32{1, -1}, 2)) })

	// pad: with no positive pad, constant_pad_nd returns the narrowed
	// input and never reads the fill value
	p := FromSlice([]int8{1, 2, 3, 4, 5, 6}, 2, 3).Pad([]int{0, -1, -1, 0}, PadConstant, 1000)
	if !slices.Equal(p.Shape(), []int{1, 2}) || !slices.Equal(p.Float64s(), []float64{4, 5}) {
		t.Errorf("pad int8 [0 -1 -1 0] value 1000 = %v %v, want [1 2] [4 5]", p.Shape(), p.Float64s())
	}
	wantError(t, "pad int8 [1 0] value inf", ValueError, "value cannot be converted to type int8_t without overflow",
		func() { FromSlice([]int8{1, 2, 3}, 3).Pad([]int{1, 0}, PadConstant, 1e300) })
	wantError(t, "pad int8 [-1 1] value inf", ValueError, "value cannot be converted to type int8_t without overflow",
		func() { FromSlice([]int8{1, 2, 3}, 3).Pad([]int{-1, 1}, PadConstant, 1e300) })

	// cross: the sizes (linalg_cross's meta function) before the dtypes
	// (the kernel's check)
	a, b := Ones(Float32, 2, 3), Ones(Float64, 2, 3)
	wantError(t, "cross float32 float64", DTypeError, "expected scalar type Float but found Double", func() { Cross(a, b, 1) })
	wantError(t, "cross dim 0 of size 2", ShapeError, "linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2", func() { Cross(a, b, 0) })
	wantError(t, "cross empty", ShapeError, "linalg.cross: inputs dimension 0 must have length 3. Got 0 and 0",
		func() { Cross(Zeros(Float32, 0, 4, 0), Zeros(Float64, 0, 4, 0), 0) })
}

// TestIndexAutogradRules holds rules of PyTorch 1.13 that the seed-31
// variants of the index_autograd suite found; expectations are torch's.
func TestIndexAutogradRules(t *testing.T) {
	// index_add_ refuses an index out of [0, size) even where self is
	// empty and nothing is added
	for _, c := range []struct {
		x, src []int
		dim    int
		index  []int64
	}{
		{[]int{0, 6}, []int{0, 1}, -1, []int64{10}},
		{[]int{0, 6}, []int{0, 1}, -1, []int64{-1}},
		{[]int{2, 0}, []int{1, 0}, 0, []int64{5}},
	} {
		wantError(t, "index_add into an empty self", IndexError, "index out of range in self", func() {
			IndexAdd(Zeros(Float64, c.x...), c.dim, FromSlice(c.index, len(c.index)), Ones(Float64, c.src...))
		})
	}
	if r := IndexAdd(Zeros(Float64, 0, 6), 1, FromSlice([]int64{5}, 1), Ones(Float64, 0, 1)); !slices.Equal(r.Shape(), []int{0, 6}) {
		t.Errorf("index_add of an index in range into [0 6] has shape %v", r.Shape())
	}

	// masked_fill's value gradient is masked_select's, which refuses a
	// mask neither bool nor uint8 (x's alone does not)
	for _, m := range []*Tensor{FromSlice([]int32{1, 0, 1}, 3), Zeros(Float16, 3)} {
		x := FromSlice([]float64{1, 2, 3}, 3).SetRequiresGrad(true)
		v := ZeroDim(-2.0).SetRequiresGrad(true)
		y := MaskedFill(x, m, v)
		wantError(t, "masked_fill backward, "+m.DType().String()+" mask", DTypeError, "masked_select: expected BoolTensor or ByteTensor for mask",
			func() { y.Sum().Backward() })
	}
	x := FromSlice([]float64{1, 2, 3}, 3).SetRequiresGrad(true)
	v := ZeroDim(-2.0).SetRequiresGrad(true)
	MaskedFill(x, FromSlice([]uint8{1, 0, 1}, 3), v).Sum().Backward()
	if g := v.Grad().Float64s(); g[0] != 2 {
		t.Errorf("masked_fill with a uint8 mask: value grad %v, want 2", g)
	}
	x = FromSlice([]float64{1, 2, 3}, 3).SetRequiresGrad(true)
	MaskedFill(x, FromSlice([]int32{1, 0, 1}, 3), Scalar(-2.0)).Sum().Backward()
	if g := x.Grad().Float64s(); !slices.Equal(g, []float64{0, 1, 0}) {
		t.Errorf("masked_fill with an int32 mask: grad of x %v, want [0 1 0]", g)
	}

	// diagonal's gradient is the diagonal of zeros of x's shape, also for
	// an expanded x whose elements share storage
	for _, c := range []struct {
		cols, offset, dim1, dim2 int
		want                     []float64
	}{
		{3, 0, -1, 0, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{4, 1, 0, 1, []float64{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}},
	} {
		x := FromSlice([]float64{1, 2, 3}, 3, 1).Expand(3, c.cols).SetRequiresGrad(true)
		x.Diagonal(c.offset, c.dim1, c.dim2).Sum().Backward()
		if g := x.Grad().Float64s(); !slices.Equal(g, c.want) {
			t.Errorf("diagonal(%d, %d, %d) of an expanded [3 %d]: grad %v, want %v", c.offset, c.dim1, c.dim2, c.cols, g, c.want)
		}
	}
}

// TestAsStridedSharedGrad holds as_strided's gradient over elements that
// share storage positions to PyTorch 1.13's as_strided_backward: a
// result whose elements overlap adds their gradients up per position; an
// input whose elements overlap shares each position's gradient among
// them (the counting); positions the input does not cover get none.
// Expected values are torch's.
func TestAsStridedSharedGrad(t *testing.T) {
	expanded := func() *Tensor { // [3, 3], strides [1, 0]: a leaf whose rows share one position
		return FromSlice([]float64{0, 1, 2}, 3).AsStrided([]int{3, 3}, []int{1, 0}).Detach().SetRequiresGrad(true)
	}
	for _, c := range []struct {
		name string
		x    func() *Tensor
		y    func(x *Tensor) *Tensor
		w    *Tensor
		want []float64
	}{
		{"overlapping result", func() *Tensor { return Arange(0, 4, 1, Float64).SetRequiresGrad(true) },
			func(x *Tensor) *Tensor { return x.AsStrided([]int{3, 2}, []int{1, 1}) },
			FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2), []float64{1, 5, 9, 6}},
		{"overlapping input", expanded,
			func(x *Tensor) *Tensor { return x.AsStrided([]int{2}, []int{1}) },
			FromSlice([]float64{10, 20}, 2), []float64{10. / 3, 10. / 3, 10. / 3, 20. / 3, 20. / 3, 20. / 3, 0, 0, 0}},
		{"both", expanded,
			func(x *Tensor) *Tensor { return x.AsStridedAt([]int{2, 2}, []int{1, 1}, 0) },
			FromSlice([]float64{1, 2, 3, 4}, 2, 2), []float64{1. / 3, 1. / 3, 1. / 3, 5. / 3, 5. / 3, 5. / 3, 4. / 3, 4. / 3, 4. / 3}},
		{"transposed", expanded,
			func(x *Tensor) *Tensor { return x.AsStrided([]int{3, 3}, []int{0, 1}) },
			Arange(0, 9, 1, Float64).Reshape(3, 3), []float64{3, 3, 3, 4, 4, 4, 5, 5, 5}},
	} {
		x := c.x()
		c.y(x).Mul(c.w).Sum().Backward()
		if g := x.Grad().Float64s(); !sameFloats(g, c.want) {
			t.Errorf("as_strided backward, %s: grad %v, want %v", c.name, g, c.want)
		}
	}
	// its gradient is differentiable: torch's grad of sum(y²) and the
	// grad of that grad's sum
	x := Arange(0, 4, 1, Float64).SetRequiresGrad(true)
	g := Grad([]*Tensor{x.AsStrided([]int{3, 2}, []int{1, 1}).Square().Sum()}, []*Tensor{x}, nil, GradOptions{CreateGraph: true})[0]
	if got := g.Float64s(); !sameFloats(got, []float64{0, 4, 8, 6}) {
		t.Errorf("as_strided overlapping: grad %v, want [0 4 8 6]", got)
	}
	g.Sum().Backward()
	if got := x.Grad().Float64s(); !sameFloats(got, []float64{2, 4, 4, 2}) {
		t.Errorf("as_strided overlapping: second-order grad %v, want [2 4 4 2]", got)
	}
}
