package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// welfordChunkBF16 emits welfordChunkBF16AVX2, elem.WelfordChunkBF16 in
// assembly: the 16 lanes' means and squared deviations in two YMM
// registers each (lanes 0-7 and 8-15), one Welford step per vector of x,
// every operation's result rounded to bfloat16 as dtype.BF16FromFloat32
// rounds (roundBF16). The steps run lane by lane in elem's order, so the
// bits are the Go function's.
func welfordChunkBF16() {
	name := wide{}.begin("welfordChunkBF16", "func(m *[2][16]float32, x []float32, coef *[16]float32)", "elem.WelfordChunkBF16")
	m := Load(Param("m"), GP64())
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	coef := Load(Param("coef"), GP64())
	SHRQ(U8(4), n) // whole vectors of 16
	r := newBF16Rounder()
	var m1, m2 [2]reg.VecVirtual
	for p := range m1 {
		m1[p], m2[p] = YMM(), YMM()
		VMOVUPS(Mem{Base: m, Disp: 32 * p}, m1[p])
		VMOVUPS(Mem{Base: m, Disp: 64 + 32*p}, m2[p])
	}
	j := GP64()
	XORQ(j, j)
	tail(name+"_vector", n, j, func() {
		c := YMM()
		VBROADCASTSS(Mem{Base: coef, Index: j, Scale: 4}, c)
		for p := range m1 {
			v, d, t := YMM(), YMM(), YMM()
			VMOVUPS(Mem{Base: x, Disp: 32 * p}, v)
			VSUBPS(m1[p], v, d) // d = v − mean
			r.round(d)
			VMULPS(c, d, t)
			r.round(t)
			VADDPS(t, m1[p], m1[p]) // mean += d·c
			r.round(m1[p])
			VSUBPS(m1[p], v, t) // v − mean
			r.round(t)
			VMULPS(d, t, t)
			r.round(t)
			VADDPS(t, m2[p], m2[p]) // m2 += d·(v − mean)
			r.round(m2[p])
		}
		ADDQ(U8(64), x)
	})
	for p := range m1 {
		VMOVUPS(m1[p], Mem{Base: m, Disp: 32 * p})
		VMOVUPS(m2[p], Mem{Base: m, Disp: 64 + 32*p})
	}
	VZEROUPPER()
	RET()
}

// mergeLanesBF16 emits mergeLanesBF16AVX2, elem.MergeLanesBF16 in
// assembly: AddMoments on 16 lanes in two YMM registers each, every
// operation's result rounded to bfloat16 (roundBF16), in elem's order.
func mergeLanesBF16() {
	wide{}.begin("mergeLanesBF16", "func(w, m *[2][16]float32, c, wn float32)", "elem.MergeLanesBF16")
	w := Load(Param("w"), GP64())
	m := Load(Param("m"), GP64())
	c, wn := YMM(), YMM()
	for _, b := range []struct {
		name string
		r    reg.VecVirtual
	}{{"c", c}, {"wn", wn}} {
		a, err := Param(b.name).Resolve()
		if err != nil {
			panic(err)
		}
		VBROADCASTSS(a.Addr, b.r)
	}
	r := newBF16Rounder()
	for p := 0; p < 2; p++ {
		wm1, wm2, delta, t := YMM(), YMM(), YMM(), YMM()
		VMOVUPS(Mem{Base: w, Disp: 32 * p}, wm1)
		VMOVUPS(Mem{Base: w, Disp: 64 + 32*p}, wm2)
		VMOVUPS(Mem{Base: m, Disp: 32 * p}, delta)
		VSUBPS(wm1, delta, delta) // delta = m1 − w's mean
		r.round(delta)
		VMULPS(delta, c, t)
		r.round(t)
		VADDPS(t, wm1, wm1) // mean += c·delta
		r.round(wm1)
		VMULPS(delta, delta, t)
		r.round(t)
		VMULPS(c, t, t)
		r.round(t)
		VMULPS(wn, t, t)
		r.round(t)
		VADDPS(Mem{Base: m, Disp: 64 + 32*p}, t, t) // m2 + delta²·c·wn
		r.round(t)
		VADDPS(t, wm2, wm2)
		r.round(wm2)
		VMOVUPS(wm1, Mem{Base: w, Disp: 32 * p})
		VMOVUPS(wm2, Mem{Base: w, Disp: 64 + 32*p})
	}
	VZEROUPPER()
	RET()
}

// bf16Rounder holds the constants of roundBF16.
type bf16Rounder struct{ one, half, hi, quiet reg.VecVirtual }

func newBF16Rounder() bf16Rounder {
	return bf16Rounder{one: bcast32(1), half: bcast32(0x7fff), hi: bcast32(0xffff0000), quiet: bcast32(0x00400000)}
}

// round rounds the float32 lanes of v to bfloat16 in place, as
// dtype.BF16FromFloat32: bits + 0x7fff + bit 16, the low half cleared
// (ties to even, overflow to ±Inf); a NaN keeps its high half with the
// quiet bit set.
func (b bf16Rounder) round(v reg.VecVirtual) {
	t, nan, q := YMM(), YMM(), YMM()
	VPSRLD(U8(16), v, t)
	VPAND(b.one, t, t)
	VPADDD(b.half, t, t)
	VPADDD(v, t, t)
	VPAND(b.hi, t, t)
	VCMPPS(U8(3), v, v, nan) // unordered: v is NaN
	VPAND(b.hi, v, q)
	VPOR(b.quiet, q, q)
	VBLENDVPS(nan, q, t, v)
}
