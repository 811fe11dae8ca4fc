package tensor

import (
	"fmt"
	"testing"
)

// TestSmallOpAllocs holds Note [Per-op overhead] (package op): an out= op on
// small contiguous tensors allocates nothing, from the user API down to
// the loop.
func TestSmallOpAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts need a normal build")
	}
	a := FromSlice(make([]float32, 16), 16)
	b := FromSlice(make([]float32, 16), 16)
	out := Empty(Float32, 16)
	one, oneF := Scalar(1), Scalar(1.0)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"AddTo", func() { AddTo(out, a, b) }},
		{"AddTo/alpha 1", func() { AddTo(out, a, b, one) }},
		{"AddTo/float alpha 1", func() { AddTo(out, a, b, oneF) }},
		{"MulTo", func() { MulTo(out, a, b) }},
		{"ExpTo", func() { ExpTo(out, a) }},
		{"AddInPlace", func() { out.AddInPlace(a) }},
		{"CopyFrom", func() { out.CopyFrom(a) }},
	} {
		c.f()
		if n := testing.AllocsPerRun(100, c.f); n > 0 {
			t.Errorf("%s of 16 float32 allocates %v times", c.name, n)
		}
	}
}

// BenchmarkAddTo is AddTo/<dtype>/<shape>/contiguous from the user API:
// at 16 elements, the per-op overhead (the add_f32_16 workload).
func BenchmarkAddTo(b *testing.B) {
	for _, n := range []int{16, 1 << 14} {
		x := FromSlice(make([]float32, n), n)
		y := FromSlice(make([]float32, n), n)
		out := Empty(Float32, n)
		b.Run(fmt.Sprintf("float32/%d/contiguous", n), func(b *testing.B) {
			b.SetBytes(int64(12 * n))
			b.ReportAllocs()
			for range b.N {
				AddTo(out, x, y)
			}
		})
	}
}

// TestVarAllocs: Var and Std over dim 1 of [4096, 4096] reuse per-worker
// state, so a call allocates O(workers) times, not per row (once 28 757).
func TestVarAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts need a normal build")
	}
	m := Ones(Float32, 4096, 4096)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Var", func() { m.Var(Over(1)) }},
		{"Std", func() { m.Std(Over(1)) }},
	} {
		if n := testing.AllocsPerRun(3, c.f); n >= 100 {
			t.Errorf("%s over dim 1 of [4096, 4096] allocates %v times, want < 100", c.name, n)
		}
	}
}

// TestSmallReduceAllocs holds the reduction side of Note [Per-op overhead]
// (package op): a sum of 16 elements allocates its result (the tensor, its
// view, storage and data), the results slice, the kept output view and its
// layout, and reuses the plan and the CPU reducer (once 17 allocations).
func TestSmallReduceAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts need a normal build")
	}
	a := FromSlice(make([]float32, 16), 16)
	out := Empty(Float32)
	for _, c := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"Sum", 8, func() { a.Sum() }},
		{"SumTo", 4, func() { SumTo(out, a) }},
	} {
		c.f()
		if n := testing.AllocsPerRun(100, c.f); n > c.max {
			t.Errorf("%s of 16 float32 allocates %v times, want at most %v", c.name, n, c.max)
		}
	}
}

// BenchmarkSum is Sum/<dtype>/<shape>/contiguous from the user API: at 16
// elements, the per-op overhead of a reduction (the sum_16 workload).
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{16, 1 << 14} {
		x := FromSlice(make([]float32, n), n)
		b.Run(fmt.Sprintf("float32/%d/contiguous", n), func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			b.ReportAllocs()
			for range b.N {
				x.Sum()
			}
		})
	}
}
