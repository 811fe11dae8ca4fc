package main

// The float functions of vec's elementwise kernels: exponentials,
// logarithms, trigonometric and hyperbolic functions, erf, pow and the
// activations. The algorithms, their accuracy and their twins are in vec's
// elem_math_go.go (Note [Elementwise float functions]); every body here
// is its twin's element function, operation for operation.

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Coefficients, highest degree first. They must equal the twins'.
var (
	// e^r = 1 + r·(1 + r·P(r)), |r| ≤ ln2/2 (float32; vec's unExpPoly)
	exp32Poly = []float64{1.3814599951729178e-03, 8.368715643882751e-03, 4.166838899254799e-02, 1.666652113199234e-01, 4.999999403953552e-01}
	// 2^r = 1 + r·P(r), |r| ≤ 1/2 (float32): Taylor's ln2^k/k!
	exp232Poly = taylor2(7)
	exp264Poly = taylor2(13)
	// Cephes sinf, cosf and tanf on |r| ≤ π/4 (evaluated in float64)
	sin32Poly = []float64{-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}
	cos32Poly = []float64{2.443315711809948e-05, -1.388731625493765e-03, 4.166664568298827e-02}
	tan32Poly = []float64{9.38540185543e-3, 3.11992232697e-3, 2.44301354525e-2, 5.34112807005e-2, 1.33387994085e-1, 3.33331568548e-1}
	// e^r = Σ r^k/k!, k ≤ 13 (float64)
	exp64Poly = taylorE(13)
	// (e^r − 1 − r)/r² = Σ r^k/(k+2)!, k ≤ 11 (float64)
	expm164Poly = taylorEm1(11)
	// 2^r = Σ (r ln2)^k/k!, k ≤ 10 (pow's float64 exp2; float32 accuracy)
	exp2PowPoly = taylor2(10)
	// fdlibm's log: log(1+f) = f − hfsq + s·(hfsq + R(s²)) (float64)
	log64L = []float64{6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
		2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01}
	// 2·atanh(s)/s = Σ 2 s^(2k)/(2k+1), k ≤ 7 (pow's float64 log2; float32 accuracy)
	logPowPoly = atanhSeries(7)
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

// taylorEm1 returns 1/(n+2)!, ..., 1/2!.
func taylorEm1(n int) []float64 {
	c := taylorE(n + 2)
	return c[:n+1]
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

// Constants of the reductions.
const (
	log2e   = 1.44269504088896340736
	exp32C1 = 0.693359375 // ln2 = exp32C1 + exp32C2 (Cephes)
	exp32C2 = -2.12194440e-4
	ln2Hi   = 6.93147180369123816490e-01 // ln2 = ln2Hi + ln2Lo (fdlibm), ln2Hi with 32 trailing zeros
	ln2Lo   = 1.90821492927058770002e-10
	pio2Hi  = 1.5707963267948966 // π/2 = pio2Hi + pio2Lo
	pio2Lo  = 6.123233995736766e-17
	twoOPi  = 0.6366197723675814 // 2/π
	sqrtHf6 = 0x3fe6a09e667f3bcd // float64 bits of √½
)

// ---------------------------------------------------------------------------
// Lane tools

// BitSet is the mask of lanes whose integer bits have bit b set.
func (e *em) BitSet(t reg.Register, b uint) *mask {
	c := e.CB(1 << b)
	if e.isa.evex() {
		k := K()
		if e.t.size == 4 {
			VPTESTMD(c, t, k)
		} else {
			VPTESTMQ(c, t, k)
		}
		return &mask{k}
	}
	a := e.And(t, c)
	if e.t.size == 4 {
		VPCMPEQD(c, a, a)
	} else {
		VPCMPEQQ(c, a, a)
	}
	return &mask{a}
}

// IntBits returns lanes whose low bits are the integral float n as an
// integer (two's complement, modulo 2^22 or 2^51): n + 1.5·2^23 or
// n + 1.5·2^52.
func (e *em) IntBits(n Op) reg.Register {
	if e.ps() {
		return e.Add(n, e.C(0x1.8p23))
	}
	return e.Add(n, e.C(0x1.8p52))
}

// Scale returns p·2^n for integral n whose 2^n may be subnormal or
// beyond the largest float: 2^n applied in two halves, so that p·2^h stays
// normal and the second product rounds once. AVX-512's VSCALEFPS/PD
// compute p·2^n rounded once in one instruction: the same bits (for p not
// NaN, as every caller's is) in 1 instruction instead of 11.
func (e *em) Scale(p, n reg.Register) reg.Register {
	if e.isa.evex() {
		d := e.vec()
		e.fsel(VSCALEFPS, VSCALEFPD)(n, p, d)
		return d
	}
	h := e.Round(e.Mul(n, e.C(0.5)), rFloor)
	p = e.Mul(p, e.Pow2(h))
	return e.Mul(p, e.Pow2(e.Sub(n, h)))
}

// clampF returns min(max(x, lo), hi) (a NaN x becomes hi: x86's max and
// min return their second operand).
func (e *em) clampF(x reg.Register, lo, hi float64) reg.Register {
	return e.MinX(e.MaxX(x, e.C(lo)), e.C(hi))
}

// flagUnless flags the lanes where not (lo <= x <= hi) (NaN included).
func (e *em) flagUnless(x reg.Register, lo, hi float64) {
	e.Flag(e.MOr(e.Cmp(cmpNLE, e.C(lo), x), e.Cmp(cmpNLE, x, e.C(hi))))
}

// ---------------------------------------------------------------------------
// Exponentials

// expReduce returns n = round(v·log2e) and r = v − n·ln2.
func (e *em) expReduce(v reg.Register) (n, r reg.Register) {
	n = e.Round(e.Mul(v, e.C(log2e)), rNearest)
	if e.ps() {
		r = e.FNMA(n, e.C(exp32C1), v)
		return n, e.FNMA(n, e.C(exp32C2), r)
	}
	r = e.FNMA(n, e.C(ln2Hi), v)
	return n, e.FNMA(n, e.C(ln2Lo), r)
}

// expPoly returns e^r for |r| ≤ ln2/2.
func (e *em) expPoly(r reg.Register) reg.Register {
	if e.ps() {
		p := e.Horner(r, exp32Poly...)
		p = e.FMA(p, r, e.C(1))
		return e.FMA(p, r, e.C(1))
	}
	return e.Horner(r, exp64Poly...)
}

// expParts returns p and n, e^v = p·2^n, v clamped to [lo, where e^v
// rounds to +Inf].
func (e *em) expParts(v reg.Register, lo float64) (p, n reg.Register) {
	if e.ps() {
		v = e.clampF(v, lo, 89)
	} else {
		v = e.clampF(v, lo, 710)
	}
	n, r := e.expReduce(v)
	return e.expPoly(r), n
}

// expOf returns e^v (Scale rounds a subnormal result once).
func (e *em) expOf(v reg.Register) reg.Register {
	lo := -104.0 // e^v rounds to 0 below
	if !e.ps() {
		lo = -746
	}
	p, n := e.expParts(v, lo)
	return e.Scale(p, n)
}

// expBody: expF32/expF64.
func expBody(e *em, in []reg.Register) val {
	if e.ps() {
		// the NaN pass-through is one max, e > x ? e : x: e^x > x for every
		// other x (e = +Inf is not > +Inf, and x is +Inf then)
		return vv(e.MaxX(e.sleefExpOf(in[0]), in[0]))
	}
	return vv(e.nanPass(in[0], e.expOf(in[0])))
}

// SLEEF's expf (Note [SLEEF's exp] in optable/elem): its constants.
var (
	sleefL2U     = float64(float32(0.693145751953125))
	sleefL2L     = float64(float32(1.428606765330187045e-06))
	sleefExpPoly = []float64{
		float64(float32(0.000198527617612853646278381)), float64(float32(0.00139304355252534151077271)),
		float64(float32(0.00833336077630519866943359)), float64(float32(0.0416664853692054748535156)),
		float64(float32(0.166666671633720397949219)), 0.5,
	}
)

// sleefExpOf returns e^x of float32 lanes as SLEEF's expf computes it, step
// for step: x clamped to [-104, 100], q = round(x·log2e), s = x − q·L2U −
// q·L2L (fused), u = 1 + (s²·P(s) + s) (fused), then u·2^q (Scale: one
// rounding, as SLEEF's exact u·2^(q>>1) then ·2^(q−q>>1)).
func (e *em) sleefExpOf(x reg.Register) reg.Register {
	v := e.clampF(x, -104, 100)
	n := e.Round(e.Mul(v, e.C(float64(float32(log2e)))), rNearest)
	s := e.FNMA(n, e.C(sleefL2U), v)
	s = e.FNMA(n, e.C(sleefL2L), s)
	u := e.Horner(s, sleefExpPoly...)
	u = e.Add(e.FMA(e.Mul(s, s), u, s), e.C(1))
	return e.Scale(u, n)
}

// expm1Of returns e^v − 1 of float64 lanes (v not NaN).
func (e *em) expm1Of(x reg.Register) reg.Register {
	v := e.clampF(x, -38, 710)
	n, r := e.expReduce(v)
	q := e.Horner(r, expm164Poly...)
	m := e.FMA(e.Mul(r, r), q, r) // e^r − 1
	// 2·(t·m + (t − 1/2)), t = 2^(n−1): 2^n·(m + 1) − 1
	t := e.Pow2(e.Sub(n, e.C(1)))
	y := e.FMA(t, m, e.Sub(t, e.C(0.5)))
	y = e.Add(y, y)
	y = e.Blend(e.Cmp(cmpEQ, n, e.C(0)), y, m)
	// tiny x (and ±0): x itself
	return e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(0x1p-54)), y, x)
}

// expm1Body: e^x − 1; float32 is SLEEF's expm1f (sleefExpm1Of).
func expm1Body(e *em, in []reg.Register) val {
	if e.ps() {
		return vv(e.nanPass(in[0], e.sleefExpm1Of(in[0])))
	}
	return vv(e.nanPass(in[0], e.expm1Of(in[0])))
}

// SLEEF's expm1f (sleef.Expm1F32): the polynomial of its pair exponential,
// highest degree first, and its 1/6 (ln 2's two parts are expf's,
// sleefL2U and sleefL2L).
var (
	sleefSixth     = float64(float32(0.166666659414234244790680580464))
	sleefExpk2Poly = []float64{float64(float32(0.1980960224e-3)), float64(float32(0.1394256484e-2)),
		float64(float32(0.8333456703e-2)), float64(float32(0.4166637361e-1))}
)

// sleefExpm1Of returns e^x − 1 of float32 lanes (not NaN) as SLEEF's
// expm1f computes it, step for step (sleef.Expm1F32): e^x as a pair by
// expk2f, less 1; above 88.72… +Inf, below −16.63… −1, ±0 themselves.
func (e *em) sleefExpm1Of(x reg.Register) reg.Register {
	a := e.clampF(x, -17, 89) // keeps 2^q normal; the lanes outside are replaced
	q := e.Round(e.Mul(a, e.C(float64(float32(log2e)))), rNearest)
	sHi, sLo := e.twoSum(a, e.Mul(q, e.C(-sleefL2U)))
	hi, lo := e.twoSum(sHi, e.Mul(q, e.C(-sleefL2L)))
	sHi, sLo = hi, e.Add(lo, sLo)
	p := e.Horner(sHi, sleefExpk2Poly...)
	mHi := e.Mul(sHi, p)
	mLo := e.FMA(sLo, p, e.FMS(sHi, p, mHi))
	tHi, tl := e.twoSum(mHi, e.C(sleefSixth))
	tLo := e.Add(tl, mLo)
	m2Hi := e.Mul(sHi, tHi)
	m2Lo := e.FMA(sHi, tLo, e.FMA(sLo, tHi, e.FMS(sHi, tHi, m2Hi)))
	tHi, tl = e.twoSum(m2Hi, e.C(0.5))
	tLo = e.Add(tl, m2Lo)
	qHi := e.Mul(sHi, sHi)
	qLo := e.FMA(e.Add(sHi, sHi), sLo, e.FMS(sHi, sHi, qHi))
	wHi := e.Mul(qHi, tHi)
	wLo := e.FMA(qHi, tLo, e.FMA(qLo, tHi, e.FMS(qHi, tHi, wHi)))
	rHi, rl := e.twoSum(sHi, wHi)
	rLo := e.Add(rl, e.Add(sLo, wLo))
	oHi := e.Add(rHi, e.C(1))
	oLo := e.Add(e.Add(e.Sub(e.C(1), oHi), rHi), rLo)
	oHi, oLo = e.Scale(oHi, q), e.Scale(oLo, q)
	dHi, dl := e.twoSum(oHi, e.C(-1))
	r := e.Add(dHi, e.Add(dl, oLo))
	r = e.Blend(e.Cmp(cmpGT, x, e.C(float64(float32(88.72283172607421875)))), r, e.C(math.Inf(1)))
	r = e.Blend(e.Cmp(cmpLT, x, e.C(float64(float32(-16.635532333438687426013570)))), r, e.C(-1))
	return e.Blend(e.Cmp(cmpEQ, x, e.C(0)), r, x)
}

// exp2Body: 2^x = 2^n·2^r, r = x − round(x) exact.
func exp2Body(e *em, in []reg.Register) val {
	x := in[0]
	var v, p reg.Register
	if e.ps() {
		v = e.clampF(x, -152, 129)
	} else {
		v = e.clampF(x, -1080, 1030)
	}
	n := e.Round(v, rNearest)
	r := e.Sub(v, n)
	if e.ps() {
		p = e.Horner(r, exp232Poly...)
	} else {
		p = e.Horner(r, exp264Poly...)
	}
	return vv(e.nanPass(x, e.Scale(p, n)))
}

// ---------------------------------------------------------------------------
// Logarithms (float32)

// logBody: log, log2 and log10 of positive normal x, SLEEF's; every other
// x takes the slow path.
func logBody(base int) func(e *em, in []reg.Register) val {
	return func(e *em, in []reg.Register) val {
		x := in[0]
		e.flagUnless(x, 0x1p-126, math.MaxFloat32)
		return vv(e.sleefLogOf(x, base))
	}
}

// SLEEF's logf, log2f and log10f (Note [SLEEF's log] in internal/sleef):
// their float32 constant pairs and polynomials in x², highest degree first.
var (
	sleefLn2      = [2]float64{float64(float32(0.69314718246459960938)), float64(float32(-1.904654323148236017e-09))}
	sleefLog10t2  = [2]float64{float64(float32(0.30103001)), float64(float32(-1.432098889e-08))}
	sleefTwoLog2e = [2]float64{float64(float32(2.8853900432586669922)), float64(float32(3.2734474483568488616e-08))}
	sleefTwoLg    = [2]float64{float64(float32(0.868588984)), float64(float32(-2.170757285e-08))}
	sleefLogPoly  = map[int][]float64{
		0:  {float64(float32(0.3027294874)), float64(float32(0.3996108174)), float64(float32(0.6666694880))},
		2:  {float64(float32(0.4374550283)), float64(float32(0.5764790177)), float64(float32(0.9618012905120))},
		10: {float64(float32(0.1314289868)), float64(float32(0.1735493541)), float64(float32(0.2895309627))},
	}
)

// sleefLogOf returns log x (base 0: natural), log₂ x or log₁₀ x of positive
// normal float32 lanes as SLEEF computes them, step for step (sleef.LogF32,
// Log2F32 and Log10F32, which take every other x).
func (e *em) sleefLogOf(d reg.Register, base int) reg.Register {
	fe, xHi, xLo, x2 := e.sleefLogReduce(d)
	y := e.Mul(e.Mul(x2, xHi), e.Horner(x2, sleefLogPoly[base]...))
	switch base {
	case 2:
		mHi, mLo := e.mulPairs(xHi, xLo, sleefTwoLog2e)
		sHi, sLo := e.twoSum(fe, mHi)
		sLo = e.Add(sLo, mLo)
		hi, lo := e.twoSum(sHi, y)
		return e.Add(hi, e.Add(lo, sLo))
	case 10:
		sHi, sLo := e.mulPair(sleefLog10t2, fe)
		mHi, mLo := e.mulPairs(xHi, xLo, sleefTwoLg)
		sHi, sLo = e.addPairs(sHi, sLo, mHi, mLo)
		sHi, sLo = e.addPairOne(sHi, sLo, y)
		return e.Add(sHi, sLo)
	}
	sHi, sLo := e.mulPair(sleefLn2, fe)
	sHi, sLo = e.addPairs(sHi, sLo, e.Add(xHi, xHi), e.Add(xLo, xLo))
	sHi, sLo = e.addPairOne(sHi, sLo, y)
	return e.Add(sHi, sLo)
}

// sleefLogReduce is SLEEF's reduction of positive normal lanes d: e, the
// exponent of d·(1/0.75), as floats, m = d·2^-e, x = (m−1)/(m+1) as a pair
// (a division of exact pairs), and x.hi².
func (e *em) sleefLogReduce(d reg.Register) (fe, xHi, xLo, x2 reg.Register) {
	q := e.ISub(e.And(e.Shr(e.Mul(d, e.C(float64(float32(1.0/0.75)))), 23), e.CB(0xff)), e.CB(0x7f))
	m := e.ISub(d, e.Shl(q, 23))
	fe = e.vec()
	VCVTDQ2PS(q, fe)
	aHi, aLo := e.twoSum(m, e.C(-1)) // exact pairs: the order of the terms does not matter
	bHi, bLo := e.twoSum(m, e.C(1))
	t := e.Div(e.C(1), bHi)
	xHi = e.Mul(aHi, t)
	u := e.FMS(t, aHi, xHi)
	xLo = e.FMA(xHi, e.FNMA(bLo, t, e.FNMA(bHi, t, e.C(1))), e.FMA(aLo, t, u))
	return fe, xHi, xLo, e.Mul(xHi, xHi)
}

// mulPair is the constant pair c times y (SLEEF's dfmul_vf2_vf2_vf).
func (e *em) mulPair(c [2]float64, y reg.Register) (hi, lo reg.Register) {
	hi = e.Mul(y, e.C(c[0]))
	return hi, e.FMA(y, e.C(c[1]), e.FMS(y, e.C(c[0]), hi))
}

// mulPairs is the pair (xHi, xLo) times the constant pair c (SLEEF's
// dfmul_vf2_vf2_vf2).
func (e *em) mulPairs(xHi, xLo reg.Register, c [2]float64) (hi, lo reg.Register) {
	hi = e.Mul(xHi, e.C(c[0]))
	return hi, e.FMA(xHi, e.C(c[1]), e.FMA(xLo, e.C(c[0]), e.FMS(xHi, e.C(c[0]), hi)))
}

// addPairs is the sum of two pairs, the first the larger (SLEEF's
// dfadd_vf2_vf2_vf2).
func (e *em) addPairs(xHi, xLo, yHi, yLo reg.Register) (hi, lo reg.Register) {
	hi = e.Add(xHi, yHi)
	return hi, e.Add(e.Add(e.Add(e.Sub(xHi, hi), yHi), xLo), yLo)
}

// addPairOne is a pair plus y, the pair the larger (SLEEF's
// dfadd_vf2_vf2_vf).
func (e *em) addPairOne(xHi, xLo, y reg.Register) (hi, lo reg.Register) {
	hi = e.Add(xHi, y)
	return hi, e.Add(e.Add(e.Sub(xHi, hi), y), xLo)
}

// log1pBody: SLEEF's log1pf for x in (−1, 1e38] (±0 give themselves);
// every other x takes the slow path.
func log1pBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(x, float64(math.Nextafter32(-1, 0)), float64(float32(1e38)))
	return vv(e.Blend(e.Cmp(cmpEQ, x, e.C(0)), e.sleefLog1pOf(x), x))
}

// sleefLog1pOf returns log(1 + d) of float32 lanes d in (−1, 1e38] as
// SLEEF's log1pf computes it, step for step (sleef.Log1pF32): e the
// exponent of (d+1)·(1/0.75), t = 2^-e, m = fma(d, t, t − 1), then
// e·ln2 + 2·(m/(2+m)) + y in pair sums, as sleefLogOf.
func (e *em) sleefLog1pOf(d reg.Register) reg.Register {
	dp1 := e.Add(d, e.C(1))
	q := e.ISub(e.And(e.Shr(e.Mul(dp1, e.C(float64(float32(1.0/0.75)))), 23), e.CB(0xff)), e.CB(0x7f))
	t := e.ISub(e.CB(uint64(math.Float32bits(1))), e.Shl(q, 23))
	m := e.FMA(d, t, e.Sub(t, e.C(1)))
	fe := e.vec()
	VCVTDQ2PS(q, fe)
	bHi := e.Add(m, e.C(2))
	bLo := e.Add(e.Sub(e.C(2), bHi), m)
	r := e.Div(e.C(1), bHi)
	xHi := e.Mul(m, r)
	u := e.FMS(r, m, xHi)
	xLo := e.FMA(xHi, e.FNMA(bLo, r, e.FNMA(bHi, r, e.C(1))), u)
	x2 := e.Mul(xHi, xHi)
	y := e.Mul(e.Mul(x2, xHi), e.Horner(x2, sleefLogPoly[0]...))
	sHi, sLo := e.mulPair(sleefLn2, fe)
	sHi, sLo = e.addPairs(sHi, sLo, e.Add(xHi, xHi), e.Add(xLo, xLo))
	sHi, sLo = e.addPairOne(sHi, sLo, y)
	return e.Add(sHi, sLo)
}

// ---------------------------------------------------------------------------
// Float64 logarithm

// log64Parts splits positive normal x = 2^k·(1+f): s = f/(2+f), hfsq =
// f²/2 and log(1+f) = f − (hfsq − s·(hfsq + rr)) (fdlibm's log).
func (e *em) log64Parts(x reg.Register) (k, f, s, hfsq, rr reg.Register) {
	ix := e.ISub(x, e.CB(sqrtHf6))
	// the exponent: (ix >> 52) as a signed integer, through the float
	// trick (no 64-bit arithmetic shift in AVX2): bits − 1023 + 1.5·2^52
	hi := e.Shr(e.IAdd(ix, e.CB(0x4000000000000000)), 52) // k + 1024 ≥ 0
	k = e.Sub(e.Or(hi, e.C(0x1p52)), e.C(0x1p52+1024))
	m := e.IAdd(e.And(ix, e.CB(0x000fffffffffffff)), e.CB(sqrtHf6))
	f = e.Sub(m, e.C(1))
	s = e.Div(f, e.Add(f, e.C(2)))
	s2 := e.Mul(s, s)
	s4 := e.Mul(s2, s2)
	t1 := e.Mul(s2, e.Horner(s4, log64L[6], log64L[4], log64L[2], log64L[0]))
	t2 := e.Mul(s4, e.Horner(s4, log64L[5], log64L[3], log64L[1]))
	rr = e.Add(t1, t2)
	hfsq = e.Mul(e.Mul(f, f), e.C(0.5))
	return k, f, s, hfsq, rr
}

// log64Of is fdlibm's log of a positive normal float64 x.
func (e *em) log64Of(x reg.Register) reg.Register {
	k, f, s, hfsq, rr := e.log64Parts(x)
	// k·ln2Hi − ((hfsq − (s·(hfsq + R) + k·ln2Lo)) − f)
	a := e.FMA(s, e.Add(hfsq, rr), e.Mul(k, e.C(ln2Lo)))
	a = e.Sub(e.Sub(hfsq, a), f)
	return e.FMS(k, e.C(ln2Hi), a)
}

// log64Body: log, log2 (log·log2e) and log10 (log·log10e) of positive
// normal x; every other x takes the slow path.
func log64Body(base int) func(e *em, in []reg.Register) val {
	return func(e *em, in []reg.Register) val {
		x := in[0]
		e.flagUnless(x, 0x1p-1022, math.MaxFloat64)
		if base == 2 {
			// k + log(m)·log2e: exact at powers of 2, no cancellation
			// near 1
			k, f, s, hfsq, rr := e.log64Parts(x)
			lm := e.Sub(f, e.Sub(hfsq, e.Mul(s, e.Add(hfsq, rr))))
			return vv(e.FMA(lm, e.C(log2e), k))
		}
		l := e.log64Of(x)
		switch base {
		case 10:
			l = e.Mul(l, e.C(math.Log10E))
		}
		return vv(l)
	}
}

// log1p64Body: log(u) + (x − (u − 1))/u, u = 1 + x (float64).
func log1p64Body(e *em, in []reg.Register) val {
	x := in[0]
	// above 1e307 the slow path gives PyTorch's +Inf (elem.Log1p)
	e.flagUnless(x, math.Nextafter(-1, 0), 1e307)
	u := e.Add(x, e.C(1))
	c := e.Div(e.Sub(x, e.Sub(u, e.C(1))), u)
	r := e.Add(e.log64Of(u), c)
	return vv(e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(0x1p-54)), r, x))
}

// mathOps adds the float functions to the table.
func mathOps() {
	f32, f64 := []*etype{eF32}, []*etype{eF64}
	both := floatTypes
	nanNote := "a NaN comes back unchanged"
	slowNote := "other operands as the float64 reference (the slow path)"
	(&efunc{stem: "Exp", kind: kUnary, types: both, expr: "e^%s", unroll: 4, body: expBody, stream: true,
		note: "float64 within 2 ulp, float32 SLEEF's expf bit for bit (Note [SLEEF's exp] in optable/elem), 0 and +Inf beyond the range, " + nanNote}).add()
	(&efunc{stem: "Expm1", kind: kUnary, types: both, expr: "e^%s - 1", unroll: 2, body: expm1Body,
		note: "float64 within 2 ulp, tiny x (±0 included) themselves, float32 SLEEF's expm1f bit for bit (sleef.Expm1F32), " + nanNote}).add()
	(&efunc{stem: "Exp2", kind: kUnary, types: both, expr: "2^%s", unroll: 2, body: exp2Body,
		note: "within 2 ulp, " + nanNote}).add()
	for _, l := range []struct {
		stem string
		base int
	}{{"Log", 0}, {"Log2", 2}, {"Log10", 10}} {
		b32, b64 := logBody(l.base), log64Body(l.base)
		(&efunc{stem: l.stem, kind: kUnary, types: both, expr: map[int]string{0: "log %s", 2: "log2 %s", 10: "log10 %s"}[l.base],
			unroll: 2, fix: true, body: func(e *em, in []reg.Register) val {
				if e.ps() {
					return b32(e, in)
				}
				return b64(e, in)
			}, note: "float64 within 2 ulp for positive normal x, float32 SLEEF's bit for bit (Note [SLEEF's log] in internal/sleef), " + slowNote}).add()
	}
	(&efunc{stem: "Log1p", kind: kUnary, types: both, expr: "log(1 + %s)", unroll: 2, fix: true,
		body: func(e *em, in []reg.Register) val {
			if e.ps() {
				return log1pBody(e, in)
			}
			return log1p64Body(e, in)
		}, note: "float64 within 2 ulp for x > -1, float32 SLEEF's log1pf bit for bit (Note [SLEEF's log] in internal/sleef), " + slowNote}).add()
	(&efunc{stem: "Sin", kind: kUnary, types: f32, expr: "sin %s", unroll: 1, fix: true, via64: true, body: sincosBody(false),
		note: "computed in float64, within 1 ulp for |x| ≤ 2^20, " + slowNote}).add()
	(&efunc{stem: "Cos", kind: kUnary, types: f32, expr: "cos %s", unroll: 1, fix: true, via64: true, body: sincosBody(true),
		note: "computed in float64, within 1 ulp for |x| ≤ 2^20, " + slowNote}).add()
	(&efunc{stem: "Tan", kind: kUnary, types: f32, expr: "tan %s", unroll: 1, fix: true, via64: true, body: tanBody,
		note: "computed in float64, within 2 ulp for |x| ≤ 2^20, " + slowNote}).add()
	(&efunc{stem: "Pow", kind: kBinary, types: f32, expr: "%s^%s", unroll: 1, fix: true, via64: true, body: powBody,
		note: "computed in float64, within 1 ulp for a in (0, +Inf) and finite b, " + slowNote}).add()
	(&efunc{stem: "Tanh", kind: kUnary, types: f64, expr: "tanh %s", unroll: 2, body: tanh64Body,
		note: "within 3 ulp, " + nanNote}).add()
	(&efunc{stem: "Sigmoid", kind: kUnary, types: f64, expr: "1/(1+e^-%s)", unroll: 2, body: sigmoidBody,
		note: "within 3 ulp, " + nanNote}).add()
	(&efunc{stem: "Silu", kind: kUnary, types: both, expr: "%[1]s/(1+e^-%[1]s)", unroll: 2, body: siluBody,
		note: "within 3 ulp, " + nanNote}).add()
	(&efunc{stem: "Erf", kind: kUnary, types: f32, expr: "erf %s", unroll: 2, body: erfBody,
		note: "within 3 ulp, " + nanNote}).add()
	(&efunc{stem: "Erfc", kind: kUnary, types: f32, expr: "erfc %s", unroll: 2, body: erfcBody,
		note: "within 4 ulp, " + nanNote}).add()
	for _, r := range []struct {
		stem, expr string
		mode       uint8
	}{{"Floor", "⌊%s⌋", rFloor}, {"Ceil", "⌈%s⌉", rCeil}, {"Round", "%s rounded half to even", rNearest}, {"Trunc", "%s rounded toward 0", rTrunc}} {
		(&efunc{stem: r.stem, kind: kUnary, types: both, expr: r.expr, body: roundBody(r.mode), note: "exactly, " + nanNote}).add()
	}
	(&efunc{stem: "Frac", kind: kUnary, types: both, expr: "%[1]s - trunc(%[1]s)", body: fracBody, note: nanNote}).add()
	(&efunc{stem: "Sign", kind: kUnary, types: both, expr: "sign(%s)", body: signBody, note: "1, -1 or +0 (±0 and NaN)"}).add()
	(&efunc{stem: "Rsqrt", kind: kUnary, types: both, expr: "1/√%s", body: rsqrtBody,
		note: "the square root rounded, then its reciprocal rounded, as PyTorch's rsqrt computes it (within 1.5 ulp), " + nanNote}).add()
	(&efunc{stem: "Reciprocal", kind: kUnary, types: both, expr: "1/%s", body: reciprocalBody, note: "correctly rounded, " + nanNote}).add()
	inverseOps()
	f64Ops()
}

// ---------------------------------------------------------------------------
// Trigonometry (float32 through float64)

// reducePiO2 returns j = round(x·2/π) and r = x − j·π/2 (two parts,
// fused) for the trigonometric bodies, flagging |x| > 2^20, ±Inf and NaN
// for the slow path.
func reducePiO2(e *em, x reg.Register) (j, r reg.Register) {
	e.flagUnless(e.Abs(x), 0, 0x1p20)
	j = e.Round(e.Mul(x, e.C(twoOPi)), rNearest)
	r = e.FNMA(j, e.C(pio2Hi), x)
	return j, e.FNMA(j, e.C(pio2Lo), r)
}

// sincosBody: sin (cos: quadrant + 1) of float32 x computed in float64:
// j = round(x·2/π), r = x − j·π/2 (two parts, fused), the Cephes
// polynomials of sin and cos on r, chosen and signed by j mod 4. |x| >
// 2^20, ±Inf and NaN take the slow path.
func sincosBody(cos bool) func(e *em, in []reg.Register) val {
	return sincosOn(reducePiO2, sin32Poly, cos32Poly, cos)
}

// sincosOn is the body of sin (cos: quadrant + 1) with the range reduction
// reduce and the polynomials sinPoly and cosPoly on the reduced r, chosen
// and signed by j mod 4.
func sincosOn(reduce func(*em, reg.Register) (j, r reg.Register), sinPoly, cosPoly []float64, cos bool) func(e *em, in []reg.Register) val {
	return func(e *em, in []reg.Register) val {
		x := in[0]
		j, r := reduce(e, x)
		z := e.Mul(r, r)
		s := e.FMA(e.Mul(r, z), e.Horner(z, sinPoly...), r)
		c := e.FMA(e.Mul(z, z), e.Horner(z, cosPoly...), e.FNMA(z, e.C(0.5), e.C(1)))
		q := e.IntBits(j)
		if cos {
			q = e.IAdd(q, e.CB(1))
		}
		y := e.Blend(e.BitSet(q, 0), s, c)
		y = e.Xor(y, e.And(e.Shl(q, 62), e.CB(e.signBit())))
		if !cos {
			y = e.Blend(e.Cmp(cmpEQ, x, e.C(0)), y, x) // sin ±0 = ±0
		}
		return vv(y)
	}
}

// tanBody: tan r, or −1/tan r for odd j (float32 through float64).
func tanBody(e *em, in []reg.Register) val {
	x := in[0]
	j, r := reducePiO2(e, x)
	z := e.Mul(r, r)
	t := e.FMA(e.Mul(r, z), e.Horner(z, tan32Poly...), r)
	inv := e.Div(e.C(-1), t)
	y := e.Blend(e.BitSet(e.IntBits(j), 0), t, inv)
	return vv(e.Blend(e.Cmp(cmpEQ, x, e.C(0)), y, x)) // tan ±0 = ±0
}

// ---------------------------------------------------------------------------
// pow (float32 through float64)

// powBody: 2^(y·log2 x) for x in (0, +Inf) and finite y, in float64;
// every other operand takes the slow path (math.Pow).
func powBody(e *em, in []reg.Register) val {
	x, y := in[0], in[1]
	e.Flag(e.MOr(e.Cmp(cmpNLT, e.C(0), x), e.Cmp(cmpNLE, x, e.C(math.MaxFloat32))))
	e.flagUnless(e.Abs(y), 0, math.MaxFloat32)
	// log2 x = k + 2·atanh(s)·log2e, s = f/(2+f), x = 2^k·(1+f)
	ix := e.ISub(x, e.CB(sqrtHf6))
	hi := e.Shr(e.IAdd(ix, e.CB(0x4000000000000000)), 52)
	k := e.Sub(e.Or(hi, e.C(0x1p52)), e.C(0x1p52+1024))
	m := e.IAdd(e.And(ix, e.CB(0x000fffffffffffff)), e.CB(sqrtHf6))
	f := e.Sub(m, e.C(1))
	s := e.Div(f, e.Add(f, e.C(2)))
	l := e.Mul(s, e.Horner(e.Mul(s, s), logPowPoly...))
	lg := e.FMA(l, e.C(log2e), k)
	t := e.Mul(y, lg)
	t = e.clampF(t, -1100, 1100)
	n := e.Round(t, rNearest)
	p := e.Horner(e.Sub(t, n), exp2PowPoly...)
	return vv(e.Scale(p, n))
}

// ---------------------------------------------------------------------------
// Hyperbolic functions

// tanh64Body: sign(x)·m/(m + 2), m = e^(2|x|) − 1 (float64; |x| ≥ 20: ±1).
func tanh64Body(e *em, in []reg.Register) val {
	x := in[0]
	a := e.Abs(x)
	m := e.expm1Of(e.Add(a, a))
	y := e.Div(m, e.Add(m, e.C(2)))
	y = e.Blend(e.Cmp(cmpNLT, a, e.C(20)), y, e.C(1))
	y = e.Or(y, e.And(x, e.CB(e.signBit())))
	return vv(e.nanPass(x, y))
}

// ---------------------------------------------------------------------------
// erf and erfc (float32): Φ's fits of gelu (vec's geluPoly, geluP,
// geluR) at x·√2

var (
	geluPoly32 = []float64{1.0313439270248637e-04, -1.181212835945189e-03, 9.972197003662586e-03, -6.649025529623032e-02, 3.989422917366028e-01}
	geluP32    = []float64{8.586903102695942e-03, 9.203854203224182e-02, 4.7738802433013916e-01, 1.366503357887268, 2.0000052452087402}
	geluR32    = []float64{3.4255816135555506e-03, 3.6723606288433075e-02, 1.9716320931911469e-01, 6.206199526786804e-01, 1.1386985778808594, 1}
)

const (
	sqrt2    = 1.4142135623730951
	erfS2Pi  = 2.5066282749176025
	erfSmall = 0.49497474683058326 // 0.7/√2: below, erf's series; above, erfc's fraction
	erfMax   = 10.25304832720494   // 14.5/√2: erfc rounds to 0 beyond
)

// erfcPos returns erfc(a) = 2·e^(−a²)·R/(√(2π)·b·R + P), b = a·√2 (a in
// [erfSmall, erfMax]; the Mills-ratio fit of gelu at b), a² split exactly.
func (e *em) erfcPos(a reg.Register) reg.Register {
	h := e.Mul(a, a)
	l := e.FMS(a, a, h) // a² = h + l exactly
	n, r := e.expReduce(e.Xor(h, e.CB(e.signBit())))
	r = e.Sub(r, l)
	ex := e.Scale(e.expPoly(r), n) // e^(−a²)
	b := e.Mul(a, e.C(sqrt2))
	p := e.Horner(b, geluP32...)
	q := e.Horner(b, geluR32...)
	d := e.FMA(e.Mul(e.C(erfS2Pi), b), q, p)
	return e.Div(e.Mul(e.Add(ex, ex), q), d)
}

// erfSmallOf returns erf x = x·2√2·P(2x²) for |x| < erfSmall.
func (e *em) erfSmallOf(x reg.Register) reg.Register {
	z := e.Mul(e.Mul(x, x), e.C(2))
	p := e.Horner(z, geluPoly32...)
	return e.Mul(e.Mul(x, e.C(2*sqrt2)), p)
}

func erfBody(e *em, in []reg.Register) val {
	x := in[0]
	a := e.MinX(e.Abs(x), e.C(erfMax))
	big := e.Sub(e.C(1), e.erfcPos(e.MaxX(a, e.C(erfSmall))))
	big = e.Or(big, e.And(x, e.CB(e.signBit())))
	y := e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfSmall)), big, e.erfSmallOf(x))
	return vv(e.nanPass(x, y))
}

func erfcBody(e *em, in []reg.Register) val {
	x := in[0]
	a := e.MinX(e.Abs(x), e.C(erfMax))
	c := e.erfcPos(e.MaxX(a, e.C(erfSmall)))
	c = e.Blend(e.Cmp(cmpLT, x, e.C(0)), c, e.Sub(e.C(2), c))
	y := e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfSmall)), c, e.Sub(e.C(1), e.erfSmallOf(x)))
	return vv(e.nanPass(x, y))
}

// ---------------------------------------------------------------------------
// Activations

// siluBody: x/(1 + e^−x) for x ≥ 0, x·e^x/(1 + e^x) for x < 0 (e^−|x|
// never overflows).
func siluBody(e *em, in []reg.Register) val {
	x := in[0]
	// below lo, x·e^x rounds to −0
	lo := -120.0
	if !e.ps() {
		lo = -760
	}
	p, n := e.expParts(e.Or(x, e.CB(e.signBit())), lo) // e^−|x| = p·2^n
	ex := e.Scale(p, n)
	// x·e^x as (x·p)·2^n: one rounding where it is subnormal
	xp := e.Mul(e.MaxX(x, e.C(lo)), p)
	num := e.Blend(e.Cmp(cmpLT, x, e.C(0)), x, e.Scale(xp, n))
	y := e.Div(num, e.Add(ex, e.C(1)))
	y = e.Blend(e.Cmp(cmpEQ, x, e.C(math.Inf(-1))), y, e.C(math.NaN())) // −∞·0
	return vv(e.nanPass(x, y))
}

// sigmoidBody: 1/(1 + e^−x) for x ≥ 0, e^x/(1 + e^x) for x < 0.
func sigmoidBody(e *em, in []reg.Register) val {
	x := in[0]
	ex := e.expOf(e.Or(x, e.CB(e.signBit())))
	num := e.Blend(e.Cmp(cmpLT, x, e.C(0)), e.C(1), ex)
	return vv(e.nanPass(x, e.Div(num, e.Add(ex, e.C(1)))))
}

// ---------------------------------------------------------------------------
// Rounding and friends

func roundBody(mode uint8) func(e *em, in []reg.Register) val {
	return func(e *em, in []reg.Register) val { return vv(e.nanPass(in[0], e.Round(in[0], mode))) }
}

func fracBody(e *em, in []reg.Register) val {
	x := in[0]
	return vv(e.nanPass(x, e.Sub(x, e.Round(x, rTrunc))))
}

// signBody: 1, −1 or 0 (+0 for ±0 and NaN).
func signBody(e *em, in []reg.Register) val {
	x := in[0]
	z := e.vec()
	e.zero(z)
	y := e.And(e.Cmp(cmpGT, x, z).asVec(e), e.C(1))
	return vv(e.Blend(e.Cmp(cmpLT, x, z), y, e.C(-1)))
}

func rsqrtBody(e *em, in []reg.Register) val {
	x := in[0]
	return vv(e.nanPass(x, e.Div(e.C(1), e.Sqrt(x))))
}

func reciprocalBody(e *em, in []reg.Register) val {
	x := in[0]
	return vv(e.nanPass(x, e.Div(e.C(1), x)))
}

// asVec returns the mask as a vector of all-ones lanes.
func (m *mask) asVec(e *em) reg.Register {
	if !e.isa.evex() {
		return m.r
	}
	d := e.vec()
	if e.t.size == 4 {
		VPMOVM2D(m.r, d)
	} else {
		VPMOVM2Q(m.r, d)
	}
	return d
}

var _ = Mem{}
