package main

// Variable integer shifts of every width (bitwise_left_shift and
// bitwise_right_shift): Go's a << uint64(b) and a >> uint64(b), which are
// PyTorch's (a count that is negative or at least the width gives 0, or
// the sign for >> of signed a). x86's variable shifts take each lane's
// count as unsigned and give 0 (VPSRAV*: the sign) from the width on, so
// they are exactly that where they exist: words and bytes borrow them a
// width up. Twins: vec's elem_extra_go.go.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Shift kinds.
const (
	shLeft  = iota
	shRight // logical for unsigned lanes, arithmetic for signed
)

// at returns e computing on lanes of type t.
func (e *em) at(t *etype) *em {
	w := *e
	w.t = t
	return &w
}

// VShift shifts each lane of a by the lane of c.
func (e *em) VShift(kind int, a, c Op) reg.Register {
	arith := kind == shRight && !e.t.unsigned
	switch e.t.size {
	case 8:
		switch {
		case kind == shLeft:
			return e.op3(VPSLLVQ, a, c)
		case !arith:
			return e.op3(VPSRLVQ, a, c)
		case e.isa.evex():
			return e.op3(VPSRAVQ, a, c)
		}
		// (a ^ s) >> c ^ s, s = a's sign in every bit: AVX2 has no
		// VPSRAVQ
		z := e.vec()
		e.zero(z)
		s := e.op3(VPCMPGTQ, z, a) // 0 > a
		return e.Xor(e.op3(VPSRLVQ, e.Xor(a, s), c), s)
	case 4:
		switch {
		case kind == shLeft:
			return e.op3(VPSLLVD, a, c)
		case !arith:
			return e.op3(VPSRLVD, a, c)
		}
		return e.op3(VPSRAVD, a, c)
	case 2:
		if e.isa.evex() {
			switch {
			case kind == shLeft:
				return e.op3(VPSLLVW, a, c)
			case !arith:
				return e.op3(VPSRLVW, a, c)
			}
			return e.op3(VPSRAVW, a, c)
		}
		return e.halves(kind, arith, a, c, eI32, eU32)
	}
	return e.halves(kind, arith, a, c, eI16, eU16)
}

// Lane types of the halves: the doubled widths, signed and unsigned.
var (
	eU16 = &etype{"U16", "uint16", 2, false, true}
	eU32 = &etype{"U32", "uint32", 4, false, true}
)

// halves shifts lanes of e.t's width through lanes twice as wide (signed
// type ws, unsigned wu): the low half of each wide lane with its count
// zero-extended, the high half in place with its count shifted down, the
// results' halves put back together.
func (e *em) halves(kind int, arith bool, a, c Op, ws, wu *etype) reg.Register {
	bits := uint8(8 * e.t.size)
	lowMask := uint64(1)<<bits - 1
	w := e.at(wu)
	cl := w.And(c, w.CB(lowMask))
	ch := w.Shr(c, bits)
	var lo, hi reg.Register
	switch {
	case kind == shLeft:
		lo = w.VShift(shLeft, a, cl)
		hi = w.VShift(shLeft, w.AndNot(w.CB(lowMask), a), ch)
	case !arith:
		lo = w.VShift(shRight, w.And(a, w.CB(lowMask)), cl)
		hi = w.VShift(shRight, a, ch)
	default:
		s := e.at(ws)
		lo = s.VShift(shRight, s.Sar(s.Shl(a, bits), bits), cl) // the low half sign-extended
		hi = s.VShift(shRight, a, ch)
	}
	return w.Or(w.And(lo, w.CB(lowMask)), w.AndNot(w.CB(lowMask), hi))
}

func shiftOps() {
	(&efunc{stem: "Shl", kind: kBinary, types: intTypes, expr: "%s << %s", gofn: "elShl[%[2]s]",
		note: "the count as unsigned: 0 from the width on (PyTorch's)",
		body: func(e *em, in []reg.Register) val { return vv(e.VShift(shLeft, in[0], in[1])) }}).add()
	(&efunc{stem: "Shr", kind: kBinary, types: intTypes, expr: "%s >> %s", gofn: "elShr[%[2]s]",
		note: "arithmetic for signed lanes, the count as unsigned: 0 or the sign from the width on (PyTorch's)",
		body: func(e *em, in []reg.Register) val { return vv(e.VShift(shRight, in[0], in[1])) }}).add()
}
