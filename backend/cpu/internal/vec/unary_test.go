package vec

import (
	"fmt"
	"math"
	"testing"
)

// The unary primitives against their twins, bit for bit, and against
// float64 math rounded to float32, within each one's stated bound.

type unaryCase struct {
	name     string
	fn, twin func(dst, x []float32)
	ref      func(x float64) float64
	lim      float32 // the accuracy sweep covers |x| ≤ lim
	ulps     float64 // the stated bound
}

var unaryCases = []unaryCase{
	{"ExpF32", ExpF32, func(dst, x []float32) { unaryGo(dst, x, expF32) }, math.Exp, 105, 1},
	{"TanhF32", TanhF32, tanhF32Go, math.Tanh, 10, 1.5},
	{"SigmoidF32", SigmoidF32, sigmoidF32Go, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 105, 2.5},
	// x·Φ(x) with Φ(x) = erfc(-x/√2)/2: no cancellation for x < 0.
	{"GeluF32", GeluF32, geluF32Go, func(x float64) float64 { return x * 0.5 * math.Erfc(-x/math.Sqrt2) }, 16, 3.5},
}

// unaryInput is a random input: mostly where the functions change, some
// far out, specials, random bit patterns.
func unaryInput() float32 {
	switch rng.Intn(10) {
	case 0:
		return math.Float32frombits(specials32[rng.Intn(len(specials32))])
	case 1:
		return math.Float32frombits(rng.Uint32())
	case 2:
		return float32(rng.NormFloat64() * 60)
	case 3:
		return float32(rng.NormFloat64() * 1e-4)
	}
	return float32(rng.NormFloat64() * 4)
}

func TestUnaryF32(t *testing.T) {
	for _, c := range unaryCases {
		run1(t, c.name, c.fn, c.twin, unaryInput, sameBits[float32], false)
	}
}

// ulpErr is |got − want| in units of the float32 spacing at want (the
// least subnormal below it).
func ulpErr(got float32, want float64) float64 {
	a := float32(math.Abs(want))
	if math.IsInf(float64(a), 0) { // rounds to ±Inf
		if float64(got) == math.Copysign(math.Inf(1), want) {
			return 0
		}
		return math.Inf(1)
	}
	ulp := float64(math.Nextafter32(a, float32(math.Inf(1))) - a)
	if math.IsInf(float64(a)+ulp, 0) {
		ulp = float64(a - math.Nextafter32(a, 0))
	}
	return math.Abs(float64(got)-want) / ulp
}

// TestUnaryAccuracy sweeps every 97th float32 bit pattern with |x| ≤ lim
// (every 997th with -short or without the assembly: the twins are slow),
// both signs, and 10^5 random inputs; beyond lim the results are
// saturated. The twins are checked against the exported functions on every
// 16th input of the sweep too (TestUnaryF32 does the rest). The bounds are
// those of the doc comments; an exhaustive run over every float32 with
// |x| ≤ lim found at most 0.91 (exp), 1.37 (tanh), 2.41 (sigmoid) and
// 3.29 ulp (gelu).
func TestUnaryAccuracy(t *testing.T) {
	stride := uint32(97)
	if testing.Short() || !UnarySIMD {
		stride = 997
	}
	for _, c := range unaryCases {
		worst, wx, wg := 0.0, float32(0), float32(0)
		check := func(xs []float32) {
			got := make([]float32, len(xs))
			c.fn(got, xs)
			for i, x := range xs {
				if e := ulpErr(got[i], c.ref(float64(x))); e > worst || e != e {
					worst, wx, wg = e, x, got[i]
				}
			}
			sub := make([]float32, 0, len(xs)/16+1)
			for i := 0; i < len(xs); i += 16 {
				sub = append(sub, xs[i])
			}
			g, w := make([]float32, len(sub)), make([]float32, len(sub))
			c.fn(g, sub)
			c.twin(w, sub)
			for i := range g {
				if math.Float32bits(g[i]) != math.Float32bits(w[i]) {
					t.Fatalf("%s(%v): got %v, twin %v", c.name, sub[i], g[i], w[i])
				}
			}
		}
		top := math.Float32bits(c.lim)
		xs := make([]float32, 0, 1<<16)
		for _, sign := range []uint32{0, signMask} {
			for b := uint32(0); b <= top; b += stride {
				xs = append(xs, math.Float32frombits(b|sign))
				if len(xs) == cap(xs) {
					check(xs)
					xs = xs[:0]
				}
			}
		}
		for i := 0; i < 100000; i++ {
			xs = append(xs, float32(rng.NormFloat64()*float64(c.lim)/3))
		}
		check(xs)
		t.Logf("%s: worst %.3f ulp at %v", c.name, worst, wx)
		if !(worst <= c.ulps) {
			t.Errorf("%s(%v) = %v, want %v: %.3f ulp, bound %v", c.name, wx, wg, c.ref(float64(wx)), worst, c.ulps)
		}
	}
}

func TestUnarySpecials(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	tiny := math.Float32frombits(1) // least subnormal
	maxExp := float32(88.72283)     // e^x is finite up to here
	for _, c := range []struct {
		name string
		fn   func(dst, x []float32)
		in   []float32
		want []float32
	}{
		{"ExpF32", ExpF32,
			[]float32{inf, -inf, 0, negZero, maxExp, math.Nextafter32(maxExp, inf), 89, 1000, -103.28, -103.5, -103.98, -200, tiny},
			[]float32{inf, 0, 1, 1, 3.4027e38, inf, inf, inf, 1.4e-45, 1.4e-45, 0, 0, 1}},
		{"TanhF32", TanhF32,
			[]float32{inf, -inf, 0, negZero, tiny, -tiny, 1e-30, -1e-20, 9.1, -9.1, 1e30, 1e-3},
			[]float32{1, -1, 0, negZero, tiny, -tiny, 1e-30, -1e-20, 1, -1, 1, 9.999997e-4}},
		{"SigmoidF32", SigmoidF32,
			[]float32{inf, -inf, 0, negZero, 17.4, 1e30, -1e30, -88, -103.28, -104, tiny},
			[]float32{1, 0, 0.5, 0.5, 1, 1, 0, 6.0546014e-39, 1.4e-45, 0, 0.5}},
		{"GeluF32", GeluF32,
			[]float32{inf, -inf, 0, negZero, tiny, -tiny, 5.5, 1e30, -1e30, -14.5, -100, -3e-38},
			[]float32{inf, nan, 0, negZero, 0, negZero, 5.5, 1e30, negZero, negZero, negZero, -1.5e-38}},
	} {
		got := make([]float32, len(c.in))
		c.fn(got, c.in)
		for i, x := range c.in {
			w := c.want[i]
			ok := math.Float32bits(got[i]) == math.Float32bits(w) ||
				w != w && got[i] != got[i] ||
				w != 0 && !math.IsInf(float64(w), 0) && math.Abs(float64(got[i]-w)) <= 1e-4*math.Abs(float64(w))
			if !ok {
				t.Errorf("%s(%v) = %v (%#x), want %v", c.name, x, got[i], math.Float32bits(got[i]), w)
			}
		}
		// NaN comes back unchanged, payload and sign included.
		for _, b := range specials32 {
			x := math.Float32frombits(b)
			if x != x {
				c.fn(got[:1], []float32{x})
				if math.Float32bits(got[0]) != b {
					t.Errorf("%s(%#x) = %#x, want the NaN unchanged", c.name, b, math.Float32bits(got[0]))
				}
			}
		}
	}
}

func BenchmarkUnaryF32(b *testing.B) {
	x, dst := make([]float32, 4096), make([]float32, 4096)
	for i := range x {
		x[i] = float32(i%1009-504) / 64
	}
	for _, c := range unaryCases {
		for _, impl := range []struct {
			name string
			fn   func(dst, x []float32)
		}{{"asm", c.fn}, {"go", c.twin}} {
			b.Run(fmt.Sprintf("%s/%s", c.name, impl.name), func(b *testing.B) {
				b.SetBytes(8 * 4096)
				for i := 0; i < b.N; i++ {
					impl.fn(dst, x)
				}
			})
		}
	}
}
