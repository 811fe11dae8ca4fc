package main

// This file generates the gather primitives of package vec (run with
// -part gather: zz_gather_amd64.s and zz_gather_stubs_amd64.go), whose
// pure-Go twins are in vec/gather_go.go. Each copies out[t] = self[idx[t]]
// for elements of 1, 2, 4 or 8 bytes, stopping at the first index outside
// [0, len(self)), and issues a PREFETCHT0 for each element of the next
// chunk the caller names (nextSelf[nextIdx[t]]): the prefetches are the
// point (Note [Gather prefetch] in package backend/cpu), the moves are
// plain scalar loads and stores. No vector instruction is used: a loop of
// AVX-512 VGATHERQPS (8 indices a step, checked with one VPCMPUQ) with the
// same prefetches was no faster than the scalar loop on Zen 5 (gather_dim1
// on one core: 1.33 ms against 1.24 ms).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// gatherUnroll is the number of elements of one main-loop iteration.
const gatherUnroll = 4

// genGather emits Gather8, Gather16, Gather32 and Gather64's assembly.
func genGather() {
	ConstraintExpr("amd64,!purego")
	for _, size := range []uint8{1, 2, 4, 8} {
		gatherKernel(size)
	}
	prefetchKernel()
	transposeKernel()
}

// prefetchKernel emits prefetchAsm: a PREFETCHT0 for each cache line that
// b's bytes lie in, from the line of b[0] to that of b[len(b)-1].
func prefetchKernel() {
	TEXT("prefetchAsm", NOSPLIT, "func(b []byte)")
	Doc("prefetchAsm issues a PREFETCHT0 for each 64-byte line of b.")
	Pragma("noescape")
	p, n := Load(Param("b").Base(), GP64()), Load(Param("b").Len(), GP64())
	TESTQ(n, n)
	JZ(LabelRef("prefetch_done"))
	last := GP64()
	LEAQ(Mem{Base: p, Index: n, Scale: 1, Disp: -1}, last)
	ANDQ(I32(-64), p)
	Label("prefetch_loop")
	PREFETCHT0(Mem{Base: p})
	ADDQ(U8(64), p)
	CMPQ(p, last)
	JLS(LabelRef("prefetch_loop"))
	Label("prefetch_done")
	RET()
}

// gatherKernel emits gather<bits>Asm for elements of size bytes: a main
// loop over gatherUnroll elements that moves them and prefetches as many
// of the next chunk, while both have elements left; a loop moving one
// element at a time (also where the main loop goes on a bad index, to
// find which); and a loop of the remaining prefetches.
func gatherKernel(size uint8) {
	bits := 8 * int(size)
	gt := fmt.Sprintf("uint%d", bits)
	name := fmt.Sprintf("gather%dAsm", bits)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out, self []%s, idx []int64, nextSelf []%s, nextIdx []int64) int", gt, gt))
	Doc(fmt.Sprintf("%s is gather%dGo in assembly, with prefetches; see there for the exact loop.", name, bits))
	Pragma("noescape")
	out, self, idx := Load(Param("out").Base(), GP64()), Load(Param("self").Base(), GP64()), Load(Param("idx").Base(), GP64())
	nself, nidx := Load(Param("nextSelf").Base(), GP64()), Load(Param("nextIdx").Base(), GP64())
	size64 := Load(Param("self").Len(), GP64())
	n := Load(Param("idx").Len(), GP64())
	pn := Load(Param("nextIdx").Len(), GP64())
	t, j, v := GP64(), GP64(), GP64()
	XORQ(t, t)

	move := func(off int, bad string) {
		MOVQ(Mem{Base: idx, Index: t, Scale: 8, Disp: 8 * off}, j)
		CMPQ(j, size64)
		JAE(LabelRef(bad))
		src := Mem{Base: self, Index: j, Scale: size}
		dst := Mem{Base: out, Index: t, Scale: size, Disp: int(size) * off}
		switch size {
		case 1:
			MOVBLZX(src, v.As32())
			MOVB(v.As8(), dst)
		case 2:
			MOVWLZX(src, v.As32())
			MOVW(v.As16(), dst)
		case 4:
			MOVL(src, v.As32())
			MOVL(v.As32(), dst)
		default:
			MOVQ(src, v)
			MOVQ(v, dst)
		}
	}
	pf := func(off int) {
		MOVQ(Mem{Base: nidx, Index: t, Scale: 8, Disp: 8 * off}, j)
		PREFETCHT0(Mem{Base: nself, Index: j, Scale: size})
	}

	// main loop: while t + gatherUnroll <= min(n, pn)
	both := GP64()
	MOVQ(n, both)
	CMPQ(pn, both)
	CMOVQLT(pn, both)
	SUBQ(U8(gatherUnroll-1), both) // t < both ⇔ t + gatherUnroll <= min(n, pn)
	main, single := name+"_main", name+"_single"
	JMP(LabelRef(main + "_check"))
	Label(main)
	for k := 0; k < gatherUnroll; k++ {
		move(k, single+"_check")
	}
	for k := 0; k < gatherUnroll; k++ {
		pf(k)
	}
	ADDQ(U8(gatherUnroll), t)
	Label(main + "_check")
	CMPQ(t, both)
	JLT(LabelRef(main))

	// one element at a time, with its prefetch while there is one
	done := name + "_moved"
	JMP(LabelRef(single + "_check"))
	Label(single)
	move(0, name+"_bad")
	CMPQ(t, pn)
	JAE(LabelRef(single + "_next"))
	pf(0)
	Label(single + "_next")
	INCQ(t)
	Label(single + "_check")
	CMPQ(t, n)
	JLT(LabelRef(single))
	JMP(LabelRef(done))

	Label(name + "_bad")
	Store(t, ReturnIndex(0))
	RET()

	// the next chunk's prefetches beyond n
	Label(done)
	rest := name + "_rest"
	JMP(LabelRef(rest + "_check"))
	Label(rest)
	pf(0)
	INCQ(t)
	Label(rest + "_check")
	CMPQ(t, pn)
	JLT(LabelRef(rest))
	Store(n, ReturnIndex(0))
	RET()
}
