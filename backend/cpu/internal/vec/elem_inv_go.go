package vec

import (
	"math"

	optelem "github.com/goten-ml/goten/optable/elem"
)

// Note [Inverse and hyperbolic functions]
// The float32 kernels of asm/eleminv.go, each line here one instruction
// there. All compute in float64 (exact conversions in, one rounding out),
// where each is accurate to about 2^-40, so the float32 result is within 1
// ulp of the correctly rounded one:
//
//   - atan: a = |x| reduced by tan(π/8) and tan(3π/8) to t, |t| ≤ 0.4143
//     (t = a, (a−1)/(a+1) or −1/a: one division), atan t by its Taylor
//     series to t^25 (Cephes' atanf reduction; the series instead of its
//     fit, as float64 has the room), plus 0, π/4 or π/2.
//   - asin a = atan(a/√((1−a)(1+a))), the product exact for float32 a
//     (a = 1: +Inf, π/2); acos x = π/2 − asin x, whose cancellation near
//     x = 1 costs float64 bits float32 does not need.
//   - sinh: (t + t/(t+1))/2, t = expm1|x| (no cancellation near 0); cosh:
//     e/2 + 1/(2e), e = e^|x|; |x| capped at 100, beyond float32's
//     overflow, so float64 stays finite; both +Inf (sinh with x's sign)
//     for |x| > ln(max float32), as PyTorch's SLEEF kernels (Note [SLEEF's
//     sinh and cosh] in optable/elem).
//   - asinh a = log1p(a + a²/(1 + √(1+a²))), acosh x = log1p(t + √(t²+2t))
//     with t = x − 1 exact, atanh a = log1p(2a/(1−a))/2: the log1p forms
//     keep small arguments exact; log1p is Log1pF64's.
//   - logit: log(x/(1−x)) for x in (0, 1) (1 − x exact, the quotient a
//     positive normal float64 rounded once, as optable/elem's Logit has it).
//   - gelu (tanh approximation): PyTorch's 0.5x(1 + tanh u), u =
//     √(2/π)(x + 0.044715x³), as x·sigmoid(2u): x/(1+e) for x ≥ 0, x·e/(1+e)
//     below, e = e^−2|u| (1 + tanh u cancels for negative x; this does not).
//
// Odd functions take x's sign bit at the end (±0 give ±0). Operands
// outside the stated domains (NaN, ±Inf, |x| > 1 for asin, x < 1 for
// acosh, |x| ≥ 1 for atanh, x outside (0, 1) for logit) take the slow path: the float64 reference.

// atanQ returns the coefficients of (atan t − t)/t³ in t², highest
// degree first (asm/eleminv.go's).
func atanQ(n int) []float64 {
	c := make([]float64, n)
	for k := 1; k <= n; k++ {
		s := 1.0
		if k%2 == 1 {
			s = -1
		}
		c[n-k] = s / float64(2*k+1)
	}
	return c
}

var atanPoly = atanQ(12)

const (
	tanPio8  = 0.41421356237309503
	tan3Pio8 = 2.414213562373095
	geluK    = 0.7978845608028654
	geluC    = 0.044715
)

// atan64Of is atan a for a ≥ 0.
func atan64Of(a float64) float64 {
	big, mid := a > tan3Pio8, a > tanPio8
	num, den, y0 := a, 1.0, 0.0
	if mid {
		num, den, y0 = a-1, a+1, math.Pi/4
	}
	if big {
		num, den, y0 = -1, a, math.Pi/2
	}
	t := num / den
	z := t * t
	r := math.FMA(t*z, horner64(z, atanPoly...), t)
	return y0 + r
}

// withSign64 is y (not negative) with x's sign bit.
func withSign64(y, x float64) float64 {
	return math.Float64frombits(math.Float64bits(y) | math.Float64bits(x)&sign64)
}

func asin64Of(a float64) float64 {
	d := math.Sqrt((1 - a) * (1 + a))
	return atan64Of(a / d)
}

// log1p64Of is log(1+v) for finite v ≥ 0.
func log1p64Of(v float64) float64 {
	u := v + 1
	c := (v - (u - 1)) / u
	r := log64Of(u) + c
	if v < 0x1p-54 {
		return v
	}
	return r
}

func finiteSlow32(x float32) bool { return !(abs32(x) <= maxNormal) }
func unitSlow32(x float32) bool   { return !(abs32(x) <= 1) }

func atanF32Slow(x float32) bool  { return finiteSlow32(x) }
func asinF32Slow(x float32) bool  { return unitSlow32(x) }
func acosF32Slow(x float32) bool  { return unitSlow32(x) }
func sinhF32Slow(x float32) bool  { return finiteSlow32(x) }
func coshF32Slow(x float32) bool  { return finiteSlow32(x) }
func asinhF32Slow(x float32) bool { return finiteSlow32(x) }
func acoshF32Slow(x float32) bool { return !(x >= 1 && x <= maxNormal) }
func atanhF32Slow(x float32) bool { return !(abs32(x) <= math.Nextafter32(1, 0)) }

func atanF32(x float32) float32 {
	if atanF32Slow(x) {
		return float32(math.Atan(float64(x)))
	}
	xd := float64(x)
	return float32(withSign64(atan64Of(math.Abs(xd)), xd))
}

func asinF32(x float32) float32 {
	if asinF32Slow(x) {
		return float32(math.Asin(float64(x)))
	}
	xd := float64(x)
	return float32(withSign64(asin64Of(math.Abs(xd)), xd))
}

func acosF32(x float32) float32 {
	if acosF32Slow(x) {
		return float32(math.Acos(float64(x)))
	}
	xd := float64(x)
	return float32(math.Pi/2 - withSign64(asin64Of(math.Abs(xd)), xd))
}

func sinhF32(x float32) float32 {
	if sinhF32Slow(x) {
		return float32(math.Sinh(float64(x)))
	}
	xd := float64(x)
	t := expm164Of(minX(math.Abs(xd), 100))
	y := sleefOverflow((t+t/(t+1))*0.5, xd, optelem.LnMaxF32)
	return float32(withSign64(y, xd))
}

// sleefOverflow is y, or +Inf where |x| > lnMax: PyTorch's SLEEF sinh and
// cosh overflow there (Note [SLEEF's sinh and cosh] in optable/elem).
func sleefOverflow(y, x, lnMax float64) float64 {
	if math.Abs(x) > lnMax {
		return math.Inf(1)
	}
	return y
}

func coshF32(x float32) float32 {
	if coshF32Slow(x) {
		return float32(math.Cosh(float64(x)))
	}
	e := exp64Of(minX(math.Abs(float64(x)), 100))
	return float32(sleefOverflow(math.FMA(e, 0.5, 0.5/e), float64(x), optelem.LnMaxF32))
}

func asinhF32(x float32) float32 {
	if asinhF32Slow(x) {
		return float32(math.Asinh(float64(x)))
	}
	xd := float64(x)
	a := math.Abs(xd)
	s := a * a
	v := a + s/(math.Sqrt(s+1)+1)
	return float32(withSign64(log1p64Of(v), xd))
}

func acoshF32(x float32) float32 {
	if acoshF32Slow(x) {
		return float32(math.Acosh(float64(x)))
	}
	t := float64(x) - 1
	v := t + math.Sqrt(math.FMA(t, t, t+t))
	return float32(log1p64Of(v))
}

func atanhF32(x float32) float32 {
	if atanhF32Slow(x) {
		return float32(math.Atanh(float64(x)))
	}
	xd := float64(x)
	a := math.Abs(xd)
	v := (a + a) / (1 - a)
	return float32(withSign64(log1p64Of(v)*0.5, xd))
}

func geluTanhF32(x float32) float32 {
	xd := float64(x)
	x2 := xd * xd
	u := math.FMA(xd*geluC, x2, xd) * geluK
	m := math.Float64frombits(math.Float64bits(u+u) | sign64)
	e := exp64Of(m)
	num := xd
	if xd < 0 {
		num = xd * e
	}
	y := num / (e + 1)
	if xd != xd {
		y = xd
	}
	return float32(y)
}

func logitF32Slow(x float32) bool { return !(x > 0 && x < 1) }

func logitF32(x float32) float32 {
	xd := float64(x)
	if logitF32Slow(x) {
		return float32(math.Log(xd / (1 - xd)))
	}
	return float32(log64Of(xd / (1 - xd)))
}
