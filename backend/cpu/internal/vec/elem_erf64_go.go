package vec

import "math"

// Note [Float64 erf]
// ErfF64 and ErfcF64 (asm/elemerf64.go) are fdlibm's erf and erfc (Go's
// math.Erf and math.Erfc) with the branches turned into selects: every
// lane evaluates the rationals of all three ranges (|x| < 0.84375: P/Q of
// x²; below 1.25: of |x| − 1; below 28: of 1/x², ra/sa or rb/sb split at
// 1/0.35) but divides once, the lane's own numerator by its own
// denominator. The third range's e^(−x²)·e^(R/S)/|x| keeps fdlibm's exact
// split of x² (x's high 21 bits squared exactly) and multiplies the two
// exponentials' mantissas before applying the sum of their exponents, so a
// subnormal erfc rounds once; the FMAs round fdlibm's products once
// instead of twice. ±Inf and |x| ≥ 28 fall out of the third range (erfc 0
// or 2, erf ±1); a NaN comes back unchanged.

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
	erx     = 8.45062911510467529297e-01
	erfA    = 0.84375
	erfB    = 1.25
	erfC    = 1 / 0.35
	erfCMax = 28
)

// erf64Parts is asm/elemerf64.go's: the lane's rational y, the third
// range's c, and whether |x| is in the first or the first two ranges.
func erf64Parts(x float64) (y, c float64, inA, inB bool) { return erf64PartsAt(x, 0) }

// erf64PartsAt is erf64Parts with c at |x| + da (asm/elemerf64.go's; da
// 0 leaves every bit as erf64Parts', −0·w added to y).
func erf64PartsAt(x, da float64) (y, c float64, inA, inB bool) {
	y, q, k, inA, inB := erf64Terms(x, da)
	return y, scale64(q, k), inA, inB
}

// erf64Terms is erf64PartsAt with c = q·2^n unscaled (asm/elemerf64.go's).
func erf64Terms(x, da float64) (y, q, k float64, inA, inB bool) {
	a := math.Abs(x)
	z := a * a
	s := a - 1
	ac := minX(maxX(a, erfB), erfCMax)
	w := 1 / (ac * ac)
	inA, inB = a < erfA, a < erfB
	n, d := horner64(w, erfRB...), horner64(w, erfSB...)
	if a < erfC {
		n, d = horner64(w, erfRA...), horner64(w, erfSA...)
	}
	if inB {
		n, d = horner64(s, erfPA...), horner64(s, erfQA...)
	}
	if inA {
		n, d = horner64(z, erfPP...), horner64(z, erfQQ...)
	}
	y = n / d
	zz := math.Float64frombits(math.Float64bits(ac) & 0xffffffff00000000)
	p1, n1 := exp64Parts(math.FMA(-zz, zz, -0.5625), -760)
	yd := math.FMA(-float64(da*ac), w+2, y)
	p2, n2 := exp64Parts(math.FMA(zz-ac, zz+ac, yd), -760)
	return y, float64(p1*p2) / ac, n1 + n2, inA, inB
}

func erfF64(x float64) float64 {
	if x != x {
		return x
	}
	y, c, inA, inB := erf64Parts(x)
	switch {
	case inA:
		return math.FMA(x, y, x)
	case inB:
		return withSign64(erx+y, x)
	}
	return withSign64(1-c, x)
}

func erfcF64(x float64) float64 {
	if x != x {
		return x
	}
	return erfc64Of(x, 0)
}

// erfc64Of is erfc x, its third range at |x| + da (erf64PartsAt).
func erfc64Of(x, da float64) float64 {
	y, c, inA, inB := erf64PartsAt(x, da)
	return erfc64From(x, y, c, inA, inB)
}

// erfc64From is erfc x from erf64Parts' results.
func erfc64From(x, y, c float64, inA, inB bool) float64 {
	switch {
	case inA && x < 0.25:
		return 1 - math.FMA(x, y, x)
	case inA:
		return 0.5 - math.FMA(x, y, x-0.5)
	case inB && x < 0:
		return 1 + (erx + y)
	case inB:
		return (1 - erx) - y
	case x < 0:
		return 2 - c
	}
	return c
}
