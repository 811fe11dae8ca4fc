package cpu

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// TestLogCumSumExpRow checks the vectorised logcumsumexp of Note
// [Vectorised logcumsumexp] against the generated scalar recurrence on
// rows that cross blocks, with specials in some blocks and not others,
// runs of -Inf before finite values, rising sequences (the running max
// grows every step), a wide dynamic range, and a carry from a previous
// chunk: specials must match bit for bit, the rest within a few float64
// ulps of the row's scale.
func TestLogCumSumExpRow(t *testing.T) {
	inf := math.Inf(1)
	r := rand.New(rand.NewSource(1))
	rows := map[string][]float64{}
	rnd := func(n int, scale float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = (r.Float64()*2 - 1) * scale
		}
		return x
	}
	rows["random"] = rnd(3*lcseBlock+17, 10)
	rows["wide"] = rnd(2*lcseBlock+5, 1e4)
	rows["tiny"] = rnd(5, 1)
	rise := make([]float64, 2*lcseBlock+3)
	for i := range rise {
		rise[i] = float64(i) / 8
	}
	rows["rising"] = rise
	fall := make([]float64, 2*lcseBlock+3)
	for i := range fall {
		fall[i] = -float64(i) * 3
	}
	rows["falling"] = fall
	for _, sp := range []struct {
		name string
		at   int
		v    float64
	}{{"nan-block1", lcseBlock + 3, math.NaN()}, {"inf-block1", lcseBlock + 7, inf}, {"-inf-block1", lcseBlock + 9, -inf}, {"-inf-first", 0, -inf}} {
		x := rnd(3*lcseBlock+1, 5)
		x[sp.at] = sp.v
		rows[sp.name] = x
	}
	lead := rnd(2*lcseBlock+11, 5)
	for i := 0; i < lcseBlock+4; i++ {
		lead[i] = -inf
	}
	rows["-inf-prefix"] = lead
	for name, x := range rows {
		for _, carry := range []float64{math.Inf(-1), 3.5, -700, inf, math.NaN()} {
			t.Run(fmt.Sprintf("%s/carry=%v", name, carry), func(t *testing.T) {
				n := len(x)
				got64, want64 := make([]float64, n), make([]float64, n)
				cg, cw := carry, carry
				logCumSumExpRow[float64](unsafe.Pointer(&got64[0]), nil, unsafe.Pointer(&x[0]), n, 0, unsafe.Pointer(&cg))
				scanRowLogCumSumExp0[float64](unsafe.Pointer(&want64[0]), nil, unsafe.Pointer(&x[0]), n, 0, unsafe.Pointer(&cw))
				checkClose(t, "float64 (the carry last)", append(got64, cg), append(want64, cw), 8e-16)
				x32 := make([]float32, n)
				for i, v := range x {
					x32[i] = float32(v)
				}
				g32, w32 := make([]float32, n), make([]float32, n)
				cg, cw = carry, carry
				logCumSumExpRow[float32](unsafe.Pointer(&g32[0]), nil, unsafe.Pointer(&x32[0]), n, 0, unsafe.Pointer(&cg))
				scanRowLogCumSumExp0[float32](unsafe.Pointer(&w32[0]), nil, unsafe.Pointer(&x32[0]), n, 0, unsafe.Pointer(&cw))
				for i := range g32 {
					g, w := float64(g32[i]), float64(w32[i])
					if g == w || g != g && w != w {
						continue
					}
					if math.Abs(g-w) > math.Abs(w)*0x1p-23 { // at most an ulp: float64 results round alike
						t.Fatalf("float32 element %d: got %v, want %v", i, g32[i], w32[i])
					}
				}
			})
		}
	}
}

// checkClose fails t unless got and want agree: specials exactly, other
// values within tol·(|want| + t + 1) at element t (the error of the
// running sum grows with the row).
func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		g, w := got[i], want[i]
		if g == w || g != g && w != w {
			continue
		}
		if math.IsInf(w, 0) || math.IsNaN(w) || math.Abs(g-w) > tol*(math.Abs(w)+float64(i)+1) {
			t.Fatalf("%s element %d: got %v, want %v", what, i, g, w)
		}
	}
}

// TestLogCumSumExpCols checks logcumsumexp's vectorised outer-dim scan
// against the generated scalar one over 37 steps of 19 rows whose values
// include every special pair (equal and opposite infinities, NaN after a
// finite carry, -Inf runs before finite values): specials bit for bit,
// the rest within a few float64 ulps.
func TestLogCumSumExpCols(t *testing.T) {
	const n, w = 37, 19
	r := rand.New(rand.NewSource(2))
	specials := []float64{math.Inf(1), math.Inf(-1), math.NaN()}
	x := make([]float64, n*w)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * 20
		if r.Intn(6) == 0 {
			x[i] = specials[r.Intn(len(specials))]
		}
	}
	for j := 0; j < w; j += 3 { // -Inf runs at the start of some rows
		for t := 0; t < j/2; t++ {
			x[t*w+j] = math.Inf(-1)
		}
	}
	got, want := make([]float64, n*w), make([]float64, n*w)
	cg, cw := make([]float64, w), make([]float64, w)
	scanInitLogCumSumExp0[float64](unsafe.Pointer(&cg[0]), w)
	scanInitLogCumSumExp0[float64](unsafe.Pointer(&cw[0]), w)
	logCumSumExpCols[float64](unsafe.Pointer(&got[0]), nil, unsafe.Pointer(&x[0]), 8*w, 0, 8*w, n, w, unsafe.Pointer(&cg[0]))
	scanColsLogCumSumExp0[float64](unsafe.Pointer(&want[0]), nil, unsafe.Pointer(&x[0]), 8*w, 0, 8*w, n, w, unsafe.Pointer(&cw[0]))
	checkClose(t, "float64", got, want, 4e-16)
	x32 := make([]float32, n*w)
	for i, v := range x {
		x32[i] = float32(v)
	}
	g32, w32 := make([]float32, n*w), make([]float32, n*w)
	scanInitLogCumSumExp0[float32](unsafe.Pointer(&cg[0]), w)
	scanInitLogCumSumExp0[float32](unsafe.Pointer(&cw[0]), w)
	logCumSumExpCols[float32](unsafe.Pointer(&g32[0]), nil, unsafe.Pointer(&x32[0]), 4*w, 0, 4*w, n, w, unsafe.Pointer(&cg[0]))
	scanColsLogCumSumExp0[float32](unsafe.Pointer(&w32[0]), nil, unsafe.Pointer(&x32[0]), 4*w, 0, 4*w, n, w, unsafe.Pointer(&cw[0]))
	for i := range g32 {
		g, w := float64(g32[i]), float64(w32[i])
		if g == w || g != g && w != w {
			continue
		}
		if math.IsInf(w, 0) || math.Abs(g-w) > math.Abs(w)*0x1p-23 {
			t.Fatalf("float32 element %d: got %v, want %v", i, g32[i], w32[i])
		}
	}
}
