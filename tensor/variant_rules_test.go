package tensor_test

// The rules of PyTorch 1.13 that fresh variant sets (tools/confgen's
// gen.py with new seeds) found goten missing, each pinned to torch's
// results.

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestIndexSelectChecksIndicesOfEmptySelf: PyTorch 1.13 checks
// index_select's indices against the dim's size even when self has no
// elements (more than one dim), though no element is read; an empty index
// checks nothing. The expectations are torch's.
func TestIndexSelectChecksIndicesOfEmptySelf(t *testing.T) {
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	for _, c := range []struct {
		name  string
		self  []int
		dim   int
		index *Tensor
		want  ErrorKind // 0: no error
	}{
		{"[0,4] dim 1 index 5", []int{0, 4}, 1, i64(5, 1), IndexError},
		{"[0,4] dim 1 index 3", []int{0, 4}, 1, i64(3, 1), 0},
		{"[0,4] dim 1 index -1", []int{0, 4}, 1, i64(-1), IndexError},
		{"[0,4] dim 0 index 5", []int{0, 4}, 0, i64(5), IndexError},
		{"[0,4] dim 0 no index", []int{0, 4}, 0, i64(), 0},
		{"[2,0] dim 0 index 1 0", []int{2, 0}, 0, i64(1, 0), 0},
		{"[2,0] dim 0 index 2", []int{2, 0}, 0, i64(2), IndexError},
		{"[1,0,1] dim -1 index -8", []int{1, 0, 1}, -1, i64(-8, 2), IndexError},
		{"[0,4] dim 1 int32 index 5", []int{0, 4}, 1, FromSlice([]int32{5}, 1), IndexError},
	} {
		var r *Tensor
		got := kindOf(func() { r = IndexSelect(Zeros(Int16, c.self...), c.dim, c.index) })
		if got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
		if got == 0 && r.NumEl() != 0 {
			t.Errorf("%s: %d elements", c.name, r.NumEl())
		}
	}
}

// TestScatterValueCheckOrder: scatter_ of a Go number checks the index's
// dtype, dims and overlaps, and its bounds, before the number against
// self's dtype, as PyTorch 1.13's kernel converts it last; an empty index
// checks no number. The expectations are torch's.
func TestScatterValueCheckOrder(t *testing.T) {
	i8 := func() *Tensor { return Zeros(Int8, 3) }
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"int16 index", func() { i8().ScatterInPlace(0, FromSlice([]int16{0}, 1), Scalar(1000.0)) }, DTypeError},
		{"2-D index", func() { i8().ScatterInPlace(0, FromSlice([]int64{0}, 1, 1), Scalar(1000.0)) }, ShapeError},
		{"index out of bounds", func() { i8().ScatterInPlace(0, FromSlice([]int64{5}, 1), Scalar(1000.0)) }, IndexError},
		{"overlap", func() { Zeros(Int8, 1).Expand(3).ScatterInPlace(0, FromSlice([]int64{0}, 1), Scalar(1000.0)) }, OverlapError},
		{"value", func() { i8().ScatterInPlace(0, FromSlice([]int64{0}, 1), Scalar(1000.0)) }, ValueError},
		{"value, new result", func() { Scatter(i8(), 0, FromSlice([]int64{0}, 1), Scalar(math.Inf(-1))) }, ValueError},
		{"value, reduce add", func() { i8().ScatterInPlace(0, FromSlice([]int64{0}, 1), Scalar(1000.0), ReduceSum) }, ValueError},
		{"empty index", func() { i8().ScatterInPlace(0, FromSlice([]int64{}, 0), Scalar(1000.0)) }, 0},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestIndexWriteEdgeRules pins three of PyTorch 1.13's rules found by the
// variants: masked_select's broadcast error names the mask first;
// index_copy_ and index_fill_ read no index when self, with the indexed
// dim resized to the index's length, has no elements (index_add_ still
// refuses an empty dim); index_put_ into an expanded self checks its
// indices and writes (TestIndexPutExpanded). The expectations are torch's.
func TestIndexWriteEdgeRules(t *testing.T) {
	err := Try(func() { MaskedSelect(Zeros(Float32, 1, 1, 3), Zeros(Bool, 1, 1, 4)) })
	if want := "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 2"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("masked_select: %v, want %q", err, want)
	}
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"index_copy_ [0,0] dim 1 index -1", func() { Zeros(Int64, 0, 0).IndexCopyInPlace(1, i64(-1), Zeros(Int64, 0, 1)) }, 0},
		{"index_copy_ [0,3] dim 1 index 5", func() { Zeros(Int64, 0, 3).IndexCopyInPlace(1, i64(5), Zeros(Int64, 0, 1)) }, 0},
		{"index_copy_ [2,3] dim 1 index 5", func() { Zeros(Int64, 2, 3).IndexCopyInPlace(1, i64(5), Zeros(Int64, 2, 1)) }, IndexError},
		{"index_fill_ [0,0] dim 1 index 5", func() { Zeros(Int64, 0, 0).IndexFillInPlace(1, i64(5), Scalar(1)) }, 0},
		{"index_add_ [0,0] dim 1 index -1", func() { Zeros(Int64, 0, 0).IndexAddInPlace(1, i64(-1), Zeros(Int64, 0, 1)) }, IndexError},
		{"index_put_ expanded, index 6 of 1", func() {
			Zeros(Float16, 1, 1, 5, 1).Expand(1, 1, 5, 6).IndexPutInPlace([]Item{Idx(i64(6, -1))}, Zeros(Float16, 2, 1, 1, 6), true)
		}, IndexError},
		{"index_put_ expanded, in bounds", func() {
			Zeros(Float16, 1, 1, 5, 1).Expand(1, 1, 5, 6).IndexPutInPlace([]Item{Idx(i64(0, -1))}, Zeros(Float16, 2, 1, 1, 6), true)
		}, 0},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestZeroDimTopKKthValue: PyTorch 1.13's topk and kthvalue return a 0-dim
// input itself and index 0 after checking k and before looking at the
// dtype, so a bool one (which their kernels refuse) goes, and topk takes k
// = 0 there. The expectations are torch's.
func TestZeroDimTopKKthValue(t *testing.T) {
	for _, x := range []*Tensor{ZeroDim(true), ZeroDim(float32(2.5)), ZeroDim(int8(-3))} {
		for name, f := range map[string]func() (*Tensor, *Tensor){
			"topk 1":     func() (*Tensor, *Tensor) { return TopK(x, 1, -1, true) },
			"topk 0":     func() (*Tensor, *Tensor) { return TopK(x, 0, 0, false) },
			"kthvalue 1": func() (*Tensor, *Tensor) { return KthValue(x, 1, 0, false) },
		} {
			var v, i *Tensor
			if err := Try(func() { v, i = f() }); err != nil {
				t.Errorf("%v %s: %v", x.DType(), name, err)
				continue
			}
			if v.Dim() != 0 || v.DType() != x.DType() || v.Item() != x.Item() || i.Dim() != 0 || i.DType() != Int64 || i.Item() != 0 {
				t.Errorf("%v %s: %v, %v", x.DType(), name, v, i)
			}
		}
		if kindOf(func() { TopK(x, 2, -1, true) }) != IndexError || kindOf(func() { KthValue(x, 2, 0, false) }) != IndexError {
			t.Errorf("%v: k = 2 of a 0-dim input is not an index error", x.DType())
		}
	}
	if kindOf(func() { TopK(FromSlice([]bool{true, false}, 2), 1, -1, true) }) != DTypeError {
		t.Error("topk of a 1-D bool input: not a dtype error")
	}
}

// TestMaskedFillExpanded: PyTorch 1.13 allows masked_fill_ into an
// expanded tensor (with a deprecation warning) and writes the value only
// where the mask is true, so a shared element takes it if any of its
// places' mask is; memory between the elements stays. The expectations
// are torch's.
func TestMaskedFillExpanded(t *testing.T) {
	a := Arange(0, 4, 1, Uint8).Reshape(1, 4).Expand(4, 4)
	m := Zeros(Bool, 4, 4)
	m.Set(Scalar(true), 2, 1)
	m.Set(Scalar(true), 0, 3)
	a.MaskedFillInPlace(m, Scalar(9))
	if got, want := a.Float64s(), []float64{0, 9, 2, 9, 0, 9, 2, 9, 0, 9, 2, 9, 0, 9, 2, 9}; !slices.Equal(got, want) {
		t.Errorf("uint8 [1,4] expanded to [4,4]: %v, want %v", got, want)
	}
	base := Arange(0, 6, 1, Float32)
	b := base.AsStrided([]int{2, 3}, []int{0, 2})
	b.MaskedFillInPlace(FromSlice([]bool{false, true, false}, 3), Scalar(-1.5))
	if got, want := base.Float64s(), []float64{0, 1, -1.5, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("float32 strides [0, 2]: storage %v, want %v", got, want)
	}
}

// TestReluGradAtNaNAndIdentityOverlap pins two of PyTorch 1.13's rules
// found by the variants: relu's gradient is threshold_backward's, zero
// only where the result is ≤ 0, so a NaN passes the gradient on; an op
// that is the identity on integers (floor_, ceil_, round_, trunc_) still
// refuses to write in place into an expanded tensor.
func TestReluGradAtNaNAndIdentityOverlap(t *testing.T) {
	x := FromSlice([]float64{math.NaN(), 1, -1, 0}, 4).SetRequiresGrad(true)
	x.Relu().Sum().Backward()
	if got, want := x.Grad().Float64s(), []float64{1, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("relu's gradient at NaN, 1, -1, 0: %v, want %v", got, want)
	}
	e := func() *Tensor { return Zeros(Int8, 1, 1).Expand(1, 2).Permute(1, 0) }
	for name, f := range map[string]func(){
		"floor_": func() { e().FloorInPlace() }, "ceil_": func() { e().CeilInPlace() },
		"round_": func() { e().RoundInPlace() }, "trunc_": func() { e().TruncInPlace() },
	} {
		if got := kindOf(f); got != OverlapError {
			t.Errorf("%s of an expanded int8 tensor: error kind %v, want an overlap error", name, got)
		}
	}
	if got := kindOf(func() { Zeros(Int8, 2).FloorInPlace() }); got != 0 {
		t.Errorf("floor_ of an int8 tensor: error kind %v", got)
	}
}

// TestIndexAccumulateDuplicatesAndAlpha pins two findings: a put that
// accumulates into one place from a whole row (an expanded index) adds
// every element in turn in the 16-bit float dtypes too (they once kept
// only the last); index_add_ of an integer tensor takes a float alpha,
// truncated, and refuses one out of the dtype's range, as PyTorch 1.13's
// kernel does. The expectations are torch's.
func TestIndexAccumulateDuplicatesAndAlpha(t *testing.T) {
	for _, dt := range []DType{BFloat16, Float16, Float32, Int8, Int64} {
		src := FromSlice([]float32{1, 2, 4}, 3).To(dt)
		expanded := FromSlice([]int64{0}, 1).Expand(3)
		for name, f := range map[string]func() *Tensor{
			"put_":       func() *Tensor { return Zeros(dt, 2).PutInPlace(expanded, src, true) },
			"index_put_": func() *Tensor { return Zeros(dt, 2).IndexPutInPlace([]Item{Idx(expanded)}, src, true) },
			"index_add_": func() *Tensor {
				return Zeros(dt, 2, 2).IndexAddInPlace(0, FromSlice([]int64{1}, 1).Expand(3), src.Unsqueeze(1).Expand(3, 2)).Select(0, 1)
			},
		} {
			if got := f().Float64s(); got[0] != 7 {
				t.Errorf("%v %s with an expanded index: %v, want 7 first", dt, name, got)
			}
		}
	}
	a := Zeros(Int16, 3).IndexAddInPlace(0, FromSlice([]int64{0, 1}, 2), Ones(Int16, 2), Scalar(-2.5))
	if got, want := a.Float64s(), []float64{-2, -2, 0}; !slices.Equal(got, want) {
		t.Errorf("int16 index_add_ with alpha -2.5: %v, want %v", got, want)
	}
	if got := kindOf(func() { Zeros(Uint8, 3).IndexAddInPlace(0, FromSlice([]int64{0}, 1), Ones(Uint8, 1), Scalar(1e10)) }); got != ValueError {
		t.Errorf("uint8 index_add_ with alpha 1e10: error kind %v, want a value error", got)
	}
}

// TestPreserveFormatAndMaskedSelectGrad: clone keeps the memory order of
// a tensor that is not dense (PyTorch's empty_like with preserve_format
// infers dense strides in that order), and masked_select's gradient is
// PyTorch 1.13's masked_scatter_ into zeros laid out so, which takes the
// gradient in their memory order. The expectations are torch's.
func TestPreserveFormatAndMaskedSelectGrad(t *testing.T) {
	y := Arange(0, 40, 1, Float32).AsStridedAt([]int{2, 6, 2}, []int{8, 1, 17}, 3)
	if got, want := y.Clone().Strides(), []int{6, 1, 12}; !slices.Equal(got, want) {
		t.Errorf("clone of strides [8 1 17]: strides %v, want %v", got, want)
	}
	x := Zeros(Float32, 3, 2).T().Detach().SetRequiresGrad(true)
	m := FromSlice([]bool{true, false, true, true, true, false}, 2, 3)
	MaskedSelect(x, m).Backward(Arange(1, 5, 1, Float32))
	if got, want := x.Grad().Float64s(), []float64{1, 0, 4, 2, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("masked_select's gradient of a transposed input: %v, want %v", got, want)
	}
}

// TestBoolProductsWithoutWork: PyTorch 1.13 has no bool matrix product,
// but refuses bool only in the kernel's dispatch, which a product without
// elements or with k = 0 (zeros) never reaches; dot refuses always. An
// empty addmm or baddbmm of bools scales its input by beta: an integer or
// float beta other than 0 makes int64 or float32, which bool cannot hold;
// linear of a contiguous 3-D x is such an addmm. The products check
// shapes before dtypes, addmm dtypes first. The expectations are torch's.
func TestBoolProductsWithoutWork(t *testing.T) {
	z := func(s ...int) *Tensor { return Ones(Bool, s...) }
	for _, c := range []struct {
		name  string
		f     func() *Tensor
		shape []int
		want  ErrorKind // 0: no error, every element false
	}{
		{"mm n=0", func() *Tensor { return Mm(z(6, 3), z(3, 0)) }, []int{6, 0}, 0},
		{"mm k=0", func() *Tensor { return Mm(z(6, 0), z(0, 2)) }, []int{6, 2}, 0},
		{"mm k=1", func() *Tensor { return Mm(z(6, 1), z(1, 2)) }, nil, DTypeError},
		{"mm k=1 mismatch", func() *Tensor { return Mm(z(6, 1), z(2, 2)) }, nil, ShapeError},
		{"bmm k=0", func() *Tensor { return Bmm(z(3, 6, 0), z(3, 0, 2)) }, []int{3, 6, 2}, 0},
		{"bmm n=0", func() *Tensor { return Bmm(z(3, 6, 1), z(3, 1, 0)) }, []int{3, 6, 0}, 0},
		{"mv m=0", func() *Tensor { return Mv(z(0, 3), z(3)) }, []int{0}, 0},
		{"mv k=0", func() *Tensor { return Mv(z(3, 0), z(0)) }, []int{3}, 0},
		{"mv k=2", func() *Tensor { return Mv(z(3, 2), z(2)) }, nil, DTypeError},
		{"matmul [0]@[0,3]", func() *Tensor { return Matmul(z(0), z(0, 3)) }, []int{3}, 0},
		{"matmul 3-D k=0", func() *Tensor { return Matmul(z(3, 6, 0), z(3, 0, 2)) }, []int{3, 6, 2}, 0},
		{"matmul 3-D@1-D k=0", func() *Tensor { return Matmul(z(3, 6, 0), z(0)) }, []int{3, 6}, 0},
		{"matmul 3-D@1-D", func() *Tensor { return Matmul(z(3, 1, 2), z(2)) }, nil, DTypeError},
		{"matmul batch 0", func() *Tensor { return Matmul(z(0, 6, 1), z(0, 1, 2)) }, []int{0, 6, 2}, 0},
		{"matmul 3-D mismatch", func() *Tensor { return Matmul(z(3, 6, 1), z(3, 2, 2)) }, nil, ShapeError},
		{"dot k=0", func() *Tensor { return Matmul(z(0), z(0)) }, nil, DTypeError},
		{"addmm k=0 beta 0", func() *Tensor { return Addmm(z(6, 2), z(6, 0), z(0, 2), Scalar(0), Scalar(1)) }, []int{6, 2}, 0},
		{"addmm k=0 beta false", func() *Tensor { return Addmm(z(6, 2), z(6, 0), z(0, 2), Scalar(false), Scalar(1)) }, []int{6, 2}, 0},
		{"addmm k=0 beta 1", func() *Tensor { return Addmm(z(6, 2), z(6, 0), z(0, 2), Scalar(1), Scalar(1)) }, nil, DTypeError},
		{"addmm k=0 beta 0.5", func() *Tensor { return Addmm(z(6, 2), z(6, 0), z(0, 2), Scalar(0.5), Scalar(1)) }, nil, DTypeError},
		{"addmm k=1 beta 0", func() *Tensor { return Addmm(z(6, 2), z(6, 1), z(1, 2), Scalar(0), Scalar(1)) }, nil, DTypeError},
		{"addmm n=0 beta 2", func() *Tensor { return Addmm(z(6, 0), z(6, 3), z(3, 0), Scalar(2), Scalar(1)) }, []int{6, 0}, 0},
		{"baddbmm k=0 beta 2", func() *Tensor { return Baddbmm(z(3, 6, 2), z(3, 6, 0), z(3, 0, 2), Scalar(2), Scalar(1)) }, nil, DTypeError},
		// linear folds a contiguous 3-D x into addmm (beta 1), as PyTorch does
		{"linear 3-D k=0", func() *Tensor { return Linear(z(3, 3, 0), z(2, 0), z(2)) }, nil, DTypeError},
		{"linear 2-D k=0", func() *Tensor { return Linear(z(3, 0), z(2, 0), z(2)) }, nil, DTypeError},
		{"linear k=0 without bias", func() *Tensor { return Linear(z(3, 3, 0), z(2, 0), nil) }, []int{3, 3, 2}, 0},
		// shapes are checked before dtypes, except by addmm
		{"bmm float64·float32 mismatch", func() *Tensor { return Bmm(Ones(Float64, 2, 2, 3), Ones(Float32, 2, 2, 2)) }, nil, ShapeError},
		{"mm float64·float32 mismatch", func() *Tensor { return Mm(Ones(Float64, 2, 3), Ones(Float32, 2, 2)) }, nil, ShapeError},
		{"matmul float64·float32 mismatch", func() *Tensor { return Matmul(Ones(Float64, 2, 2, 3), Ones(Float32, 2, 2, 2)) }, nil, ShapeError},
		{"addmm float64 input, 3-D mat1", func() *Tensor {
			return Addmm(Ones(Float64, 2, 2), Ones(Float32, 2, 3, 1), Ones(Float32, 2, 2), Scalar(1), Scalar(1))
		}, nil, DTypeError},
	} {
		var r *Tensor
		if got := kindOf(func() { r = c.f() }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
			continue
		}
		if c.want == 0 && (!slices.Equal(r.Shape(), c.shape) || r.DType() != Bool || slices.Contains(r.Float64s(), 1)) {
			t.Errorf("%s: %v %v %v, want bool zeros of shape %v", c.name, r.DType(), r.Shape(), r.Float64s(), c.shape)
		}
	}
	// beta true keeps the input, as a bias added to an empty product does
	for name, r := range map[string]*Tensor{
		"linear 4-D": Linear(z(1, 3, 3, 0), z(2, 0), z(2)),
		"addmm":      Addmm(z(6, 2), z(6, 0), z(0, 2), Scalar(true), Scalar(1)),
		"baddbmm":    Baddbmm(z(3, 6, 2), z(3, 6, 0), z(3, 0, 2), Scalar(true), Scalar(1)),
	} {
		if slices.Contains(r.Float64s(), 0) {
			t.Errorf("%s k=0 beta true: %v, want the input (all true)", name, r.Float64s())
		}
	}
}

// TestEmptyProductsOfTwoDTypes: an empty product (no elements, or k = 0)
// of two float dtypes is no dtype error in PyTorch 1.13, whose kernels
// check the dtypes only when they run; the result takes the dtype of the
// operand the kernel takes it from (mm: the first, mv: the vector, bmm:
// the second; matmul as the product it folds into). The expectations are
// torch's.
func TestEmptyProductsOfTwoDTypes(t *testing.T) {
	ops := map[string]func(a, b *Tensor) *Tensor{"mm": Mm, "bmm": Bmm, "mv": Mv, "matmul": Matmul}
	for _, c := range []struct {
		op        string
		sa, sb    []int
		takesB    bool // the result has b's dtype (else a's)
		wantShape []int
	}{
		{"mm", []int{0, 3}, []int{3, 2}, false, []int{0, 2}},
		{"mm", []int{2, 3}, []int{3, 0}, false, []int{2, 0}},
		{"mm", []int{2, 0}, []int{0, 2}, false, []int{2, 2}},
		{"bmm", []int{1, 0, 3}, []int{1, 3, 2}, true, []int{1, 0, 2}},
		{"bmm", []int{0, 2, 3}, []int{0, 3, 2}, true, []int{0, 2, 2}},
		{"bmm", []int{1, 2, 0}, []int{1, 0, 2}, true, []int{1, 2, 2}},
		{"mv", []int{0, 3}, []int{3}, true, []int{0}},
		{"mv", []int{2, 0}, []int{0}, true, []int{2}},
		{"matmul", []int{2, 2, 0}, []int{2, 0, 2}, true, []int{2, 2, 2}},
		{"matmul", []int{2, 0, 3}, []int{2, 3, 2}, true, []int{2, 0, 2}},
		{"matmul", []int{2, 2, 0}, []int{0, 2}, false, []int{2, 2, 2}},
		{"matmul", []int{2, 0, 3}, []int{3, 2}, false, []int{2, 0, 2}},
		{"matmul", []int{0, 2}, []int{2, 2, 0}, true, []int{2, 0, 0}},
		{"matmul", []int{0}, []int{2, 0, 2}, false, []int{2, 2}},
		{"matmul", []int{2, 0}, []int{2, 0, 2}, true, []int{2, 2, 2}},
		{"matmul", []int{2, 2, 0}, []int{0}, true, []int{2, 2}},
		{"matmul", []int{0, 3}, []int{3}, true, []int{0}},
		{"matmul", []int{2, 0}, []int{0}, true, []int{2}},
		{"matmul", []int{3}, []int{3, 0}, false, []int{0}},
		{"matmul", []int{0}, []int{0, 2}, false, []int{2}},
	} {
		for _, dts := range [][2]DType{{Float64, Float32}, {Float32, Float64}} {
			var r *Tensor
			if err := Try(func() { r = ops[c.op](Ones(dts[0], c.sa...), Ones(dts[1], c.sb...)) }); err != nil {
				t.Errorf("%s %v·%v %v: %v", c.op, c.sa, c.sb, dts, err)
				continue
			}
			want := dts[0]
			if c.takesB {
				want = dts[1]
			}
			if r.DType() != want || !slices.Equal(r.Shape(), c.wantShape) || slices.Contains(r.Float64s(), 1) {
				t.Errorf("%s %v·%v %v: %v %v %v, want zeros of %v %v", c.op, c.sa, c.sb, dts, r.DType(), r.Shape(), r.Float64s(), want, c.wantShape)
			}
		}
	}
	// with elements and k > 0, two dtypes are refused
	if got := kindOf(func() { Matmul(Ones(Float64, 2, 2, 3), Ones(Float32, 3)) }); got != DTypeError {
		t.Errorf("matmul float64 [2,2,3]·float32 [3]: error kind %v, want a dtype error", got)
	}
}

// TestEmptyBaddbmmOfTwoDTypes: baddbmm's empty product takes batch2's
// dtype as bmm's does, and then refuses a float beta for an integer
// batch2. The expectations are torch's.
func TestEmptyBaddbmmOfTwoDTypes(t *testing.T) {
	inp := Ones(Float64, 6)
	r := Baddbmm(inp, Ones(Float64, 1, 4, 0), Ones(Int16, 1, 0, 6), Scalar(1), Scalar(1))
	if r.DType() != Int16 || !slices.Equal(r.Shape(), []int{1, 4, 6}) || slices.Contains(r.Float64s(), 0) {
		t.Errorf("baddbmm float64 [1,4,0]·int16 [1,0,6], beta 1: %v %v %v, want int16 ones [1 4 6]", r.DType(), r.Shape(), r.Float64s())
	}
	if got := kindOf(func() { Baddbmm(inp, Ones(Float64, 1, 4, 0), Ones(Int16, 1, 0, 6), Scalar(1.0), Scalar(1)) }); got != DTypeError {
		t.Errorf("baddbmm float64·int16 empty, beta 1.0: error kind %v, want a dtype error", got)
	}
	if r := Baddbmm(inp, Ones(Int16, 1, 4, 0), Ones(Float64, 1, 0, 6), Scalar(1.0), Scalar(1)); r.DType() != Float64 {
		t.Errorf("baddbmm int16·float64 empty: %v, want float64", r.DType())
	}
	if got := kindOf(func() { Baddbmm(inp, Ones(Float64, 1, 4, 1), Ones(Int16, 1, 1, 6), Scalar(1.0), Scalar(1)) }); got != DTypeError {
		t.Errorf("baddbmm float64·int16 with k = 1: error kind %v, want a dtype error", got)
	}
}

// TestMaskedScatterBroadcastsMaskFirst: masked_scatter broadcasts the mask
// with self in that order, so its (exact) broadcast message names the
// mask as tensor a. The message is torch's.
func TestMaskedScatterBroadcastsMaskFirst(t *testing.T) {
	err := Try(func() { MaskedScatter(Ones(Float32, 2, 1, 3), Ones(Bool, 2, 1, 2), Ones(Float32, 6)) })
	const want = "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 2"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("masked_scatter [2,1,3] with a mask [2,1,2]: %v, want %q", err, want)
	}
}

// TestMaskedFillShapeBeforeMaskValues: a mask of another dtype whose
// values are not 0 or 1 and whose shape does not broadcast is a shape
// error, as in PyTorch, whose iterator refuses the shapes before its
// kernel reads the mask.
func TestMaskedFillShapeBeforeMaskValues(t *testing.T) {
	m := Full(Scalar(0.5), Float16, 3, 1, 5)
	if got := kindOf(func() { Ones(Float16, 3, 1, 3).MaskedFillInPlace(m, Scalar(1)) }); got != ShapeError {
		t.Errorf("masked_fill_ [3,1,3] with a float16 mask [3,1,5] of 0.5: error kind %v, want a shape error", got)
	}
	if got := kindOf(func() { MaskedFill(Ones(Float16, 3, 1, 3), m, Scalar(1)) }); got != ShapeError {
		t.Errorf("masked_fill [3,1,3] with a float16 mask [3,1,5] of 0.5: error kind %v, want a shape error", got)
	}
}

// TestPadConstantNegativePads: constant padding follows PyTorch 1.13's
// constant_pad_nd step by step: negative pads narrow the input first, with
// narrow's checks (start wrapped as a dim index over the dim's length: an
// index error), a result of only non-positive pads is the narrowed copy,
// and otherwise every padded dim must come out longer than 0 (a value
// error). The expectations are torch's.
func TestPadConstantNegativePads(t *testing.T) {
	for _, c := range []struct {
		shape, pads []int
		want        []int     // the result's shape when no error
		kind        ErrorKind // 0: no error
	}{
		{[]int{3, 0}, []int{0, 0, 1, 0}, nil, ValueError},
		{[]int{3}, []int{-1, -2}, []int{0}, 0},
		{[]int{3}, []int{-3, 0}, []int{0}, 0},
		{[]int{2, 3}, []int{-3, 0, 1, 0}, nil, ValueError},
		{[]int{3}, []int{-2, -2}, nil, IndexError},
		{[]int{3}, []int{-4, 1}, nil, IndexError},
		{[]int{3}, []int{1, -4}, nil, IndexError},
		{[]int{3}, []int{0, -3}, []int{0}, 0},
		{[]int{3}, []int{1, -3}, []int{1}, 0},
		{[]int{0, 0, 0, 6}, []int{0, 1, 1, 0, -1, 0}, nil, IndexError},
		{[]int{0, 0, 0, 6}, []int{0, 1, 1, 0}, []int{0, 0, 1, 7}, 0},
		{[]int{0, 0, 0, 6}, []int{0, 1, 1, 0, 1, 0}, []int{0, 1, 1, 7}, 0},
		{[]int{2, 1, 3}, []int{0, 1, -2, 0}, nil, IndexError},
		{[]int{0, 3}, []int{-1, 0}, []int{0, 2}, 0},
		{[]int{4, 0}, []int{0, 0, -1, 0}, []int{3, 0}, 0},
	} {
		var r *Tensor
		got := kindOf(func() { r = Ones(Float32, c.shape...).Pad(c.pads, PadConstant, 5.25) })
		if got != c.kind || got == 0 && !slices.Equal(r.Shape(), c.want) {
			t.Errorf("pad %v by %v: error kind %v, want %v (shape %v)", c.shape, c.pads, got, c.kind, c.want)
		}
	}
}

// TestTriangleOfEmptyVector: triu and tril of a 1-D tensor without
// elements return it (PyTorch 1.13's kernel returns before it reads the
// last two dims); with elements, or 0-dim, they are index errors. The
// expectations are torch's.
func TestTriangleOfEmptyVector(t *testing.T) {
	if r := Ones(Float64, 0).Triu(2); !slices.Equal(r.Shape(), []int{0}) {
		t.Errorf("triu of [0]: shape %v, want [0]", r.Shape())
	}
	if r := Ones(Float64, 0).Tril(0); !slices.Equal(r.Shape(), []int{0}) {
		t.Errorf("tril of [0]: shape %v, want [0]", r.Shape())
	}
	for _, x := range []*Tensor{Ones(Float64, 3), Scalar(1.0)} {
		if got := kindOf(func() { x.Triu(0) }); got != IndexError {
			t.Errorf("triu of %v: error kind %v, want an index error", x.Shape(), got)
		}
	}
}

// TestCrossEntropyCheckOrder: cross_entropy takes targets of x's shape as
// probabilities whatever their dtype (an integer one is a dtype error),
// and with class targets runs log_softmax of x first, so an integer x is
// a dtype error before the targets' shape or bounds are read. The
// expectations are torch's.
func TestCrossEntropyCheckOrder(t *testing.T) {
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	for name, f := range map[string]func(){
		"int64 x, target out of bounds": func() { CrossEntropy(Ones(Int64, 4, 5), i64(0, 9, 1, 1)) },
		"int64 x, batch mismatch":       func() { CrossEntropy(Ones(Int64, 4, 5), i64(0, 1)) },
		"int32 x":                       func() { CrossEntropy(Ones(Int32, 4, 5), i64(0, 1, 1, 1)) },
		"bool x":                        func() { CrossEntropy(Ones(Bool, 4, 5), i64(0, 1, 1, 1)) },
		"int64 x, 3-D":                  func() { CrossEntropy(Ones(Int64, 4, 5, 2), Zeros(Int64, 4, 2)) },
		"0-dim x and target":            func() { CrossEntropy(Scalar(1.0), FromSlice([]int64{0}).Reshape()) },
		"int64 targets of x's shape":    func() { CrossEntropy(Ones(Float32, 4, 5), Zeros(Int64, 4, 5)) },
	} {
		if got := kindOf(f); got != DTypeError {
			t.Errorf("cross_entropy, %s: error kind %v, want a dtype error", name, got)
		}
	}
	if got := kindOf(func() { CrossEntropy(Ones(Float32, 4, 5), i64(0, 9, 1, 1)) }); got != IndexError {
		t.Errorf("cross_entropy, float32 x, target out of bounds: error kind %v, want an index error", got)
	}
}

// TestMaskedSelectUint8Mask: masked_select takes a uint8 mask of 0s and
// 1s (deprecated in PyTorch 1.13, still allowed), refusing another value
// (a value error) and masks of other dtypes (a dtype error); its gradient
// goes where the mask is 1. The expectations are torch's.
func TestMaskedSelectUint8Mask(t *testing.T) {
	x := FromSlice([]float64{0, 1, 2, 3}, 4).SetRequiresGrad(true)
	y := MaskedSelect(x, FromSlice([]uint8{1, 0, 1, 1}, 4))
	if got, want := y.Float64s(), []float64{0, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("masked_select with a uint8 mask: %v, want %v", got, want)
	}
	y.Sum().Backward()
	if got, want := x.Grad().Float64s(), []float64{1, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("masked_select's gradient with a uint8 mask: %v, want %v", got, want)
	}
	if got := kindOf(func() { MaskedSelect(x.Detach(), FromSlice([]uint8{2, 0, 1, 1}, 4)) }); got != ValueError {
		t.Errorf("masked_select with a uint8 mask holding 2: error kind %v, want a value error", got)
	}
	if got := kindOf(func() { MaskedSelect(x.Detach(), FromSlice([]int8{1, 0, 1, 1}, 4)) }); got != DTypeError {
		t.Errorf("masked_select with an int8 mask: error kind %v, want a dtype error", got)
	}
}

// TestLossNaNParametersAndMeanGradient: smooth_l1_loss's beta and
// huber_loss's delta refuse NaN, as PyTorch's checks (beta >= 0, delta >
// 0) do; binary_cross_entropy_with_logits divides its mean gradient last,
// in the gradient's dtype, so a float16 loss's gradient (g = 1) does not
// round 1/n to float16. The expectations are torch's.
func TestLossNaNParametersAndMeanGradient(t *testing.T) {
	x, y := Ones(Float32, 3), Zeros(Float32, 3)
	if got := kindOf(func() { SmoothL1Loss(x, y, LossOptions{Beta: math.NaN(), HasBeta: true}) }); got != ValueError {
		t.Errorf("smooth_l1_loss with beta NaN: error kind %v, want a value error", got)
	}
	if got := kindOf(func() { HuberLoss(x, y, LossOptions{Delta: math.NaN(), HasDel: true}) }); got != ValueError {
		t.Errorf("huber_loss with delta NaN: error kind %v, want a value error", got)
	}
	xs := FromSlice([]float32{-0.7409424781799316, -1.5114905834197998, -0.22522689402103424}, 3).SetRequiresGrad(true)
	ts := FromSlice([]float32{0.84765625, 0.249755859375, 0.43798828125}, 3).To(Float16)
	pw := FromSlice([]float32{0.5075253248214722, 2.8106162548065186, 2.8482186794281006}, 3)
	l := BinaryCrossEntropyWithLogits(xs, ts, LossOptions{PosWeight: pw})
	l.Backward()
	want := []float64{-0.08072025328874588, -0.14650900661945343, -0.1480652242898941}
	for i, g := range xs.Grad().Float64s() {
		if math.Abs(g-want[i]) > 1e-6 {
			t.Errorf("bce_with_logits float16 target, grad of x[%d]: %v, want %v", i, g, want[i])
		}
	}
}

// TestBroadcastGradOverEmptyDim: a [1] operand broadcast against a [0]
// one gets a gradient of zeros of its own shape, the sum over the empty
// stretched dim (PyTorch 1.13: B.grad is [0.]); a [1] operand expanded to
// [0] the same.
func TestBroadcastGradOverEmptyDim(t *testing.T) {
	a := Zeros(Float64, 0).SetRequiresGrad(true)
	b := FromSlice([]float64{-1.5}, 1).SetRequiresGrad(true)
	a.Add(b).Sum().Backward()
	if got := b.Grad(); !slices.Equal(got.Shape(), []int{1}) || got.Float64s()[0] != 0 {
		t.Fatalf("b.grad = %v, want [0] of shape [1]", got)
	}
	if got := a.Grad(); !slices.Equal(got.Shape(), []int{0}) {
		t.Fatalf("a.grad shape %v, want [0]", got.Shape())
	}
	c := FromSlice([]float64{2}, 1, 1).SetRequiresGrad(true)
	c.Expand(3, 0).Sum().Backward()
	if got := c.Grad(); !slices.Equal(got.Shape(), []int{1, 1}) || got.Float64s()[0] != 0 {
		t.Fatalf("c.grad = %v, want [[0]]", got)
	}
}

// TestIndexPutFirstMaskBeforeDTypes: with one value and no accumulation,
// PyTorch 1.13's index_put_ checks a leading mask's shape (its
// canDispatchToMaskedFill scan) before the dtypes of the indices; with
// accumulation, several values, or a mask after another index, the
// float64 index is the dtype error first. The kinds are torch's (the mask
// message maps to a shape error in the conformance cases).
func TestIndexPutFirstMaskBeforeDTypes(t *testing.T) {
	mask := Ones(Uint8, 2, 3)
	i64, f64 := Zeros(Int64, 2, 3), Zeros(Float64, 2, 3)
	for _, c := range []struct {
		name       string
		its        []Item
		values     *Tensor
		accumulate bool
		want       ErrorKind
	}{
		{"mask first, one value", []Item{Idx(mask), Idx(i64), Idx(f64)}, FromSlice([]float32{5}, 1), false, ShapeError},
		{"mask first, accumulate", []Item{Idx(mask), Idx(i64), Idx(f64)}, FromSlice([]float32{5}, 1), true, DTypeError},
		{"mask first, two values", []Item{Idx(mask), Idx(i64), Idx(f64)}, FromSlice([]float32{5, 6}, 2), false, DTypeError},
		{"int64 first", []Item{Idx(i64), Idx(mask), Idx(f64)}, FromSlice([]float32{5}, 1), false, DTypeError},
	} {
		v := Zeros(Float32, 4, 4, 1, 2)
		if got := kindOf(func() { v.IndexPutInPlace(c.its, c.values, c.accumulate) }); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestArangeIntegerDTypes: PyTorch 1.13's arange for an integer dtype
// converts start, end and step to int64 first; int64 counts with them,
// the other integer dtypes with the numbers as given. The values are
// torch's.
func TestArangeIntegerDTypes(t *testing.T) {
	seq := func(from, step int64, n int) []float64 {
		var out []float64
		for i := range n {
			out = append(out, float64(from+int64(i)*step))
		}
		return out
	}
	for _, c := range []struct {
		start, end, step float64
		dt               DType
		want             []float64
	}{
		{10, 45, 2.25, Int64, seq(10, 2, 18)},
		{10, 45, 2.25, Int32, seq(10, 2, 16)},
		{10, 45, 2.25, Uint8, seq(10, 2, 16)},
		{10.5, 45, 2.25, Int64, seq(10, 2, 18)},
		{-3.7, 4.2, 1.5, Int64, seq(-3, 1, 7)},
		{-3.7, 4.2, 1.5, Int32, seq(-3, 1, 6)},
		{0, 300, 1.9, Uint8, seq(0, 1, 158)},
	} {
		got := Arange(c.start, c.end, c.step, c.dt)
		if !slices.Equal(got.Float64s(), c.want) {
			t.Errorf("arange(%v, %v, %v, %v) = %v, want %v", c.start, c.end, c.step, c.dt, got.Float64s(), c.want)
		}
	}
	for _, c := range []struct {
		start, end, step float64
		msg              string
	}{
		{0, 5, 0.5, "step must be nonzero"},
		{0, 5, -0.5, "step must be nonzero"},
		{0, math.Inf(1), 1, "value cannot be converted to type int64_t without overflow"},
		{math.NaN(), 5, 1, "value cannot be converted to type int64_t without overflow"},
		{0, 1e19, 1, "value cannot be converted to type int64_t without overflow"},
		{5, 0, 1, "upper bound and larger bound inconsistent with step sign"},
	} {
		f := func() { Arange(c.start, c.end, c.step, Int32) }
		if err := Try(f); err == nil || !strings.Contains(err.Error(), c.msg) || kindOf(f) != ValueError {
			t.Errorf("arange(%v, %v, %v, int32): %v, want a value error %q", c.start, c.end, c.step, Try(f), c.msg)
		}
	}
}

// TestCrossEntropyProbabilitiesOrder: with class probabilities PyTorch
// 1.13 computes −Σ((log_softmax(x)·t)·w), negating after the sum, so a
// weight near the float32 limit stays finite where (log p·w)·t overflows;
// and it checks ignore_index, then the weight's shape, then x's dtype (its
// log_softmax), and label_smoothing last. Values and errors are torch's.
func TestCrossEntropyProbabilitiesOrder(t *testing.T) {
	x := FromSlice([]float32{0.75, 0.5, -0.75, 1.75, -0.5}, 5)
	p := FromSlice([]float32{0.08095088601112366, 0.3380972743034363, 0.6902857422828674, 0.49863988161087036, 0.16805118322372437}, 5)
	w := FromSlice([]float32{0.5, 1.5721955299377441, 1.6109209060668945, 1.014235496520996, -3.3999999521443642e+38}, 5)
	got := CrossEntropy(x, p, LossOptions{Weight: w, Reduction: ReduceLossSum}).Float64s()[0]
	if want := -1.634575615885971e+38; math.Abs(got-want) > 1e-5*math.Abs(want) {
		t.Errorf("cross_entropy sum = %v, want %v", got, want)
	}
	zeros := Zeros(Float32, 2, 3)
	for _, c := range []struct {
		name string
		x    *Tensor
		opt  LossOptions
		want ErrorKind
		msg  string
	}{
		{"ignore_index", zeros, LossOptions{LabelSmoothing: 1.5, IgnoreIndex: 0, HasIgnoreIndex: true}, ValueError, "ignore_index is not supported"},
		{"weight", zeros, LossOptions{LabelSmoothing: 1.5, Weight: Ones(Float32, 2)}, ShapeError, "weight tensor should be defined"},
		{"int64 x", Zeros(Int64, 2, 3), LossOptions{LabelSmoothing: 1.5}, DTypeError, "not implemented for 'Long'"},
		{"label_smoothing", zeros, LossOptions{LabelSmoothing: 1.5}, ValueError, "label_smoothing must be between 0.0 and 1.0"},
	} {
		f := func() { CrossEntropy(c.x, zeros, c.opt) }
		if err := Try(f); err == nil || kindOf(f) != c.want || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %v %q", c.name, err, c.want, c.msg)
		}
	}
}

// TestPowFloat32WideExponent: PyTorch 1.13's float32 pow(Tensor, Scalar)
// reads the exponent as a double and (on inputs its kernel does not
// vectorise, such as these) computes std::pow(float, double): an exponent
// float32 cannot hold keeps its parity and its fraction, so (-2.8675)^
// 9999999999 is -Inf and (-2.8675)^16777216.5 NaN, where float32 exponents
// would give +Inf. The bits are torch's.
func TestPowFloat32WideExponent(t *testing.T) {
	x := FromSlice([]float32{0.3, 1.7, 2.9, -2.8675}, 4)
	nan := uint32(0xffc00000)
	for _, c := range []struct {
		exp  *Tensor
		want []uint32
	}{
		{Scalar(0.1), []uint32{0x3f62f621, 0x3f86f9b9, 0x3f8e6158, nan}},
		{Scalar(1.0 / 3), []uint32{0x3f2b5ff5, 0x3f98c40f, 0x3fb68895, nan}},
		{Scalar(int64(9999999999)), []uint32{0, 0x7f800000, 0x7f800000, 0xff800000}},
		{Scalar(16777217.0), []uint32{0, 0x7f800000, 0x7f800000, 0xff800000}},
		{Scalar(16777216.5), []uint32{0, 0x7f800000, 0x7f800000, nan}},
	} {
		y := x.Pow(c.exp)
		if y.DType() != Float32 {
			t.Fatalf("pow(x, %v): dtype %v", c.exp, y.DType())
		}
		for i, v := range y.Float64s() {
			got := math.Float32bits(float32(v))
			if got != c.want[i] && !(c.want[i] == nan && v != v) {
				t.Errorf("pow(x, %v)[%d] = %#x (%v), want %#x", c.exp, i, got, v, c.want[i])
			}
		}
	}
}

// TestNLLLossCheckOrder: nll_loss checks shapes (x's dims, the batch, the
// target's shape, the weight's length), then picks the kernel of x's
// dtype, which refuses integer and bool scores before the weight's dtype,
// the target's dtype and its bounds are read, on an empty batch too. The
// expectations (kinds and messages) are torch's.
func TestNLLLossCheckOrder(t *testing.T) {
	x23 := func(dt DType) *Tensor { return Zeros(dt, 2, 3) }
	sum := LossOptions{Reduction: ReduceLossSum}
	for _, c := range []struct {
		name string
		f    func()
		kind ErrorKind
		msg  string // a part of the message
	}{
		{"uint8 x, target out of bounds", func() { NLLLoss(FromSlice([]uint8{5, 12, 9}, 3), ZeroDim(int64(14)), sum) },
			DTypeError, `"nll_loss_out_frame" not implemented for 'Byte'`},
		{"int64 x, int32 target", func() { NLLLoss(FromSlice([]int64{5, 12, 9}, 3), ZeroDim(int32(1))) },
			DTypeError, `"nll_loss_out_frame" not implemented for 'Long'`},
		{"bool x", func() { NLLLoss(x23(Bool), Zeros(Int64, 2)) },
			DTypeError, `"nll_loss_out_frame" not implemented for 'Bool'`},
		{"uint8 x, empty batch", func() { NLLLoss(Zeros(Uint8, 0, 3), Zeros(Int64, 0), sum) },
			DTypeError, `"nll_loss_out_frame" not implemented for 'Byte'`},
		{"uint8 x, 3-D", func() { NLLLoss(Zeros(Uint8, 2, 3, 4), Zeros(Int32, 2, 4)) },
			DTypeError, `"nll_loss2d_forward_out_frame" not implemented for 'Byte'`},
		{"uint8 x, float64 weight", func() { NLLLoss(x23(Uint8), Zeros(Int64, 2), LossOptions{Weight: Ones(Float64, 3)}) },
			DTypeError, `"nll_loss_out_frame" not implemented for 'Byte'`},
		{"float32 x, float64 weight, int32 target", func() { NLLLoss(x23(Float32), Zeros(Int32, 2), LossOptions{Weight: Ones(Float64, 3)}) },
			DTypeError, "expected scalar type Float but found Double"},
		{"bfloat16 x, int32 target", func() { NLLLoss(x23(BFloat16), Zeros(Int32, 2)) },
			DTypeError, "expected scalar type Long but found Int"},
		{"bfloat16 x, target out of bounds", func() { NLLLoss(FromSlice([]float32{5, 12, 9}, 3).To(BFloat16), ZeroDim(int64(14)), sum) },
			IndexError, "Target 14 is out of bounds."},
		{"uint8 x, batch mismatch", func() { NLLLoss(x23(Uint8), Zeros(Int32, 5)) },
			ShapeError, "Expected input batch_size (2) to match target batch_size (5)."},
		{"uint8 x, weight of 4", func() { NLLLoss(x23(Uint8), Zeros(Int64, 2), LossOptions{Weight: Ones(Uint8, 4)}) },
			ShapeError, "weight tensor should be defined either for all 3 classes"},
	} {
		err, _ := Try(c.f).(*Error)
		switch {
		case err == nil:
			t.Errorf("nll_loss, %s: no error, want %v", c.name, c.kind)
		case err.Kind != c.kind || !strings.Contains(err.Error(), c.msg):
			t.Errorf("nll_loss, %s: %v (%v), want %v containing %q", c.name, err, err.Kind, c.kind, c.msg)
		}
	}
}

// TestSearchSortedSorterOutOfRange: a sorter element outside the sequence
// is searchsorted's own index error (PyTorch 2's message; 1.13 reads past
// the sequence), not an error of the gather that applies the sorter; in
// range, the sorter orders the sequence.
func TestSearchSortedSorterOutOfRange(t *testing.T) {
	seq := FromSlice([]int8{-4, -6}, 2)
	vals := FromSlice([]int8{-5, 0, -7}, 3)
	for _, bad := range [][]int64{{0, 2}, {-1, 0}} {
		err, _ := Try(func() { SearchSorted(seq, vals, SearchOptions{Sorter: FromSlice(bad, 2)}) }).(*Error)
		if err == nil || err.Kind != IndexError || !strings.Contains(err.Error(), "searchsorted: torch.searchsorted(): sorter index out of range") {
			t.Errorf("sorter %v: %v, want searchsorted's index error", bad, err)
		}
	}
	got := ToSlice[int64](SearchSorted(seq, vals, SearchOptions{Sorter: FromSlice([]int64{1, 0}, 2)}))
	if !slices.Equal(got, []int64{1, 2, 0}) {
		t.Errorf("sorter [1 0]: %v, want [1 2 0]", got)
	}
}

// TestHistcBinsArePyTorchs pins histc's bins to PyTorch 1.13's (Note
// [Histogram bins] in package op): the edges of its linspace, whose last
// need not be max (Note [PyTorch's linspace]), the quotient before the
// product, NaN in bin 0, overflowing differences, a bfloat16 bins that
// rounds up, and the range checks. The expectations are torch's.
func TestHistcBinsArePyTorchs(t *testing.T) {
	f64 := func(xs ...float64) *Tensor { return FromSlice(xs, len(xs)) }
	for _, c := range []struct {
		name     string
		x        *Tensor
		bins     int
		min, max float64
		want     []float64
	}{
		{"NaN in bin 0", f64(math.NaN(), 0.5).To(Float32), 2, 0, 1, []float64{1, 1}},
		{"max past the last edge", f64(-2.45, -2, -1.5, -0.8), 7, -2.45, -0.8, []float64{1, 1, 0, 0, 1, 0, 0}},
		{"quotient first", f64(0.7514285714285711, -1.47, 1.64), 7, -1.47, 1.64, []float64{1, 0, 0, 0, 0, 1, 0}},
		{"float32 differences overflow", f64(-3.4e38, 0.5, 1e30, -3.4e38, -1).To(Float32), 9, 0, 0, []float64{2, 0, 0, 0, 0, 0, 0, 0, 3}},
		{"float64 range overflows", f64(-1e308, 0.5, 9e307), 4, 0, 0, []float64{3, 0, 0, 0}},
	} {
		if got := Histc(c.x, c.bins, c.min, c.max).Float64s(); !slices.Equal(got, c.want) {
			t.Errorf("histc, %s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := Histc(f64(0, 1).To(BFloat16), 287, 0, 1).Sum().Float64s()[0]; got != 1 {
		t.Errorf("histc, bfloat16 with 287 bins: counts %v elements, want 1 (torch's 287 is 288 there)", got)
	}
	for _, c := range []struct {
		name     string
		x        *Tensor
		min, max float64
		msg      string
	}{
		{"NaN data", f64(math.NaN(), 1), 0, 0, "is not finite"},
		{"infinite max", f64(1, 2), 0, math.Inf(1), "torch.histc: range of [0, inf] is not finite"},
		{"min above max", f64(1, 2), 2, 1, "max must be larger than min"},
	} {
		err, _ := Try(func() { Histc(c.x, 4, c.min, c.max) }).(*Error)
		if err == nil || err.Kind != ValueError || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("histc, %s: %v, want a value error containing %q", c.name, err, c.msg)
		}
	}
	if got := ToSlice[int64](Linspace(0, 10, 8, Int64)); !slices.Equal(got, []int64{0, 1, 2, 4, 5, 6, 7, 9}) {
		t.Errorf("int64 linspace(0, 10, 8): %v, want torch's [0 1 2 4 5 6 7 9]", got)
	}
}

// TestCrossEntropySmoothingMixesReducedLosses: with label smoothing ε,
// cross_entropy mixes the reduced losses, (1 − ε)·nll + ε/C·smooth, so
// that with no class (C = 0) even a sum over no element is 0·∞ = NaN,
// where with classes it is 0. The expectations are torch's.
func TestCrossEntropySmoothingMixesReducedLosses(t *testing.T) {
	for _, c := range []struct {
		classes int
		r       LossReduction
		nan     bool
	}{{0, ReduceLossSum, true}, {3, ReduceLossSum, false}, {0, ReduceLossMean, true}, {3, ReduceLossMean, true}} {
		y := CrossEntropy(Zeros(Float32, 0, c.classes), Zeros(Int64, 0), LossOptions{Reduction: c.r, LabelSmoothing: 0.1}).Float64s()[0]
		if math.IsNaN(y) != c.nan || !c.nan && y != 0 {
			t.Errorf("cross_entropy of [0, %d] (reduction %v): %v, want NaN: %v", c.classes, c.r, y, c.nan)
		}
	}
}

// TestBinaryCrossEntropyGradients: binary_cross_entropy's backward is one
// node with its reduction, scaling by the weight and dividing by the
// count last, so a quotient that overflows stays ±Inf; its floor of x·(1
// − x) is the float32 1e-12; and its target's gradient is −logit(x), ±Inf
// at x = 0 and 1. The expectations are torch's.
func TestBinaryCrossEntropyGradients(t *testing.T) {
	x := FromSlice([]float64{0, 0.5, 1}, 3).SetRequiresGrad(true)
	tg := FromSlice([]float64{0.3, 0.2, 0.6}, 3).SetRequiresGrad(true)
	BinaryCrossEntropy(x, tg).Backward()
	if got, want := x.Grad().Float64s(), []float64{-100000000399.58028, 0.39999999999999997, 133333333866.10706}; !slices.Equal(got, want) {
		t.Errorf("grad of x: %v, want %v", got, want)
	}
	if got := tg.Grad().Float64s(); !math.IsInf(got[0], 1) || got[1] != 0 || !math.IsInf(got[2], -1) {
		t.Errorf("grad of the target: %v, want [+Inf 0 -Inf]", got)
	}
	x = FromSlice([]float64{0.87, 0.5}, 2).SetRequiresGrad(true)
	BinaryCrossEntropy(x, FromSlice([]float64{1.7e308, 0.5}, 2)).Backward()
	if got := x.Grad().Float64s(); !math.IsInf(got[0], -1) || got[1] != 0 {
		t.Errorf("grad of x with a target of 1.7e308: %v, want [-Inf 0]", got)
	}
}

// TestIndexAddAlphaOrder: index_add_ reads alpha where PyTorch 1.13's
// kernel does: first thing for a self of one dim, after the first index's
// bounds for more (not at all with no index); and index_put_ itself takes
// 0-dim integer indices of int64 only, where a subscript reads any
// integer dtype. The expectations are torch's.
func TestIndexAddAlphaOrder(t *testing.T) {
	i16 := func(sh ...int) *Tensor { return Ones(Int16, sh...) }
	idx := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	inf := Scalar(math.Inf(1))
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"2-D, first index out of range", func() { IndexAdd(Zeros(Int16, 2, 1), -1, idx(-1, 3), i16(2, 2), inf) }, IndexError},
		{"2-D, first index in range", func() { IndexAdd(Zeros(Int16, 2, 1), -1, idx(0, 5), i16(2, 2), inf) }, ValueError},
		{"2-D, no index", func() { IndexAdd(Zeros(Int16, 2, 1), 0, idx(), i16(0, 1), inf) }, 0},
		{"1-D, index out of range", func() { IndexAdd(Zeros(Int16, 3), 0, idx(5), i16(1), inf) }, ValueError},
		{"1-D, no index", func() { IndexAdd(Zeros(Int16, 3), 0, idx(), i16(0), inf) }, ValueError},
		{"index_put_ with a 0-dim int8 index", func() {
			Zeros(Float32, 3, 4).IndexPutInPlace([]Item{Idx(ZeroDim(int64(1))), Idx(ZeroDim(int8(0)))}, ZeroDim(float32(2)), true)
		}, DTypeError},
		{"a subscript with a 0-dim int8 index", func() {
			Zeros(Float32, 3, 4).IndexPutInPlace([]Item{Idx(ZeroDim(int64(1))), Idx(ZeroDim(int8(0))), Ellipsis}, ZeroDim(float32(2)), true)
		}, 0},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestClassTargetsReadOnlyWhenThereAreAny: reduced over no target (here
// a dim of size 0 after the classes, not the batch), PyTorch 1.13's
// nll_loss kernels return before they read the targets, so a float
// target fails only in the backward; with no reduction it fails at once.
// The expectations are torch's.
func TestClassTargetsReadOnlyWhenThereAreAny(t *testing.T) {
	x := Zeros(Float32, 6, 3, 0).SetRequiresGrad(true)
	var y *Tensor
	if err := Try(func() { y = CrossEntropy(x, Zeros(Float32, 6, 0)) }); err != nil {
		t.Fatalf("mean over no target: %v, want NaN", err)
	}
	if v := y.Float64s()[0]; !math.IsNaN(v) {
		t.Errorf("mean over no target: %v, want NaN", v)
	}
	if got := kindOf(func() { y.Backward() }); got != DTypeError {
		t.Errorf("its backward: error kind %v, want a dtype error", got)
	}
	if got := kindOf(func() { CrossEntropy(x, Zeros(Float32, 6, 0), LossOptions{Reduction: ReduceLossNone}) }); got != DTypeError {
		t.Errorf("no reduction: error kind %v, want a dtype error", got)
	}
}

// TestBCEWithLogitsTargetGradientInXDType: with pos_weight, PyTorch's
// gradient of binary_cross_entropy_with_logits for the target runs in
// place on log_sigmoid(−x), so a bfloat16 x rounds a float32 target's
// gradient to bfloat16, its log_sigmoid computed in float32 once. The
// expectations are torch's.
func TestBCEWithLogitsTargetGradientInXDType(t *testing.T) {
	x := FromSlice([]float32{-0.25}, 1).To(BFloat16).SetRequiresGrad(true)
	tg := FromSlice([]float32{0.3869471549987793}, 1).SetRequiresGrad(true)
	y := BinaryCrossEntropyWithLogits(x, tg, LossOptions{Reduction: ReduceLossNone, PosWeight: FromSlice([]float32{2.5489745140075684}, 1)})
	if got := y.Float64s()[0]; got != 1.1712160110473633 {
		t.Errorf("loss %v, want 1.1712160110473633", got)
	}
	y.Backward(FromSlice([]float32{-2}, 1))
	if got := tg.Grad().Float64s()[0]; got != -3.03125 {
		t.Errorf("grad of the target %v, want -3.03125", got)
	}
	if got := x.Grad().Float64s()[0]; got != 0.57421875 {
		t.Errorf("grad of x %v, want 0.57421875", got)
	}
}

// TestBCEWithLogitsInputGradientInPlace: PyTorch's gradient of
// binary_cross_entropy_with_logits for the input runs its steps after the
// first in place, so with pos_weight p, p·t + 1 of a float16 target keeps
// σ(x) of a float32 x in float16 before the gradient is cast to float32
// (seed 641 found it unrounded). The expectations are torch's.
func TestBCEWithLogitsInputGradientInPlace(t *testing.T) {
	x := FromSlice([]float32{1.7588337659835815}, 1).SetRequiresGrad(true)
	tg := FromSlice([]float32{-0.247314453125}, 1).To(Float16)
	y := BinaryCrossEntropyWithLogits(x, tg, LossOptions{Reduction: ReduceLossMean, PosWeight: FromSlice([]int64{0}, 1)})
	if y.DType() != Float16 {
		t.Errorf("loss dtype %v, want float16", y.DType())
	}
	y.Backward(nil)
	if got := x.Grad().Float64s()[0]; got != 1.0634765625 {
		t.Errorf("grad of x %v, want 1.0634765625", got)
	}
}

// TestSoftmaxKernelsOfBFloat16: PyTorch 1.13's bfloat16 log_softmax over
// the last dim rounds its sum of exponentials and that sum's log to
// bfloat16 (Note [bfloat16 log_softmax] in package op), and the backward
// kernels of both ops compute in float32, keeping the sum over the last
// dim in bfloat16. The expectations are torch's.
func TestSoftmaxKernelsOfBFloat16(t *testing.T) {
	bf := func(xs ...float64) *Tensor { return FromSlice(xs, 2, len(xs)/2).To(BFloat16) }
	g := bf(0.5, 0.5, 1.5, -0.75)
	for _, c := range []struct {
		name     string
		log      bool
		y, gradX []float64
	}{
		{"log_softmax", true, []float64{-4.5, -0.007781982421875, -4.25, -0.0155029296875}, []float64{0.48828125, -0.4921875, 1.4921875, -1.4921875}},
		{"softmax", false, []float64{0.010986328125, 0.98828125, 0.0140380859375, 0.984375}, []float64{0, 0, 0.0311279296875, -0.03076171875}},
	} {
		x := bf(5.5, 10, -1.25, 3).SetRequiresGrad(true)
		y := x.Softmax(Over(-1))
		if c.log {
			y = x.LogSoftmax(Over(-1))
		}
		if got := y.Float64s(); !slices.Equal(got, c.y) {
			t.Errorf("%s: %v, want %v", c.name, got, c.y)
		}
		y.Backward(g)
		if got := x.Grad().Float64s(); !slices.Equal(got, c.gradX) {
			t.Errorf("%s: gradient %v, want %v", c.name, got, c.gradX)
		}
	}
	x := FromSlice([]float64{2.390625, 0.42578125}, 2, 1).To(BFloat16).SetRequiresGrad(true)
	x.LogSoftmax(Over(0)).Pow(Scalar(-1)).Mean().Backward()
	if got := x.Grad().Float64s(); !slices.Equal(got, []float64{-3.484375, 3.5}) {
		t.Errorf("log_softmax over dim 0: gradient %v, want [-3.484375 3.5]", got)
	}
	if got := FromSlice([]float32{5.5, 10, -1.25, 3}, 2, 2).Softmax(Over(0)).Float64s(); !slices.Equal(got,
		[]float64{0.9988304972648621, 0.9990890026092529, 0.0011695101857185364, 0.0009110512328334153}) {
		t.Errorf("float32 softmax over dim 0 (a division): %v", got)
	}
}

// TestLog1pOfHugeValues: PyTorch 1.13's log1p is SLEEF's, which returns
// +Inf above 1e307 in float64 and above float32's 1e38 in float32 and
// bfloat16, though ln(1 + x) is finite there; the SIMD and scalar paths
// agree. The expectations are torch's.
func TestLog1pOfHugeValues(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		dt   DType
		x    []float64
		want []float64
	}{
		{Float64, []float64{1e307, 1.0000001e307, 9.9e306, 1.7e308, 0.5}, []float64{706.893623549172, inf, 706.8835732133185, inf, math.Log1p(0.5)}},
		{Float32, []float64{1e38, 1.0000001e38, 3e38}, []float64{87.49822998046875, inf, inf}},
		{BFloat16, []float64{1e38, 3e38}, []float64{87.5, inf}},
	} {
		// a run long enough for the vector loops, the values at its end
		n := 64 + len(c.x)
		xs := make([]float64, n)
		copy(xs[64:], c.x)
		got := Log1p(FromSlice(xs, n).To(c.dt)).Float64s()[64:]
		if !slices.Equal(got, c.want) {
			t.Errorf("%v log1p(%v): %v, want %v", c.dt, c.x, got, c.want)
		}
	}
}

// TestMedianOfNoElements: PyTorch 1.13's median and nanmedian of all of
// a tensor without elements return NaN converted to its dtype, before
// the dtype check that refuses bool; along an empty dim they are still an
// index error. The expectations are torch's (seed 211).
func TestMedianOfNoElements(t *testing.T) {
	for _, c := range []struct {
		d    DType
		want float64
	}{
		{Bool, 1}, {Uint8, 0}, {Int8, 0}, {Int16, 0},
		{Int32, math.MinInt32}, {Int64, math.MinInt64},
		{Float16, math.NaN()}, {BFloat16, math.NaN()}, {Float32, math.NaN()}, {Float64, math.NaN()},
	} {
		for _, f := range []func(*Tensor) *Tensor{Median, NanMedian} {
			r := f(Empty(c.d, 0, 2))
			if r.DType() != c.d || r.Dim() != 0 {
				t.Fatalf("%v: got %v %v", c.d, r.DType(), r.Shape())
			}
			got := r.To(Float64).Item()
			if c.d == Int64 {
				got = float64(r.Int64s()[0])
			}
			if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
				t.Errorf("%v: got %v, want %v", c.d, got, c.want)
			}
		}
	}
	if k := kindOf(func() { Median(FromSlice([]bool{true, false, true}, 3)) }); k != DTypeError {
		t.Errorf("median of bool elements: error kind %v, want a dtype error", k)
	}
	if k := kindOf(func() { MedianDim(Empty(Int64, 0, 2), 0, false) }); k != IndexError {
		t.Errorf("median along an empty dim: error kind %v, want an index error", k)
	}
}

// TestNarrowCopyLayout: PyTorch 1.13's narrow_copy fills a result laid
// out as empty_like(self) in row-major order when the dim keeps its size
// (Note [narrow_copy's layout]), and is narrow().clone() when it shrinks.
// The expectations are torch's (seed 199).
func TestNarrowCopyLayout(t *testing.T) {
	x := Arange(0, 6, 1, Int64).Reshape(2, 3).T() // [[0 3] [1 4] [2 5]]
	y := Arange(0, 40, 1, Int64).AsStrided([]int{2, 3, 2}, []int{1, 8, 2})
	for _, c := range []struct {
		name string
		got  *Tensor
		want []int64
	}{
		{"transposed, dim 0 whole", x.NarrowCopy(0, 0, 3), []int64{0, 4, 3, 2, 1, 5}},
		{"transposed, dim 1 whole", x.NarrowCopy(1, 0, 2), []int64{0, 4, 3, 2, 1, 5}},
		{"transposed, dim 0 narrowed", x.NarrowCopy(0, 1, 2), []int64{1, 4, 2, 5}},
		{"not dense, dim 1 whole", y.NarrowCopy(1, 0, 3), []int64{0, 8, 16, 1, 9, 17, 2, 10, 18, 3, 11, 19}},
		{"contiguous", y.Contiguous().NarrowCopy(1, 0, 3), []int64{0, 2, 8, 10, 16, 18, 1, 3, 9, 11, 17, 19}},
	} {
		if got := c.got.Contiguous().Int64s(); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	// the copy owns its elements
	src := x.Clone()
	r := src.NarrowCopy(0, 0, 3)
	src.Fill(Scalar(7))
	if r.Contiguous().Int64s()[0] != 0 {
		t.Error("narrow_copy's result shares its input's storage")
	}
}

// TestIndexPutZeroDimIndices: PyTorch 1.13's index_put_ with only tensors
// drops 0-dim masks among several indices (they select nothing and take
// no dim), a lone one with one value being masked_fill_; its 0-dim
// integer indices are index tensors, whose bounds are checked only when
// the result has elements (Note [index_put_'s 0-dim indices] in package
// op). The expectations are torch's (seeds 199, 211).
func TestIndexPutZeroDimIndices(t *testing.T) {
	b := func(x bool) Item { return Idx(FromSlice([]bool{x}).Reshape()) }
	i := func(x int64) Item { return Idx(FromSlice([]int64{x}).Reshape()) }
	m := func(xs ...bool) Item { return Idx(FromSlice(xs, len(xs))) }
	u8 := func(x uint8) Item { return Idx(FromSlice([]uint8{x}).Reshape()) }
	v := func() *Tensor { return Arange(0, 6, 1, Float64).Reshape(2, 3) }
	val := Scalar(-1.0)
	for _, c := range []struct {
		name string
		its  []Item
		acc  bool
		want []float64
	}{
		{"(True, 1)", []Item{b(true), i(1)}, false, []float64{0, 1, 2, -1, -1, -1}},
		{"(1, False)", []Item{i(1), b(false)}, false, []float64{0, 1, 2, -1, -1, -1}},
		{"(1, False) accumulated", []Item{i(1), b(false)}, true, []float64{0, 1, 2, 2, 3, 4}},
		{"(False, [True, False])", []Item{b(false), m(true, false)}, false, []float64{-1, -1, -1, 3, 4, 5}},
		{"(True,)", []Item{b(true)}, false, []float64{-1, -1, -1, -1, -1, -1}},
		{"(False,)", []Item{b(false)}, false, []float64{0, 1, 2, 3, 4, 5}},
	} {
		got := v().IndexPutInPlace(c.its, val, c.acc)
		if g := ToSlice[float64](got); !slices.Equal(g, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, g, c.want)
		}
	}
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"(False, 1, 2) on 2 dims", func() { v().IndexPutInPlace([]Item{b(false), i(1), i(2)}, val, false) }, IndexError},
		{"(False, 5)", func() { v().IndexPutInPlace([]Item{b(false), i(5)}, val, false) }, IndexError},
		{"(uint8 1, 2)", func() { v().IndexPutInPlace([]Item{u8(1), i(2)}, val, false) }, IndexError},
		{"[6,3,0] (-3, -9) accumulated", func() {
			Zeros(Float32, 6, 3, 0).IndexPutInPlace([]Item{i(-3), i(-9)}, Full(Scalar(0.5), Float32), true)
		}, 0},
		{"[6,3,0] (-3, -9)", func() {
			Zeros(Float32, 6, 3, 0).IndexPutInPlace([]Item{i(-3), i(-9)}, Full(Scalar(0.5), Float32), false)
		}, 0},
		{"[6,0,3] (-3, -9) accumulated", func() {
			Zeros(Float32, 6, 0, 3).IndexPutInPlace([]Item{i(-3), i(-9)}, Full(Scalar(0.5), Float32), true)
		}, IndexError},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
	// the values' gradient reads the same elements
	x := Zeros(Float64, 2, 3)
	w := Full(Scalar(2.0), Float64).SetRequiresGrad(true)
	x.IndexPutInPlace([]Item{b(false), i(1)}, w, true).Sum().Backward()
	if g := w.Grad().Item(); g != 3 {
		t.Errorf("values' gradient through (False, 1): %v, want 3", g)
	}
}

// TestMasksReadByFirstByte: masked_fill and masked_scatter read a mask
// that is not bool as PyTorch 1.13's kernels do, by the first byte of each
// element (Note [Masks of other dtypes] in package op), any layout; a
// byte other than 0 or 1 is a value error. The gradient of the source of
// masked_scatter (PyTorch's masked_select) refuses such masks, that of the
// input does not. The expectations are torch's.
func TestMasksReadByFirstByte(t *testing.T) {
	fill := func(m *Tensor) []float64 {
		return MaskedFill(Zeros(Float64, m.Shape()...).ToDevice(m.Device()), m, Scalar(7)).Float64s()
	}
	for _, c := range []struct {
		name string
		mask *Tensor
		want []float64
	}{
		{"float32 0, 1, 256, 1", FromSlice([]float32{0, 1, 256, 1}, 4), []float64{0, 0, 0, 0}},
		{"int16 0, 1, 256, 1", FromSlice([]int16{0, 1, 256, 1}, 4), []float64{0, 7, 0, 7}},
		{"float64 5e-324, 1, 0, 0", FromSlice([]float64{5e-324, 1, 0, 0}, 4), []float64{7, 0, 0, 0}},
		{"int32 [[0, 257], [1, 0]] transposed", FromSlice([]int32{0, 257, 1, 0}, 2, 2).Transpose(0, 1), []float64{0, 7, 7, 0}},
		{"int32 [1, 0] expanded to [2, 2]", FromSlice([]int32{1, 0}, 2).Expand(2, 2), []float64{7, 0, 7, 0}},
	} {
		for _, dev := range []Device{CPU, refDevice} {
			if got := fill(c.mask.ToDevice(dev)); !slices.Equal(got, c.want) {
				t.Errorf("masked_fill with a mask %s on %v: %v, want %v", c.name, dev, got, c.want)
			}
		}
	}
	src := FromSlice([]float64{1, 2, 3, 4}, 4)
	if got, want := MaskedScatter(Zeros(Float64, 4), FromSlice([]float64{5e-324, 1, 0, 0}, 4), src).Float64s(), []float64{1, 0, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("masked_scatter with a float64 mask 5e-324, 1, 0, 0: %v, want %v", got, want)
	}
	if got := kindOf(func() { fill(FromSlice([]float64{5e-324 * 3}, 1)) }); got != ValueError {
		t.Errorf("masked_fill with a float64 mask whose first byte is 3: error kind %v, want a value error", got)
	}
	m := FromSlice([]int16{0, 1, 0, 1}, 4)
	x := Zeros(Float32, 4).SetRequiresGrad(true)
	s := FromSlice([]float32{1, 2, 3, 4}, 4).SetRequiresGrad(true)
	if got := kindOf(func() { MaskedScatter(x, m, s).Sum().Backward() }); got != DTypeError {
		t.Errorf("masked_scatter's source gradient through an int16 mask: error kind %v, want a dtype error", got)
	}
	MaskedScatter(x, m, s.Detach()).Sum().Backward()
	if got, want := x.Grad().Float64s(), []float64{1, 0, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("masked_scatter's input gradient through an int16 mask: %v, want %v", got, want)
	}
}

// TestIndexPutExpanded: index_put_ writes into an expanded tensor, as
// PyTorch 1.13 does (with a warning): where elements share memory the last
// write in the iterator's order stays, or with accumulate every value adds
// in (Note [Writes into expanded tensors] in package op). The small cases'
// expectations are torch's. The large one, whose first indexed dim has
// stride 0, must not be split between workers that would write one
// element at once (Note [Put partitions] in package backend/cpu): its
// int64 sum is exact.
func TestIndexPutExpanded(t *testing.T) {
	var dev Device // the index tensors' device, set below
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)).ToDevice(dev) }
	f32 := func(shape []int, xs ...float32) *Tensor { return FromSlice(xs, shape...) }
	for _, c := range []struct {
		name       string
		base       []int
		expand     []int
		items      func() []Item
		values     *Tensor
		accumulate bool
		want       []float64
	}{
		{"rows of [1,3] expanded to [4,3]", []int{1, 3}, []int{4, 3}, func() []Item { return []Item{Idx(i64(0, 2, 1))} },
			f32([]int{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9), false, []float64{7, 8, 9}},
		{"rows of [1,3] expanded to [4,3], accumulated", []int{1, 3}, []int{4, 3}, func() []Item { return []Item{Idx(i64(0, 2, 1))} },
			f32([]int{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9), true, []float64{12, 15, 18}},
		{"[1] expanded to [5]", []int{1}, []int{5}, func() []Item { return []Item{Idx(i64(3, 1, 4))} },
			f32([]int{3}, 1, 2, 3), false, []float64{3}},
		{"[1] expanded to [5], accumulated", []int{1}, []int{5}, func() []Item { return []Item{Idx(i64(3, 1, 4))} },
			f32([]int{3}, 1, 2, 3), true, []float64{6}},
		{"[:, idx] of [2,1] expanded to [2,3]", []int{2, 1}, []int{2, 3}, func() []Item { return []Item{Whole, Idx(i64(2, 0))} },
			f32([]int{2, 2}, 1, 2, 3, 4), false, []float64{2, 4}},
		{"[idx, idx] of [3,1] expanded to [3,4]", []int{3, 1}, []int{3, 4}, func() []Item { return []Item{Idx(i64(0, 2)), Idx(i64(1, 3))} },
			f32([]int{2}, 5, 6), false, []float64{5, 0, 6}},
	} {
		for _, dev = range []Device{CPU, refDevice} {
			base := Zeros(Float32, c.base...).ToDevice(dev)
			base.Expand(c.expand...).IndexPutInPlace(c.items(), c.values.ToDevice(dev), c.accumulate)
			if got := base.Float64s(); !slices.Equal(got, c.want) {
				t.Errorf("%s on %v: the base holds %v, want %v", c.name, dev, got, c.want)
			}
		}
	}
	const rows, cols = 1 << 14, 8 // 2^17 elements: past the CPU's partitioned put
	idx := make([]int64, rows)
	vals := make([]int64, rows*cols)
	var want int64
	for r := range idx {
		idx[r] = int64(r*7919) % rows
		for c := range cols {
			vals[r*cols+c] = int64(r%13 - 6)
			want += vals[r*cols+c]
		}
	}
	base := Zeros(Int64, 1, cols)
	base.Expand(rows, cols).IndexPutInPlace([]Item{Idx(FromSlice(idx, rows))}, FromSlice(vals, rows, cols), true)
	var got int64
	for _, x := range base.Int64s() {
		got += x
	}
	if got != want {
		t.Errorf("accumulating %d rows into [1, %d] expanded to [%d, %d]: the base sums to %d, want %d", rows, cols, rows, cols, got, want)
	}
}

// TestOutOverlapBeforeShapeAndDType: an out= whose elements overlap each
// other or partly overlap an input is an overlap error before any shape or
// dtype error of the op, as PyTorch 1.13's iterator checks memory overlaps
// first (seed 311), and alpha's dtype is checked after the shapes. The
// expectations are torch's.
func TestOutOverlapBeforeShapeAndDType(t *testing.T) {
	u8 := FromSlice([]uint8{0, 3, 0}, 3)
	bf := Scalar(-1.08).To(BFloat16)
	expanded := func() *Tensor { return FromSlice([]int8{3}, 1).Expand(3) }
	base := FromSlice([]int8{1, 2, 3, 4}, 4)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"where into an expanded int8", func() { WhereTo(expanded(), Ones(Bool, 3), u8, bf) }},
		{"add into an expanded int8", func() { AddTo(expanded(), u8, bf) }},
		{"maximum into an expanded int8", func() { MaximumTo(expanded(), u8, bf) }},
		{"abs into an expanded int8", func() { AbsTo(expanded(), bf.Expand(3)) }},
		{"add of [3] and [2] into an expanded int8", func() { AddTo(expanded(), Zeros(Float32, 3), Zeros(Float32, 2)) }},
		{"add into int8 that partly overlaps an input", func() { AddTo(base.Narrow(0, 1, 3), base.Narrow(0, 0, 3), FromSlice([]float32{0.5, 1, 2}, 3)) }},
		{"add of [3] and [2] into int8 that partly overlaps an input", func() { AddTo(base.Narrow(0, 1, 3), base.Narrow(0, 0, 3), Zeros(Float32, 2)) }},
		{"add with a bool alpha into an expanded int8", func() { AddTo(expanded(), bf.Expand(3), bf.Expand(3), Scalar(true)) }},
	} {
		if got := kindOf(c.f); got != OverlapError {
			t.Errorf("%s: error kind %v, want an overlap error", c.name, got)
		}
	}
	// alpha is checked after the iterator's shapes (seed 337)
	five, three := Ones(BFloat16, 5), Ones(BFloat16, 3)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"sub of [5] and [3], bool alpha", func() { Sub(five, three, Scalar(true)) }},
		{"add of [5] and [3], bool alpha", func() { Add(five, three, Scalar(true)) }},
		{"add of int32 [5] and [3], alpha 1.5", func() { Add(five.To(Int32), three.To(Int32), Scalar(1.5)) }},
	} {
		if got := kindOf(c.f); got != ShapeError {
			t.Errorf("%s: error kind %v, want a shape error", c.name, got)
		}
	}
	if got := base.Float64s(); !slices.Equal(got, []float64{1, 2, 3, 4}) {
		t.Errorf("the partly overlapped base holds %v after the errors, want it unchanged", got)
	}
}

// TestLogSumExpOverNoDims: PyTorch 1.13's logsumexp(x, dim=[]) without
// keepdim adds the max, kept [1, ...], in place to a 0-d sum, a shape
// error for an x with dims and elements; kept, or of a 0-d or empty x, it
// reduces every dim. Given no Dims at all, goten reduces every dim (seeds
// 37, 311). The expectations are torch's.
func TestLogSumExpOverNoDims(t *testing.T) {
	x := FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	const want = 5.456193316018123 // torch.logsumexp(torch.arange(6., dtype=torch.float64), 0)
	err, _ := Try(func() { LogSumExp(x, Over()) }).(*Error)
	if err == nil || err.Kind != ShapeError || !strings.Contains(err.Error(), "output with shape [] doesn't match the broadcast shape [1, 1]") {
		t.Errorf("logsumexp of [2, 3] over dim=[]: error %v, want PyTorch's shape error", err)
	}
	if k := kindOf(func() { LogSumExp(FromSlice([]int32{1, 2}, 2), Over()) }); k != ShapeError {
		t.Errorf("logsumexp of an int32 [2] over dim=[]: error kind %v, want a shape error", k)
	}
	for _, c := range []struct {
		name  string
		got   *Tensor
		shape []int
		want  float64
	}{
		{"kept", LogSumExp(x, Over().KeepDim()), []int{1, 1}, want},
		{"no Dims", LogSumExp(x), []int{}, want},
		{"0-d", LogSumExp(Scalar(2.0), Over()), []int{}, 2},
		{"empty", LogSumExp(Zeros(Float32, 0, 3), Over()), []int{}, math.Inf(-1)},
	} {
		if !slices.Equal(c.got.Shape(), c.shape) || math.Abs(c.got.Float64s()[0]-c.want) > 1e-12 {
			t.Errorf("%s: %v of shape %v, want %v of shape %v", c.name, c.got.Float64s(), c.got.Shape(), c.want, c.shape)
		}
	}
}

// TestMaskedScatterErrorOrder: where an int8 mask has a byte other than 0
// or 1 and more ones than the source has elements, PyTorch 1.13's kernel
// reports whichever it meets first walking self in memory order: each
// element's byte, then a source element for a one (seeds 41, 313). The
// expectations are torch's.
func TestMaskedScatterErrorOrder(t *testing.T) {
	mask := FromSlice([]int8{1, 1, 1, 7, 1, 1}, 2, 3)
	for _, c := range []struct {
		transposed bool
		n          int
		want       ErrorKind
	}{
		{false, 0, ShapeError}, {false, 1, ShapeError}, {false, 2, ShapeError},
		{true, 0, ShapeError}, {true, 1, ValueError}, {true, 2, ValueError},
	} {
		self := Zeros(Float32, 2, 3)
		if c.transposed {
			self = Zeros(Float32, 3, 2).T()
		}
		if got := kindOf(func() { self.MaskedScatterInPlace(mask, Ones(Float32, c.n)) }); got != c.want {
			t.Errorf("self transposed %v, %d source elements: error kind %v, want %v", c.transposed, c.n, got, c.want)
		}
		if got := self.Float64s(); slices.ContainsFunc(got, func(x float64) bool { return x != 0 }) {
			t.Errorf("self transposed %v, %d source elements: self holds %v after the error", c.transposed, c.n, got)
		}
	}
}

// TestMaskedSelectChecksMaskOnlyWithElements: a uint8 mask holding other
// values than 0 and 1 is a value error for masked_select only where there
// are elements to select from, as PyTorch 1.13's kernel checks each
// element's (seed 337). The expectations are torch's.
func TestMaskedSelectChecksMaskOnlyWithElements(t *testing.T) {
	mask := FromSlice([]uint8{7}, 1, 1)
	if r := MaskedSelect(Zeros(Uint8, 2, 0, 1, 2), mask); r.NumEl() != 0 || r.DType() != Uint8 {
		t.Errorf("masked_select of an empty uint8 by a mask of 7: %v %v, want an empty uint8", r.DType(), r.Shape())
	}
	if k := kindOf(func() { MaskedSelect(Zeros(Uint8, 2, 1), mask) }); k != ValueError {
		t.Errorf("masked_select of a [2, 1] uint8 by a mask of 7: error kind %v, want a value error", k)
	}
}

// TestIndexAddBroadcastsSlices: index_add_ of a tensor of two dims or more
// adds each slice of source into its slice through an in-place add, as
// PyTorch 1.13's kernel does: a slice that broadcasts is added so, one
// that does not is the add's shape error (before any index's bounds), and
// with no index nothing is checked; a 1-D self takes a source of at most
// one dim (seed 347). The expectations are torch's.
func TestIndexAddBroadcastsSlices(t *testing.T) {
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	got := Zeros(Float32, 3, 2).IndexAddInPlace(0, i64(0, 2), FromSlice([]float32{1, 2}, 2, 1))
	if g := got.Float64s(); !slices.Equal(g, []float64{1, 1, 0, 0, 2, 2}) {
		t.Errorf("rows [1] and [2] added to a [3, 2]: %v", g)
	}
	got = Zeros(Float32, 3, 2).IndexAddInPlace(1, i64(1, 1), FromSlice([]float32{1, 2}, 1, 2))
	if g := got.Float64s(); !slices.Equal(g, []float64{0, 3, 0, 3, 0, 3}) {
		t.Errorf("columns [1] and [2] added twice to column 1: %v", g)
	}
	if k := kindOf(func() {
		Zeros(Float32, 0, 2, 1, 6).IndexAddInPlace(0, FromSlice([]int32{}, 0), Zeros(Float32, 0, 6, 1, 6))
	}); k != 0 {
		t.Errorf("no index, slices [2, 1, 6] and [6, 1, 6]: error kind %v, want none", k)
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"slice [2, 1] into [2]", func() { Zeros(Float32, 3, 2).IndexAddInPlace(0, i64(0), Zeros(Float32, 1, 2, 1)) }},
		{"a 2-D source into a 1-D self", func() { Zeros(Float32, 3).IndexAddInPlace(0, i64(0), Zeros(Float32, 1, 1)) }},
		{"slice [3] into [2], index 5 of 3", func() { Zeros(Float32, 3, 2).IndexAddInPlace(0, i64(5), Zeros(Float32, 1, 3)) }},
	} {
		if k := kindOf(c.f); k != ShapeError {
			t.Errorf("%s: error kind %v, want a shape error", c.name, k)
		}
	}
}

// TestRepeatInterleaveChecksCountsFirst: repeat_interleave checks every
// count before it allocates, as PyTorch 1.13 does, so that a negative
// count after a huge one is its value error; a total no machine holds is
// a memory error, not the process's death (seed 353).
func TestRepeatInterleaveChecksCountsFirst(t *testing.T) {
	a := Zeros(Int16, 4)
	reps := FromSlice([]int64{1 << 53, 1, -(1 << 53), 1 << 31}, 4)
	if k := kindOf(func() { a.RepeatInterleaveBy(reps, -1) }); k != ValueError {
		t.Errorf("counts [2^53, 1, -2^53, 2^31]: error kind %v, want a value error", k)
	}
	if k := kindOf(func() { a.RepeatInterleaveBy(FromSlice([]int64{1 << 53, 1, 1, 1}, 4)) }); k != MemoryError {
		t.Errorf("counts [2^53, 1, 1, 1]: error kind %v, want a memory error", k)
	}
	if k := kindOf(func() { RepeatInterleaveCounts(FromSlice([]int64{math.MaxInt64, math.MaxInt64}, 2)) }); k != MemoryError {
		t.Errorf("counts summing past int64: error kind %v, want a memory error", k)
	}
}

// TestIndexCopyChecksOverlapFirst: index_copy_ into a self whose elements
// share memory is an overlap error before its index's dtype, dims and
// bounds and its source's dtype, count and slice shapes, as PyTorch 1.13
// checks, after the dim (seed 353). The expectations are torch's.
func TestIndexCopyChecksOverlapFirst(t *testing.T) {
	v := func() *Tensor { return Zeros(Float32, 3).Expand(2, 3) }
	i64 := func(xs ...int64) *Tensor { return FromSlice(xs, len(xs)) }
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"slices [3] and [4]", func() { v().IndexCopyInPlace(0, i64(0), Zeros(Float32, 1, 4)) }, OverlapError},
		{"two indices, one source slice", func() { v().IndexCopyInPlace(0, i64(0, 1), Zeros(Float32, 1, 3)) }, OverlapError},
		{"an int32 index", func() { v().IndexCopyInPlace(0, FromSlice([]int32{0}, 1), Zeros(Float32, 1, 3)) }, OverlapError},
		{"a float64 source", func() { v().IndexCopyInPlace(0, i64(0), Zeros(Float64, 1, 3)) }, OverlapError},
		{"index 7 of 2", func() { v().IndexCopyInPlace(0, i64(7), Zeros(Float32, 1, 3)) }, OverlapError},
		{"dim 5", func() { v().IndexCopyInPlace(5, i64(0), Zeros(Float32, 1, 3)) }, IndexError},
		{"no index, slices [2, 1, 3] and [1, 1, 3], not expanded", func() {
			Zeros(Float32, 2, 1, 1, 3).IndexCopyInPlace(1, i64(), Zeros(Float32, 1, 0, 1, 3))
		}, ShapeError},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCatOverlapAfterResize: cat checks its out for overlaps after
// resizing it, as PyTorch 1.13's meta function does, so that an empty out
// resized onto an input's memory is an overlap error (seed 419).
func TestCatOverlapAfterResize(t *testing.T) {
	base := FromSlice([]float32{1, 2, 3, 4}, 4)
	a, empty := base.Slice(0, 1, 2, 1), base.Slice(0, 1, 1, 1)
	if k := kindOf(func() { CatTo(empty, []*Tensor{a}, 0) }); k != OverlapError {
		t.Errorf("an empty out at an input's element: error kind %v, want an overlap error", k)
	}
	out := base.Slice(0, 2, 2, 1)
	CatTo(out, []*Tensor{a}, 0)
	if g := base.Float64s(); !slices.Equal(g, []float64{1, 2, 2, 4}) {
		t.Errorf("an empty out beside the input: base %v, want [1 2 2 4]", g)
	}
}

// TestEinsumOneOperandSums: einsum of one operand sums every label its
// output lacks, of size 1 too, so that integers come out int64, as
// PyTorch 1.13's einsum gives; without a sum it stays in the operand's
// dtype (seed 431). The expectations are torch's.
func TestEinsumOneOperandSums(t *testing.T) {
	for _, c := range []struct {
		eq    string
		shape []int
		want  DType
	}{
		{"ii->", []int{1, 1}, Int64},
		{"ij->", []int{1, 1}, Int64},
		{"ij->i", []int{2, 1}, Int64},
		{"i->", []int{1}, Int64},
		{"ii->i", []int{1, 1}, Int32},
		{"ij->ji", []int{0, 1}, Int32},
	} {
		if got := Einsum(c.eq, Ones(Int32, c.shape...)).DType(); got != c.want {
			t.Errorf("einsum(%q) of int32 %v: dtype %v, want %v", c.eq, c.shape, got, c.want)
		}
	}
}

// TestNormTakesPAsFloat32: norm's kernels take p as a float32, as PyTorch
// 1.13's do: 0.001 is 0.0010000000475 (which its 1000th root makes plain),
// 1e300 is +Inf and 1e-50 is 0; the derivative reads p itself (seed 433).
// The expectations are torch's.
func TestNormTakesPAsFloat32(t *testing.T) {
	x := FromSlice([]float64{0.1871907438762729, -0.44458418678342504}, 1, 2)
	// the root multiplies pow's last-ulp differences by 1000; p as a
	// float64 would be 3e-5 off
	if got := x.Norm(Over(1).P(0.001)).Item(); math.Abs(got/3.091300160293762e+300-1) > 1e-9 {
		t.Errorf("norm p=0.001: %v, want 3.091300160293762e+300", got)
	}
	m := FromSlice([]float64{0.5, 2, 0, 1.5, -3, 0.25}, 2, 3)
	for _, c := range []struct {
		p    float64
		want []float64
	}{{1e300, []float64{2, 3}}, {1e-50, []float64{2, 3}}, {-1e300, []float64{0, 0.25}}} {
		if got := m.Norm(Over(1).P(c.p)).Float64s(); !slices.Equal(got, c.want) {
			t.Errorf("norm p=%v over rows: %v, want %v", c.p, got, c.want)
		}
	}
	a := FromSlice([]float64{0.5, -0.25, 2, -1}, 4).SetRequiresGrad(true)
	a.Norm(Over(0).P(1e-50)).Backward()
	if g := a.Grad().Float64s(); !slices.Equal(g, []float64{8, -16, 2, -4}) {
		t.Errorf("grad of norm p=1e-50 (count 4, p itself in the derivative): %v, want [8 -16 2 -4]", g)
	}
}

// TestAddcmulFused: addcmul adds value·t1·t2 to self by one fused
// multiply-add, as PyTorch 1.13's kernels (built with FMA contraction)
// do, so that the product's last bits count and a product past the
// dtype's range can still give a finite sum (seed 439). The expectations
// are torch's.
func TestAddcmulFused(t *testing.T) {
	for _, c := range []struct {
		name      string
		dt        DType
		x, t1, t2 float64
		want      float64
	}{
		{"float32", Float32, -1, 1 + 0x1p-12, 1 + 0x1p-12, 0x1p-11 + 0x1p-24},
		{"float64", Float64, -1, 1 + 0x1p-27, 1 + 0x1p-27, 0x1p-26 + 0x1p-54},
		{"bfloat16 past float32's range", BFloat16, 3.00405527047391e+38, -3.00405527047391e+38, 1.5, -1.502027635236955e+38},
	} {
		for _, n := range []int{1, 40} {
			full := func(v float64) *Tensor { return FromSlice([]float64{v}, 1).Expand(n).To(c.dt) }
			got := Addcmul(full(c.x), full(c.t1), full(c.t2)).Float64s()
			for i, g := range got {
				if g != c.want {
					t.Errorf("%s, %d elements: element %d is %v, want %v", c.name, n, i, g, c.want)
					break
				}
			}
		}
	}
}

// TestCrossFused: cross computes x·y − z·w as fma(x, y, −round(z·w)) in
// float32 and float64, as PyTorch 1.13's kernel, built with FMA
// contraction, does: equal products leave the rounding error of one
// (the known gap this replaced: factories/cross/002 of
// conformance-variants). The expectations are torch's.
func TestCrossFused(t *testing.T) {
	e := 0x1p-12
	a := FromSlice([]float32{1 + float32(e), 1 + float32(e), 0}, 3)
	b := FromSlice([]float32{1 + float32(e), 1 + float32(e), 0}, 3)
	// component 2 is a0·b1 − a1·b0, one exact product minus the same rounded
	want := 0x1p-24 // round((1+e)²) = 1 + 2e, to even, drops e² = 2^-24
	if got := Cross(a, b, 0).Float64s()[2]; got != want {
		t.Errorf("float32 cross of equal products: %v, want %v", got, want)
	}
	big := FromSlice([]float64{1.7e308, 1.7e308, 0}, 3)
	half := FromSlice([]float64{0.51, 0.51, 0}, 3)
	if got := Cross(big, half, 0).Float64s()[2]; got != -1.6834411817653389e+291 {
		t.Errorf("float64 cross of equal products 1.7e308·0.51: %v, want the rounding error of one, -1.6834411817653389e+291", got)
	}
}

// TestLerpFused: lerp's two branches, a + w·(b − a) and b − (b − a)·(1 −
// w), are each one fused multiply-add, as PyTorch 1.13's kernel, built
// with FMA contraction, computes them. The inputs and expectations are
// torch's (randn·100, rand weights) where the unfused form differs.
func TestLerpFused(t *testing.T) {
	for _, c := range []struct {
		dt            DType
		a, b, w, want float64
	}{
		{Float32, 35.98815155029297, -42.32992935180664, 0.5307102203369141, -5.576052665710449},
		{Float32, -28.678030014038086, 139.60104370117188, 0.3794850707054138, 35.18136215209961},
		{Float64, 40.70359753605457, -10.154365089642894, 0.07856675273152236, 36.7078525620124},
		{Float64, 55.5927066018184, -27.531364577038055, 0.6820190502116471, -1.0994934733106285},
	} {
		one := func(v float64) *Tensor { return FromSlice([]float64{v}, 1).To(c.dt) }
		if got := Lerp(one(c.a), one(c.b), one(c.w)).Item(); got != c.want {
			t.Errorf("%v lerp(%v, %v, %v) = %v, want %v", c.dt, c.a, c.b, c.w, got, c.want)
		}
	}
}

// TestHistcCheckOrder: histc checks its bins, then its range, then the
// dtype, as PyTorch 1.13 does; float16 has no kernel (seed 439). The
// expectations are torch's.
func TestHistcCheckOrder(t *testing.T) {
	b, i, h := FromSlice([]bool{false}, 1), FromSlice([]int64{5, 5}, 2), FromSlice([]float64{1, 2}, 2).To(Float16)
	for _, c := range []struct {
		name   string
		f      func()
		want   ErrorKind
		substr string
	}{
		{"bool, min 1 > max 0", func() { Histc(b, 6, 1, 0) }, ValueError, "max must be larger than min"},
		{"int64, bins 0", func() { Histc(i, 0, 0, 1) }, ValueError, "bins must be > 0"},
		{"int64, min NaN", func() { Histc(i, 3, math.NaN(), 1) }, ValueError, "is not finite"},
		{"int64, min = max", func() { Histc(i, 3, 0, 0) }, DTypeError, `"histogram_cpu" not implemented for 'Long'`},
		{"bool", func() { Histc(b, 3, 0, 1) }, DTypeError, `"linspace_cpu" not implemented for 'Bool'`},
		{"float16", func() { Histc(h, 3, 0, 1) }, DTypeError, `"histogram_cpu" not implemented for 'Half'`},
		{"float16, min = max", func() { Histc(h, 3, 1, 1) }, DTypeError, `"aminmax_cpu" not implemented for 'Half'`},
	} {
		err := Try(c.f)
		var e *Error
		if !errors.As(err, &e) || e.Kind != c.want || !strings.Contains(e.Msg, c.substr) {
			t.Errorf("%s: %v, want a %v error containing %q", c.name, err, c.want, c.substr)
		}
	}
	if got := Histc(FromSlice([]float64{1, 2}, 2).To(BFloat16), 3, 1, 1).Float64s(); !slices.Equal(got, []float64{1, 0, 1}) {
		t.Errorf("bfloat16 [1, 2] in 3 bins over its extrema: %v, want [1 0 1]", got)
	}
}

// TestBCEWithLogitsTargetGradPromotion: without pos_weight the target's
// gradient of binary_cross_entropy_with_logits is −x·g, which a reduced
// loss's 0-dim g does not promote: a bfloat16 x gives a float64 target a
// bfloat16-rounded gradient, as in PyTorch 1.13 (seed 457). The
// expectations are torch's.
func TestBCEWithLogitsTargetGradPromotion(t *testing.T) {
	for _, c := range []struct {
		reduction LossReduction
		want      []float64
	}{
		{ReduceLossNone, []float64{9.609375, -4.1953125}},
		{ReduceLossSum, []float64{9.625, -4.1875}},
		{ReduceLossMean, []float64{4.8125, -2.09375}},
	} {
		x := FromSlice([]float64{-3.203125, 1.3984375}, 2).To(BFloat16).SetRequiresGrad(true)
		tt := FromSlice([]float64{0.3, 0.7}, 2).SetRequiresGrad(true)
		l := BinaryCrossEntropyWithLogits(x, tt, LossOptions{Reduction: c.reduction})
		l.Backward(FullLike(l, Scalar(3.0)))
		if g := tt.Grad().Float64s(); !slices.Equal(g, c.want) {
			t.Errorf("reduction %v: target's gradient %v, want %v", c.reduction, g, c.want)
		}
	}
}

// TestCrossEntropyNoClasses: scores of no classes whose targets are all
// ignored give PyTorch 1.13's losses (0, NaN for the mean) and empty
// gradients, with nothing gathered; a target not ignored is an index
// error (seed 463). The expectations are torch's.
func TestCrossEntropyNoClasses(t *testing.T) {
	for _, c := range []struct {
		shape   []int
		targets []int64
		red     LossReduction
		want    []float64
	}{
		{[]int{0}, []int64{-1}, ReduceLossNone, []float64{0}},
		{[]int{0}, []int64{-1}, ReduceLossMean, []float64{math.NaN()}},
		{[]int{2, 0}, []int64{-1, -1}, ReduceLossNone, []float64{0, 0}},
		{[]int{2, 0}, []int64{-1, -1}, ReduceLossSum, []float64{0}},
	} {
		x := Zeros(Float64, c.shape...).SetRequiresGrad(true)
		tt := FromSlice(c.targets, len(c.targets))
		if len(c.shape) == 1 {
			tt = tt.Reshape()
		}
		l := CrossEntropy(x, tt, LossOptions{IgnoreIndex: -1, HasIgnoreIndex: true, Reduction: c.red})
		if got := l.Float64s(); !slices.EqualFunc(got, c.want, func(a, b float64) bool { return a == b || a != a && b != b }) {
			t.Errorf("%v scores, targets %v, %v: %v, want %v", c.shape, c.targets, c.red, got, c.want)
		}
		l.Sum().Backward()
		if g := x.Grad(); g == nil || !slices.Equal(g.Shape(), c.shape) {
			t.Errorf("%v scores, %v: gradient %v, want an empty one of the scores' shape", c.shape, c.red, g)
		}
	}
	if k := kindOf(func() {
		CrossEntropy(Zeros(Float64, 0), FromSlice([]int64{0}, 1).Reshape(), LossOptions{IgnoreIndex: -1, HasIgnoreIndex: true})
	}); k != IndexError {
		t.Errorf("target 0 of no classes: error kind %v, want an index error", k)
	}
}

// TestUnaryReadsBroadcastInputOnce: a unary op reads a broadcast (stride-0)
// input once, before it writes, as PyTorch 1.13's VML kernels (exp, sin,
// sqrt, ...) and vectorized loops do, so that an out= resized onto that
// input's element does not see its own writes (seed 479). The
// expectation is torch's: every element exp(-1).
func TestUnaryReadsBroadcastInputOnce(t *testing.T) {
	base := FromSlice([]float32{-1.2, 0.6, -0.6, -1, 1.5, 1.7, -0.2}, 7).AsStridedAt([]int{5}, []int{0}, 3)
	out := base.Slice(0, 5, 10, 1) // empty, at element 3: resized onto it
	ExpTo(out, base)
	want := float64(float32(math.Exp(-1)))
	for i, v := range out.Float64s() {
		if v != want {
			t.Errorf("exp into an out= resized onto its input: element %d is %v, want %v", i, v, want)
		}
	}
}

// TestAddAlphaFused: add and sub with alpha are one fused multiply-add on
// every layout, as PyTorch 1.13's kernels are (its scalar loops by FMA
// contraction); goten's SIMD rows fused already, its strided loops did
// not. The expectation is torch's: (1+2^-27)² - 1 unrounded.
func TestAddAlphaFused(t *testing.T) {
	const e = 0x1p-27
	want := 0x1p-26 + 0x1p-54
	for _, n := range []int{1, 40} {
		a := Full(Scalar(-1.0), Float64, 2*n).Slice(0, 0, 2*n, 2)
		b := Full(Scalar(1+e), Float64, 2*n).Slice(0, 0, 2*n, 2)
		for name, r := range map[string]*Tensor{
			"strided add":    Add(a, b, Scalar(1+e)),
			"strided sub":    Sub(a, b, Scalar(-(1 + e))),
			"contiguous add": Add(a.Contiguous(), b.Contiguous(), Scalar(1+e)),
		} {
			for i, v := range r.Float64s() {
				if v != want {
					t.Errorf("%s of %d: element %d is %v, want %v", name, n, i, v, want)
					break
				}
			}
		}
	}
}
