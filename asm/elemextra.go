package main

// Small kernels that fill the rest of the table's SIMD audit (optable's
// Note [SIMD audit]): square of every number type, copysign, fmax and fmin
// of integers (max and min: integers have no NaN), abs of uint8 (the
// identity) and sign of integers. Their twins are in vec's elem_extra_go.go.

import "github.com/mmcloughlin/avo/reg"

func extraOps() {
	(&efunc{stem: "Square", stream: true, kind: kUnary, types: numTypes, expr: "%[1]s·%[1]s", gofn: "elSquare[%[2]s]",
		note: "wrapping for integers",
		body: func(e *em, in []reg.Register) val {
			if e.t.float {
				return vv(e.Mul(in[0], in[0]))
			}
			return vv(e.IMul(in[0], in[0]))
		}}).add()
	(&efunc{stem: "Copysign", kind: kBinary, types: floatTypes, expr: "copysign(%s, %s)", gofn: "elCopysign%[1]s",
		note: "the magnitude bits of a with the sign bit of b (NaNs too)",
		body: func(e *em, in []reg.Register) val {
			return vv(e.Or(e.Abs(in[0]), e.And(in[1], e.CB(e.signBit()))))
		}}).add()
	(&efunc{stem: "Fmax", kind: kBinary, types: intTypes, expr: "max(%s, %s)", comm: true, gofn: "elMax[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.IMax(in[0], in[1])) }}).add()
	(&efunc{stem: "Fmin", kind: kBinary, types: intTypes, expr: "min(%s, %s)", comm: true, gofn: "elMin[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.IMin(in[0], in[1])) }}).add()
	(&efunc{stem: "Abs", kind: kUnary, types: []*etype{eU8}, expr: "%s", gofn: "elIdent[%[2]s]",
		note: "(uint8's abs is the identity)",
		body: func(e *em, in []reg.Register) val { return vv(in[0]) }}).add()
	(&efunc{stem: "Sign", kind: kUnary, types: intTypes, expr: "sign(%s)", gofn: "elSignInt[%[2]s]",
		note: "1, -1 or 0",
		body: func(e *em, in []reg.Register) val {
			one := e.CB(1)
			if e.t.unsigned {
				return vv(e.IMin(in[0], one))
			}
			return vv(e.IMin(e.IMax(in[0], e.CB(^uint64(0))), one))
		}}).add()
}
