package main

// pow of float64: e^(y·log|x|) with log|x| and the product in
// double-double. Twin: vec's elem_pow64_go.go (Note [Float64 pow] there),
// operation for operation.

import (
	"math"

	"github.com/mmcloughlin/avo/reg"
)

var (
	// log m = 2s + s³·(2/3 + s²·P(s²)), P(t) = Σ 2t^(k−2)/(2k+1), k = 2..12
	// (|s| ≤ 0.1716: the first term left out is below 2^-70 of 2s)
	powLogPoly = atanhTail(12)
	// e^r = 1 + r + r²·Q(r), Q(r) = Σ r^(k−2)/k!, k = 2..14 (|r| ≤ 0.35:
	// the first term left out is below 2^-63)
	powExpPoly = taylorE(14)[:13]
)

const (
	twoThirdsHi = 0.6666666666666666 // 2/3 = twoThirdsHi + twoThirdsLo
	twoThirdsLo = 3.700743415417188e-17
	pow64Big    = 1000 // |y·log|x|| beyond: the result is 0 or ±Inf
)

// atanhTail returns 2/(2n+1), ..., 2/7, 2/5.
func atanhTail(n int) []float64 {
	var c []float64
	for k := n; k >= 2; k-- {
		c = append(c, 2/float64(2*k+1))
	}
	return c
}

// pow64Body: |x|^y = e^(y·log|x|), negated for x < 0 and odd integer y,
// for finite nonzero x (subnormals scaled by 2^52 first) and finite y,
// integral where x < 0; every other operand takes the slow path
// (math.Pow: C99's special values). The steps, each in double-double:
// |x| = 2^k·m, m in [√½, √2); s = (m − 1)/(m + 1); log m as above; log|x|
// = k·ln2 + log m; t = y·log|x|; t = n·ln2 + r; e^r = 1 + r + r²·Q(r);
// the sum rounded once and scaled by 2^n (Scale: subnormal results round
// once more).
func pow64Body(e *em, in []reg.Register) val {
	x, y := in[0], in[1]
	a := e.Abs(x)
	e.flagUnless(a, 0x1p-1074, math.MaxFloat64)
	e.flagUnless(e.Abs(y), 0, math.MaxFloat64)
	e.Flag(e.MAnd(e.Cmp(cmpLT, x, e.C(0)), e.Cmp(cmpNE, y, e.Round(y, rNearest))))
	sub := e.Cmp(cmpLT, a, e.C(0x1p-1022))
	a = e.Blend(sub, a, e.Mul(a, e.C(0x1p52))) // subnormals: k − 52 below
	ix := e.ISub(a, e.CB(sqrtHf6))
	hi := e.Shr(e.IAdd(ix, e.CB(0x4000000000000000)), 52)
	k := e.Sub(e.Or(hi, e.C(0x1p52)), e.C(0x1p52+1024))
	k = e.Blend(sub, k, e.Sub(k, e.C(52)))
	m := e.IAdd(e.And(ix, e.CB(0x000fffffffffffff)), e.CB(sqrtHf6))
	// s = f/(m + 1), f = m − 1 exact
	f := e.Sub(m, e.C(1))
	dh, dl := e.twoSum(m, e.C(1))
	sh := e.Div(f, dh)
	sl := e.Div(e.FNMA(sh, dl, e.FNMA(sh, dh, f)), dh)
	// s² and s³
	s2h := e.Mul(sh, sh)
	s2l := e.FMA(e.Add(sh, sh), sl, e.FMS(sh, sh, s2h))
	s3h := e.Mul(s2h, sh)
	s3l := e.FMA(s2h, sl, e.FMA(s2l, sh, e.FMS(s2h, sh, s3h)))
	// T = 2/3 + s²·P(s²)
	v := e.Mul(s2h, e.Horner(s2h, powLogPoly...))
	th := e.Add(e.C(twoThirdsHi), v)
	tl := e.Add(e.Add(e.Sub(e.C(twoThirdsHi), th), v), e.C(twoThirdsLo))
	// s³·T, log m = 2s + s³·T
	ph := e.Mul(s3h, th)
	pl := e.FMA(s3l, th, e.FMA(s3h, tl, e.FMS(s3h, th, ph)))
	s2 := e.Add(sh, sh)
	lmh := e.Add(s2, ph)
	lml := e.Add(e.Add(e.Add(e.Sub(s2, lmh), ph), e.Add(sl, sl)), pl)
	// log|x| = k·ln2 + log m (k·ln2Hi exact)
	lh, le := e.twoSum(e.Mul(k, e.C(ln2Hi)), lmh)
	ll := e.Add(le, e.FMA(k, e.C(ln2Lo), lml))
	// t = y·log|x|
	uh := e.Mul(y, lh)
	ul := e.FMA(y, ll, e.FMS(y, lh, uh))
	ul = e.Blend(e.Cmp(cmpNLT, e.Abs(uh), e.C(pow64Big)), ul, e.C(0))
	uh = e.clampF(uh, -1100, 1100)
	// t = n·ln2 + r, r = rh + rl (n·ln2Hi exact, rh exact)
	n := e.Round(e.Mul(uh, e.C(log2e)), rNearest)
	rh := e.FNMA(n, e.C(ln2Hi), uh)
	r, rr := e.twoSum(rh, e.FNMA(n, e.C(ln2Lo), ul))
	// e^r − 1 = ph2 + pl2
	r2h := e.Mul(r, r)
	q := e.Horner(r, powExpPoly...)
	u := e.Mul(r2h, q)
	ph2 := e.Add(r, u)
	pl2 := e.Add(e.Add(e.Sub(r, ph2), u), e.FMA(e.FMS(r, r, r2h), q, e.FMA(rr, r, rr)))
	one := e.Add(e.C(1), ph2)
	lo := e.Add(e.Add(e.Sub(e.C(1), one), ph2), pl2)
	res := e.Scale(e.Add(one, lo), n)
	hy := e.Mul(y, e.C(0.5))
	odd := e.Cmp(cmpNE, e.Round(hy, rNearest), hy)
	return vv(e.Blend(odd, res, e.Or(res, e.And(x, e.CB(e.signBit())))))
}

func pow64Ops() {
	(&efunc{stem: "Pow", kind: kBinary, types: []*etype{eF64}, expr: "%s^%s", unroll: 1, fix: true, body: pow64Body,
		note: "within 1 ulp for finite nonzero a (b integral where a < 0) and finite b, other operands as math.Pow (the slow path: C99's special values)"}).add()
}
