package main

// Integer pow (PyTorch's powi, optable/elem's PowInt and PowUint8) for
// every integer width, and the loop constructs of the emitter it needs.
//
// Note [Integer pow]
// a^b is repeated squaring, wrapping: r = 1; for b != 0 { if b odd,
// r *= a; b >>= 1; a *= a }. A negative exponent (signed types) gives
// 1/a^|b| truncated: 1 for a = 1, ±1 for a = −1 (the sign by b's
// parity), 0 for every other base; that is a^(b&1) for a = ±1 and 0
// elsewhere, so the kernels run the squaring on b&1 there and zero the
// other bases' lanes at the end.
//
// With a vector of exponents the squaring is a loop over the exponent
// bits that runs while any lane has bits left (WhileNonzero): each lane
// takes the product only where its bit is set (a blend), so a vector
// costs as many rounds as its largest exponent has bits. With a scalar
// exponent (x**2, x**3: the common case) the bits are the same in every
// lane and the loop is steered by the exponent in a general-purpose
// register: the rounds below the lowest set bit only square, that bit
// sets r = a^(2^k) without a multiply, and each higher bit costs a
// squaring and, where set, one product (x**2 is one multiply, x**3 two).
// The vector multiply of 64-bit lanes is VPMULLQ with AVX-512 (DQ) and
// three VPMULUDQ of 32-bit halves with AVX2 (IMul in elemint.go): exact
// mod 2^64 either way, so int64 is vectorised at both levels.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Set copies src into the loop-carried register dst (a value a loop
// updates must stay in one register across the back edge).
func (e *em) Set(dst reg.Register, src Op) { e.mov(src, dst) }

// WhileNonzero emits `for v() has a nonzero bit { body() }`: v is
// evaluated before each round (it may return a loop-carried register).
// The caller makes the loop end (e.g. shifting an exponent right each
// round); values carried from round to round are updated with Set.
func (e *em) WhileNonzero(v func() reg.Register, body func()) {
	top, exit := e.label("while"), e.label("wend")
	Label(top)
	e.jumpIfZero(v(), exit)
	body()
	JMP(LabelRef(top))
	Label(exit)
}

// jumpIfZero jumps to label if every bit of v is zero.
func (e *em) jumpIfZero(v reg.Register, label string) {
	if e.isa.evex() {
		k := K()
		VPTESTMQ(v, v, k)
		KORTESTW(k, k)
	} else {
		VPTEST(v, v)
	}
	JZ(LabelRef(label))
}

// ScalarGP returns the broadcast scalar operand s (a register of
// e.scalars) as an int64 in a general-purpose register, sign-extended
// (zero-extended for unsigned types) from the compute type's width.
func (e *em) ScalarGP(s reg.Register) reg.GPVirtual {
	g := GP64()
	VMOVQ(s.(reg.VecVirtual).AsX(), g)
	switch {
	case e.t.size == 1 && e.t.unsigned:
		MOVBQZX(g.As8(), g)
	case e.t.size == 1:
		MOVBQSX(g.As8(), g)
	case e.t.size == 2:
		MOVWQSX(g.As16(), g)
	case e.t.size == 4:
		MOVLQSX(g.As32(), g)
	}
	return g
}

// isScalar reports whether r is a broadcast scalar operand of the kernel.
func (e *em) isScalar(r reg.Register) bool {
	for _, s := range e.scalars {
		if s == r {
			return true
		}
	}
	return false
}

// IShr1 shifts every integer lane right by one bit, logically (bytes
// through 16-bit shifts: x86 has no byte shifts).
func (e *em) IShr1(a Op) reg.Register {
	if e.t.size > 1 {
		return e.Shr(a, 1)
	}
	w := *e
	w.t = eI16
	return e.And(w.Shr(a, 1), e.CB(0x7f))
}

// IOdd is the mask of the lanes whose lowest bit is set.
func (e *em) IOdd(a Op) *mask {
	one := e.CB(1)
	s := *e // equality ignores signedness: skip ICmp's unsigned bias
	if s.t.unsigned {
		s.t = eI8
	}
	return s.ICmp(icmpEQ, e.And(a, one), one)
}

// ISquare is a·a, wrapping: IMul, but for 64-bit lanes without VPMULLQ
// lo·lo + (hi·lo)<<33, two VPMULUDQ where IMul's product needs three.
func (e *em) ISquare(a reg.Register) reg.Register {
	if e.t.size != 8 || e.isa.evex() {
		return e.IMul(a, a)
	}
	ll := e.op3(VPMULUDQ, a, a)
	hl := e.op3(VPMULUDQ, e.Shr(a, 32), a)
	return e.IAdd(ll, e.Shl(hl, 33))
}

// powIntBody is a^b of Note [Integer pow].
func powIntBody(e *em, in []reg.Register) val {
	a, b := in[0], in[1]
	if e.isScalar(b) {
		return vv(e.powScalarExp(a, b))
	}
	one := e.CB(1)
	ex := b
	var neg *mask
	if !e.t.unsigned {
		z := e.vec()
		e.zero(z)
		neg = e.ICmp(icmpLT, b, z)
		ex = e.Blend(neg, b, e.And(b, one))
	}
	x := e.copy(a)
	r := e.Blend(e.IOdd(ex), one, x) // bit 0 without a multiply
	ex = e.IShr1(ex)
	e.WhileNonzero(func() reg.Register { return ex }, func() {
		e.Set(x, e.ISquare(x))
		e.Set(r, e.Blend(e.IOdd(ex), r, e.IMul(r, x)))
		e.Set(ex, e.IShr1(ex))
	})
	if neg == nil {
		return vv(r)
	}
	return vv(e.Blend(e.MAndNot(e.isPlusMinusOne(a), neg), r, e.zeroVec()))
}

// isPlusMinusOne is the mask of the lanes of a holding 1 or −1.
func (e *em) isPlusMinusOne(a reg.Register) *mask {
	return e.MOr(e.ICmp(icmpEQ, a, e.CB(1)), e.ICmp(icmpEQ, a, e.CB(^uint64(0))))
}

func (e *em) zeroVec() reg.Register {
	z := e.vec()
	e.zero(z)
	return z
}

// powScalarExp is a^s for the broadcast scalar exponent s, steered by s in
// a general-purpose register (Note [Integer pow]).
func (e *em) powScalarExp(a, s reg.Register) reg.Register {
	ex := e.ScalarGP(s)
	var negf reg.GPVirtual
	if !e.t.unsigned {
		negf = GP64()
		XORQ(negf, negf)
		pos := e.label("pos")
		TESTQ(ex, ex)
		JNS(LabelRef(pos))
		ANDQ(U8(1), ex)
		MOVQ(U32(1), negf)
		Label(pos)
	}
	x := e.copy(a)
	r := e.copy(e.CB(1))
	done := e.label("pdone")
	strip, found, loop, skip := e.label("strip"), e.label("found"), e.label("ploop"), e.label("pskip")
	TESTQ(ex, ex)
	JZ(LabelRef(done))
	// the bits below the lowest set one only square
	Label(strip)
	BTQ(U8(0), ex)
	JCS(LabelRef(found))
	e.Set(x, e.ISquare(x))
	SHRQ(U8(1), ex)
	JMP(LabelRef(strip))
	Label(found)
	e.Set(r, x)
	SHRQ(U8(1), ex)
	JZ(LabelRef(done))
	Label(loop)
	e.Set(x, e.ISquare(x))
	BTQ(U8(0), ex)
	JCC(LabelRef(skip))
	e.Set(r, e.IMul(r, x))
	Label(skip)
	SHRQ(U8(1), ex)
	JNZ(LabelRef(loop))
	Label(done)
	if negf == nil {
		return r
	}
	end := e.label("pend")
	TESTQ(negf, negf)
	JZ(LabelRef(end))
	e.Set(r, e.Blend(e.MNot(e.isPlusMinusOne(a)), r, e.zeroVec()))
	Label(end)
	return r
}

// powIntOps adds integer pow to the table.
func powIntOps() {
	(&efunc{stem: "Pow", kind: kBinary, types: intTypes, expr: "%s^%s", gofn: "elPow[%[2]s]", unroll: 2, body: powIntBody,
		note: "by repeated squaring, wrapping; a negative exponent gives 1 for a = 1, ±1 for a = -1, else 0 (PyTorch's powi)"}).add()
}
