package sleef

import "math"

// The constants of SLEEF's expm1f: ln 2 in two parts, 1/ln 2, and the
// polynomial of its pair exponential (expk2f), highest degree first.
const (
	expL2U   = float32(0.693145751953125)
	expL2L   = float32(1.428606765330187045e-06)
	expRLn2  = float32(1.442695040888963407359924681001892137426645954152985934135449406931)
	expSixth = float32(0.166666659414234244790680580464)
	expm1Hi  = float32(88.72283172607421875)
	expm1Lo  = float32(-16.635532333438687426013570)
)

var expk2Poly = [4]float32{0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1}

// Expm1F32 is e^x − 1 as PyTorch 1.13's float32 kernels compute it:
// SLEEF's expm1f (Sleef_expm1f8_u10), e^x as a float32 pair less 1. With
// q = round(x/ln 2) and s = x − q·ln2 as a pair (ln 2 in two parts, each
// product rounded), e^s = 1 + s + s²·(½ + s·(⅙ + s·P(s))) in pair
// arithmetic, scaled by 2^q in two halves; above 88.72… it gives +Inf,
// below −16.63… −1, and −0 for −0 (a NaN comes back a NaN).
func Expm1F32(a float32) float32 {
	switch {
	case a != a:
		return a
	case a > expm1Hi:
		return float32(math.Inf(1))
	case a < expm1Lo:
		return -1
	case a == 0:
		return a // ±0
	}
	q := int32(math.RoundToEven(float64(a * expRLn2)))
	fq := float32(q)
	sHi, sLo := twoSum(a, fq*-expL2U)
	hi, lo := twoSum(sHi, fq*-expL2L)
	sHi, sLo = hi, lo+sLo
	p := fma(fma(fma(expk2Poly[0], sHi, expk2Poly[1]), sHi, expk2Poly[2]), sHi, expk2Poly[3])
	mHi, mLo := mulPair(sHi, sLo, p)
	tHi, tLo := addPairConst(mHi, mLo, expSixth)
	mHi, mLo = mulPairs(sHi, sLo, tHi, tLo)
	tHi, tLo = addPairConst(mHi, mLo, 0.5)
	qHi := sHi * sHi
	qLo := fma(sHi+sHi, sLo, fma(sHi, sHi, -qHi))
	wHi, wLo := mulPairs(qHi, qLo, tHi, tLo)
	rHi, rl := twoSum(sHi, wHi)
	rLo := rl + (sLo + wLo)
	oHi := 1 + rHi
	oLo := float32(float32(1-oHi)+rHi) + rLo
	h := q >> 1
	oHi = float32(oHi*pow2(h)) * pow2(q-h)
	oLo = float32(oLo*pow2(h)) * pow2(q-h)
	dHi, dl := twoSum(oHi, -1)
	return dHi + (dl + oLo)
}

// addPairConst is the pair (hi, lo) plus the constant c, by a two-sum
// (SLEEF's dfadd2_vf2_vf2_vf).
func addPairConst(hi, lo, c float32) (float32, float32) {
	r, e := twoSum(hi, c)
	return r, e + lo
}

// pow2 is 2^k for k in [-126, 127].
func pow2(k int32) float32 { return math.Float32frombits(uint32(k+127) << 23) }
