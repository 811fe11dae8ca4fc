package main

// This file generates package vec: float arithmetic, selection and
// conversions over contiguous slices.

import (
	"fmt"
	"math/bits"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genVec emits every function of package vec.
func genVec() {
	ConstraintExpr("amd64,!purego")

	genArith(f32, false)
	genArith(f64, false)

	// conversions
	f32ToF16()
	f16ToF32()
	f32ToBF16()
	f32ToBF16Wide(false)
	f32ToBF16Wide(true)
	bf16ToF32()
	i32ToF32()
	f32ToF64()
	f64ToF32()

	// the streaming variants (Note [Non-temporal stores] in vec's stream_amd64.go)
	genArith(f32, true)
	genArith(f64, true)
}

// genArith emits the arithmetic kernels of t; with stream, their Stream
// variants, which store dst with non-temporal stores.
func genArith(t ftype, stream bool) {
	sfx := t.name + "AVX2"
	if stream {
		sfx = t.name + "StreamAVX2"
	}
	bin := fmt.Sprintf("func(dst, a, b []%s)", t.gotype)
	sc := fmt.Sprintf("func(dst, a []%s, s %s)", t.gotype, t.gotype)
	rows := fmt.Sprintf("func(dst, a, s []%s, rows, rowLen, dstStride, aStride, sStride int)", t.gotype)
	for _, op := range []struct {
		name string
		ins  func(...Op)
	}{
		{"add", t.add}, {"sub", t.sub}, {"mul", t.mul}, {"div", t.div},
	} {
		binary(op.name+sfx, bin, t, op.ins, stream)
		scalarRight(op.name+"Scalar"+sfx, sc, t, op.ins, stream)
		if !stream {
			scalarRightRows(op.name+"ScalarRows"+sfx, rows, t, op.ins)
		}
	}
	scalarLeft("scalarSub"+sfx, sc, t, t.sub, stream)
	scalarLeft("scalarDiv"+sfx, sc, t, t.div, stream)
	axpy("axpy"+sfx, fmt.Sprintf("func(dst, a, b []%s, alpha %s)", t.gotype, t.gotype), t, t.fma, stream)
}

// cpuid emits the CPUID and XGETBV stubs used for feature detection.
func cpuid() {
	TEXT("cpuid", NOSPLIT, "func(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)")
	Doc("cpuid executes CPUID with the given EAX and ECX.")
	Load(Param("eaxArg"), reg.EAX)
	Load(Param("ecxArg"), reg.ECX)
	CPUID()
	Store(reg.EAX, Return("eax"))
	Store(reg.EBX, Return("ebx"))
	Store(reg.ECX, Return("ecx"))
	Store(reg.EDX, Return("edx"))
	RET()

	TEXT("xgetbv", NOSPLIT, "func() (eax, edx uint32)")
	Doc("xgetbv executes XGETBV with ECX = 0 (the XCR0 register).")
	XORL(reg.ECX, reg.ECX)
	XGETBV()
	Store(reg.EAX, Return("eax"))
	Store(reg.EDX, Return("edx"))
	RET()
}

// ---------------------------------------------------------------------------
// Loop skeleton

// kernel describes one generated function.
type kernel struct {
	name, sig string
	params    []string // slice parameters; params[0] is dst, whose length is the trip count
	scales    []uint8  // element size in bytes of each slice parameter
	step      int      // elements per vector
	unroll    int      // vectors per main-loop iteration
	// stream stores dst's vectors with non-temporal stores (Note
	// [Non-temporal stores] in vec's stream_amd64.go): see streamPeel.
	stream bool
	// setup runs once before the loops (broadcast constants, load scalars).
	setup func(g *gen)
	// rows runs the loops over rows of rowLen elements, the parameters
	// and the scalar s advancing by their strides from row to row, s
	// broadcast afresh for each (Note [Rows with a scalar each] in
	// backend/cpu): see generateRows. bcast broadcasts s's element.
	rows  bool
	bcast func(m, y Op)
	// body processes u vectors of step elements at index i (vector mode), or,
	// when g.scalar, one element.
	body func(g *gen, u int)
}

// gen is the state a body sees.
type gen struct {
	k      *kernel
	ptr    []reg.Register
	i      reg.Register
	scalar bool
	labels int
	vals   map[string]reg.VecVirtual // named values made by setup
}

// mem returns the address of vector v (of u) of slice parameter p.
func (g *gen) mem(p, v int) Mem {
	s := g.k.scales[p]
	return Mem{Base: g.ptr[p], Index: g.i, Scale: s, Disp: v * g.k.step * int(s)}
}

// vec returns a fresh vector register of the current width.
func (g *gen) vec() reg.Register {
	if g.scalar {
		return XMM()
	}
	return YMM()
}

// val returns the setup value name at the current width.
func (g *gen) val(name string) reg.Register {
	v, ok := g.vals[name]
	if !ok {
		panic("no value " + name)
	}
	if g.scalar {
		return v.AsX()
	}
	return v
}

func (g *gen) label(s string) string {
	g.labels++
	return fmt.Sprintf("%s_%s%d", g.k.name, s, g.labels)
}

// bcast32 returns a YMM register holding c in every 32-bit lane.
func bcast32(c uint32) reg.VecVirtual {
	r := GP32()
	MOVL(U32(c), r)
	y := YMM()
	VMOVD(r, y.AsX())
	VPBROADCASTD(y.AsX(), y)
	return y
}

func (k *kernel) generate() {
	TEXT(k.name, NOSPLIT, k.sig)
	Doc(docLine(k.name, k.stream))
	Pragma("noescape")
	g := &gen{k: k, vals: map[string]reg.VecVirtual{}}
	if k.rows {
		k.generateRows(g)
		return
	}

	n := Load(Param(k.params[0]).Len(), GP64())
	for _, p := range k.params {
		g.ptr = append(g.ptr, Load(Param(p).Base(), GP64()))
	}
	if k.setup != nil {
		k.setup(g)
	}
	g.i = GP64()
	k.loops(g, n)
	if k.stream {
		SFENCE() // order the weakly ordered stores before the caller's
	}
	VZEROUPPER()
	RET()
}

// generateRows emits the body of a rows kernel (k.rows): the loops over
// each of rows rows (rows ≥ 1) of rowLen elements, every slice parameter p
// advancing by its stride pStride, in elements, from row to row. With
// bcast, s is a parameter too, advancing by sStride elements of dst's
// type, and its element of the row is broadcast as the value "s":
// func(dst, a, s []T, rows, rowLen, dstStride, aStride, sStride int).
// Without it: func(dst []D, src []S, rows, rowLen, dstStride, srcStride
// int).
func (k *kernel) generateRows(g *gen) {
	for _, p := range k.params {
		g.ptr = append(g.ptr, Load(Param(p).Base(), GP64()))
	}
	var sp reg.Register
	if k.bcast != nil {
		sp = Load(Param("s").Base(), GP64())
	}
	rows := Load(Param("rows"), GP64())
	n := Load(Param("rowLen"), GP64())
	byteStride := func(name string, size uint8) reg.Register {
		r := Load(Param(name), GP64())
		SHLQ(U8(bits.TrailingZeros8(size)), r)
		return r
	}
	var strides []reg.Register
	for j, p := range k.params {
		strides = append(strides, byteStride(p+"Stride", k.scales[j]))
	}
	var s reg.VecVirtual
	var sStride reg.Register
	if k.bcast != nil {
		sStride = byteStride("sStride", k.scales[0])
		s = YMM()
		g.vals["s"] = s
	}
	if k.setup != nil {
		k.setup(g)
	}
	g.i = GP64()
	Label(k.name + "_row")
	if k.bcast != nil {
		k.bcast(Mem{Base: sp}, s)
	}
	k.loops(g, n)
	for j := range k.params {
		ADDQ(strides[j], g.ptr[j])
	}
	if k.bcast != nil {
		ADDQ(sStride, sp)
	}
	DECQ(rows)
	JNZ(LabelRef(k.name + "_row"))
	VZEROUPPER()
	RET()
}

// loops emits the kernel's loops over the n elements of its parameters:
// the unrolled one, single vectors, then element by element; g.i is the
// index register, set to 0 here.
func (k *kernel) loops(g *gen, n reg.Register) {
	XORQ(g.i, g.i)
	end := GP64()

	blk := k.step * k.unroll
	if k.stream {
		streamPeel(k.name, g.ptr[0], n, g.i, end, k.scales[0], func() {
			g.scalar = true
			k.body(g, 1)
			g.scalar = false
		})
	}
	loopEnd(n, g.i, end, blk, k.stream)
	JMP(LabelRef(k.name + "_check_unrolled"))
	Label(k.name + "_unrolled")
	k.body(g, k.unroll)
	ADDQ(U32(blk), g.i)
	Label(k.name + "_check_unrolled")
	CMPQ(g.i, end)
	JB(LabelRef(k.name + "_unrolled"))

	if k.unroll > 1 {
		loopEnd(n, g.i, end, k.step, k.stream)
		JMP(LabelRef(k.name + "_check_vector"))
		Label(k.name + "_vector")
		k.body(g, 1)
		ADDQ(U32(k.step), g.i)
		Label(k.name + "_check_vector")
		CMPQ(g.i, end)
		JB(LabelRef(k.name + "_vector"))
	}

	g.scalar = true
	JMP(LabelRef(k.name + "_check_scalar"))
	Label(k.name + "_scalar")
	k.body(g, 1)
	INCQ(g.i)
	Label(k.name + "_check_scalar")
	CMPQ(g.i, n)
	JB(LabelRef(k.name + "_scalar"))
	g.scalar = false
}

// docLine is the doc comment of the kernel name (fooAVX2 or
// fooStreamAVX2), whose pure-Go twin is fooGo.
func docLine(name string, stream bool) string {
	twin := strings.TrimSuffix(name, "AVX2")
	if stream {
		twin = strings.TrimSuffix(twin, "Stream")
		return fmt.Sprintf("%s is %sGo in assembly, dst stored with non-temporal stores; see there for the exact loop.", name, twin)
	}
	return fmt.Sprintf("%s is %sGo in assembly; see there for the exact loop.", name, twin)
}

// streamPeel emits the head of a streaming kernel named name: with i = 0,
// it runs one(), the scalar body, on elements i = 0, 1, ... until the
// address of dst[i] is a multiple of 32, as VMOVNTPS/VMOVNTPD require, or
// i reaches n; end is scratch. dst's address must be a multiple of size
// (the Go wrappers check).
func streamPeel(name string, dst, n, i, end reg.Register, size uint8, one func()) {
	MOVQ(dst, end)
	NEGQ(end)
	ANDQ(U8(31), end) // bytes to the next 32-byte boundary
	SHRQ(U8(bits.TrailingZeros8(size)), end)
	CMPQ(end, n)
	CMOVQHI(n, end) // end = min(end, n)
	JMP(LabelRef(name + "_check_peel"))
	Label(name + "_peel")
	one()
	INCQ(i)
	Label(name + "_check_peel")
	CMPQ(i, end)
	JB(LabelRef(name + "_peel"))
}

// loopEnd sets end to the end of a loop over blocks of blk elements (a
// power of two) from i: n rounded down to a multiple of blk, or, for a
// streaming kernel (which starts where the peel ended), i plus n − i so
// rounded.
func loopEnd(n, i, end reg.Register, blk int, stream bool) {
	MOVQ(n, end)
	if !stream {
		ANDQ(I32(-int32(blk)), end)
		return
	}
	SUBQ(i, end)
	ANDQ(I32(-int32(blk)), end)
	ADDQ(i, end)
}

// ---------------------------------------------------------------------------
// Element types

type ftype struct {
	name, gotype       string // F32, float32
	size               uint8
	step               int
	load               func(m, r Op) // vector load
	store              func(r, m Op) // vector store
	storeNT            func(r, m Op) // vector non-temporal store (32-byte aligned)
	add, sub, mul, div func(...Op)
	fma                func(...Op)   // VFMADD231: z = x·y + z
	loadS              func(m, r Op) // scalar load (zeroes the other lanes)
	storeS             func(r, m Op) // scalar store
	bcast              func(m, y Op) // broadcast one element from memory to a YMM
}

var f32 = ftype{
	name: "F32", gotype: "float32", size: 4, step: 8,
	load: func(m, r Op) { VMOVUPS(m, r) }, store: func(r, m Op) { VMOVUPS(r, m) },
	storeNT: func(r, m Op) { VMOVNTPS(r, m) },
	add:     VADDPS, sub: VSUBPS, mul: VMULPS, div: VDIVPS, fma: VFMADD231PS,
	loadS: func(m, r Op) { VMOVSS(m, r) }, storeS: func(r, m Op) { VMOVSS(r, m) },
	bcast: func(x, y Op) { VBROADCASTSS(x, y) },
}

var f64 = ftype{
	name: "F64", gotype: "float64", size: 8, step: 4,
	load: func(m, r Op) { VMOVUPD(m, r) }, store: func(r, m Op) { VMOVUPD(r, m) },
	storeNT: func(r, m Op) { VMOVNTPD(r, m) },
	add:     VADDPD, sub: VSUBPD, mul: VMULPD, div: VDIVPD, fma: VFMADD231PD,
	loadS: func(m, r Op) { VMOVSD(m, r) }, storeS: func(r, m Op) { VMOVSD(r, m) },
	bcast: func(x, y Op) { VBROADCASTSD(x, y) },
}

// load reads vector v of parameter p into a new register.
func (g *gen) load(t ftype, p, v int) reg.Register {
	r := g.vec()
	if g.scalar {
		t.loadS(g.mem(p, v), r)
	} else {
		t.load(g.mem(p, v), r)
	}
	return r
}

// operand returns vector v of parameter p as a memory operand (vector mode)
// or as a register holding one element (scalar mode, so that a full-width
// memory operand never reads past the end).
func (g *gen) operand(t ftype, p, v int) Op {
	if g.scalar {
		return g.load(t, p, v)
	}
	return g.mem(p, v)
}

func (g *gen) store(t ftype, r Op, p, v int) {
	if g.scalar {
		t.storeS(r, g.mem(p, v))
	} else if g.k.stream && p == 0 {
		t.storeNT(r, g.mem(p, v))
	} else {
		t.store(r, g.mem(p, v))
	}
}

// ---------------------------------------------------------------------------
// Arithmetic

// binary: dst[i] = a[i] op b[i].
func binary(name, sig string, t ftype, ins func(...Op), stream bool) {
	(&kernel{
		name: name, sig: sig, stream: stream,
		params: []string{"dst", "a", "b"}, scales: []uint8{t.size, t.size, t.size},
		step: t.step, unroll: 4,
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := g.load(t, 1, v)
				ins(g.operand(t, 2, v), x, x)
				g.store(t, x, 0, v)
			}
		},
	}).generate()
}

// loadScalar broadcasts the float argument name straight from the frame
// (VBROADCASTSS/SD m, y: no SSE move that would mix legacy and VEX code).
func loadScalar(g *gen, t ftype, name string) {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	y := YMM()
	t.bcast(b.Addr, y)
	g.vals[name] = y
}

// scalarRight: dst[i] = a[i] op s.
func scalarRight(name, sig string, t ftype, ins func(...Op), stream bool) {
	(&kernel{
		name: name, sig: sig, stream: stream,
		params: []string{"dst", "a"}, scales: []uint8{t.size, t.size},
		step: t.step, unroll: 4,
		setup: func(g *gen) { loadScalar(g, t, "s") },
		body:  scalarRightBody(t, ins),
	}).generate()
}

// scalarRightBody is the body of scalarRight and scalarRightRows: a op s
// for u vectors (or one element), s the value "s".
func scalarRightBody(t ftype, ins func(...Op)) func(g *gen, u int) {
	return func(g *gen, u int) {
		for v := 0; v < u; v++ {
			x := g.load(t, 1, v)
			ins(g.val("s"), x, x)
			g.store(t, x, 0, v)
		}
	}
}

// scalarRightRows: dst[i] = a[i] op s row by row, each row with its own s
// (kernel.rows).
func scalarRightRows(name, sig string, t ftype, ins func(...Op)) {
	(&kernel{
		name: name, sig: sig, rows: true, bcast: t.bcast,
		params: []string{"dst", "a"}, scales: []uint8{t.size, t.size},
		step: t.step, unroll: 4,
		body: scalarRightBody(t, ins),
	}).generate()
}

// scalarLeft: dst[i] = s op a[i].
func scalarLeft(name, sig string, t ftype, ins func(...Op), stream bool) {
	(&kernel{
		name: name, sig: sig, stream: stream,
		params: []string{"dst", "a"}, scales: []uint8{t.size, t.size},
		step: t.step, unroll: 4,
		setup: func(g *gen) { loadScalar(g, t, "s") },
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := g.vec()
				ins(g.operand(t, 1, v), g.val("s"), x)
				g.store(t, x, 0, v)
			}
		},
	}).generate()
}

// axpy: dst[i] = fma(alpha, b[i], a[i]), one rounding.
func axpy(name, sig string, t ftype, fma func(...Op), stream bool) {
	(&kernel{
		name: name, sig: sig, stream: stream,
		params: []string{"dst", "a", "b"}, scales: []uint8{t.size, t.size, t.size},
		step: t.step, unroll: 4,
		setup: func(g *gen) { loadScalar(g, t, "alpha") },
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := g.load(t, 1, v)
				fma(g.operand(t, 2, v), g.val("alpha"), x) // x = alpha*b + x
				g.store(t, x, 0, v)
			}
		},
	}).generate()
}

// ---------------------------------------------------------------------------
// Conversions

// anyNaN computes the NaN mask of each of xs and, when no lane of any is
// NaN, jumps to the returned label. The caller emits the (rare) NaN fixup
// code next, then places the label.
func anyNaN(g *gen, xs []reg.Register) (masks []reg.Register, done string) {
	var acc reg.Register
	for _, x := range xs {
		m := g.vec()
		VCMPPS(U8(3), x, x, m) // UNORD_Q
		masks = append(masks, m)
		if acc == nil {
			acc = m
		} else {
			a := g.vec()
			VORPS(m, acc, a)
			acc = a
		}
	}
	done = g.label("nonan")
	VPTEST(acc, acc)
	JZ(LabelRef(done))
	return masks, done
}

// f32ToF16: dst[i] = float16 bits of src[i], round to nearest even, NaN made
// the quiet NaN sign|0x7e00 (as dtype.HalfFromFloat32: no payload). Also
// its rows kernel (kernel.rows), one call for a tile of rows (Note
// [Storing tiles] in backend/cpu/internal/gemm).
func f32ToF16() {
	f32ToF16Kernel("f32ToF16AVX2", "func(dst []uint16, src []float32)", false).generate()
	f32ToF16Kernel("f32ToF16RowsAVX2", "func(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int)", true).generate()
}

// f32ToF16Kernel is f32ToF16's kernel, named name, of signature sig, over
// rows when rows is set.
func f32ToF16Kernel(name, sig string, rows bool) *kernel {
	return &kernel{
		name: name, sig: sig, rows: rows,
		params: []string{"dst", "src"}, scales: []uint8{2, 4},
		step: 8, unroll: 4,
		body: func(g *gen, u int) {
			xs := make([]reg.Register, u)
			for v := range xs {
				xs[v] = g.load(f32, 1, v)
			}
			masks, done := anyNaN(g, xs)
			// Rare: some NaN. Replace it by sign|exp|quiet bit, zero payload,
			// which VCVTPS2PH turns into sign|0x7e00.
			keep := bcast32(0xff800000)
			quiet := bcast32(0x00400000)
			for v, x := range xs {
				t := g.vec()
				VANDPS(g.width(keep), x, t)
				VORPS(g.width(quiet), t, t)
				VBLENDVPS(masks[v], t, x, x)
			}
			Label(done)
			for v, x := range xs {
				if g.scalar {
					h := XMM()
					VCVTPS2PH(U8(0), x, h)
					VPEXTRW(U8(0), h, g.mem(0, v))
				} else {
					// register form then a store: the memory form is slower on Zen
					h := XMM()
					VCVTPS2PH(U8(0), x, h)
					VMOVDQU(h, g.mem(0, v))
				}
			}
		},
	}
}

// width returns r at the current width.
func (g *gen) width(r reg.VecVirtual) reg.Register {
	if g.scalar {
		return r.AsX()
	}
	return r
}

// f16ToF32: dst[i] = float32 of the float16 bits src[i], exactly, NaN
// payload kept and not quieted (as dtype.Half.Float32).
func f16ToF32() {
	(&kernel{
		name: "f16ToF32AVX2", sig: "func(dst []float32, src []uint16)",
		params: []string{"dst", "src"}, scales: []uint8{4, 2},
		step: 8, unroll: 4,
		body: func(g *gen, u int) {
			rs := make([]reg.Register, u)
			var ws []reg.Register // scalar mode: the loaded half, zero-extended
			for v := range rs {
				rs[v] = g.vec()
				if g.scalar {
					r, w := GP32(), XMM()
					MOVWLZX(g.mem(1, v), r)
					VMOVD(r, w)
					VCVTPH2PS(w, rs[v])
					ws = append(ws, w)
				} else {
					VCVTPH2PS(g.mem(1, v), rs[v])
				}
			}
			masks, done := anyNaN(g, rs)
			// Rare: some NaN. VCVTPH2PS sets the quiet bit (bit 22); clear it
			// again where the half's quiet bit (bit 9) was clear.
			quiet := bcast32(0x00400000)
			for v, r := range rs {
				var w reg.Register
				if g.scalar {
					w = ws[v]
				} else {
					w = YMM()
					VPMOVZXWD(g.mem(1, v), w)
				}
				t := g.vec()
				VPSLLD(U8(13), w, t)
				VPANDN(masks[v], t, t) // t = ^t & nan
				VPAND(g.width(quiet), t, t)
				VPXOR(t, r, r)
			}
			Label(done)
			for v, r := range rs {
				g.store(f32, r, 0, v)
			}
		},
	}).generate()
}

// f32ToBF16: dst[i] = bfloat16 bits of src[i], round to nearest even by
// integer addition; NaN: top half with the quiet bit set. Also its rows
// kernel (kernel.rows), one call for a tile of rows (Note [Storing
// tiles] in backend/cpu/internal/gemm).
func f32ToBF16() {
	f32ToBF16Kernel("f32ToBF16AVX2", "func(dst []uint16, src []float32)", false).generate()
	f32ToBF16Kernel("f32ToBF16RowsAVX2", "func(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int)", true).generate()
}

// f32ToBF16Kernel is f32ToBF16's kernel, named name, of signature sig,
// over rows when rows is set.
func f32ToBF16Kernel(name, sig string, rows bool) *kernel {
	return &kernel{
		name: name, sig: sig, rows: rows,
		params: []string{"dst", "src"}, scales: []uint8{2, 4},
		step: 8, unroll: 4,
		setup: func(g *gen) {
			g.vals["one"] = bcast32(1)
			g.vals["round"] = bcast32(0x7fff)
		},
		body: func(g *gen, u int) {
			bs := make([]reg.Register, u)
			for v := range bs {
				bs[v] = g.load(f32, 1, v)
			}
			masks, done := anyNaN(g, bs)
			// Rare: some NaN. Set its quiet bit and clear its low half, so
			// that the rounding below adds no carry and keeps the top half.
			quiet := bcast32(0x00400000)
			high := bcast32(0xffff0000)
			for v, b := range bs {
				q := g.vec()
				VPOR(g.width(quiet), b, q)
				VPAND(g.width(high), q, q)
				VBLENDVPS(masks[v], q, b, b)
			}
			Label(done)
			// r = (b + 0x7fff + (b>>16)&1) >> 16
			rs := make([]reg.Register, u)
			for v, b := range bs {
				lsb := g.vec()
				VPSRLD(U8(16), b, lsb)
				VPAND(g.val("one"), lsb, lsb)
				r := g.vec()
				VPADDD(g.val("round"), b, r)
				VPADDD(lsb, r, r)
				VPSRLD(U8(16), r, r)
				rs[v] = r
			}
			switch {
			case g.scalar:
				VPEXTRW(U8(0), rs[0], g.mem(0, 0))
			case u%2 == 0:
				// pack two vectors: words come out as lo0-3 hi0-3 lo4-7 hi4-7
				for v := 0; v < u; v += 2 {
					o := YMM()
					VPACKUSDW(rs[v+1], rs[v], o)
					VPERMQ(U8(0xd8), o, o)
					VMOVDQU(o, g.mem(0, v))
				}
			default:
				for v, r := range rs {
					hi, o := XMM(), XMM()
					VEXTRACTI128(U8(1), r, hi)
					VPACKUSDW(hi, r.(reg.VecVirtual).AsX(), o)
					VMOVDQU(o, g.mem(0, v))
				}
			}
		},
	}
}

// f32ToBF16Wide emits f32ToBF16AVX512, or with rows f32ToBF16RowsAVX512
// (the rows kernel's signature, kernel.rows): f32ToBF16's rounding on the
// 16 lanes of a ZMM register, NaN lanes replaced under their mask, the
// words stored by VPMOVDW, and the last fewer than 16 elements of a row
// loaded and stored under a mask of their lanes.
func f32ToBF16Wide(rows bool) {
	name, sig := "f32ToBF16AVX512", "func(dst []uint16, src []float32)"
	if rows {
		name, sig = "f32ToBF16RowsAVX512", "func(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int)"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(fmt.Sprintf("%s is %sGo in assembly; see there for the exact loop.", name, strings.TrimSuffix(name, "AVX512")))
	Pragma("noescape")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	var n, left, dstStride, srcStride reg.Register
	if rows {
		left = Load(Param("rows"), GP64())
		n = Load(Param("rowLen"), GP64())
		dstStride = Load(Param("dstStride"), GP64())
		SHLQ(U8(1), dstStride)
		srcStride = Load(Param("srcStride"), GP64())
		SHLQ(U8(2), srcStride)
	} else {
		n = Load(Param("dst").Len(), GP64())
	}
	one, round, quiet := broadcastZ(1), broadcastZ(0x7fff), broadcastZ(0x40)
	i := GP64()
	// vector v of the step at i; under mask when not nil
	body := func(v int, mask reg.Register) {
		x, hi, lsb, r, nan := ZMM(), ZMM(), ZMM(), ZMM(), K()
		m := Mem{Base: src, Index: i, Scale: 4, Disp: 64 * v}
		if mask != nil {
			VMOVUPS_Z(m, mask, x)
		} else {
			VMOVUPS(m, x)
		}
		// r = (x + 0x7fff + (x>>16)&1) >> 16; a NaN: x>>16 | 0x40
		VPSRLD(U8(16), x, hi)
		VPANDD(one, hi, lsb)
		VPADDD(round, x, r)
		VPADDD(lsb, r, r)
		VPSRLD(U8(16), r, r)
		VCMPPS(U8(3), x, x, nan) // unordered: NaN
		VPORD(quiet, hi, nan, r)
		d := Mem{Base: dst, Index: i, Scale: 2, Disp: 32 * v}
		if mask != nil {
			VPMOVDW(r, mask, d)
		} else {
			VPMOVDW(r, d)
		}
	}
	if rows {
		Label(name + "_row")
	}
	XORQ(i, i)
	loop(name+"_pair", n, i, 32, func() { body(0, nil); body(1, nil) })
	loop(name+"_vector", n, i, 16, func() { body(0, nil) })
	CMPQ(i, n)
	JAE(LabelRef(name + "_done"))
	rem, ones, bitsReg, mask := GP64(), GP64(), GP64(), K()
	MOVQ(n, rem)
	SUBQ(i, rem)
	MOVQ(I32(-1), ones)
	BZHIQ(rem, ones, bitsReg)
	KMOVQ(bitsReg, mask)
	body(0, mask)
	Label(name + "_done")
	if rows {
		ADDQ(dstStride, dst)
		ADDQ(srcStride, src)
		DECQ(left)
		JNZ(LabelRef(name + "_row"))
	}
	VZEROUPPER()
	RET()
}

// bf16ToF32: dst[i] = src[i] << 16 as float32 bits.
func bf16ToF32() {
	(&kernel{
		name: "bf16ToF32AVX2", sig: "func(dst []float32, src []uint16)",
		params: []string{"dst", "src"}, scales: []uint8{4, 2},
		step: 8, unroll: 4,
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				if g.scalar {
					r := GP32()
					MOVWLZX(g.mem(1, v), r)
					SHLL(U8(16), r)
					MOVL(r, g.mem(0, v))
					continue
				}
				y := YMM()
				VPMOVZXWD(g.mem(1, v), y)
				VPSLLD(U8(16), y, y)
				VMOVDQU(y, g.mem(0, v))
			}
		},
	}).generate()
}

// i32ToF32: dst[i] = float32(src[i]), rounding per MXCSR (nearest even).
func i32ToF32() {
	(&kernel{
		name: "i32ToF32AVX2", sig: "func(dst []float32, src []int32)",
		params: []string{"dst", "src"}, scales: []uint8{4, 4},
		step: 8, unroll: 4,
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := g.vec()
				VCVTDQ2PS(g.operand(f32, 1, v), x)
				g.store(f32, x, 0, v)
			}
		},
	}).generate()
}

// f32ToF64: dst[i] = float64(src[i]).
func f32ToF64() {
	(&kernel{
		name: "f32ToF64AVX2", sig: "func(dst []float64, src []float32)",
		params: []string{"dst", "src"}, scales: []uint8{8, 4},
		step: 4, unroll: 4,
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := g.vec()
				if g.scalar {
					VCVTPS2PD(g.load(f32, 1, v), x)
				} else {
					VCVTPS2PD(g.mem(1, v), x)
				}
				g.store(f64, x, 0, v)
			}
		},
	}).generate()
}

// f64ToF32: dst[i] = float32(src[i]), rounding per MXCSR (nearest even).
func f64ToF32() {
	(&kernel{
		name: "f64ToF32AVX2", sig: "func(dst []float32, src []float64)",
		params: []string{"dst", "src"}, scales: []uint8{4, 8},
		step: 4, unroll: 4,
		body: func(g *gen, u int) {
			for v := 0; v < u; v++ {
				x := XMM()
				if g.scalar {
					VCVTPD2PSX(g.load(f64, 1, v), x)
					VMOVSS(x, g.mem(0, v))
				} else {
					VCVTPD2PSY(g.mem(1, v), x)
					VMOVUPS(x, g.mem(0, v))
				}
			}
		},
	}).generate()
}
