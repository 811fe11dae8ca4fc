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
