package main

// erf and erfc of float64: fdlibm's rational approximations (Go's
// math.Erf and math.Erfc) with their branches turned into selects. Twins:
// vec's elem_erf64_go.go (Note [Float64 erf] there).

import (
	"github.com/mmcloughlin/avo/reg"
)

// fdlibm's coefficients, highest degree first (monic denominators carry
// their leading 1 last).
var (
	erfPP = []float64{-2.37630166566501626084e-05, -5.77027029648944159157e-03, -2.84817495755985104766e-02, -3.25042107247001499370e-01, 1.28379167095512558561e-01}
	erfQQ = []float64{-3.96022827877536812320e-06, 1.32494738004321644526e-04, 5.08130628187576562776e-03, 6.50222499887672944485e-02, 3.97917223959155352819e-01, 1}
	erfPA = []float64{-2.16637559486879084300e-03, 3.54783043256182359371e-02, -1.10894694282396677476e-01, 3.18346619901161753674e-01, -3.72207876035701323847e-01, 4.14856118683748331666e-01, -2.36211856075265944077e-03}
	erfQA = []float64{1.19844998467991074170e-02, 1.36370839120290507362e-02, 1.26171219808761642112e-01, 7.18286544141962662868e-02, 5.40397917702171048937e-01, 1.06420880400844228286e-01, 1}
	erfRA = []float64{-9.81432934416914548592e+00, -8.12874355063065934246e+01, -1.84605092906711035994e+02, -1.62396669462573470355e+02, -6.23753324503260060396e+01, -1.05586262253232909814e+01, -6.93858572707181764372e-01, -9.86494403484714822705e-03}
	erfSA = []float64{-6.04244152148580987438e-02, 6.57024977031928170135e+00, 1.08635005541779435134e+02, 4.29008140027567833386e+02, 6.45387271733267880336e+02, 4.34565877475229228821e+02, 1.37657754143519042600e+02, 1.96512716674392571292e+01, 1}
	erfRB = []float64{-4.83519191608651397019e+02, -1.02509513161107724954e+03, -6.37566443368389627722e+02, -1.60636384855821916062e+02, -1.77579549177547519889e+01, -7.99283237680523006574e-01, -9.86494292470009928597e-03}
	erfSB = []float64{-2.24409524465858183362e+01, 4.74528541206955367215e+02, 2.55305040643316442583e+03, 3.19985821950859553908e+03, 1.53672958608443695994e+03, 3.25792512996573918826e+02, 3.03380607434824582924e+01, 1}
)

const (
	erx     = 8.45062911510467529297e-01 // erf(1) to float32's precision
	erfA    = 0.84375                    // the first branch's bound
	erfB    = 1.25                       // the second's
	erfC    = 1 / 0.35                   // ra/sa below, rb/sb above
	erfCMax = 28                         // erfc rounds to 0 beyond
)

// erf64Parts returns the operand's pieces for the three branches of
// fdlibm's erf: y, the one rational the lane's branch needs (P/Q of x²,
// of |x| − 1 or of 1/x², one division for all), and c = e^(−x²)·e^(R/S)/|x|
// for the third branch, as p1·p2/a·2^(n1+n2) with one rounding at the end
// (so subnormal erfc rounds once), |x| clamped to [1.25, 28] there.
func (e *em) erf64Parts(x reg.Register) (y, c reg.Register) { return e.erf64PartsAt(x, nil) }

// erf64PartsAt is erf64Parts with c at |x| + da rather than |x| (da nil: 0),
// for an operand held as |x| + da with da far below |x|'s ulp (gelu's
// x/√2): e^(−(a+da)²)/(a+da) = e^(−a²)/a·e^(−da·a·(2 + 1/a²)) to first order,
// the extra exponent folded into the second exponential's argument.
func (e *em) erf64PartsAt(x, da reg.Register) (y, c reg.Register) {
	y, q, k := e.erf64Terms(x, da)
	return y, e.Scale(q, k)
}

// erf64Terms is erf64PartsAt with c = q·2^n unscaled (q normal), for a
// caller that multiplies c before its one rounding to a subnormal.
func (e *em) erf64Terms(x, da reg.Register) (y, q, k reg.Register) {
	// each compare next to its blend: AVX2's masks are vector registers,
	// and the rationals need most of its sixteen
	a := e.Abs(x)
	ac := e.MinX(e.MaxX(a, e.C(erfB)), e.C(erfCMax))
	w := e.Div(e.C(1), e.Mul(ac, ac))
	n := e.Blend(e.Cmp(cmpLT, a, e.C(erfC)), e.Horner(w, erfRB...), e.Horner(w, erfRA...))
	d := e.Blend(e.Cmp(cmpLT, a, e.C(erfC)), e.Horner(w, erfSB...), e.Horner(w, erfSA...))
	s := e.Sub(a, e.C(1))
	n = e.Blend(e.Cmp(cmpLT, a, e.C(erfB)), n, e.Horner(s, erfPA...))
	d = e.Blend(e.Cmp(cmpLT, a, e.C(erfB)), d, e.Horner(s, erfQA...))
	z := e.Mul(a, a)
	n = e.Blend(e.Cmp(cmpLT, a, e.C(erfA)), n, e.Horner(z, erfPP...))
	d = e.Blend(e.Cmp(cmpLT, a, e.C(erfA)), d, e.Horner(z, erfQQ...))
	y = e.Div(n, d)
	// e^(−zz² − 0.5625)·e^((zz − a)(zz + a) + R/S), zz = a's high 21
	// bits (zz² exact)
	zz := e.And(ac, e.CB(0xffffffff00000000))
	p1, n1 := e.expParts(e.FNMA(zz, zz, e.C(-0.5625)), -760)
	yd := y
	if da != nil {
		yd = e.FNMA(e.Mul(da, ac), e.Add(w, e.C(2)), y)
	}
	p2, n2 := e.expParts(e.FMA(e.Sub(zz, ac), e.Add(zz, ac), yd), -760)
	return y, e.Div(e.Mul(p1, p2), ac), e.Add(n1, n2)
}

func erf64Body(e *em, in []reg.Register) val {
	x := in[0]
	y, c := e.erf64Parts(x)
	r := e.withSign(e.Sub(e.C(1), c), x)
	r = e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfB)), r, e.withSign(e.Add(e.C(erx), y), x))
	r = e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfA)), r, e.FMA(x, y, x))
	return vv(e.nanPass(x, r))
}

func erfc64Body(e *em, in []reg.Register) val {
	x := in[0]
	return vv(e.nanPass(x, e.erfc64Of(x, nil)))
}

// erfc64Of is erfc x, its third range at |x| + da (erf64PartsAt).
func (e *em) erfc64Of(x, da reg.Register) reg.Register {
	y, c := e.erf64PartsAt(x, da)
	return e.erfc64From(x, y, c)
}

// erfc64From is erfc x from erf64Parts' y and c.
func (e *em) erfc64From(x, y, c reg.Register) reg.Register {
	// fdlibm's 1 − (x + x·y) below ¼, ½ − (x·y + (x − ½)) above: k
	// = 0 or ½ in (1 − k) − (x·y + (x − k))
	k := e.Blend(e.Cmp(cmpLT, x, e.C(0.25)), e.C(0.5), e.C(0))
	ra := e.Sub(e.Sub(e.C(1), k), e.FMA(x, y, e.Sub(x, k)))
	rb := e.Sub(e.C(1-erx), y)
	rb = e.Blend(e.Cmp(cmpLT, x, e.C(0)), rb, e.Add(e.C(1), e.Add(e.C(erx), y)))
	r := e.Blend(e.Cmp(cmpLT, x, e.C(0)), c, e.Sub(e.C(2), c))
	r = e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfB)), r, rb)
	return e.Blend(e.Cmp(cmpLT, e.Abs(x), e.C(erfA)), r, ra)
}

func erf64Ops() {
	f64 := []*etype{eF64}
	(&efunc{stem: "Erf", kind: kUnary, types: f64, expr: "erf %s", unroll: 1, body: erf64Body,
		note: "fdlibm's branches as selects, within 2 ulp, a NaN comes back unchanged"}).add()
	(&efunc{stem: "Erfc", kind: kUnary, types: f64, expr: "erfc %s", unroll: 1, body: erfc64Body,
		note: "fdlibm's branches as selects, within 3 ulp, a NaN comes back unchanged"}).add()
}
