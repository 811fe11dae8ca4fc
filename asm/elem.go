package main

// This file is the skeleton of vec's elementwise kernels (run with -part
// elem: zz_elem_amd64.s, zz_elem_stubs_amd64.go and the Go API of
// zz_elem_amd64.go, zz_elem_other.go and zz_elem_test.go): every unary,
// binary and comparison kernel of the table in elemops.go, for AVX2 and
// for AVX-512, from one description.
//
// Note [One body, two instruction sets]
// A kernel's body is written once, against the emitter em: vector
// operations (e.Add, e.FMA, e.Cmp, e.Blend, ...) on values of the kernel's
// compute type, which em turns into AVX2 instructions on YMM registers
// (masks are vectors of all-ones lanes, blends VBLENDVPS) or AVX-512 ones
// on ZMM registers (masks are K registers, blends VBLENDMPS). Both use
// only instructions whose results are defined bit for bit by IEEE 754 or
// by integer arithmetic (no approximate reciprocals, no VSCALEF, no
// VGETMANT), so that both levels give exactly what the pure-Go twin of the
// kernel gives, and the tests compare all three bit for bit.
//
// The loops: unroll vectors per iteration, then one vector at a time,
// then the tail of fewer than a vector's lanes. AVX-512 runs the tail as
// one more vector under a mask (masked loads zero the lanes past the end
// and do not fault; masked stores leave them alone). AVX2 has no masked
// moves for bytes and words, so it copies the tail of each input into a
// zeroed buffer on the stack, runs the body once there, and copies the
// results back: the same instructions on the same values, nothing read or
// written outside the slices.
//
// Kernels with a slow path (trigonometry far from 0, pow's special
// operands) flag the lanes the vector code does not handle: the kernel
// returns true if any lane of any vector was flagged, and the Go wrapper
// then recomputes the flagged elements with the twin's element function
// (which takes the slow path there). Flags may be raised on the zero
// lanes of a tail: that costs a scan, never a wrong result.

import (
	"fmt"
	"math"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// etype is an element type of the elementwise kernels.
type etype struct {
	name, gotype string // F32, float32
	size         int
	float        bool
	unsigned     bool
}

var (
	eF32  = &etype{"F32", "float32", 4, true, false}
	eF64  = &etype{"F64", "float64", 8, true, false}
	eI8   = &etype{"I8", "int8", 1, false, false}
	eI16  = &etype{"I16", "int16", 2, false, false}
	eI32  = &etype{"I32", "int32", 4, false, false}
	eI64  = &etype{"I64", "int64", 8, false, false}
	eU8   = &etype{"U8", "uint8", 1, false, true}
	eBool = &etype{"Bool", "bool", 1, false, true}
	// eBF16 is bfloat16 in memory (its bits, as vec's conversions take
	// them), computed as float32: loads widen it exactly, stores round to
	// nearest even as dtype.BF16FromFloat32 does (Note [Bfloat16 kernels]
	// in vec's elem_go.go).
	eBF16 = &etype{"BF16", "uint16", 2, true, true}
)

// isa is one instruction set level the kernels are generated for.
type isa struct {
	name  string // AVX2, AVX512
	bytes int    // vector width
}

var (
	isaAVX2   = &isa{"AVX2", 32}
	isaAVX512 = &isa{"AVX512", 64}
)

func (s *isa) evex() bool { return s.bytes == 64 }

// ---------------------------------------------------------------------------
// Constants

// elConsts holds the constant pool: one DATA symbol of a vector's width
// per (width, element size, bits).
var elConsts = map[string]Mem{}

// constMem returns a vector-wide constant of elements of size bytes, each
// holding bits.
func constMem(width, size int, bits uint64) Mem {
	key := fmt.Sprintf("elc%d_%d_%x", width, size, bits)
	if m, ok := elConsts[key]; ok {
		return m
	}
	m := GLOBL(key, RODATA|NOPTR)
	for off := 0; off < width; off += size {
		switch size {
		case 1:
			DATA(off, U8(uint8(bits)))
		case 2:
			DATA(off, U16(uint16(bits)))
		case 4:
			DATA(off, U32(uint32(bits)))
		default:
			DATA(off, U64(bits))
		}
	}
	elConsts[key] = m
	return m
}

// ---------------------------------------------------------------------------
// The emitter

// mask is a per-lane condition: a vector of all-ones or zero lanes
// (AVX2) or an opmask register (AVX-512).
type mask struct{ r reg.Register }

// val is a kernel body's result: a vector, or a mask for comparisons.
type val struct {
	v reg.Register
	m *mask
}

// em emits vector operations on values of type t at level isa (Note [One
// body, two instruction sets]).
type em struct {
	isa *isa
	t   *etype
	k   *ekernel
	// flags accumulates the lanes flagged for the slow path (nil: the
	// kernel has none).
	flags reg.Register
	// scalars holds the broadcast scalar operands by parameter name.
	scalars map[string]reg.Register
	labels  int
}

// lanes is the number of elements of type t in a vector.
func (e *em) lanes() int { return e.isa.bytes / e.t.size }

// vec returns a fresh vector register.
func (e *em) vec() reg.Register {
	if e.isa.evex() {
		return ZMM()
	}
	return YMM()
}

// half returns a fresh register of half a vector.
func (e *em) half() reg.Register {
	if e.isa.evex() {
		return YMM()
	}
	return XMM()
}

func (e *em) label(s string) string {
	e.labels++
	return fmt.Sprintf("%s_%s%d", e.k.fname, s, e.labels)
}

// C returns the constant v of the float compute type.
func (e *em) C(v float64) Op {
	if e.t == eF32 {
		return e.CW(4, uint64(math.Float32bits(float32(v))))
	}
	return e.CW(8, math.Float64bits(v))
}

// CB returns a constant of lanes of the compute type's width holding bits.
func (e *em) CB(bits uint64) Op { return e.CW(e.t.size, bits) }

// CW returns a constant of lanes of size bytes holding bits: a memory
// operand of the vector's width, or at AVX-512 a register broadcast from
// 32 bytes (Note [Constants at AVX-512]).
func (e *em) CW(size int, bits uint64) Op {
	if !e.isa.evex() {
		return constMem(e.isa.bytes, size, bits)
	}
	r := ZMM()
	VBROADCASTI64X4(constMem(32, size, bits), r)
	return r
}

// Note [Constants at AVX-512]
// The linker aligns a data symbol to at most 32 bytes, so a 64-byte
// constant read as a memory operand crosses a cache line whenever the
// symbol lands on an odd 32-byte boundary, and all of a kernel's
// constants move together with the binary's layout: exp_f64 and sin_f32
// ran at 11.0 and 7.4 ms in one build and 5.4 and 4.8 ms in another that
// differed by an unrelated line of Go. At AVX-512 a constant is therefore
// the 32-byte symbol of AVX2, broadcast to both halves of a register
// (VBROADCASTI64X4), a load that never splits.

// reg returns op in a register: op itself, or a load of a constant.
func (e *em) reg(op Op) reg.Register {
	if r, ok := op.(reg.Register); ok {
		return r
	}
	r := e.vec()
	e.mov(op, r)
	return r
}

// mov copies a vector (or loads a full-width memory operand).
func (e *em) mov(src Op, dst reg.Register) {
	switch {
	case e.t == eF32:
		VMOVUPS(src, dst)
	case e.t == eF64:
		VMOVUPD(src, dst)
	case e.isa.evex():
		VMOVDQU64(src, dst)
	default:
		VMOVDQU(src, dst)
	}
}

// copy returns a copy of a in a fresh register.
func (e *em) copy(a Op) reg.Register {
	d := e.vec()
	e.mov(a, d)
	return d
}

func (e *em) ps() bool { return e.t == eF32 }

// op3 emits a three-operand instruction d = a ∘ b (Go order: b, a, d),
// with b possibly in memory.
func (e *em) op3(ins func(...Op), a, b Op) reg.Register {
	d := e.vec()
	ins(b, e.reg(a), d)
	return d
}

func (e *em) fsel(ps, pd func(...Op)) func(...Op) {
	if e.ps() {
		return ps
	}
	return pd
}

// Float arithmetic, rounded as IEEE 754 says.
func (e *em) Add(a, b Op) reg.Register { return e.op3(e.fsel(VADDPS, VADDPD), a, b) }
func (e *em) Sub(a, b Op) reg.Register { return e.op3(e.fsel(VSUBPS, VSUBPD), a, b) }
func (e *em) Mul(a, b Op) reg.Register { return e.op3(e.fsel(VMULPS, VMULPD), a, b) }
func (e *em) Div(a, b Op) reg.Register { return e.op3(e.fsel(VDIVPS, VDIVPD), a, b) }

// MinX and MaxX are x86's min and max: a < b ? a : b and a > b ? a : b,
// so b where either is NaN (and where both are zeros).
func (e *em) MinX(a, b Op) reg.Register { return e.op3(e.fsel(VMINPS, VMINPD), a, b) }
func (e *em) MaxX(a, b Op) reg.Register { return e.op3(e.fsel(VMAXPS, VMAXPD), a, b) }

// Sqrt is the correctly rounded square root.
func (e *em) Sqrt(a Op) reg.Register {
	d := e.vec()
	e.fsel(VSQRTPS, VSQRTPD)(a, d)
	return d
}

// fma3 emits d = ±a·b ± c, one rounding, choosing the form by which operand
// is in memory; f213 and f231 are the VFxxx213 and VFxxx231 forms of the
// same operation.
func (e *em) fma3(f213, f231 func(...Op), a, b, c Op) reg.Register {
	if _, mem := c.(Mem); mem {
		d := e.copy(a)
		f213(c, e.reg(b), d) // d = b·d + c
		return d
	}
	d := e.copy(c)
	f231(b, e.reg(a), d) // d = a·b + d
	return d
}

// FMA is a·b + c, FMS a·b − c, FNMA c − a·b, each rounded once.
func (e *em) FMA(a, b, c Op) reg.Register {
	return e.fma3(e.fsel(VFMADD213PS, VFMADD213PD), e.fsel(VFMADD231PS, VFMADD231PD), a, b, c)
}
func (e *em) FMS(a, b, c Op) reg.Register {
	return e.fma3(e.fsel(VFMSUB213PS, VFMSUB213PD), e.fsel(VFMSUB231PS, VFMSUB231PD), a, b, c)
}
func (e *em) FNMA(a, b, c Op) reg.Register {
	return e.fma3(e.fsel(VFNMADD213PS, VFNMADD213PD), e.fsel(VFNMADD231PS, VFNMADD231PD), a, b, c)
}

// Horner evaluates c[0]·x^k + ... + c[k] with fused steps p = p·x + c.
func (e *em) Horner(x reg.Register, c ...float64) reg.Register {
	p := e.FMA(x, e.C(c[0]), e.C(c[1]))
	for _, ck := range c[2:] {
		p = e.FMA(p, x, e.C(ck))
	}
	return p
}

// Rounding modes of Round.
const (
	rNearest = 0
	rFloor   = 1
	rCeil    = 2
	rTrunc   = 3
)

// Round rounds to an integral value in mode (rNearest: ties to even).
func (e *em) Round(a Op, mode uint8) reg.Register {
	d := e.vec()
	switch {
	case e.isa.evex() && e.ps():
		VRNDSCALEPS(U8(mode), a, d)
	case e.isa.evex():
		VRNDSCALEPD(U8(mode), a, d)
	case e.ps():
		VROUNDPS(U8(mode), a, d)
	default:
		VROUNDPD(U8(mode), a, d)
	}
	return d
}

// Bitwise operations on the lanes' bits.
func (e *em) And(a, b Op) reg.Register {
	return e.op3(e.bitop(VANDPS, VANDPD, x3(VPAND), VPANDD, VPANDQ), a, b)
}
func (e *em) Or(a, b Op) reg.Register {
	return e.op3(e.bitop(VORPS, VORPD, x3(VPOR), VPORD, VPORQ), a, b)
}
func (e *em) Xor(a, b Op) reg.Register {
	return e.op3(e.bitop(VXORPS, VXORPD, x3(VPXOR), VPXORD, VPXORQ), a, b)
}

// AndNot is ^a & b.
func (e *em) AndNot(a, b Op) reg.Register {
	return e.op3(e.bitop(VANDNPS, VANDNPD, x3(VPANDN), VPANDND, VPANDNQ), a, b)
}

func (e *em) bitop(ps, pd, p, pdd, pq func(...Op)) func(...Op) {
	switch {
	case e.t == eF32:
		return ps
	case e.t == eF64:
		return pd
	case !e.isa.evex():
		return p
	case e.t.size == 8:
		return pq
	}
	return pdd
}

// Abs clears the sign bit of a float.
func (e *em) Abs(a Op) reg.Register { return e.And(a, e.CB(e.signBit()-1)) }

// signBit is the sign bit of the float compute type.
func (e *em) signBit() uint64 { return 1 << (8*e.t.size - 1) }

// Integer arithmetic on lanes of the compute type's width (also on the
// bits of float lanes).
func (e *em) IAdd(a, b Op) reg.Register { return e.op3(e.isel(VPADDB, VPADDW, VPADDD, VPADDQ), a, b) }
func (e *em) ISub(a, b Op) reg.Register { return e.op3(e.isel(VPSUBB, VPSUBW, VPSUBD, VPSUBQ), a, b) }

func (e *em) isel(b, w, d, q func(...Op)) func(...Op) {
	switch e.t.size {
	case 1:
		return b
	case 2:
		return w
	case 4:
		return d
	}
	return q
}

// Shl, Shr and Sar shift every lane by n bits (Sar arithmetic, for lanes
// of 2 and 4 bytes, or 8 with AVX-512).
func (e *em) Shl(a Op, n uint8) reg.Register {
	return e.shift(e.isel(nil, VPSLLW, VPSLLD, VPSLLQ), a, n)
}
func (e *em) Shr(a Op, n uint8) reg.Register {
	return e.shift(e.isel(nil, VPSRLW, VPSRLD, VPSRLQ), a, n)
}
func (e *em) Sar(a Op, n uint8) reg.Register {
	return e.shift(e.isel(nil, VPSRAW, VPSRAD, VPSRAQ), a, n)
}

func (e *em) shift(ins func(...Op), a Op, n uint8) reg.Register {
	d := e.vec()
	ins(U8(n), e.reg(a), d)
	return d
}

// Pow2 returns 2^n for lanes holding integral floats n whose 2^n is a
// normal float: the exponent bits built from n + 1.5·2^(mantissa bits),
// whose low bits are n (Note [Unary kernels] in vec's elem_go.go).
func (e *em) Pow2(n Op) reg.Register {
	if e.ps() {
		t := e.Add(n, e.C(0x1.8p23))
		t = e.IAdd(t, e.CB(127))
		return e.Shl(t, 23)
	}
	t := e.Add(n, e.C(0x1.8p52))
	t = e.IAdd(t, e.CB(1023))
	return e.Shl(t, 52)
}

// Comparison predicates (VCMPPS's immediates).
const (
	cmpEQ  = 0x00 // ordered, equal
	cmpLT  = 0x01 // ordered, less
	cmpLE  = 0x02
	cmpUNO = 0x03 // either is NaN
	cmpNE  = 0x04 // unordered or not equal
	cmpNLT = 0x05 // unordered or not less
	cmpNLE = 0x06
	cmpORD = 0x07
	cmpGE  = 0x0d // ordered
	cmpGT  = 0x0e // ordered
)

// Cmp compares floats: a pred b in each lane.
func (e *em) Cmp(pred uint8, a, b Op) *mask {
	var d reg.Register
	if e.isa.evex() {
		d = K()
	} else {
		d = e.vec()
	}
	e.fsel(VCMPPS, VCMPPD)(U8(pred), b, e.reg(a), d)
	return &mask{d}
}

// IsNaN is the mask of NaN lanes.
func (e *em) IsNaN(a reg.Register) *mask { return e.Cmp(cmpUNO, a, a) }

// Blend returns m ? t : f, lane by lane; t may be a constant.
func (e *em) Blend(m *mask, f, t Op) reg.Register {
	d := e.vec()
	fr := e.reg(f)
	if e.isa.evex() {
		// avo reads a blend's K operand as a merging write mask, so d as
		// an input too: d = f first, or d would be live (and hold a
		// register) from the kernel's entry (a register move, which the
		// core eliminates at rename)
		e.mov(fr, d)
		switch e.t.size {
		case 1:
			VPBLENDMB(t, d, m.r, d)
		case 2:
			VPBLENDMW(t, d, m.r, d)
		case 4:
			VBLENDMPS(t, d, m.r, d)
		default:
			VBLENDMPD(t, d, m.r, d)
		}
		return d
	}
	switch {
	case e.t == eF32 || e.t.size == 4 && !e.t.float:
		VBLENDVPS(m.r, t, fr, d)
	case e.t.size == 8:
		VBLENDVPD(m.r, t, fr, d)
	default:
		VPBLENDVB(m.r, t, fr, d)
	}
	return d
}

// Mask logic.
func (e *em) MAnd(a, b *mask) *mask {
	return e.mlogic(x3(KANDB), x3(KANDW), x3(KANDD), x3(KANDQ), x3(VPAND), a, b)
}
func (e *em) MOr(a, b *mask) *mask {
	return e.mlogic(x3(KORB), x3(KORW), x3(KORD), x3(KORQ), x3(VPOR), a, b)
}

// MAndNot is ^a & b.
func (e *em) MAndNot(a, b *mask) *mask {
	return e.mlogic(x3(KANDNB), x3(KANDNW), x3(KANDND), x3(KANDNQ), x3(VPANDN), a, b)
}

func (e *em) mlogic(kb, kw, kd, kq, v func(...Op), a, b *mask) *mask {
	if !e.isa.evex() {
		d := e.vec()
		v(b.r, a.r, d)
		return &mask{d}
	}
	d := K()
	e.ksel(kb, kw, kd, kq)(b.r, a.r, d)
	return &mask{d}
}

func (e *em) ksel(b, w, d, q func(...Op)) func(...Op) {
	switch l := e.lanes(); {
	case l <= 8:
		return b
	case l <= 16:
		return w
	case l <= 32:
		return d
	}
	return q
}

// MNot is the complement of a mask.
func (e *em) MNot(a *mask) *mask {
	if !e.isa.evex() {
		return &mask{e.Xor(a.r, e.CB(^uint64(0)))}
	}
	d := K()
	e.ksel(x2(KNOTB), x2(KNOTW), x2(KNOTD), x2(KNOTQ))(a.r, d)
	return &mask{d}
}

// Flag marks the lanes of m for the slow path (the kernel returns true).
func (e *em) Flag(m *mask) {
	if e.flags == nil {
		panic(e.k.fname + ": Flag in a kernel without a slow path")
	}
	if e.isa.evex() {
		KORQ(m.r, e.flags, e.flags)
		return
	}
	VPOR(m.r, e.flags, e.flags)
}

// ---------------------------------------------------------------------------
// Kernels

// eparam is one operand of a kernel: a slice, or a scalar broadcast to
// every lane.
type eparam struct {
	name   string
	t      *etype // the element type in memory
	scalar bool
}

// ekernel describes one generated function: dst[i] = body(inputs at i).
type ekernel struct {
	fname string
	isa   *isa
	ct    *etype // compute type
	dst   *etype // dst's element type (eBool for masks)
	ins   []eparam
	// body computes the result of one vector of inputs (loaded and
	// converted to ct; scalars broadcast).
	body   func(e *em, in []reg.Register) val
	unroll int
	fix    bool // has a slow path: returns bool
	swap   bool // the body takes the two inputs in the other order
	// stream: whole vectors of dst are stored with non-temporal stores
	// (dst vector-aligned; the masked tail stores as usual), and the
	// kernel ends with SFENCE.
	stream bool
	doc    string
}

// sig returns the Go signature of the kernel.
func (k *ekernel) sig() string {
	var ps []string
	ps = append(ps, "dst []"+k.dst.gotype)
	for _, p := range k.ins {
		if p.scalar {
			ps = append(ps, p.name+" "+p.t.gotype)
		} else {
			ps = append(ps, p.name+" []"+p.t.gotype)
		}
	}
	s := "func(" + strings.Join(ps, ", ") + ")"
	if k.fix {
		s += " bool"
	}
	return s
}

// egen is the state of one kernel's generation.
type egen struct {
	k    *ekernel
	e    *em
	ptr  []reg.Register // dst, then each slice input (nil for scalars)
	i    reg.Register
	tail reg.Register // the tail's opmask (AVX-512), nil elsewhere
}

// memLanes is the number of elements one vector of the compute type
// covers in every slice.
func (g *egen) memLanes() int { return g.e.lanes() }

// mem returns the address of vector v of operand p (0: dst).
func (g *egen) mem(p, v int) Mem {
	t := g.k.dst
	if p > 0 {
		t = g.k.ins[p-1].t
	}
	return Mem{Base: g.ptr[p], Index: g.i, Scale: uint8(t.size), Disp: v * g.memLanes() * t.size}
}

// load reads vector v of input p, converted to the compute type.
func (g *egen) load(p, v int) reg.Register {
	e, t, m := g.e, g.k.ins[p-1].t, g.mem(p, v)
	d := e.vec()
	masked := g.tail != nil
	switch {
	case t == eF32 && e.t == eF64:
		if masked {
			VCVTPS2PD_Z(m, g.tail, d)
		} else {
			VCVTPS2PD(m, d)
		}
	case t == eBF16 && e.t == eF32:
		// the bits in the top half of each float32 lane: exact
		if masked {
			VPMOVZXWD_Z(m, g.tail, d)
		} else {
			VPMOVZXWD(m, d)
		}
		VPSLLD(U8(16), d, d)
	case t == eF16 && e.t == eF32: // half.go
		g.loadF16(m, d)
	case t == eBool && e.t != eBool: // a condition (ternary.go)
		g.loadBools(m, d)
	case t != e.t:
		panic(fmt.Sprintf("%s: cannot load %s as %s", g.k.fname, t.name, e.t.name))
	case masked:
		switch t.size {
		case 1:
			VMOVDQU8_Z(m, g.tail, d)
		case 2:
			VMOVDQU16_Z(m, g.tail, d)
		case 4:
			VMOVDQU32_Z(m, g.tail, d)
		default:
			VMOVDQU64_Z(m, g.tail, d)
		}
	default:
		e.mov(m, d)
	}
	return d
}

// store writes r, a vector of the compute type or a mask, as vector v of
// dst.
func (g *egen) store(r val, v int) {
	e, t, m := g.e, g.k.dst, g.mem(0, v)
	switch {
	case r.m != nil:
		g.storeBools(r.m, m)
	case t == eF32 && e.t == eF64:
		h := e.half()
		if e.isa.evex() {
			VCVTPD2PS(r.v, h)
		} else {
			VCVTPD2PSY(r.v, h)
		}
		g.storeVec(h, m, 4)
	case t == eBF16 && e.t == eF32:
		g.storeVec(g.toBF16(r.v), m, 2)
	case t == eF16 && e.t == eF32:
		g.storeVec(g.toF16(r.v), m, 2)
	case t != e.t:
		panic(fmt.Sprintf("%s: cannot store %s as %s", g.k.fname, e.t.name, t.name))
	default:
		g.storeVec(r.v, m, t.size)
	}
}

// toBF16 returns the float32 lanes of r rounded to bfloat16 as
// dtype.BF16FromFloat32 does, in a half-width register of 16-bit lanes:
// bits + 0x7fff + (bit 16) shifted down (ties to even, overflow to
// ±Inf), a NaN's top half with the quiet bit set.
func (g *egen) toBF16(r reg.Register) reg.Register {
	e := g.e
	lsb := e.And(e.Shr(r, 16), e.CB(1))
	rb := e.Shr(e.IAdd(e.IAdd(r, e.CB(0x7fff)), lsb), 16)
	nan := e.Or(e.Shr(r, 16), e.CB(0x40))
	w := e.Blend(e.IsNaN(r), rb, nan) // each lane < 2^16
	h := e.half()
	if e.isa.evex() {
		VPMOVDW(w, h)
		return h
	}
	hi := XMM()
	VEXTRACTI128(U8(1), w, hi)
	VPACKUSDW(hi, w.(reg.VecVirtual).AsX(), h)
	return h
}

// storeVec stores register r (any width) to m, under the tail mask if any.
func (g *egen) storeVec(r reg.Register, m Mem, size int) {
	// a whole vector's elements of dst: full width, or a 16-bit float's half
	// (its vectors are half a vector's bytes apart, so aligned to them)
	whole := size == g.k.ct.size && int(r.Size()) == g.e.isa.bytes || size == 2 && (g.k.dst == eBF16 || g.k.dst == eF16)
	if g.tail == nil && g.k.stream && whole {
		if size == 8 {
			VMOVNTPD(r, m)
		} else { // integers too: the store moves bits
			VMOVNTPS(r, m)
		}
		return
	}
	if g.tail == nil {
		if g.e.isa.evex() {
			VMOVDQU64(r, m)
		} else {
			VMOVDQU(r, m)
		}
		return
	}
	switch size {
	case 1:
		VMOVDQU8(r, g.tail, m)
	case 2:
		VMOVDQU16(r, g.tail, m)
	case 4:
		VMOVDQU32(r, g.tail, m)
	default:
		VMOVDQU64(r, g.tail, m)
	}
}

// storeBools stores the mask as bools (1 where set, 0 elsewhere), one
// byte per lane.
func (g *egen) storeBools(mk *mask, m Mem) {
	e := g.e
	lanes := e.lanes()
	ones := constMem(e.isa.bytes, 1, 1)
	if e.isa.evex() {
		var r reg.Register
		switch lanes {
		case 64:
			r = ZMM()
		case 32:
			r = YMM()
		default:
			r = XMM()
		}
		VMOVDQU8_Z(ones, mk.r, r)
		switch {
		case g.tail != nil:
			VMOVDQU8(r, g.tail, m)
		case lanes == 8:
			VMOVQ(r, m)
		default:
			VMOVDQU64(r, m)
		}
		return
	}
	// AVX2: narrow the all-ones lanes to bytes, then keep bit 0.
	switch e.t.size {
	case 1:
		r := YMM()
		VPAND(ones, mk.r, r)
		VMOVDQU(r, m)
	case 2:
		hi, x := XMM(), XMM()
		VEXTRACTI128(U8(1), mk.r, hi)
		VPACKSSWB(hi, mk.r.(reg.VecVirtual).AsX(), x)
		VPAND(ones, x, x)
		VMOVDQU(x, m)
	case 4:
		hi, x := XMM(), XMM()
		VEXTRACTI128(U8(1), mk.r, hi)
		VPACKSSDW(hi, mk.r.(reg.VecVirtual).AsX(), x)
		VPACKSSWB(x, x, x)
		VPAND(ones, x, x)
		VMOVQ(x, m)
	default:
		hi, x := XMM(), XMM()
		VEXTRACTI128(U8(1), mk.r, hi)
		VPACKSSDW(hi, mk.r.(reg.VecVirtual).AsX(), x) // words: q0 q0 q1 q1 q2 q2 q3 q3
		VPACKSSWB(x, x, x)                            // bytes likewise
		VPSHUFB(constMem(32, 4, 0x06040200), x, x)    // bytes 0, 2, 4, 6
		VPAND(ones, x, x)
		VMOVD(x, m)
	}
}

// vector emits the body for vector v at index i.
func (g *egen) vector(v int) {
	var in []reg.Register
	for p, prm := range g.k.ins {
		if prm.scalar {
			in = append(in, g.e.scalars[prm.name])
		} else {
			in = append(in, g.load(p+1, v))
		}
	}
	if g.k.swap {
		in[0], in[1] = in[1], in[0]
	}
	g.store(g.k.body(g.e, in), v)
}

// broadcast loads scalar parameter p into every lane of the compute type.
func (g *egen) broadcast(p eparam) reg.Register {
	e := g.e
	b, err := Param(p.name).Resolve()
	if err != nil {
		panic(err)
	}
	d := e.vec()
	switch {
	case p.t == eF32 && e.t == eF64:
		x := XMM()
		VCVTSS2SD(b.Addr, x, x)
		VBROADCASTSD(x, d)
	case p.t == eBF16 && e.t == eF32:
		// its bits in the top half of a float32
		r, x := GP32(), XMM()
		MOVWLZX(b.Addr, r)
		SHLL(U8(16), r)
		VMOVD(r, x)
		VPBROADCASTD(x, d)
	case p.t == eF16 && e.t == eF32:
		broadcastF16(b.Addr, d)
	case p.t == eF32:
		VBROADCASTSS(b.Addr, d)
	case p.t == eF64:
		VBROADCASTSD(b.Addr, d)
	case p.t.size == 1:
		VPBROADCASTB(b.Addr, d)
	case p.t.size == 2:
		VPBROADCASTW(b.Addr, d)
	case p.t.size == 4:
		// through a GP register: vet reads VPBROADCASTD m32 as a wrong size
		r, x := GP32(), XMM()
		MOVL(b.Addr, r)
		VMOVD(r, x)
		VPBROADCASTD(x, d)
	default:
		VPBROADCASTQ(b.Addr, d)
	}
	return d
}

func (k *ekernel) generate() {
	TEXT(k.fname, NOSPLIT, k.sig())
	Doc(k.doc)
	Pragma("noescape")
	e := &em{isa: k.isa, t: k.ct, k: k, scalars: map[string]reg.Register{}}
	g := &egen{k: k, e: e}
	n := Load(Param("dst").Len(), GP64())
	g.ptr = append(g.ptr, Load(Param("dst").Base(), GP64()))
	var slices []int // operand indexes of the slice inputs
	for p, prm := range k.ins {
		if prm.scalar {
			g.ptr = append(g.ptr, nil)
			e.scalars[prm.name] = g.broadcast(prm)
			continue
		}
		g.ptr = append(g.ptr, Load(Param(prm.name).Base(), GP64()))
		slices = append(slices, p+1)
	}
	if k.fix {
		if k.isa.evex() {
			e.flags = K()
			KXORQ(e.flags, e.flags, e.flags)
		} else {
			e.flags = YMM()
			VPXOR(e.flags, e.flags, e.flags)
		}
	}
	g.i = GP64()
	XORQ(g.i, g.i)
	end := GP64()
	lanes := g.memLanes()
	name := k.fname

	// unroll vectors at a time, then one
	blk := lanes * k.unroll
	MOVQ(n, end)
	ANDQ(I32(-int32(blk)), end)
	JMP(LabelRef(name + "_check_unrolled"))
	Label(name + "_unrolled")
	for v := 0; v < k.unroll; v++ {
		g.vector(v)
	}
	ADDQ(U32(blk), g.i)
	Label(name + "_check_unrolled")
	CMPQ(g.i, end)
	JB(LabelRef(name + "_unrolled"))
	if k.unroll > 1 {
		MOVQ(n, end)
		ANDQ(I32(-int32(lanes)), end)
		JMP(LabelRef(name + "_check_vector"))
		Label(name + "_vector")
		g.vector(0)
		ADDQ(U32(lanes), g.i)
		Label(name + "_check_vector")
		CMPQ(g.i, end)
		JB(LabelRef(name + "_vector"))
	}

	// the tail of fewer than lanes elements
	CMPQ(g.i, n)
	JAE(LabelRef(name + "_done"))
	rem := GP64()
	MOVQ(n, rem)
	SUBQ(g.i, rem)
	if k.isa.evex() {
		ones := GP64()
		MOVQ(I32(-1), ones)
		bits := GP64()
		BZHIQ(rem, ones, bits)
		g.tail = K()
		KMOVQ(bits, g.tail)
		g.vector(0)
		g.tail = nil
	} else {
		g.bufferTail(rem, slices)
	}
	Label(name + "_done")
	if k.fix {
		r := GP8()
		if k.isa.evex() {
			KORTESTQ(e.flags, e.flags)
		} else {
			VPTEST(e.flags, e.flags)
		}
		SETNE(r)
		Store(r, ReturnIndex(0))
	}
	if k.stream {
		SFENCE()
	}
	VZEROUPPER()
	RET()
}

// bufferTail runs the AVX2 tail of rem elements from index i through
// zeroed stack buffers (Note [One body, two instruction sets]).
func (g *egen) bufferTail(rem reg.Register, slices []int) {
	k := g.k
	w := g.e.isa.bytes
	ops := append([]int{0}, slices...)
	buf := AllocLocal(w * len(ops))
	zero := YMM()
	VPXOR(zero, zero, zero)
	for j := range ops {
		VMOVDQU(zero, buf.Offset(w*j))
	}
	size := func(p int) int {
		if p == 0 {
			return k.dst.size
		}
		return k.ins[p-1].t.size
	}
	// the real address of dst[i], for the copy back
	dstAt := GP64()
	LEAQ(Mem{Base: g.ptr[0], Index: g.i, Scale: uint8(size(0))}, dstAt)
	for j, p := range ops {
		at := GP64()
		LEAQ(buf.Offset(w*j), at)
		if p > 0 {
			src := GP64()
			LEAQ(Mem{Base: g.ptr[p], Index: g.i, Scale: uint8(size(p))}, src)
			g.copyBytes(at, src, rem, size(p))
		}
		g.ptr[p] = at
	}
	XORQ(g.i, g.i)
	// the buffer on the stack need not be aligned: ordinary stores
	st := k.stream
	k.stream = false
	g.vector(0)
	k.stream = st
	g.copyBytes(dstAt, g.ptr[0], rem, size(0))
}

// copyBytes copies n elements of size bytes from src to dst, a byte at a
// time.
func (g *egen) copyBytes(dst, src, n reg.Register, size int) {
	cnt, j, b := GP64(), GP64(), GP8()
	MOVQ(n, cnt)
	switch size {
	case 2:
		SHLQ(U8(1), cnt)
	case 4:
		SHLQ(U8(2), cnt)
	case 8:
		SHLQ(U8(3), cnt)
	}
	XORQ(j, j)
	loop, done := g.e.label("copy"), g.e.label("copied")
	Label(loop)
	CMPQ(j, cnt)
	JAE(LabelRef(done))
	MOVB(Mem{Base: src, Index: j, Scale: 1}, b)
	MOVB(b, Mem{Base: dst, Index: j, Scale: 1})
	INCQ(j)
	JMP(LabelRef(loop))
	Label(done)
}

// x2 and x3 adapt instructions of fixed arity to the variadic form.
func x2(f func(a, b Op)) func(...Op)    { return func(o ...Op) { f(o[0], o[1]) } }
func x3(f func(a, b, c Op)) func(...Op) { return func(o ...Op) { f(o[0], o[1], o[2]) } }
