package nested_test

import (
	"math"
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
