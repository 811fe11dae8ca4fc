package vec

import (
	"math"
	"testing"
)

// binOperands returns pairs over the float64 range sampled by exponent
// (both signs, every 8th exponent), with the special values and pairs
// of close and far magnitudes.
func binOperands() (as, bs []float64) {
	var vs []float64
	for e := uint64(0); e < 2048; e += 8 {
		b := e<<52 | rng.Uint64()&(1<<52-1)
		vs = append(vs, math.Float64frombits(b), -math.Float64frombits(b))
	}
	for _, b := range specials64 {
		vs = append(vs, math.Float64frombits(b))
	}
	for _, a := range vs {
		for range 4 {
			as, bs = append(as, a), append(bs, vs[rng.Intn(len(vs))])
		}
		as, bs = append(as, a), append(bs, a*(1+rng.Float64()*1e-3))
	}
	for range 20000 {
		as, bs = append(as, rng.NormFloat64()*8), append(bs, rng.NormFloat64()*8)
	}
	return as, bs
}

// atan2Ref is math.Atan2 with y's sign: math.Atan2 returns +π for a
// negative y whose quotient by a negative x underflows to +0 (atan2(−3e-306,
// −3e142), whose value is −π to every bit).
func atan2Ref(y, x float64) float64 { return math.Copysign(math.Atan2(y, x), y) }

// TestBinMathAccuracy checks hypot and atan2 at float32 and float64
// against Go's math (within 1 ulp itself): within the bound for finite
// results, exact where an operand is special or the result is 0, ±Inf or
// NaN.
func TestBinMathAccuracy(t *testing.T) {
	as, bs := binOperands()
	for _, c := range []struct {
		name     string
		f32      func(dst, a, b []float32)
		f64      func(dst, a, b []float64)
		ref      func(a, b float64) float64
		ulp, u32 float64
	}{
		{"Hypot", HypotF32, HypotF64, math.Hypot, 2, 1},
		{"Atan2", Atan2F32, Atan2F64, atan2Ref, 2, 1},
	} {
		got := make([]float64, len(as))
		c.f64(got, as, bs)
		worst, wa, wb := 0.0, 0.0, 0.0
		for i := range as {
			a, b, w := as[i], bs[i], c.ref(as[i], bs[i])
			if a != a || b != b || a == 0 || b == 0 || math.IsInf(a, 0) || math.IsInf(b, 0) || w != w || w == 0 || math.IsInf(w, 0) {
				if !(got[i] == w && math.Signbit(got[i]) == math.Signbit(w) || w != w && got[i] != got[i]) {
					t.Errorf("%sF64(%v, %v) = %v, want %v exactly", c.name, a, b, got[i], w)
				}
				continue
			}
			if e := ulpErr64(got[i], w); e > worst {
				worst, wa, wb = e, a, b
			}
		}
		t.Logf("%sF64: worst %.3f ulp from math's at (%v, %v)", c.name, worst, wa, wb)
		if !(worst <= c.ulp+1) {
			t.Errorf("%sF64: %.3f ulp from math's, bound %v+1", c.name, worst, c.ulp)
		}
		a32, b32 := make([]float32, len(as)), make([]float32, len(as))
		for i := range as {
			a32[i], b32[i] = float32(as[i]), float32(bs[i])
		}
		g32 := make([]float32, len(as))
		c.f32(g32, a32, b32)
		worst = 0
		for i := range as {
			a, b := float64(a32[i]), float64(b32[i])
			w := c.ref(a, b)
			w32 := float32(w)
			if a != a || b != b || a == 0 || b == 0 || math.IsInf(a, 0) || math.IsInf(b, 0) || w32 != w32 || w32 == 0 || math.IsInf(float64(w32), 0) {
				if !sameSpecial32(g32[i], w) {
					t.Errorf("%sF32(%v, %v) = %v, want %v exactly", c.name, a32[i], b32[i], g32[i], w32)
				}
				continue
			}
			worst = max(worst, ulpErr(g32[i], w))
		}
		t.Logf("%sF32: worst %.3f ulp", c.name, worst)
		if !(worst <= c.u32) {
			t.Errorf("%sF32: %.3f ulp, bound %v", c.name, worst, c.u32)
		}
	}
}
