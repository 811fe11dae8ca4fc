package main

// Integer operations of the emitter (elem.go), for lanes of the compute
// type's width, signed or (uint8) unsigned, wrapping as Go's integer
// arithmetic does.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// IMul is a·b, wrapping.
func (e *em) IMul(a, b Op) reg.Register {
	switch {
	case e.t.size == 2:
		return e.op3(VPMULLW, a, b)
	case e.t.size == 4:
		return e.op3(VPMULLD, a, b)
	case e.t.size == 8 && e.isa.evex():
		return e.op3(VPMULLQ, a, b)
	case e.t.size == 8:
		// lo·lo + (hi·lo + lo·hi)<<32, each product of 32-bit halves
		ar, br := e.reg(a), e.reg(b)
		ll := e.op3(VPMULUDQ, ar, br)
		ah, bh := e.Shr(ar, 32), e.Shr(br, 32)
		hl := e.op3(VPMULUDQ, ah, br)
		lh := e.op3(VPMULUDQ, ar, bh)
		return e.IAdd(ll, e.Shl(e.IAdd(hl, lh), 32))
	}
	// bytes: the even bytes' products in the low halves of words, the odd
	// bytes' shifted into the high halves
	ar, br := e.reg(a), e.reg(b)
	even := e.op3(VPMULLW, ar, br)
	wide := *e
	wide.t = eI16
	odd := e.op3(VPMULLW, wide.Shr(ar, 8), wide.Shr(br, 8))
	odd = wide.Shl(odd, 8)
	even = e.And(even, e.CW(2, 0x00ff))
	return e.Or(even, odd)
}

// IMax and IMin are the larger and smaller of a and b.
func (e *em) IMax(a, b Op) reg.Register { return e.iminmax(a, b, true) }
func (e *em) IMin(a, b Op) reg.Register { return e.iminmax(a, b, false) }

func (e *em) iminmax(a, b Op, isMax bool) reg.Register {
	pick := func(mx, mn func(...Op)) reg.Register {
		if isMax {
			return e.op3(mx, a, b)
		}
		return e.op3(mn, a, b)
	}
	switch {
	case e.t.unsigned:
		return pick(VPMAXUB, VPMINUB)
	case e.t.size == 1:
		return pick(VPMAXSB, VPMINSB)
	case e.t.size == 2:
		return pick(VPMAXSW, VPMINSW)
	case e.t.size == 4:
		return pick(VPMAXSD, VPMINSD)
	case e.isa.evex():
		return pick(VPMAXSQ, VPMINSQ)
	}
	gt := e.ICmp(icmpGT, a, b)
	if isMax {
		return e.Blend(gt, b, a)
	}
	return e.Blend(gt, a, b)
}

// Abstract comparison predicates of ICmp (VPCMP's immediates).
const (
	icmpEQ = 0
	icmpLT = 1
	icmpLE = 2
	icmpNE = 4
	icmpGE = 5
	icmpGT = 6
)

// ICmp compares integers: a pred b in each lane (pred one of icmp*).
func (e *em) ICmp(pred uint8, a, b Op) *mask {
	if e.isa.evex() {
		k := K()
		var ins func(...Op)
		switch {
		case e.t.unsigned:
			ins = VPCMPUB
		case e.t.size == 1:
			ins = VPCMPB
		case e.t.size == 2:
			ins = VPCMPW
		case e.t.size == 4:
			ins = VPCMPD
		default:
			ins = VPCMPQ
		}
		ins(U8(pred), b, e.reg(a), k)
		return &mask{k}
	}
	ar, br := e.reg(a), e.reg(b)
	if e.t.unsigned {
		flip := e.CB(0x80)
		ar, br = e.Xor(ar, flip), e.Xor(br, flip)
	}
	eq := func(x, y reg.Register) *mask {
		return &mask{e.op3(e.isel(VPCMPEQB, VPCMPEQW, VPCMPEQD, VPCMPEQQ), x, y)}
	}
	gt := func(x, y reg.Register) *mask { // x > y
		return &mask{e.op3(e.isel(VPCMPGTB, VPCMPGTW, VPCMPGTD, VPCMPGTQ), x, y)}
	}
	switch pred {
	case icmpEQ:
		return eq(ar, br)
	case icmpNE:
		return e.MNot(eq(ar, br))
	case icmpGT:
		return gt(ar, br)
	case icmpLT:
		return gt(br, ar)
	case icmpGE:
		return e.MNot(gt(br, ar))
	case icmpLE:
		return e.MNot(gt(ar, br))
	}
	panic("ICmp: bad predicate")
}

// INeg is 0 − a, IAbs |a| (wrapping: the least value is its own).
func (e *em) INeg(a Op) reg.Register {
	z := e.vec()
	e.zero(z)
	return e.ISub(z, a)
}

func (e *em) IAbs(a Op) reg.Register {
	if e.t.size == 8 && !e.isa.evex() {
		neg := e.INeg(a)
		return e.Blend(&mask{e.reg(a)}, a, neg) // the sign bit picks -a (VBLENDVPD reads it)
	}
	d := e.vec()
	e.isel(VPABSB, VPABSW, VPABSD, VPABSQ)(a, d)
	return d
}

// zero clears r.
func (e *em) zero(r reg.Register) {
	if e.isa.evex() {
		VPXORD(r, r, r)
	} else {
		VPXOR(r, r, r)
	}
}
