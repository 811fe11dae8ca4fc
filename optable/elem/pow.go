package elem

import "math"

// Pow is x^y within 1 ulp of the correctly rounded value, as PyTorch's
// std::pow and Sleef_powd are: math.Pow's special values (C99's), and
// e^(y·log|x|) in double-double for finite nonzero x and finite y (Note
// [Accurate pow]). Go's math.Pow raises x to y's integer part by repeated
// squaring, whose rounding errors double with each squaring: pow(1.0005,
// 65520) is 2000 ulp off, and worse for larger exponents.
func Pow(x, y float64) float64 {
	a := math.Abs(x)
	if x == 0 || !(a <= math.MaxFloat64) || !(math.Abs(y) <= math.MaxFloat64) || x < 0 && y != math.Trunc(y) {
		return math.Pow(x, y)
	}
	// Note [Accurate pow]
	// |x| = 2^k·m, m in [√½, √2); s = (m − 1)/(m + 1) in double-double;
	// log m = 2·atanh s = 2s + s³·(2/3 + s²·P(s²)), P Taylor's to s^24
	// (|s| ≤ 0.1716: what is left out is below 2^-70 of 2s); log|x| = k·ln2
	// + log m and t = y·log|x| in double-double (an error ε in t is a
	// relative error ε in the result, and |t| reaches 745); t = n·ln2 + r,
	// e^r = 1 + r + r²·Q(r), Q Taylor's to r^14/14!, rounded once and
	// scaled by 2^n. backend/cpu's vectorised PowF64 computes the same
	// steps lane by lane (vec's Note [Float64 pow]).
	frac, e := math.Frexp(a)
	k := float64(e)
	if frac < math.Sqrt2/2 {
		frac *= 2
		k--
	}
	m := frac
	dh, dl := twoSum(m, 1)
	sh := (m - 1) / dh
	sl := math.FMA(-sh, dl, math.FMA(-sh, dh, m-1)) / dh
	s2h := sh * sh
	s2l := math.FMA(2*sh, sl, math.FMA(sh, sh, -s2h))
	s3h := s2h * sh
	s3l := math.FMA(s2h, sl, math.FMA(s2l, sh, math.FMA(s2h, sh, -s3h)))
	p := 0.0
	for _, c := range powLogPoly {
		p = math.FMA(p, s2h, c)
	}
	v := s2h * p
	const twoThirdsHi, twoThirdsLo = 0.6666666666666666, 3.700743415417188e-17
	th, tl := fastTwoSum(twoThirdsHi, v)
	tl += twoThirdsLo
	ph := s3h * th
	pl := math.FMA(s3l, th, math.FMA(s3h, tl, math.FMA(s3h, th, -ph)))
	lmh, lml := fastTwoSum(2*sh, ph)
	lml += 2*sl + pl
	const ln2Hi, ln2Lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10 // ln2Hi·k exact
	lh, le := twoSum(k*ln2Hi, lmh)
	ll := le + math.FMA(k, ln2Lo, lml)
	uh := y * lh
	if uh > 1000 {
		return math.Copysign(math.Inf(1), oddSign(x, y))
	}
	if uh < -1000 {
		return math.Copysign(0, oddSign(x, y))
	}
	ul := math.FMA(y, ll, math.FMA(y, lh, -uh))
	n := math.RoundToEven(uh * math.Log2E)
	r, rr := twoSum(math.FMA(-n, ln2Hi, uh), math.FMA(-n, ln2Lo, ul))
	q := 0.0
	for _, c := range powExpPoly {
		q = math.FMA(q, r, c)
	}
	r2h := r * r
	u := r2h * q
	eh, el := fastTwoSum(r, u)
	el += math.FMA(math.FMA(r, r, -r2h), q, math.FMA(rr, r, rr))
	one, lo := fastTwoSum(1, eh)
	lo += el
	return math.Copysign(math.Ldexp(one+lo, int(n)), oddSign(x, y))
}

// The polynomials of Note [Accurate pow], highest degree first: 2/(2j+1)
// for j = 12..2, and 1/j! for j = 14..2.
var powLogPoly, powExpPoly = func() (l, e []float64) {
	for j := 12; j >= 2; j-- {
		l = append(l, 2/float64(2*j+1))
	}
	f := 1.0
	for j := 2; j <= 14; j++ {
		f *= float64(j)
	}
	for j := 14; j >= 2; j-- {
		e = append(e, 1/f)
		f /= float64(j)
	}
	return l, e
}()

// oddSign is −1 for x < 0 raised to an odd integer y, else 1.
func oddSign(x, y float64) float64 {
	if h := y * 0.5; x < 0 && h != math.Trunc(h) {
		return -1
	}
	return 1
}

// twoSum returns a + b rounded and its rounding error (Knuth's).
func twoSum(a, b float64) (s, t float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// fastTwoSum is twoSum for |a| ≥ |b|.
func fastTwoSum(a, b float64) (s, t float64) {
	s = a + b
	return s, b - (s - a)
}
