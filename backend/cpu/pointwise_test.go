package cpu

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// layout builds the views of one test: the output and the inputs, all of
// logical shape out (inputs may be smaller and broadcast).
type layout struct {
	name string
	// shapes returns the output view and the input views for n inputs of
	// dtypes ins, output dtype od.
	build func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View)
	// guard: the output is a slice of a larger storage whose other
	// elements must stay untouched
	guard bool
	// inPlace: the output is input 0
	inPlace bool
}

func contiguous(sh ...int) func(dtype.DType, []dtype.DType) (*raw.View, []*raw.View) {
	return func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			vs[k] = raw.New(d, sh)
		}
		return raw.New(od, sh), vs
	}
}

// permuted is the transpose of a [5, 3] storage, for output and inputs.
func permuted(d dtype.DType) *raw.View {
	return raw.New(d, []int{5, 3}).WithLayout([]int{3, 5}, []int{1, 3}, 0)
}

// sliced is a[1:, 1::2] of a [4, 11] storage: strides [11, 2], offset 12.
func sliced(d dtype.DType) *raw.View {
	return raw.New(d, []int{4, 11}).WithLayout([]int{3, 5}, []int{11, 2}, 12)
}

var layouts = []layout{
	{name: "contiguous", build: contiguous(3, 5)},
	{name: "permuted", build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			vs[k] = permuted(d)
		}
		return permuted(od), vs
	}},
	{name: "sliced", guard: true, build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			vs[k] = sliced(d)
		}
		return sliced(od), vs
	}},
	// the last input a row [5] broadcast over [3, 5]; a middle input 0-d
	{name: "broadcast-last", build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			switch {
			case k == len(ins)-1 && k > 0:
				vs[k] = raw.New(d, []int{5})
			case k > 0:
				vs[k] = raw.New(d, nil)
			case len(ins) == 1:
				vs[k] = raw.New(d, []int{5}).WithLayout([]int{3, 5}, []int{0, 1}, 0) // expanded
			default:
				vs[k] = raw.New(d, []int{3, 5})
			}
		}
		return raw.New(od, []int{3, 5}), vs
	}},
	// scalars everywhere but the last input
	{name: "broadcast-first", build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			if k == len(ins)-1 {
				vs[k] = raw.New(d, []int{3, 5})
			} else {
				vs[k] = raw.New(d, nil)
			}
		}
		return raw.New(od, []int{3, 5}), vs
	}},
	// a column [3, 1] against a row [5]
	{name: "outer", build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			if len(ins) == 1 {
				vs[k] = raw.New(d, []int{3}).WithLayout([]int{3, 5}, []int{1, 0}, 0) // expanded column
			} else if k%2 == 0 {
				vs[k] = raw.New(d, []int{3, 1})
			} else {
				vs[k] = raw.New(d, []int{5})
			}
		}
		return raw.New(od, []int{3, 5}), vs
	}},
	{name: "empty", build: contiguous(0, 4)},
	{name: "0-d", build: contiguous()},
	{name: "long", build: contiguous(1000)},
	{name: "long-strided", guard: true, build: func(od dtype.DType, ins []dtype.DType) (*raw.View, []*raw.View) {
		mk := func(d dtype.DType) *raw.View {
			return raw.New(d, []int{1401}).WithLayout([]int{700}, []int{2}, 1)
		}
		vs := make([]*raw.View, len(ins))
		for k, d := range ins {
			vs[k] = mk(d)
		}
		return mk(od), vs
	}},
	{name: "in-place", inPlace: true, build: contiguous(2, 3)},
}

var floatPool = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2.5, 3.25, -7, 0.125, 10, 0.75, -0.25, 1.5, 6,
	math.NaN(), math.Inf(1), math.Inf(-1)}

// finiteOnly lists float ops whose reference is naive where PyTorch's
// formula differs at infinities (Python's //, %, lerp's two branches).
var finiteOnly = map[*optable.Op]bool{optable.DivFloor: true, optable.Remainder: true, optable.Lerp: true}

func bits(d dtype.DType) int64 { return int64(d.Size() * 8) }

// value draws input k of code for dtype d.
func value(r *rand.Rand, code *optable.Op, d dtype.DType, k int) float64 {
	if code.CondBool && k == 0 || d == dtype.Bool {
		return float64(r.IntN(2))
	}
	if d.IsFloat() {
		for {
			f := floatPool[r.IntN(len(floatPool))]
			if !finiteOnly[code] || !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	}
	if k == 1 {
		switch code {
		case optable.BitwiseLeftShift, optable.BitwiseRightShift:
			return float64(r.Int64N(bits(d)))
		case optable.Pow:
			if d == dtype.Uint8 {
				return float64(r.IntN(6))
			}
			return float64(r.IntN(8) - 2)
		case optable.DivTrunc, optable.DivFloor, optable.Remainder, optable.Fmod:
			for {
				if v := intValue(r, d); v != 0 {
					return v
				}
			}
		}
	}
	return intValue(r, d)
}

func intValue(r *rand.Rand, d dtype.DType) float64 {
	if r.IntN(2) == 0 { // small
		if d == dtype.Uint8 {
			return float64(r.IntN(10))
		}
		return float64(r.IntN(19) - 9)
	}
	switch d {
	case dtype.Uint8:
		return float64(r.IntN(256))
	case dtype.Int64:
		return float64(r.Int64N(1<<40) - 1<<39)
	}
	n := int64(1) << (bits(d) - 1)
	return float64(r.Int64N(2*n) - n)
}

// bcastIndex returns the row-major index into v of the row-major index i
// of shape out (numpy broadcasting).
func bcastIndex(v *raw.View, out []int, i int) int {
	idx := make([]int, len(out))
	for d := len(out) - 1; d >= 0; d-- {
		idx[d] = i % out[d]
		i /= out[d]
	}
	j, off := 0, len(out)-v.Dim()
	for d := 0; d < v.Dim(); d++ {
		x := idx[d+off]
		if v.Shape[d] == 1 {
			x = 0
		}
		j = j*v.Shape[d] + x
	}
	return j
}

func fillSentinel(v *raw.View) {
	b := v.Storage.Bytes()
	for i := range b {
		b[i] = 0x5a
	}
	if v.DType == dtype.Bool {
		for i := range b {
			b[i] = 1
		}
	}
}

// touched returns the set of byte offsets the view's elements occupy.
func touched(v *raw.View) map[int]bool {
	m := map[int]bool{}
	for i := 0; i < v.NumEl(); i++ {
		off := elemOffset(v, i)
		for b := 0; b < v.DType.Size(); b++ {
			m[off+b] = true
		}
	}
	return m
}

func tolerance(d dtype.DType) float64 {
	switch d {
	case dtype.Float64:
		return 1e-12
	case dtype.Float32:
		return 1e-6
	case dtype.Float16:
		return 2e-3
	case dtype.BFloat16:
		return 1.6e-2
	}
	return 0
}

// runMatrix runs op over dtype d in layout l and compares with the
// reference backend.
func runMatrix(t *testing.T, r *rand.Rand, op *optable.Op, d dtype.DType, l layout, args *kernel.Args) {
	t.Helper()
	nin := op.Arity
	ins := make([]dtype.DType, nin)
	for k := range ins {
		ins[k] = d
	}
	if op.CondBool {
		ins[0] = dtype.Bool
	}
	od := d
	if op.OutBool {
		od = dtype.Bool
	}
	if l.inPlace && od != ins[0] {
		return
	}
	out, vs := l.build(od, ins)
	if l.inPlace {
		out = vs[0]
	}
	for k, v := range vs {
		for i := 0; i < v.NumEl(); i++ {
			setElem(v, i, value(r, op, d, k))
		}
	}
	var before []byte
	if l.guard {
		fillSentinel(out)
		before = append(before, out.Storage.Bytes()...)
	}
	plan := func(out *raw.View) *iter.Plan {
		cfg := iter.NewConfig().AddOutput(out)
		for _, v := range vs {
			cfg.AddInput(v)
		}
		if op.CondBool {
			cfg.StaticDType(d) // where's condition takes no part in promotion
		} else {
			cfg.PromoteInputsToCommonDType(true)
		}
		p, err := cfg.CastCommonDTypeToOutputs(true).Build()
		if err != nil {
			t.Fatalf("%s %s %s: build: %v", op.Name, d, l.name, err)
		}
		return p
	}
	// expected, computed before an in-place run overwrites input 0
	want := raw.New(od, out.Shape)
	if err := ref.New().Pointwise(op, plan(want), args); err != nil {
		t.Fatalf("%s %s %s: ref: %v", op.Name, d, l.name, err)
	}
	if err := New().Pointwise(op, plan(out), args); err != nil {
		t.Fatalf("%s %s %s: %v", op.Name, d, l.name, err)
	}
	tol := tolerance(od)
	for i := 0; i < want.NumEl(); i++ {
		g, w := getElem(out, i), getElem(want, i)
		if !closeTo(g, w, tol, tol, od.IsFloat()) {
			t.Errorf("%s %s %s: element %d: got %v, want %v", op.Name, d, l.name, i, g, w)
			return
		}
	}
	if l.guard {
		after := out.Storage.Bytes()
		in := touched(out)
		for b := range after {
			if !in[b] && after[b] != before[b] {
				t.Errorf("%s %s %s: wrote byte %d outside the output", op.Name, d, l.name, b)
				return
			}
		}
	}
}

// closeTo reports whether g is within atol + rtol·|w| of w (floats; NaN
// matches NaN, infinities match exactly) or equal to it.
func closeTo(g, w, rtol, atol float64, isFloat bool) bool {
	if !isFloat {
		return g == w
	}
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return g == w
	}
	return math.Abs(g-w) <= atol+rtol*math.Abs(w)
}

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

// supported returns the dtypes that code runs in.
func supported(code *optable.Op) []dtype.DType {
	var ds []dtype.DType
	for _, d := range dtype.All {
		if pointwiseLoops[code.Code][kernel.LoopDType(d)] != nil {
			ds = append(ds, d)
		}
	}
	return ds
}

func TestPointwiseMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	count := 0
	for _, code := range pointwiseOps() {
		ds := supported(code)
		if len(ds) == 0 {
			t.Errorf("%s: no loops", code.Name)
		}
		for _, d := range ds {
			for _, l := range layouts {
				runMatrix(t, r, code, d, l, &kernel.DefaultArgs)
				count++
			}
		}
	}
	t.Logf("%d (code, dtype, layout) runs", count)
}

// TestPointwiseArgs covers the scalar arguments: alpha, eps.
func TestPointwiseArgs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, al := range []kernel.Args{{AlphaF: 2, AlphaI: 2}, {AlphaF: -0.5, AlphaI: -3}, {AlphaF: 0, AlphaI: 0}} {
		for _, code := range []*optable.Op{optable.Add, optable.Sub, optable.Addcmul, optable.Addcdiv} {
			for _, d := range supported(code) {
				if d == dtype.Bool && al.AlphaI != 0 && al.AlphaI != 1 {
					continue
				}
				for _, l := range layouts {
					runMatrix(t, r, code, d, l, &al)
				}
			}
		}
	}
	eps := kernel.Args{AlphaF: 1, AlphaI: 1, Eps: 0.25, HasEps: true}
	for _, d := range supported(optable.Logit) {
		for _, l := range layouts {
			runMatrix(t, r, optable.Logit, d, l, &eps)
		}
	}
}

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
		if pointwiseLoops[code.Code][dtype.Float16] != nil || pointwiseLoops[code.Code][dtype.BFloat16] != nil {
			t.Errorf("%s: 16-bit loop", code.Name)
		}
	}
}

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

func scalar(d dtype.DType, x float64, wrapped bool) *raw.View {
	v := filled(d, nil, func(int) float64 { return x })
	v.Wrapped = wrapped
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

// TestBuffered covers the buffered-cast path: mixed input dtypes, 16-bit
// floats, outputs of another dtype, values rounded through the compute
// dtype.
func TestBuffered(t *testing.T) {
	be := New()
	n := 1000 // several chunks
	sh := []int{n}
	t.Run("int32+float32", func(t *testing.T) {
		a := filled(dtype.Int32, sh, func(i int) float64 { return float64(i - 500) })
		b := filled(dtype.Float32, sh, func(i int) float64 { return float64(i) * 0.25 })
		p := build(t, nil, a, b)
		if err := be.Pointwise(optable.Add, p, nil); err != nil {
			t.Fatal(err)
		}
		out := p.Output(0)
		if out.DType != dtype.Float32 {
			t.Fatalf("dtype %s", out.DType)
		}
		checkValues(t, "add", out, func(i int) float64 { return float64(i-500) + float64(i)*0.25 }, 0)
	})
	t.Run("uint8+int8", func(t *testing.T) {
		a := filled(dtype.Uint8, sh, func(i int) float64 { return float64(i % 256) })
		b := filled(dtype.Int8, sh, func(i int) float64 { return float64(i%256 - 128) })
		p := build(t, nil, a, b)
		if err := be.Pointwise(optable.Mul, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "mul", p.Output(0), func(i int) float64 { return wrap(dtype.Int16, int64(i%256)*int64(i%256-128)) }, 0)
	})
	t.Run("float16", func(t *testing.T) {
		a := filled(dtype.Float16, sh, func(i int) float64 { return float64(i) / 8 })
		b := filled(dtype.Float16, []int{n}, func(i int) float64 { return 1.5 })
		p := build(t, nil, a, b)
		if err := be.Pointwise(optable.Mul, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "mul", p.Output(0), func(i int) float64 { return roundTo(dtype.Float16, float64(i)/8*1.5) }, 0)
	})
	t.Run("bool-into-float", func(t *testing.T) {
		a := filled(dtype.Float32, sh, func(i int) float64 { return float64(i % 7) })
		out := raw.New(dtype.Float32, sh)
		p := build(t, out, a, scalar(dtype.Int64, 3, true))
		if err := be.Pointwise(optable.Lt, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "lt", out, func(i int) float64 { return b2f(i%7 < 3) }, 0)
	})
	t.Run("int64+wrapped-float", func(t *testing.T) {
		a := filled(dtype.Int64, sh, func(i int) float64 { return float64(i) })
		p := build(t, nil, a, scalar(dtype.Float64, 0.5, true))
		if err := be.Pointwise(optable.Sub, p, nil); err != nil {
			t.Fatal(err)
		}
		if p.Output(0).DType != dtype.Float32 {
			t.Fatalf("dtype %s", p.Output(0).DType)
		}
		checkValues(t, "sub", p.Output(0), func(i int) float64 { return float64(i) - 0.5 }, 0)
	})
	t.Run("rounds-inputs-to-bfloat16", func(t *testing.T) {
		// bf16 tensor · float32 0-d: the common dtype is bfloat16, so the
		// scalar is rounded to bfloat16 (1 + 2⁻⁸ → 1) before the float32 loop.
		a := filled(dtype.BFloat16, sh, func(int) float64 { return 3 })
		p := build(t, nil, a, scalar(dtype.Float32, 1+1.0/256, false))
		if err := be.Pointwise(optable.Mul, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "mul", p.Output(0), func(int) float64 { return 3 }, 0)
	})
	t.Run("rounds-results-to-bfloat16", func(t *testing.T) {
		// exp of bfloat16 into a float32 out: rounded to bfloat16 first
		a := filled(dtype.BFloat16, nil, func(int) float64 { return -3.765625 })
		out := raw.New(dtype.Float32, nil)
		p := build(t, out, a)
		if err := be.Pointwise(optable.Exp, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "exp", out, func(int) float64 { return roundTo(dtype.BFloat16, math.Exp(-3.765625)) }, 0)
	})
	t.Run("where-float16-mixed", func(t *testing.T) {
		c := filled(dtype.Uint8, sh, func(i int) float64 { return float64(i % 2) }) // condition needs a cast
		a := filled(dtype.Float16, sh, func(i int) float64 { return float64(i) })
		b := scalar(dtype.Float16, -1, false)
		p, err := iter.NewConfig().AddOutput(nil).AddInput(c).AddInput(a).AddInput(b).StaticDType(dtype.Float16).Build()
		if err != nil {
			t.Fatal(err)
		}
		if err := be.Pointwise(optable.Where, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "where", p.Output(0), func(i int) float64 { return sel(i%2 == 1, float64(i), -1) }, 0)
	})
	t.Run("in-place-float16", func(t *testing.T) {
		a := filled(dtype.Float16, sh, func(i int) float64 { return float64(i) })
		p := build(t, a, a, scalar(dtype.Float64, 2, true))
		if err := be.Pointwise(optable.Add, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, "add_", a, func(i int) float64 { return roundTo(dtype.Float16, float64(i)+2) }, 0)
	})
}

// TestLarge runs plans big enough for ForEach to split them across workers.
func TestLarge(t *testing.T) {
	n := 3*iter.GrainSize + 17
	if testing.Short() {
		n = iter.GrainSize + 17
	}
	be := New()
	a := filled(dtype.Float32, []int{n}, func(i int) float64 { return float64(i%1000) / 100 })
	b := filled(dtype.Float32, []int{n}, func(i int) float64 { return float64(i % 13) })
	h := filled(dtype.Float16, []int{n}, func(i int) float64 { return float64(i%1000) / 100 })
	for _, c := range []struct {
		code *optable.Op
		ins  []*raw.View
		want func(i int) float64
	}{
		{optable.Add, []*raw.View{a, b}, func(i int) float64 { return roundTo(dtype.Float32, getElem(a, i)+getElem(b, i)) }},
		{optable.Exp, []*raw.View{a}, func(i int) float64 { return roundTo(dtype.Float32, math.Exp(getElem(a, i))) }},
		{optable.Neg, []*raw.View{h}, func(i int) float64 { return -getElem(h, i) }},
	} {
		p := build(t, nil, c.ins...)
		if err := be.Pointwise(c.code, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, c.code.Name, p.Output(0), c.want, 1e-6)
	}
}

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
