package main

// float16 arithmetic on the elem kernels' skeleton (Note [One body, two
// instruction sets]): loads widen with VCVTPH2PS (exact), the body computes
// in float32, stores round once with VCVTPS2PH (to nearest even), as
// dtype.HalfFromFloat32 does after the float32 operation of the buffered
// path; a NaN lane is first made sign|exponent|quiet bit, which VCVTPS2PH
// turns into HalfFromFloat32's sign|0x7e00. At the AVX2 level the kernels
// need F16C (useF16C); the EVEX forms are AVX512F's own.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// eF16 is float16 in memory (its bits), computed as float32.
var eF16 = &etype{"F16", "uint16", 2, true, true}

// halfOps adds the float16 kernels to the table: add, sub, mul and div in
// float32, one rounding to float16; not comm, as bfloat16's (x86 keeps
// the first operand's NaN, whose sign the result keeps).
func halfOps() {
	f16 := []*etype{eF16}
	note := "in float32, rounded to float16"
	(&efunc{stem: "Add", kind: kBinary, types: f16, stream: true, expr: "%s + %s", gofn: "f16Add%.0[1]s",
		note: note, body: func(e *em, in []reg.Register) val { return vv(e.Add(in[0], in[1])) }}).add()
	(&efunc{stem: "Sub", kind: kBinary, types: f16, stream: true, expr: "%s - %s", gofn: "f16Sub%.0[1]s",
		note: note, body: func(e *em, in []reg.Register) val { return vv(e.Sub(in[0], in[1])) }}).add()
	(&efunc{stem: "Mul", kind: kBinary, types: f16, stream: true, expr: "%s * %s", gofn: "f16Mul%.0[1]s",
		note: note, body: func(e *em, in []reg.Register) val { return vv(e.Mul(in[0], in[1])) }}).add()
	(&efunc{stem: "Div", kind: kBinary, types: f16, stream: true, expr: "%s / %s", gofn: "f16Div%.0[1]s",
		note: note, body: func(e *em, in []reg.Register) val { return vv(e.Div(in[0], in[1])) }}).add()
}

// loadF16 widens the float16 elements at m into the float32 lanes of d;
// a tail goes through a masked word load, which does not fault past the
// end.
func (g *egen) loadF16(m Mem, d reg.Register) {
	if g.tail != nil {
		h := g.e.half()
		VMOVDQU16_Z(m, g.tail, h)
		VCVTPH2PS(h, d)
		return
	}
	VCVTPH2PS(m, d)
}

// toF16 returns the float32 lanes of r rounded to float16 as
// dtype.HalfFromFloat32 does, in a half-width register.
func (g *egen) toF16(r reg.Register) reg.Register {
	e := g.e
	q := e.Or(e.And(r, e.CB(0xff800000)), e.CB(0x00400000))
	x := e.Blend(e.IsNaN(r), r, q)
	h := e.half()
	VCVTPS2PH(U8(0), x, h)
	return h
}

// broadcastF16 loads the float16 at addr, widened, into every lane of d.
func broadcastF16(addr Mem, d reg.Register) {
	r, x := GP32(), XMM()
	MOVWLZX(addr, r)
	VMOVD(r, x)
	VCVTPH2PS(x, x)
	VBROADCASTSS(x, d)
}
