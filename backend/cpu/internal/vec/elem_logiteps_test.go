package vec

import (
	"fmt"
	"math"
	"testing"
)

// epsCases are the (lo, hi) = (eps, 1 − eps) parameters the logit-with-eps
// kernels are tested with: eps 0 (no clamp but at the ends), tiny, usual,
// ½ (lo = hi) and above ½ (lo > hi: x < lo takes lo first), a subnormal.
var epsCases = []float64{0, 1e-6, 0.01, 0.25, 0.5, 0.75, 1e-300, 0x1p-149}

// randUnit returns a generator of values in [0, 1] (logit's domain, the
// ends and the eps edges included) half the time, gen's otherwise.
func randUnit[T floats](gen func() T) func() T {
	return func() T {
		switch rng.Intn(4) {
		case 0:
			return gen()
		case 1:
			return T([]float64{0, 1, 1e-6, 1 - 1e-6, 0.01, 0.99, 0.25, 0.75, 0.5, math.NaN(), math.Copysign(0, -1)}[rng.Intn(11)])
		}
		return T(rng.Float64())
	}
}

// testUnaryParams is testUnary for the kernels with (lo, hi) parameters:
// bit for bit against the twin for each of epsCases.
func testUnaryParams[T floats](t *testing.T, k elemKernel, fn func(dst, x []T, lo, hi T), f func(x, lo, hi T) T, gen func() T) {
	for _, eps := range epsCases {
		lo, hi := T(eps), T(1-eps)
		run1(t, fmt.Sprintf("%s/eps=%g", k.name, eps), func(d, x []T) { fn(d, x, lo, hi) },
			func(d, x []T) { unaryGo(d, x, func(v T) T { return f(v, lo, hi) }) }, gen, sameBits[T], false)
	}
}

// logitEpsRef is optable/elem's Logit with clamp, in float64.
func logitEpsRef(x, lo, hi float64) float64 {
	if x < lo {
		x = lo
	} else if x > hi {
		x = hi
	}
	return logRef64(x / (1 - x))
}

// TestLogitEpsAccuracy checks logit with eps against the float64
// reference with the no-eps kernels' bounds (1 ulp), exactly where the
// result is 0, ±Inf or NaN, over the unit interval sampled, the whole
// float range (clamped), the eps edges and their neighbours, NaN, ±0, 1.
func TestLogitEpsAccuracy(t *testing.T) {
	xs32 := sweep32(mathStride())
	for range 100000 {
		xs32 = append(xs32, float32(rng.Float64()))
	}
	for _, eps := range epsCases {
		lo, hi := float32(eps), float32(1-eps)
		xs32 = append(xs32, lo, hi, math.Nextafter32(lo, 0), math.Nextafter32(lo, 1), math.Nextafter32(hi, 0), math.Nextafter32(hi, 1))
	}
	xs32 = append(xs32, 0, float32(math.Copysign(0, -1)), 1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)))
	got32 := make([]float32, len(xs32))
	for _, eps := range epsCases {
		lo, hi := float32(eps), float32(1-eps)
		LogitEpsF32(got32, xs32, lo, hi)
		worst, bad := 0.0, 0
		for i, x := range xs32 {
			want := logitEpsRef(float64(x), float64(lo), float64(hi))
			w := float32(want)
			if w != w || w == 0 || math.IsInf(float64(w), 0) {
				if !sameSpecial32(got32[i], want) {
					if bad++; bad <= 5 {
						t.Errorf("LogitEpsF32(%v, eps=%g) = %v, want %v exactly", x, eps, got32[i], w)
					}
				}
				continue
			}
			worst = max(worst, ulpErr(got32[i], want))
			if !(ulpErr(got32[i], want) <= 1) {
				if bad++; bad <= 5 {
					t.Errorf("LogitEpsF32(%v, eps=%g) = %v, want %v", x, eps, got32[i], want)
				}
			}
		}
		t.Logf("LogitEpsF32 eps=%g: worst %.3f ulp over %d inputs", eps, worst, len(xs32))
	}

	var xs64 []float64
	for range 200000 {
		xs64 = append(xs64, rng.Float64(), math.Float64frombits(rng.Uint64()))
	}
	for _, eps := range epsCases {
		lo, hi := eps, 1-eps
		xs64 = append(xs64, lo, hi, math.Nextafter(lo, 0), math.Nextafter(lo, 1), math.Nextafter(hi, 0), math.Nextafter(hi, 1))
	}
	xs64 = append(xs64, 0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(1), math.Inf(-1), 0x1p-1074, 0x1p-1022)
	got64 := make([]float64, len(xs64))
	for _, eps := range epsCases {
		lo, hi := eps, 1-eps
		LogitEpsF64(got64, xs64, lo, hi)
		worst, bad := 0.0, 0
		for i, x := range xs64 {
			want := logitEpsRef(x, lo, hi)
			if want != want || want == 0 || math.IsInf(want, 0) {
				if !(got64[i] == want && math.Signbit(got64[i]) == math.Signbit(want) || want != want && got64[i] != got64[i]) {
					if bad++; bad <= 5 {
						t.Errorf("LogitEpsF64(%v, eps=%g) = %v, want %v exactly", x, eps, got64[i], want)
					}
				}
				continue
			}
			worst = max(worst, ulpErr64(got64[i], want))
			if !(ulpErr64(got64[i], want) <= 1) {
				if bad++; bad <= 5 {
					t.Errorf("LogitEpsF64(%v, eps=%g) = %v, want %v", x, eps, got64[i], want)
				}
			}
		}
		t.Logf("LogitEpsF64 eps=%g: worst %.3f ulp over %d inputs", eps, worst, len(xs64))
	}
}
