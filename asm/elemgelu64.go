package main

// gelu and its tanh approximation of float64. Twins: vec's
// elem_gelu64_go.go (Note [Float64 gelu] there), operation for operation.

import (
	"math"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

const (
	rsqrt2Hi   = 0.7071067811865476 // 1/√2 = rsqrt2Hi + rsqrt2Lo
	rsqrt2Lo   = -4.833646656726457e-17
	twoOSqrtPi = 1.1283791670955126 // 2/√π
	gelu64Max  = 40                 // |x|/√2 beyond erfc's 28: Φ(x) is 0 or 1
	geluT64Max = 30                 // e^(−2|u|) is 0 beyond
)

// erfcSlopePoly is (2/√π)·e^(−t) = Σ (2/√π)·(−t)^k/k!, k ≤ 6: within 2%
// for t ≤ 1.5625, all the first-order correction of gelu64Body needs.
var erfcSlopePoly = expNegSeries(6, twoOSqrtPi)

// expNegSeries returns s·(−1)^n/n!, ..., −s, s.
func expNegSeries(n int, s float64) []float64 {
	c := make([]float64, n+1)
	t := s
	for k := 0; k <= n; k++ {
		c[n-k] = t
		t *= -1 / float64(k+1)
	}
	return c
}

// gelu64Body: x·Φ(x) = ½·x·erfc(z), z = −x/√2 held as zh + zl (the
// product's error by FMA, 1/√2 in two parts), since erfc is
// ill-conditioned where x is very negative (erfc's relative slope there is
// 2z: one rounding of z would cost 2z² ulps). Below |z| 1.25 the erfc of
// zh is corrected by −zl·(2/√π)·e^(−zh²); above, erf64Terms folds zl into
// its exponential, and for z ≥ 1.25 ½·x·erfc z is formed from erfc's
// unscaled q·2^n, so that a subnormal result rounds once.
func gelu64Body(e *em, in []reg.Register) val {
	x := in[0]
	xc := e.clampF(x, -gelu64Max, gelu64Max)
	zh := e.Mul(xc, e.C(-rsqrt2Hi))
	zl := e.FMA(xc, e.C(-rsqrt2Lo), e.FMS(xc, e.C(-rsqrt2Hi), zh))
	g := e.Horner(e.Mul(zh, zh), erfcSlopePoly...)
	corr := e.Mul(zl, g)
	y, q, n := e.erf64Terms(zh, e.Xor(zl, e.And(zh, e.CB(e.signBit()))))
	r := e.erfc64From(zh, y, e.Scale(q, n))
	r = e.Blend(e.Cmp(cmpLT, e.Abs(zh), e.C(erfB)), r, e.Sub(r, corr))
	r = e.Mul(e.Mul(r, e.C(0.5)), x)
	// erfc's third range for z > 0: ½·x·q rounded once to a subnormal
	// (x clamped: −Inf·0 is NaN, as PyTorch's)
	tail := e.Scale(e.Mul(e.Mul(q, e.C(0.5)), xc), n)
	r = e.Blend(e.Cmp(cmpLT, zh, e.C(erfB)), tail, r)
	r = e.Blend(e.Cmp(cmpEQ, x, e.C(math.Inf(-1))), r, e.C(math.NaN()))
	return vv(e.nanPass(x, r))
}

// geluTanh64Body: ½·x·(1 + tanh u) = x·σ(2u), u = √(2/π)·(x +
// 0.044715·x³), as x/(1 + e) for x ≥ 0 and x·e/(1 + e) below, e =
// e^(−2|u|): no cancellation in the negative tail. There the result's
// relative slope in u is 2|u| (up to 1500 ulps per ulp of u), so u is
// formed in double-double and e^(−2|u|) is e^(mh)·(1 + ml).
func geluTanh64Body(e *em, in []reg.Register) val {
	x := in[0]
	xc := e.clampF(x, -geluT64Max, geluT64Max)
	ph := e.Mul(xc, xc)
	pl := e.FMS(xc, xc, ph)
	qh := e.Mul(ph, xc)
	ql := e.FMA(pl, xc, e.FMS(ph, xc, qh)) // x³ = qh + ql
	rh := e.Mul(qh, e.C(geluC))
	rl := e.FMA(ql, e.C(geluC), e.FMS(qh, e.C(geluC), rh)) // c·x³
	vh, vl := e.twoSum(xc, rh)
	vl = e.Add(vl, rl)
	uh := e.Mul(vh, e.C(geluK))
	ul := e.FMA(vl, e.C(geluK), e.FMS(vh, e.C(geluK), uh))
	sb := e.CB(e.signBit())
	mh := e.Or(e.Add(uh, uh), sb) // −2|uh|
	ml := e.Xor(e.Add(ul, ul), e.Xor(e.And(uh, sb), sb))
	ex := e.expOf(mh)
	ex = e.FMA(ex, ml, ex)
	num := e.Blend(e.Cmp(cmpLT, x, e.C(0)), x, e.Mul(x, ex))
	return vv(e.nanPass(x, e.Div(num, e.Add(ex, e.C(1)))))
}

// twoSum returns s = a + b rounded and its error t: a + b = s + t exactly
// (Knuth's, for any magnitudes).
func (e *em) twoSum(a reg.Register, b Op) (s, t reg.Register) {
	s = e.Add(a, b)
	bb := e.Sub(s, a)
	t = e.Add(e.Sub(a, e.Sub(s, bb)), e.Sub(b, bb))
	return s, t
}

func gelu64Ops() {
	f64 := []*etype{eF64}
	(&efunc{stem: "Gelu", kind: kUnary, types: f64, expr: "%[1]s·Φ(%[1]s)", unroll: 1, body: gelu64Body,
		note: "as ½·x·erfc(−x/√2), within 4 ulp (subnormal results within 2^-1070), -Inf gives NaN as PyTorch's, a NaN comes back unchanged"}).add()
	(&efunc{stem: "GeluTanh", kind: kUnary, types: f64, expr: "0.5·%[1]s·(1 + tanh(√(2/π)·(%[1]s + 0.044715·%[1]s³)))", unroll: 1, body: geluTanh64Body,
		note: "as x·σ(2u), within 4 ulp, -Inf gives NaN as PyTorch's, a NaN comes back unchanged"}).add()
}
