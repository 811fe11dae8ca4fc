package cpu

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
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
	if testing.Short() || raceEnabled {
		t.Skip("64 MiB inputs (minutes under the race detector)")
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

// TestSumAccuracyLayouts sums 2^24 float32 values as [4096, 4096] over
// everything, over dim 1 (rows) and over dim 0 (the outer strategy's
// eight-row steps): every result must be within an ulp of its exact sum
// (Note [Cascade sums]), and the same bits for any number of threads.
// .ci/run repeats it at every kernel level and with purego.
func TestSumAccuracyLayouts(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("2^24 elements (minutes under the race detector)")
	}
	const s = 4096
	in := raw.New(dtype.Float32, []int{s, s})
	x := make([]float32, s*s)
	for i := range x {
		// positive, so that a plain float32 sum would drift far
		x[i] = float32((7919*i+13)%1009)/64 + 0.001
		in.SetFloat64(i, float64(x[i]))
	}
	exact := func(keep []int, o int) float64 {
		e := 0.0
		switch {
		case keep[0] == 1 && keep[1] == 1:
			for _, v := range x {
				e += float64(v)
			}
		case keep[1] == 1: // row o
			for j := range s {
				e += float64(x[o*s+j])
			}
		default: // column o
			for i := range s {
				e += float64(x[i*s+o])
			}
		}
		return e
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, keep := range [][]int{{1, 1}, {s, 1}, {1, s}} {
		var first []float32
		for _, procs := range []int{1, 2, 3, 8} {
			runtime.GOMAXPROCS(procs)
			out := raw.New(dtype.Float32, keep)
			p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float32).AddOutput(out).AddInput(in).Build()
			if err != nil {
				t.Fatal(err)
			}
			if err := New().Reduce(optable.Sum, p, nil); err != nil {
				t.Fatal(err)
			}
			got := make([]float32, out.NumEl())
			for o := range got {
				got[o] = float32(out.Float64At(o))
			}
			if first == nil {
				first = got
				for o, g := range got {
					e := exact(keep, o)
					ulp := float64(math.Nextafter32(float32(e), float32(math.Inf(1))) - float32(e))
					if math.Abs(float64(g)-e) > ulp {
						t.Fatalf("sum keeping %v, output %d: %v, exact %v: more than an ulp (%g) off", keep, o, g, e, ulp)
					}
				}
				continue
			}
			for o := range got {
				if math.Float32bits(got[o]) != math.Float32bits(first[o]) {
					t.Fatalf("sum keeping %v, output %d: %v with %d threads, %v with 1", keep, o, got[o], procs, first[o])
				}
			}
		}
	}
}

// TestSumAccuracyTall sums 2^24 float32 values as [2^21, 8] over dim 0:
// an outer reduction whose chunks of 2^18 rows are read as eight streams
// (Note [Outer streams]). Every output must be within an ulp of its exact
// sum, and the same bits for any number of threads.
func TestSumAccuracyTall(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("2^24 elements (minutes under the race detector)")
	}
	const rows, cols = 1 << 21, 8
	in := raw.New(dtype.Float32, []int{rows, cols})
	exact := make([]float64, cols)
	for i := 0; i < rows*cols; i++ {
		v := float32((7919*i+13)%1009)/64 + 0.001
		in.SetFloat64(i, float64(v))
		exact[i%cols] += float64(v)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []float32
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		out := raw.New(dtype.Float32, []int{1, cols})
		p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float32).AddOutput(out).AddInput(in).Build()
		if err != nil {
			t.Fatal(err)
		}
		if err := New().Reduce(optable.Sum, p, nil); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, cols)
		for o := range got {
			got[o] = float32(out.Float64At(o))
		}
		if first == nil {
			first = got
			for o, g := range got {
				e := exact[o]
				ulp := float64(math.Nextafter32(float32(e), float32(math.Inf(1))) - float32(e))
				if math.Abs(float64(g)-e) > ulp {
					t.Fatalf("output %d: %v, exact %v: more than an ulp (%g) off", o, g, e, ulp)
				}
			}
			continue
		}
		for o := range got {
			if math.Float32bits(got[o]) != math.Float32bits(first[o]) {
				t.Fatalf("output %d: %v with %d threads, %v with 1", o, got[o], procs, first[o])
			}
		}
	}
}

// TestOuterSplitAnyProcs reduces over the outer dim of [700, 1100], which
// the outer strategy splits into chunks of rows, with 1 and with 8 threads:
// with more threads than chunks, each chunk's columns are split among them
// too (Note [Few long chunks]), which must give every op and dtype the
// same bits.
func TestOuterSplitAnyProcs(t *testing.T) {
	const rows, cols = 700, 1100
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float64, dtype.BFloat16, dtype.Float16} {
		in := raw.New(d, []int{rows, cols})
		for i := 0; i < in.NumEl(); i++ {
			in.SetFloat64(i, float64((7919*i+13)%1009-504)/64)
		}
		for _, op := range []*optable.Op{optable.Sum, optable.Mean, optable.Prod, optable.Amax, optable.ArgMax, optable.Var, optable.NormTwo} {
			var first []float64
			for _, procs := range []int{1, 8} {
				runtime.GOMAXPROCS(procs)
				od := d
				if op == optable.ArgMax {
					od = dtype.Int64
				}
				out := raw.New(od, []int{1, cols})
				p, err := iter.NewConfig().IsReduction(true).StaticDType(d).CheckAllSameDType(false).AddOutput(out).AddInput(in).Build()
				if err != nil {
					t.Fatal(err)
				}
				if err := New().Reduce(op, p, nil); err != nil {
					t.Fatalf("%s %s: %v", op.Name, d, err)
				}
				got := make([]float64, cols)
				for o := range got {
					got[o] = out.Float64At(o)
				}
				if first == nil {
					first = got
					continue
				}
				for o := range got {
					if math.Float64bits(got[o]) != math.Float64bits(first[o]) {
						t.Fatalf("%s %s, output %d: %v with %d threads, %v with 1", op.Name, d, o, got[o], procs, first[o])
					}
				}
			}
		}
	}
}

// TestOuterStreamsDims sums float32 over two reduced dims that do not
// coalesce (every other row of [7, 2·1201+1, 8] over dims 0 and 1), so that
// the eight streams of an outer sum (Note [Outer streams]) cross from one
// reduced dim into the next, in chunks whose lengths are not multiples of
// eight. The values are small integers, whose float32 sums are exact in
// any order: a row read twice or skipped shows.
func TestOuterStreamsDims(t *testing.T) {
	for _, sh := range [][3]int{{7, 1201, 8}, {3, 29, 40}} {
		a, b, c := sh[0], sh[1], sh[2]
		st := raw.New(dtype.Float32, []int{a, 2*b + 1, c})
		for i := 0; i < st.NumEl(); i++ {
			st.SetFloat64(i, float64((i*7+i/c*3)%5-2))
		}
		in := st.WithLayout([]int{a, b, c}, []int{(2*b + 1) * c, 2 * c, 1}, 0)
		want := make([]float64, c)
		for i := 0; i < a; i++ {
			for j := 0; j < b; j++ {
				for k := 0; k < c; k++ {
					want[k] += st.Float64At(i*(2*b+1)*c + j*2*c + k)
				}
			}
		}
		out := raw.New(dtype.Float32, []int{1, 1, c})
		p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float32).AddOutput(out).AddInput(in).Build()
		if err != nil {
			t.Fatal(err)
		}
		if err := New().Reduce(optable.Sum, p, nil); err != nil {
			t.Fatal(err)
		}
		for k := range want {
			if g := out.Float64At(k); g != want[k] {
				t.Fatalf("%v, output %d: got %v, want %v", sh, k, g, want[k])
			}
		}
	}
}

// TestRowsInOneCall checks float32 sums, means, products and 2-norms over
// a contiguous last dim, which fold a group of rows in one call (Note
// [Rows in one call]), against one SumF32F64, ProdF32 or SumSqF32F64 per
// row: the same bits, for rows with every kind of tail, rows further
// apart than their length, and kept dims of stride 0.
func TestRowsInOneCall(t *testing.T) {
	eachStreamMode(t, testRowsInOneCall)
}

// eachStreamMode runs test as Reduce runs on small inputs and as on large
// ones, which read four streams where they can (Note [Four streams] in
// internal/vec): results must not differ.
func eachStreamMode(t *testing.T, test func(t *testing.T)) {
	defer func(b, r int) { fourStreamsBytes, fourRowsMinBytes = b, r }(fourStreamsBytes, fourRowsMinBytes)
	fourRowsMinBytes = 0
	for _, b := range []int{math.MaxInt, 0} {
		fourStreamsBytes = b
		t.Run(fmt.Sprintf("four=%v", b == 0), test)
	}
}

func testRowsInOneCall(t *testing.T) {
	for _, op := range []*optable.Op{optable.Sum, optable.Mean, optable.Prod, optable.NormTwo} {
		fill := func(i int) float64 { return float64((7919*i+13)%1009-504) / 64 }
		if op == optable.Prod { // factors near 1, so that products stay finite
			fill = func(i int) float64 { return 1 + float64((7919*i+13)%1009-504)/65536 }
		}
		for _, n := range []int{16, 17, 255, 256, 300, 4096 + 7} {
			for _, rows := range []int{1, 3, 300, 2*innerRunRows + 300} {
				if rows*n > 1<<21 {
					continue
				}
				for _, gap := range []int{0, 5} {
					base := raw.New(dtype.Float32, []int{rows, n + gap})
					for i := range rows * (n + gap) {
						base.SetFloat64(i, fill(i))
					}
					for _, lay := range []struct {
						name    string
						sizes   []int
						strides []int
					}{
						{"rows", []int{rows, n}, []int{n + gap, 1}},
						{"expanded", []int{rows, 4, n}, []int{n + gap, 0, 1}},
					} {
						in := base.WithLayout(lay.sizes, lay.strides, 0)
						keep := append(append([]int(nil), lay.sizes[:len(lay.sizes)-1]...), 1)
						out := raw.New(dtype.Float32, keep)
						p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float32).AddOutput(out).AddInput(in).Build()
						if err != nil {
							t.Fatal(err)
						}
						if err := New().Reduce(op, p, nil); err != nil {
							t.Fatal(err)
						}
						for o := range out.NumEl() {
							r := o
							if lay.name == "expanded" {
								r = o / 4
							}
							row := make([]float32, n)
							for j := range row {
								row[j] = float32(base.Float64At(r*(n+gap) + j))
							}
							var want float32
							switch op {
							case optable.Sum:
								want = float32(vec.SumF32F64(row, false))
							case optable.Mean:
								want = float32(vec.SumF32F64(row, false) / float64(n))
							case optable.NormTwo:
								want = float32(math.Sqrt(vec.SumSqF32F64(row, false)))
							default:
								want = vec.ProdF32(row)
							}
							if got := float32(out.Float64At(o)); math.Float32bits(got) != math.Float32bits(want) {
								t.Fatalf("%s of %s n=%d rows=%d gap=%d, output %d: %v, want %v", op.Name, lay.name, n, rows, gap, o, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestExtremeRowsInOneCall checks float32 Amax, Amin, Max and Min with
// their indices, ArgMax and ArgMin over a contiguous last dim, which fold
// a group of rows in one call, four rows at a time (Note [Four streams]
// in internal/vec), against a row at a time: the value of MaxF32 or
// MinF32 of each row (NaN where the row holds one; which of ±0 ties win
// is MaxF32's), the index of its first occurrence (of the first NaN), on
// rows with many ties, NaNs in some rows, groups of four and rows left
// over, rows further apart than their length, and rows longer than
// argBlock.
func TestExtremeRowsInOneCall(t *testing.T) {
	eachStreamMode(t, testExtremeRowsInOneCall)
}

func testExtremeRowsInOneCall(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, n := range []int{1, 17, 300, 4096, argBlock + 5} {
		for _, rows := range []int{1, 3, 4, 7, 67, 2*innerRunRows + 300} {
			if rows*n > 1<<18 {
				continue
			}
			const gap = 3
			base := raw.New(dtype.Float32, []int{rows, n + gap})
			for i := range rows * (n + gap) {
				v := vals[(7919*(i%1009)+13)%1009%len(vals)]
				if i%(n+gap) == (i/(n+gap))*37%(n+gap) && (i/(n+gap))%3 == 1 {
					v = float32(math.NaN())
				}
				base.SetFloat64(i, float64(v))
			}
			in := base.WithLayout([]int{rows, n}, []int{n + gap, 1}, 0)
			for _, c := range []struct {
				op           *optable.Op
				values, args bool
				isMax        bool
			}{
				{optable.Amax, true, false, true}, {optable.Amin, true, false, false},
				{optable.Max, true, true, true}, {optable.Min, true, true, false},
				{optable.ArgMax, false, true, true}, {optable.ArgMin, false, true, false},
			} {
				cfg := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(dtype.Float32)
				var vo, io *raw.View
				if c.values {
					vo = raw.New(dtype.Float32, []int{rows, 1})
					cfg.AddOutput(vo)
				}
				if c.args {
					io = raw.New(dtype.Int64, []int{rows, 1})
					cfg.AddOutput(io)
				}
				p, err := cfg.AddInput(in).Build()
				if err != nil {
					t.Fatal(err)
				}
				if err := New().Reduce(c.op, p, nil); err != nil {
					t.Fatal(err)
				}
				for r := range rows {
					row := make([]float32, n)
					for j := range row {
						row[j] = float32(base.Float64At(r*(n+gap) + j))
					}
					m, nan := vec.MaxF32(row)
					if !c.isMax {
						m, nan = vec.MinF32(row)
					}
					at := 0
					for j, v := range row {
						if nan && v != v || !nan && v == m {
							at = j
							break
						}
					}
					want := m
					if nan {
						want = float32(math.NaN())
					} else if c.args { // the value at the index
						want = row[at]
					}
					if c.values {
						if got := float32(vo.Float64At(r)); math.Float32bits(got) != math.Float32bits(want) && !(nan && got != got) {
							t.Fatalf("%s n=%d rows=%d row %d: %v (%#x), want %v (%#x)", c.op.Name, n, rows, r, got, math.Float32bits(got), want, math.Float32bits(want))
						}
					}
					if c.args {
						if got := int(io.Float64At(r)); got != at {
							t.Fatalf("%s n=%d rows=%d row %d: index %d, want %d", c.op.Name, n, rows, r, got, at)
						}
					}
				}
			}
		}
	}
}

// TestFourStreamsSameBits checks that reading four streams at once (Note
// [Four streams] in internal/vec) changes no result: the float32 sums,
// means, 2-norms, extremes and their indices, and the sums of bfloat16
// and float16 inputs, over all elements, rows of every kind of length
// (longer than a quarter's minimum too) and columns, on small inputs
// taken as large (fourStreamsBytes 0) against the same reductions read
// one stream at a time.
func TestFourStreamsSameBits(t *testing.T) {
	defer func(b, r int) { fourStreamsBytes, fourRowsMinBytes = b, r }(fourStreamsBytes, fourRowsMinBytes)
	fourRowsMinBytes = 0
	for _, d := range []dtype.DType{dtype.Float32, dtype.BFloat16, dtype.Float16} {
		for _, c := range []struct {
			shape []int
			nan   bool // one element NaN
		}{{[]int{7, 300}, true}, {[]int{13, 300}, false}, {[]int{13, 300}, true}, {[]int{9, 4096 + 7}, false}, {[]int{9, 4096 + 7}, true}, {[]int{3, 1<<16 + 300}, false}, {[]int{1 << 18}, false}, {[]int{1 << 18}, true}} {
			shape := c.shape
			in := raw.New(d, shape)
			for i := range in.NumEl() {
				in.SetFloat64(i, float64((7919*(i%1009)+13)%1009-504)/64)
			}
			if c.nan {
				in.SetFloat64(in.NumEl()/3, math.NaN())
			}
			ops := []*optable.Op{optable.Sum, optable.Mean}
			if d == dtype.Float32 {
				ops = append(ops, optable.NormTwo, optable.Amax, optable.Amin, optable.Max, optable.Min, optable.ArgMax, optable.ArgMin, optable.Prod, optable.Var, optable.Std)
			}
			// Prod's factors are near 1, so that its products stay finite
			near1 := raw.New(d, shape)
			for i := range in.NumEl() {
				near1.SetFloat64(i, 1+in.Float64At(i)/4096)
			}
			for _, op := range ops {
				in := in
				if op == optable.Prod {
					in = near1
				}
				for _, keep := range [][]int{nil, {0}, {1}} {
					if len(shape) == 1 && keep != nil {
						continue
					}
					if keep == nil && (op == optable.Max || op == optable.Min) {
						continue // one dim only
					}
					var results [2][]float64
					for k, b := range []int{math.MaxInt, 0} {
						fourStreamsBytes = b
						results[k] = reduceAll(t, op, in, keep)
					}
					for i := range results[0] {
						if a, b := results[0][i], results[1][i]; math.Float64bits(a) != math.Float64bits(b) {
							t.Fatalf("%s of %v %v keeping %v, output %d: %v with one stream, %v with four", op.Name, d, shape, keep, i, a, b)
						}
					}
				}
			}
		}
	}
}

// reduceAll runs op over in, keeping the dims keep (nil: all reduced),
// and returns its outputs' elements, the indices after the values.
func reduceAll(t *testing.T, op *optable.Op, in *raw.View, keep []int) []float64 {
	t.Helper()
	shape := in.Shape
	outShape := make([]int, len(shape))
	for i := range outShape {
		outShape[i] = 1
	}
	for _, k := range keep {
		outShape[k] = shape[k]
	}
	compute := in.DType
	cfg := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(compute)
	var outs []*raw.View
	if op != optable.ArgMax && op != optable.ArgMin {
		outs = append(outs, raw.New(compute, outShape))
	}
	if op.Outputs == 2 || op == optable.ArgMax || op == optable.ArgMin {
		outs = append(outs, raw.New(dtype.Int64, outShape))
	}
	for _, o := range outs {
		cfg.AddOutput(o)
	}
	p, err := cfg.AddInput(in).Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := New().Reduce(op, p, nil); err != nil {
		t.Fatal(err)
	}
	var r []float64
	for _, o := range outs {
		for i := range o.NumEl() {
			r = append(r, o.Float64At(i))
		}
	}
	return r
}

// TestWelfordCascade checks that rowsWelfordF32Four's cascade combines a
// row's blocks as the reducer's cascade does, bit for bit in float64
// (the float32 results of TestFourStreamsSameBits round most differences
// of order away): the same blocks through both, for every count of
// blocks up to 70.
func TestWelfordCascade(t *testing.T) {
	f := &redTable[optable.Var.Code][dtype.Float32]
	r := &reducer{f: f}
	for nb := 1; nb <= 70; nb++ {
		q := cascade{r: r, n: 1}
		var c welfordCascade
		blk := make([]uint64, r.words(1))
		for b := range nb {
			w := elem.Welford{N: float64(1 + (7*b)%5), Mean: math.Sin(float64(b)) * 100, M2: float64(b%7) + 0.1}
			f.init(ptr(blk), 1)
			(*elem.Welford)(ptr(blk)).Merge(w)
			blk = q.push(blk)
			c.push(w)
		}
		want := make([]uint64, r.words(1))
		f.init(ptr(want), 1)
		q.final(ptr(want))
		var got elem.Welford
		c.final(&got)
		if w := *(*elem.Welford)(ptr(want)); got != w {
			t.Fatalf("%d blocks: got %+v, the reducer's cascade %+v", nb, got, w)
		}
	}
}

// TestInnerGroupsAllocs checks that an inner reduction split among
// workers allocates nothing per group of rows (testing.AllocsPerRun runs
// on one thread, where a parallel loop makes one call for all the
// groups): M.sum(1) of [4096, 4096] float32 makes 64 groups.
func TestInnerGroupsAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("64 MiB input")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const s = 4096
	in := raw.New(dtype.Float32, []int{s, s})
	out := raw.New(dtype.Float32, []int{s, 1})
	p, err := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(dtype.Float32).
		AddOutput(out).AddInput(in).Build()
	if err != nil {
		t.Fatal(err)
	}
	b := New()
	run := func() {
		if err := b.Reduce(optable.Sum, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	run()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const calls = 5
	for range calls {
		run()
	}
	runtime.ReadMemStats(&after)
	if n := (after.Mallocs - before.Mallocs) / calls; n >= 32 {
		t.Errorf("%d allocations per call on 4 threads, want fewer than 32 (64 groups)", n)
	}
}

// TestProjectMean checks Mean's vector projections against the generated
// ones, which divide one sum at a time: the same bits, for every length
// around the buffer's, sums of every magnitude, NaN and infinities, and
// counts that do not divide them exactly.
func TestProjectMean(t *testing.T) {
	for _, n := range []int{0, 1, 7, 16, 255, 256, 257, 600} {
		st := make([]float64, n)
		for i := range st {
			st[i] = float64((7919*i+13)%1009-504) * math.Pow(2, float64(i%90-45)) / 3
		}
		if n > 3 {
			st[1], st[2], st[3] = math.NaN(), math.Inf(1), math.Inf(-1)
		}
		for _, count := range []int{1, 3, 7, 1000, 0} {
			c := &elem.Ctx{N: count}
			var got, want [2][]uint64
			for k := range got {
				got[k], want[k] = make([]uint64, n+1), make([]uint64, n+1)
			}
			sp := unsafe.Pointer(unsafe.SliceData(st))
			projectMeanF32(ptr(got[0]), nil, sp, n, c)
			projectMean0[float32](ptr(want[0]), nil, sp, n, c)
			projectMeanF64(ptr(got[1]), nil, sp, n, c)
			projectMean1[float64](ptr(want[1]), nil, sp, n, c)
			for k := range got {
				for i := range got[k] {
					if got[k][i] != want[k][i] {
						t.Fatalf("n=%d count=%d float%d: word %d is %#x, want %#x", n, count, 32<<k, i, got[k][i], want[k][i])
					}
				}
			}
		}
	}
}
