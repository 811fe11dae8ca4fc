package vec

import "math"

// Note [Float64 gelu]
// GeluF64 and GeluTanhF64 (asm/elemgelu64.go) avoid the cancellation of
// PyTorch's ½·x·(1 + erf(x/√2)) and ½·x·(1 + tanh u) where x is very
// negative, where both formulas lose every digit (PyTorch's own results
// there are off by up to their whole magnitude; the conformance cases
// compare them with an absolute tolerance that both forms meet).
//
//   - gelu is ½·x·erfc(z), z = −x/√2. erfc's relative slope at z is about
//     2z, so one rounding of z (0.5 ulp) would cost z² ulps, 700 at
//     x = −37: z is held as zh + zl (the product's error by FMA, 1/√2 in
//     two parts). For |zh| < 1.25 erfc(zh + zl) = erfc(zh) −
//     zl·(2/√π)·e^(−zh²) to first order, the factor from a short series
//     (2% is plenty: the term is a few ulps); above, zl enters the
//     exponential of erfc's third range (erf64PartsAt), where erfc(a + d) =
//     e^(−a²)/a·e^(R/S)·e^(−d·a·(2 + 1/a²)).
//   - gelu-tanh is x·σ(2u) = x/(1 + e) for x ≥ 0 and x·e/(1 + e) below,
//     e = e^(−2|u|), u = √(2/π)·(x + 0.044715·x³) with PyTorch's float64
//     constants. The relative slope in u is 2|u| (up to 1500 ulps per ulp
//     of u before the result underflows), so u is formed in double-double
//     and e = e^(mh)·(1 + ml).
//
// Both are within 4 ulp of the correctly rounded value of the formula at
// x (TestGeluMP); subnormal gelu results are within 2^-1070 (erfc itself
// is subnormal there). −Inf gives NaN, as PyTorch's formulas (−Inf·0).

const (
	rsqrt2Hi   = 0.7071067811865476 // 1/√2 = rsqrt2Hi + rsqrt2Lo
	rsqrt2Lo   = -4.833646656726457e-17
	twoOSqrtPi = 1.1283791670955126 // 2/√π
	gelu64Max  = 40
	geluT64Max = 30
)

// erfcSlopePoly is asm/elemgelu64.go's (2/√π)·e^(−t), degree 6.
var erfcSlopePoly = expNegSeries(6, twoOSqrtPi)

// expNegSeries returns s·(−1)^n/n!, ..., −s, s.
func expNegSeries(n int, s float64) []float64 {
	c := make([]float64, n+1)
	t := s
	for k := 0; k <= n; k++ {
		c[n-k] = t
		t *= -1 / float64(k+1)
	}
	return c
}

func geluF64(x float64) float64 {
	if x != x {
		return x
	}
	xc := minX(maxX(x, -gelu64Max), gelu64Max)
	zh := xc * -rsqrt2Hi
	zl := math.FMA(xc, -rsqrt2Lo, math.FMA(xc, -rsqrt2Hi, -zh))
	g := horner64(float64(zh*zh), erfcSlopePoly...)
	corr := zl * g
	da := math.Float64frombits(math.Float64bits(zl) ^ math.Float64bits(zh)&sign64)
	y, q, n, inA, inB := erf64Terms(zh, da)
	r := erfc64From(zh, y, scale64(q, n), inA, inB)
	if math.Abs(zh) < erfB {
		r -= corr
	}
	r = float64(r*0.5) * x
	if zh >= erfB {
		r = scale64(float64(q*0.5)*xc, n)
	}
	if x == math.Inf(-1) {
		r = math.NaN()
	}
	return r
}

func geluTanhF64(x float64) float64 {
	if x != x {
		return x
	}
	xc := minX(maxX(x, -geluT64Max), geluT64Max)
	ph := xc * xc
	pl := math.FMA(xc, xc, -ph)
	qh := ph * xc
	ql := math.FMA(pl, xc, math.FMA(ph, xc, -qh))
	rh := qh * geluC
	rl := math.FMA(ql, geluC, math.FMA(qh, geluC, -rh))
	vh, vl := twoSum64(xc, rh)
	vl += rl
	uh := vh * geluK
	ul := math.FMA(vl, geluK, math.FMA(vh, geluK, -uh))
	mh := math.Float64frombits(math.Float64bits(uh+uh) | sign64)
	ml := math.Float64frombits(math.Float64bits(ul+ul) ^ (math.Float64bits(uh)&sign64 ^ sign64))
	e := exp64Of(mh)
	e = math.FMA(e, ml, e)
	num := x
	if x < 0 {
		num = x * e
	}
	return num / (e + 1)
}

// twoSum64 returns s = a + b rounded and its error t (Knuth's).
func twoSum64(a, b float64) (s, t float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}
