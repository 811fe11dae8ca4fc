package main

// This file generates package gemm's matrix-vector kernels (gemv.go
// there): dot products of up to four rows of A with x, and x-weighted sums
// of up to four columns of A added into y. They are bound by memory, so
// AVX2 and FMA serve every level, but for the row products, whose AVX-512
// kernels read a row's cache line in one load instead of two.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genGemv emits the matrix-vector kernels of both float types.
func genGemv() {
	for _, t := range []ftype{f32, f64} {
		for _, rows := range []int{1, 4} {
			gemvDot(fmt.Sprintf("gemvDot%d%sAVX2", rows, t.name), t, rows)
		}
		for _, cols := range []int{1, 4} {
			gemvAxpy(fmt.Sprintf("gemvAxpy%d%sAVX2", cols, t.name), t, cols)
		}
	}
	gemvDotRows(false)
	gemvDotRows(true)
	gemvDotRows4()
	gemvDotRows4AVX512()
}

// gemvDotRows emits
//
//	func gemvDotRowsF32<LEVEL>(k int, a *float32, lda int, x *float32, y *float32, rows int)
//
// which sets y[r] = Σ_p a[r*lda+p]·x[p] for r < rows, row after row in
// one loop (Note [Matrix-vector products] in package gemm): each row
// sums into four accumulators of 16 lanes (AVX-512) or eight of 8 (AVX2),
// one vector each a trip of 64 elements, the row's elements read as the
// multiply-adds' memory operands, then one accumulator a vector, the
// accumulators added pairwise (j with j+4 where there are eight, then
// j+2, j+1), the lanes (halves, then pairs), and the last elements one by
// one. One row at a time is one
// stream of memory, and the x it reads is in the L1 cache. Four AVX-512
// accumulators keep the loads busy: each multiply-add loads two vectors,
// one of A and one of x, and two loads a cycle take one multiply-add a
// cycle, which four chains of four cycles' latency sustain; four also
// leave gemvDotRows4AVX512 room for four rows' in registers.
func gemvDotRows(avx512 bool) {
	d := newDotRow(avx512)
	name := d.name("gemvDotRowsF32")
	TEXT(name, NOSPLIT, "func(k int, a *float32, lda int, x *float32, y *float32, rows int)")
	Doc(name + " is gemvDotGo's product, row after row; see the generator for its order of additions.")
	Pragma("noescape")
	k := Load(Param("k"), GP64())
	pa := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	rows := Load(Param("rows"), GP64())
	SHLQ(U8(2), lda)
	r := GP64()
	XORQ(r, r)
	tail(name+"_row", rows, r, func() {
		acc := d.zeros()
		i := GP64()
		XORQ(i, i)
		d.rest(name, k, pa, px, i, acc, Mem{Base: py, Index: r, Scale: 4})
		ADDQ(lda, pa)
	})
	VZEROUPPER()
	RET()
}

// gemvDotRows4 emits
//
//	func gemvDotRows4F32AVX2(k int, a *float32, lda int, x *float32, y *float32, q, n int)
//
// gemvDotRows on rows j, j+q, j+2q and j+3q for each j < n, read four at
// a time as four streams (Note [Four streams] in package vec): the four
// rows together, 256 elements of each in turn, their accumulators kept on
// the stack between turns; then each row's rest as gemvDotRows ends it,
// so each row's bits are gemvDotRows'. Row j+t·q's product goes to
// y[4j+t].
func gemvDotRows4() {
	d := newDotRow(false)
	name := d.name("gemvDotRows4F32")
	// not NOSPLIT: the frame is larger than a NOSPLIT chain may use
	TEXT(name, 0, "func(k int, a *float32, lda int, x *float32, y *float32, q int, n int)")
	Doc(name + " is gemvDotGo's product on rows j, j+q, j+2q and j+3q (j < n) together; see the generator.")
	Pragma("noescape")
	const rowState = 8 * 32 // eight YMM accumulators
	state := AllocLocal(4*rowState + 8)
	at := func(t, a int) Mem { return state.Offset(rowState*t + 32*a) }
	rows4Frame(name, state.Offset(4*rowState), func(k, px, py reg.Register, rows [4]reg.Register) {
		z := YMM()
		VXORPS(z, z, z)
		for t := range rows {
			for a := 0; a < 8; a++ {
				VMOVUPS(z, at(t, a))
			}
		}
		load := func(t int) []reg.VecVirtual {
			acc := make([]reg.VecVirtual, 8)
			for a := range acc {
				acc[a] = YMM()
				VMOVUPS(at(t, a), acc[a])
			}
			return acc
		}
		store := func(t int, acc []reg.VecVirtual) {
			for a, r := range acc {
				VMOVUPS(r, at(t, a))
			}
		}
		// a main trip is 8·8 = 64 elements, turns' step
		i := turns(name, rows, k, load, store, func(row, i reg.Register, off int, acc []reg.VecVirtual) { d.step(row, px, i, off, acc) })
		for t, row := range rows {
			it := GP64()
			MOVQ(i, it)
			d.rest(fmt.Sprintf("%s_row%d", name, t), k, row, px, it, load(t), Mem{Base: py, Disp: 4 * t})
		}
	})
	VZEROUPPER()
	RET()
}

// rows4Frame emits the frame of a four-row kernel (gemvDotRows4's
// signature): its parameters, and for each j < n a call of group with k,
// x, y and the addresses of rows j, j+q, j+2q and j+3q, y moving on 16
// bytes and row j by one row after each. gapAt is 8 bytes of the frame
// for the bytes from row j to row j+q.
func rows4Frame(name string, gapAt Mem, group func(k, px, py reg.Register, rows [4]reg.Register)) {
	k := Load(Param("k"), GP64())
	pa := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	SHLQ(U8(2), lda)
	gap := Load(Param("q"), GP64())
	IMULQ(lda, gap)
	MOVQ(gap, gapAt)
	n := Load(Param("n"), GP64())
	j := GP64()
	XORQ(j, j)
	tail(name+"_group", n, j, func() {
		rows := [4]reg.Register{pa, GP64(), GP64(), GP64()}
		for t := 1; t < len(rows); t++ {
			MOVQ(rows[t-1], rows[t])
			ADDQ(gapAt, rows[t])
		}
		group(k, px, py, rows)
		ADDQ(U8(16), py)
		ADDQ(lda, pa)
	})
}

// gemvDotRows4AVX512 emits
//
//	func gemvDotRows4F32AVX512(k int, a *float32, lda int, x *float32, y *float32, q, n int)
//
// gemvDotRows4's contract at AVX-512, with gemvDotRowsF32AVX512's bits:
// the four rows' accumulators (four each) stay in registers, so a trip
// loads x's four vectors once and multiplies them with each row's; the
// four rows advance together, a trip (256 bytes) of each in turn. Keeping
// the accumulators on the stack between turns, as the AVX2 kernel must,
// cost more than the four streams gain with eight ZMM accumulators a row.
func gemvDotRows4AVX512() {
	d := newDotRow(true)
	name := d.name("gemvDotRows4F32")
	TEXT(name, NOSPLIT, "func(k int, a *float32, lda int, x *float32, y *float32, q int, n int)")
	Doc(name + " is gemvDotGo's product on rows j, j+q, j+2q and j+3q (j < n) together; see the generator.")
	Pragma("noescape")
	rows4Frame(name, AllocLocal(8), func(k, px, py reg.Register, rows [4]reg.Register) {
		var acc [4][]reg.VecVirtual
		for t := range acc {
			acc[t] = d.zeros()
		}
		i := GP64()
		XORQ(i, i)
		loop(name+"_main", k, i, d.accs*d.lanes, func() {
			xs := make([]reg.VecVirtual, d.accs)
			for a := range xs {
				xs[a] = d.vreg()
				VMOVUPS(elem(px, i, 4, d.lanes*a), xs[a])
			}
			for t, row := range rows {
				for a, v := range xs {
					VFMADD231PS(elem(row, i, 4, d.lanes*a), v, acc[t][a])
				}
			}
		})
		for t, row := range rows {
			it := GP64()
			MOVQ(i, it)
			d.rest(fmt.Sprintf("%s_row%d", name, t), k, row, px, it, acc[t], Mem{Base: py, Disp: 4 * t})
		}
	})
	VZEROUPPER()
	RET()
}

// dotRow is the loop of gemvDotRows over one row, at one level: accs
// accumulators of lanes float32 (YMM or ZMM registers), a trip of
// accs·lanes elements.
type dotRow struct {
	avx512 bool
	lanes  int
	accs   int
}

func newDotRow(avx512 bool) dotRow {
	if avx512 {
		return dotRow{avx512: true, lanes: 16, accs: 4}
	}
	return dotRow{lanes: 8, accs: 8}
}

func (d dotRow) name(base string) string {
	if d.avx512 {
		return base + "AVX512"
	}
	return base + "AVX2"
}

func (d dotRow) vreg() reg.VecVirtual {
	if d.avx512 {
		return ZMM()
	}
	return YMM()
}

// zeros returns the accumulators, zeroed.
func (d dotRow) zeros() []reg.VecVirtual {
	acc := make([]reg.VecVirtual, d.accs)
	for j := range acc {
		acc[j] = d.vreg()
		VXORPS(acc[j], acc[j], acc[j])
	}
	return acc
}

// step is the main trip: the accs·lanes elements at pa[i+off:] times
// x's, vector j into accumulator j.
func (d dotRow) step(pa, px, i reg.Register, off int, acc []reg.VecVirtual) {
	for j := range acc {
		v := d.vreg()
		VMOVUPS(elem(px, i, 4, off+d.lanes*j), v)
		VFMADD231PS(elem(pa, i, 4, off+d.lanes*j), v, acc[j])
	}
}

// rest emits the row's loops from element i on (a multiple of
// accs·lanes), acc holding the products before it, and stores the row's
// sum at out: the main trips, one vector a trip into accumulator 0, the
// accumulators added pairwise (j with j+accs/2, ..., j+1), the lanes
// (halves, then pairs), and the last elements one by one. Its labels
// start with name.
func (d dotRow) rest(name string, k, pa, px, i reg.Register, acc []reg.VecVirtual, out Mem) {
	loop(name+"_main", k, i, d.accs*d.lanes, func() { d.step(pa, px, i, 0, acc) })
	loop(name+"_vector", k, i, d.lanes, func() {
		v := d.vreg()
		VMOVUPS(elem(px, i, 4, 0), v)
		VFMADD231PS(elem(pa, i, 4, 0), v, acc[0])
	})
	for h := d.accs / 2; h > 0; h /= 2 {
		for j := 0; j < h; j++ {
			VADDPS(acc[j+h], acc[j], acc[j])
		}
	}
	s := acc[0]
	if d.avx512 {
		y := YMM()
		VEXTRACTF64X4(U8(1), acc[0], y)
		s = asY(acc[0])
		VADDPS(y, s, s)
	}
	hsum(f32, s)
	xs := asX(s)
	tail(name+"_scalar", k, i, func() {
		t := XMM()
		VMOVSS(elem(px, i, 4, 0), t)
		VFMADD231SS(elem(pa, i, 4, 0), t, xs)
	})
	VMOVSS(xs, out)
}

// hsum adds the lanes of y into the low lane of y's XMM, in a fixed order:
// the halves, then pairs, then the last two.
func hsum(t ftype, y reg.VecVirtual) {
	hi := XMM()
	VEXTRACTF128(U8(1), y, hi)
	x := y.AsX()
	if t.size == 4 {
		VADDPS(hi, x, x)
		VMOVHLPS(x, x, hi)
		VADDPS(hi, x, x)
		VMOVSHDUP(x, hi)
		VADDSS(hi, x, x)
	} else {
		VADDPD(hi, x, x)
		VUNPCKHPD(x, x, hi)
		VADDSD(hi, x, x)
	}
}

// gemvDot emits
//
//	func name(k int, a *T, lda int, x *T, y *T)
//
// which sets y[r] = Σ_p a[r*lda+p]·x[p] for r < rows: each row sums into
// two vectors of lanes (2·step elements a trip), then one vector (step
// elements), which are added together and across lanes (hsum), and the
// last k mod step elements one by one. Every row runs the same sequence
// whatever rows is, so a row's sum does not depend on the rows beside it.
func gemvDot(name string, t ftype, rows int) {
	TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a *%s, lda int, x *%s, y *%s)", t.gotype, t.gotype, t.gotype))
	Doc(fmt.Sprintf("%s is gemvDotGo with %d rows in assembly; see there for the exact computation.", name, rows))
	Pragma("noescape")
	size := int(t.size)
	step := t.step
	k := Load(Param("k"), GP64())
	pa := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	SHLQ(U8(log2(size)), lda)
	ra := newRowAddr(pa, lda, rows)
	acc := make([][2]reg.VecVirtual, rows)
	for r := range acc {
		acc[r] = [2]reg.VecVirtual{YMM(), YMM()}
		VXORPS(acc[r][0], acc[r][0], acc[r][0])
		VXORPS(acc[r][1], acc[r][1], acc[r][1])
	}
	n := GP64()
	MOVQ(k, n)
	SHRQ(U8(log2(2*step)), n)
	JZ(LabelRef(name + "_one"))
	Label(name + "_loop")
	x0, x1 := YMM(), YMM()
	t.load(Mem{Base: px}, x0)
	t.load(Mem{Base: px, Disp: 32}, x1)
	for r := 0; r < rows; r++ {
		m := ra.at(r)
		t.fma(m, x0, acc[r][0])
		m.Disp += 32
		t.fma(m, x1, acc[r][1])
	}
	ra.advance(64)
	ADDQ(U8(64), px)
	DECQ(n)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_one")
	TESTQ(U32(step), k)
	JZ(LabelRef(name + "_sum"))
	x2 := YMM()
	t.load(Mem{Base: px}, x2)
	for r := 0; r < rows; r++ {
		t.fma(ra.at(r), x2, acc[r][0])
	}
	ra.advance(32)
	ADDQ(U8(32), px)

	Label(name + "_sum")
	for r := 0; r < rows; r++ {
		t.add(acc[r][1], acc[r][0], acc[r][0])
		hsum(t, acc[r][0])
	}
	ANDQ(U8(step-1), k)
	JZ(LabelRef(name + "_store"))
	Label(name + "_tail")
	xs := XMM()
	t.loadS(Mem{Base: px}, xs)
	for r := 0; r < rows; r++ {
		if t.size == 4 {
			VFMADD231SS(ra.at(r), xs, acc[r][0].AsX())
		} else {
			VFMADD231SD(ra.at(r), xs, acc[r][0].AsX())
		}
	}
	ra.advance(size)
	ADDQ(U8(size), px)
	DECQ(k)
	JNZ(LabelRef(name + "_tail"))

	Label(name + "_store")
	for r := 0; r < rows; r++ {
		t.storeS(acc[r][0].AsX(), Mem{Base: py, Disp: r * size})
	}
	VZEROUPPER()
	RET()
}

// gemvAxpy emits
//
//	func name(m int, a *T, lda int, x *T, y *T)
//
// which adds x[c]·a[c*lda+i] to y[i] for i < m, column after column (c <
// cols), one fused multiply-add each: two vectors of y a trip, then one,
// then the last m mod step elements one by one.
func gemvAxpy(name string, t ftype, cols int) {
	TEXT(name, NOSPLIT, fmt.Sprintf("func(m int, a *%s, lda int, x *%s, y *%s)", t.gotype, t.gotype, t.gotype))
	Doc(fmt.Sprintf("%s is gemvAxpyGo with %d columns in assembly; see there for the exact computation.", name, cols))
	Pragma("noescape")
	size := int(t.size)
	step := t.step
	m := Load(Param("m"), GP64())
	pa := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	SHLQ(U8(log2(size)), lda)
	ca := newRowAddr(pa, lda, cols)
	xs := make([]reg.VecVirtual, cols)
	for c := range xs {
		xs[c] = YMM()
		t.bcast(Mem{Base: px, Disp: c * size}, xs[c])
	}
	n := GP64()
	MOVQ(m, n)
	SHRQ(U8(log2(2*step)), n)
	JZ(LabelRef(name + "_one"))
	Label(name + "_loop")
	y0, y1 := YMM(), YMM()
	t.load(Mem{Base: py}, y0)
	t.load(Mem{Base: py, Disp: 32}, y1)
	for c := 0; c < cols; c++ {
		mm := ca.at(c)
		t.fma(mm, xs[c], y0)
		mm.Disp += 32
		t.fma(mm, xs[c], y1)
	}
	t.store(y0, Mem{Base: py})
	t.store(y1, Mem{Base: py, Disp: 32})
	ca.advance(64)
	ADDQ(U8(64), py)
	DECQ(n)
	JNZ(LabelRef(name + "_loop"))

	Label(name + "_one")
	TESTQ(U32(step), m)
	JZ(LabelRef(name + "_tail0"))
	y2 := YMM()
	t.load(Mem{Base: py}, y2)
	for c := 0; c < cols; c++ {
		t.fma(ca.at(c), xs[c], y2)
	}
	t.store(y2, Mem{Base: py})
	ca.advance(32)
	ADDQ(U8(32), py)

	Label(name + "_tail0")
	ANDQ(U8(step-1), m)
	JZ(LabelRef(name + "_done"))
	Label(name + "_tail")
	ys := XMM()
	t.loadS(Mem{Base: py}, ys)
	for c := 0; c < cols; c++ {
		if t.size == 4 {
			VFMADD231SS(ca.at(c), xs[c].AsX(), ys)
		} else {
			VFMADD231SD(ca.at(c), xs[c].AsX(), ys)
		}
	}
	t.storeS(ys, Mem{Base: py})
	ca.advance(size)
	ADDQ(U8(size), py)
	DECQ(m)
	JNZ(LabelRef(name + "_tail"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
