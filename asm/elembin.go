package main

// hypot and atan2 of float32 (computed in float64, rounded once) and
// float64. Twins: vec's elem_bin_go.go (Note [Hypot and atan2] there).

import (
	"math"

	"github.com/mmcloughlin/avo/reg"
)

// narrow reports whether the kernel computes a float32 function in
// float64 (via64).
func (e *em) narrow() bool { return e.t == eF64 && e.k.dst == eF32 }

// flagNonFinite flags the lanes where x is ±Inf or NaN.
func (e *em) flagNonFinite(x reg.Register) { e.flagUnless(e.Abs(x), 0, math.MaxFloat64) }

// hypotBody: float32: √(a² + b²) in float64 (the squares exact, one
// rounding in the sum); float64: p·√(1 + (q/p)²), p = max(|a|, |b|), q
// the other (no overflow or underflow in between). ±Inf, NaN and p = 0
// take the slow path.
func hypotBody(e *em, in []reg.Register) val {
	a, b := in[0], in[1]
	e.flagNonFinite(a)
	e.flagNonFinite(b)
	if e.narrow() {
		return vv(e.Sqrt(e.FMA(a, a, e.Mul(b, b))))
	}
	aa, ab := e.Abs(a), e.Abs(b)
	p, q := e.MaxX(aa, ab), e.MinX(aa, ab)
	e.Flag(e.Cmp(cmpEQ, p, e.C(0)))
	r := e.Div(q, p)
	return vv(e.Mul(p, e.Sqrt(e.FMA(r, r, e.C(1)))))
}

// atan2Body: atan(|y|/|x|) (Cephes' atan of the quotient; a quotient
// that overflows gives π/2), π minus it where x's sign bit is set (π in
// two parts), with y's sign. A zero x, ±Inf and NaN take the slow path.
func atan2Body(e *em, in []reg.Register) val {
	y, x := in[0], in[1]
	e.flagNonFinite(y)
	e.flagNonFinite(x)
	e.Flag(e.Cmp(cmpEQ, x, e.C(0)))
	u := e.atan64Of(e.Div(e.Abs(y), e.Abs(x)))
	neg := e.Add(e.Sub(e.C(piHi), u), e.C(piLo))
	u = e.Blend(e.Cmp(cmpLT, x, e.C(0)), u, neg)
	return vv(e.withSign(u, y))
}

func binOps() {
	for _, t := range floatTypes {
		note := "within 2 ulp for finite operands, other operands as Go's math (the slow path)"
		if t == eF32 {
			note = "computed in float64, within 1 ulp for finite operands, other operands as Go's math (the slow path)"
		}
		(&efunc{stem: "Hypot", kind: kBinary, types: []*etype{t}, expr: "√(%s² + %s²)", unroll: 2, fix: true, via64: true, comm: true,
			body: hypotBody, note: note}).add()
		(&efunc{stem: "Atan2", kind: kBinary, types: []*etype{t}, expr: "atan2(%s, %s)", unroll: 1, fix: true, via64: true,
			body: atan2Body, note: note}).add()
	}
}
