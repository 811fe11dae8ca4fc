package main

// This file generates package gemm's AVX-512 microkernels: the float32 and
// float64 products on the 32 ZMM registers. Every function it emits has
// "AVX512" in its name, and only those use EVEX instructions (gemm's
// TestAVX512Names holds the rule).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
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
	unroll int // k steps per trip of the main loop
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
	TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a, b, c *%s, ldc int, alpha, beta %s)", t.gotype, t.gotype))
	Doc(fmt.Sprintf("%s is the %d×%d kernelGo in AVX-512 assembly; see there for the exact computation.", name, mr, nr))
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
				fma(bv[v], x, acc[r*z.nv+v])
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
