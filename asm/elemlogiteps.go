package main

// logit with eps: x clamped to [lo, hi] (lo = eps, hi = 1 − eps), then
// the logit kernels' body (eleminv.go, elemf64.go), as optable/elem's
// Logit with clamp computes it.

import "github.com/mmcloughlin/avo/reg"

// clampLoHi returns x clamped as optable/elem's Logit does it: lo where
// x < lo, else hi where x > hi (so lo where both hold, eps > 0.5), a NaN
// unchanged.
func (e *em) clampLoHi(x, lo, hi reg.Register) reg.Register {
	below := e.Cmp(cmpLT, x, lo)
	r := e.Blend(below, x, lo)
	return e.Blend(e.MAndNot(below, e.Cmp(cmpGT, x, hi)), r, hi)
}

// logitEpsOps adds logit with eps to the table.
func logitEpsOps() {
	expr := "log(c/(1 - c)), c = %[1]s clamped to [%[2]s, %[3]s] (lo where %[1]s < lo, else hi where %[1]s > hi)"
	(&efunc{stem: "LogitEps", kind: kUnary, types: []*etype{eF32}, params: []string{"lo", "hi"}, expr: expr,
		unroll: 1, fix: true, via64: true,
		note: "computed in float64 as LogitF32 is, within 1 ulp for c in (0, 1), other c (the slow path) as the float64 reference",
		body: func(e *em, in []reg.Register) val {
			return logitBody(e, []reg.Register{e.clampLoHi(in[0], in[1], in[2])})
		}}).add()
	(&efunc{stem: "LogitEps", kind: kUnary, types: []*etype{eF64}, params: []string{"lo", "hi"}, expr: expr,
		unroll: 2, fix: true,
		note: "as LogitF64, within 1 ulp of the quotient's log for c in [2^-1022, 1), other c (the slow path) as Go's math",
		body: func(e *em, in []reg.Register) val {
			return logit64Body(e, []reg.Register{e.clampLoHi(in[0], in[1], in[2])})
		}}).add()
}
