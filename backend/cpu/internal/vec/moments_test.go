package vec

import (
	"math"
	"math/rand"
	"testing"

	"github.com/goten-ml/goten/dtype"
	optelem "github.com/goten-ml/goten/optable/elem"
)

// TestWelfordChunkBF16 checks WelfordChunkBF16 against optable/elem.s steps bit
// for bit, over every count of vectors, from zero and from a running
// state, on values that overflow, cancel, hold ±0, ±Inf and NaN.
func TestWelfordChunkBF16(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3e38, -3e38, 1e-40}
	var coef [16]float32
	for j := range coef {
		coef[j] = dtype.BF16FromFloat32(1 / dtype.BF16FromFloat32(float32(j+1)).Float32()).Float32()
	}
	for trial := range 400 {
		vectors := trial % 17
		x := make([]float32, 16*vectors+trial%16) // elements past the last vector are not read
		scale := float32(math.Pow(10, float64(rng.Intn(9)-4)))
		for i := range x {
			v := float32(rng.NormFloat64()) * scale
			if trial%3 == 0 && rng.Intn(40) == 0 {
				v = specials[rng.Intn(len(specials))]
			}
			x[i] = dtype.BF16FromFloat32(v).Float32()
		}
		var start optelem.MomentLanes
		if trial%2 == 1 {
			for l := range 16 {
				start[0][l] = dtype.BF16FromFloat32(float32(rng.NormFloat64()) * scale).Float32()
				start[1][l] = dtype.BF16FromFloat32(float32(rng.ExpFloat64()) * scale).Float32()
			}
		}
		got, want := start, start
		WelfordChunkBF16(&got, x, &coef)
		optelem.WelfordChunkBF16(&want, x, &coef)
		for h := range got {
			for l := range got[h] {
				if !sameF32(got[h][l], want[h][l], true) { // NaN payloads: package doc
					t.Fatalf("trial %d (%d vectors): m[%d][%d] = %x, want %x", trial, vectors, h, l,
						math.Float32bits(got[h][l]), math.Float32bits(want[h][l]))
				}
			}
		}
	}
}

// TestMergeLanesBF16 checks MergeLanesBF16 against elem's steps bit for
// bit, on states of any counts and of the same special values.
func TestMergeLanesBF16(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3e38, -3e38, 1e-40}
	value := func(scale float32, special bool) float32 {
		v := float32(rng.NormFloat64()) * scale
		if special && rng.Intn(10) == 0 {
			v = specials[rng.Intn(len(specials))]
		}
		return dtype.BF16FromFloat32(v).Float32()
	}
	for trial := range 400 {
		scale := float32(math.Pow(10, float64(rng.Intn(9)-4)))
		var w, m optelem.MomentLanes
		for h := range w {
			for l := range w[h] {
				w[h][l], m[h][l] = value(scale, trial%3 == 0), value(scale, trial%3 == 0)
			}
		}
		wn, n := rng.Intn(5000), rng.Intn(300)
		c := dtype.BF16FromFloat32(float32(n) / float32(max(wn+n, 1))).Float32()
		wnBF := dtype.BF16FromFloat32(float32(wn)).Float32()
		got, want := w, w
		MergeLanesBF16(&got, &m, c, wnBF)
		optelem.MergeLanesBF16(&want, &m, c, wnBF)
		for h := range got {
			for l := range got[h] {
				if !sameF32(got[h][l], want[h][l], true) { // NaN payloads: package doc
					t.Fatalf("trial %d: w[%d][%d] = %x, want %x", trial, h, l,
						math.Float32bits(got[h][l]), math.Float32bits(want[h][l]))
				}
			}
		}
	}
}

// TestWelfordChunkBF16Bounds checks that a chunk longer than its
// coefficients panics before anything is read.
func TestWelfordChunkBF16Bounds(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("17 vectors: no panic")
		}
	}()
	var m optelem.MomentLanes
	var coef [16]float32
	WelfordChunkBF16(&m, make([]float32, 17*16), &coef)
}

// BenchmarkLayerNormRowBF16 times a bfloat16 layer_norm row of 768 with
// the assembly's Welford chunks and with elem's.
func BenchmarkLayerNormRowBF16(b *testing.B) {
	x, y := make([]float32, 768), make([]float32, 768)
	for i := range x {
		x[i] = dtype.BF16FromFloat32(float32((7919*i+13)%1009-504) / 64).Float32()
	}
	for _, c := range []struct {
		name  string
		chunk *optelem.LayerNormBF16Kernels
	}{{"vec", &optelem.LayerNormBF16Kernels{Chunk: WelfordChunkBF16, Merge: MergeLanesBF16, Affine: optelem.AffineBF16}}, {"elem", nil}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(2 * len(x)))
			for range b.N {
				optelem.LayerNormRowBF16(y, x, nil, nil, 1e-5, c.chunk)
			}
		})
	}
}
