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
// the rows x[r·stride:][:cols] in order, stride in bytes. Per element the steps of max and min are those of the AVX2
// kernel (maxAccF32): VMAXPS(x, d), which is x > d ? x : d, then x where x
// is NaN; mul's is VMULPS. The columns go in blocks of 256 (16 vectors),
// each read down every row, and the last fewer than 256 in one more
// (columnBlocks).
func accRows512(op string) {
	name := op + "AccRowsF32AVX512"
	ins := map[string]func(...Op){"max": VMAXPS, "min": VMINPS, "mul": VMULPS}[op]
	TEXT(name, NOSPLIT, "func(dst, x *float32, stride, rows, cols int)")
	Doc(fmt.Sprintf("%s is %sAccRowsF32Go in assembly; see there for the exact loop.", name, op))
	Pragma("noescape")
	dst, x := Load(Param("dst"), GP64()), Load(Param("x"), GP64())
	stride, rows := Load(Param("stride"), GP64()), Load(Param("rows"), GP64())
	cols := GP64()
	Load(Param("cols"), cols)
	columnBlocks(name, rows, cols, maxRowsBlock, func(label string, nv int, mask reg.Register) {
		d := make([]reg.VecVirtual, nv)
		for k := range d {
			d[k] = ZMM()
			loadK(Mem{Base: dst, Disp: 64 * k}, d[k], maskedLast(k, nv, mask))
		}
		downRows(label, x, stride, rows, func(p reg.Register) {
			for k := range d {
				v := ZMM()
				loadK(Mem{Base: p, Disp: 64 * k}, v, maskedLast(k, nv, mask))
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
			storeK(d[k], Mem{Base: dst, Disp: 64 * k}, maskedLast(k, nv, mask))
		}
		ADDQ(U32(64*nv), dst)
		ADDQ(U32(64*nv), x)
	})
}

// columnBlocks emits the loops of a kernel over cols columns (a register
// counting float32 elements): blocks of maxNV vectors while that many are
// left, then the columns left, fewer than 16·maxNV, in one block of as
// many vectors as they fill, the last under the mask of its lanes where
// it is partial. block emits one block of nv vectors (the last under mask
// k, when not nil) and moves the kernel's pointers past it. The kernel
// returns at once when rows is 0. One block for the last columns reads
// each row once, where blocks of one vector read the rows' columns in as
// many passes down the rows (Note [Narrow columns] in backend/cpu).
func columnBlocks(name string, rows reg.Register, cols reg.GPVirtual, maxNV int, block func(label string, nv int, k reg.Register)) {
	TESTQ(rows, rows)
	JZ(LabelRef(name + "_done"))
	full := name + "_full"
	Label(full)
	CMPQ(cols, U32(16*maxNV))
	JB(LabelRef(full + "_end"))
	block(full, maxNV, nil)
	SUBQ(U32(16*maxNV), cols)
	JMP(LabelRef(full))
	Label(full + "_end")
	vectors := GP64()
	MOVQ(cols, vectors)
	SHRQ(U8(4), vectors)
	ANDQ(U32(15), cols)
	JZ(LabelRef(name + "_whole"))
	mask := laneMask(cols)
	for nf := 0; nf < maxNV; nf++ {
		next := fmt.Sprintf("%s_partial%d_next", name, nf)
		CMPQ(vectors, U32(nf))
		JNE(LabelRef(next))
		block(fmt.Sprintf("%s_partial%d", name, nf), nf+1, mask)
		JMP(LabelRef(name + "_done"))
		Label(next)
	}
	Label(name + "_whole")
	for nf := 1; nf < maxNV; nf++ {
		next := fmt.Sprintf("%s_whole%d_next", name, nf)
		CMPQ(vectors, U32(nf))
		JNE(LabelRef(next))
		block(fmt.Sprintf("%s_whole%d", name, nf), nf, nil)
		JMP(LabelRef(name + "_done"))
		Label(next)
	}
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// maskedLast returns mask for vector k of a block of nv whose last
// vector is under mask, and nil for the others.
func maskedLast(k, nv int, mask reg.Register) reg.Register {
	if k == nv-1 {
		return mask
	}
	return nil
}

// laneMask returns a mask register of the low n lanes (n < 32, a
// register).
func laneMask(n reg.GPVirtual) reg.Register {
	m, k := GP32(), K()
	MOVL(U32(1), m)
	SHLXL(n.As32(), m, m)
	DECL(m)
	KMOVW(m, k)
	return k
}

// loadK loads a vector of float32 from m, under mask k (the other lanes
// zero) when k is not nil; storeK stores one.
func loadK(m Mem, z reg.VecVirtual, k reg.Register) {
	if k == nil {
		VMOVUPS(m, z)
		return
	}
	VMOVUPS_Z(m, k, z)
}

func storeK(z reg.VecVirtual, m Mem, k reg.Register) {
	if k == nil {
		VMOVUPS(z, m)
		return
	}
	VMOVUPS(z, k, m)
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
