package nested_test

import (
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// checkPadded checks p against the definition of to_padded_tensor: element
// (i, r, c) is component i's when it has that element, else pad.
func checkPadded(t *testing.T, what string, p *tensor.Tensor, cs []*tensor.Tensor, pad float64) {
	t.Helper()
	for i, c := range cs {
		for r := range p.Size(1) {
			for k := range p.Size(2) {
				want := pad
				if r < c.Size(0) && k < c.Size(1) {
					want = c.At(r, k)
				}
				if got := p.At(i, r, k); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%s: element (%d, %d, %d) is %v, want %v", what, i, r, k, got, want)
				}
			}
		}
	}
}

// Only the first dim ragged: the padded tensor is made by rows (Note
// [Padding by rows]), for packed and transposed components, with and
// without an output size, with components already of the full length.
func TestPaddedByRows(t *testing.T) {
	g := tensor.NewGenerator(12)
	cs := ragged(g, []int{3, 4}, []int{0, 4}, []int{5, 4}, []int{1, 4})
	x := nested.New(cs, tensor.Float64)
	checkPadded(t, "packed", nested.ToPadded(x, tensor.Scalar(-3.5), nil), cs, -3.5)
	p := nested.ToPadded(x, tensor.Scalar(math.NaN()), []int{4, 7, 4})
	if p.Size(1) != 7 {
		t.Fatalf("output size: shape %v", p.Shape())
	}
	checkPadded(t, "output size", p, cs, math.NaN())
	checkPadded(t, "wider output", nested.ToPadded(x, tensor.Scalar(2.0), []int{4, 5, 6}), cs, 2)

	full := ragged(g, []int{2, 3}, []int{2, 3})
	checkPadded(t, "no padding", nested.ToPadded(nested.New(full, tensor.Float64), tensor.Scalar(0.0), nil), full, 0)

	// transposed components [4, n]→[n, 4] read through their strides
	ts := ragged(g, []int{4, 2}, []int{4, 6})
	tx := nested.Transpose(nested.New(ts, tensor.Float64), 1, 2)
	want := []*tensor.Tensor{ts[0].T(), ts[1].T()}
	checkPadded(t, "transposed", nested.ToPadded(tx, tensor.Scalar(9.0), nil), want, 9)

	i32 := []*tensor.Tensor{tensor.FromSlice([]int32{1, 2, 3, 4}, 2, 2), tensor.FromSlice([]int32{5, 6}, 1, 2)}
	pi := nested.ToPadded(nested.New(i32, tensor.Int32), tensor.Scalar(-7), nil)
	if pi.DType() != tensor.Int32 {
		t.Fatalf("int32 padded as %v", pi.DType())
	}
	checkPadded(t, "int32", pi, i32, -7)
}

// Under autograd the rows path records cat: each component's gradient is
// its rows of the padded gradient, and the padding gets none.
func TestPaddedByRowsGrad(t *testing.T) {
	g := tensor.NewGenerator(13)
	cs := ragged(g, []int{2, 3}, []int{4, 3}, []int{1, 3})
	x := nested.New(cs, tensor.Float64)
	x.SetRequiresGrad(true)
	p := nested.ToPadded(x, tensor.Scalar(-1.0), []int{3, 5, 3})
	checkPadded(t, "under autograd", p, cs, -1)
	seed := g.Randn(tensor.Float64, 3, 5, 3)
	p.Backward(seed)
	for i, c := range cs {
		near(t, "grad", x.Grad().Component(i), seed.Select(0, i).Narrow(0, 0, c.Size(0)))
	}
}

// benchComponents returns the nested_to_padded workload's components (64
// of 16..512 rows × 256 float32), their rows and the longest.
func benchComponents() ([]*tensor.Tensor, int, int) {
	cs := make([]*tensor.Tensor, 64)
	rows, most := 0, 0
	for i := range cs {
		n := 16 + ((7919*i+13)%1009)%497
		cs[i] = tensor.Ones(tensor.Float32, n, 256)
		rows, most = rows+n, max(most, n)
	}
	return cs, rows, most
}

// BenchmarkToPadded times the nested_to_padded workload's shape (64
// components of 16..512 rows × 256 float32); bytes are those read and
// written once each, as WORKLOADS.md counts them.
func BenchmarkToPadded(b *testing.B) {
	cs, rows, most := benchComponents()
	x := nested.New(cs, tensor.Float32)
	b.SetBytes(int64(4 * (rows + 64*most) * 256))
	b.ResetTimer()
	for range b.N {
		nested.ToPadded(x, tensor.Scalar(0.0), nil)
	}
}

// BenchmarkToPaddedByCat times the same through one cat of components
// and padding blocks (the path of layouts other than packed), for
// comparison.
func BenchmarkToPaddedByCat(b *testing.B) {
	cs, rows, most := benchComponents()
	b.SetBytes(int64(4 * (rows + 64*most) * 256))
	b.ResetTimer()
	for range b.N {
		blk := tensor.Zeros(tensor.Float32, most, 256)
		parts := make([]*tensor.Tensor, 0, 2*len(cs))
		for _, c := range cs {
			parts = append(parts, c, blk.Narrow(0, 0, most-c.Size(0)))
		}
		tensor.Cat(parts, 0)
	}
}

// BenchmarkCopySameBytes copies a tensor of the padded one's size into a
// new one: the memory bandwidth to compare the padding's with (it moves
// more bytes: it reads the whole padded size).
func BenchmarkCopySameBytes(b *testing.B) {
	_, _, most := benchComponents()
	src := tensor.Ones(tensor.Float32, 64*most, 256)
	b.SetBytes(int64(2 * 4 * 64 * most * 256))
	b.ResetTimer()
	for range b.N {
		src.Clone()
	}
}

// checkMask checks a mask against the definition: true exactly at the
// elements of the padded shape that lie inside component i.
func checkMask(t *testing.T, what string, m *tensor.Tensor, shapes [][]int) {
	t.Helper()
	if m.DType() != tensor.Bool {
		t.Fatalf("%s: mask of %v", what, m.DType())
	}
	for i, sh := range shapes {
		for r := range m.Size(1) {
			for c := range m.Size(2) {
				want := 0.0
				if r < sh[0] && c < sh[1] {
					want = 1
				}
				if got := m.At(i, r, c); got != want {
					t.Fatalf("%s: mask (%d, %d, %d) is %v, want %v", what, i, r, c, got, want)
				}
			}
		}
	}
}

func TestPaddedWithMask(t *testing.T) {
	g := tensor.NewGenerator(14)
	rowsOnly := [][]int{{3, 2}, {1, 2}, {0, 2}}
	cs := ragged(g, rowsOnly...)
	p, m := nested.ToPaddedWithMask(nested.New(cs, tensor.Float64), tensor.Scalar(-1.0), nil)
	checkPadded(t, "padded", p, cs, -1)
	checkMask(t, "rows only", m, rowsOnly)
	if st := m.Strides(); st[2] != 0 {
		t.Errorf("the mask of a first-dim raggedness is not an expanded view: strides %v", st)
	}
	// padded values under the mask are the components': masked_select gives the buffer
	x := nested.New(cs, tensor.Float64)
	if got, want := tensor.MaskedSelect(p, m).Float64s(), x.Values().Float64s(); !slices.Equal(got, want) {
		t.Errorf("masked_select(padded, mask) = %v, want the buffer %v", got, want)
	}
	both := [][]int{{2, 3}, {1, 4}}
	cs2 := ragged(g, both...)
	p2, m2 := nested.ToPaddedWithMask(nested.New(cs2, tensor.Float64), tensor.Scalar(0.0), []int{2, 3, 5})
	checkPadded(t, "padded, two ragged dims", p2, cs2, 0)
	checkMask(t, "two ragged dims", m2, both)
}

func TestCuSeqlens(t *testing.T) {
	g := tensor.NewGenerator(15)
	x := nested.New(ragged(g, []int{3, 2}, []int{0, 2}, []int{4, 2}), tensor.Float64)
	for _, dt := range []tensor.DType{tensor.Int64, tensor.Int32} {
		cu := x.CuSeqlens(dt)
		if cu.DType() != dt || !slices.Equal(cu.Float64s(), []float64{0, 3, 3, 7}) {
			t.Fatalf("cu_seqlens %v %v", cu.DType(), cu.Float64s())
		}
	}
	rows := x.Values().View(7, 2)
	y := nested.FromCuSeqlens(rows, x.CuSeqlens(tensor.Int32))
	if !y.Values().SharesStorage(rows) || y.Len() != 3 {
		t.Fatalf("from_cu_seqlens copied or lost components: %v", y)
	}
	for i := range x.Len() {
		near(t, "from_cu_seqlens", y.Component(i), x.Component(i))
	}
	for what, f := range map[string]func(){
		"float dtype":        func() { x.CuSeqlens(tensor.Float32) },
		"not ending at rows": func() { nested.FromCuSeqlens(rows, tensor.FromSlice([]int64{0, 3}, 2)) },
		"decreasing":         func() { nested.FromCuSeqlens(rows, tensor.FromSlice([]int64{0, 4, 3, 7}, 4)) },
	} {
		if k := errKind(f); k != tensor.ValueError {
			t.Errorf("%s: kind %v, want value", what, k)
		}
	}
}

// TestToPaddedNothingToPad: a padding that the dtype cannot hold (−inf
// for int8) is an error only where some element is padding, as PyTorch's
// constant_pad_nd converts it only then (seed 509).
func TestToPaddedNothingToPad(t *testing.T) {
	i8 := func(v int8) *tensor.Tensor { return tensor.FromSlice([]int8{v}, 1, 1) }
	x := nested.New([]*tensor.Tensor{i8(9), i8(10)}, tensor.Int8)
	p := nested.ToPadded(x, tensor.Scalar(math.Inf(-1)), nil)
	if got := p.Float64s(); len(got) != 2 || got[0] != 9 || got[1] != 10 {
		t.Errorf("int8 [1, 1] twice padded with -inf: %v, want [9 10]", got)
	}
	if k := errKind(func() { nested.ToPadded(x, tensor.Scalar(math.Inf(-1)), []int{2, 2, 1}) }); k != tensor.ValueError {
		t.Errorf("int8 padded to [2, 2, 1] with -inf: error kind %v, want a value error", k)
	}
}
