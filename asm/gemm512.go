package main

// This file generates package gemm's AVX-512 microkernels: the float32 and
// float64 products on the 32 ZMM registers. Every function it emits has
// "AVX512" in its name, and only those use EVEX instructions (gemm's
// TestAVX512Names holds the rule).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// zmm lists the 32 ZMM registers by number.
var zmm = []reg.VecPhysical{
	reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7,
	reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
	reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23,
	reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31,
}

// zkernel is the geometry of an AVX-512 microkernel: an mr×(nv·lanes) tile
// of C in mr·nv accumulators (row r in Z(r·nv) … Z(r·nv+nv-1)), nv
// registers for a k step of the B sliver and two that take turns holding
// the broadcast element of A.
type zkernel struct {
	name   string
	t      ftype
	mr, nv int
	unroll int  // k steps per trip of the main loop
	dot    bool // bfloat16 pairs with VDPBF16PS instead of FMA (t is f32)
}

// lanes is the number of elements in a ZMM register.
func (z zkernel) lanes() int { return 64 / int(z.t.size) }

// microkernel512 emits
//
//	func name(k int, a, b, c *T, ldc int, alpha, beta T)
//
// with the contract of microkernel (gemm.go): C = alpha·AB + beta·C on the
// mr×nr tile at c (row stride ldc, unit column stride), beta == 0 storing
// without reading C.
func microkernel512(z zkernel) {
	t := z.t
	size := int(t.size)
	lanes := z.lanes()
	nr := z.nv * lanes
	mr := z.mr
	if mr*z.nv+z.nv+2 > 32 {
		panic("microkernel512: too many registers")
	}
	name := z.name
	if z.dot {
		TEXT(name, NOSPLIT, "func(k int, a, b *uint32, c *float32, ldc int, alpha, beta float32)")
		Doc(fmt.Sprintf("%s is the %d×%d kernelPairsGo in AVX-512 BF16 assembly; see there for the exact computation.", name, mr, nr))
	} else {
		TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a, b, c *%s, ldc int, alpha, beta %s)", t.gotype, t.gotype))
		Doc(fmt.Sprintf("%s is the %d×%d kernelGo in AVX-512 assembly; see there for the exact computation.", name, mr, nr))
	}
	Pragma("noescape")

	acc := zmm[:mr*z.nv]
	bv := zmm[mr*z.nv : mr*z.nv+z.nv]
	bc := [2]reg.VecPhysical{zmm[mr*z.nv+z.nv], zmm[mr*z.nv+z.nv+1]}

	var fma, mul, bcast func(...Op)
	var ucomis func(mx, x Op)
	var load, store func(...Op)
	if size == 4 {
		fma, mul, bcast, ucomis, load, store = VFMADD231PS, VMULPS, VBROADCASTSS, VUCOMISS, VMOVUPS, VMOVUPS
	} else {
		fma, mul, bcast, ucomis, load, store = VFMADD231PD, VMULPD, VBROADCASTSD, VUCOMISD, VMOVUPD, VMOVUPD
	}

	kk := Load(Param("k"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(log2(size)), ldc)

	Comment("Prefetch the C tile.")
	row := GP64()
	MOVQ(pc, row)
	for r := 0; r < mr; r++ {
		for off := 0; off < nr*size; off += 64 {
			PREFETCHT0(Mem{Base: row, Disp: off})
		}
		PREFETCHT0(Mem{Base: row, Disp: nr*size - 1})
		if r < mr-1 {
			ADDQ(ldc, row)
		}
	}
	for _, y := range acc {
		VPXORD(y, y, y)
	}

	// step emits one k step at offset u (in k steps) from pa, pb.
	step := func(u int) {
		for v := 0; v < z.nv; v++ {
			load(Mem{Base: pb, Disp: (u*nr + v*lanes) * size}, bv[v])
		}
		for r := 0; r < mr; r++ {
			x := bc[r%2]
			bcast(Mem{Base: pa, Disp: (u*mr + r) * size}, x)
			for v := 0; v < z.nv; v++ {
				if z.dot {
					evexVDPBF16PS(bv[v], x, acc[r*z.nv+v])
				} else {
					fma(bv[v], x, acc[r*z.nv+v])
				}
			}
		}
	}

	// The A sliver streams from L2: prefetch what the trip after next reads.
	aBytes := z.unroll * mr * size
	n4 := GP64()
	MOVQ(kk, n4)
	SHRQ(U8(log2(z.unroll)), n4)
	JZ(LabelRef(name + "_tail"))
	Label(name + "_loop")
	for off := 0; off < aBytes; off += 64 {
		PREFETCHT0(Mem{Base: pa, Disp: 2*aBytes + off})
	}
	for u := 0; u < z.unroll; u++ {
		step(u)
	}
	ADDQ(U32(aBytes), pa)
	ADDQ(U32(z.unroll*nr*size), pb)
	DECQ(n4)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_tail")
	ANDQ(U8(z.unroll-1), kk)
	JZ(LabelRef(name + "_store"))
	Label(name + "_loop1")
	step(0)
	ADDQ(U32(mr*size), pa)
	ADDQ(U32(nr*size), pb)
	DECQ(kk)
	JNZ(LabelRef(name + "_loop1"))

	Label(name + "_store")
	alpha, err := Param("alpha").Resolve()
	if err != nil {
		panic(err)
	}
	beta, err := Param("beta").Resolve()
	if err != nil {
		panic(err)
	}
	za, zb := bv[0], bc[0]
	bcast(alpha.Addr, za)
	zero := bc[1]
	VPXORD(zero, zero, zero)
	ucomis(beta.Addr, zero.AsX())
	JNE(LabelRef(name + "_beta"))
	JP(LabelRef(name + "_beta"))

	Comment("beta == 0: C = alpha·AB, C not read.")
	for r := 0; r < mr; r++ {
		for v := 0; v < z.nv; v++ {
			mul(za, acc[r*z.nv+v], acc[r*z.nv+v])
			store(acc[r*z.nv+v], Mem{Base: pc, Disp: v * 64})
		}
		if r < mr-1 {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()

	Label(name + "_beta")
	Comment("C = alpha·AB + beta·C.")
	bcast(beta.Addr, zb)
	for r := 0; r < mr; r++ {
		for v := 0; v < z.nv; v++ {
			mul(za, acc[r*z.nv+v], acc[r*z.nv+v])
			fma(Mem{Base: pc, Disp: v * 64}, zb, acc[r*z.nv+v])
			store(acc[r*z.nv+v], Mem{Base: pc, Disp: v * 64})
		}
		if r < mr-1 {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// evexVDPBF16PS emits VDPBF16PS src2, src1, dst (Go's operand order: dst
// += the dot products of the bfloat16 pairs of src1 and src2) on ZMM
// registers. Neither the Go assembler nor avo knows the instruction
// (AVX512_BF16), so it is written as its bytes, those of GNU as for
// "vdpbf16ps %zmm<src2>, %zmm<src1>, %zmm<dst>" (TestEVEX checks the
// encoder against them): EVEX.512.F3.0F38.W0 52 /r, register form, no
// mask. The comment beside the bytes names the instruction.
func evexVDPBF16PS(src2, src1, dst reg.VecPhysical) {
	Comment(fmt.Sprintf("VDPBF16PS %s, %s, %s", src2.Asm(), src1.Asm(), dst.Asm()))
	for _, b := range encodeVDPBF16PS(int(src2.PhysicalIndex()), int(src1.PhysicalIndex()), int(dst.PhysicalIndex())) {
		Instruction(&ir.Instruction{Opcode: "BYTE", Operands: []Op{U8(b)}})
	}
}

// encodeVDPBF16PS returns the bytes of VDPBF16PS zmm(dst), zmm(src1),
// zmm(src2) in Intel's operand order: the EVEX prefix (62, then P0 with
// the inverted high bits of the ModRM registers and map 0F38, P1 with W0,
// the inverted src1 and prefix F3, P2 with 512-bit length and the inverted
// fifth bit of src1), the opcode 52 and a register-direct ModRM.
func encodeVDPBF16PS(src2, src1, dst int) []byte {
	inv := func(v, bit int) byte { return byte(^(v >> bit) & 1) }
	p0 := inv(dst, 3)<<7 | inv(src2, 4)<<6 | inv(src2, 3)<<5 | inv(dst, 4)<<4 | 0b10
	p1 := byte(^src1&0xf)<<3 | 1<<2 | 0b10
	p2 := byte(0b10)<<5 | inv(src1, 4)<<3
	modrm := byte(0b11)<<6 | byte(dst&7)<<3 | byte(src2&7)
	return []byte{0x62, p0, p1, p2, 0x52, modrm}
}

// pairSig is the signature of the bfloat16 pair packs: k counts pairs, ld
// bfloat16 elements.
const pairSig = "func(k int, src *uint16, ld int, dst *uint32)"

// packTransPairs emits
//
//	func name(k int, src *uint16, ld int, dst *uint32)
//
// which sets dst[q*w+i] to the pair src[i*ld+2q], src[i*ld+2q+1] (the
// second in the high half) for q < k: packTrans on the uint32 that two
// consecutive bfloat16 of a row make, with ld counting bfloat16. The Go
// wrapper packs the last step of an odd k.
func packTransPairs(name string, w int) {
	TEXT(name, NOSPLIT, pairSig)
	Doc(fmt.Sprintf("%s is packTransPairsGo with w = %d and an even k (2·k here) in assembly; see there for the exact loop.", name, w))
	Pragma("noescape")
	packTransBody(name, f32, w, 1)
}

// packCopyPairs emits
//
//	func name(k int, src *uint16, ld int, dst *uint32)
//
// which sets dst[q*w+i] to the pair src[2q*ld+i], src[(2q+1)*ld+i] for q <
// k, i < w (w a multiple of 4): each run of w bfloat16 zero-extended to
// 32 bits, the second shifted into the high halves and or-ed with the
// first.
func packCopyPairs(name string, w int) {
	TEXT(name, NOSPLIT, pairSig)
	Doc(fmt.Sprintf("%s is packCopyPairsGo with w = %d and an even k (2·k here) in assembly; see there for the exact loop.", name, w))
	Pragma("noescape")
	if w%4 != 0 {
		panic("packCopyPairs: w must be a multiple of 4")
	}
	k, src, ld, dst := packPrologLd(1)
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_loop")
	for i := 0; i < w; {
		n := 8
		if w-i < 8 {
			n = 4
		}
		lo, hi := YMM(), YMM()
		if n == 8 {
			VPMOVZXWD(Mem{Base: src, Disp: 2 * i}, lo)
			VPMOVZXWD(Mem{Base: src, Index: ld, Scale: 1, Disp: 2 * i}, hi)
			VPSLLD(U8(16), hi, hi)
			VPOR(hi, lo, lo)
			VMOVDQU(lo, Mem{Base: dst, Disp: 4 * i})
		} else {
			VPMOVZXWD(Mem{Base: src, Disp: 2 * i}, lo.AsX())
			VPMOVZXWD(Mem{Base: src, Index: ld, Scale: 1, Disp: 2 * i}, hi.AsX())
			VPSLLD(U8(16), hi.AsX(), hi.AsX())
			VPOR(hi.AsX(), lo.AsX(), lo.AsX())
			VMOVDQU(lo.AsX(), Mem{Base: dst, Disp: 4 * i})
		}
		i += n
	}
	LEAQ(Mem{Base: src, Index: ld, Scale: 2}, src)
	ADDQ(U32(4*w), dst)
	DECQ(k)
	JNZ(LabelRef(name + "_loop"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
