package vec

import (
	"math"

	"github.com/goten-ml/goten/internal/sleef"
)

// Note [Elementwise float functions]
// The element functions of the float kernels of asm/elemmath.go, which are
// the pure-Go twins' (elem_go.go): each line here is one instruction there
// (fmaF32 and math.FMA the fused multiply-adds), so that the assembly gives
// exactly these bits. The algorithms:
//
//   - exp, expm1, exp2: n = round(x·log2e) (round(x) for exp2), r = x −
//     n·ln2 in two parts with fused steps (exact for exp2), a polynomial in
//     r (float32: the minimax e^r of ExpF32; Taylor's otherwise), then 2^n
//     applied in two halves (Scale), so that subnormal results round once
//     and overflow gives +Inf. expm1 forms 2·(2^(n−1)·(e^r−1) + 2^(n−1) −
//     ½): no cancellation, and e^r − 1 itself where n = 0.
//   - log, log2, log10, log1p (float32): SLEEF's logf, log2f, log10f and
//     log1pf, as PyTorch computes them (Note [SLEEF's log] in package
//     internal/sleef). float64: fdlibm's log (Go's math.Log) with fused
//     steps; log2 is k + log(1+f)·log2e (exact at powers of 2, no
//     cancellation near 1). log1p: log(u) + (x − (u−1))/u, u = 1 + x.
//     Only positive normal x (log1p: x in (−1, 1e38]) take the vector path.
//   - sin, cos, tan (float32): in float64, j = round(x·2/π), r = x − j·π/2
//     in two fused parts (so exact far beyond float32's needs), Cephes'
//     sinf/cosf/tanf polynomials in r, chosen and signed by j mod 4, rounded
//     once to float32 (sin and tan of ±0: ±0). Only |x| ≤ 2^20 take the
//     vector path.
//   - pow (float32): in float64, log2 x = k + 2·atanh(s)·log2e (s =
//     f/(2+f), a series to s^15), t = y·log2 x, 2^t by exp2's method to
//     degree 10: within 2^-30 before the one rounding to float32. Only x in
//     (0, +Inf) with finite y take the vector path.
//   - erf, erfc (float32): gelu's fits of Φ (ExpF32's GeluF32) at x·√2:
//     erf x = x·2√2·P(2x²) below 0.495, else 1 − erfc; erfc a =
//     2·e^(−a²)·R/(√(2π)·a√2·R + P) with a² split exactly (one division).
//   - tanh (float64): sign·m/(m+2), m = expm1(2|x|). sigmoid, silu: with
//     e = e^−|x| = p·2^n, 1/(1+e) and x/(1+e) for x ≥ 0, e/(1+e) and
//     (x·p)·2^n/(1+e) below (so x·e rounds once where it is subnormal).
//
// The slow path (the element functions' first branch, and the Slow
// functions the Go wrappers call when the assembly flags a lane) is the
// float64 reference: math's function rounded to float32.

// Polynomial coefficients, highest degree first: asm/elemmath.go's.
var (
	exp32Poly   = []float64{1.3814599951729178e-03, 8.368715643882751e-03, 4.166838899254799e-02, 1.666652113199234e-01, 4.999999403953552e-01}
	exp232Poly  = taylor2(7)
	exp264Poly  = taylor2(13)
	sin32Poly   = []float64{-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}
	cos32Poly   = []float64{2.443315711809948e-05, -1.388731625493765e-03, 4.166664568298827e-02}
	tan32Poly   = []float64{9.38540185543e-3, 3.11992232697e-3, 2.44301354525e-2, 5.34112807005e-2, 1.33387994085e-1, 3.33331568548e-1}
	exp64Poly   = taylorE(13)
	expm164Poly = taylorE(13)[:12]
	exp2PowPoly = taylor2(10)
	log64L      = []float64{6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
		2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01}
	logPowPoly = atanhSeries(7)
	geluPoly32 = []float64{1.0313439270248637e-04, -1.181212835945189e-03, 9.972197003662586e-03, -6.649025529623032e-02, 3.989422917366028e-01}
	geluP32    = []float64{8.586903102695942e-03, 9.203854203224182e-02, 4.7738802433013916e-01, 1.366503357887268, 2.0000052452087402}
	geluR32    = []float64{3.4255816135555506e-03, 3.6723606288433075e-02, 1.9716320931911469e-01, 6.206199526786804e-01, 1.1386985778808594, 1}
)

// taylorE returns 1/n!, ..., 1/1!, 1/0!.
func taylorE(n int) []float64 {
	c := make([]float64, n+1)
	f := 1.0
	for k := 0; k <= n; k++ {
		c[n-k] = 1 / f
		f *= float64(k + 1)
	}
	return c
}

// taylor2 returns ln2^n/n!, ..., ln2, 1.
func taylor2(n int) []float64 {
	c := make([]float64, n+1)
	t := 1.0
	for k := 0; k <= n; k++ {
		c[n-k] = t
		t *= math.Ln2 / float64(k+1)
	}
	return c
}

// atanhSeries returns 2/(2n+1), ..., 2/3, 2.
func atanhSeries(n int) []float64 {
	c := make([]float64, n+1)
	for k := 0; k <= n; k++ {
		c[n-k] = 2 / float64(2*k+1)
	}
	return c
}

const (
	elLog2e   = 1.44269504088896340736
	exp32C1   = 0.693359375
	exp32C2   = -2.12194440e-4
	ln2Hi     = 6.93147180369123816490e-01
	ln2Lo     = 1.90821492927058770002e-10
	pio2Hi    = 1.5707963267948966
	pio2Lo    = 6.123233995736766e-17
	twoOPi    = 0.6366197723675814
	sqrtHf64  = 0x3fe6a09e667f3bcd
	elSqrt2   = 1.4142135623730951
	erfS2Pi   = 2.5066282749176025
	erfSmall  = 0.49497474683058326
	erfMax    = 10.25304832720494
	sign32    = uint32(1) << 31
	sign64    = uint64(1) << 63
	maxNormal = math.MaxFloat32
)

// float32 steps

func horner32(x float32, c ...float64) float32 {
	p := fmaF32(x, float32(c[0]), float32(c[1]))
	for _, ck := range c[2:] {
		p = fmaF32(p, x, float32(ck))
	}
	return p
}

// maxX and minX are x86's max and min: b where either is NaN or both are
// zeros.
func maxX[T floats](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func minX[T floats](a, b T) T {
	if a < b {
		return a
	}
	return b
}

func pow2F32(n float32) float32 { return math.Float32frombits(uint32(int32(n)+127) << 23) }

// scale32 is p·2^n in two halves.
func scale32(p, n float32) float32 {
	h := float32(math.Floor(float64(n * 0.5)))
	p = p * pow2F32(h)
	return p * pow2F32(n-h)
}

func expReduce32(v float32) (n, r float32) {
	n = float32(math.RoundToEven(float64(v * elLog2e)))
	r = fmaF32(-n, exp32C1, v)
	return n, fmaF32(-n, exp32C2, r)
}

func expPoly32(r float32) float32 {
	p := horner32(r, exp32Poly...)
	p = fmaF32(p, r, 1)
	return fmaF32(p, r, 1)
}

// exp32Parts returns p and n, e^v = p·2^n (v clamped to [lo, 89]).
func exp32Parts(v, lo float32) (p, n float32) {
	v = minX(maxX(v, lo), 89)
	n, r := expReduce32(v)
	return expPoly32(r), n
}

func exp32Of(v float32) float32 {
	p, n := exp32Parts(v, -104)
	return scale32(p, n)
}

// float64 steps

func horner64(x float64, c ...float64) float64 {
	p := math.FMA(x, c[0], c[1])
	for _, ck := range c[2:] {
		p = math.FMA(p, x, ck)
	}
	return p
}

func pow2F64(n float64) float64 { return math.Float64frombits(uint64(int64(n)+1023) << 52) }

func scale64(p, n float64) float64 {
	h := math.Floor(n * 0.5)
	p = p * pow2F64(h)
	return p * pow2F64(n-h)
}

func expReduce64(v float64) (n, r float64) {
	n = math.RoundToEven(v * elLog2e)
	r = math.FMA(-n, ln2Hi, v)
	return n, math.FMA(-n, ln2Lo, r)
}

func exp64Parts(v, lo float64) (p, n float64) {
	v = minX(maxX(v, lo), 710)
	n, r := expReduce64(v)
	return horner64(r, exp64Poly...), n
}

func exp64Of(v float64) float64 {
	p, n := exp64Parts(v, -746)
	return scale64(p, n)
}

// ---------------------------------------------------------------------------
// Exponentials

func expF64(x float64) float64 {
	if x != x {
		return x
	}
	return exp64Of(x)
}

// expm1F32 is SLEEF's expm1f, as PyTorch 1.13 computes float32 expm1
// (sleef.Expm1F32); the assembly runs the same steps.
func expm1F32(x float32) float32 { return sleef.Expm1F32(x) }

func expm1F64(x float64) float64 {
	if x != x {
		return x
	}
	return expm164Of(x)
}

func expm164Of(x float64) float64 {
	v := minX(maxX(x, -38), 710)
	n, r := expReduce64(v)
	q := horner64(r, expm164Poly...)
	m := math.FMA(r*r, q, r)
	t := pow2F64(n - 1)
	y := math.FMA(t, m, t-0.5)
	y = y + y
	if n == 0 {
		y = m
	}
	if math.Abs(x) < 0x1p-54 {
		y = x
	}
	return y
}

func exp2F32(x float32) float32 {
	if x != x {
		return x
	}
	v := minX(maxX(x, -152), 129)
	n := float32(math.RoundToEven(float64(v)))
	return scale32(horner32(v-n, exp232Poly...), n)
}

func exp2F64(x float64) float64 {
	if x != x {
		return x
	}
	v := minX(maxX(x, -1080), 1030)
	n := math.RoundToEven(v)
	return scale64(horner64(v-n, exp264Poly...), n)
}

// ---------------------------------------------------------------------------
// Logarithms

// logSlow32 reports the float32 inputs of log, log2 and log10 that take
// the slow path: all but positive normal ones.
func logSlow32(x float32) bool { return !(x >= 0x1p-126 && x <= maxNormal) }

func logF32Slow(x float32) bool   { return logSlow32(x) }
func log2F32Slow(x float32) bool  { return logSlow32(x) }
func log10F32Slow(x float32) bool { return logSlow32(x) }

// logF32 is SLEEF's logf, as PyTorch 1.13 computes float32 log (Note
// [SLEEF's log] in package internal/sleef); the assembly runs its steps on
// positive normal x (logF32Slow false) and hands the others here.
func logF32(x float32) float32 { return sleef.LogF32(x) }

// log2F32 and log10F32 are SLEEF's log2f and log10f, as PyTorch 1.13
// computes them (Note [SLEEF's log] in package internal/sleef).
func log2F32(x float32) float32  { return sleef.Log2F32(x) }
func log10F32(x float32) float32 { return sleef.Log10F32(x) }

// log1pF32Slow: above 1e38 PyTorch's log1p is +Inf (the table's
// optable/elem.Log1p, which this layer may not import)
func log1pF32Slow(x float32) bool { return !(x >= math.Nextafter32(-1, 0) && x <= 1e38) }

// log1pF32 is SLEEF's log1pf, as PyTorch 1.13 computes float32 log1p
// (sleef.Log1pF32); the assembly runs its steps on x in (−1, 1e38].
func log1pF32(x float32) float32 { return sleef.Log1pF32(x) }

// log64Parts splits positive normal x = 2^k·(1+f): s = f/(2+f), hfsq =
// f²/2 and log(1+f) = f − (hfsq − s·(hfsq + rr)).
func log64Parts(x float64) (k, f, s, hfsq, rr float64) {
	ix := math.Float64bits(x) - sqrtHf64
	hi := (ix + 0x4000000000000000) >> 52
	k = math.Float64frombits(hi|math.Float64bits(0x1p52)) - (0x1p52 + 1024)
	m := math.Float64frombits(ix&0x000fffffffffffff + sqrtHf64)
	f = m - 1
	s = f / (f + 2)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * horner64(s4, log64L[6], log64L[4], log64L[2], log64L[0])
	t2 := s4 * horner64(s4, log64L[5], log64L[3], log64L[1])
	rr = t1 + t2
	hfsq = (f * f) * 0.5
	return k, f, s, hfsq, rr
}

// log64Of is fdlibm's log of positive normal x.
func log64Of(x float64) float64 {
	k, f, s, hfsq, rr := log64Parts(x)
	a := math.FMA(s, hfsq+rr, k*ln2Lo)
	a = (hfsq - a) - f
	return math.FMA(k, ln2Hi, -a)
}

func logSlow64(x float64) bool { return !(x >= 0x1p-1022 && x <= math.MaxFloat64) }

func logF64Slow(x float64) bool   { return logSlow64(x) }
func log2F64Slow(x float64) bool  { return logSlow64(x) }
func log10F64Slow(x float64) bool { return logSlow64(x) }

// logRef64 is math.Log, exact on subnormal x too: Go's amd64 math.Log
// does not normalise them (golang/go#56600), so they are scaled by 2^52
// first (optable/elem's Log).
func logRef64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p52) - 52*math.Ln2
	}
	return math.Log(x)
}

func logF64(x float64) float64 {
	if logSlow64(x) {
		return logRef64(x)
	}
	return log64Of(x)
}

func log2F64(x float64) float64 {
	if logSlow64(x) {
		return math.Log2(x)
	}
	k, f, s, hfsq, rr := log64Parts(x)
	lm := f - (hfsq - s*(hfsq+rr))
	return math.FMA(lm, elLog2e, k)
}

func log10F64(x float64) float64 {
	if logSlow64(x) {
		return logRef64(x) * (1 / math.Ln10)
	}
	return log64Of(x) * math.Log10E
}

// log1pF64Slow: above 1e307 PyTorch's log1p is +Inf (as log1pF32Slow)
func log1pF64Slow(x float64) bool { return !(x >= math.Nextafter(-1, 0) && x <= 1e307) }

func log1pF64(x float64) float64 {
	if log1pF64Slow(x) {
		if x > 1e307 {
			return math.Inf(1)
		}
		return math.Log1p(x)
	}
	u := x + 1
	c := (x - (u - 1)) / u
	r := log64Of(u) + c
	if math.Abs(x) < 0x1p-54 {
		return x
	}
	return r
}

// ---------------------------------------------------------------------------
// Trigonometry (float32 through float64)

func trigSlow32(x float32) bool { return !(abs32(x) <= 0x1p20) }

func sinF32Slow(x float32) bool { return trigSlow32(x) }
func cosF32Slow(x float32) bool { return trigSlow32(x) }
func tanF32Slow(x float32) bool { return trigSlow32(x) }

// sincos32 is sin x (cos x with cos) for |x| ≤ 2^20.
func sincos32(x float32, cos bool) float32 {
	xd := float64(x)
	j := math.RoundToEven(xd * twoOPi)
	r := math.FMA(-j, pio2Hi, xd)
	return float32(sincosOn(xd, j, math.FMA(-j, pio2Lo, r), sin32Poly, cos32Poly, cos))
}

// sincosOn is sin x (cos x with cos) from x's quadrant j and reduced
// argument r, with the polynomials sinPoly and cosPoly on r.
func sincosOn(x, j, r float64, sinPoly, cosPoly []float64, cos bool) float64 {
	z := r * r
	s := math.FMA(r*z, horner64(z, sinPoly...), r)
	c := math.FMA(z*z, horner64(z, cosPoly...), math.FMA(-z, 0.5, 1))
	q := int64(j)
	if cos {
		q++
	}
	y := s
	if q&1 != 0 {
		y = c
	}
	if q&2 != 0 {
		y = -y
	}
	if !cos && x == 0 {
		y = x
	}
	return y
}

func sinF32(x float32) float32 {
	if trigSlow32(x) {
		return float32(math.Sin(float64(x)))
	}
	return sincos32(x, false)
}

func cosF32(x float32) float32 {
	if trigSlow32(x) {
		return float32(math.Cos(float64(x)))
	}
	return sincos32(x, true)
}

func tanF32(x float32) float32 {
	if trigSlow32(x) {
		return float32(math.Tan(float64(x)))
	}
	xd := float64(x)
	j := math.RoundToEven(xd * twoOPi)
	r := math.FMA(-j, pio2Hi, xd)
	r = math.FMA(-j, pio2Lo, r)
	z := r * r
	t := math.FMA(r*z, horner64(z, tan32Poly...), r)
	if int64(j)&1 != 0 {
		t = -1 / t
	}
	if xd == 0 {
		t = xd
	}
	return float32(t)
}

// ---------------------------------------------------------------------------
// pow (float32 through float64)

func powF32Slow(x, y float32) bool {
	return !(x > 0 && x <= maxNormal) || !(abs32(y) <= maxNormal)
}

func powF32(x, y float32) float32 {
	if powF32Slow(x, y) {
		return float32(math.Pow(float64(x), float64(y)))
	}
	xd, yd := float64(x), float64(y)
	ix := math.Float64bits(xd) - sqrtHf64
	hi := (ix + 0x4000000000000000) >> 52
	k := math.Float64frombits(hi|math.Float64bits(0x1p52)) - (0x1p52 + 1024)
	m := math.Float64frombits(ix&0x000fffffffffffff + sqrtHf64)
	f := m - 1
	s := f / (f + 2)
	l := s * horner64(s*s, logPowPoly...)
	lg := math.FMA(l, elLog2e, k)
	t := yd * lg
	t = minX(maxX(t, -1100), 1100)
	n := math.RoundToEven(t)
	return float32(scale64(horner64(t-n, exp2PowPoly...), n))
}

// ---------------------------------------------------------------------------
// Hyperbolic functions and activations

func tanhF64(x float64) float64 {
	if x != x {
		return x
	}
	a := math.Abs(x)
	m := expm164Of(a + a)
	y := m / (m + 2)
	if !(a < 20) {
		y = 1
	}
	return math.Float64frombits(math.Float64bits(y) | math.Float64bits(x)&sign64)
}

func sigmoidF64(x float64) float64 {
	if x != x {
		return x
	}
	e := exp64Of(math.Float64frombits(math.Float64bits(x) | sign64))
	num := 1.0
	if x < 0 {
		num = e
	}
	return num / (e + 1)
}

func siluF32(x float32) float32 {
	if x != x {
		return x
	}
	p, n := exp32Parts(math.Float32frombits(math.Float32bits(x)|sign32), -120)
	e := scale32(p, n)
	num := x
	if x < 0 {
		num = scale32(maxX(x, -120)*p, n)
	}
	if x < -math.MaxFloat32 {
		return float32(math.NaN()) // −∞·0
	}
	return num / (e + 1)
}

func siluF64(x float64) float64 {
	if x != x {
		return x
	}
	p, n := exp64Parts(math.Float64frombits(math.Float64bits(x)|sign64), -760)
	e := scale64(p, n)
	num := x
	if x < 0 {
		num = scale64(maxX(x, -760)*p, n)
	}
	if x < -math.MaxFloat64 {
		return float64(math.NaN()) // −∞·0
	}
	return num / (e + 1)
}

// ---------------------------------------------------------------------------
// erf, erfc (float32)

// erfcPos32 is erfc a for a in [erfSmall, erfMax].
func erfcPos32(a float32) float32 {
	h := a * a
	l := fmaF32(a, a, -h)
	n, r := expReduce32(-h)
	r = r - l
	ex := scale32(expPoly32(r), n)
	b := a * elSqrt2
	p := horner32(b, geluP32...)
	q := horner32(b, geluR32...)
	d := fmaF32(float32(erfS2Pi)*b, q, p)
	return ((ex + ex) * q) / d
}

func erfSmall32(x float32) float32 {
	z := (x * x) * 2
	p := horner32(z, geluPoly32...)
	return (x * float32(2*elSqrt2)) * p
}

func erfF32(x float32) float32 {
	if x != x {
		return x
	}
	if abs32(x) < erfSmall {
		return erfSmall32(x)
	}
	a := minX(abs32(x), erfMax)
	y := 1 - erfcPos32(maxX(a, erfSmall))
	return math.Float32frombits(math.Float32bits(y) | math.Float32bits(x)&sign32)
}

func erfcF32(x float32) float32 {
	if x != x {
		return x
	}
	if abs32(x) < erfSmall {
		return 1 - erfSmall32(x)
	}
	a := minX(abs32(x), erfMax)
	c := erfcPos32(maxX(a, erfSmall))
	if x < 0 {
		c = 2 - c
	}
	return c
}

// ---------------------------------------------------------------------------
// Rounding and friends

func floorF32(x float32) float32 { return roundF(x, math.Floor) }
func floorF64(x float64) float64 { return roundF(x, math.Floor) }
func ceilF32(x float32) float32  { return roundF(x, math.Ceil) }
func ceilF64(x float64) float64  { return roundF(x, math.Ceil) }
func roundF32(x float32) float32 { return roundF(x, math.RoundToEven) }
func roundF64(x float64) float64 { return roundF(x, math.RoundToEven) }
func truncF32(x float32) float32 { return roundF(x, math.Trunc) }
func truncF64(x float64) float64 { return roundF(x, math.Trunc) }

// roundF rounds x as f does, a NaN unchanged (float32 through float64 is
// exact).
func roundF[T floats](x T, f func(float64) float64) T {
	if x != x {
		return x
	}
	return T(f(float64(x)))
}

func fracF32(x float32) float32 { return fracF(x) }
func fracF64(x float64) float64 { return fracF(x) }

func fracF[T floats](x T) T {
	if x != x {
		return x
	}
	return x - T(math.Trunc(float64(x)))
}

func signF32(x float32) float32 { return signF(x) }
func signF64(x float64) float64 { return signF(x) }

func signF[T floats](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// rsqrtF32 rounds the square root to float32 (float64's, rounded, is
// float32's correctly rounded one) and then its reciprocal, as PyTorch's
// 1/std::sqrt(x) and its vector rsqrt do.
func rsqrtF32(x float32) float32 {
	if x != x {
		return x
	}
	return 1 / float32(math.Sqrt(float64(x)))
}

func rsqrtF64(x float64) float64 {
	if x != x {
		return x
	}
	return 1 / math.Sqrt(x)
}

func reciprocalF32(x float32) float32 { return reciprocalF(x) }
func reciprocalF64(x float64) float64 { return reciprocalF(x) }

func reciprocalF[T floats](x T) T {
	if x != x {
		return x
	}
	return 1 / x
}
