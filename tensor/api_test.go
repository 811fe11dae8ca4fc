package tensor_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// The hand-written API: constructors, element access, metadata, printing.

func TestConstructors(t *testing.T) {
	z := tensor.Zeros(tensor.Int16, 2, 3)
	if z.DType() != tensor.Int16 || !slices.Equal(z.Shape(), []int{2, 3}) || !slices.Equal(z.Int64s(), make([]int64, 6)) {
		t.Fatalf("Zeros: %v", z)
	}
	x := tensor.FromSlice([]float32{1, -2, 3}, 3)
	if zl := tensor.ZerosLike(x); zl.DType() != tensor.Float32 || !slices.Equal(zl.Float64s(), []float64{0, 0, 0}) {
		t.Errorf("ZerosLike: %v", zl)
	}
	if ol := tensor.OnesLike(x); !slices.Equal(ol.Float64s(), []float64{1, 1, 1}) {
		t.Errorf("OnesLike: %v", ol)
	}
	if fl := tensor.FullLike(x, tensor.Scalar(2.5)); !slices.Equal(fl.Float64s(), []float64{2.5, 2.5, 2.5}) {
		t.Errorf("FullLike: %v", fl)
	}
	// torch.linspace(-1, 1, 5) and, for symmetry, the halves filled from each end
	if l := tensor.Linspace(-1, 1, 5, tensor.Float64); !slices.Equal(l.Float64s(), []float64{-1, -0.5, 0, 0.5, 1}) {
		t.Errorf("Linspace: %v", l)
	}
	if l := tensor.Linspace(0, 1, 1, tensor.Float32); !slices.Equal(l.Float64s(), []float64{0}) {
		t.Errorf("Linspace of one step: %v", l)
	}
}

func TestGenerator(t *testing.T) {
	const n = 1 << 14
	u := tensor.NewGenerator(7).Rand(tensor.Float64, n)
	if again := tensor.NewGenerator(7).Rand(tensor.Float64, n); !slices.Equal(u.Float64s(), again.Float64s()) {
		t.Fatal("Rand: the same seed gave other values")
	}
	var mean float64
	for _, x := range u.Float64s() {
		if x < 0 || x >= 1 {
			t.Fatalf("Rand: %v outside [0, 1)", x)
		}
		mean += x / n
	}
	if math.Abs(mean-0.5) > 0.02 {
		t.Errorf("Rand: mean %v, want about 0.5", mean)
	}
	g := tensor.NewGenerator(9).Randn(tensor.Float32, n).Float64s()
	var m, v float64
	for _, x := range g {
		m += x / n
	}
	for _, x := range g {
		v += (x - m) * (x - m) / n
	}
	if math.Abs(m) > 0.05 || math.Abs(v-1) > 0.05 {
		t.Errorf("Randn: mean %v, variance %v; want about 0 and 1", m, v)
	}
}

func TestElementAccess(t *testing.T) {
	m := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	m.Set(tensor.Scalar(40), 1, 0)
	m.Set(tensor.ZeroDim(int64(-7)), -1, -1)
	if got := m.Int64s(); !slices.Equal(got, []int64{1, 2, 3, 40, 5, -7}) {
		t.Fatalf("Set: %v", got)
	}
	if m.At(1, 0) != 40 || m.Select(1, 2).Select(0, 1).ItemInt() != -7 {
		t.Errorf("At or ItemInt: %v", m)
	}
	for _, bad := range []func(){
		func() { m.Set(tensor.Scalar(1), 2, 0) },
		func() { m.Set(tensor.Scalar(1), 0) },
		func() { m.Set(tensor.FromSlice([]int32{1, 2}), 0, 0) },
		func() { m.ItemInt() },
	} {
		if tensor.Try(bad) == nil {
			t.Error("a bad element access did not fail")
		}
	}
	if m.Size(-1) != 3 || m.Size(0) != 2 || m.IsContiguous() == m.T().IsContiguous() {
		t.Errorf("Size or IsContiguous of %v", m)
	}
}

func TestFormat(t *testing.T) {
	x := tensor.FromSlice([]float32{1.5, 2.25})
	for _, c := range []struct{ format, want string }{
		{"%v", "tensor([1.5000, 2.2500])"},
		{"%s", "tensor([1.5000, 2.2500])"},
		{"%.2f", "tensor([1.50, 2.25])"},
		{"%.0f", "tensor([2, 2])"}, // as torch.set_printoptions(precision=0) prints it
		{"%+v", "tensor([1.5000, 2.2500], dtype=float32, shape=[2], device=cpu)"},
		{"%d", "%!d(*tensor.Tensor=tensor([1.5000, 2.2500]))"},
	} {
		if got := fmt.Sprintf(c.format, x); got != c.want {
			t.Errorf("%s: got %q, want %q", c.format, got, c.want)
		}
	}
	if got := x.String(); got != "tensor([1.5000, 2.2500])" {
		t.Errorf("String: %q", got)
	}
	var nilT *tensor.Tensor
	if got := fmt.Sprint(nilT); got != "<nil>" {
		t.Errorf("a nil tensor prints %q", got)
	}
}
