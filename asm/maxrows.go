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
	columnBlocks(name, rows, cols, []int{maxRowsBlock, 1}, func(label string, nv int) {
		d := make([]reg.VecVirtual, nv)
		for k := range d {
			d[k] = ZMM()
			VMOVUPS(Mem{Base: dst, Disp: 64 * k}, d[k])
		}
		downRows(label, x, stride, rows, func(p reg.Register) {
			for k := range d {
				v := ZMM()
				VMOVUPS(Mem{Base: p, Disp: 64 * k}, v)
				if op == "mul" {
					ins(v, d[k], d[k]) // d·x, d the first source as in dst[i] *= x[i]
					continue
				}
				ins(d[k], v, d[k])
				m := K()
				VCMPPS(U8(3), v, v, m) // UNORD: v is NaN
				VMOVAPS(v, m, d[k])
			}
		})
		for k := range d {
			VMOVUPS(d[k], Mem{Base: dst, Disp: 64 * k})
		}
		ADDQ(U32(64*nv), dst)
		ADDQ(U32(64*nv), x)
	})
}

// columnBlocks emits the loops of a kernel over cols columns (a register
// counting float32 elements, a multiple of 16) in blocks of sizes[0]
// vectors while that many are left, then of sizes[1], ...: block emits
// one block of nv vectors and moves the kernel's pointers past it. The
// kernel returns at once when rows is 0.
func columnBlocks(name string, rows, cols reg.Register, sizes []int, block func(label string, nv int)) {
	TESTQ(rows, rows)
	JZ(LabelRef(name + "_done"))
	for _, nv := range sizes {
		label := fmt.Sprintf("%s_%d", name, nv)
		Label(label)
		CMPQ(cols, U32(16*nv))
		JB(LabelRef(label + "_end"))
		block(label, nv)
		SUBQ(U32(16*nv), cols)
		JMP(LabelRef(label))
		Label(label + "_end")
	}
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// downRows emits a loop over rows rows (at least one) from x, stride
// bytes apart: row emits the work on the row at p.
func downRows(label string, x, stride, rows reg.Register, row func(p reg.Register)) {
	p, n := GP64(), GP64()
	MOVQ(x, p)
	MOVQ(rows, n)
	Label(label + "_row")
	row(p)
	ADDQ(stride, p)
	DECQ(n)
	JNZ(LabelRef(label + "_row"))
}
