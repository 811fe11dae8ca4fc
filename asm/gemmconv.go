package main

// This file generates package gemm's converting packs: slivers of float16
// or bfloat16 operands packed as float32 (packCopyConvGo's and
// packTransConvGo's loops), for the products of 16-bit floats on the
// float32 kernels. float16 converts with F16C's VCVTPH2PS, bfloat16 by
// zero-extending to 32 bits and shifting into the high half (exact).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// half16 is a 16-bit float type's conversion to float32.
type half16 struct {
	name string // F16, BF16
	f16  bool
}

var (
	halfF16  = half16{"F16", true}
	halfBF16 = half16{"BF16", false}
)

// load converts n (8, 4 or 2) elements at m into the low n lanes of a new
// YMM register (XMM for n < 8).
func (h half16) load(m Mem, n int) reg.VecVirtual {
	dst := YMM()
	if n < 8 {
		dst = XMM()
	}
	var src Op = m
	if n == 2 {
		x := XMM()
		VMOVD(m, x)
		src = x
	}
	if h.f16 {
		VCVTPH2PS(src, dst)
	} else {
		VPMOVZXWD(src, dst)
		VPSLLD(U8(16), dst, dst)
	}
	return dst
}

// scalar converts the element at src into the float32 at dst.
func (h half16) scalar(src, dst Mem) {
	g := GP32()
	MOVWLZX(src, g)
	if h.f16 {
		x := XMM()
		VMOVD(g, x)
		VCVTPH2PS(x, x)
		VMOVSS(x, dst)
		return
	}
	SHLL(U8(16), g)
	MOVL(g, dst)
}

// convSig is the signature of the converting packs.
const convSig = "func(k int, src *uint16, ld int, dst *float32)"

// packCopyConv emits
//
//	func name(k int, src *uint16, ld int, dst *float32)
//
// which sets dst[p*w+i] = float32(src[p*ld+i]) for p < k, i < w (w even).
func packCopyConv(name string, h half16, w int) {
	TEXT(name, NOSPLIT, convSig)
	Doc(fmt.Sprintf("%s is packCopyConvGo with w = %d and the %s conversion in assembly; see there for the exact loop.", name, w, h.name))
	Pragma("noescape")
	if w%2 != 0 {
		panic("packCopyConv: odd w")
	}
	k, src, ld, dst := packPrologLd(1)
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_loop")
	for i := 0; i < w; {
		n := 8
		for w-i < n {
			n /= 2
		}
		v := h.load(Mem{Base: src, Disp: 2 * i}, n)
		switch n {
		case 8, 4:
			VMOVUPS(v, Mem{Base: dst, Disp: 4 * i})
		case 2:
			VMOVSD(v, Mem{Base: dst, Disp: 4 * i})
		}
		i += n
	}
	ADDQ(ld, src)
	ADDQ(U32(4*w), dst)
	DECQ(k)
	JNZ(LabelRef(name + "_loop"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// packTransConv emits
//
//	func name(k int, src *uint16, ld int, dst *float32)
//
// which sets dst[p*w+i] = float32(src[i*ld+p]) for p < k, i < w: eight k
// steps at a time, each group of eight rows converted and transposed in
// registers, then the rest element by element.
func packTransConv(name string, h half16, w int) {
	TEXT(name, NOSPLIT, convSig)
	Doc(fmt.Sprintf("%s is packTransConvGo with w = %d and the %s conversion in assembly; see there for the exact loop.", name, w, h.name))
	Pragma("noescape")
	k, src, ld, dst := packPrologLd(1)
	const step = 8
	rows := newRowAddr(src, ld, w)
	nb := GP64()
	MOVQ(k, nb)
	SHRQ(U8(3), nb)
	JZ(LabelRef(name + "_tail"))
	Label(name + "_block")
	for g := 0; g < w; g += step {
		n := min(step, w-g)
		var r []reg.VecVirtual
		for i := 0; i < n; i++ {
			r = append(r, h.load(rows.at(g+i), 8))
		}
		cols := transpose8x8(r)
		for p, c := range cols {
			storeN(f32, c, n, Mem{Base: dst, Disp: (p*w + g) * 4})
		}
	}
	rows.advance(2 * step)
	ADDQ(U32(4*step*w), dst)
	DECQ(nb)
	JNZ(LabelRef(name + "_block"))

	Label(name + "_tail")
	ANDQ(U8(step-1), k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_scalar")
	for i := 0; i < w; i++ {
		h.scalar(rows.at(i), Mem{Base: dst, Disp: 4 * i})
	}
	rows.advance(2)
	ADDQ(U32(4*w), dst)
	DECQ(k)
	JNZ(LabelRef(name + "_scalar"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
