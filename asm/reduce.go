package main

// This file generates the reduction primitives of package vec (run with
// -part reduce: zz_reduce_amd64.s and zz_reduce_stubs_amd64.go): sums, max
// and min of float rows, and the fused row kernels of softmax and
// layer_norm. Their pure-Go twins are in vec/reduce_go.go; the assembly
// computes exactly what the twins do.
//
// A fold keeps unroll accumulators of one vector each. The main loop adds
// unroll·step elements per iteration (element i into lane i mod step of
// accumulator (i / step) mod unroll), a second loop one vector at a time
// into accumulator 0; then the accumulators are merged pairwise (0⊕1,
// 2⊕3, ..., then 0⊕2, 4⊕6, ..., then 0⊕4), the lanes of accumulator 0
// merged pairwise (lane l with l+step/2, halving), and the remaining
// elements folded one at a time into the scalar. Every merge is a ⊕ b with
// a the lower lanes or accumulator.

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genReduce emits every reduction primitive of package vec.
func genReduce() {
	ConstraintExpr("amd64,!purego")
	for _, t := range []redType{rf32, rf64} {
		sumFold(t)
	}
	maxFold(rf64, true)
	maxFold(rf64, false)
	expSubSum()
	sumSqDev()
	sumF32InF64()
	sumSqDevWide(rf32in64)
	sumSqDevWide(rf64)
	normAffine()
	accF32F64()
	cumAccF32F64()
	cumAccRows4F32F64()
	maxAccF32(true)
	maxAccF32(false)
	welfordChunkBF16()
	mergeLanesBF16()
	genWide(wide{}) // the AVX2 forms of the 16-lane kernels (reduce16.go)
}

// redType is a float element type of the folds.
type redType struct {
	name  string // F32, F64
	gotyp string
	size  uint8
	step  int
	load  func(m, r Op)
	loadS func(m, r Op)
	add   func(ops ...Op)
	max   func(ops ...Op)
	min   func(ops ...Op)
	cmp   func(ops ...Op)
	mask  func(x, r Op)
	ucom  func(a, b Op)
	store func(r, m Op)
}

var rf32 = redType{
	name: "F32", gotyp: "float32", size: 4, step: 8,
	load: func(m, r Op) { VMOVUPS(m, r) }, loadS: func(m, r Op) { VMOVSS(m, r) },
	add: VADDPS, max: VMAXPS, min: VMINPS, cmp: VCMPPS, mask: VMOVMSKPS, ucom: VUCOMISS,
	store: func(r, m Op) { VMOVSS(r, m) },
}

var rf64 = redType{
	name: "F64", gotyp: "float64", size: 8, step: 4,
	load: func(m, r Op) { VMOVUPD(m, r) }, loadS: func(m, r Op) { VMOVSD(m, r) },
	add: VADDPD, max: VMAXPD, min: VMINPD, cmp: VCMPPD, mask: VMOVMSKPD, ucom: VUCOMISD,
	store: func(r, m Op) { VMOVSD(r, m) },
}

// fold describes one folding function over slices; params[0] sets the length.
type fold struct {
	name, sig string
	t         redType
	unroll    int
	params    []string
	scales    []uint8 // element size of each parameter (default t.size)
	setup     func(f *foldGen)
	init      func(f *foldGen) reg.Register // a fresh accumulator
	// step folds the element(s) at index i (+ disp elements) into acc.
	step  func(f *foldGen, acc reg.Register, disp int)
	merge func(f *foldGen, a, b reg.Register) // a = a ⊕ b
	// afterVectors runs between the vector loops and the horizontal merge.
	afterVectors func(f *foldGen)
	finish       func(f *foldGen, s reg.Register) // store the results; s holds the scalar in lane 0
	noAcc        bool                             // no accumulators: a plain loop (init, merge, finish unused)
	// stream (noAcc only) stores parameter 0's vectors with non-temporal
	// stores after a peel to 32-byte alignment (streamPeel in vec.go).
	stream bool
	// block, when set, replaces the main loop's body: it folds blockN
	// elements at index i into the accumulators.
	block  func(f *foldGen, accs []reg.Register)
	blockN int
	// prefetch lists the parameters whose main-loop reads are prefetched
	// prefetchAhead bytes ahead, one PREFETCHT0 per cache line (streams
	// from memory then keep more lines in flight; measured ~10% faster on
	// two cores sharing DRAM).
	prefetch []int
}

const prefetchAhead = 4096

type foldGen struct {
	f      *fold
	ptr    []reg.Register
	i      reg.Register
	scalar bool
	vals   map[string]reg.Register
}

func (g *foldGen) mem(p, disp int) Mem {
	s := g.f.t.size
	if g.f.scales != nil {
		s = g.f.scales[p]
	}
	return Mem{Base: g.ptr[p], Index: g.i, Scale: s, Disp: disp * int(s)}
}

func (g *foldGen) vec() reg.Register {
	if g.scalar {
		return XMM()
	}
	return YMM()
}

// width returns r at the current width.
func (g *foldGen) width(r reg.Register) reg.Register {
	if g.scalar {
		return r.(reg.VecVirtual).AsX()
	}
	return r
}

// loadX loads element(s) of parameter p at disp into a new register.
func (g *foldGen) loadX(p, disp int) reg.Register {
	r := g.vec()
	if g.scalar {
		g.f.t.loadS(g.mem(p, disp), r)
	} else {
		g.f.t.load(g.mem(p, disp), r)
	}
	return r
}

func (g *foldGen) storeX(r reg.Register, p, disp int) {
	if g.scalar {
		g.f.t.store(r, g.mem(p, disp))
	} else if g.f.stream && p == 0 && g.f.t.size == 4 {
		VMOVNTPS(r, g.mem(p, disp))
	} else if g.f.stream && p == 0 {
		VMOVNTPD(r, g.mem(p, disp))
	} else if g.f.t.size == 4 {
		VMOVUPS(r, g.mem(p, disp))
	} else {
		VMOVUPD(r, g.mem(p, disp))
	}
}

func (f *fold) generate() {
	TEXT(f.name, NOSPLIT, f.sig)
	Doc(docLine(f.name, f.stream))
	Pragma("noescape")
	g := &foldGen{f: f, vals: map[string]reg.Register{}}
	n := Load(Param(f.params[0]).Len(), GP64())
	for _, p := range f.params {
		g.ptr = append(g.ptr, Load(Param(p).Base(), GP64()))
	}
	if f.setup != nil {
		f.setup(g)
	}
	accs := make([]reg.Register, f.unroll)
	for k := range accs {
		if !f.noAcc {
			accs[k] = f.init(g)
		}
	}
	g.i = GP64()
	XORQ(g.i, g.i)
	end := GP64()
	step := f.t.step
	blk := step * f.unroll
	if f.block != nil {
		blk = f.blockN
	}
	if f.stream {
		if !f.noAcc || f.block != nil {
			panic(f.name + ": stream needs noAcc and no block")
		}
		s := f.t.size
		if f.scales != nil {
			s = f.scales[0]
		}
		streamPeel(f.name, g.ptr[0], n, g.i, end, s, func() {
			g.scalar = true
			f.step(g, nil, 0)
			g.scalar = false
		})
	}
	loopEnd(n, g.i, end, blk, f.stream)
	JMP(LabelRef(f.name + "_check_unrolled"))
	Label(f.name + "_unrolled")
	for _, p := range f.prefetch {
		s := int(f.t.size)
		if f.scales != nil {
			s = int(f.scales[p])
		}
		for off := 0; off < blk*s; off += 64 {
			PREFETCHT0(g.mem(p, (prefetchAhead+off)/s))
		}
	}
	if f.block != nil {
		f.block(g, accs)
	} else {
		for k, a := range accs {
			f.step(g, a, k*step)
		}
	}
	ADDQ(U32(blk), g.i)
	Label(f.name + "_check_unrolled")
	CMPQ(g.i, end)
	JB(LabelRef(f.name + "_unrolled"))
	if f.unroll > 1 {
		loopEnd(n, g.i, end, step, f.stream)
		JMP(LabelRef(f.name + "_check_vector"))
		Label(f.name + "_vector")
		f.step(g, accs[0], 0)
		ADDQ(U32(step), g.i)
		Label(f.name + "_check_vector")
		CMPQ(g.i, end)
		JB(LabelRef(f.name + "_vector"))
	}
	if f.afterVectors != nil {
		f.afterVectors(g)
	}
	if f.noAcc {
		g.scalar = true
		JMP(LabelRef(f.name + "_check_scalar"))
		Label(f.name + "_scalar")
		f.step(g, nil, 0)
		INCQ(g.i)
		Label(f.name + "_check_scalar")
		CMPQ(g.i, n)
		JB(LabelRef(f.name + "_scalar"))
		if f.stream {
			SFENCE() // order the weakly ordered stores before the caller's
		}
		VZEROUPPER()
		RET()
		return
	}
	// merge the accumulators: 0⊕1, 2⊕3, 0⊕2
	// pairwise: 0⊕1, 2⊕3, ..., then 0⊕2, 4⊕6, ..., then 0⊕4
	for h := 1; h < f.unroll; h *= 2 {
		for k := 0; k+h < f.unroll; k += 2 * h {
			f.merge(g, accs[k], accs[k+h])
		}
	}
	// the lanes: halve until one is left
	g.scalar = true
	lo := accs[0].(reg.VecVirtual).AsX()
	hi := XMM()
	VEXTRACTF128(U8(1), accs[0], hi)
	f.merge(g, lo, hi)
	t := XMM()
	if f.t.size == 4 {
		VMOVHLPS(lo, lo, t)
		f.merge(g, lo, t)
		t2 := XMM()
		VMOVSHDUP(lo, t2)
		f.merge(g, lo, t2)
	} else {
		VPERMILPD(U8(1), lo, t)
		f.merge(g, lo, t)
	}
	JMP(LabelRef(f.name + "_check_scalar"))
	Label(f.name + "_scalar")
	f.step(g, lo, 0)
	INCQ(g.i)
	Label(f.name + "_check_scalar")
	CMPQ(g.i, n)
	JB(LabelRef(f.name + "_scalar"))
	f.finish(g, lo)
	VZEROUPPER()
	RET()
}

// broadcastParams returns a fold's setup that broadcasts each float
// parameter named to every lane of a YMM register, g.vals[name]: float32
// parameters by VBROADCASTSS, float64 ones (wide) by VBROADCASTSD.
func broadcastParams(wide bool, names ...string) func(g *foldGen) {
	return func(g *foldGen) {
		for _, name := range names {
			b, err := Param(name).Resolve()
			if err != nil {
				panic(err)
			}
			y := YMM()
			if wide {
				VBROADCASTSD(b.Addr, y)
			} else {
				VBROADCASTSS(b.Addr, y)
			}
			g.vals[name] = y
		}
	}
}

func zeroAcc(g *foldGen) reg.Register {
	y := YMM()
	VXORPS(y, y, y)
	return y
}

// sumFold: Σ x[i].
func sumFold(t redType) {
	(&fold{
		name: "sum" + t.name + "AVX2", sig: fmt.Sprintf("func(x []%s) %s", t.gotyp, t.gotyp),
		t: t, unroll: 4, params: []string{"x"}, prefetch: []int{0},
		init: zeroAcc,
		step: func(g *foldGen, acc reg.Register, disp int) {
			x := g.loadX(0, disp)
			t.add(x, g.width(acc), g.width(acc))
		},
		merge:  func(g *foldGen, a, b reg.Register) { t.add(b, a, a) },
		finish: func(g *foldGen, s reg.Register) { storeRet(t, s, ReturnIndex(0)) },
	}).generate()
}

// bcastConst returns a YMM holding the float c in every lane.
func bcastConst(t redType, c float64) reg.VecVirtual {
	r := GP64()
	y := YMM()
	if t.size == 4 {
		MOVL(U32(math.Float32bits(float32(c))), r.As32())
		VMOVD(r.As32(), y.AsX())
		VPBROADCASTD(y.AsX(), y)
	} else {
		MOVQ(U64(math.Float64bits(c)), r)
		VMOVQ(r, y.AsX())
		VPBROADCASTQ(y.AsX(), y)
	}
	return y
}

// maxFold: the max (or min) over the non-NaN elements (-Inf, +Inf when
// none) and whether some element is NaN. acc = x > acc ? x : acc (a NaN x
// leaves acc; on equal values acc stays: VMAXPS's second source).
func maxFold(t redType, isMax bool) {
	name, ins := "max", t.max
	init := math.Inf(-1)
	if !isMax {
		name, ins, init = "min", t.min, math.Inf(1)
	}
	var nan, flag reg.Register
	(&fold{
		name: name + t.name + "AVX2", sig: fmt.Sprintf("func(x []%s) (m %s, nan bool)", t.gotyp, t.gotyp),
		t: t, unroll: 4, params: []string{"x"}, prefetch: []int{0},
		setup: func(g *foldGen) {
			nan = zeroAcc(g)
			flag = GP32()
			XORL(flag, flag)
		},
		init:   func(g *foldGen) reg.Register { return bcastConst(t, init) },
		blockN: 4 * t.step,
		// the main loop: the NaN test compares the vectors in pairs
		// (unordered if either is NaN) and ORs the masks as a tree, so
		// the NaN accumulator's chain is one OR per iteration
		block: func(g *foldGen, accs []reg.Register) {
			var x [4]reg.Register
			for k := range x {
				x[k] = g.loadX(0, k*t.step)
				ins(accs[k], x[k], accs[k])
			}
			m0, m1 := YMM(), YMM()
			t.cmp(U8(3), x[1], x[0], m0)
			t.cmp(U8(3), x[3], x[2], m1)
			VORPS(m1, m0, m0)
			VORPS(m0, nan, nan)
		},
		step: func(g *foldGen, acc reg.Register, disp int) {
			x := g.loadX(0, disp)
			if g.scalar {
				t.ucom(x, x)
				b := GP8()
				SETPS(b)
				MOVBLZX(b, b.As32())
				ORL(b.As32(), flag)
			} else {
				m := YMM()
				t.cmp(U8(3), x, x, m) // UNORD_Q: x is NaN
				VORPS(m, nan, nan)
			}
			a := g.width(acc)
			ins(a, x, a)
		},
		merge: func(g *foldGen, a, b reg.Register) { ins(b, a, a) },
		afterVectors: func(g *foldGen) {
			r := GP32()
			t.mask(nan, r)
			ORL(r, flag)
		},
		finish: func(g *foldGen, s reg.Register) {
			storeRet(t, s, Return("m"))
			NEGL(flag) // nonzero → carry
			SETCS(flag.(reg.GPVirtual).As8())
			Store(flag.(reg.GPVirtual).As8(), Return("nan"))
		},
	}).generate()
}

// The exp of expSubSum (Cephes' expf): n = round(v·log2e), r = v - n·ln2
// (in two parts), e^r by a degree-7 polynomial, times 2^n; 0 below expLo.
var (
	expLo    = float32(-87.33654)
	expLog2e = float32(1.44269504088896341)
	expC1    = float32(0.693359375)
	expC2    = float32(-2.12194440e-4)
	expPoly  = []float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}
)

// vconst returns a 32-byte constant holding the float32 c in every lane
// (read as 8 lanes by vector ops, 4 or 1 by the scalar tail).
func vconst(name string, c float32) Mem {
	return vconstBits(name, math.Float32bits(c))
}

func vconstBits(name string, bits uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(bits))
	}
	return m
}

// expSubSum: dst[i] = exp32(x[i] - m), and returns Σ dst[i] folded with
// two accumulators. The constants are memory operands (registers are few).
func expSubSum() {
	t := rf32
	lo, log2e := vconst("redExpLo", expLo), vconst("redExpLog2e", expLog2e)
	c1, c2, one := vconst("redExpC1", expC1), vconst("redExpC2", expC2), vconst("redExpOne", 1)
	bias := vconstBits("redExpBias", 127)
	var poly []Mem
	for k, c := range expPoly {
		poly = append(poly, vconst(fmt.Sprintf("redExpP%d", k), c))
	}
	(&fold{
		name: "expSubSumF32AVX2", sig: "func(dst, x []float32, m float32) float32",
		t: t, unroll: 2, params: []string{"dst", "x"},
		setup: broadcastParams(false, "m"),
		init:  zeroAcc,
		step: func(g *foldGen, acc reg.Register, disp int) {
			v := g.loadX(1, disp)
			VSUBPS(g.width(g.vals["m"]), v, v) // v = x - m
			mask := g.vec()
			VCMPPS(U8(0x1d), lo, v, mask) // GE_OQ: v >= lo (false for NaN)
			n := g.vec()
			VMULPS(log2e, v, n)
			VROUNDPS(U8(0), n, n)  // nearest even
			VFNMADD231PS(c1, n, v) // v -= n·c1 (fused)
			VFNMADD231PS(c2, n, v) // v -= n·c2: r
			p := g.vec()
			VMOVUPS(poly[0], p)
			for k := 1; k < len(poly); k++ {
				VFMADD213PS(poly[k], v, p) // p = p·r + c
			}
			r2 := g.vec()
			VMULPS(v, v, r2)
			VFMADD213PS(v, r2, p) // p = p·r² + r
			VADDPS(one, p, p)
			ni := g.vec()
			VCVTPS2DQ(n, ni)
			VPADDD(bias, ni, ni)
			VPSLLD(U8(23), ni, ni)
			VMULPS(ni, p, p)
			VANDPS(mask, p, p)
			g.storeX(p, 0, disp)
			a := g.width(acc)
			VADDPS(p, a, a)
		},
		merge:  func(g *foldGen, a, b reg.Register) { VADDPS(b, a, a) },
		finish: func(g *foldGen, s reg.Register) { storeRet(t, s, ReturnIndex(0)) },
	}).generate()
}

// expSubSumBlocks512 emits
//
//	func expSubSumBlocksF32AVX512(dst, x []float32, m float32, acc *[2][8]float32)
//
// expSubSumF32Go's main loop at AVX-512: len(dst), a multiple of 16, of
// elements, dst[i] = exp32(x[i] - m), each 16 added into acc as the twin
// adds them into a (a[0] in the ZMM accumulator's lower 8 lanes, a[1] in
// the upper), with expSubSum's instructions lane for lane; the caller ends
// the twin's loop from there. Two blocks a trip, added in order. The
// constants live in registers, broadcast once.
func expSubSumBlocks512() {
	name := "expSubSumBlocksF32AVX512"
	TEXT(name, NOSPLIT, "func(dst, x []float32, m float32, acc *[2][8]float32)")
	Doc(name + " is expSubSumF32Go's loop over blocks of 16 elements; see the generator.")
	Pragma("noescape")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	x := Load(Param("x").Base(), GP64())
	fc := func(v float32) reg.VecVirtual { return broadcastZ(math.Float32bits(v)) }
	mb := ZMM()
	pm, err := Param("m").Resolve()
	if err != nil {
		panic(err)
	}
	VBROADCASTSS(pm.Addr, mb)
	lo, log2e, c1, c2, one, bias := fc(expLo), fc(expLog2e), fc(expC1), fc(expC2), fc(1), broadcastZ(127)
	var poly []reg.VecVirtual
	for _, c := range expPoly {
		poly = append(poly, fc(c))
	}
	acc := ZMM()
	VXORPS(acc, acc, acc)
	block := func(i reg.Register, off int) {
		v := ZMM()
		VMOVUPS(elem(x, i, 4, off), v)
		VSUBPS(mb, v, v) // v = x - m
		k := K()
		VCMPPS(U8(0x1d), lo, v, k) // GE_OQ: v >= lo (false for NaN)
		nn := ZMM()
		VMULPS(log2e, v, nn)
		VRNDSCALEPS(U8(0), nn, nn) // nearest even
		VFNMADD231PS(c1, nn, v)
		VFNMADD231PS(c2, nn, v) // r
		p := ZMM()
		VMOVAPS(poly[0], p)
		for _, c := range poly[1:] {
			VFMADD213PS(c, v, p) // p = p·r + c
		}
		r2 := ZMM()
		VMULPS(v, v, r2)
		VFMADD213PS(v, r2, p) // p = p·r² + r
		VADDPS(one, p, p)
		ni := ZMM()
		VCVTPS2DQ(nn, ni)
		VPADDD(bias, ni, ni)
		VPSLLD(U8(23), ni, ni)
		VMULPS_Z(ni, p, k, p) // 2^n, and +0 where v < lo, as expSubSum's mask
		VMOVUPS(p, elem(dst, i, 4, off))
		VADDPS(p, acc, acc)
	}
	i := GP64()
	XORQ(i, i)
	loop(name+"_pair", n, i, 32, func() {
		block(i, 0)
		block(i, 16)
	})
	loop(name+"_one", n, i, 16, func() { block(i, 0) })
	pa := Load(Param("acc"), GP64())
	VMOVUPS(acc, Mem{Base: pa})
	VZEROUPPER()
	RET()
}

// broadcastZ returns a new ZMM register holding bits in each of its 16
// 32-bit lanes.
func broadcastZ(bits uint32) reg.VecVirtual {
	c := GP32()
	MOVL(U32(bits), c)
	z := ZMM()
	VPBROADCASTD(c, z)
	return z
}

// sumSqDev: Σ (x[i] - m)², each term fused: acc = fma(d, d, acc).
func sumSqDev() {
	t := rf32
	(&fold{
		name: "sumSqDevF32AVX2", sig: "func(x []float32, m float32) float32",
		t: t, unroll: 4, params: []string{"x"},
		setup: broadcastParams(false, "m"),
		init:  zeroAcc,
		step: func(g *foldGen, acc reg.Register, disp int) {
			d := g.loadX(0, disp)
			VSUBPS(g.width(g.vals["m"]), d, d)
			a := g.width(acc)
			VFMADD231PS(d, d, a)
		},
		merge:  func(g *foldGen, a, b reg.Register) { VADDPS(b, a, a) },
		finish: func(g *foldGen, s reg.Register) { storeRet(t, s, ReturnIndex(0)) },
	}).generate()
}

// rf32in64 is float32 elements read into float64 lanes, four to a YMM
// register (exact conversions), so that folds over them have rf64's lanes
// and merges; their parameters scale by 4 (fold.scales).
var rf32in64 = func() redType {
	t := rf64
	t.name, t.gotyp = "F32InF64", "float32"
	t.load = func(m, r Op) { VCVTPS2PD(m, r) }
	t.loadS = func(m, r Op) {
		VXORPS(r, r, r) // VCVTSS2SD keeps r's upper lane: give it one
		VCVTSS2SD(m, r, r)
	}
	return t
}()

// sumF32InF64: Σ float64(x[i]), every add in float64, in sumF64's order.
func sumF32InF64() {
	(&fold{
		name: "sumF32InF64AVX2", sig: "func(x []float32) float64",
		t: rf32in64, unroll: 4, params: []string{"x"}, scales: []uint8{4},
		init: zeroAcc,
		step: func(g *foldGen, acc reg.Register, disp int) {
			x := g.loadX(0, disp)
			VADDPD(x, g.width(acc), g.width(acc))
		},
		merge:  func(g *foldGen, a, b reg.Register) { VADDPD(b, a, a) },
		finish: func(g *foldGen, s reg.Register) { storeRet(rf64, s, ReturnIndex(0)) },
	}).generate()
}

// sumSqDevWide: Σ (x[i] - m)², x[i] read as float64 (rf64 or rf32in64),
// each term fused in float64: acc = fma(d, d, acc).
func sumSqDevWide(t redType) {
	var scales []uint8
	if t.gotyp == "float32" {
		scales = []uint8{4}
	}
	(&fold{
		name: "sumSqDev" + t.name + "AVX2", sig: fmt.Sprintf("func(x []%s, m float64) float64", t.gotyp),
		t: t, unroll: 4, params: []string{"x"}, scales: scales,
		setup: broadcastParams(true, "m"),
		init:  zeroAcc,
		step: func(g *foldGen, acc reg.Register, disp int) {
			d := g.loadX(0, disp)
			VSUBPD(g.width(g.vals["m"]), d, d)
			VFMADD231PD(d, d, g.width(acc))
		},
		merge:  func(g *foldGen, a, b reg.Register) { VADDPD(b, a, a) },
		finish: func(g *foldGen, s reg.Register) { storeRet(rf64, s, ReturnIndex(0)) },
	}).generate()
}

// normAffine: dst[i] = fma((x[i] - mean)·rstd, w[i], b[i]).
func normAffine() {
	t := rf32
	(&fold{
		name: "normAffineF32AVX2", sig: "func(dst, x, w, b []float32, mean, rstd float32)",
		t: t, unroll: 4, params: []string{"dst", "x", "w", "b"},
		setup: broadcastParams(false, "mean", "rstd"),
		noAcc: true,
		step: func(g *foldGen, _ reg.Register, disp int) {
			v := g.loadX(1, disp)
			VSUBPS(g.width(g.vals["mean"]), v, v)
			VMULPS(g.width(g.vals["rstd"]), v, v)
			bb := g.loadX(3, disp)
			VFMADD231PS(g.loadX(2, disp), v, bb) // bb = v·w + b
			g.storeX(bb, 0, disp)
		},
	}).generate()
}

// storeRet stores the scalar in lane 0 of s into a float result with a VEX
// move (avo's Store would emit a legacy SSE one).
func storeRet(t redType, s reg.Register, c gotypes.Component) {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	t.store(s, b.Addr)
}

// accF32F64: dst[i] += float64(x[i]) (exact conversion, one rounding).
func accF32F64() {
	t := rf64
	(&fold{
		name: "accF32F64AVX2", sig: "func(dst []float64, x []float32)",
		t: t, unroll: 4, params: []string{"dst", "x"}, scales: []uint8{8, 4},
		noAcc: true,
		step: func(g *foldGen, _ reg.Register, disp int) {
			v := g.vec()
			if g.scalar {
				x := XMM()
				VMOVSS(g.mem(1, disp), x)
				VCVTSS2SD(x, x, v)
			} else {
				VCVTPS2PD(g.mem(1, disp), v)
			}
			d := g.loadX(0, disp)
			VADDPD(v, d, d)
			g.storeX(d, 0, disp)
		},
	}).generate()
}

// cumAccRows4F32F64 emits
//
//	func cumAccRows4F32F64AVX2(acc []float64, x *float32, xs int, y *float32, ys int)
//
// four steps of cumAccF32F64 in one pass, for i < len(acc) rounded down to
// a multiple of 4: a = acc[i]; then for r < 4, a += float64(x[r·xs+i]),
// y[r·ys+i] = float32(a); acc[i] = a. Each element goes through the same
// two roundings as four calls of cumAccF32F64 give it; the four rows of x
// are read together, four streams where a call reads one, and acc is
// loaded and stored once for the four.
func cumAccRows4F32F64() {
	name := "cumAccRows4F32F64AVX2"
	TEXT(name, NOSPLIT, "func(acc []float64, x *float32, xs int, y *float32, ys int)")
	Doc(name + " is cumAccRows4F32F64Go in assembly; see there for the exact loop.")
	Pragma("noescape")
	acc := Load(Param("acc").Base(), GP64())
	n := Load(Param("acc").Len(), GP64())
	xr, yr := fourRows("x", "xs"), fourRows("y", "ys")
	i := GP64()
	XORQ(i, i)
	// step runs the four steps on the four columns at i+off
	step := func(off int) {
		a := YMM()
		VMOVUPD(Mem{Base: acc, Index: i, Scale: 8, Disp: 8 * off}, a)
		for r := range xr {
			v := YMM()
			VCVTPS2PD(Mem{Base: xr[r], Index: i, Scale: 4, Disp: 4 * off}, v)
			VADDPD(v, a, a)
			f := XMM()
			VCVTPD2PSY(a, f)
			VMOVUPS(f, Mem{Base: yr[r], Index: i, Scale: 4, Disp: 4 * off})
		}
		VMOVUPD(a, Mem{Base: acc, Index: i, Scale: 8, Disp: 8 * off})
	}
	loop(name+"_four", n, i, 16, func() {
		for off := 0; off < 16; off += 4 {
			step(off)
		}
	})
	loop(name+"_one", n, i, 4, func() { step(0) })
	VZEROUPPER()
	RET()
}

// cumAccF32F64: acc[i] += float64(x[i]); y[i] = float32(acc[i]) — one
// step of a float32 scan over an outer dim, accumulated in float64.
func cumAccF32F64() {
	t := rf64
	(&fold{
		name: "cumAccF32F64AVX2", sig: "func(acc []float64, x, y []float32)",
		t: t, unroll: 4, params: []string{"acc", "x", "y"}, scales: []uint8{8, 4, 4}, prefetch: []int{1},
		noAcc: true,
		step: func(g *foldGen, _ reg.Register, disp int) {
			v := g.vec()
			if g.scalar {
				x := XMM()
				VMOVSS(g.mem(1, disp), x)
				VCVTSS2SD(x, x, v)
			} else {
				VCVTPS2PD(g.mem(1, disp), v)
			}
			a := g.loadX(0, disp)
			VADDPD(v, a, a)
			g.storeX(a, 0, disp)
			if g.scalar {
				VCVTSD2SS(a, a, a)
				VMOVSS(a, g.mem(2, disp))
			} else {
				y := XMM()
				VCVTPD2PSY(a, y)
				VMOVUPS(y, g.mem(2, disp))
			}
		},
	}).generate()
}

// maxAccF32: dst[i] = x[i] where x[i] > dst[i] or x[i] is NaN (isMax;
// x[i] < dst[i] for min) — one row of an outer Amax or Amin. VMAXPS(x, d)
// is x > d ? x : d, which keeps a NaN d and takes x on ties; a NaN x is
// blended in by its UNORD mask.
func maxAccF32(isMax bool) {
	name, ins := "maxAccF32AVX2", VMAXPS
	if !isMax {
		name, ins = "minAccF32AVX2", VMINPS
	}
	(&fold{
		name: name, sig: "func(dst, x []float32)",
		t: rf32, unroll: 4, params: []string{"dst", "x"}, prefetch: []int{1},
		noAcc: true,
		step: func(g *foldGen, _ reg.Register, disp int) {
			x := g.loadX(1, disp)
			d := g.loadX(0, disp)
			m := g.vec()
			if g.scalar {
				if isMax {
					VMAXSS(d, x, d)
				} else {
					VMINSS(d, x, d)
				}
				VCMPSS(U8(3), x, x, m)
			} else {
				ins(d, x, d)
				VCMPPS(U8(3), x, x, m)
			}
			VBLENDVPS(m, x, d, d)
			g.storeX(d, 0, disp)
		},
	}).generate()
}
