package tensor_test

import (
	"errors"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// TestMatmulTo checks MatmulTo against Matmul for every rank combination
// and for outs that the product cannot write directly: transposed,
// permuted so that the batch cannot be viewed as matrices, empty (resized),
// and the same memory as an operand.
func TestMatmulTo(t *testing.T) {
	f := dtype.Float32
	for _, c := range []struct {
		name string
		a, b *tensor.Tensor
	}{
		{"dot", sample(f, 1, 5), sample(f, 2, 5)},
		{"mv", sample(f, 1, 4, 5), sample(f, 2, 5)},
		{"vm", sample(f, 1, 5), sample(f, 2, 5, 3)},
		{"mm", sample(f, 1, 4, 5), sample(f, 2, 5, 3)},
		{"bmm", sample(f, 1, 2, 4, 5), sample(f, 2, 2, 5, 3)},
		{"broadcast", sample(f, 1, 3, 1, 4, 5), sample(f, 2, 2, 5, 3)},
		{"batch·vector", sample(f, 1, 2, 4, 5), sample(f, 2, 5)},
		{"vector·batch", sample(f, 1, 5), sample(f, 2, 2, 5, 3)},
		{"f64", sample(dtype.Float64, 1, 4, 5), sample(dtype.Float64, 2, 5, 3)},
		{"bf16", sample(dtype.BFloat16, 1, 4, 5), sample(dtype.BFloat16, 2, 5, 3)},
		{"int32", sample(dtype.Int32, 1, 2, 4, 5), sample(dtype.Int32, 2, 5, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := tensor.Matmul(c.a, c.b)
			dst := tensor.Empty(want.DType(), want.Shape()...)
			same(t, "To", tensor.MatmulTo(dst, c.a, c.b), want)
			same(t, "dst", dst, want)
			empty := tensor.Empty(want.DType(), 0)
			same(t, "empty dst", tensor.MatmulTo(empty, c.a, c.b), want)
			if n := want.Dim(); n >= 2 {
				// dst's last two dims swapped: its rows are columns in memory,
				// and for a batch its matrices cannot be seen as one batch view.
				sh := want.Shape()
				sh[n-2], sh[n-1] = sh[n-1], sh[n-2]
				tr := tensor.Empty(want.DType(), sh...).Transpose(n-2, n-1)
				tensor.MatmulTo(tr, c.a, c.b)
				same(t, "transposed dst", tr, want)
			}
			if n := want.Dim(); n == 3 {
				sh := want.Shape()
				p := tensor.Empty(want.DType(), sh[1], sh[2], sh[0]).Permute(2, 0, 1)
				tensor.MatmulTo(p, c.a, c.b)
				same(t, "permuted dst", p, want)
			}
		})
	}
}

// TestMatmulToAliased checks a product written over one of its own
// operands: a·a into a (each element of the result reads a whole row and
// column of the old a), large enough that the GEMM writes blocks of the
// result before it reads the last blocks of a, and m·v into v, long
// enough that the matrix-vector kernels write v before their last rows.
func TestMatmulToAliased(t *testing.T) {
	a := sample(dtype.Float32, 1, 300, 300)
	want := tensor.Matmul(a, a)
	same(t, "a = a·a", tensor.MatmulTo(a, a, a), want)
	v := sample(dtype.Float64, 2, 64)
	m := sample(dtype.Float64, 3, 64, 64)
	want = tensor.Mv(m, v)
	tensor.MatmulTo(v, m, v)
	same(t, "v = m·v", v, want)
}

// TestOutErrors checks the out= refusals of MatmulTo and LayerNormTo, and
// that dst is left untouched by them.
func TestOutErrors(t *testing.T) {
	a, b := sample(dtype.Float32, 1, 2, 3), sample(dtype.Float32, 2, 3, 4)
	x := sample(dtype.Float32, 3, 2, 3)
	for _, c := range []struct {
		name string
		kind tensor.ErrorKind
		dst  *tensor.Tensor
		f    func(dst *tensor.Tensor)
	}{
		{"matmul dtype", tensor.DTypeError, tensor.Zeros(dtype.Float64, 2, 4), func(d *tensor.Tensor) { tensor.MatmulTo(d, a, b) }},
		{"matmul shape", tensor.ShapeError, tensor.Zeros(dtype.Float32, 4, 2), func(d *tensor.Tensor) { tensor.MatmulTo(d, a, b) }},
		{"matmul overlap", tensor.OverlapError, tensor.Zeros(dtype.Float32, 1, 4).Expand(2, 4), func(d *tensor.Tensor) { tensor.MatmulTo(d, a, b) }},
		{"matmul inner size", tensor.ShapeError, tensor.Zeros(dtype.Float32, 2, 4), func(d *tensor.Tensor) { tensor.MatmulTo(d, a, a) }},
		{"layer_norm dtype", tensor.DTypeError, tensor.Zeros(dtype.Float64, 2, 3), func(d *tensor.Tensor) { tensor.LayerNormTo(d, x, []int{3}, nil, nil, 1e-5) }},
		{"layer_norm shape", tensor.ShapeError, tensor.Zeros(dtype.Float32, 3, 2), func(d *tensor.Tensor) { tensor.LayerNormTo(d, x, []int{3}, nil, nil, 1e-5) }},
		{"layer_norm grad", tensor.AutogradError, tensor.Zeros(dtype.Float32, 2, 3), func(d *tensor.Tensor) {
			tensor.LayerNormTo(d, x.Clone().SetRequiresGrad(true), []int{3}, nil, nil, 1e-5)
		}},
		{"matmul grad", tensor.AutogradError, tensor.Zeros(dtype.Float32, 2, 4), func(d *tensor.Tensor) {
			tensor.MatmulTo(d, a.Clone().SetRequiresGrad(true), b)
		}},
	} {
		before := c.dst.Clone()
		err := tensor.Try(func() { c.f(c.dst) })
		var te *tensor.Error
		if !errors.As(err, &te) || te.Kind != c.kind {
			t.Errorf("%s: error %v, want kind %v", c.name, err, c.kind)
			continue
		}
		same(t, c.name+": dst", c.dst, before)
	}
}

// TestLayerNormTo checks LayerNormTo against LayerNorm into a new, an
// empty, a transposed and an aliased (in-place) dst.
func TestLayerNormTo(t *testing.T) {
	for _, dt := range []dtype.DType{dtype.Float32, dtype.Float64, dtype.BFloat16} {
		x := sample(dt, 1, 4, 6)
		w, bias := sample(dt, 2, 6), sample(dt, 3, 6)
		want := tensor.LayerNorm(x, []int{6}, w, bias, 1e-5)
		dst := tensor.Empty(dt, 4, 6)
		same(t, dt.String()+" To", tensor.LayerNormTo(dst, x, []int{6}, w, bias, 1e-5), want)
		same(t, dt.String()+" dst", dst, want)
		empty := tensor.Empty(dt, 0)
		same(t, dt.String()+" empty dst", tensor.LayerNormTo(empty, x, []int{6}, w, bias, 1e-5), want)
		tr := tensor.Empty(dt, 6, 4).T()
		tensor.LayerNormTo(tr, x, []int{6}, w, bias, 1e-5)
		same(t, dt.String()+" transposed dst", tr, want)
		in := x.Clone()
		tensor.LayerNormTo(in, in, []int{6}, w, bias, 1e-5)
		same(t, dt.String()+" in place", in, want)
	}
}
