package cpu

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/kernel"
)

// TestLayerNormF32Identity checks float32 layer_norm rows without a weight,
// a bias or both (layerNormRowF32's stand-ins): each equals the row with
// a weight of ones and a bias of negative zeros, bit for bit, over rows
// longer than the stand-ins, and a row of signed zeros keeps its signs.
func TestLayerNormF32Identity(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	args := kernel.DefaultArgs
	args.Eps = 1e-5
	for _, n := range []int{1, 5, 100, 4096, 4096 + 37, 3*4096 + 1} {
		x, w, b := make([]float32, n), make([]float32, n), make([]float32, n)
		ones, negZeros := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], w[i], b[i] = float32(rng.NormFloat64()*3+1), float32(rng.NormFloat64()), float32(rng.NormFloat64())
			ones[i], negZeros[i] = 1, float32(math.Copysign(0, -1))
		}
		for _, c := range []struct {
			name           string
			w, b, wAs, bAs []float32
		}{{"no weight", nil, b, ones, b}, {"no bias", w, nil, w, negZeros}, {"neither", nil, nil, ones, negZeros}} {
			got, want := make([]float32, n), make([]float32, n)
			layerNormRowF32(ptrOf(got), ptrOf(x), ptrOf(c.w), ptrOf(c.b), n, &args)
			layerNormRowF32(ptrOf(want), ptrOf(x), ptrOf(c.wAs), ptrOf(c.bAs), n, &args)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s, n=%d: y[%d] = %v, want %v", c.name, n, i, got[i], want[i])
				}
			}
		}
	}
	zeros := []float32{float32(math.Copysign(0, -1)), 0, float32(math.Copysign(0, -1)), 0}
	got := make([]float32, len(zeros))
	layerNormRowF32(ptrOf(got), ptrOf(zeros), nil, nil, len(zeros), &args)
	for i, v := range got {
		if math.Signbit(float64(v)) != math.Signbit(float64(zeros[i])) || v != 0 {
			t.Errorf("zeros: y[%d] = %v, want %v", i, v, zeros[i])
		}
	}
}

// ptrOf is s's first element's address, nil for a nil slice.
func ptrOf(s []float32) unsafe.Pointer {
	if s == nil {
		return nil
	}
	return unsafe.Pointer(&s[0])
}
