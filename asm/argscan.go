package main

// This file generates vec's ArgRowsF32 kernel at AVX-512 (part
// reduce512): the index of each short row's first NaN, or else of its
// first greatest (least) element, sixteen elements a step (Note [Short
// arg rows] in vec's reduce_go.go).

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// argScan512 emits
//
//	func argMaxRowsF32AVX512(idx *int32, x *float32, rowLen, stride, rows int)
//	func argMinRowsF32AVX512(idx *int32, x *float32, rowLen, stride, rows int)
//
// argRowsF32Go's results: for each row, x[r·stride:][:rowLen] (rowLen ≥
// 1), a first pass over vectors of sixteen elements (the last under a
// mask, its other lanes ∓Inf) that stops at the first vector holding a
// NaN, with that NaN's index, or folds the vectors with VMAXPS (VMINPS),
// whose lanes are then folded across the register so that every lane
// holds the extreme; then a second pass to the first vector with an
// element equal to it (±0 equal), and that element's index.
func argScan512(isMax bool) {
	kind := map[bool]string{true: "Max", false: "Min"}[isMax]
	name := "arg" + kind + "RowsF32AVX512"
	TEXT(name, NOSPLIT, "func(idx *int32, x *float32, rowLen, stride, rows int)")
	Doc(name + " is argRowsF32Go(..., " + fmt.Sprint(isMax) + ") in assembly; see there for the exact results.")
	Pragma("noescape")
	idx, x := Load(Param("idx"), GP64()), Load(Param("x"), GP64())
	n, rs, rows := Load(Param("rowLen"), GP64()), Load(Param("stride"), GP64()), Load(Param("rows"), GP64())
	SHLQ(U8(2), rs)
	fill := ZMM()
	bits := GP32()
	inf := math.Float32bits(float32(math.Inf(-1)))
	if !isMax {
		inf = math.Float32bits(float32(math.Inf(1)))
	}
	MOVL(U32(inf), bits)
	VPBROADCASTD(bits, fill)
	// the mask of the last vector's lanes, and where it starts
	full, rest := GP64(), GP64()
	MOVQ(n, full)
	ANDQ(I32(-16), full)
	MOVQ(n, rest)
	SUBQ(full, rest)
	tailMask := laneMask(rest)
	extreme := func(v, acc reg.VecVirtual) {
		if isMax {
			VMAXPS(v, acc, acc)
		} else {
			VMINPS(v, acc, acc)
		}
	}
	r := GP64()
	XORQ(r, r)
	TESTQ(rows, rows)
	JZ(LabelRef(name + "_done"))

	Label(name + "_row")
	i, k := GP64(), K()
	acc := ZMM()
	VMOVAPS(fill, acc)
	XORQ(i, i)
	// pass one: NaN, or the extreme
	Label(name + "_one")
	CMPQ(i, full)
	JAE(LabelRef(name + "_oneTail"))
	v := ZMM()
	VMOVUPS(Mem{Base: x, Index: i, Scale: 4}, v)
	VCMPPS(U8(3), v, v, k) // unordered: NaN
	KORTESTW(k, k)
	JNZ(LabelRef(name + "_found"))
	extreme(v, acc)
	ADDQ(U8(16), i)
	JMP(LabelRef(name + "_one"))
	Label(name + "_oneTail")
	TESTQ(rest, rest)
	JZ(LabelRef(name + "_fold"))
	t := ZMM()
	VMOVAPS(fill, t)
	VMOVUPS(Mem{Base: x, Index: i, Scale: 4}, tailMask, t)
	VCMPPS(U8(3), t, t, k)
	KORTESTW(k, k)
	JNZ(LabelRef(name + "_found"))
	extreme(t, acc)

	// every lane the extreme: halves, quarters, pairs, neighbours
	Label(name + "_fold")
	sw := ZMM()
	VSHUFF32X4(U8(0x4E), acc, acc, sw)
	extreme(sw, acc)
	VSHUFF32X4(U8(0xB1), acc, acc, sw)
	extreme(sw, acc)
	VPERMILPS(U8(0x4E), acc, sw)
	extreme(sw, acc)
	VPERMILPS(U8(0xB1), acc, sw)
	extreme(sw, acc)

	// pass two: the first element equal to it
	XORQ(i, i)
	Label(name + "_two")
	CMPQ(i, full)
	JAE(LabelRef(name + "_twoTail"))
	VCMPPS(U8(0), Mem{Base: x, Index: i, Scale: 4}, acc, k) // equal, ordered
	KORTESTW(k, k)
	JNZ(LabelRef(name + "_found"))
	ADDQ(U8(16), i)
	JMP(LabelRef(name + "_two"))
	Label(name + "_twoTail")
	// the extreme is in the tail, which exists when the full vectors
	// did not hold it
	VMOVUPS_Z(Mem{Base: x, Index: i, Scale: 4}, tailMask, t)
	VCMPPS(U8(0), t, acc, tailMask, k)

	Label(name + "_found")
	lane := GP32()
	KMOVW(k, lane)
	TZCNTL(lane, lane)
	ADDL(i.As32(), lane)
	MOVL(lane, Mem{Base: idx, Index: r, Scale: 4})
	ADDQ(rs, x)
	INCQ(r)
	CMPQ(r, rows)
	JB(LabelRef(name + "_row"))

	Label(name + "_done")
	VZEROUPPER()
	RET()
}
