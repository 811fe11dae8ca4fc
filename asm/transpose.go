package main

// This file generates vec's Transpose32 kernel (part gather, beside the
// gather primitives): the tiles of Note [Tiles for crossed operands] in
// package backend/cpu, read as blocks of 8×8 float32 and written
// transposed, eight loads, the shuffles of transpose8x8 and eight stores
// for 64 elements where the scalar loop moves one element per load.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// transposeKernel emits transpose32AVX2: for i < rows and j < cols, both
// multiples of 8, the 4-byte element at src + j·ss + i·4 goes to dst +
// i·ds + j·4 (byte strides). Blocks go down src's rows in the inner loop,
// so eight streams of src are read in order.
func transposeKernel() {
	TEXT("transpose32AVX2", NOSPLIT, "func(dst, src *byte, ds, ss, rows, cols int)")
	Doc("transpose32AVX2 is transpose32Go over whole blocks of 8×8 (rows and cols multiples of 8), in AVX2.")
	Pragma("noescape")
	dst, src := Load(Param("dst"), GP64()), Load(Param("src"), GP64())
	ds, ss := Load(Param("ds"), GP64()), Load(Param("ss"), GP64())
	rows, cols := Load(Param("rows"), GP64()), Load(Param("cols"), GP64())
	ds3, ss3 := GP64(), GP64()
	LEAQ(Mem{Base: ds, Index: ds, Scale: 2}, ds3)
	LEAQ(Mem{Base: ss, Index: ss, Scale: 2}, ss3)
	// eight rows at base, base+s, ..., base+7s from two bases four rows apart
	at := func(b, b4, s, s3 reg.Register, k int) Mem {
		base := b
		if k >= 4 {
			base, k = b4, k-4
		}
		switch k {
		case 0:
			return Mem{Base: base}
		case 1:
			return Mem{Base: base, Index: s, Scale: 1}
		case 2:
			return Mem{Base: base, Index: s, Scale: 2}
		}
		return Mem{Base: base, Index: s3, Scale: 1}
	}
	j := GP64()
	XORQ(j, j)
	TESTQ(rows, rows)
	JZ(LabelRef("transpose32_done"))
	Label("transpose32_cols")
	CMPQ(j, cols)
	JAE(LabelRef("transpose32_done"))
	sp, sp4, dp, dp4 := GP64(), GP64(), GP64(), GP64()
	MOVQ(j, sp)
	IMULQ(ss, sp)
	ADDQ(src, sp)
	LEAQ(Mem{Base: sp, Index: ss, Scale: 4}, sp4)
	LEAQ(Mem{Base: dst, Index: j, Scale: 4}, dp)
	LEAQ(Mem{Base: dp, Index: ds, Scale: 4}, dp4)
	i := GP64()
	XORQ(i, i)
	Label("transpose32_rows")
	r := make([]reg.VecVirtual, 8)
	for k := range r {
		r[k] = YMM()
		VMOVUPS(at(sp, sp4, ss, ss3, k), r[k])
	}
	c := transpose8x8(r)
	for k := range c {
		VMOVUPS(c[k], at(dp, dp4, ds, ds3, k))
	}
	ADDQ(U8(32), sp)
	ADDQ(U8(32), sp4)
	step := GP64()
	LEAQ(Mem{Base: ds, Index: ds, Scale: 1}, step) // 2ds
	SHLQ(U8(2), step)                              // 8ds
	ADDQ(step, dp)
	ADDQ(step, dp4)
	ADDQ(U8(8), i)
	CMPQ(i, rows)
	JB(LabelRef("transpose32_rows"))
	ADDQ(U8(8), j)
	JMP(LabelRef("transpose32_cols"))
	Label("transpose32_done")
	VZEROUPPER()
	RET()
}
