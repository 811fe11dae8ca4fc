//go:build !amd64 || purego

package vec

// SumF32 returns Σ x[i], added in 32 lanes and merged pairwise.
// Its exact order is sumF32Go's.
func SumF32(x []float32) float32 { return sumF32Go(x) }

// SumF64 returns Σ x[i], added in 16 lanes and merged pairwise.
// Its exact order is sumF64Go's.
func SumF64(x []float64) float64 { return sumF64Go(x) }

// MaxF32 returns the largest non-NaN x[i] (-Inf if none) and whether some
// x[i] is NaN. Its exact loop is maxF32Go's.
func MaxF32(x []float32) (m float32, nan bool) { return maxF32Go(x) }

// MinF32 returns the smallest non-NaN x[i] (+Inf if none) and whether some
// x[i] is NaN. Its exact loop is minF32Go's.
func MinF32(x []float32) (m float32, nan bool) { return minF32Go(x) }

// MaxF64 is MaxF32 for float64. Its exact loop is maxF64Go's.
func MaxF64(x []float64) (m float64, nan bool) { return maxF64Go(x) }

// MinF64 is MinF32 for float64. Its exact loop is minF64Go's.
func MinF64(x []float64) (m float64, nan bool) { return minF64Go(x) }

// ExpSubSumF32 sets dst[i] = e^(x[i]-m) (exp32: within 2 ulp; 0 where
// x[i]-m is below -87.34 or NaN) and returns their sum. x[i]-m must not
// exceed 88. Its exact loop is expSubSumF32Go's.
func ExpSubSumF32(dst, x []float32, m float32) float32 { return expSubSumF32Go(dst, x, m) }

// SumSqDevF32 returns Σ (x[i]-m)², each square added with one rounding.
// Its exact loop is sumSqDevF32Go's.
func SumSqDevF32(x []float32, m float32) float32 { return sumSqDevF32Go(x, m) }

// NormAffineF32 sets dst[i] = (x[i]-mean)·rstd·w[i] + b[i], the last
// multiply-add fused. Its exact loop is normAffineF32Go's.
func NormAffineF32(dst, x, w, b []float32, mean, rstd float32) {
	normAffineF32Go(dst, x, w, b, mean, rstd)
}

// AccF32F64 sets dst[i] += float64(x[i]). Its exact loop is accF32F64Go's.
func AccF32F64(dst []float64, x []float32) { accF32F64Go(dst, x) }

// SumF32F64 returns Σ x[i] added in float64 lanes (groups of 8 elements,
// 8 apart, first added pairwise in float32, saving conversions). Its exact
// order is sumF32F64Go's.
func SumF32F64(x []float32) float64 { return sumF32F64Go(x) }

// AccRows4F32F64 sets dst[i] += (x0[i] + x1[i]) + (x2[i] + x3[i]), added
// in float64. Its exact loop is accRows4F32F64Go's.
func AccRows4F32F64(dst []float64, x0, x1, x2, x3 []float32) {
	accRows4F32F64Go(dst, x0, x1, x2, x3)
}

// CumAccF32F64 sets acc[i] += float64(x[i]) and y[i] = float32(acc[i]):
// one step of a float32 running sum kept in float64. Its exact loop is
// cumAccF32F64Go's.
func CumAccF32F64(acc []float64, x, y []float32) { cumAccF32F64Go(acc, x, y) }
