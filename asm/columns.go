package main

// This file generates vec's ColumnsF32 kernel at AVX-512 (part
// reduce512): rows of fewer than 16 float32 turned into columns, so that
// the reductions of such rows (Note [Short rows as columns] in
// backend/cpu) fold whole vectors of rows.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// columns512 emits columnsF32AVX512:
//
//	func(dst, x *float32, m, blocks, ds int)
//
// columnsF32Go over blocks of 16 rows of m float32 (2 ≤ m ≤ 15), each
// block 64·m bytes of x: element j of row r of block b goes to dst + j·ds
// + (16b + r)·4 (ds in bytes). A loop per m: the block's m vectors are
// loaded, and column j gathered from them by a VPERMPS per vector that
// holds some of it, under the mask of the lanes (rows) it holds; lane r
// of every vector permute takes lane (r·m + j) mod 16.
func columns512() {
	name := "columnsF32AVX512"
	TEXT(name, NOSPLIT, "func(dst, x *float32, m, blocks, ds int)")
	Doc(name + " is columnsF32Go in assembly, over whole blocks of 16 rows; see there for the exact moves.")
	Pragma("noescape")
	dst, x := Load(Param("dst"), GP64()), Load(Param("x"), GP64())
	m, blocks, ds := Load(Param("m"), GP64()), Load(Param("blocks"), GP64()), Load(Param("ds"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef(name + "_done"))
	one, fifteen := ZMM(), ZMM()
	t := GP32()
	MOVL(U32(1), t)
	VPBROADCASTD(t, one)
	MOVL(U32(15), t)
	VPBROADCASTD(t, fifteen)
	for w := 2; w < 16; w++ {
		next := fmt.Sprintf("%s_not%d", name, w)
		CMPQ(m, U32(w))
		JNE(LabelRef(next))
		columnsLoop(fmt.Sprintf("%s_%d", name, w), w, dst, x, blocks, ds, one, fifteen)
		JMP(LabelRef(name + "_done"))
		Label(next)
	}
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// columnsLoop emits columnsF32AVX512's loop over the blocks of rows of m
// elements.
func columnsLoop(label string, m int, dst, x, blocks, ds reg.Register, one, fifteen reg.VecVirtual) {
	base := GLOBL(fmt.Sprintf("columnsLanes%d", m), RODATA|NOPTR)
	for r := 0; r < 16; r++ {
		DATA(4*r, U32(uint32(r*m%16)))
	}
	first := ZMM()
	VMOVDQU32(base, first)
	Label(label)
	v := make([]reg.VecVirtual, m)
	for k := range v {
		v[k] = ZMM()
		VMOVUPS(Mem{Base: x, Disp: 64 * k}, v[k])
	}
	d, idx := GP64(), ZMM()
	MOVQ(dst, d)
	VMOVDQA32(first, idx)
	for j := 0; j < m; j++ {
		if j > 0 {
			VPADDD(one, idx, idx)
			VPANDD(fifteen, idx, idx)
		}
		c := ZMM()
		started := false
		for k := range v {
			var mask uint16
			for r := 0; r < 16; r++ {
				if (r*m+j)/16 == k {
					mask |= 1 << r
				}
			}
			if mask == 0 {
				continue
			}
			km, bits := K(), GP32()
			MOVL(U32(uint32(mask)), bits)
			KMOVW(bits, km)
			if !started {
				VPERMPS_Z(v[k], idx, km, c)
				started = true
				continue
			}
			VPERMPS(v[k], idx, km, c)
		}
		VMOVUPS(c, Mem{Base: d})
		ADDQ(ds, d)
	}
	ADDQ(U32(64*m), x)
	ADDQ(U8(64), dst)
	DECQ(blocks)
	JNZ(LabelRef(label))
}
