package tensor_test

import (
	"errors"
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
