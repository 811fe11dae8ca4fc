package tensor_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// TestMatmulIntegerWraps checks that integer products accumulate in int64
// and wrap as PyTorch's do: 2^62·3 + 2^62·1 = 2^64 wraps to 0 (a float64
// accumulator would give -2^63).
func TestMatmulIntegerWraps(t *testing.T) {
	a := tensor.FromSlice([]int64{1 << 62, 1 << 62}, 1, 2)
	b := tensor.FromSlice([]int64{3, 1}, 2, 1)
	if got := a.Matmul(b).Item(); got != 0 {
		t.Errorf("int64 matmul = %v, want 0", got)
	}
	i8 := tensor.FromSlice([]int8{100, 100}, 1, 2)
	if got := i8.Matmul(tensor.FromSlice([]int8{2, 2}, 2, 1)).Item(); got != -112 {
		t.Errorf("int8 matmul = %v, want -112 (400 wrapped)", got)
	}
}

// TestMatmulBFloat16AccumulatesInFloat32: 4096 products of 0.1 and 1 sum to
// about 410 in float32; a bfloat16 accumulator stalls at 32.
func TestMatmulBFloat16AccumulatesInFloat32(t *testing.T) {
	x := tensor.Full(tensor.Scalar(0.1), tensor.BFloat16, 1, 4096)
	y := tensor.Ones(tensor.BFloat16, 4096, 1)
	if got := x.Matmul(y).Item(); got != 410 {
		t.Errorf("bfloat16 matmul = %v, want 410", got)
	}
}

// TestMatmulBoolRefused checks that every product refuses bool with a dtype
// error naming PyTorch's kernel, before allocating a result.
func TestMatmulBoolRefused(t *testing.T) {
	m, v, b3 := tensor.Ones(tensor.Bool, 2, 2), tensor.Ones(tensor.Bool, 2), tensor.Ones(tensor.Bool, 1, 2, 2)
	for _, c := range []struct {
		name, kernel string
		f            func()
	}{
		{"mm", "addmm_impl_cpu_", func() { tensor.Mm(m, m) }},
		{"bmm", "bmm", func() { tensor.Bmm(b3, b3) }},
		{"mv", "addmv_impl_cpu", func() { tensor.Mv(m, v) }},
		{"dot", "dot", func() { tensor.Dot(v, v) }},
		{"matmul", "bmm", func() { tensor.Matmul(b3, b3) }},
	} {
		err := tensor.Try(c.f)
		var te *tensor.Error
		if !errors.As(err, &te) || te.Kind != tensor.DTypeError || !strings.Contains(err.Error(), `"`+c.kernel+`" not implemented for 'bool'`) {
			t.Errorf("%s of bools: error %v, want a dtype error naming %q", c.name, err, c.kernel)
		}
	}
}

// TestEmptyProductFloatBeta: with k = 0, PyTorch computes addmm's and
// baddbmm's beta·input as an in-place multiply, which refuses a float
// beta for an integer or bool result (a dtype error) unless beta is 0 or
// the result is empty; with k > 0 the float beta is truncated. The
// expectations are torch 1.13's.
func TestEmptyProductFloatBeta(t *testing.T) {
	i8 := func(sh ...int) *tensor.Tensor { return tensor.Full(tensor.Scalar(3), tensor.Int8, sh...) }
	for _, c := range []struct {
		name string
		f    func() *tensor.Tensor
		want float64 // first element; NaN: a dtype error
	}{
		{"addmm k=0 beta=2.0", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 0), i8(0, 4), tensor.Scalar(2.0), nil) }, math.NaN()},
		{"addmm k=0 beta=1.0", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 0), i8(0, 4), tensor.Scalar(1.0), nil) }, math.NaN()},
		{"addmm k=0 beta=0.0", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 0), i8(0, 4), tensor.Scalar(0.0), nil) }, 0},
		{"addmm k=0 beta=2", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 0), i8(0, 4), tensor.Scalar(2), nil) }, 6},
		{"addmm k=0 alpha=2.5", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 0), i8(0, 4), nil, tensor.Scalar(2.5)) }, 3},
		{"addmm k=0 n=0 beta=2.0", func() *tensor.Tensor { return tensor.Addmm(i8(0, 4), i8(0, 0), i8(0, 4), tensor.Scalar(2.0), nil) }, math.Inf(1)},
		{"addmm k=1 beta=2.0", func() *tensor.Tensor { return tensor.Addmm(i8(3, 4), i8(3, 1), i8(1, 4), tensor.Scalar(2.0), nil) }, 15},
		{"addmm float k=0 beta=2.5", func() *tensor.Tensor {
			return tensor.Addmm(tensor.Ones(tensor.Float16, 3, 4), tensor.Ones(tensor.Float16, 3, 0), tensor.Ones(tensor.Float16, 0, 4), tensor.Scalar(2.5), nil)
		}, 2.5},
		{"baddbmm k=0 beta=1.0", func() *tensor.Tensor { return tensor.Baddbmm(i8(4), i8(2, 3, 0), i8(2, 0, 4), tensor.Scalar(1.0), nil) }, math.NaN()},
		{"baddbmm k=0 beta=1", func() *tensor.Tensor { return tensor.Baddbmm(i8(4), i8(2, 3, 0), i8(2, 0, 4), tensor.Scalar(1), nil) }, 3},
	} {
		var r *tensor.Tensor
		err := tensor.Try(func() { r = c.f() })
		var e *tensor.Error
		switch {
		case math.IsNaN(c.want):
			if !errors.As(err, &e) || e.Kind != tensor.DTypeError || !strings.Contains(e.Msg, "can't be cast to the desired output type") {
				t.Errorf("%s: got %v, want a dtype error", c.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case math.IsInf(c.want, 1):
			if r.NumEl() != 0 {
				t.Errorf("%s: %d elements, want none", c.name, r.NumEl())
			}
		case r.Flatten(0, -1).Float64s()[0] != c.want:
			t.Errorf("%s: first element %v, want %v", c.name, r.Flatten(0, -1).Float64s()[0], c.want)
		}
	}
}
