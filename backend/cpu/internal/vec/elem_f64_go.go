package vec

import (
	"math"

	optelem "github.com/goten-ml/goten/optable/elem"
)

// Note [Float64 functions]
// The float64 kernels of asm/elemf64.go, each line here one instruction
// there. float32's versions of these functions compute in float64 with
// bits to spare (Note [Inverse and hyperbolic functions]); these have
// none, so they follow Cephes and fdlibm (the algorithms of Go's math
// package), with the branches of those libraries turned into selects:
//
//   - sin, cos, tan: j = round(x·2/π), r = x − j·π/2 with π/2 in three
//     parts, fused; the first step is exact (j·pio2Hi and x are multiples
//     of 2^-52 or finer, and |r| < 2), so r is accurate to its last bit for
//     |x| ≤ 2^20. Cephes' sin, cos (polynomials) and tan (rational) on
//     |r| ≤ π/4, chosen and signed by j mod 4.
//   - atan: Cephes' reduction (a > tan(3π/8): π/2 + atan(−1/a); a > 0.66:
//     π/4 + atan((a−1)/(a+1))) and rational, each with its share of π/2's
//     low part; asin a = atan(a/√(1−a²)) and acos x = atan(√(1−x²)/|x|)
//     (π minus it for x < 0), 1 − a² rounded once by an FMA, so neither
//     cancels near 1.
//   - sinh: fdlibm's (2t − t²/(t+1))/2 below 1, (t + t/(t+1))/2 below
//     22, t = expm1|x|; cosh: e/2 + 1/(2e)
//     there; beyond, both are e^|x|/2 = p·2^(n−1) from exp's reduction
//     (finite up to 710.47, where e^|x| itself already overflows); both
//     +Inf (sinh with x's sign) for |x| > ln(max float64), as PyTorch's
//     SLEEF kernels (Note [SLEEF's sinh and cosh] in optable/elem).
//   - asinh: fdlibm's log1p(a + a²/(1 + √(1+a²))), acosh: log1p(t +
//     √(t²+2t)), t = x − 1, both log(a) + ln2 from 2^28; atanh: fdlibm's
//     log1p(2a + 2a·a/(1−a))/2 below ½, log1p(2a/(1−a))/2 above. log and
//     log1p are LogF64's and Log1pF64's.
//   - logit: log(x/(1−x)), the quotient rounded once as optable/elem's
//     Logit has it, the log LogF64's.
//
// Operands outside each stated domain (NaN, ±Inf, |x| > 2^20 for the
// trigonometric functions, |x| > 1 for asin and acos, x < 1 for acosh,
// |x| ≥ 1 for atanh, x outside [2^-1022, 1) for logit) take the slow path: Go's
// math function. atan has none: ±Inf reduce to ±π/2 and a NaN passes.

var (
	sin64Poly = []float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	cos64Poly = []float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
	tan64P  = []float64{-1.30936939181383777646e4, 1.15351664838587416140e6, -1.79565251976484877988e7}
	tan64Q  = []float64{1, 1.36812963470692954678e4, -1.32089234440210967447e6, 2.50083801823357915839e7, -5.38695755929454629881e7}
	atan64P = []float64{-8.750608600031904122785e-01, -1.615753718733365076637e+01, -7.500855792314704667340e+01,
		-1.228866684490136173410e+02, -6.485021904942025371773e+01}
	atan64Q = []float64{1, 2.485846490142306297962e+01, 1.650270098316988542046e+02, 4.328810604912902668951e+02,
		4.853903996359136964868e+02, 1.945506571482613964425e+02}
)

const (
	pio2Lo2   = -1.4973849048591698e-33
	trig64Max = 0x1p20
	piHi      = 3.141592653589793
	piLo      = 1.2246467991473532e-16
	atanMore  = 6.123233995736765886130e-17
	hyp64Big  = 22.0
	inv64Big  = 0x1p28
)

// ---------------------------------------------------------------------------
// Trigonometry

func trigSlow64(x float64) bool { return !(math.Abs(x) <= trig64Max) }

func sinF64Slow(x float64) bool { return trigSlow64(x) }
func cosF64Slow(x float64) bool { return trigSlow64(x) }
func tanF64Slow(x float64) bool { return trigSlow64(x) }

func reducePiO2F64(x float64) (j, r float64) {
	j = math.RoundToEven(x * twoOPi)
	r = math.FMA(-j, pio2Hi, x)
	r = math.FMA(-j, pio2Lo, r)
	return j, math.FMA(-j, pio2Lo2, r)
}

// sincos64 is sin x (cos x with cos) for |x| ≤ 2^20.
func sincos64(x float64, cos bool) float64 {
	j, r := reducePiO2F64(x)
	return sincosOn(x, j, r, sin64Poly, cos64Poly, cos)
}

func sinF64(x float64) float64 {
	if trigSlow64(x) {
		return math.Sin(x)
	}
	return sincos64(x, false)
}

func cosF64(x float64) float64 {
	if trigSlow64(x) {
		return math.Cos(x)
	}
	return sincos64(x, true)
}

func tanF64(x float64) float64 {
	if trigSlow64(x) {
		return math.Tan(x)
	}
	j, r := reducePiO2F64(x)
	z := r * r
	pq := horner64(z, tan64P...) / horner64(z, tan64Q...)
	t := math.FMA(r*z, pq, r)
	if int64(j)&1 != 0 {
		t = -1 / t
	}
	if x == 0 {
		t = x
	}
	return t
}

// ---------------------------------------------------------------------------
// Inverse trigonometry

// atan64Cephes is atan a for a ≥ 0 (+Inf included).
func atan64Cephes(a float64) float64 {
	big, mid := a > tan3Pio8, a > 0.66
	num, den, y0, mb := a, 1.0, 0.0, 0.0
	if mid {
		num, den, y0, mb = a-1, a+1, math.Pi/4, 0.5*atanMore
	}
	if big {
		num, den, y0, mb = -1, a, math.Pi/2, atanMore
	}
	t := num / den
	z := t * t
	pq := horner64(z, atan64P...) / horner64(z, atan64Q...)
	r := math.FMA(t*z, pq, t)
	return y0 + (r + mb)
}

func atanF64(x float64) float64 {
	if x != x {
		return x
	}
	return withSign64(atan64Cephes(math.Abs(x)), x)
}

func asinF64Slow(x float64) bool { return !(math.Abs(x) <= 1) }
func acosF64Slow(x float64) bool { return !(math.Abs(x) <= 1) }

func asinF64(x float64) float64 {
	if asinF64Slow(x) {
		return math.Asin(x)
	}
	a := math.Abs(x)
	d := math.Sqrt(math.FMA(-a, a, 1))
	return withSign64(atan64Cephes(a/d), x)
}

func acosF64(x float64) float64 {
	if acosF64Slow(x) {
		return math.Acos(x)
	}
	a := math.Abs(x)
	d := math.Sqrt(math.FMA(-a, a, 1))
	u := atan64Cephes(d / a)
	if x < 0 {
		return float64(piHi-u) + piLo
	}
	return u
}

// ---------------------------------------------------------------------------
// Hyperbolic functions

// halfExpBig64 is e^a/2 for a ≥ 0 (a capped at 712).
func halfExpBig64(a float64) float64 {
	n, r := expReduce64(minX(a, 712))
	return scale64(horner64(r, exp64Poly...), n-1)
}

func finiteSlow64(x float64) bool { return !(math.Abs(x) <= math.MaxFloat64) }

func sinhF64Slow(x float64) bool  { return finiteSlow64(x) }
func coshF64Slow(x float64) bool  { return finiteSlow64(x) }
func asinhF64Slow(x float64) bool { return finiteSlow64(x) }
func acoshF64Slow(x float64) bool { return !(x >= 1 && x <= math.MaxFloat64) }
func atanhF64Slow(x float64) bool { return !(math.Abs(x) <= math.Nextafter(1, 0)) }

func sinhF64(x float64) float64 {
	if sinhF64Slow(x) {
		return math.Sinh(x)
	}
	a := math.Abs(x)
	t := expm164Of(minX(a, hyp64Big))
	t1 := t + 1
	y := (t + t/t1) * 0.5
	if a < 1 {
		y = (float64(t+t) - float64(t*t)/t1) * 0.5
	}
	if !(a < hyp64Big) {
		y = halfExpBig64(a)
	}
	return withSign64(sleefOverflow(y, x, optelem.LnMaxF64), x)
}

func coshF64(x float64) float64 {
	if coshF64Slow(x) {
		return math.Cosh(x)
	}
	a := math.Abs(x)
	e := exp64Of(minX(a, hyp64Big))
	y := math.FMA(e, 0.5, 0.5/e)
	if !(a < hyp64Big) {
		y = halfExpBig64(a)
	}
	return sleefOverflow(y, x, optelem.LnMaxF64)
}

// logBig64 is log a + ln2 for a ≥ 2^28.
func logBig64(a float64) float64 { return log64Of(maxX(a, inv64Big)) + math.Ln2 }

func asinhF64(x float64) float64 {
	if asinhF64Slow(x) {
		return math.Asinh(x)
	}
	a := math.Abs(x)
	m := minX(a, inv64Big)
	s := m * m
	v := m + s/(math.Sqrt(s+1)+1)
	y := log1p64Of(v)
	if !(a < inv64Big) {
		y = logBig64(a)
	}
	return withSign64(y, x)
}

func acoshF64(x float64) float64 {
	if acoshF64Slow(x) {
		return math.Acosh(x)
	}
	t := minX(x, inv64Big) - 1
	v := t + math.Sqrt(math.FMA(t, t, t+t))
	if !(x < inv64Big) {
		return logBig64(x)
	}
	return log1p64Of(v)
}

func atanhF64(x float64) float64 {
	if atanhF64Slow(x) {
		return math.Atanh(x)
	}
	a := math.Abs(x)
	t := a + a
	d := 1 - a
	v := t / d
	if a < 0.5 {
		v = t + float64(t*a)/d
	}
	return withSign64(log1p64Of(v)*0.5, x)
}

// ---------------------------------------------------------------------------
// logit

func logitF64Slow(x float64) bool { return !(x >= 0x1p-1022 && x < 1) }

func logitF64(x float64) float64 {
	if logitF64Slow(x) {
		return logRef64(x / (1 - x))
	}
	return log64Of(x / (1 - x))
}
