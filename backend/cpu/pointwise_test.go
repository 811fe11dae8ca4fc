package cpu

import (
	"errors"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// pointwiseOps returns the table's pointwise ops that have kernels.
func pointwiseOps() []*optable.Op {
	var r []*optable.Op
	for _, op := range optable.Ops[1:] {
		if op.Kind == optable.Pointwise && op.Impl == nil {
			r = append(r, op)
		}
	}
	return r
}

// TestSupportTable checks the CPU's loop table against PyTorch's dtype
// categories, which the kit cannot (it asks the reference backend, whose
// loops come from the same op table), and that float16 and bfloat16 have
// loops of their own only where the table names SIMD kernels for them
// (Note [Storage-dtype loops]); the others compute in the float32 loops.
func TestSupportTable(t *testing.T) {
	// what PyTorch supports, by category
	floatOnly := []*optable.Op{optable.Exp, optable.Log, optable.Sqrt, optable.Sigmoid, optable.Gelu, optable.Floor,
		optable.Round, optable.Div, optable.Atan2, optable.Hypot, optable.Copysign, optable.Addcdiv, optable.Lerp}
	for _, c := range floatOnly {
		for _, d := range []dtype.DType{dtype.Float32, dtype.Float64} {
			if pointwiseLoops[c.Code][d] == nil {
				t.Errorf("%s: no %s loop", c.Name, d)
			}
		}
		if pointwiseLoops[c.Code][dtype.Int32] != nil {
			t.Errorf("%s: has an int32 loop", c.Name)
		}
	}
	intOnly := []*optable.Op{optable.BitwiseLeftShift, optable.BitwiseRightShift}
	for _, c := range intOnly {
		if pointwiseLoops[c.Code][dtype.Float32] != nil || pointwiseLoops[c.Code][dtype.Int8] == nil {
			t.Errorf("%s: wrong loops", c.Name)
		}
	}
	for _, code := range pointwiseOps() {
		for _, d := range []dtype.DType{dtype.Float16, dtype.BFloat16} {
			want := code.SIMD.Half.Has(d) && halfLoopsOn(d)
			if got := pointwiseLoops[code.Code][d] != nil; got != want {
				t.Errorf("%s: %s loop %v, want %v", code.Name, d, got, want)
			}
		}
	}
}

// TestPointwiseErrors checks the kinds of Pointwise's errors (package doc,
// Errors), where the kit only asks for a refusal.
func TestPointwiseErrors(t *testing.T) {
	a := raw.New(dtype.Int32, []int{3})
	p, err := iter.NewConfig().AddOutput(nil).AddInput(a).Build()
	if err != nil {
		t.Fatal(err)
	}
	var e *errs.Error
	if err := New().Pointwise(optable.Exp, p, nil); !errors.As(err, &e) || e.Kind != errs.DType {
		t.Errorf("exp of int32: got %v, want a dtype error", err)
	}
	if err := New().Pointwise(optable.Add, p, nil); !errors.As(err, &e) || e.Kind != errs.Value {
		t.Errorf("add with one input: got %v, want a value error", err)
	}
	if err := New().Pointwise(optable.Sum, p, nil); !errors.As(err, &e) || e.Kind != errs.Value {
		t.Errorf("pointwise sum: got %v, want a value error", err)
	}
	b := raw.New(dtype.Bool, []int{3})
	p, _ = iter.NewConfig().AddOutput(nil).AddInput(b).AddInput(b).Build()
	if err := New().Pointwise(optable.Sub, p, nil); !errors.As(err, &e) || e.Kind != errs.DType {
		t.Errorf("sub of bools: got %v, want a dtype error", err)
	}
}

// build makes a plan whose output is out (nil: allocated).
func build(t testing.TB, out *raw.View, ins ...*raw.View) *iter.Plan {
	t.Helper()
	cfg := iter.NewConfig().AddOutput(out)
	for _, v := range ins {
		cfg.AddInput(v)
	}
	p, err := cfg.PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true).Build()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func filled(d dtype.DType, sh []int, f func(i int) float64) *raw.View {
	v := raw.New(d, sh)
	for i := 0; i < v.NumEl(); i++ {
		setElem(v, i, f(i))
	}
	return v
}

func checkValues(t *testing.T, name string, v *raw.View, want func(i int) float64, tol float64) {
	t.Helper()
	for i := 0; i < v.NumEl(); i++ {
		if g, w := getElem(v, i), want(i); !closeTo(g, w, tol, tol, v.DType.IsFloat()) {
			t.Fatalf("%s: element %d: got %v, want %v", name, i, g, w)
		}
	}
}

// TestPointwiseAllocs checks that Pointwise and Copy on small plans
// allocate nothing (Note [Per-op overhead] in package op).
func TestPointwiseAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts need a normal build")
	}
	a := raw.New(dtype.Float32, []int{16})
	b := raw.New(dtype.Float32, []int{16})
	out := raw.New(dtype.Float32, []int{16})
	p := build(t, out, a, b)
	be := New()
	allocs := testing.AllocsPerRun(100, func() { be.Pointwise(optable.Add, p, nil) })
	t.Logf("Pointwise(Add, 16 float32): %v allocs per call", allocs)
	if allocs > 0 {
		t.Errorf("Pointwise(Add) allocates %v times per call", allocs)
	}
	h := raw.New(dtype.Float16, []int{16})
	ph := build(t, nil, h, h)
	allocs = testing.AllocsPerRun(100, func() { be.Pointwise(optable.Add, ph, nil) })
	t.Logf("Pointwise(Add, 16 float16): %v allocs per call", allocs)
	if allocs > 0 {
		t.Errorf("buffered Pointwise(Add) allocates %v times per call", allocs)
	}
	cp, _ := iter.NewConfig().AddOutput(raw.New(dtype.Float16, []int{16})).AddInput(a).CheckAllSameDType(false).Build()
	if allocs = testing.AllocsPerRun(100, func() { be.Copy(cp) }); allocs > 0 {
		t.Errorf("Copy allocates %v times per call", allocs)
	}
}
