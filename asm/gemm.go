package main

// This file generates package gemm: the register-blocked microkernels of the
// float32 and float64 matrix products (see that package's doc for the
// packed layouts they read).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genGemm emits every function of package gemm.
func genGemm() {
	ConstraintExpr("amd64,!purego")

	microkernel("kernelF32AVX2", "float32", f32)
	microkernel("kernelF64AVX2", "float64", f64)

	packCopy("packCopy6F32AVX2", "float32", f32, 6)
	packCopy("packCopy16F32AVX2", "float32", f32, 16)
	packTrans("packTrans6F32AVX2", "float32", f32, 6)
	packTrans("packTrans16F32AVX2", "float32", f32, 16)
	packCopy("packCopy6F64AVX2", "float64", f64, 6)
	packCopy("packCopy8F64AVX2", "float64", f64, 8)
	packTrans("packTrans6F64AVX2", "float64", f64, 6)
	packTrans("packTrans8F64AVX2", "float64", f64, 8)

	microkernel512(zkernel{"kernelF32x12x32AVX512", f32, 12, 2, 4, false})
	microkernel512(zkernel{"kernelF64x12x16AVX512", f64, 12, 2, 4, false})
	microkernel512(zkernel{"kernelBF16x12x32AVX512", f32, 12, 2, 4, true})
	for _, w := range []int{12, 32} {
		packCopyPairs(fmt.Sprintf("packCopyPairs%dAVX2", w), w)
		packTransPairs(fmt.Sprintf("packTransPairs%dAVX2", w), w)
	}
	packCopy("packCopy12F32AVX2", "float32", f32, 12)
	packTrans("packTrans12F32AVX2", "float32", f32, 12)
	packCopy("packCopy32F32AVX2", "float32", f32, 32)
	packTrans("packTrans32F32AVX2", "float32", f32, 32)
	packCopy("packCopy12F64AVX2", "float64", f64, 12)
	packTrans("packTrans12F64AVX2", "float64", f64, 12)
	packCopy("packCopy16F64AVX2", "float64", f64, 16)
	packTrans("packTrans16F64AVX2", "float64", f64, 16)
	for _, h := range []half16{halfF16, halfBF16} {
		for _, w := range []int{6, 12, 16, 32} {
			packCopyConv(fmt.Sprintf("packCopy%d%sAVX2", w, h.name), h, w)
			packTransConv(fmt.Sprintf("packTrans%d%sAVX2", w, h.name), h, w)
		}
	}

	genGemv()
}

// Microkernel geometry: mr rows of C by two vectors (2·step columns), held
// in twelve accumulators Y0-Y11 (row r in Y(2r), Y(2r+1)). Y12 and Y13 hold
// the current row of the B sliver, Y14 and Y15 take turns holding the
// broadcast element of A. Only the 16 VEX registers are used.
const (
	mr        = 6
	kUnroll   = 4
	prefetchA = 8 // k steps of A to prefetch ahead
)

// microkernel emits
//
//	func name(k int, a, b, c *T, ldc int, alpha, beta T)
//
// which computes the mr×nr product of the packed sliver a (k steps of mr
// elements) by the packed sliver b (k steps of nr elements) and stores
// C = alpha·AB + beta·C into the mr×nr tile at c with row stride ldc
// elements and unit column stride. beta == 0 stores alpha·AB without reading
// C (so NaN in C is ignored); a NaN beta takes the general path.
func microkernel(name, elem string, t ftype) {
	nr := 2 * t.step
	size := int(t.size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a, b, c *%s, ldc int, alpha, beta %s)", elem, elem))
	Doc(fmt.Sprintf("%s is %s in assembly; see there for the exact computation.", name, name[:len(name)-4]+"Go"))
	Pragma("noescape")

	ys := []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7,
		reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14, reg.Y15}
	acc := ys[:2*mr]
	b0, b1 := ys[12], ys[13]
	bc := [2]reg.VecPhysical{ys[14], ys[15]}

	var (
		fma, mul, xor func(...Op)
		ucomis        func(mx, x Op)
	)
	if t.size == 4 {
		fma, mul, xor, ucomis = VFMADD231PS, VMULPS, VXORPS, VUCOMISS
	} else {
		fma, mul, xor, ucomis = VFMADD231PD, VMULPD, VXORPD, VUCOMISD
	}

	kk := Load(Param("k"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	if size == 4 {
		SHLQ(U8(2), ldc)
	} else {
		SHLQ(U8(3), ldc)
	}

	Comment("Prefetch the C tile (each row spans at most two cache lines).")
	row := GP64()
	MOVQ(pc, row)
	for r := 0; r < mr; r++ {
		PREFETCHT0(Mem{Base: row})
		PREFETCHT0(Mem{Base: row, Disp: nr*size - 1})
		if r < mr-1 {
			ADDQ(ldc, row)
		}
	}

	for _, y := range acc {
		xor(y, y, y)
	}

	// step emits one k step at offset u (in k steps) from pa, pb.
	step := func(u int) {
		t.load(Mem{Base: pb, Disp: u * nr * size}, b0)
		t.load(Mem{Base: pb, Disp: u*nr*size + 32}, b1)
		for r := 0; r < mr; r++ {
			x := bc[r%2]
			t.bcast(Mem{Base: pa, Disp: (u*mr + r) * size}, x)
			fma(b0, x, acc[2*r])
			fma(b1, x, acc[2*r+1])
		}
	}

	n4 := GP64()
	MOVQ(kk, n4)
	SHRQ(U8(2), n4)
	JZ(LabelRef(name + "_tail"))
	Label(name + "_loop")
	PREFETCHT0(Mem{Base: pa, Disp: prefetchA * mr * size})
	for u := 0; u < kUnroll; u++ {
		step(u)
	}
	ADDQ(U32(kUnroll*mr*size), pa)
	ADDQ(U32(kUnroll*nr*size), pb)
	DECQ(n4)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_tail")
	ANDQ(U8(kUnroll-1), kk)
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
	t.bcast(alpha.Addr, b0)
	zero := bc[0]
	xor(zero, zero, zero)
	ucomis(beta.Addr, zero.AsX())
	JNE(LabelRef(name + "_beta"))
	JP(LabelRef(name + "_beta"))

	Comment("beta == 0: C = alpha·AB, C not read.")
	for r := 0; r < mr; r++ {
		mul(b0, acc[2*r], acc[2*r])
		mul(b0, acc[2*r+1], acc[2*r+1])
		t.store(acc[2*r], Mem{Base: pc})
		t.store(acc[2*r+1], Mem{Base: pc, Disp: 32})
		if r < mr-1 {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()

	Label(name + "_beta")
	Comment("C = alpha·AB + beta·C.")
	t.bcast(beta.Addr, b1)
	for r := 0; r < mr; r++ {
		mul(b0, acc[2*r], acc[2*r])
		mul(b0, acc[2*r+1], acc[2*r+1])
		fma(Mem{Base: pc}, b1, acc[2*r])
		fma(Mem{Base: pc, Disp: 32}, b1, acc[2*r+1])
		t.store(acc[2*r], Mem{Base: pc})
		t.store(acc[2*r+1], Mem{Base: pc, Disp: 32})
		if r < mr-1 {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// packSig is the signature of the packing routines.
func packSig(elem string) string {
	return fmt.Sprintf("func(k int, src *%s, ld int, dst *%s)", elem, elem)
}

// packProlog loads the packing routines' parameters, ld scaled to bytes
// (ld counts elements of t).
func packProlog(t ftype) (k, src, ld, dst reg.Register) {
	return packPrologLd(log2(int(t.size)))
}

// packPrologLd is packProlog for an ld counting elements of 1<<ldShift
// bytes.
func packPrologLd(ldShift uint8) (k, src, ld, dst reg.Register) {
	k = Load(Param("k"), GP64())
	src = Load(Param("src"), GP64())
	ld = Load(Param("ld"), GP64())
	dst = Load(Param("dst"), GP64())
	SHLQ(U8(ldShift), ld)
	return
}

// storeN stores the first n elements of the vector y at m with full-width,
// 128-bit and 64-bit moves, never writing past them (n ≤ the vector's
// lanes).
func storeN(t ftype, y reg.VecVirtual, n int, m Mem) {
	bytes := n * int(t.size)
	switch {
	case bytes == 32:
		VMOVUPS(y, m)
		return
	case bytes >= 16:
		VMOVUPS(y.AsX(), m)
		bytes -= 16
		m.Disp += 16
		if bytes == 0 {
			return
		}
		hi := XMM()
		VEXTRACTF128(U8(1), y, hi)
		if bytes == 8 {
			VMOVSD(hi, m)
		} else {
			VMOVUPS(hi, m)
		}
	case bytes == 8:
		VMOVSD(y.AsX(), m)
	default:
		panic("storeN")
	}
}

// packCopy emits
//
//	func name(k int, src *T, ld int, dst *T)
//
// which sets dst[p*w+i] = src[p*ld+i] for p < k, i < w: w contiguous
// elements per k step (a sliver of column-major A or of row-major B).
func packCopy(name, elem string, t ftype, w int) {
	TEXT(name, NOSPLIT, packSig(elem))
	Doc(fmt.Sprintf("%s is packCopyGo with w = %d in assembly; see there for the exact loop.", name, w))
	Pragma("noescape")
	k, src, ld, dst := packProlog(t)
	wb := w * int(t.size)
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_loop")
	for off := 0; off < wb; {
		switch n := wb - off; {
		case n >= 32:
			y := YMM()
			VMOVUPS(Mem{Base: src, Disp: off}, y)
			VMOVUPS(y, Mem{Base: dst, Disp: off})
			off += 32
		case n >= 16:
			x := XMM()
			VMOVUPS(Mem{Base: src, Disp: off}, x)
			VMOVUPS(x, Mem{Base: dst, Disp: off})
			off += 16
		default:
			x := XMM()
			VMOVSD(Mem{Base: src, Disp: off}, x)
			VMOVSD(x, Mem{Base: dst, Disp: off})
			off += 8
		}
	}
	ADDQ(ld, src)
	ADDQ(U32(wb), dst)
	DECQ(k)
	JNZ(LabelRef(name + "_loop"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// packTrans emits
//
//	func name(k int, src *T, ld int, dst *T)
//
// which sets dst[p*w+i] = src[i*ld+p] for p < k, i < w: w rows of
// contiguous elements interleaved one k step at a time (a sliver of
// row-major A or of column-major B). Blocks of step k steps go through
// register transposes, the rest element by element.
func packTrans(name, elem string, t ftype, w int) {
	TEXT(name, NOSPLIT, packSig(elem))
	Doc(fmt.Sprintf("%s is packTransGo with w = %d in assembly; see there for the exact loop.", name, w))
	Pragma("noescape")
	packTransBody(name, t, w, log2(int(t.size)))
}

// packTransBody emits packTrans's loop for a function already begun whose
// ld counts elements of 1<<ldShift bytes.
func packTransBody(name string, t ftype, w int, ldShift uint8) {
	k, src, ld, dst := packPrologLd(ldShift)
	size := int(t.size)
	step := t.step

	rows := newRowAddr(src, ld, w)
	nb := GP64()
	MOVQ(k, nb)
	SHRQ(U8(log2(step)), nb)
	JZ(LabelRef(name + "_tail"))
	Label(name + "_block")
	for g := 0; g < w; g += step {
		n := min(step, w-g)
		var r []reg.VecVirtual
		for i := 0; i < n; i++ {
			y := YMM()
			VMOVUPS(rows.at(g+i), y)
			r = append(r, y)
		}
		var cols []reg.VecVirtual
		if size == 4 {
			cols = transpose8x8(r)
		} else {
			cols = transpose4x4(r)
		}
		// cols[p] holds rows g … g+n-1 at k step p in its first n lanes.
		for p, c := range cols {
			storeN(t, c, n, Mem{Base: dst, Disp: (p*w + g) * size})
		}
	}
	rows.advance(step * size)
	ADDQ(U32(step*w*size), dst)
	DECQ(nb)
	JNZ(LabelRef(name + "_block"))

	Label(name + "_tail")
	ANDQ(U8(step-1), k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_scalar")
	for i := 0; i < w; i++ {
		x := XMM()
		t.loadS(rows.at(i), x)
		t.storeS(x, Mem{Base: dst, Disp: i * size})
	}
	rows.advance(size)
	ADDQ(U32(w*size), dst)
	DECQ(k)
	JNZ(LabelRef(name + "_scalar"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// rowAddr addresses rows 0 … w-1 of a matrix with row stride ld bytes: one
// base register per group of four rows, row 4q+r at base q + r·ld (r = 3
// through a register holding 3·ld).
type rowAddr struct {
	bases   []reg.Register
	ld, ld3 reg.Register
}

func newRowAddr(src, ld reg.Register, w int) *rowAddr {
	a := &rowAddr{ld: ld, ld3: GP64()}
	LEAQ(Mem{Base: ld, Index: ld, Scale: 2}, a.ld3)
	a.bases = append(a.bases, src)
	for q := 1; q*4 < w; q++ {
		b := GP64()
		LEAQ(Mem{Base: a.bases[q-1], Index: ld, Scale: 4}, b)
		a.bases = append(a.bases, b)
	}
	return a
}

func (a *rowAddr) at(i int) Mem {
	b := a.bases[i/4]
	switch i % 4 {
	case 0:
		return Mem{Base: b}
	case 1:
		return Mem{Base: b, Index: a.ld, Scale: 1}
	case 2:
		return Mem{Base: b, Index: a.ld, Scale: 2}
	}
	return Mem{Base: b, Index: a.ld3, Scale: 1}
}

// advance moves every row on by n bytes.
func (a *rowAddr) advance(n int) {
	for _, b := range a.bases {
		ADDQ(U32(n), b)
	}
}

func log2(n int) uint8 {
	l := uint8(0)
	for 1<<l < n {
		l++
	}
	return l
}

// transpose8x8 transposes up to eight rows of eight float32 (missing rows
// read as zero): column p of the result holds element p of each row.
func transpose8x8(r []reg.VecVirtual) []reg.VecVirtual {
	var zero reg.VecVirtual
	row := func(i int) reg.VecVirtual {
		if i < len(r) {
			return r[i]
		}
		if zero == nil {
			zero = YMM()
			VXORPS(zero, zero, zero)
		}
		return zero
	}
	// t[2j], t[2j+1]: rows 2j and 2j+1 interleaved (elements 0,1,4,5 and 2,3,6,7).
	var tt [8]reg.VecVirtual
	for j := 0; j < 4; j++ {
		if 2*j >= len(r) {
			tt[2*j], tt[2*j+1] = row(2*j), row(2*j)
			continue
		}
		tt[2*j], tt[2*j+1] = YMM(), YMM()
		VUNPCKLPS(row(2*j+1), row(2*j), tt[2*j])
		VUNPCKHPS(row(2*j+1), row(2*j), tt[2*j+1])
	}
	// s[4h+q]: rows 4h … 4h+3 at elements q and q+4.
	var ss [8]reg.VecVirtual
	for h := 0; h < 2; h++ {
		for q := 0; q < 4; q++ {
			a, b := tt[4*h+q/2], tt[4*h+2+q/2]
			imm := uint8(0x44)
			if q%2 == 1 {
				imm = 0xEE
			}
			y := YMM()
			VSHUFPS(U8(imm), b, a, y)
			ss[4*h+q] = y
		}
	}
	cols := make([]reg.VecVirtual, 8)
	for q := 0; q < 4; q++ {
		lo, hi := YMM(), YMM()
		VPERM2F128(U8(0x20), ss[4+q], ss[q], lo)
		VPERM2F128(U8(0x31), ss[4+q], ss[q], hi)
		cols[q], cols[q+4] = lo, hi
	}
	return cols
}

// transpose4x4 transposes up to four rows of four float64 (missing rows
// read as zero).
func transpose4x4(r []reg.VecVirtual) []reg.VecVirtual {
	var zero reg.VecVirtual
	row := func(i int) reg.VecVirtual {
		if i < len(r) {
			return r[i]
		}
		if zero == nil {
			zero = YMM()
			VXORPD(zero, zero, zero)
		}
		return zero
	}
	// t0 = r0[0] r1[0] | r0[2] r1[2], t1 = r0[1] r1[1] | r0[3] r1[3], t2, t3 likewise for r2, r3.
	var tt [4]reg.VecVirtual
	for j := 0; j < 2; j++ {
		if 2*j >= len(r) {
			tt[2*j], tt[2*j+1] = row(2*j), row(2*j)
			continue
		}
		tt[2*j], tt[2*j+1] = YMM(), YMM()
		VUNPCKLPD(row(2*j+1), row(2*j), tt[2*j])
		VUNPCKHPD(row(2*j+1), row(2*j), tt[2*j+1])
	}
	cols := make([]reg.VecVirtual, 4)
	for q := 0; q < 2; q++ {
		lo, hi := YMM(), YMM()
		VPERM2F128(U8(0x20), tt[2+q], tt[q], lo)
		VPERM2F128(U8(0x31), tt[2+q], tt[q], hi)
		cols[q], cols[q+2] = lo, hi
	}
	return cols
}
