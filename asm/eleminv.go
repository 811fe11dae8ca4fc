package main

// The inverse trigonometric and the hyperbolic functions of float32, and
// gelu's tanh approximation: all computed in float64 (via64), where the
// reductions and polynomials below are accurate to about 2^-40, so the one
// rounding to float32 is within 1 ulp. Their twins are vec's
// elem_inv_go.go (Note [Inverse and hyperbolic functions] there), operation
// for operation.

import (
	"math"

	"github.com/mmcloughlin/avo/reg"
)

// atanQ returns the Taylor coefficients of (atan t − t)/t³ in z = t²,
// highest degree first: (−1)^n/(2n+1), ..., 1/5, −1/3.
func atanQ(n int) []float64 {
	c := make([]float64, n)
	for k := 1; k <= n; k++ {
		s := 1.0
		if k%2 == 1 {
			s = -1
		}
		c[n-k] = s / float64(2*k+1)
	}
	return c
}

var atanPoly = atanQ(12) // |t| ≤ tan(π/8): z^13/27 < 2^-38 relative

const (
	tanPio8  = 0.41421356237309503 // tan(π/8)
	tan3Pio8 = 2.414213562373095   // tan(3π/8)
	geluK    = 0.7978845608028654  // √(2/π)
	geluC    = 0.044715
)

// atanOf returns atan a for a ≥ 0 (+Inf included): a > tan(3π/8) as π/2 +
// atan(−1/a), a > tan(π/8) as π/4 + atan((a−1)/(a+1)), else atan a; one
// division, the series in t² ≤ 0.172.
func (e *em) atanOf(a reg.Register) reg.Register {
	big := e.Cmp(cmpGT, a, e.C(tan3Pio8))
	mid := e.Cmp(cmpGT, a, e.C(tanPio8))
	num := e.Blend(mid, a, e.Sub(a, e.C(1)))
	num = e.Blend(big, num, e.C(-1))
	den := e.Blend(mid, e.C(1), e.Add(a, e.C(1)))
	den = e.Blend(big, den, a)
	t := e.Div(num, den)
	y0 := e.Blend(mid, e.C(0), e.C(math.Pi/4))
	y0 = e.Blend(big, y0, e.C(math.Pi/2))
	z := e.Mul(t, t)
	r := e.FMA(e.Mul(t, z), e.Horner(z, atanPoly...), t)
	return e.Add(y0, r)
}

// withSign returns y (not negative) with x's sign bit.
func (e *em) withSign(y, x reg.Register) reg.Register {
	return e.Or(y, e.And(x, e.CB(e.signBit())))
}

// asinOf returns asin a for a in [0, 1]: atan(a/√((1−a)(1+a))), the
// product exact for float32 a.
func (e *em) asinOf(a reg.Register) reg.Register {
	d := e.Sqrt(e.Mul(e.Sub(e.C(1), a), e.Add(e.C(1), a)))
	return e.atanOf(e.Div(a, d))
}

// log1p64Of is log(1+v) for v ≥ 0 (finite): log(u) + (v − (u − 1))/u,
// u = 1 + v; tiny v themselves.
func (e *em) log1p64Of(v reg.Register) reg.Register {
	u := e.Add(v, e.C(1))
	c := e.Div(e.Sub(v, e.Sub(u, e.C(1))), u)
	r := e.Add(e.log64Of(u), c)
	return e.Blend(e.Cmp(cmpLT, v, e.C(0x1p-54)), r, v)
}

func atanBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat32)
	return vv(e.withSign(e.atanOf(e.Abs(x)), x))
}

func asinBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, 1)
	return vv(e.withSign(e.asinOf(e.Abs(x)), x))
}

// acosBody: π/2 − asin x (in float64 no cancellation that float32 sees).
func acosBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, 1)
	s := e.withSign(e.asinOf(e.Abs(x)), x)
	return vv(e.Sub(e.C(math.Pi/2), s))
}

// sinhBody: (t + t/(t+1))/2, t = e^|x| − 1 (no cancellation near 0);
// |x| ≤ 100 suffices (float32 overflows beyond 89.5).
func sinhBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat32)
	t := e.expm1Of(e.MinX(e.Abs(x), e.C(100)))
	y := e.Add(t, e.Div(t, e.Add(t, e.C(1))))
	y = e.sleefOverflow(e.Mul(y, e.C(0.5)), x, lnMaxF32)
	return vv(e.withSign(y, x))
}

// ln of the largest float32 and float64: SLEEF's sinh and cosh overflow
// beyond them (Note [SLEEF's sinh and cosh] in optable/elem).
var (
	lnMaxF32 = math.Log(math.MaxFloat32)
	lnMaxF64 = math.Log(math.MaxFloat64)
)

// sleefOverflow returns y, or +Inf in the lanes where |x| > lnMax, where
// PyTorch's SLEEF sinh and cosh overflow.
func (e *em) sleefOverflow(y, x reg.Register, lnMax float64) reg.Register {
	return e.Blend(e.Cmp(cmpGT, e.Abs(x), e.C(lnMax)), y, e.C(math.Inf(1)))
}

// coshBody: e/2 + 1/(2e), e = e^|x|.
func coshBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat32)
	ex := e.expOf(e.MinX(e.Abs(x), e.C(100)))
	return vv(e.sleefOverflow(e.FMA(ex, e.C(0.5), e.Div(e.C(0.5), ex)), x, lnMaxF32))
}

// asinhBody: log1p(a + a²/(1 + √(1 + a²))), a = |x| (a² finite in
// float64).
func asinhBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, math.MaxFloat32)
	a := e.Abs(x)
	s := e.Mul(a, a)
	v := e.Add(a, e.Div(s, e.Add(e.Sqrt(e.Add(s, e.C(1))), e.C(1))))
	return vv(e.withSign(e.log1p64Of(v), x))
}

// acoshBody: log1p(t + √(t² + 2t)), t = x − 1 exact.
func acoshBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(x, 1, math.MaxFloat32)
	t := e.Sub(x, e.C(1))
	v := e.Add(t, e.Sqrt(e.FMA(t, t, e.Add(t, t))))
	return vv(e.log1p64Of(v))
}

// atanhBody: log1p(2a/(1 − a))/2 for a = |x| < 1.
func atanhBody(e *em, in []reg.Register) val {
	x := in[0]
	e.flagUnless(e.Abs(x), 0, float64(math.Nextafter32(1, 0)))
	a := e.Abs(x)
	v := e.Div(e.Add(a, a), e.Sub(e.C(1), a))
	return vv(e.withSign(e.Mul(e.log1p64Of(v), e.C(0.5)), x))
}

// geluTanhBody: PyTorch's 0.5x(1 + tanh u), u = √(2/π)(x + 0.044715x³),
// as x·sigmoid(2u) (no cancellation in 1 + tanh u for negative x):
// x/(1 + e) for x ≥ 0, x·e/(1 + e) below, e = e^−2|u|. −Inf gives
// −Inf·0 = NaN, as PyTorch's formula does.
func geluTanhBody(e *em, in []reg.Register) val {
	x := in[0]
	x2 := e.Mul(x, x)
	u := e.Mul(e.FMA(e.Mul(x, e.C(geluC)), x2, x), e.C(geluK))
	m := e.Or(e.Add(u, u), e.CB(e.signBit())) // −2|u|
	ex := e.expOf(m)
	num := e.Blend(e.Cmp(cmpLT, x, e.C(0)), x, e.Mul(x, ex))
	y := e.Div(num, e.Add(ex, e.C(1)))
	return vv(e.nanPass(x, y))
}

// logitBody: log(x/(1 − x)) for x in (0, 1), where x/(1 − x) is a
// positive normal float64 (1 − x exact, one rounding in the division, as
// optable/elem's Logit computes it).
func logitBody(e *em, in []reg.Register) val {
	x := in[0]
	e.Flag(e.MOr(e.Cmp(cmpNLT, e.C(0), x), e.Cmp(cmpNLT, x, e.C(1))))
	return vv(e.log64Of(e.Div(x, e.Sub(e.C(1), x))))
}

// inverseOps adds this file's functions to the table.
func inverseOps() {
	f32 := []*etype{eF32}
	slowNote := "other operands as the float64 reference (the slow path)"
	for _, f := range []struct {
		stem, expr, note string
		body             func(e *em, in []reg.Register) val
	}{
		{"Atan", "atan %s", "within 1 ulp for finite x", atanBody},
		{"Asin", "asin %s", "within 1 ulp for |x| ≤ 1", asinBody},
		{"Acos", "acos %s", "within 1 ulp for |x| ≤ 1", acosBody},
		{"Sinh", "sinh %s", "within 1 ulp for finite x, ±Inf for |x| > ln(max float32) as SLEEF's", sinhBody},
		{"Cosh", "cosh %s", "within 1 ulp for finite x, +Inf for |x| > ln(max float32) as SLEEF's", coshBody},
		{"Asinh", "asinh %s", "within 1 ulp for finite x", asinhBody},
		{"Acosh", "acosh %s", "within 1 ulp for x ≥ 1", acoshBody},
		{"Atanh", "atanh %s", "within 1 ulp for |x| < 1", atanhBody},
		{"Logit", "log(%[1]s/(1 - %[1]s))", "within 1 ulp for x in (0, 1)", logitBody},
	} {
		(&efunc{stem: f.stem, kind: kUnary, types: f32, expr: f.expr, unroll: 1, fix: true, via64: true, body: f.body,
			note: "computed in float64, " + f.note + ", " + slowNote}).add()
	}
	(&efunc{stem: "GeluTanh", kind: kUnary, types: f32, expr: "0.5·%[1]s·(1 + tanh(√(2/π)·(%[1]s + 0.044715·%[1]s³)))", unroll: 1, via64: true,
		body: geluTanhBody, note: "computed in float64 as x·sigmoid(2u), within 1 ulp; a NaN comes back quieted"}).add()
}
