package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestNarrowColumns checks outer reductions of rows of 1 to 17 columns
// (Note [Narrow columns]) against the same reductions without the view:
// ArgMax, ArgMin, Max, Min, Amax and Amin bit for bit, over values with
// many ties, zeros of both signs, infinities and NaNs of several payloads
// (NaN results make Amax and Amin decline the view; zero results take the
// column's first zero), and over values without them; float sums and means within a few ulp of the
// reference backend, products (each step rounded) within 2e-5; integer
// results exactly. Inputs of float32, bfloat16 (converted as read),
// float64, int32, uint8 and bool; row counts on both sides of the view's least,
// with and without rows left after the view's.
func TestNarrowColumns(t *testing.T) {
	nan := func(payload uint32) float32 { return math.Float32frombits(0x7fc00000 | payload) }
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, float32(math.Inf(1)), float32(math.Inf(-1)), 2, 1}
	zeros := []float32{0, float32(math.Copysign(0, -1)), -1, float32(math.Inf(-1))}
	datasets := []struct {
		name string
		at   func(i int) float32
	}{
		{"special", func(i int) float32 {
			h := (7919*i + 13) % 1009
			if h%97 == 5 {
				return nan(uint32(h))
			}
			return special[h%len(special)]
		}},
		{"zeros below", func(i int) float32 { return zeros[(7919*i+13)%1009%4] }},
		{"zeros above", func(i int) float32 { return -zeros[(7919*i+13)%1009%4] }},
		{"ties", func(i int) float32 { return float32((7919*i+13)%1009%7) - 2.5 }},
		{"near one", func(i int) float32 { return 1 + float32((7919*i+13)%1009-504)/65536 }},
		{"whole", func(i int) float32 { return float32((7919*i+13)%1009%7 - 3) }},
	}
	for m := 1; m <= 17; m++ {
		least := 1
		if w := narrowWidth(m, narrowOrdered); w > 0 {
			least = narrowMinRows * w / m
		}
		for _, rows := range []int{100, least - 1, least, 600, 4099, 20000} {
			for _, ds := range datasets {
				dt := dtype.Float32
				switch {
				case ds.name == "whole" && rows == 4099:
					dt = dtype.Uint8 // converted to int64 for sums
				case ds.name == "whole" && rows == 600:
					dt = dtype.Bool
				case ds.name == "whole":
					dt = dtype.Int32
				case rows == 4099:
					dt = dtype.BFloat16 // converted as the rows are read
				case rows == 600:
					dt = dtype.Float64
				}
				in := raw.New(dt, []int{rows, m})
				for i := 0; i < rows*m; i++ {
					in.SetFloat64(i, float64(ds.at(i)))
				}
				for _, op := range []*optable.Op{optable.Sum, optable.Mean, optable.Prod, optable.Amax, optable.Amin,
					optable.Max, optable.Min, optable.ArgMax, optable.ArgMin} {
					if op == optable.Prod && ds.name != "near one" && ds.name != "whole" ||
						op != optable.Prod && ds.name == "near one" || op == optable.Mean && ds.name == "whole" {
						continue
					}
					name := fmt.Sprintf("%s m=%d rows=%d %s %v", op.Name, m, rows, ds.name, dt)
					tol := 4e-7 // sums add in float64
					if op == optable.Prod {
						tol = 2e-5 // float32 products, each rounded
					}
					got := narrowReduce(t, New(), op, in, m)
					least := narrowMinRows
					narrowMinRows = math.MaxInt
					want := narrowReduce(t, New(), op, in, m)
					narrowMinRows = least
					if op == optable.Sum || op == optable.Mean || op == optable.Prod {
						want = narrowReduce(t, ref.New(), op, in, m)
					}
					for k := range got {
						for j := 0; j < m; j++ {
							g, w := got[k].Float64At(j), want[k].Float64At(j)
							exact := k == 1 || op != optable.Sum && op != optable.Mean && op != optable.Prod || !dt.IsFloat()
							switch {
							case exact:
								if gb, wb := valueBits(got[k], j), valueBits(want[k], j); gb != wb {
									t.Fatalf("%s: output %d column %d: got %v (%#x), want %v (%#x)", name, k, j, g, gb, w, wb)
								}
							case math.Abs(g-w) > tol*math.Max(1, math.Abs(w)):
								t.Fatalf("%s: column %d: got %v, want %v", name, j, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// narrowReduce reduces in ([rows, m]) over dim 0 with op on backend b:
// in float32 for float32, bfloat16 and float16 inputs, integer sums and
// products in int64, the rest in the input's dtype.
func narrowReduce(t *testing.T, b kernel.Backend, op *optable.Op, in *raw.View, m int) []*raw.View {
	t.Helper()
	d := in.DType
	switch {
	case d.IsReduced():
		d = dtype.Float32
	case d.IsIntOrBool() && (op == optable.Sum || op == optable.Prod):
		d = dtype.Int64
	}
	return reduceInto(t, b, op, in, d, []int{1, m})
}

// reduceInto reduces in with op on backend b in dtype d into new outputs
// of shape sh (values of d, indices of int64).
func reduceInto(t *testing.T, b kernel.Backend, op *optable.Op, in *raw.View, d dtype.DType, sh []int) []*raw.View {
	t.Helper()
	cfg := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(d)
	var outs []*raw.View
	switch op {
	case optable.ArgMax, optable.ArgMin:
		outs = []*raw.View{raw.New(dtype.Int64, sh)}
	case optable.Max, optable.Min:
		outs = []*raw.View{raw.New(d, sh), raw.New(dtype.Int64, sh)}
	default:
		outs = []*raw.View{raw.New(d, sh)}
	}
	for _, o := range outs {
		cfg.AddOutput(o)
	}
	p, err := cfg.AddInput(in).Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Reduce(op, p, nil); err != nil {
		t.Fatal(err)
	}
	return outs
}

// valueBits is the bits of element j of v: a float's (NaN payloads and
// zeros' signs), an integer's value.
func valueBits(v *raw.View, j int) uint64 {
	switch v.DType {
	case dtype.Float32:
		return uint64(math.Float32bits(float32(v.Float64At(j))))
	case dtype.Float64:
		return math.Float64bits(v.Float64At(j))
	}
	return uint64(v.Int64At(j))
}

// TestNarrowColumnsBatched checks the view over a batch of slabs, [B,
// rows, m] over dim 1, slabs one after the other or with a gap between
// them, against the same reductions without the view: bit for bit, sums
// within a few ulp of the reference backend.
func TestNarrowColumnsBatched(t *testing.T) {
	at := func(i int) float64 {
		h := (7919*i + 13) % 1009
		if h%5 == 0 {
			return 0
		}
		return float64(h%13) - 6.5
	}
	for _, m := range []int{2, 3, 4, 16} {
		least := narrowMinRows * narrowWidth(m, narrowOrdered) / m
		for _, rows := range []int{least, 1000} {
			for _, batches := range []int{2, 5} {
				for _, gap := range []int{0, 7} {
					for _, dt := range []dtype.DType{dtype.Float32, dtype.Float64} {
						slab := rows*m + gap
						base := raw.New(dt, []int{batches * slab})
						for i := 0; i < base.NumEl(); i++ {
							base.SetFloat64(i, at(i))
						}
						in := base.WithLayout([]int{batches, rows, m}, []int{slab, m, 1}, 0)
						for _, op := range []*optable.Op{optable.Sum, optable.Mean, optable.Amax, optable.Amin,
							optable.Max, optable.Min, optable.ArgMax, optable.ArgMin} {
							name := fmt.Sprintf("%s m=%d rows=%d batches=%d gap=%d %v", op.Name, m, rows, batches, gap, dt)
							got := batchReduce(t, New(), op, in)
							least := narrowMinRows
							narrowMinRows = math.MaxInt
							want := batchReduce(t, New(), op, in)
							narrowMinRows = least
							sum := op == optable.Sum || op == optable.Mean
							if sum {
								want = batchReduce(t, ref.New(), op, in)
							}
							for k := range got {
								for j := 0; j < batches*m; j++ {
									g, w := got[k].Float64At(j), want[k].Float64At(j)
									if sum && math.Abs(g-w) > 4e-7*math.Max(1, math.Abs(w)) ||
										!sum && valueBits(got[k], j) != valueBits(want[k], j) {
										t.Fatalf("%s: output %d element %d: got %v, want %v", name, k, j, g, w)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// batchReduce reduces in ([B, rows, m]) over dim 1 with op on backend b,
// in the input's dtype.
func batchReduce(t *testing.T, b kernel.Backend, op *optable.Op, in *raw.View) []*raw.View {
	t.Helper()
	return reduceInto(t, b, op, in, in.DType, []int{in.Shape[0], 1, in.Shape[2]})
}
