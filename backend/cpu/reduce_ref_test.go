package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/backend/cpu"
	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// The reference matrix of the reductions and scans: every code × dtype ×
// layout (contiguous, permuted, strided with an offset, broadcast, size 0,
// size 1, 0-d, long rows for the SIMD paths) on the CPU backend against
// the reference backend, from the same plans.

// filledView returns a view of shape sh over a fresh storage, laid out
// per layout, with values from gen (in the view's row-major order).
func filledView(d dtype.DType, sh []int, layout string, gen func() float64) *raw.View {
	n := shape.NumEl(sh)
	var v *raw.View
	switch layout {
	case "permuted": // dims in reverse memory order
		rev := make([]int, len(sh))
		for i := range sh {
			rev[i] = sh[len(sh)-1-i]
		}
		st := shape.Contiguous(rev)
		strides := make([]int, len(sh))
		for i := range sh {
			strides[i] = st[len(sh)-1-i]
		}
		v = raw.New(d, rev).WithLayout(append([]int{}, sh...), strides, 0)
	case "strided": // every other element, offset 3
		st := shape.Contiguous(sh)
		for i := range st {
			st[i] *= 2
		}
		v = raw.New(d, []int{2*n + 4}).WithLayout(append([]int{}, sh...), st, 3)
	case "broadcast": // stride 0 on dim 0
		st := shape.Contiguous(sh)
		if len(st) > 0 {
			st[0] = 0
		}
		v = raw.New(d, []int{n + 1}).WithLayout(append([]int{}, sh...), st, 0)
	default:
		v = raw.New(d, sh)
	}
	v.ElementOffsets(func(off int) { v.SetFloat64(off, gen()) })
	return v
}

func sameValue(g, w float64, d dtype.DType) bool {
	if g == w || math.IsNaN(g) && math.IsNaN(w) {
		return true
	}
	tol := map[dtype.DType]float64{dtype.Float32: 2e-5, dtype.Float64: 1e-9, dtype.Float16: 2e-3, dtype.BFloat16: 2e-2}[d]
	return math.Abs(g-w) <= tol*(1+math.Abs(w))
}

func compareViews(t *testing.T, desc string, got, want *raw.View) {
	t.Helper()
	var gs, ws []float64
	got.ElementOffsets(func(off int) { gs = append(gs, got.Float64At(off)) })
	want.ElementOffsets(func(off int) { ws = append(ws, want.Float64At(off)) })
	for i := range gs {
		if !sameValue(gs[i], ws[i], got.DType) {
			t.Fatalf("%s: element %d: cpu %v, ref %v", desc, i, gs[i], ws[i])
		}
	}
}

type reduceCode struct {
	code  *optable.Op
	types []dtype.DType
	out   func(d dtype.DType) dtype.DType // result dtype for compute dtype d
	args  kernel.Args
}

var (
	numeric = []dtype.DType{dtype.Uint8, dtype.Int8, dtype.Int16, dtype.Int32, dtype.Int64, dtype.Float16, dtype.BFloat16, dtype.Float32, dtype.Float64}
	floats  = []dtype.DType{dtype.Float16, dtype.BFloat16, dtype.Float32, dtype.Float64}
	allDT   = append([]dtype.DType{dtype.Bool}, numeric...)
	same    = func(d dtype.DType) dtype.DType { return d }
	i64     = func(dtype.DType) dtype.DType { return dtype.Int64 }
	boolOut = func(dtype.DType) dtype.DType { return dtype.Bool }
)

func reduceCodes() []reduceCode {
	args := func(corr, p float64) kernel.Args {
		a := kernel.DefaultArgs
		a.Correction, a.P = corr, p
		return a
	}
	cs := []reduceCode{
		{optable.Sum, numeric, same, kernel.DefaultArgs}, {optable.Prod, numeric, same, kernel.DefaultArgs},
		{optable.NanSum, numeric, same, kernel.DefaultArgs}, {optable.Mean, floats, same, kernel.DefaultArgs},
		{optable.Amax, allDT, same, kernel.DefaultArgs}, {optable.Amin, allDT, same, kernel.DefaultArgs},
		{optable.Max, allDT, same, kernel.DefaultArgs}, {optable.Min, allDT, same, kernel.DefaultArgs},
		{optable.ArgMax, allDT, i64, kernel.DefaultArgs}, {optable.ArgMin, allDT, i64, kernel.DefaultArgs},
		{optable.Var, floats, same, args(1, 0)}, {optable.Std, floats, same, args(0, 0)},
		{optable.LogSumExp, floats, same, kernel.DefaultArgs},
		{optable.All, allDT, boolOut, kernel.DefaultArgs}, {optable.Any, allDT, boolOut, kernel.DefaultArgs},
		{optable.CountNonzero, allDT, i64, kernel.DefaultArgs},
	}
	for _, p := range []float64{0, 1, 2, 3, math.Inf(1), math.Inf(-1)} {
		cs = append(cs, reduceCode{optable.Norm, floats, same, args(0, p)})
	}
	return cs
}

// runReduce reduces in over the dims in reduced on backend be.
func runReduce(be kernel.Backend, c reduceCode, in *raw.View, reduced []int, compute dtype.DType) ([]*raw.View, error) {
	keep := append([]int{}, in.Shape...)
	for _, d := range reduced {
		keep[d] = 1
	}
	outs := []*raw.View{raw.New(c.out(compute), keep)}
	if c.code.Outputs == 2 {
		outs = append(outs, raw.New(dtype.Int64, keep))
	}
	cfg := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(compute)
	for _, o := range outs {
		cfg.AddOutput(o)
	}
	p, err := cfg.AddInput(in).Build()
	if err != nil {
		return nil, err
	}
	args := c.args
	op := c.code
	if op.Pick != nil {
		op = op.Pick(args.P)
	}
	return outs, be.Reduce(op, p, &args)
}

func TestReduceMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shapes := []struct {
		sh      []int
		reduced [][]int
	}{
		{[]int{}, [][]int{{}}},
		{[]int{1}, [][]int{{0}}},
		{[]int{0, 3}, [][]int{{0}, {1}}},
		{[]int{3, 4, 5}, [][]int{{0}, {1}, {2}, {0, 2}, {0, 1, 2}}},
		{[]int{5, 67}, [][]int{{1}, {0}, {0, 1}}},
		{[]int{70, 3}, [][]int{{0}, {1}}},
		{[]int{2, 1100}, [][]int{{1}, {0, 1}}},
	}
	layouts := []string{"contiguous", "permuted", "strided", "broadcast"}
	for _, c := range reduceCodes() {
		index := c.code == optable.Max || c.code == optable.Min || c.code == optable.ArgMax || c.code == optable.ArgMin
		noIdentity := index || c.code == optable.Amax || c.code == optable.Amin
		for _, d := range c.types {
			gen := func() float64 {
				switch {
				case d == dtype.Bool:
					return float64(r.IntN(2))
				case r.IntN(50) == 0 && d.IsFloat():
					return math.NaN()
				case c.code == optable.Prod:
					return []float64{1, -1, 0.5, 2, 1.5, -0.75}[r.IntN(6)]
				case d.IsInt():
					return float64(r.IntN(7))
				}
				return float64(r.IntN(41)-20) / 4
			}
			for _, s := range shapes {
				for _, red := range s.reduced {
					if index && len(red) > 1 {
						continue
					}
					empty := false
					for _, dd := range red {
						empty = empty || s.sh[dd] == 0
					}
					if noIdentity && empty {
						continue
					}
					for _, l := range layouts {
						in := filledView(d, s.sh, l, gen)
						desc := fmt.Sprintf("%s p %v %s%v %s reduce %v", c.code.Name, c.args.P, d, s.sh, l, red)
						got, err1 := runReduce(cpu.New(), c, in, red, d)
						want, err2 := runReduce(ref.New(), c, in, red, d)
						if err1 != nil || err2 != nil {
							t.Fatalf("%s: cpu %v, ref %v", desc, err1, err2)
						}
						for k := range got {
							compareViews(t, desc, got[k], want[k])
						}
					}
				}
			}
		}
	}
}

// runScan runs a scan or row op along dim on backend be.
func runScan(be kernel.Backend, code *optable.Op, in *raw.View, dim int, out dtype.DType, extra []*raw.View, args kernel.Args) ([]*raw.View, error) {
	outs := []*raw.View{raw.New(out, in.Shape)}
	if code.Outputs == 2 {
		outs = append(outs, raw.New(dtype.Int64, in.Shape))
	}
	cfg := iter.NewConfig().StaticShapeSquash(in.Shape, dim).StaticDType(out).CheckMemOverlap(false)
	for _, o := range outs {
		cfg.AddOutput(o)
	}
	cfg.AddInput(in)
	for _, e := range extra {
		cfg.AddInput(e)
	}
	p, err := cfg.Build()
	if err != nil {
		return nil, err
	}
	args.Dim = dim
	return outs, be.Scan(code, p, &args)
}

func TestScanMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	codes := []struct {
		code  *optable.Op
		types []dtype.DType
	}{
		{optable.CumSum, []dtype.DType{dtype.Int64, dtype.Int32, dtype.Float16, dtype.BFloat16, dtype.Float32, dtype.Float64}},
		{optable.CumProd, []dtype.DType{dtype.Int64, dtype.BFloat16, dtype.Float32, dtype.Float64}},
		{optable.CumMax, allDT}, {optable.CumMin, allDT},
		{optable.LogCumSumExp, floats}, {optable.Softmax, floats}, {optable.LogSoftmax, floats},
	}
	shapes := [][]int{{1}, {7}, {3, 5}, {9, 70}, {70, 9}, {2, 3, 4}}
	for _, c := range codes {
		for _, d := range c.types {
			gen := func() float64 {
				switch {
				case d == dtype.Bool:
					return float64(r.IntN(2))
				case c.code == optable.CumProd:
					return []float64{1, -1, 1, -1, 2}[r.IntN(5)] // products stay small
				case d.IsInt():
					return float64(r.IntN(9) - 4)
				}
				return float64(r.IntN(41)-20) / 4
			}
			for _, sh := range shapes {
				for dim := range sh {
					for _, l := range []string{"contiguous", "permuted", "strided", "broadcast"} {
						in := filledView(d, sh, l, gen)
						if c.code == optable.CumProd && sh[dim] > 60 {
							continue
						}
						desc := fmt.Sprintf("%s %s%v %s dim %d", c.code.Name, d, sh, l, dim)
						got, err1 := runScan(cpu.New(), c.code, in, dim, d, nil, kernel.DefaultArgs)
						want, err2 := runScan(ref.New(), c.code, in, dim, d, nil, kernel.DefaultArgs)
						if err1 != nil || err2 != nil {
							t.Fatalf("%s: cpu %v, ref %v", desc, err1, err2)
						}
						for k := range got {
							compareViews(t, desc, got[k], want[k])
						}
					}
				}
			}
		}
	}
	// layer_norm over the last dim, with and without weight and bias
	for _, d := range floats {
		for _, n := range []int{1, 5, 300} {
			for mask := 0; mask < 4; mask++ {
				gen := func() float64 { return float64(r.IntN(41)-20) / 4 }
				in := filledView(d, []int{6, n}, "contiguous", gen)
				args := kernel.DefaultArgs
				args.Eps = 1e-5
				var extra []*raw.View
				if mask&1 != 0 {
					args.HasWeight = true
					extra = append(extra, filledView(d, []int{n}, "contiguous", gen).WithLayout([]int{6, n}, []int{0, 1}, 0))
				}
				if mask&2 != 0 {
					args.HasBias = true
					extra = append(extra, filledView(d, []int{n}, "contiguous", gen).WithLayout([]int{6, n}, []int{0, 1}, 0))
				}
				desc := fmt.Sprintf("layer_norm %s n %d mask %d", d, n, mask)
				got, err1 := runScan(cpu.New(), optable.LayerNorm, in, 1, d, extra, args)
				want, err2 := runScan(ref.New(), optable.LayerNorm, in, 1, d, extra, args)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: cpu %v, ref %v", desc, err1, err2)
				}
				compareViews(t, desc, got[0], want[0])
			}
		}
	}
}

// TestOuterTiles reduces over an outer dim with rows wider than one tile
// (tiles of different widths alternate) for a cascading sum, against a
// naive sum.
func TestOuterTiles(t *testing.T) {
	sh := []int{3, 40, 9000}
	in := raw.New(dtype.Float64, sh)
	for i := 0; i < in.NumEl(); i++ {
		in.SetFloat64(i, float64(i%97)/8)
	}
	c := reduceCode{optable.Sum, nil, same, kernel.DefaultArgs}
	got, err := runReduce(cpu.New(), c, in, []int{1}, dtype.Float64)
	if err != nil {
		t.Fatal(err)
	}
	for a := 0; a < sh[0]; a++ {
		for k := 0; k < sh[2]; k++ {
			var want float64
			for j := 0; j < sh[1]; j++ {
				want += in.Float64At((a*sh[1]+j)*sh[2] + k)
			}
			if g := got[0].Float64At(a*sh[2] + k); g != want {
				t.Fatalf("[%d, %d]: got %v, want %v", a, k, g, want)
			}
		}
	}
}
