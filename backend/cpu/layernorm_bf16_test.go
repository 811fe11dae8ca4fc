package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable/elem"
)

// TestLayerNormBF16Kernels checks the CPU's loops of bfloat16 layer_norm
// (layerNormBF16Vec) against elem's own, bit for bit: whole rows of 1 to
// 600 elements, with and without weight and bias, and values that
// overflow, cancel, or hold ±Inf and NaN.
func TestLayerNormBF16Kernels(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	bf := func(v float64) float32 { return dtype.BF16FromFloat32(float32(v)).Float32() }
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 3e38, -3e38, 0}
	for trial := range 300 {
		n := 1 + rng.Intn(600)
		scale := math.Pow(10, float64(rng.Intn(7)-3))
		x, w, b := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], w[i], b[i] = bf(rng.NormFloat64()*scale), bf(rng.NormFloat64()), bf(rng.NormFloat64())
			if trial%4 == 0 && rng.Intn(50) == 0 {
				x[i] = bf(specials[rng.Intn(len(specials))])
			}
		}
		ws, bs := w, b
		if trial%3 == 1 {
			ws = nil
		}
		if trial%5 == 2 {
			bs = nil
		}
		got, want := make([]float32, n), make([]float32, n)
		elem.LayerNormRowBF16(got, x, ws, bs, 1e-5, layerNormBF16Vec)
		elem.LayerNormRowBF16(want, x, ws, bs, 1e-5, nil)
		for i := range got {
			if g, wt := got[i], want[i]; math.Float32bits(g) != math.Float32bits(wt) && !(g != g && wt != wt) {
				t.Fatalf("trial %d (%d elements): y[%d] = %v, want %v", trial, n, i, g, wt)
			}
		}
	}
}
