package main

// This file generates vec's float32 unary primitives (run with -part
// unary: zz_unary_amd64.s and zz_unary_stubs_amd64.go): tanh, sigmoid and
// gelu (erf form); e^x itself is SLEEF's expf in the elem part
// (elemmath.go). Their pure-Go twins, and the algorithms
// (Note [Unary polynomials]), are in vec/unary_go.go. Each kernel is a
// fold without accumulators: it computes every branch of the twin's
// element function on all lanes, blends by the branch condition, and
// finally passes NaN inputs through unchanged. The constants below must equal
// the twins' bit for bit; the exp range reduction is expSubSum's
// (reduce.go).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

var (
	unExpLo  = float32(-104)
	unExpHi  = float32(89)
	tanhT    = float32(0.625)
	geluT    = float32(0.7)
	geluMax  = float32(14.5)
	sqrt2Pi  = float32(2.5066282749176025)
	tanhPoly = []float32{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}
	geluPoly = []float32{1.0313439270248637e-04, -1.181212835945189e-03, 9.972197003662586e-03, -6.649025529623032e-02, 3.989422917366028e-01}
	geluP    = []float32{8.586903102695942e-03, 9.203854203224182e-02, 4.7738802433013916e-01, 1.366503357887268, 2.0000052452087402}
	geluR    = []float32{3.4255816135555506e-03, 3.6723606288433075e-02, 1.9716320931911469e-01, 6.206199526786804e-01, 1.1386985778808594, 1}
	// e^r = 1 + r·(1 + r·P(r)), |r| ≤ ln2/2
	unExpPoly = []float32{1.3814599951729178e-03, 8.368715643882751e-03, 4.166838899254799e-02, 1.666652113199234e-01, 4.999999403953552e-01}
)

// unaryConsts holds the 32-byte constants of the unary kernels.
type unaryConsts struct {
	lo, hi, log2e, c1, c2, one, two, half, mhalf, bias, abs, sign Mem
	tanhT, geluT, geluMax, sqrt2Pi                                Mem
	expPoly, tanhPoly, geluPoly, geluP, geluR                     []Mem
}

func polyConsts(name string, cs []float32) []Mem {
	var m []Mem
	for k, c := range cs {
		m = append(m, vconst(fmt.Sprintf("%s%d", name, k), c))
	}
	return m
}

func newUnaryConsts() *unaryConsts {
	return &unaryConsts{
		lo: vconst("unExpLo", unExpLo), hi: vconst("unExpHi", unExpHi),
		log2e: vconst("unLog2e", expLog2e), c1: vconst("unExpC1", expC1), c2: vconst("unExpC2", expC2),
		one: vconst("unOne", 1), two: vconst("unTwo", 2), half: vconst("unHalf", 0.5), mhalf: vconst("unMHalf", -0.5),
		bias: vconstBits("unBias", 127), abs: vconstBits("unAbs", 0x7fffffff), sign: vconstBits("unSign", 0x80000000),
		tanhT: vconst("unTanhT", tanhT), geluT: vconst("unGeluT", geluT), geluMax: vconst("unGeluMax", geluMax),
		sqrt2Pi:  vconst("unSqrt2Pi", sqrt2Pi),
		expPoly:  polyConsts("unExpP", unExpPoly),
		tanhPoly: polyConsts("unTanhP", tanhPoly),
		geluPoly: polyConsts("unGeluPoly", geluPoly),
		geluP:    polyConsts("unGeluP", geluP),
		geluR:    polyConsts("unGeluR", geluR),
	}
}

// genUnary emits the unary primitives of package vec.
func genUnary() {
	ConstraintExpr("amd64,!purego")
	u := newUnaryConsts()
	// the streaming variants (Note [Non-temporal stores] in vec's
	// stream_amd64.go) after the plain ones
	for _, stream := range []bool{false, true} {
		sfx := "F32AVX2"
		if stream {
			sfx = "F32StreamAVX2"
		}
		unaryFold("tanh"+sfx, u.tanh, true, stream)
		unaryFold("sigmoid"+sfx, u.sigmoid, true, stream)
		unaryFold("gelu"+sfx, u.gelu, true, stream)
	}
}

// unaryFold emits dst[i] = body(x[i]), NaN inputs blended back unchanged
// when nan is set (else body does it). body must leave x unchanged. With
// stream, dst is stored with non-temporal stores.
func unaryFold(name string, body func(g *foldGen, x reg.Register) reg.Register, nan, stream bool) {
	(&fold{
		name: name, sig: "func(dst, x []float32)",
		t: rf32, unroll: 2, params: []string{"dst", "x"},
		noAcc: true, stream: stream,
		step: func(g *foldGen, _ reg.Register, disp int) {
			x := g.loadX(1, disp)
			y := body(g, x)
			if nan {
				m := g.vec()
				VCMPPS(U8(3), x, x, m) // UNORD_Q: x is NaN
				VBLENDVPS(m, x, y, y)
			}
			g.storeX(y, 0, disp)
		},
	}).generate()
}

// horner returns c[0]·v^k + ... + c[k] evaluated with fused steps
// p = p·v + c.
func horner(g *foldGen, c []Mem, v reg.Register) reg.Register {
	p := g.vec()
	VMOVUPS(c[0], p)
	for _, ck := range c[1:] {
		VFMADD213PS(ck, v, p) // p = v·p + c
	}
	return p
}

// expReduce turns v into r = v − n·ln2 and returns n = round(v·log2e)
// (expReduce in unary_go.go).
func (u *unaryConsts) expReduce(g *foldGen, v reg.Register) (n, r reg.Register) {
	n = g.vec()
	VMULPS(u.log2e, v, n)
	VROUNDPS(U8(0), n, n)    // nearest even
	VFNMADD231PS(u.c1, n, v) // v -= n·c1 (fused)
	VFNMADD231PS(u.c2, n, v) // v -= n·c2
	return n, v
}

// expScale returns e^r·2^n, 2^n applied in two halves (expScale).
func (u *unaryConsts) expScale(g *foldGen, n, r reg.Register) reg.Register {
	p := horner(g, u.expPoly, r)
	VFMADD213PS(u.one, r, p) // p = p·r + 1
	VFMADD213PS(u.one, r, p) // p = p·r + 1
	return u.scale(g, n, p)
}

// scale returns p·2^n, 2^n applied in two halves: p·2^(n>>1) exactly,
// then one rounding for the rest. p is overwritten.
func (u *unaryConsts) scale(g *foldGen, n, p reg.Register) reg.Register {
	k := g.vec()
	VCVTPS2DQ(n, k)
	h := g.vec()
	VPSRAD(U8(1), k, h) // h = k>>1
	VPSUBD(h, k, k)     // k -= h
	// p·2^h is normal (p in [0.7, 1.5], |h| ≤ 127): add h to p's exponent
	VPSLLD(U8(23), h, h)
	VPADDD(h, p, p)
	VPADDD(u.bias, k, k)
	VPSLLD(U8(23), k, k)
	VMULPS(k, p, p)
	return p
}

// expOf returns e^v, v clamped to the exp range; v is overwritten.
func (u *unaryConsts) expOf(g *foldGen, v reg.Register) reg.Register {
	n, r := u.expReduce(g, v)
	return u.expScale(g, n, r)
}

// sigmoid: sigmoidElem. With e = e^-|x|: e/(1+e) where x's sign bit is
// set, 1/(1+e) elsewhere.
func (u *unaryConsts) sigmoid(g *foldGen, x reg.Register) reg.Register {
	v := g.vec()
	VORPS(u.sign, x, v) // -|x|
	VMAXPS(u.lo, v, v)
	e := u.expOf(g, v)
	den := g.vec()
	VADDPS(u.one, e, den)
	num := g.vec()
	VMOVUPS(u.one, num)
	VBLENDVPS(x, e, num, num)
	VDIVPS(den, num, num)
	return num
}

// tanh: tanhElem.
func (u *unaryConsts) tanh(g *foldGen, x reg.Register) reg.Register {
	a := g.vec()
	VANDPS(u.abs, x, a)
	// |x| < tanhT: a + a³·P(a²)
	z := g.vec()
	VMULPS(a, a, z)
	p := horner(g, u.tanhPoly, z)
	VMULPS(a, z, z)
	VFMADD213PS(a, z, p) // p = p·a³ + a
	// otherwise 1 − 2/(e^{2a}+1)
	v := g.vec()
	VADDPS(a, a, v)
	VMINPS(u.hi, v, v)
	e := u.expOf(g, v)
	VADDPS(u.one, e, e)
	q := g.vec()
	VMOVUPS(u.two, q)
	VDIVPS(e, q, q)
	y := g.vec()
	VMOVUPS(u.one, y)
	VSUBPS(q, y, y)
	m := g.vec()
	VCMPPS(U8(1), u.tanhT, a, m) // LT_OS: a < tanhT
	VBLENDVPS(m, p, y, y)
	s := g.vec()
	VANDPS(u.sign, x, s)
	VORPS(s, y, y)
	return y
}

// gelu: geluElem.
func (u *unaryConsts) gelu(g *foldGen, x reg.Register) reg.Register {
	// |x| < geluT: x·(0.5 + x·P(x²))
	z := g.vec()
	VMULPS(x, x, z)
	small := horner(g, u.geluPoly, z)
	VFMADD213PS(u.half, x, small) // 0.5 + x·P
	VMULPS(x, small, small)
	// otherwise, a = min(|x|, geluMax): e^{-a²/2} and D(a)
	a := g.vec()
	VANDPS(u.abs, x, a)
	m := g.vec()
	VCMPPS(U8(1), u.geluT, a, m) // LT_OS: |x| < geluT
	VMINPS(u.geluMax, a, a)
	h := g.vec()
	VMULPS(a, a, h)
	l := g.vec()
	VMOVAPS(h, l)
	VFMSUB231PS(a, a, l) // l = a·a − h, exactly
	VMULPS(u.mhalf, h, h)
	n, r := u.expReduce(g, h)
	VFMADD231PS(u.mhalf, l, r) // r += -l/2
	e := u.expScale(g, n, r)
	p := horner(g, u.geluP, a)
	q := horner(g, u.geluR, a)
	VDIVPS(q, p, p)
	VFMADD231PS(u.sqrt2Pi, a, p) // D = √(2π)·a + P/R
	t := g.vec()
	VMINPS(u.geluMax, x, t)
	VDIVPS(p, t, t)
	neg := g.vec()
	VMULPS(t, e, neg) // e·t (x < 0)
	pos := g.vec()
	VMOVAPS(x, pos)
	VFNMADD231PS(t, e, pos) // x − e·t (x ≥ 0)
	VBLENDVPS(x, neg, pos, pos)
	VBLENDVPS(m, small, pos, pos)
	return pos
}
