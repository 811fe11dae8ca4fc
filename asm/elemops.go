package main

// The table of vec's elementwise kernels: arithmetic, selection and
// comparisons (this file) and the float functions (elemmath.go). Each
// body must compute exactly what its twin's element function in vec's
// elem_go.go computes (Note [One body, two instruction sets]).

import (
	"github.com/mmcloughlin/avo/reg"
)

var (
	floatTypes = []*etype{eF32, eF64}
	intTypes   = []*etype{eI8, eI16, eI32, eI64, eU8}
	signedInts = []*etype{eI8, eI16, eI32, eI64}
	numTypes   = append(append([]*etype{}, floatTypes...), intTypes...)
)

func vv(r reg.Register) val { return val{v: r} }

// nanPass returns r with the NaN lanes of x put back unchanged.
func (e *em) nanPass(x, r reg.Register) reg.Register { return e.Blend(e.IsNaN(x), r, x) }

// fmaxGo is Go's max of floats: NaN if either is (b's NaN if both), +0
// for ±0 (the bits of equal operands and-ed), else the larger.
func (e *em) fmaxGo(a, b reg.Register) reg.Register {
	r := e.MaxX(a, b)
	r = e.Blend(e.Cmp(cmpEQ, a, b), r, e.And(a, b))
	r = e.Blend(e.IsNaN(a), r, a)
	return e.Blend(e.IsNaN(b), r, b)
}

// fminGo is Go's min of floats: -0 for ±0 (the bits or-ed).
func (e *em) fminGo(a, b reg.Register) reg.Register {
	r := e.MinX(a, b)
	r = e.Blend(e.Cmp(cmpEQ, a, b), r, e.Or(a, b))
	r = e.Blend(e.IsNaN(a), r, a)
	return e.Blend(e.IsNaN(b), r, b)
}

func elemOps() {
	(&efunc{stem: "Neg", kind: kUnary, types: append([]*etype{eF32, eF64}, intTypes...), expr: "-%s",
		gofn: "elNeg[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			if e.t.float {
				return vv(e.Xor(in[0], e.CB(e.signBit())))
			}
			return vv(e.INeg(in[0]))
		}}).add()
	(&efunc{stem: "Abs", kind: kUnary, types: append([]*etype{eF32, eF64}, signedInts...), expr: "|%s|",
		note: "the sign bit cleared for floats (NaN too); the least integer is its own", gofn: "abs%[1]s",
		body: func(e *em, in []reg.Register) val {
			if e.t.float {
				return vv(e.Abs(in[0]))
			}
			return vv(e.IAbs(in[0]))
		}}).add()
	(&efunc{stem: "Sqrt", stream: true, kind: kUnary, types: floatTypes, expr: "√%s",
		note: "correctly rounded; a NaN comes back unchanged",
		body: func(e *em, in []reg.Register) val { return vv(e.nanPass(in[0], e.Sqrt(in[0]))) }}).add()
	(&efunc{stem: "Relu", stream: true, kind: kUnary, types: numTypes, expr: "max(%s, 0)",
		note: "Go's max (+0 for -0, a NaN unchanged)", gofn: "elRelu[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			z := e.vec()
			e.zero(z)
			if e.t.float {
				return vv(e.fmaxGo(in[0], z))
			}
			return vv(e.IMax(in[0], z))
		}}).add()
	(&efunc{stem: "Maximum", stream: true, kind: kBinary, types: numTypes, expr: "max(%s, %s)", comm: true,
		note: "Go's max (NaN if either is, +0 of ±0)", gofn: "elMax[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			if e.t.float {
				return vv(e.fmaxGo(in[0], in[1]))
			}
			return vv(e.IMax(in[0], in[1]))
		}}).add()
	(&efunc{stem: "Minimum", stream: true, kind: kBinary, types: numTypes, expr: "min(%s, %s)", comm: true,
		note: "Go's min (NaN if either is, -0 of ±0)", gofn: "elMin[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			if e.t.float {
				return vv(e.fminGo(in[0], in[1]))
			}
			return vv(e.IMin(in[0], in[1]))
		}}).add()

	// C's fmax and fmin: a NaN operand ignored (b's NaN when both are);
	// not comm, for that NaN
	(&efunc{stem: "Fmax", kind: kBinary, types: floatTypes, expr: "fmax(%s, %s)",
		note: "C's fmax (a NaN operand ignored, b's NaN if both are, +0 of ±0)", gofn: "elFmax[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			a, b := in[0], in[1]
			r := e.Blend(e.IsNaN(b), e.fmaxGo(a, b), a)
			return vv(e.Blend(e.IsNaN(a), r, b))
		}}).add()
	(&efunc{stem: "Fmin", kind: kBinary, types: floatTypes, expr: "fmin(%s, %s)",
		note: "C's fmin (a NaN operand ignored, b's NaN if both are, -0 of ±0)", gofn: "elFmin[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			a, b := in[0], in[1]
			r := e.Blend(e.IsNaN(b), e.fminGo(a, b), a)
			return vv(e.Blend(e.IsNaN(a), r, b))
		}}).add()
	(&efunc{stem: "Not", kind: kUnary, types: intTypes, expr: "^%s", gofn: "elNot[%[2]s]",
		body: func(e *em, in []reg.Register) val {
			return vv(e.Xor(in[0], e.CB(^uint64(0)>>(64-8*e.t.size))))
		}}).add()

	// integer arithmetic (float add, sub and mul are vec.go's)
	(&efunc{stem: "Add", kind: kBinary, types: intTypes, stream: true, expr: "%s + %s", comm: true, gofn: "elAdd[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.IAdd(in[0], in[1])) }}).add()
	(&efunc{stem: "Sub", kind: kBinary, types: intTypes, stream: true, expr: "%s - %s", gofn: "elSub[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.ISub(in[0], in[1])) }}).add()
	(&efunc{stem: "Mul", kind: kBinary, types: intTypes, stream: true, expr: "%s * %s", comm: true, gofn: "elMul[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.IMul(in[0], in[1])) }}).add()
	(&efunc{stem: "And", kind: kBinary, types: intTypes, expr: "%s & %s", comm: true, gofn: "elAnd[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.And(in[0], in[1])) }}).add()
	(&efunc{stem: "Or", kind: kBinary, types: intTypes, expr: "%s | %s", comm: true, gofn: "elOr[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.Or(in[0], in[1])) }}).add()
	(&efunc{stem: "Xor", kind: kBinary, types: intTypes, expr: "%s ^ %s", comm: true, gofn: "elXor[%[2]s]",
		body: func(e *em, in []reg.Register) val { return vv(e.Xor(in[0], in[1])) }}).add()

	// bfloat16 arithmetic in float32, one rounding to bfloat16 (float32's
	// is vec.go's); not comm: of two NaNs, x86 keeps the first operand's
	// payload, so s∘a is its own kernel
	bf16 := []*etype{eBF16}
	(&efunc{stem: "Add", kind: kBinary, types: bf16, stream: true, expr: "%s + %s", gofn: "bf16Add%.0[1]s",
		note: "in float32, rounded to bfloat16", body: func(e *em, in []reg.Register) val { return vv(e.Add(in[0], in[1])) }}).add()
	(&efunc{stem: "Sub", kind: kBinary, types: bf16, stream: true, expr: "%s - %s", gofn: "bf16Sub%.0[1]s",
		note: "in float32, rounded to bfloat16", body: func(e *em, in []reg.Register) val { return vv(e.Sub(in[0], in[1])) }}).add()
	(&efunc{stem: "Mul", kind: kBinary, types: bf16, stream: true, expr: "%s * %s", gofn: "bf16Mul%.0[1]s",
		note: "in float32, rounded to bfloat16", body: func(e *em, in []reg.Register) val { return vv(e.Mul(in[0], in[1])) }}).add()
	(&efunc{stem: "Div", kind: kBinary, types: bf16, stream: true, expr: "%s / %s", gofn: "bf16Div%.0[1]s",
		note: "in float32, rounded to bfloat16", body: func(e *em, in []reg.Register) val { return vv(e.Div(in[0], in[1])) }}).add()

	// comparisons into bool
	for _, c := range []struct {
		stem, op, mirror string
		f, i             uint8
	}{
		{"Eq", "==", "Eq", cmpEQ, icmpEQ}, {"Ne", "!=", "Ne", cmpNE, icmpNE},
		{"Lt", "<", "Gt", cmpLT, icmpLT}, {"Le", "<=", "Ge", cmpLE, icmpLE},
		{"Gt", ">", "Lt", cmpGT, icmpGT}, {"Ge", ">=", "Le", cmpGE, icmpGE},
	} {
		c := c
		(&efunc{stem: c.stem, kind: kCompare, types: numTypes, expr: "%s " + c.op + " %s", mirror: c.mirror,
			gofn: "el" + c.stem + "[%[2]s]",
			body: func(e *em, in []reg.Register) val {
				if e.t.float {
					return val{m: e.Cmp(c.f, in[0], in[1])}
				}
				return val{m: e.ICmp(c.i, in[0], in[1])}
			}}).add()
	}
}
