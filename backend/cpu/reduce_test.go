package cpu

import (
	"errors"
	"testing"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestReduceErrors checks the kinds of Reduce's errors (package doc,
// Errors): a value error for an op that is no reduction, a dtype error for
// a compute dtype without a kernel.
func TestReduceErrors(t *testing.T) {
	in := raw.New(dtype.Float32, []int{3})
	p, _ := iter.NewConfig().AddOutput(raw.New(dtype.Float32, []int{1})).AddInput(in).IsReduction(true).Build()
	var e *errs.Error
	if err := New().Reduce(optable.Add, p, nil); !errors.As(err, &e) || e.Kind != errs.Value {
		t.Errorf("Reduce(Add): got %v, want a value error", err)
	}
	b := raw.New(dtype.Bool, []int{3})
	p, _ = iter.NewConfig().AddOutput(raw.New(dtype.Bool, []int{1})).AddInput(b).IsReduction(true).Build()
	if err := New().Reduce(optable.Sum, p, nil); !errors.As(err, &e) || e.Kind != errs.DType {
		t.Errorf("Reduce(Sum) of bool: got %v, want a dtype error", err)
	}
}

// TestOuterTiles reduces over an outer dim with rows wider than one tile
// of the outer strategy (outerWidth outputs), so that tiles of different
// widths alternate, for a cascading sum, against the reference backend.
func TestOuterTiles(t *testing.T) {
	sh := []int{3, 40, outerWidth + 808}
	in := raw.New(dtype.Float64, sh)
	for i := 0; i < in.NumEl(); i++ {
		in.SetFloat64(i, float64(i%97)/8)
	}
	keep := []int{3, 1, sh[2]}
	got, want := raw.New(dtype.Float64, keep), raw.New(dtype.Float64, keep)
	for _, c := range []struct {
		b   kernel.Backend
		out *raw.View
	}{{New(), got}, {ref.New(), want}} {
		p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float64).AddOutput(c.out).AddInput(in).Build()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.b.Reduce(optable.Sum, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < got.NumEl(); i++ {
		if g, w := got.Float64At(i), want.Float64At(i); g != w {
			t.Fatalf("output %d: got %v, want %v", i, g, w)
		}
	}
}

// TestReduceAllocs checks that reductions allocate O(workers), not O(rows)
// (issue 16: Var over dim 1 of [4096, 4096] allocated about 7 times per
// row): every strategy, cascading folds included, reuses per-worker state.
func TestReduceAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB inputs")
	}
	const s = 4096
	in := raw.New(dtype.Float32, []int{s, s})
	for i := 0; i < in.NumEl(); i++ {
		in.SetFloat64(i, float64(i%1009-504)/64)
	}
	for _, c := range []struct {
		name string
		op   *optable.Op
		keep []int
	}{
		{"var_dim1", optable.Var, []int{s, 1}},
		{"std_dim0", optable.Std, []int{1, s}},
		{"var_all", optable.Var, []int{1, 1}},
		{"norm_dim1", optable.NormTwo, []int{s, 1}},
		{"sum_dim1", optable.Sum, []int{s, 1}},
		{"sum_dim0", optable.Sum, []int{1, s}},
		{"argmax_dim1", optable.ArgMax, []int{s, 1}},
	} {
		out := raw.New(dtype.Float32, c.keep)
		if c.op == optable.ArgMax {
			out = raw.New(dtype.Int64, c.keep)
		}
		p, err := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(dtype.Float32).
			AddOutput(out).AddInput(in).Build()
		if err != nil {
			t.Fatal(err)
		}
		b := New()
		n := testing.AllocsPerRun(5, func() {
			if err := b.Reduce(c.op, p, nil); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocations per call", c.name, n)
		if n >= 100 {
			t.Errorf("%s: %v allocations per call, want fewer than 100", c.name, n)
		}
	}
}
