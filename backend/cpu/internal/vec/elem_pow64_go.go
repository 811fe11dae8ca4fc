package vec

import "math"

// Note [Float64 pow]
// PowF64 (asm/elempow64.go) is |x|^y = e^(y·log|x|), negated for x < 0
// and odd integer y. An error ε in y·log|x| is a relative error ε in the
// result, and |y·log|x|| reaches 745 before the result underflows, so the
// logarithm and the product are carried in double-double (about 2^-100
// relative), as in SLEEF's and glibc's pow, but with no tables (a lane
// cannot index one without a gather):
//
//   - |x| = 2^k·m, m in [√½, √2) (subnormal x scaled by 2^52 first), s =
//     (m − 1)/(m + 1) in double-double (m − 1 exact, m + 1 by TwoSum, the
//     quotient's remainder by FMA);
//   - log m = 2·atanh s = 2s + s³·(2/3 + s²·P(s²)), P Taylor's to s^24
//     (the first term left out is below 2^-70 of 2s), 2/3 in two parts,
//     s² and s³ by exact products;
//   - log|x| = k·ln2 + log m (k·ln2Hi exact), t = y·log|x| by FMA;
//   - t = n·ln2 + r, r in double-double, e^r = 1 + r + r²·Q(r), Q
//     Taylor's to r^14/14! (below 2^-63 left out), the sum 1 + (e^r − 1)
//     rounded once and scaled by 2^n (Scale; a subnormal result rounds a
//     second time). |t| ≥ 1000 keeps only its high part, clamped to
//     ±1100: the result is 0 or ±Inf there anyway.
//
// The result is within 1 ulp of the correctly rounded value (TestPowMP:
// mpmath over the whole range). Zero, infinite and NaN operands, and
// negative x with non-integral y, take the slow path, math.Pow, which
// gives C99's (and PyTorch's) special values: pow(x, ±0) = 1 and pow(1,
// y) = 1 even for NaN, pow(±0, y) by y's sign and parity, and so on.
// PyTorch's std::pow and Sleef_powd are within 1 ulp too; neither
// special-cases small integer exponents for float tensor exponents, and
// goten's float32 kernel does not either.

var (
	powLogPoly = atanhTail(12)
	powExpPoly = taylorE(14)[:13]
)

const (
	twoThirdsHi = 0.6666666666666666
	twoThirdsLo = 3.700743415417188e-17
	pow64Big    = 1000
)

// atanhTail returns 2/(2n+1), ..., 2/7, 2/5.
func atanhTail(n int) []float64 {
	var c []float64
	for k := n; k >= 2; k-- {
		c = append(c, 2/float64(2*k+1))
	}
	return c
}

func powF64Slow(x, y float64) bool {
	a := math.Abs(x)
	return !(a >= 0x1p-1074 && a <= math.MaxFloat64) || !(math.Abs(y) <= math.MaxFloat64) ||
		x < 0 && y != math.RoundToEven(y)
}

func powF64(x, y float64) float64 {
	if powF64Slow(x, y) {
		return math.Pow(x, y)
	}
	a := math.Abs(x)
	sub := a < 0x1p-1022
	if sub {
		a *= 0x1p52
	}
	ix := math.Float64bits(a) - sqrtHf64
	hi := (ix + 0x4000000000000000) >> 52
	k := math.Float64frombits(hi|math.Float64bits(0x1p52)) - (0x1p52 + 1024)
	if sub {
		k -= 52
	}
	m := math.Float64frombits(ix&0x000fffffffffffff + sqrtHf64)
	f := m - 1
	dh, dl := twoSum64(m, 1)
	sh := f / dh
	sl := math.FMA(-sh, dl, math.FMA(-sh, dh, f)) / dh
	s2h := sh * sh
	s2l := math.FMA(sh+sh, sl, math.FMA(sh, sh, -s2h))
	s3h := s2h * sh
	s3l := math.FMA(s2h, sl, math.FMA(s2l, sh, math.FMA(s2h, sh, -s3h)))
	v := s2h * horner64(s2h, powLogPoly...)
	th := twoThirdsHi + v
	tl := ((twoThirdsHi - th) + v) + twoThirdsLo
	ph := s3h * th
	pl := math.FMA(s3l, th, math.FMA(s3h, tl, math.FMA(s3h, th, -ph)))
	s2 := sh + sh
	lmh := s2 + ph
	lml := (((s2 - lmh) + ph) + (sl + sl)) + pl
	lh, le := twoSum64(k*ln2Hi, lmh)
	ll := le + math.FMA(k, ln2Lo, lml)
	uh := y * lh
	ul := math.FMA(y, ll, math.FMA(y, lh, -uh))
	if !(math.Abs(uh) < pow64Big) {
		ul = 0
	}
	uh = minX(maxX(uh, -1100), 1100)
	n := math.RoundToEven(uh * elLog2e)
	rh := math.FMA(-n, ln2Hi, uh)
	r, rr := twoSum64(rh, math.FMA(-n, ln2Lo, ul))
	r2h := r * r
	q := horner64(r, powExpPoly...)
	u := r2h * q
	ph2 := r + u
	pl2 := ((r - ph2) + u) + math.FMA(math.FMA(r, r, -r2h), q, math.FMA(rr, r, rr))
	one := 1 + ph2
	lo := ((1 - one) + ph2) + pl2
	res := scale64(one+lo, n)
	if hy := y * 0.5; math.RoundToEven(hy) != hy {
		res = math.Float64frombits(math.Float64bits(res) | math.Float64bits(x)&sign64)
	}
	return res
}
