package vec

import "math"

// Note [Hypot and atan2]
// The twins of asm/elembin.go's kernels. hypot of float32 is √(a² + b²)
// in float64: the squares are exact there and the sum rounds once, so the
// float32 result is within 1 ulp (double rounding aside). hypot of
// float64 is p·√(1 + (q/p)²), p = max(|a|, |b|), q the other: nothing
// overflows or underflows before the result does, about 1.5 ulp. atan2 is
// atan(|y|/|x|) by AtanF64's Cephes atan (a quotient that overflows is
// +Inf, whose atan is π/2), π minus it when x's sign bit is set, with y's
// sign; float32 computes it in float64. ±Inf and NaN operands, a zero x
// (atan2) and two zeros (hypot) take the slow path, Go's math.

func binSlow(a, b float64) bool {
	return !(math.Abs(a) <= math.MaxFloat64) || !(math.Abs(b) <= math.MaxFloat64)
}

func hypotF32Slow(a, b float32) bool { return binSlow(float64(a), float64(b)) }

func hypotF32(a, b float32) float32 {
	ad, bd := float64(a), float64(b)
	if hypotF32Slow(a, b) {
		return float32(math.Hypot(ad, bd))
	}
	return float32(math.Sqrt(math.FMA(ad, ad, bd*bd)))
}

func hypotF64Slow(a, b float64) bool {
	return binSlow(a, b) || maxX(math.Abs(a), math.Abs(b)) == 0
}

func hypotF64(a, b float64) float64 {
	if hypotF64Slow(a, b) {
		return math.Hypot(a, b)
	}
	aa, ab := math.Abs(a), math.Abs(b)
	p, q := maxX(aa, ab), minX(aa, ab)
	r := q / p
	return p * math.Sqrt(math.FMA(r, r, 1))
}

// atan264 is atan2 for finite y and finite nonzero x.
func atan264(y, x float64) float64 {
	u := atan64Cephes(math.Abs(y) / math.Abs(x))
	if x < 0 {
		u = float64(piHi-u) + piLo
	}
	return withSign64(u, y)
}

func atan2F32Slow(y, x float32) bool { return atan2F64Slow(float64(y), float64(x)) }

func atan2F32(y, x float32) float32 {
	if atan2F32Slow(y, x) {
		return float32(math.Atan2(float64(y), float64(x)))
	}
	return float32(atan264(float64(y), float64(x)))
}

func atan2F64Slow(y, x float64) bool { return binSlow(y, x) || x == 0 }

func atan2F64(y, x float64) float64 {
	if atan2F64Slow(y, x) {
		return math.Atan2(y, x)
	}
	return atan264(y, x)
}
