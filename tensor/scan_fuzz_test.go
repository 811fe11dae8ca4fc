package tensor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// TestScanRandom runs random scans and row ops (cumsum, cumprod, cummax,
// cummin, logcumsumexp, softmax, log_softmax) along a random dim of random
// views and checks each row against a naive scan in float64.
func TestScanRandom(t *testing.T) {
	n := uint64(1500)
	if testing.Short() {
		n = 200
	}
	ops := []string{"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "softmax", "log_softmax"}
	for seed := uint64(0); seed < n; seed++ {
		r := rand.New(rand.NewPCG(seed, 13))
		op := ops[r.IntN(len(ops))]
		dt := dtype.All[r.IntN(len(dtype.All))]
		if op == "logcumsumexp" || op == "softmax" || op == "log_softmax" || op == "cumprod" && dt.IsFloat() {
			dt = []dtype.DType{dtype.Float32, dtype.Float64, dtype.BFloat16}[r.IntN(3)]
		}
		v := randomView(r, dt, randomSizes(r))
		if op == "cumprod" {
			v.ElementOffsets(func(off int) { // keep products small: ±1, rarely ±2
				x := math.Copysign(1, v.Float64At(off))
				if r.IntN(64) == 0 {
					x *= 2
				}
				v.SetFloat64(off, x)
			})
		}
		nd := max(v.Dim(), 1)
		dim := r.IntN(nd) - r.IntN(2)*nd
		x := tensor.FromRaw(v)
		var got, gotIdx *tensor.Tensor
		err := tensor.Try(func() {
			switch op {
			case "cumsum":
				got = x.CumSum(tensor.Over(dim))
			case "cumprod":
				got = x.CumProd(tensor.Over(dim))
			case "cummax":
				got, gotIdx = x.CumMax(tensor.Over(dim))
			case "cummin":
				got, gotIdx = x.CumMin(tensor.Over(dim))
			case "logcumsumexp":
				got = x.LogCumSumExp(tensor.Over(dim))
			case "softmax":
				got = x.Softmax(tensor.Over(dim))
			case "log_softmax":
				got = x.LogSoftmax(tensor.Over(dim))
			}
		})
		desc := fmt.Sprintf("seed %d: %s(%s%v strides %v, dim %d)", seed, op, dt, v.Shape, v.Strides, dim)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		want := dt
		if (op == "cumsum" || op == "cumprod") && dt.IsIntOrBool() {
			want = dtype.Int64
		}
		if got.DType() != want {
			t.Fatalf("%s: dtype %s, want %s", desc, got.DType(), want)
		}
		rtol := map[dtype.DType]float64{dtype.Float32: 1e-5, dtype.Float64: 1e-10, dtype.BFloat16: 2e-2}[want]
		// walk the rows along dim
		sh := v.Shape
		if len(sh) == 0 {
			sh = []int{1}
		}
		d := (dim + nd) % nd
		rowLen := sh[d]
		idx := make([]int, len(sh))
		elem := func(view interface{ Float64At(int) float64 }, strides []int, offset int, j int) float64 {
			off := offset
			for k := range idx {
				i := idx[k]
				if k == d {
					i = j
				}
				if k < len(strides) {
					off += i * strides[k]
				}
			}
			return view.Float64At(off)
		}
		gv := got.Raw()
		total := 1
		for k, s := range sh {
			if k != d {
				total *= s
			}
		}
		if rowLen == 0 {
			continue
		}
		for row := 0; row < total; row++ {
			rem := row
			for k := len(sh) - 1; k >= 0; k-- {
				if k == d {
					idx[k] = 0
					continue
				}
				idx[k] = rem % sh[k]
				rem /= sh[k]
			}
			xs := make([]float64, rowLen)
			for j := range xs {
				xs[j] = elem(v, v.Strides, v.Offset, j)
			}
			ys, is := naiveScan(op, xs)
			for j := range ys {
				w := roundTo(ys[j], want)
				g := elem(gv, gv.Strides, gv.Offset, j)
				if !(g == w || math.IsNaN(g) && math.IsNaN(w) || math.Abs(g-w) <= rtol*(1+math.Abs(w))) {
					t.Fatalf("%s: row %v element %d = %v, want %v", desc, idx, j, g, w)
				}
				if gotIdx != nil {
					iv := gotIdx.Raw()
					if g := elem(iv, iv.Strides, iv.Offset, j); g != float64(is[j]) {
						t.Fatalf("%s: row %v index %d = %v, want %d", desc, idx, j, g, is[j])
					}
				}
			}
		}
	}
}

// naiveScan computes a scan or row op of one row in float64 (cummax and
// cummin: an equal value or a NaN takes over, as in PyTorch).
func naiveScan(op string, x []float64) (y []float64, idx []int) {
	y, idx = make([]float64, len(x)), make([]int, len(x))
	switch op {
	case "cumsum", "cumprod":
		acc := 0.0
		if op == "cumprod" {
			acc = 1
		}
		for j, v := range x {
			if op == "cumsum" {
				acc += v
			} else {
				acc *= v
			}
			y[j] = acc
		}
	case "cummax", "cummin":
		for j, v := range x {
			if j == 0 {
				y[j] = v
				continue
			}
			best, bi := y[j-1], idx[j-1]
			if !math.IsNaN(best) && (math.IsNaN(v) || op == "cummax" && v >= best || op == "cummin" && v <= best) {
				best, bi = v, j
			}
			y[j], idx[j] = best, bi
		}
	case "logcumsumexp":
		acc := math.Inf(-1)
		for j, v := range x {
			m := math.Max(acc, v)
			if math.IsInf(m, -1) || math.IsNaN(m) {
				acc = m
			} else {
				acc = m + math.Log(math.Exp(acc-m)+math.Exp(v-m))
			}
			y[j] = acc
		}
	case "softmax", "log_softmax":
		m := math.Inf(-1)
		for _, v := range x {
			if v > m || math.IsNaN(v) {
				m = v
			}
		}
		var s float64
		for _, v := range x {
			s += math.Exp(v - m)
		}
		for j, v := range x {
			if op == "softmax" {
				y[j] = math.Exp(v-m) / s
			} else {
				y[j] = v - m - math.Log(s)
			}
		}
	}
	return y, idx
}
