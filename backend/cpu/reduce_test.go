package cpu

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

func refIdentity(code *optable.Op) float64 {
	switch code {
	case optable.Prod:
		return 1
	case optable.Amax:
		return math.Inf(-1)
	case optable.Amin:
		return math.Inf(1)
	}
	return 0
}

func refFold(code *optable.Op, acc dtype.DType, r, v float64) float64 {
	switch code {
	case optable.Sum:
		if acc.IsInt() {
			return float64(int64(r) + int64(v))
		}
		return r + v
	case optable.Prod:
		if acc.IsInt() {
			return float64(int64(r) * int64(v))
		}
		return r * v
	case optable.Amax:
		return nanMax(r, v)
	}
	return nanMin(r, v)
}

// runReduceCase reduces in over the dims marked in reduced into out (a
// keepdim-shaped view of dtype od) accumulating in acc, and compares with
// a naive reference.
func runReduceCase(t *testing.T, code *optable.Op, in, out *raw.View, acc dtype.DType) {
	t.Helper()
	p, err := iter.NewConfig().AddOutput(out).AddInput(in).IsReduction(true).StaticDType(acc).Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	// garbage in the output: Reduce must ignore it
	for i := 0; i < out.NumEl(); i++ {
		setElem(out, i, 42)
	}
	if err := New().Reduce(code, p, nil); err != nil {
		t.Fatalf("%s: %v", code.Name, err)
	}
	want := make([]float64, out.NumEl())
	for i := range want {
		want[i] = refIdentity(code)
	}
	for i := 0; i < in.NumEl(); i++ {
		oi := bcastIndex(out, in.Shape, i)
		x := getElem(in, i)
		if acc.IsReduced() || acc != in.DType && acc.IsFloat() {
			x = refCast(x, acc) // inputs round to the accumulation dtype first
		}
		want[oi] = refFold(code, acc, want[oi], x)
	}
	tol := max(tolerance(out.DType), tolerance(kernel.LoopDType(acc)), tolerance(acc)) * 10
	for i, w := range want {
		if !out.DType.IsFloat() {
			w = refCast(w, out.DType)
		} else {
			w = roundTo(out.DType, w)
		}
		if g := getElem(out, i); !closeTo(g, w, tol, tol, out.DType.IsFloat()) {
			t.Fatalf("%s %s→%s (acc %s) in %v: element %d: got %v, want %v", code.Name, in.DType, out.DType, acc, in.Shape, i, g, w)
		}
	}
}

func keepShape(sh []int, reduced ...int) []int {
	k := append([]int{}, sh...)
	for _, d := range reduced {
		k[d] = 1
	}
	return k
}

func TestReduce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type tc struct {
		code    *optable.Op
		in, out dtype.DType
		acc     dtype.DType
	}
	var cases []tc
	for _, code := range []*optable.Op{optable.Sum, optable.Prod, optable.Amax, optable.Amin} {
		for _, d := range []dtype.DType{dtype.Float32, dtype.Float64, dtype.Float16, dtype.BFloat16} {
			cases = append(cases, tc{code, d, d, d})
		}
		if code == optable.Sum || code == optable.Prod {
			cases = append(cases, tc{code, dtype.Int32, dtype.Int64, dtype.Int64}, tc{code, dtype.Bool, dtype.Int64, dtype.Int64},
				tc{code, dtype.Uint8, dtype.Int64, dtype.Int64}, tc{code, dtype.Int8, dtype.Float64, dtype.Float64},
				tc{code, dtype.Float32, dtype.Float64, dtype.Float32}) // out of another dtype
		} else {
			cases = append(cases, tc{code, dtype.Uint8, dtype.Uint8, dtype.Uint8}, tc{code, dtype.Int16, dtype.Int16, dtype.Int16},
				tc{code, dtype.Int64, dtype.Int64, dtype.Int64}, tc{code, dtype.Bool, dtype.Bool, dtype.Bool})
		}
	}
	sh := []int{3, 4, 5}
	dimSets := [][]int{{1}, {0, 2}, {0, 1, 2}, {2}, {0}}
	for _, c := range cases {
		for _, dims := range dimSets {
			for _, layout := range []string{"contiguous", "permuted", "strided-out"} {
				var in *raw.View
				gen := func(int) float64 {
					if c.in == dtype.Bool {
						return float64(r.IntN(2))
					}
					if c.in.IsInt() {
						return float64(r.IntN(7) - sel(c.in == dtype.Uint8, 0, 3))
					}
					if c.code == optable.Prod {
						return []float64{1, -1, 0.5, 2, 1.5, -0.75}[r.IntN(6)]
					}
					return float64(r.IntN(41)-20) / 4
				}
				switch layout {
				case "permuted":
					in = raw.New(c.in, []int{5, 4, 3}).WithLayout(sh, []int{1, 3, 12}, 0)
					for i := 0; i < in.NumEl(); i++ {
						setElem(in, i, gen(i))
					}
				default:
					in = filled(c.in, sh, gen)
				}
				ks := keepShape(sh, dims...)
				out := raw.New(c.out, ks)
				if layout == "strided-out" {
					n := shape.NumEl(ks)
					out = raw.New(c.out, []int{2*n + 1}).WithLayout(ks, mulInts(shape.Contiguous(ks), 2), 1)
				}
				runReduceCase(t, c.code, in, out, c.acc)
			}
		}
	}
}

func mulInts(s []int, k int) []int {
	for i := range s {
		s[i] *= k
	}
	return s
}

func TestReduceSpecial(t *testing.T) {
	t.Run("nan", func(t *testing.T) {
		for _, code := range []*optable.Op{optable.Amax, optable.Amin, optable.Sum} {
			for _, d := range []dtype.DType{dtype.Float32, dtype.Float16} {
				in := filled(d, []int{4, 6}, func(i int) float64 { return sel(i == 9, math.NaN(), float64(i)) })
				runReduceCase(t, code, in, raw.New(d, []int{4, 1}), d)
				runReduceCase(t, code, in, raw.New(d, []int{1, 6}), d)
			}
		}
	})
	t.Run("empty", func(t *testing.T) {
		for _, code := range []*optable.Op{optable.Sum, optable.Prod, optable.Amax, optable.Amin} {
			for _, d := range []dtype.DType{dtype.Float32, dtype.Int32, dtype.Float16} {
				in := raw.New(d, []int{0, 3})
				out := raw.New(d, []int{1, 3})
				p, err := iter.NewConfig().AddOutput(out).AddInput(in).IsReduction(true).StaticDType(d).Build()
				if err != nil {
					t.Fatal(err)
				}
				if err := New().Reduce(code, p, nil); err != nil {
					t.Fatal(err)
				}
				want := refIdentity(code)
				if d.IsInt() && math.IsInf(want, 0) {
					want = sel(want > 0, float64(math.MaxInt32), math.MinInt32)
				}
				for i := 0; i < 3; i++ {
					if g := getElem(out, i); g != want {
						t.Errorf("%s of empty %s: got %v, want %v", code.Name, d, g, want)
					}
				}
			}
		}
	})
	t.Run("0-d", func(t *testing.T) {
		in := filled(dtype.Float32, nil, func(int) float64 { return 2.5 })
		runReduceCase(t, optable.Sum, in, raw.New(dtype.Float32, nil), dtype.Float32)
	})
	t.Run("long-float16", func(t *testing.T) {
		// 4096 halves summed in float32: exact, where float16 would stall at 2048
		in := filled(dtype.Float16, []int{4096}, func(int) float64 { return 1 })
		out := raw.New(dtype.Float32, []int{1})
		runReduceCase(t, optable.Sum, in, out, dtype.Float16)
		if g := getElem(out, 0); g != 4096 {
			t.Errorf("got %v", g)
		}
	})
	t.Run("errors", func(t *testing.T) {
		in := raw.New(dtype.Float32, []int{3})
		p, _ := iter.NewConfig().AddOutput(raw.New(dtype.Float32, []int{1})).AddInput(in).IsReduction(true).Build()
		var e *errs.Error
		if err := New().Reduce(optable.Add, p, nil); !errors.As(err, &e) || e.Kind != errs.Value {
			t.Errorf("Reduce(Add): got %v", err)
		}
		b := raw.New(dtype.Bool, []int{3})
		p, _ = iter.NewConfig().AddOutput(raw.New(dtype.Bool, []int{1})).AddInput(b).IsReduction(true).Build()
		if err := New().Reduce(optable.Sum, p, nil); !errors.As(err, &e) || e.Kind != errs.DType {
			t.Errorf("Reduce(Sum) of bool: got %v", err)
		}
	})
}
