package vec

import "math"

// Pure-Go twins of the float32 unary primitives (asm/unary.go, -part
// unary). Each twin applies one element function; the assembly computes
// every branch of it on all 8 lanes and blends, which gives the same bits.
//
// Note [Unary polynomials]
// exp itself is SLEEF's expf, step for step, as PyTorch computes it (Note
// [SLEEF's exp] in optable/elem): the same shape as below with SLEEF's
// constants and polynomial, its inputs clamped to [-104, 100]. Its element
// function, expF32, is here; its kernels are elementwise ones
// (asm/elemmath.go), which have an AVX-512 path.
// sigmoid and the large-|x| parts of tanh and gelu share one e^v:
// n = round(v·log2e), r = v − n·ln2 (ln2 in two parts, each step fused),
// e^r by a degree-6 minimax polynomial (|r| ≤ ln2/2, every Horner step
// fused), then times 2^n applied as 2^(n>>1)·2^(n−n>>1), so that every n
// in [-252, 254] stays within the normal exponents until the last
// multiply: results that overflow become +Inf, subnormal results are
// rounded once, correctly (no flush). Inputs are clamped to [-104, 89]
// first, where e^v already rounds to 0 and +Inf.
//
//   - tanh: |x| < 0.625: x + x³·P(x²) (Cephes' tanhf); otherwise
//     1 − 2/(e^{2|x|}+1), the sign put back last (so tanh(-0) = -0).
//   - sigmoid: with e = e^{-|x|}, 1/(1+e) for x ≥ 0 and e/(1+e) for x < 0
//     (subnormal results, not 1/(1+Inf)).
//   - gelu (erf form, x·Φ(x)): |x| < 0.7: x·(0.5 + x·P(x²)), a minimax fit
//     of Φ. Otherwise, with a = min(|x|, 14.5), Φ(-a) = e^{-a²/2}/D(a),
//     D(a) = √(2π)·a + g(a), where g = √(2π)(1/M(a) − a) (M the Mills
//     ratio) is a (4,5) rational minimax fit on [0.7, 14.5] with positive
//     coefficients: its rounding errors are damped by g/D. a² is split
//     exactly into h + l (a fused multiply-subtract), e^{-h/2} is reduced as
//     above and -l/2 added to r. Then with t = min(x, 14.5)/D, gelu is e·t
//     for x < 0 (no cancellation: 1+erf is never formed) and x − e·t for
//     x > 0, one fused rounding. gelu(-Inf) is NaN (e = 0 times -Inf), as
//     in PyTorch; gelu(+Inf) = +Inf.
//
// NaN inputs come back unchanged (as math.Exp returns them), passed
// through last (a blend; for exp one max(e, x), as e^x > x for every other
// x). The bounds of each function are in its exported doc comment and
// checked by the tests against float64 math rounded to float32.

const (
	unExpLo  = float32(-104) // e^-104 rounds to 0 in float32
	unExpHi  = float32(89)   // e^89 overflows float32
	tanhT    = float32(0.625)
	geluT    = float32(0.7)
	geluMax  = float32(14.5) // Φ(-14.5)·14.5 rounds to 0
	sqrt2Pi  = float32(2.5066282749176025)
	signMask = uint32(1) << 31
)

// tanhPoly is Cephes' tanhf polynomial: tanh(a) = a + a³·P(a²), |a| < 0.625.
var tanhPoly = [5]float32{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}

// geluPoly is P in Φ(x) = 0.5 + x·P(x²), |x| < 0.7 (relative error of Φ
// below 6e-10 before rounding).
var geluPoly = [5]float32{1.0313439270248637e-04, -1.181212835945189e-03, 9.972197003662586e-03, -6.649025529623032e-02, 3.989422917366028e-01}

// unExpPoly is P in e^r = 1 + r·(1 + r·P(r)), |r| ≤ ln2/2, a minimax fit
// (relative error 3.1e-9 before rounding).
var unExpPoly = [5]float32{1.3814599951729178e-03, 8.368715643882751e-03, 4.166838899254799e-02, 1.666652113199234e-01, 4.999999403953552e-01}

// geluP and geluR are g(a) = P(a)/R(a) (highest degree first).
var (
	geluP = [5]float32{8.586903102695942e-03, 9.203854203224182e-02, 4.7738802433013916e-01, 1.366503357887268, 2.0000052452087402}
	geluR = [6]float32{3.4255816135555506e-03, 3.6723606288433075e-02, 1.9716320931911469e-01, 6.206199526786804e-01, 1.1386985778808594, 1}
)

// expReduce returns n = round(v·log2e) and r = v − n·ln2.
func expReduce(v float32) (n, r float32) {
	n = float32(math.RoundToEven(float64(v * expLog2e)))
	r = fmaF32(-n, expC1, v)
	r = fmaF32(-n, expC2, r)
	return n, r
}

// expScale returns e^r·2^n for n in [-252, 254]: 2^n is applied in two
// halves, rounding once at the end. For a NaN n the scale is meaningless,
// but the product is NaN.
func expScale(n, r float32) float32 {
	p := unExpPoly[0]
	for _, c := range unExpPoly[1:] {
		p = fmaF32(p, r, c)
	}
	p = fmaF32(p, r, 1)
	p = fmaF32(p, r, 1)
	k := int32(n)
	h := k >> 1
	return p * pow2(h) * pow2(k-h)
}

// pow2 is 2^k for k in [-126, 127].
func pow2(k int32) float32 { return math.Float32frombits(uint32(k+127) << 23) }

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ signMask) }

// expF32 is e^x as ExpF32 computes it: SLEEF's expf, as PyTorch 1.13
// computes float32 exp (Note [SLEEF's exp] in optable/elem, whose ExpF32
// is the same function; this layer may not import it).
func expF32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, sleefExpLo), sleefExpHi)
	q := float32(math.RoundToEven(float64(float32(x * expLog2e))))
	s := fmaF32(-q, sleefL2U, x)
	s = fmaF32(-q, sleefL2L, s)
	u := sleefExpPoly[0]
	for _, c := range sleefExpPoly[1:] {
		u = fmaF32(u, s, c)
	}
	u = 1 + fmaF32(float32(s*s), u, s)
	k := int32(q)
	h := k >> 1
	return float32(u*pow2(h)) * pow2(k-h)
}

// The constants of SLEEF's expf (expF32).
const (
	sleefL2U   = float32(0.693145751953125)
	sleefL2L   = float32(1.428606765330187045e-06)
	sleefExpLo = float32(-104)
	sleefExpHi = float32(100)
)

// sleefExpPoly is SLEEF's polynomial of expf, highest degree first.
var sleefExpPoly = [6]float32{0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156, 0.166666671633720397949219, 0.5}

// sigmoidElem is 1/(1+e^-x) as SigmoidF32 computes it.
func sigmoidElem(x float32) float32 {
	if x != x {
		return x
	}
	e := expScale(expReduce(max(-abs32(x), unExpLo))) // e^-|x|
	// the sign bit, as the assembly blends: -0 gives 0.5 either way
	if math.Float32bits(x)&signMask != 0 {
		return e / (1 + e)
	}
	return 1 / (1 + e)
}

// tanhElem is tanh x as TanhF32 computes it.
func tanhElem(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	var y float32
	if a < tanhT {
		z := a * a
		p := tanhPoly[0]
		for _, c := range tanhPoly[1:] {
			p = fmaF32(p, z, c)
		}
		y = fmaF32(p, z*a, a)
	} else {
		e := expScale(expReduce(min(a+a, unExpHi)))
		y = 1 - 2/(e+1)
	}
	return math.Float32frombits(math.Float32bits(y) | math.Float32bits(x)&signMask)
}

// geluElem is x·Φ(x) as GeluF32 computes it.
func geluElem(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	if a < geluT {
		z := x * x
		p := geluPoly[0]
		for _, c := range geluPoly[1:] {
			p = fmaF32(p, z, c)
		}
		return x * fmaF32(x, p, 0.5)
	}
	a = min(a, geluMax)
	h := a * a
	l := fmaF32(a, a, -h) // a² = h + l exactly
	n, r := expReduce(-0.5 * h)
	e := expScale(n, fmaF32(l, -0.5, r)) // e^{-a²/2}
	p, q := geluP[0], geluR[0]
	for _, c := range geluP[1:] {
		p = fmaF32(p, a, c)
	}
	for _, c := range geluR[1:] {
		q = fmaF32(q, a, c)
	}
	d := fmaF32(sqrt2Pi, a, p/q)
	t := min(x, geluMax) / d
	if x < 0 {
		return e * t
	}
	return fmaF32(-e, t, x)
}

// tanhF32Go is TanhF32's pure-Go twin, its exact loop:
//
//	x = x[:len(dst)]
//	for i := range dst {
//		dst[i] = tanhElem(x[i])
//	}
func tanhF32Go(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = tanhElem(x[i])
	}
}

// sigmoidF32Go is SigmoidF32's pure-Go twin, its exact loop:
//
//	x = x[:len(dst)]
//	for i := range dst {
//		dst[i] = sigmoidElem(x[i])
//	}
func sigmoidF32Go(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = sigmoidElem(x[i])
	}
}

// geluF32Go is GeluF32's pure-Go twin, its exact loop:
//
//	x = x[:len(dst)]
//	for i := range dst {
//		dst[i] = geluElem(x[i])
//	}
func geluF32Go(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = geluElem(x[i])
	}
}
