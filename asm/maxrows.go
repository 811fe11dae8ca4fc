package main

// This file generates vec's MaxAccRowsF32, MinAccRowsF32 and
// MulAccRowsF32 kernels at AVX-512 (part reduce512): the rows of an outer
// float32 Amax, Amin or Prod folded in one call, a block of columns kept
// in registers from the first row to the last.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// maxRowsBlock is the widest block of columns the kernels keep in
// registers: 16 ZMM of 16 lanes.
const maxRowsBlock = 16

// accRows512 emits maxAccRowsF32AVX512, minAccRowsF32AVX512 or
// mulAccRowsF32AVX512 (op "max", "min" or "mul"):
//
//	func(dst, x *float32, stride, rows, cols int)
//
// rows calls of maxAccF32Go (minAccF32Go, or dst *= x) on dst[:cols] and
// the rows x[r·stride:][:cols] in order, cols a multiple of 16 and stride
// in bytes. Per element the steps of max and min are those of the AVX2
// kernel (maxAccF32): VMAXPS(x, d), which is x > d ? x : d, then x where x
// is NaN; mul's is VMULPS. The columns go in blocks of 256 (16 vectors),
// then of 16, each read down every row.
func accRows512(op string) {
	name := op + "AccRowsF32AVX512"
	ins := map[string]func(...Op){"max": VMAXPS, "min": VMINPS, "mul": VMULPS}[op]
	TEXT(name, NOSPLIT, "func(dst, x *float32, stride, rows, cols int)")
	Doc(fmt.Sprintf("%s is %sAccRowsF32Go in assembly; see there for the exact loop.", name, op))
	Pragma("noescape")
	dst, x := Load(Param("dst"), GP64()), Load(Param("x"), GP64())
	stride, rows, cols := Load(Param("stride"), GP64()), Load(Param("rows"), GP64()), Load(Param("cols"), GP64())
	TESTQ(rows, rows)
	JZ(LabelRef(name + "_done"))
	block := func(nv int) {
		label := fmt.Sprintf("%s_%d", name, nv)
		Label(label)
		CMPQ(cols, U32(16*nv))
		JB(LabelRef(fmt.Sprintf("%s_%d_end", name, nv)))
		d := make([]reg.VecVirtual, nv)
		for k := range d {
			d[k] = ZMM()
			VMOVUPS(Mem{Base: dst, Disp: 64 * k}, d[k])
		}
		p, r := GP64(), GP64()
		MOVQ(x, p)
		MOVQ(rows, r)
		Label(label + "_row")
		for k := range d {
			v := ZMM()
			VMOVUPS(Mem{Base: p, Disp: 64 * k}, v)
			if op == "mul" {
				ins(v, d[k], d[k]) // d·x, d the first source as in dst[i] *= x[i]
			} else {
				ins(d[k], v, d[k])
			}
			if op != "mul" {
				m := K()
				VCMPPS(U8(3), v, v, m) // UNORD: v is NaN
				VMOVAPS(v, m, d[k])
			}
		}
		ADDQ(stride, p)
		DECQ(r)
		JNZ(LabelRef(label + "_row"))
		for k := range d {
			VMOVUPS(d[k], Mem{Base: dst, Disp: 64 * k})
		}
		ADDQ(U32(64*nv), dst)
		ADDQ(U32(64*nv), x)
		SUBQ(U32(16*nv), cols)
		JMP(LabelRef(label))
		Label(label + "_end")
	}
	block(maxRowsBlock)
	block(1)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
