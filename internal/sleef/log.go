// Package sleef holds SLEEF's float32 functions as PyTorch 1.13's CPU
// kernels compute them, step for step, for the op table's scalar loops
// (optable/elem) and the CPU backend's SIMD twins (backend/cpu/internal/vec)
// alike, so that both give PyTorch's bits.
package sleef

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Note [SLEEF's log]
//
// PyTorch 1.13 computes the natural logarithm of float32 (and of bfloat16,
// through float32) with SLEEF's Sleef_logf8_u10 / Sleef_logf16_u10 for
// every layout, as it does exp (Note [SLEEF's exp]). That function is not
// correctly rounded either (about 0.2% of inputs are an ulp away from
// log x rounded), so goten computes its steps, in float32 with its fused
// roundings, and matches it bit for bit: LogF32 here, which the generated
// loops (elem.LogF32) and vec.LogF32's Go twin call, and vec.LogF32's
// assembly (asm/elemmath.go), which runs the same steps on positive normal
// x and hands every other x to the twin. With e the exponent of
// x·(1/0.75) and m = x·2^-e in [0.75, 1.5):
//
//	s = e·ln2 as a pair (hi·e, fma(lo, e, fma(hi, e, -hi·e)))
//	a = (m-1) and b = (m+1) as exact pairs (two-sums)
//	x = a/b as a pair: t = 1/b.hi, q = a.hi·t, u = fma(t, a.hi, -q),
//	    q' = fma(q, fnma(b.lo, t, fnma(b.hi, t, 1)), fma(a.lo, t, u))
//	p = Horner(0.3027294874, 0.3996108174, 0.6666694880; x.hi²) (fused)
//	s = s + 2x (pair sum), s = s + x.hi²·x.hi·p, log = s.hi + s.lo
//
// A subnormal x is scaled by 2^64 first (e lowered by 64); +Inf gives
// +Inf, a negative x or NaN gives NaN, ±0 gives -Inf.

// The constants of Note [SLEEF's log]: ln 2 as a float32 pair and the
// polynomial, highest degree first.
const (
	sleefLn2Hi = float32(0.69314718246459960938)
	sleefLn2Lo = float32(-1.904654323148236017e-09)
)

var sleefLogPoly = [3]float32{0.3027294874, 0.3996108174, 0.6666694880}

// LogF32 is log x as PyTorch 1.13's float32 kernels compute it (Note
// [SLEEF's log]).
func LogF32(d float32) float32 {
	switch {
	case d != d || d < 0:
		return float32(math.NaN())
	case d == 0:
		return float32(math.Inf(-1))
	case d > math.MaxFloat32:
		return d
	}
	scaled := d < 0x1p-126
	if scaled {
		d *= 0x1p64
	}
	e := int32(math.Float32bits(d*float32(1.0/0.75))>>23&0xff) - 0x7f
	m := math.Float32frombits(uint32(int32(math.Float32bits(d)) - e<<23))
	if scaled {
		e -= 64
	}
	fe := float32(e)
	fma := dtype.FMA32
	sHi := sleefLn2Hi * fe
	sLo := fma(sleefLn2Lo, fe, fma(sleefLn2Hi, fe, -sHi))
	aHi, aLo := twoSum32(-1, m)
	bHi, bLo := twoSum32(1, m)
	t := 1 / bHi
	xHi := aHi * t
	u := fma(t, aHi, -xHi)
	xLo := fma(xHi, fma(-bLo, t, fma(-bHi, t, 1)), fma(aLo, t, u))
	x2 := xHi * xHi
	p := fma(fma(sleefLogPoly[0], x2, sleefLogPoly[1]), x2, sleefLogPoly[2])
	rHi := sHi + 2*xHi
	rLo := float32(float32(float32(sHi-rHi)+2*xHi)+sLo) + 2*xLo
	y := float32(x2*xHi) * p
	hi := rHi + y
	lo := float32(float32(rHi-hi)+y) + rLo
	return hi + lo
}

// twoSum32 returns x + y as a float32 pair: the rounded sum and its exact
// error (SLEEF's dfadd2).
func twoSum32(x, y float32) (hi, lo float32) {
	hi = x + y
	v := hi - x
	return hi, float32(x-float32(hi-v)) + float32(y-v)
}
