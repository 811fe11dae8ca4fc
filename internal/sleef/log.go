// Package sleef holds SLEEF's float32 functions (the logarithms and
// expm1) as PyTorch 1.13's CPU kernels compute them, step for step, for
// the op table's scalar loops (optable/elem) and the CPU backend's SIMD
// twins (backend/cpu/internal/vec) alike, so that both give PyTorch's
// bits.
package sleef

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Note [SLEEF's log]
//
// PyTorch 1.13 computes the logarithms of float32 (and of bfloat16,
// through float32) with SLEEF's Sleef_logf8_u10, Sleef_log2f8_u10 and
// Sleef_log10f8_u10 (or their 16-lane forms) for every layout, as it does
// exp (Note [SLEEF's exp] in optable/elem). They are not correctly rounded
// either (0.2% to 3% of inputs are an ulp away from the logarithm
// rounded), so goten computes their steps, in float32 with their fused
// roundings, and matches them bit for bit: LogF32, Log2F32 and Log10F32
// here, which the generated loops (elem.LogF32, ...) and vec's Go twins
// call, and vec's assembly (asm/elemmath.go), which runs the same steps on
// positive normal x and hands every other x to the twins. All three share
// one reduction: with e the exponent of x·(1/0.75) and m = x·2^-e in
// [0.75, 1.5),
//
//	a = (m-1) and b = (m+1) as exact pairs (two-sums)
//	x = a/b as a pair: t = 1/b.hi, q = a.hi·t, u = fma(t, a.hi, -q),
//	    q' = fma(q, fnma(b.lo, t, fnma(b.hi, t, 1)), fma(a.lo, t, u))
//	p = Horner(c0, c1, c2; x.hi²) (fused), y = x.hi²·x.hi·p
//
// and then, in sums of float32 pairs (the products by constant pairs
// fused as SLEEF's dfmul):
//
//	log   = e·ln2 + 2x + y
//	log2  = e + x·(2/ln2) + y   (two-sums: e need not be the larger)
//	log10 = e·log10(2) + x·(2/ln10) + y
//
// A subnormal x is scaled by 2^64 first (e lowered by 64); +Inf gives
// +Inf, a negative x or NaN gives NaN, ±0 gives -Inf. log1p (Log1pF32,
// Sleef_log1pf8_u10) reduces 1 + x the same way without forming it
// exactly (see there).

// The constants of Note [SLEEF's log]: the ln 2, log10 2 and 2/ln 2
// (log2 e·2) and 2/ln 10 pairs, and the polynomials, highest degree first.
const (
	ln2Hi     = float32(0.69314718246459960938)
	ln2Lo     = float32(-1.904654323148236017e-09)
	log10t2Hi = float32(0.30103001)
	log10t2Lo = float32(-1.432098889e-08)
	twoLog2Hi = float32(2.8853900432586669922)
	twoLog2Lo = float32(3.2734474483568488616e-08)
	twoLgHi   = float32(0.868588984)
	twoLgLo   = float32(-2.170757285e-08)
)

var (
	logPoly   = [3]float32{0.3027294874, 0.3996108174, 0.6666694880}
	log2Poly  = [3]float32{0.4374550283, 0.5764790177, 0.9618012905120}
	log10Poly = [3]float32{0.1314289868, 0.1735493541, 0.2895309627}
)

// fma is the fused multiply-add x·y + z, rounded once.
var fma = dtype.FMA32

// LogF32 is log x as PyTorch 1.13's float32 kernels compute it (Note
// [SLEEF's log]).
func LogF32(d float32) float32 {
	return logSum(d, logPoly, ln2Hi, ln2Lo, func(xHi, xLo float32) (float32, float32) { return 2 * xHi, 2 * xLo })
}

// Log2F32 is log₂ x as PyTorch 1.13's float32 kernels compute it: SLEEF's
// log2f, Note [SLEEF's log]'s reduction with log₂ x = e + x·(2/ln 2) +
// x³·P(x²) in pair sums.
func Log2F32(d float32) float32 {
	fe, xHi, xLo, x2, special := reduce(d)
	if special {
		return fe
	}
	p := horner(log2Poly, x2)
	mHi, mLo := mulPairs(xHi, xLo, twoLog2Hi, twoLog2Lo)
	sHi, sLo := twoSum(fe, mHi)
	sLo += mLo
	y := float32(x2*xHi) * p
	hi, lo := twoSum(sHi, y)
	return hi + (lo + sLo)
}

// Log10F32 is log₁₀ x as PyTorch 1.13's float32 kernels compute it:
// SLEEF's log10f, Note [SLEEF's log]'s reduction with log₁₀ x = e·log₁₀ 2 +
// x·(2/ln 10) + x³·P(x²) in pair sums.
func Log10F32(d float32) float32 {
	return logSum(d, log10Poly, log10t2Hi, log10t2Lo, func(xHi, xLo float32) (float32, float32) {
		return mulPairs(xHi, xLo, twoLgHi, twoLgLo)
	})
}

// logSum is log and log10 of d after Note [SLEEF's log]'s reduction:
// e·(cHi, cLo) + times(x) + x³·P(x²), summed in pairs, the larger first.
func logSum(d float32, poly [3]float32, cHi, cLo float32, times func(xHi, xLo float32) (float32, float32)) float32 {
	fe, xHi, xLo, x2, special := reduce(d)
	if special {
		return fe
	}
	sHi, sLo := mulPair(cHi, cLo, fe)
	mHi, mLo := times(xHi, xLo)
	sHi, sLo = addPairs(sHi, sLo, mHi, mLo)
	sHi, sLo = addPairOne(sHi, sLo, float32(x2*xHi)*horner(poly, x2))
	return sHi + sLo
}

// reduce is the reduction of Note [SLEEF's log]: for positive finite d the
// exponent e (as a float) and x = (m−1)/(m+1) as a pair, with x.hi²; for
// any other d, special is set and fe holds the result.
func reduce(d float32) (fe, xHi, xLo, x2 float32, special bool) {
	switch {
	case d != d || d < 0:
		return float32(math.NaN()), 0, 0, 0, true
	case d == 0:
		return float32(math.Inf(-1)), 0, 0, 0, true
	case d > math.MaxFloat32:
		return d, 0, 0, 0, true
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
	aHi, aLo := twoSum(-1, m)
	bHi, bLo := twoSum(1, m)
	t := 1 / bHi
	xHi = aHi * t
	u := fma(t, aHi, -xHi)
	xLo = fma(xHi, fma(-bLo, t, fma(-bHi, t, 1)), fma(aLo, t, u))
	return float32(e), xHi, xLo, xHi * xHi, false
}

// horner is c[0]·x² + c[1]·x + c[2] with fused steps.
func horner(c [3]float32, x float32) float32 { return fma(fma(c[0], x, c[1]), x, c[2]) }

// mulPair is the pair (hi, lo) times y (SLEEF's dfmul_vf2_vf2_vf).
func mulPair(hi, lo, y float32) (float32, float32) {
	r := hi * y
	return r, fma(lo, y, fma(hi, y, -r))
}

// mulPairs is the product of two pairs (SLEEF's dfmul_vf2_vf2_vf2).
func mulPairs(xHi, xLo, yHi, yLo float32) (float32, float32) {
	r := xHi * yHi
	return r, fma(xHi, yLo, fma(xLo, yHi, fma(xHi, yHi, -r)))
}

// addPairs is the sum of two pairs, the first the larger (SLEEF's
// dfadd_vf2_vf2_vf2).
func addPairs(xHi, xLo, yHi, yLo float32) (float32, float32) {
	r := xHi + yHi
	return r, float32(float32(float32(xHi-r)+yHi)+xLo) + yLo
}

// addPairOne is a pair plus y, the pair the larger (SLEEF's
// dfadd_vf2_vf2_vf).
func addPairOne(xHi, xLo, y float32) (float32, float32) {
	r := xHi + y
	return r, float32(float32(xHi-r)+y) + xLo
}

// twoSum returns x + y as a float32 pair: the rounded sum and its exact
// error (SLEEF's dfadd2, Knuth's two-sum).
func twoSum(x, y float32) (hi, lo float32) {
	hi = x + y
	v := hi - x
	return hi, float32(x-float32(hi-v)) + float32(y-v)
}

// Log1pF32 is log(1 + x) as PyTorch 1.13's float32 kernels compute it:
// SLEEF's log1pf. With d1 = x + 1, e the exponent of d1·(1/0.75) and t =
// 2^-e, m = fma(x, t, t − 1) (x·2^-e shifted down by the 1 removed,
// without forming d1·2^-e), then log1p = e·ln2 + 2·(m/(2+m)) + y as in
// LogF32 (Note [SLEEF's log]), with m/(2+m) a pair over the pair 2 + m.
// Above 1e38 it gives +Inf, below -1 NaN, at -1 -Inf, and -0 for -0.
func Log1pF32(d float32) float32 {
	switch {
	case d != d || d < -1:
		return float32(math.NaN())
	case d == -1:
		return float32(math.Inf(-1))
	case d > 1e38:
		return float32(math.Inf(1))
	case d == 0:
		return d // ±0
	}
	dp1 := d + 1
	scaled := dp1 < 0x1p-126
	if scaled {
		dp1 *= 0x1p64
	}
	e := int32(math.Float32bits(dp1*float32(1.0/0.75))>>23&0xff) - 0x7f
	t := math.Float32frombits(uint32(int32(math.Float32bits(1)) - e<<23))
	m := fma(d, t, t-1)
	if scaled {
		e -= 64
	}
	fe := float32(e)
	// x = (m, 0) / (2 + m as a pair)
	bHi := 2 + m
	bLo := float32(2-bHi) + m
	r := 1 / bHi
	xHi := m * r
	u := fma(r, m, -xHi)
	xLo := fma(xHi, fma(-bLo, r, fma(-bHi, r, 1)), u)
	x2 := xHi * xHi
	p := horner(logPoly, x2)
	sHi, sLo := mulPair(ln2Hi, ln2Lo, fe)
	sHi, sLo = addPairs(sHi, sLo, 2*xHi, 2*xLo)
	sHi, sLo = addPairOne(sHi, sLo, float32(x2*xHi)*p)
	return sHi + sLo
}
