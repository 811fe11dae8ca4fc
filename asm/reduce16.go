package main

// This file generates the reduction primitives of package vec that are
// defined on 16-lane vectors (Note [Sixteen lanes] in vec's reduce_go.go):
// the float32 sums with float64 lanes (sumF32F64, sumSqF32F64, and of
// bfloat16 and float16 rows), the float32 product (prodF32), max and min
// of float32 rows, the search of argmax (indexF32) and the outer sum of
// eight rows (sumRows8F32, accRows8F32, and of bfloat16 and float16
// rows). Each is generated twice from the same code: for AVX-512 (-part reduce512: one ZMM register holds a 16-lane
// vector; zz_reduce512_amd64.s, functions named ...AVX512) and for AVX2
// (-part reduce: two YMM registers, lanes 0-7 and 8-15; in
// zz_reduce_amd64.s, functions named ...AVX2). Every operation works lane by
// lane, so the two compute the same bits, which are their pure-Go twin's.

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genReduce512 emits the AVX-512 kernels (-part reduce512).
func genReduce512() {
	ConstraintExpr("amd64,!purego")
	genWide(wide{avx512: true})
	expSubSumBlocks512()
	sumSqDevInF64Rows4512()
	accRows512("max")
	accRows512("min")
	accRows512("mul")
	argRows512(true)
	argRows512(false)
	sumRun512()
	argScan512(true)
	argScan512(false)
	columns512()
}

// sumSqDevInF64Rows4512 emits
//
//	func sumSqDevF32InF64Rows4AVX512(acc *[4][16]float64, x *float32, stride, n int, m *[4]float64)
//
// sumSqDevF32InF64Rows4Go's loop at AVX-512: the main steps of
// sumSqDevF32InF64Go over four rows x[k·stride:][:n], n rounded down to a
// multiple of 16, each element i of row k, d = float64(x) − m[k], added
// to acc[k][i mod 16] as fma(d, d, acc), lane by lane in the order of the
// row. One step takes 16 elements of each row, so that the eight ZMM
// accumulators (two a row) are eight chains of fused adds where one row
// alone has two (sumSqDevF32InF64AVX2 has four of four lanes): rows in
// the caches, the adds' latency sets the speed.
func sumSqDevInF64Rows4512() {
	name := "sumSqDevF32InF64Rows4AVX512"
	TEXT(name, NOSPLIT, "func(acc *[4][16]float64, x *float32, stride, n int, m *[4]float64)")
	Doc(name + " is sumSqDevF32InF64Rows4Go in assembly; see there for the exact loop.")
	Pragma("noescape")
	acc := Load(Param("acc"), GP64())
	rows, n := rowsParams()
	pm := Load(Param("m"), GP64())
	var a [4][2]reg.VecVirtual
	var mean [4]reg.VecVirtual
	for k := range rows {
		mean[k] = ZMM()
		VBROADCASTSD(Mem{Base: pm, Disp: 8 * k}, mean[k])
		for r := range a[k] {
			a[k][r] = ZMM()
			VMOVUPD(Mem{Base: acc, Disp: 128*k + 64*r}, a[k][r])
		}
	}
	i := GP64()
	XORQ(i, i)
	loop(name+"_step", n, i, 16, func() {
		for k, row := range rows {
			for r := range a[k] {
				d := ZMM()
				VCVTPS2PD(elem(row, i, 4, 8*r), d)
				VSUBPD(mean[k], d, d)
				VFMADD231PD(d, d, a[k][r])
			}
		}
	})
	for k := range rows {
		for r := range a[k] {
			VMOVUPD(a[k][r], Mem{Base: acc, Disp: 128*k + 64*r})
		}
	}
	VZEROUPPER()
	RET()
}

// genWide emits the 16-lane kernels at one level.
func genWide(w wide) {
	w.sum(srcF32, false)
	w.sum(srcF32, true)
	w.sum(srcBF16, false)
	w.sum(srcF16, false)
	w.sumRows(srcF32, false)
	w.sumRows(srcF32, true)
	w.sumRows(srcBF16, false)
	w.sumRows(srcF16, false)
	w.sumRows4(srcF32, false)
	w.sumRows4(srcF32, true)
	w.sumRows4(srcBF16, false)
	w.sumRows4(srcF16, false)
	w.maxF32(true)
	w.maxF32(false)
	w.maxRows4(true)
	w.maxRows4(false)
	w.sumInF64Rows4()
	w.indexF32()
	for _, src := range []wsrc{srcF32, srcBF16, srcF16} {
		w.rows8(src, false)
		w.rows8(src, true)
	}
	w.prodF32()
	w.prodRows()
	w.prodRows4()
}

// wide is the instruction set of a 16-lane kernel: AVX-512 or AVX2.
type wide struct{ avx512 bool }

func (w wide) suffix() string {
	if w.avx512 {
		return "AVX512"
	}
	return "AVX2"
}

// parts is the number of registers of a vector of 16 float32 (half that
// of 16 float64).
func (w wide) parts() int {
	if w.avx512 {
		return 1
	}
	return 2
}

// lanes is the number of float32 lanes of one register.
func (w wide) lanes() int { return 16 / w.parts() }

// asX and asY are v's low 128 and 256 bits, as vectors.
func asX(v reg.VecVirtual) reg.VecVirtual { return v.AsX().(reg.VecVirtual) }
func asY(v reg.VecVirtual) reg.VecVirtual { return v.AsY().(reg.VecVirtual) }

func (w wide) vreg() reg.VecVirtual {
	if w.avx512 {
		return ZMM()
	}
	return YMM()
}

// elem returns the address of element i + off of the array at base
// (element size size).
func elem(base, i reg.Register, size uint8, off int) Mem {
	return Mem{Base: base, Index: i, Scale: size, Disp: off * int(size)}
}

// begin emits the head of a kernel named name with signature sig.
func (w wide) begin(name, sig, twin string) string {
	name += w.suffix()
	TEXT(name, NOSPLIT, sig)
	Doc(fmt.Sprintf("%s is %s in assembly; see there for the exact loop.", name, twin))
	Pragma("noescape")
	return name
}

// loop emits: for ; i+step <= end(n); i += step { body() }, end being n
// rounded down to a multiple of step (a power of two).
func loop(name string, n, i reg.Register, step int, body func()) {
	end := GP64()
	MOVQ(n, end)
	ANDQ(I32(-int32(step)), end)
	JMP(LabelRef(name + "_check"))
	Label(name)
	body()
	ADDQ(U32(step), i)
	Label(name + "_check")
	CMPQ(i, end)
	JB(LabelRef(name))
}

// tail emits: for ; i < n; i++ { body() }.
func tail(name string, n, i reg.Register, body func()) {
	JMP(LabelRef(name + "_check"))
	Label(name)
	body()
	INCQ(i)
	Label(name + "_check")
	CMPQ(i, n)
	JB(LabelRef(name))
}

// zeros64 returns a vector of 16 float64 zeros (2 ZMM or 4 YMM, lanes in
// order).
func (w wide) zeros64() []reg.VecVirtual {
	acc := make([]reg.VecVirtual, 2*w.parts())
	for k := range acc {
		acc[k] = w.vreg()
		VXORPS(acc[k], acc[k], acc[k])
	}
	return acc
}

// cvtAdd adds the float32 lanes of v, part p of a 16-lane vector,
// converted exactly, to their float64 lanes in acc (zeros64's layout).
func (w wide) cvtAdd(v reg.VecVirtual, acc []reg.VecVirtual, p int) {
	lo, hi := w.cvt64(v)
	VADDPD(lo, acc[2*p], acc[2*p])
	VADDPD(hi, acc[2*p+1], acc[2*p+1])
}

// cvtAddMem is cvtAdd with the float64 lanes in memory: at(h) is the
// address of acc[2p+h], which is read, added to (the same operation, the
// same operand order) and written back.
func (w wide) cvtAddMem(v reg.VecVirtual, at func(h int) Mem) {
	lo, hi := w.cvt64(v)
	for h, c := range []reg.VecVirtual{lo, hi} {
		a := w.vreg()
		VMOVUPD(at(h), a)
		VADDPD(c, a, a)
		VMOVUPD(a, at(h))
	}
}

// cvt64 returns the float32 lanes of v converted exactly to float64: the
// lower half and the upper half.
func (w wide) cvt64(v reg.VecVirtual) (lo, hi reg.VecVirtual) {
	lo, hi = w.vreg(), w.vreg()
	if w.avx512 {
		VCVTPS2PD(v.AsY(), lo)
		h := YMM()
		VEXTRACTF64X4(U8(1), v, h)
		VCVTPS2PD(h, hi)
	} else {
		VCVTPS2PD(v.AsX(), lo)
		h := XMM()
		VEXTRACTF128(U8(1), v, h)
		VCVTPS2PD(h, hi)
	}
	return lo, hi
}

// hsum64 adds the 16 float64 lanes of acc pairwise (lane l with l+8,
// then l+4, l+2, l+1) and returns the register whose lane 0 holds the sum.
func (w wide) hsum64(acc []reg.VecVirtual) reg.VecVirtual {
	var y reg.VecVirtual
	if w.avx512 {
		VADDPD(acc[1], acc[0], acc[0]) // l+8
		h := YMM()
		VEXTRACTF64X4(U8(1), acc[0], h)
		y = asY(acc[0])
		VADDPD(h, y, y) // l+4
	} else {
		VADDPD(acc[2], acc[0], acc[0]) // l+8
		VADDPD(acc[3], acc[1], acc[1])
		VADDPD(acc[1], acc[0], acc[0]) // l+4
		y = acc[0]
	}
	x := asX(y)
	h := XMM()
	w.extract128(y, h)
	VADDPD(h, x, x) // l+2
	t := XMM()
	VPERMILPD(U8(1), x, t)
	VADDPD(t, x, x) // l+1
	return x
}

// extract128 sets x to the upper 128 bits of the YMM y (an EVEX form in
// AVX-512 kernels, whose registers may be above 15).
func (w wide) extract128(y, x reg.Register) {
	if w.avx512 {
		VEXTRACTF32X4(U8(1), y, x)
	} else {
		VEXTRACTF128(U8(1), y, x)
	}
}

// Note [Streaming without prefetch]
//
// The float32 sum (sumF32F64) and product (prodF32) read their rows with
// no software prefetch, the other 16-lane folds prefetchAhead bytes ahead.
// Measured on the Zen 5 machines (2^24 float32 on two cores, variants of
// each kernel interleaved 150 times, load 6-7): the sum without prefetch
// streamed 4-10% faster at the median and 90th percentile in four runs out
// of four, the product ~5% in two; maxF32 and the bfloat16 sum were ~5%
// slower without. The sum's main step issues 16 loads of a line each, and
// a prefetch per line doubles its memory operations; the hardware
// prefetchers follow one stream per core well enough. The outer sums of
// eight rows (sumRows8F32, accRows8F32 and their bfloat16 and float16
// forms) prefetch nothing either (Note [Outer streams] in backend/cpu). On the Zen 3 machines (AVX2 only; 2^24
// float32, variants interleaved 40-60 times in one process, three runs)
// maxF32 and minF32 with the prefetch were 15-20% slower than without, on
// one thread and on two, and no faster than the sum without; so their
// AVX2 kernels prefetch nothing, and the AVX-512 ones, which a Zen 3
// cannot run, keep it. The sums of bfloat16, float16 and squares were
// within the noise either way there and keep it.

// prefetch fetches the cache lines of bytes bytes, prefetchAhead bytes
// beyond element i of the array at base (element size size).
func prefetch(base, i reg.Register, size uint8, bytes int) {
	for off := 0; off < bytes; off += 64 {
		PREFETCHT0(Mem{Base: base, Index: i, Scale: size, Disp: prefetchAhead + off})
	}
}

// wsrc is the element type a 16-lane sum reads: float32, or float16 or
// bfloat16, converted exactly to float32 as they are loaded.
type wsrc struct {
	name string // F32, BF16, F16
	size uint8
}

var (
	srcF32  = wsrc{"F32", 4}
	srcBF16 = wsrc{"BF16", 2}
	srcF16  = wsrc{"F16", 2}
)

// load sets v to the float32 lanes of part p of the 16-lane vector at
// element i+off of x.
func (w wide) load(src wsrc, x, i reg.Register, off, p int, v reg.VecVirtual) {
	m := elem(x, i, src.size, off+w.lanes()*p)
	switch src {
	case srcF32:
		VMOVUPS(m, v)
	case srcBF16:
		VPMOVZXWD(m, v)
		VPSLLD(U8(16), v, v)
	case srcF16:
		VCVTPH2PS(m, v)
	}
}

// loadScalar16 sets lane 0 of the XMM v to float32 element i of x (the
// other lanes are not used).
func loadScalar16(src wsrc, x, i reg.Register, v reg.VecVirtual) {
	m := elem(x, i, src.size, 0)
	if src == srcF32 {
		VMOVSS(m, v)
		return
	}
	r := GP32()
	MOVWLZX(m, r)
	if src == srcBF16 {
		SHLL(U8(16), r)
		VMOVD(r, v)
		return
	}
	VMOVD(r, v)
	VCVTPH2PS(v, v)
}

// sum emits sum<src>F64Go (sq false) or sumSqF32F64Go (sq true, src
// float32): Σ x[i] with a step of 256 elements, 16 vectors added lane by
// lane pairwise in float32 and their sum converted into 16 float64 lanes;
// or Σ float64(x[i])² with a step of 32 elements, each converted and
// squared into one of two 16-lane float64 accumulators (one multiply-add,
// exact products). Single vectors, then the lanes, then the rest one by
// one.
func (w wide) sum(src wsrc, sq bool) {
	base := sumName(src, sq)
	gotype := map[wsrc]string{srcF32: "float32", srcBF16: "uint16", srcF16: "uint16"}[src]
	name := w.begin(base, fmt.Sprintf("func(x []%s) float64", gotype), base+"Go")
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	s := w.sumBody(name, src, sq, x, n)
	storeRet(rf64, s, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// sumName is the name of the sum kernel of src (sq: of squares).
func sumName(src wsrc, sq bool) string {
	if sq {
		return "sumSq" + src.name + "F64"
	}
	return "sum" + src.name + "F64"
}

// sumRows emits sumRowsF32F64Go (sq false) or sumSqRowsF32F64Go (and
// sumRowsBF16F64Go, sumRowsF16F64Go of 16-bit elements): the sum's (or
// sum of squares') kernel over rows stride elements apart, each sum added
// to its float64 in dst, in one loop (Note [Rows in one call] in
// backend/cpu).
func (w wide) sumRows(src wsrc, sq bool) {
	base := strings.Replace(sumName(src, sq), src.name, "Rows"+src.name, 1)
	w.rowsKernel(base, "float64", 8, src, func(name string, x, n reg.Register) reg.VecVirtual {
		return w.sumBody(name, src, sq, x, n)
	}, func(s reg.VecVirtual, m Mem) {
		VADDSD(m, s, s)
		VMOVSD(s, m)
	})
}

// sumRows4 emits sumRows4F32F64 (sq false) or sumSqRows4F32F64 (and
// sumRows4BF16F64, sumRows4F16F64 of 16-bit elements):
// sumRowsF32F64Go (sumSqRowsF32F64Go, ...) on 4q rows (q = len(dst)/4), read
// four at a time as four streams (Note [Four streams] in vec's
// reduce_go.go): rows j, j+q, j+2q and j+3q together, 256 elements of
// each in turn (one main step of the sum, eight of the sum of squares),
// their float64 lanes kept on the stack between them; then each row's
// rest as sumF32F64 (sumSqF32F64) ends it. Each row's sum is computed in
// the one-row kernel's order, so its bits are a call per row's.
func (w wide) sumRows4(src wsrc, sq bool) {
	base := strings.Replace(sumName(src, sq), src.name, "Rows4"+src.name, 1)
	name := base + w.suffix()
	twin := strings.Replace(sumName(src, sq), src.name, "Rows"+src.name, 1) + "Go"
	gotype := map[wsrc]string{srcF32: "float32", srcBF16: "uint16", srcF16: "uint16"}[src]
	// not NOSPLIT: the sum of squares' frame is larger than a NOSPLIT
	// chain may use
	TEXT(name, 0, fmt.Sprintf("func(dst []float64, x []%s, rowLen, stride int)", gotype))
	Doc(name + " is " + twin + " in assembly on 4q rows; see there for the exact loop.")
	Pragma("noescape")
	regBytes := 64 / w.parts()
	accs := 1 // 16-lane float64 accumulators per row
	if sq {
		accs = 2
	}
	lanes64 := AllocLocal(4 * accs * 128)
	at := func(k, a, part int) Mem { return lanes64.Offset(128*(accs*k+a) + regBytes*part) }
	hiMask := w.bf16Mask(src)
	// load returns accumulator a of row k, moved from the stack
	load := func(k, a int) []reg.VecVirtual {
		acc := make([]reg.VecVirtual, 2*w.parts())
		for part := range acc {
			acc[part] = w.vreg()
			VMOVUPD(at(k, a, part), acc[part])
		}
		return acc
	}
	store := func(k, a int, acc []reg.VecVirtual) {
		for part, r := range acc {
			VMOVUPD(r, at(k, a, part))
		}
	}
	fourStreams(name, src.size, func(g *streams4) {
		rows, n := g.rows, g.n
		z := w.vreg()
		VXORPS(z, z, z)
		for k := range rows {
			for a := 0; a < accs; a++ {
				for part := 0; part < 2*w.parts(); part++ {
					VMOVUPD(z, at(k, a, part))
				}
			}
		}
		i := GP64()
		XORQ(i, i)
		loop(name+"_main", n, i, 256, func() {
			for k, row := range rows {
				if !sq {
					for p := 0; p < w.parts(); p++ {
						w.cvtAddMem(w.step256(src, row, i, p, hiMask), func(h int) Mem { return at(k, 0, 2*p+h) })
					}
					continue
				}
				acc, acc2 := load(k, 0), load(k, 1)
				for off := 0; off < 256; off += 32 {
					w.sqStep(row, i, off, acc, acc2)
				}
				store(k, 0, acc)
				store(k, 1, acc2)
			}
		})
		for k, row := range rows {
			acc := load(k, 0)
			ik := GP64()
			MOVQ(i, ik)
			label := fmt.Sprintf("%s_row%d", name, k)
			if sq {
				acc2 := load(k, 1)
				loop(label+"_main", n, ik, 32, func() { w.sqStep(row, ik, 0, acc, acc2) })
				w.sqVectors(label, row, ik, n, acc, acc2)
			} else {
				w.vectors16(label, src, row, ik, n, acc)
			}
			s := w.sumScalars(label, src, sq, row, ik, n, acc)
			m := g.dst(k, 8)
			VADDSD(m, s, s)
			VMOVSD(s, m)
		}
	})
	VZEROUPPER()
	RET()
}

// streams4 is the frame of a kernel over the 4q rows of its dst (q =
// len(dst)/4), read four at a time (Note [Four streams] in vec's
// reduce_go.go): rows[k] holds the address of row j+kq, n the row
// length.
type streams4 struct {
	base, q, j, n reg.Register
	rows          [4]reg.Register
}

// fourStreams emits the frame of such a kernel, its parameters dst, x,
// rowLen and stride (in elements of size bytes), and calls group to emit
// the body run for each j < q.
func fourStreams(name string, size uint8, group func(g *streams4)) {
	g := &streams4{base: Load(Param("dst").Base(), GP64()), q: Load(Param("dst").Len(), GP64())}
	SHRQ(U8(2), g.q)
	x := Load(Param("x").Base(), GP64())
	g.n = Load(Param("rowLen"), GP64())
	stride := Load(Param("stride"), GP64())
	SHLQ(U8(map[uint8]uint8{2: 1, 4: 2}[size]), stride)
	streamGap := GP64() // bytes from row j to row j+q
	MOVQ(g.q, streamGap)
	IMULQ(stride, streamGap)
	g.j = GP64()
	XORQ(g.j, g.j)
	tail(name+"_group", g.q, g.j, func() {
		g.rows = [4]reg.Register{x, GP64(), GP64(), GP64()}
		for k := 1; k < len(g.rows); k++ {
			LEAQ(Mem{Base: g.rows[k-1], Index: streamGap, Scale: 1}, g.rows[k])
		}
		group(g)
		ADDQ(stride, x)
	})
}

// turns emits the main loop of a four-stream kernel (Note [Four streams]
// in vec's reduce_go.go) over the rows, n elements each: 256 elements of
// each row in turn, its accumulators loaded before and stored after, step
// folding the 64 elements at row[i+off:] into them four times. It returns
// the index register i, at the first element the turns left.
func turns[A any](name string, rows [4]reg.Register, n reg.Register, load func(k int) A, store func(k int, acc A), step func(row, i reg.Register, off int, acc A)) reg.Register {
	i := GP64()
	XORQ(i, i)
	loop(name+"_main", n, i, 256, func() {
		for k, row := range rows {
			acc := load(k)
			for off := 0; off < 256; off += 64 {
				step(row, i, off, acc)
			}
			store(k, acc)
		}
	})
	return i
}

// stackAccs is the stack memory of a four-stream kernel's accumulators
// between turns: four of 16 float32 lanes per row, rows rowBytes apart.
type stackAccs struct {
	w        wide
	mem      Mem
	rowBytes int
}

// stackAccs allocates the stack memory of four rows' accumulators,
// rowBytes a row (at least the accumulators' 256).
func (w wide) stackAccs(rowBytes int) stackAccs {
	return stackAccs{w: w, mem: AllocLocal(4 * rowBytes), rowBytes: rowBytes}
}

// load moves row k's accumulators from the stack into new registers.
func (s stackAccs) load(k int) [][]reg.VecVirtual {
	acc := make([][]reg.VecVirtual, 4)
	for a := range acc {
		for p := 0; p < s.w.parts(); p++ {
			r := s.w.vreg()
			VMOVUPS(s.at(k, a, p), r)
			acc[a] = append(acc[a], r)
		}
	}
	return acc
}

// store moves row k's accumulators to the stack.
func (s stackAccs) store(k int, acc [][]reg.VecVirtual) {
	for a := range acc {
		for p, r := range acc[a] {
			VMOVUPS(r, s.at(k, a, p))
		}
	}
}

func (s stackAccs) at(k, a, p int) Mem {
	return s.mem.Offset(s.rowBytes*k + 64*a + 64/s.w.parts()*p)
}

// dst returns the address of dst[j+kq], elements of size bytes.
func (g *streams4) dst(k int, size uint8) Mem {
	r := GP64()
	MOVQ(g.j, r)
	for range k {
		ADDQ(g.q, r)
	}
	return Mem{Base: g.base, Index: r, Scale: size}
}

// rowsKernel emits base, a kernel of signature func(dst []T, x []E,
// rowLen, stride int) (T dstType, of size bytes; E src's Go type) that
// runs body over the rowLen elements of each row, stride elements apart,
// and folds the XMM lane 0 body returns into the row's element of dst with
// fold, in one loop.
func (w wide) rowsKernel(base, dstType string, size uint8, src wsrc, body func(name string, x, n reg.Register) reg.VecVirtual, fold func(s reg.VecVirtual, m Mem)) {
	gotype := map[wsrc]string{srcF32: "float32", srcBF16: "uint16", srcF16: "uint16"}[src]
	name := w.begin(base, fmt.Sprintf("func(dst []%s, x []%s, rowLen, stride int)", dstType, gotype), base+"Go")
	dst := Load(Param("dst").Base(), GP64())
	rows := Load(Param("dst").Len(), GP64())
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("rowLen"), GP64())
	stride := Load(Param("stride"), GP64())
	SHLQ(U8(bits.TrailingZeros8(src.size)), stride)
	r := GP64()
	XORQ(r, r)
	tail(name+"_row", rows, r, func() {
		fold(body(name, x, n), Mem{Base: dst, Index: r, Scale: size})
		ADDQ(stride, x)
	})
	VZEROUPPER()
	RET()
}

// sumBody emits the loops of sum over the n elements at x and returns the
// XMM register whose lane 0 holds their sum; its labels start with name.
func (w wide) sumBody(name string, src wsrc, sq bool, x, n reg.Register) reg.VecVirtual {
	acc := w.zeros64()
	i := GP64()
	XORQ(i, i)
	if sq {
		acc2 := w.zeros64()
		loop(name+"_main", n, i, 32, func() {
			prefetch(x, i, 4, 128)
			w.sqStep(x, i, 0, acc, acc2)
		})
		w.sqVectors(name, x, i, n, acc, acc2)
	} else {
		hiMask := w.bf16Mask(src)
		loop(name+"_main", n, i, 256, func() {
			// Note [Streaming without prefetch]
			if src != srcF32 {
				prefetch(x, i, src.size, 256*int(src.size))
			}
			for p := 0; p < w.parts(); p++ {
				w.cvtAdd(w.step256(src, x, i, p, hiMask), acc, p)
			}
		})
		w.vectors16(name, src, x, i, n, acc)
	}
	return w.sumScalars(name, src, sq, x, i, n, acc)
}

// cvtSq adds float64(x[i+off+l])² for the 16 lanes l to a.
func (w wide) cvtSq(x, i reg.Register, off int, a []reg.VecVirtual) {
	for q, r := range a {
		t := w.vreg()
		VCVTPS2PD(elem(x, i, 4, off+16/len(a)*q), t)
		VFMADD231PD(t, t, r)
	}
}

// sqStep emits a main step of the sum of squares: the 32 elements at
// i+off, the first 16 into acc, the next into acc2.
func (w wide) sqStep(x, i reg.Register, off int, acc, acc2 []reg.VecVirtual) {
	w.cvtSq(x, i, off, acc)
	w.cvtSq(x, i, off+16, acc2)
}

// sqVectors emits the sum of squares' loop of single 16-lane vectors from
// i into acc, then adds acc2 to acc.
func (w wide) sqVectors(name string, x, i, n reg.Register, acc, acc2 []reg.VecVirtual) {
	loop(name+"_vector", n, i, 16, func() { w.cvtSq(x, i, 0, acc) })
	for k := range acc {
		VADDPD(acc2[k], acc[k], acc[k])
	}
}

// step256 emits the float32 levels of sum's main step on part p of the
// 256 elements at i: 16 vectors of 16 lanes (lanes 8p..8p+7 on AVX2, all
// 16 on AVX-512) added lane by lane pairwise, 0+8, ..., then 0+4, 0+2,
// 0+1; it returns the vector of their sums.
func (w wide) step256(src wsrc, x, i reg.Register, p int, hiMask reg.VecVirtual) reg.VecVirtual {
	var v [8]reg.VecVirtual
	if src == srcBF16 {
		// vector 2j (even) and 2j+1 (odd) of load j, lanes 8p..8p+7
		// (AVX2) or all 16: elements 32j+16p.. of the step
		for j := 0; j < 8; j++ {
			u := w.vreg()
			VMOVUPS(elem(x, i, 2, 32*j+16*p), u)
			even, odd := w.vreg(), w.vreg()
			VPSLLD(U8(16), u, even)
			if w.avx512 {
				VPANDD(hiMask, u, odd)
			} else {
				VPAND(hiMask, u, odd)
			}
			if j < 4 {
				v[2*j], v[2*j+1] = even, odd
				continue
			}
			VADDPS(even, v[2*j-8], v[2*j-8])
			VADDPS(odd, v[2*j-7], v[2*j-7])
		}
		w.pairwise8(&v)
		return v[0]
	}
	for k := range v {
		v[k] = w.vreg()
		w.load(src, x, i, 16*k, p, v[k])
	}
	for k := range v {
		if src == srcF32 {
			VADDPS(elem(x, i, 4, 16*(k+8)+w.lanes()*p), v[k], v[k])
			continue
		}
		t := w.vreg()
		w.load(src, x, i, 16*(k+8), p, t)
		VADDPS(t, v[k], v[k])
	}
	w.pairwise8(&v)
	return v[0]
}

// pairwise8 adds the eight vectors of v pairwise into v[0]: 0+4, 1+5,
// 2+6, 3+7, then 0+2, 1+3, then 0+1.
func (w wide) pairwise8(v *[8]reg.VecVirtual) {
	for h := 4; h > 0; h /= 2 {
		for k := 0; k < h; k++ {
			VADDPS(v[k+h], v[k], v[k])
		}
	}
}

// bf16Mask returns, for bfloat16 elements, a vector of 0xffff0000 in
// every 32-bit lane (Note [Even and odd bfloat16]: a register of 32-bit
// lanes holds two bfloat16 each, the even element in the low half;
// shifted left by 16 they are the even elements as float32, masked to
// the high half the odd ones); nil for other elements.
func (w wide) bf16Mask(src wsrc) reg.VecVirtual {
	if src != srcBF16 {
		return nil
	}
	c := GP32()
	MOVL(U32(0xffff0000), c)
	hiMask := w.vreg()
	VMOVD(c, hiMask.AsX())
	VPBROADCASTD(hiMask.AsX(), hiMask)
	return hiMask
}

// vectors16 emits sum's loop of single 16-lane vectors from i, each
// converted into the float64 lanes of acc.
func (w wide) vectors16(name string, src wsrc, x, i, n reg.Register, acc []reg.VecVirtual) {
	loop(name+"_vector", n, i, 16, func() {
		if src == srcF32 {
			for q, r := range acc {
				t := w.vreg()
				VCVTPS2PD(elem(x, i, 4, 16/len(acc)*q), t)
				VADDPD(t, r, r)
			}
			return
		}
		for p := 0; p < w.parts(); p++ {
			v := w.vreg()
			w.load(src, x, i, 0, p, v)
			w.cvtAdd(v, acc, p)
		}
	})
}

// sumScalars emits the end of sum: the lanes of acc merged (hsum64), then
// the elements from i to n added one by one; it returns the XMM register
// whose lane 0 holds the sum.
func (w wide) sumScalars(name string, src wsrc, sq bool, x, i, n reg.Register, acc []reg.VecVirtual) reg.VecVirtual {
	s := w.hsum64(acc)
	tail(name+"_scalar", n, i, func() {
		t := XMM()
		loadScalar16(src, x, i, t)
		VCVTSS2SD(t, t, t)
		if sq {
			VFMADD231SD(t, t, s)
		} else {
			VADDSD(t, s, s)
		}
	})
	return s
}

// maxF32 emits maxF32Go (isMax) or minF32Go: four 16-lane accumulators,
// a = x > a ? x : a (VMAXPS's rule: a NaN x leaves a, and so does an equal
// x), the NaN test on pairs of vectors in the main loop.
func (w wide) maxF32(isMax bool) {
	g := w.newMaxGen(isMax)
	name := w.begin(g.base, "func(x []float32) (m float32, nan bool)", g.base+"Go")
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	flag := GP32()
	XORL(flag, flag)
	acc := w.filledAccs(g.init)
	i := GP64()
	XORQ(i, i)
	g.zeroNaN()
	loop(name+"_main", n, i, 64, func() {
		if w.avx512 { // Note [Streaming without prefetch]
			prefetch(x, i, 4, 256)
		}
		g.step64(x, i, 0, acc)
	})
	s := g.end(name, x, i, n, acc, flag)
	storeRet(rf32, s, Return("m"))
	NEGL(flag) // nonzero → carry
	SETCS(flag.As8())
	Store(flag.As8(), Return("nan"))
	VZEROUPPER()
	RET()
}

// maxGen emits the steps of maxF32's fold: its instruction (VMAXPS or
// VMINPS), its starting value, and the NaN test it keeps, a mask register
// (AVX-512) or a vector of masks (AVX2).
type maxGen struct {
	w    wide
	base string
	ins  func(...Op)
	init float32
	knan reg.Register
	ynan reg.VecVirtual
}

func (w wide) newMaxGen(isMax bool) *maxGen {
	if isMax {
		return &maxGen{w: w, base: "maxF32", ins: VMAXPS, init: float32(math.Inf(-1))}
	}
	return &maxGen{w: w, base: "minF32", ins: VMINPS, init: float32(math.Inf(1))}
}

// zeroNaN starts a NaN test that has seen no NaN.
func (g *maxGen) zeroNaN() {
	if g.w.avx512 {
		g.knan = K()
		KXNORW(g.knan, g.knan, g.knan) // every lane ordered so far
	} else {
		g.ynan = YMM()
		VXORPS(g.ynan, g.ynan, g.ynan)
	}
}

// unord adds to the NaN test whether a or b has a NaN lane. At AVX-512
// the test is the mask of lanes that have seen no NaN, ANDed with each
// pair's ordered lanes by the compare's own write mask: one instruction
// a pair, where an UNORD compare and a KORW into a mask of NaN lanes were
// two, and the two made M.amax(1) of [4096, 4096] 10-15% slower than the
// row sums from memory (the same kernel without the test ran as fast as
// they do; the vec-level rows of 64 MiB on one thread, 30 runs of 10
// calls alternated: p10 1.33-1.41 ms against 1.23-1.26 for the sums,
// 1.26-1.31 against 1.25-1.30 with the masked compare).
func (g *maxGen) unord(a, b reg.VecVirtual) {
	if g.w.avx512 {
		VCMPPS(U8(7), b, a, g.knan, g.knan) // ORD_Q, under the mask
		return
	}
	m := YMM()
	VCMPPS(U8(3), b, a, m)
	VORPS(m, g.ynan, g.ynan)
}

// step64 emits a main step: the 64 elements at i+off into the four
// accumulators, 16 each.
func (g *maxGen) step64(x, i reg.Register, off int, acc [][]reg.VecVirtual) {
	w := g.w
	for p := 0; p < w.parts(); p++ {
		var v [4]reg.VecVirtual
		for k := range v {
			v[k] = w.vreg()
			VMOVUPS(elem(x, i, 4, off+16*k+w.lanes()*p), v[k])
			g.ins(acc[k][p], v[k], acc[k][p])
		}
		g.unord(v[0], v[1])
		g.unord(v[2], v[3])
	}
}

// end emits the fold after its main steps: single vectors from i into
// accumulator 0, the NaN test ORed into flag, the accumulators merged and
// the elements left folded one by one; it returns the XMM register whose
// lane 0 holds the result.
func (g *maxGen) end(name string, x, i, n reg.Register, acc [][]reg.VecVirtual, flag reg.Register) reg.VecVirtual {
	w := g.w
	loop(name+"_vector", n, i, 16, func() {
		for p := 0; p < w.parts(); p++ {
			v := w.vreg()
			VMOVUPS(elem(x, i, 4, w.lanes()*p), v)
			g.ins(acc[0][p], v, acc[0][p])
			g.unord(v, v)
		}
	})
	r := GP32()
	if w.avx512 {
		KMOVW(g.knan, r)
		XORL(U32(0xffff), r) // the lanes that saw a NaN
	} else {
		VMOVMSKPS(g.ynan, r)
	}
	ORL(r, flag)
	// every merge a ⊕ b is ins(b, a, a): a > b ? a : b
	s := w.foldAccs(acc, func(b, a reg.VecVirtual) { g.ins(b, a, a) })
	tail(name+"_scalar", n, i, func() {
		v := XMM()
		VMOVSS(elem(x, i, 4, 0), v)
		VUCOMISS(v, v)
		b := GP8()
		SETPS(b)
		MOVBLZX(b, b.As32())
		ORL(b.As32(), flag)
		g.ins(s, v, s)
	})
	return s
}

// maxRows4 emits maxRows4F32 (isMax) or minRows4F32: maxRowsF32Go (or
// minRowsF32Go) on 4q rows (q = len(dst)/4), read four at a time as four
// streams (Note [Four streams] in vec's reduce_go.go): rows j, j+q, j+2q
// and j+3q together, four main steps (256 elements) of each in turn, its
// accumulators and NaN test kept on the stack between them (in registers
// with AVX-512, maxRows4Regs); then each row's rest as maxF32 ends it.
// Each row is folded in maxF32's order, so its bits are a call per row's.
func (w wide) maxRows4(isMax bool) {
	g := w.newMaxGen(isMax)
	base := strings.Replace(g.base, "F32", "Rows4F32", 1)
	name := base + w.suffix()
	// not NOSPLIT: the frame is larger than a NOSPLIT chain may use
	TEXT(name, 0, "func(dst []float32, x []float32, rowLen, stride int)")
	Doc(fmt.Sprintf("%s is %s in assembly on 4q rows; see there for the exact loop.", name, strings.Replace(g.base, "F32", "RowsF32", 1)+"Go"))
	Pragma("noescape")
	if w.avx512 {
		w.maxRows4Regs(g, name)
		return
	}
	const rowState = 4*64 + 64 // four accumulators of 16 float32, the NaN test
	accs := w.stackAccs(rowState)
	nanAt := func(k int) Mem { return accs.mem.Offset(rowState*k + 4*64) }
	// load and store move row k's accumulators and NaN test between the
	// stack and registers
	load := func(k int) [][]reg.VecVirtual {
		acc := accs.load(k)
		if w.avx512 {
			g.knan = K()
			KMOVW(nanAt(k), g.knan)
		} else {
			g.ynan = YMM()
			VMOVUPS(nanAt(k), g.ynan)
		}
		return acc
	}
	store := func(k int, acc [][]reg.VecVirtual) {
		accs.store(k, acc)
		if w.avx512 {
			KMOVW(g.knan, nanAt(k))
		} else {
			VMOVUPS(g.ynan, nanAt(k))
		}
	}
	fourStreams(name, 4, func(f *streams4) {
		for k := range f.rows {
			acc := w.filledAccs(g.init)
			g.zeroNaN()
			store(k, acc)
		}
		i := turns(name, f.rows, f.n, load, store, g.step64)
		g.endRows4(name, f, i, load)
	})
	VZEROUPPER()
	RET()
}

// maxRows4Regs emits maxRows4's AVX-512 kernel, whose 32 vector registers
// hold the four rows' accumulators and the eight mask registers their NaN
// tests through the turns: the same steps as the kernel that keeps them on
// the stack, without its ten loads and stores around each turn of 16
// vectors. M.amax(1) of [4096, 4096] float32 on the 2-core Zen 5 VM, the
// two builds alternated 15 times (ms at p50 of 30 calls, quartiles of the
// 15): 1.335, 1.367, 1.473 → 1.286, 1.320, 1.392, a loaded machine.
func (w wide) maxRows4Regs(g *maxGen, name string) {
	fourStreams(name, 4, func(f *streams4) {
		var accs [4][][]reg.VecVirtual
		var nans [4]reg.Register
		for k := range f.rows {
			accs[k] = w.filledAccs(g.init)
			g.zeroNaN()
			nans[k] = g.knan
		}
		load := func(k int) [][]reg.VecVirtual {
			g.knan = nans[k]
			return accs[k]
		}
		i := turns(name, f.rows, f.n, load, func(int, [][]reg.VecVirtual) {}, g.step64)
		g.endRows4(name, f, i, load)
	})
	VZEROUPPER()
	RET()
}

// endRows4 emits the end of a four-stream max (or min) kernel after its
// turns: each row's elements from i on, as maxF32 ends it, the NaN test
// making the result NaN, stored to dst.
func (g *maxGen) endRows4(name string, f *streams4, i reg.Register, load func(k int) [][]reg.VecVirtual) {
	for k, row := range f.rows {
		acc := load(k)
		ik := GP64()
		MOVQ(i, ik)
		label := fmt.Sprintf("%s_row%d", name, k)
		loop(label+"_main", f.n, ik, 64, func() { g.step64(row, ik, 0, acc) })
		flag := GP32()
		XORL(flag, flag)
		s := g.end(label, row, ik, f.n, acc, flag)
		TESTL(flag, flag)
		JZ(LabelRef(label + "_store"))
		c := GP32()
		MOVL(U32(0x7fc00000), c) // float32(math.NaN())
		VMOVD(c, s)
		Label(label + "_store")
		VMOVSS(s, f.dst(k, 4))
	}
}

// sumInF64Rows4 emits
//
//	func sumF32InF64Rows4AVX2(acc *[4][16]float64, x *float32, stride, n int)
//
// (AVX512 too): sumF32InF64Rows4Go's loop, the main steps of
// sumF32InF64Go over four rows, x[k·stride:][:n] for k < 4, n rounded down
// to a multiple of 16, read together as four streams (Note [Four streams]
// in vec's reduce_go.go): element i of row k is added to acc[k][i mod 16]
// in float64, converted exactly, lane by lane in the order of the row.
// The rows take turns of 256 elements (turns), each row's lanes loaded before its
// turn and stored after, then each row's last steps, 16 at a time. A YMM
// register holds four lanes (sumF32InF64AVX2's accumulators), a ZMM eight.
func (w wide) sumInF64Rows4() {
	name := "sumF32InF64Rows4" + w.suffix()
	TEXT(name, NOSPLIT, "func(acc *[4][16]float64, x *float32, stride, n int)")
	Doc(name + " is sumF32InF64Rows4Go in assembly; see there for the exact loop.")
	Pragma("noescape")
	acc := Load(Param("acc"), GP64())
	rows, n := rowsParams()
	regs := 2 * w.parts() // registers of 16 float64 lanes
	laneBytes := 128 / regs
	at := func(k, r int) Mem { return Mem{Base: acc, Disp: 128*k + laneBytes*r} }
	load := func(k int) []reg.VecVirtual {
		a := make([]reg.VecVirtual, regs)
		for r := range a {
			a[r] = w.vreg()
			VMOVUPD(at(k, r), a[r])
		}
		return a
	}
	store := func(k int, a []reg.VecVirtual) {
		for r, v := range a {
			VMOVUPD(v, at(k, r))
		}
	}
	// step adds the 16 elements of row at i+off to the lanes a
	step := func(row, i reg.Register, off int, a []reg.VecVirtual) {
		per := 16 / regs // elements a register's lanes take
		for r, v := range a {
			c := w.vreg()
			VCVTPS2PD(elem(row, i, 4, off+per*r), c)
			VADDPD(c, v, v)
		}
	}
	i := turns(name, rows, n, load, store, func(row, i reg.Register, off int, a []reg.VecVirtual) {
		for s := 0; s < 64; s += 16 {
			step(row, i, off+s, a)
		}
	})
	for k, row := range rows {
		a := load(k)
		ik := GP64()
		MOVQ(i, ik)
		loop(fmt.Sprintf("%s_row%d", name, k), n, ik, 16, func() { step(row, ik, 0, a) })
		store(k, a)
	}
	VZEROUPPER()
	RET()
}

// rowsParams loads the parameters x (a *float32), stride and n of a
// kernel over four rows of float32, and returns the addresses of the rows
// x, x+stride, x+2·stride and x+3·stride, and n.
func rowsParams() (rows [4]reg.Register, n reg.Register) {
	rows = fourRows("x", "stride")
	return rows, Load(Param("n"), GP64())
}

// fourRows loads the parameters p (a *float32) and s (a stride in
// elements) and returns the addresses p, p+s, p+2·s and p+3·s.
func fourRows(p, s string) [4]reg.Register {
	rows := [4]reg.Register{Load(Param(p), GP64()), GP64(), GP64(), GP64()}
	stride := Load(Param(s), GP64())
	SHLQ(U8(2), stride)
	for k := 1; k < len(rows); k++ {
		LEAQ(Mem{Base: rows[k-1], Index: stride, Scale: 1}, rows[k])
	}
	return rows
}

// indexF32 emits indexF32Go: the main loop tests 64 elements at once for
// x[i] == v (EQ_OQ: never true for NaN) and, on a hit, leaves them to the
// single-vector loop, which returns the first hit's index.
func (w wide) indexF32() {
	name := w.begin("indexF32", "func(x []float32, v float32) int", "indexF32Go")
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	vb := w.vreg()
	b, err := Param("v").Resolve()
	if err != nil {
		panic(err)
	}
	VBROADCASTSS(b.Addr, vb)
	i := GP64()
	XORQ(i, i)
	r := GP64()
	// eq sets r (32 bits) to the mask of lanes of the vector at i+off
	// equal to v.
	eq := func(off int) {
		if w.avx512 {
			k := K()
			VCMPPS(U8(0), elem(x, i, 4, off), vb, k)
			KMOVW(k, r.As32())
			return
		}
		m := YMM()
		VCMPPS(U8(0), elem(x, i, 4, off), vb, m)
		VMOVMSKPS(m, r.As32())
	}
	// main loop: any hit among 64 elements
	end := GP64()
	MOVQ(n, end)
	ANDQ(I32(-64), end)
	JMP(LabelRef(name + "_main_check"))
	Label(name + "_main")
	if w.avx512 {
		var k [4]reg.Register
		for j := range k {
			k[j] = K()
			VCMPPS(U8(0), elem(x, i, 4, 16*j), vb, k[j])
		}
		KORW(k[1], k[0], k[0])
		KORW(k[3], k[2], k[2])
		KORTESTW(k[2], k[0])
	} else {
		var m [8]reg.VecVirtual
		for j := range m {
			m[j] = YMM()
			VCMPPS(U8(0), elem(x, i, 4, 8*j), vb, m[j])
		}
		for h := 4; h > 0; h /= 2 {
			for j := 0; j < h; j++ {
				VORPS(m[j+h], m[j], m[j])
			}
		}
		VPTEST(m[0], m[0])
	}
	JNZ(LabelRef(name + "_vector_start"))
	ADDQ(U32(64), i)
	Label(name + "_main_check")
	CMPQ(i, end)
	JB(LabelRef(name + "_main"))
	Label(name + "_vector_start")
	// single vectors: the first hit
	MOVQ(n, end)
	ANDQ(I32(-int32(w.lanes())), end)
	JMP(LabelRef(name + "_vector_check"))
	Label(name + "_vector")
	eq(0)
	TESTL(r.As32(), r.As32())
	JNZ(LabelRef(name + "_found"))
	ADDQ(U32(w.lanes()), i)
	Label(name + "_vector_check")
	CMPQ(i, end)
	JB(LabelRef(name + "_vector"))
	tail(name+"_scalar", n, i, func() {
		VUCOMISS(elem(x, i, 4, 0), vb.AsX())
		JNE(LabelRef(name + "_next"))
		JPS(LabelRef(name + "_next"))
		Store(i, ReturnIndex(0))
		VZEROUPPER()
		RET()
		Label(name + "_next")
	})
	MOVQ(I32(-1), i)
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
	Label(name + "_found")
	BSFL(r.As32(), r.As32())
	ADDQ(i, r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// rows8 emits sumRows8<src>Go (acc false: dst[i] = s) or accRows8<src>Go
// (acc true: dst[i] += s), s the eight rows' elements, converted exactly
// to float32 as they are loaded, added pairwise in float32. No software
// prefetch (Note [Outer streams] in backend/cpu).
func (w wide) rows8(src wsrc, acc bool) {
	base := "sumRows8" + src.name
	if acc {
		base = "accRows8" + src.name
	}
	gotype := map[wsrc]string{srcF32: "float32", srcBF16: "uint16", srcF16: "uint16"}[src]
	name := w.begin(base, fmt.Sprintf("func(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []%s)", gotype), base+"Go")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	var x [8]reg.Register
	for k := range x {
		x[k] = Load(Param(fmt.Sprintf("x%d", k)).Base(), GP64())
	}
	i := GP64()
	XORQ(i, i)
	lanes := w.lanes()
	// one vector of lanes elements at i+off; scalar: one element
	body := func(off int, scalar bool) {
		add, mov := VADDPS, VMOVUPS
		if scalar {
			add, mov = VADDSS, VMOVSS
		}
		var v [4]reg.VecVirtual
		for k := range v {
			if scalar {
				v[k] = XMM()
				loadScalar16(src, x[2*k], i, v[k])
				t := XMM()
				loadScalar16(src, x[2*k+1], i, t)
				VADDSS(t, v[k], v[k])
				continue
			}
			v[k] = w.vreg()
			w.load(src, x[2*k], i, off, 0, v[k])
			if src == srcF32 {
				VADDPS(elem(x[2*k+1], i, 4, off), v[k], v[k])
				continue
			}
			t := w.vreg()
			w.load(src, x[2*k+1], i, off, 0, t)
			VADDPS(t, v[k], v[k])
		}
		add(v[1], v[0], v[0])
		add(v[3], v[2], v[2])
		add(v[2], v[0], v[0])
		if acc {
			if scalar {
				t := XMM()
				VMOVSS(elem(dst, i, 4, off), t)
				VADDSS(v[0], t, v[0])
			} else {
				VADDPS(elem(dst, i, 4, off), v[0], v[0])
			}
		}
		mov(v[0], elem(dst, i, 4, off))
	}
	loop(name+"_main", n, i, 2*lanes, func() {
		body(0, false)
		body(lanes, false)
	})
	loop(name+"_vector", n, i, lanes, func() { body(0, false) })
	tail(name+"_scalar", n, i, func() { body(0, true) })
	VZEROUPPER()
	RET()
}

// filledAccs returns four rows of accumulators, acc[k][p] accumulator k
// part p, every lane set to v.
func (w wide) filledAccs(v float32) [][]reg.VecVirtual {
	c := GP32()
	MOVL(U32(math.Float32bits(v)), c)
	first := w.vreg()
	VMOVD(c, first.AsX())
	VPBROADCASTD(first.AsX(), first)
	acc := make([][]reg.VecVirtual, 4)
	for k := range acc {
		for p := 0; p < w.parts(); p++ {
			if k == 0 && p == 0 {
				acc[k] = append(acc[k], first)
				continue
			}
			r := w.vreg()
			VMOVUPS(first, r)
			acc[k] = append(acc[k], r)
		}
	}
	return acc
}

// foldAccs merges four rows of accumulators into lane 0 of the returned
// XMM register with merge(b, a), which sets a to a ⊕ b: (a0 ⊕ a1) ⊕
// (a2 ⊕ a3), then the lanes l with l+8, l+4, l+2 and l+1. Lanes other than
// 0 of the result are left over from the merges.
func (w wide) foldAccs(acc [][]reg.VecVirtual, merge func(b, a reg.VecVirtual)) reg.VecVirtual {
	for p := 0; p < w.parts(); p++ {
		merge(acc[1][p], acc[0][p])
		merge(acc[3][p], acc[2][p])
		merge(acc[2][p], acc[0][p])
	}
	var y reg.VecVirtual
	if w.avx512 {
		h := YMM()
		VEXTRACTF64X4(U8(1), acc[0][0], h)
		y = asY(acc[0][0])
		merge(h, y)
	} else {
		y = acc[0][0]
		merge(acc[0][1], y)
	}
	s := asX(y)
	h := XMM()
	w.extract128(y, h)
	merge(h, s)
	t := XMM()
	VMOVHLPS(s, s, t)
	merge(t, s)
	t2 := XMM()
	VMOVSHDUP(s, t2)
	merge(t2, s)
	return s
}

// prodF32 emits prodF32Go: four 16-lane accumulators of products, 64
// elements per step (element i into lane i mod 16 of accumulator (i/16)
// mod 4), single vectors into accumulator 0, then the accumulators merged
// (0·1)·(2·3), the lanes l with l+8, l+4, l+2, l+1, and the rest
// multiplied in one by one.
func (w wide) prodF32() {
	name := w.begin("prodF32", "func(x []float32) float32", "prodF32Go")
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	s := w.prodBody(name, x, n)
	storeRet(rf32, s, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// prodRows emits prodRowsF32Go: prodF32's kernel over rows stride
// elements apart, each product multiplied into its float32 in dst, in one
// loop (Note [Rows in one call] in backend/cpu).
func (w wide) prodRows() {
	w.rowsKernel("prodRowsF32", "float32", 4, srcF32, w.prodBody, func(s reg.VecVirtual, m Mem) {
		VMULSS(m, s, s)
		VMOVSS(s, m)
	})
}

// prodRows4 emits prodRows4F32: prodRowsF32Go on 4q rows, read four at
// a time as four streams (Note [Four streams] in vec's reduce_go.go):
// rows j, j+q, j+2q and j+3q together, four main steps (256 elements) of
// each in turn, its accumulators kept on the stack between them (in
// registers with AVX-512, prodRows4Regs); then each row's rest as prodF32
// ends it. Each row is multiplied in prodF32's order, so its bits are a
// call per row's.
func (w wide) prodRows4() {
	name := "prodRows4F32" + w.suffix()
	// not NOSPLIT: the frame is larger than a NOSPLIT chain may use
	TEXT(name, 0, "func(dst []float32, x []float32, rowLen, stride int)")
	Doc(name + " is prodRowsF32Go in assembly on 4q rows; see there for the exact loop.")
	Pragma("noescape")
	if w.avx512 {
		w.prodRows4Regs(name)
		return
	}
	accs := w.stackAccs(4 * 64) // four accumulators of 16 float32 a row
	fourStreams(name, 4, func(f *streams4) {
		rows, n := f.rows, f.n
		for k := range rows {
			accs.store(k, w.filledAccs(1))
		}
		i := turns(name, rows, n, accs.load, accs.store, w.prodStep64)
		for k, row := range rows {
			ik := GP64()
			MOVQ(i, ik)
			s := w.prodRest(fmt.Sprintf("%s_row%d", name, k), row, ik, n, accs.load(k))
			m := f.dst(k, 4)
			VMULSS(m, s, s)
			VMOVSS(s, m)
		}
	})
	VZEROUPPER()
	RET()
}

// prodRows4Regs emits prodRows4's AVX-512 kernel, whose vector registers
// hold the four rows' accumulators through the turns (16 of the 32), as
// maxRows4Regs does: the same steps as the kernel that keeps them on the
// stack, without its eight loads and stores around each turn. Measured at
// vec level on the 2-core Zen 5 VM, test binaries of the two kernels
// alternated twice (p10 of 40 calls): 16 rows of 4096 in the L2 cache
// 3.0-3.1 → 2.3-2.6 µs; [4096, 4096] on one goroutine 1.41-1.60 →
// 1.27-1.33 ms, on two 0.85-0.97 → 0.56-0.58 ms.
func (w wide) prodRows4Regs(name string) {
	fourStreams(name, 4, func(f *streams4) {
		rows, n := f.rows, f.n
		var accs [4][][]reg.VecVirtual
		for k := range rows {
			accs[k] = w.filledAccs(1)
		}
		load := func(k int) [][]reg.VecVirtual { return accs[k] }
		i := turns(name, rows, n, load, func(int, [][]reg.VecVirtual) {}, w.prodStep64)
		for k, row := range rows {
			ik := GP64()
			MOVQ(i, ik)
			s := w.prodRest(fmt.Sprintf("%s_row%d", name, k), row, ik, n, accs[k])
			m := f.dst(k, 4)
			VMULSS(m, s, s)
			VMOVSS(s, m)
		}
	})
	VZEROUPPER()
	RET()
}

// prodBody emits the loops of prodF32 over the n elements at x and
// returns the XMM register whose lane 0 holds their product; its labels
// start with name.
func (w wide) prodBody(name string, x, n reg.Register) reg.VecVirtual {
	acc := w.filledAccs(1)
	i := GP64()
	XORQ(i, i)
	return w.prodRest(name, x, i, n, acc)
}

// prodStep64 multiplies the 64 elements at x[i+off:] into acc, prodF32's
// main step: element i+off+l into lane l mod 16 of accumulator l/16.
func (w wide) prodStep64(x, i reg.Register, off int, acc [][]reg.VecVirtual) {
	for p := 0; p < w.parts(); p++ {
		for k := range acc {
			VMULPS(elem(x, i, 4, off+16*k+w.lanes()*p), acc[k][p], acc[k][p])
		}
	}
}

// prodRest emits prodF32's loops from element i on, its accumulators acc
// holding the product of the elements before i (a multiple of 64), and
// returns the XMM register whose lane 0 holds the product of all n; its
// labels start with name.
func (w wide) prodRest(name string, x, i, n reg.Register, acc [][]reg.VecVirtual) reg.VecVirtual {
	loop(name+"_main", n, i, 64, func() { w.prodStep64(x, i, 0, acc) }) // no prefetch: Note [Streaming without prefetch]
	loop(name+"_vector", n, i, 16, func() {
		for p := 0; p < w.parts(); p++ {
			VMULPS(elem(x, i, 4, w.lanes()*p), acc[0][p], acc[0][p])
		}
	})
	s := w.foldAccs(acc, func(b, a reg.VecVirtual) { VMULPS(b, a, a) })
	tail(name+"_scalar", n, i, func() {
		VMULSS(elem(x, i, 4, 0), s, s)
	})
	return s
}
