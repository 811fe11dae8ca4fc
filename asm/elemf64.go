package main

// The float64 kernels of the trigonometric, inverse trigonometric and
// hyperbolic functions (float32's compute in float64 with room to spare,
// eleminv.go; these have none). Their twins are vec's elem_f64_go.go (Note
// [Float64 functions] there), operation for operation.

import (
	"math"

	"github.com/mmcloughlin/avo/reg"
)

// Cephes' double polynomials (Go's math package has the same).
var (
	// sin r = r + r·z·S(z), cos r = 1 − z/2 + z²·C(z), z = r², |r| ≤ π/4
	sin64Poly = []float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	cos64Poly = []float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
	// tan r = r + r·z·P(z)/Q(z), Q monic
	tan64P = []float64{-1.30936939181383777646e4, 1.15351664838587416140e6, -1.79565251976484877988e7}
	tan64Q = []float64{1, 1.36812963470692954678e4, -1.32089234440210967447e6, 2.50083801823357915839e7, -5.38695755929454629881e7}
	// atan t = t + t·z·P(z)/Q(z), |t| ≤ 0.66, Q monic
	atan64P = []float64{-8.750608600031904122785e-01, -1.615753718733365076637e+01, -7.500855792314704667340e+01,
		-1.228866684490136173410e+02, -6.485021904942025371773e+01}
	atan64Q = []float64{1, 2.485846490142306297962e+01, 1.650270098316988542046e+02, 4.328810604912902668951e+02,
		4.853903996359136964868e+02, 1.945506571482613964425e+02}
)

const (
	pio2Lo2   = -1.4973849048591698e-33 // π/2 = pio2Hi + pio2Lo + pio2Lo2
	trig64Max = 0x1p20                  // the vector path's |x| bound
	piHi      = 3.141592653589793       // π = piHi + piLo
	piLo      = 1.2246467991473532e-16
	atanMore  = 6.123233995736765886130e-17 // π/2 − float64(π/2) (Cephes' MOREBITS)
	hyp64Big  = 22.0                        // e^−2a below 2^-63: sinh a = cosh a = e^a/2
	inv64Big  = 0x1p28                      // asinh, acosh: log(2a) beyond
)

// reducePiO2F64 returns j = round(x·2/π) and r = x − j·π/2 with π/2 in
// three parts (the first product exact in the FMA, so r is exact to its
// rounding for |x| ≤ 2^20), flagging larger |x|, ±Inf and NaN.
func reducePiO2F64(e *em, x reg.Register) (j, r reg.Register) {
	e.flagUnless(e.Abs(x), 0, trig64Max)
	j = e.Round(e.Mul(x, e.C(twoOPi)), rNearest)
	r = e.FNMA(j, e.C(pio2Hi), x)
	r = e.FNMA(j, e.C(pio2Lo), r)
	return j, e.FNMA(j, e.C(pio2Lo2), r)
}

// sincos64Body: Cephes' sin and cos polynomials on r, chosen and signed by
// j mod 4 (cos: j + 1).
func sincos64Body(cos bool) func(e *em, in []reg.Register) val {
	return sincosOn(reducePiO2F64, sin64Poly, cos64Poly, cos)
}

// tan64Body: tan r, or −1/tan r for odd j.
func tan64Body(e *em, in []reg.Register) val {
	x := in[0]
	j, r := reducePiO2F64(e, x)
	z := e.Mul(r, r)
	pq := e.Div(e.Horner(z, tan64P...), e.Horner(z, tan64Q...))
	t := e.FMA(e.Mul(r, z), pq, r)
	inv := e.Div(e.C(-1), t)
	y := e.Blend(e.BitSet(e.IntBits(j), 0), t, inv)
	return vv(e.Blend(e.Cmp(cmpEQ, x, e.C(0)), y, x)) // tan ±0 = ±0
}

// atan64Of returns atan a for a ≥ 0 (+Inf included), Cephes' reduction:
// a > tan(3π/8) as π/2 + atan(−1/a), a > 0.66 as π/4 + atan((a−1)/(a+1)),
// each with its share of π/2's low part.
func (e *em) atan64Of(a reg.Register) reg.Register {
	big := e.Cmp(cmpGT, a, e.C(tan3Pio8))
	mid := e.Cmp(cmpGT, a, e.C(0.66))
	num := e.Blend(mid, a, e.Sub(a, e.C(1)))
	num = e.Blend(big, num, e.C(-1))
	den := e.Blend(mid, e.C(1), e.Add(a, e.C(1)))
	den = e.Blend(big, den, a)
	t := e.Div(num, den)
	y0 := e.Blend(mid, e.C(0), e.C(math.Pi/4))
	y0 = e.Blend(big, y0, e.C(math.Pi/2))
	mb := e.Blend(mid, e.C(0), e.C(0.5*atanMore))
	mb = e.Blend(big, mb, e.C(atanMore))
	z := e.Mul(t, t)
	pq := e.Div(e.Horner(z, atan64P...), e.Horner(z, atan64Q...))
	r := e.FMA(e.Mul(t, z), pq, t)
	return e.Add(y0, e.Add(r, mb))
}

// atan64Body: atan |x| with x's sign; a NaN comes back unchanged.
func atan64Body(e *em, in []reg.Register) val {
	x := in[0]
	return vv(e.nanPass(x, e.withSign(e.atan64Of(e.Abs(x)), x)))
}

// asin64Body: atan(a/√(1 − a²)), 1 − a² rounded once (fused).
func asin64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, 1)
	a := e.Abs(x)
	d := e.Sqrt(e.FNMA(a, a, e.C(1)))
	return vv(e.withSign(e.atan64Of(e.Div(a, d)), x))
}

// acos64Body: u = atan(√(1 − a²)/a) (no cancellation near 1), u for x ≥
// 0, π − u below (π in two parts).
func acos64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, 1)
	a := e.Abs(x)
	d := e.Sqrt(e.FNMA(a, a, e.C(1)))
	u := e.atan64Of(e.Div(d, a))
	neg := e.Add(e.Sub(e.C(piHi), u), e.C(piLo))
	return vv(e.Blend(e.Cmp(cmpLT, x, e.C(0)), u, neg))
}

// halfExpBig returns e^a/2 for a ≥ 0, a capped at 712 (+Inf beyond
// 710.5): p·2^(n−1), e^a = p·2^n.
func (e *em) halfExpBig(a reg.Register) reg.Register {
	n, r := e.expReduce(e.MinX(a, e.C(712)))
	return e.Scale(e.expPoly(r), e.Sub(n, e.C(1)))
}

// sinh64Body: fdlibm's (2t − t²/(t+1))/2 for a = |x| < 1 and (t +
// t/(t+1))/2 below 22, t = e^a − 1; e^a/2 beyond.
func sinh64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat64)
	a := e.Abs(x)
	t := e.expm1Of(e.MinX(a, e.C(hyp64Big)))
	t1 := e.Add(t, e.C(1))
	y := e.Mul(e.Add(t, e.Div(t, t1)), e.C(0.5))
	small := e.Mul(e.Sub(e.Add(t, t), e.Div(e.Mul(t, t), t1)), e.C(0.5))
	y = e.Blend(e.Cmp(cmpLT, a, e.C(1)), y, small)
	y = e.Blend(e.Cmp(cmpNLT, a, e.C(hyp64Big)), y, e.halfExpBig(a))
	return vv(e.withSign(e.sleefOverflow(y, x, lnMaxF64), x))
}

// cosh64Body: e/2 + 1/(2e), e = e^a, a = |x| < 22; e^a/2 beyond.
func cosh64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat64)
	a := e.Abs(x)
	ex := e.expOf(e.MinX(a, e.C(hyp64Big)))
	y := e.FMA(ex, e.C(0.5), e.Div(e.C(0.5), ex))
	y = e.Blend(e.Cmp(cmpNLT, a, e.C(hyp64Big)), y, e.halfExpBig(a))
	return vv(e.sleefOverflow(y, x, lnMaxF64))
}

// logBig returns log a + ln2 (= log 2a, which may overflow) for a ≥ 2^28.
func (e *em) logBig(a reg.Register) reg.Register {
	return e.Add(e.log64Of(e.MaxX(a, e.C(inv64Big))), e.C(math.Ln2))
}

// asinh64Body: log1p(a + a²/(1 + √(1 + a²))) for a = |x| < 2^28, log 2a
// beyond.
func asinh64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat64)
	a := e.Abs(x)
	m := e.MinX(a, e.C(inv64Big))
	s := e.Mul(m, m)
	v := e.Add(m, e.Div(s, e.Add(e.Sqrt(e.Add(s, e.C(1))), e.C(1))))
	y := e.Blend(e.Cmp(cmpNLT, a, e.C(inv64Big)), e.log1p64Of(v), e.logBig(a))
	return vv(e.withSign(y, x))
}

// acosh64Body: log1p(t + √(t² + 2t)), t = x − 1, for x < 2^28; log 2x
// beyond.
func acosh64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(x, 1, math.MaxFloat64)
	t := e.Sub(e.MinX(x, e.C(inv64Big)), e.C(1))
	v := e.Add(t, e.Sqrt(e.FMA(t, t, e.Add(t, t))))
	return vv(e.Blend(e.Cmp(cmpNLT, x, e.C(inv64Big)), e.log1p64Of(v), e.logBig(x)))
}

// atanh64Body: fdlibm's log1p(2a + 2a·a/(1 − a))/2 for a = |x| < 0.5,
// log1p(2a/(1 − a))/2 for a in [0.5, 1).
func atanh64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.Nextafter(1, 0))
	a := e.Abs(x)
	t := e.Add(a, a)
	d := e.Sub(e.C(1), a)
	small := e.Add(t, e.Div(e.Mul(t, a), d))
	v := e.Blend(e.Cmp(cmpLT, a, e.C(0.5)), e.Div(t, d), small)
	return vv(e.withSign(e.Mul(e.log1p64Of(v), e.C(0.5)), x))
}

// logit64Body: log(x/(1 − x)) for x in (0, 1), the quotient rounded once,
// as optable/elem's Logit computes it.
func logit64Body(e *em, in []reg.Register) val {
	x := in[0]
	e.Flag(e.MOr(e.Cmp(cmpNLE, e.C(0x1p-1022), x), e.Cmp(cmpNLT, x, e.C(1))))
	return vv(e.log64Of(e.Div(x, e.Sub(e.C(1), x))))
}

// f64Ops adds this file's kernels to the table.
func f64Ops() {
	f64 := []*etype{eF64}
	slowNote := "other operands as Go's math (the slow path)"
	for _, f := range []struct {
		stem, expr, note string
		body             func(e *em, in []reg.Register) val
		fix              bool
	}{
		{"Sin", "sin %s", "within 2 ulp for |x| ≤ 2^20, " + slowNote, sincos64Body(false), true},
		{"Cos", "cos %s", "within 2 ulp for |x| ≤ 2^20, " + slowNote, sincos64Body(true), true},
		{"Tan", "tan %s", "within 3 ulp for |x| ≤ 2^20, " + slowNote, tan64Body, true},
		{"Atan", "atan %s", "within 2 ulp, a NaN comes back unchanged", atan64Body, false},
		{"Asin", "asin %s", "within 2 ulp for |x| ≤ 1, " + slowNote, asin64Body, true},
		{"Acos", "acos %s", "within 2 ulp for |x| ≤ 1, " + slowNote, acos64Body, true},
		{"Sinh", "sinh %s", "within 3 ulp for finite x, ±Inf for |x| > ln(max float64) as SLEEF's, " + slowNote, sinh64Body, true},
		{"Cosh", "cosh %s", "within 3 ulp for finite x, +Inf for |x| > ln(max float64) as SLEEF's, " + slowNote, cosh64Body, true},
		{"Asinh", "asinh %s", "within 3 ulp for finite x, " + slowNote, asinh64Body, true},
		{"Acosh", "acosh %s", "within 3 ulp for x ≥ 1, " + slowNote, acosh64Body, true},
		{"Atanh", "atanh %s", "within 3 ulp for |x| < 1, " + slowNote, atanh64Body, true},
		{"Logit", "log(%[1]s/(1 - %[1]s))", "within 1 ulp of the quotient's log for x in [2^-1022, 1), " + slowNote, logit64Body, true},
	} {
		(&efunc{stem: f.stem, kind: kUnary, types: f64, expr: f.expr, unroll: 2, fix: f.fix, body: f.body, note: f.note}).add()
	}
	extraOps()
	erf64Ops()
	gelu64Ops()
	pow64Ops()
	shiftOps()
	binOps()
}
