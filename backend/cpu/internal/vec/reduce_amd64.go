//go:build amd64 && !purego

package vec

//go:generate go run -C ../../../../asm . -part reduce -out ../backend/cpu/internal/vec/zz_reduce_amd64.s -stubs ../backend/cpu/internal/vec/zz_reduce_stubs_amd64.go -pkg vec

// SumF32 returns Σ x[i], added in 32 lanes and merged pairwise.
// Its exact order is sumF32Go's.
func SumF32(x []float32) float32 {
	if !useAVX2 {
		return sumF32Go(x)
	}
	return sumF32AVX2(x)
}

// SumF64 returns Σ x[i], added in 16 lanes and merged pairwise.
// Its exact order is sumF64Go's.
func SumF64(x []float64) float64 {
	if !useAVX2 {
		return sumF64Go(x)
	}
	return sumF64AVX2(x)
}

// MaxF32 returns the largest non-NaN x[i] (-Inf if none) and whether some
// x[i] is NaN. Its exact loop is maxF32Go's.
func MaxF32(x []float32) (m float32, nan bool) {
	if !useAVX2 {
		return maxF32Go(x)
	}
	return maxF32AVX2(x)
}

// MinF32 returns the smallest non-NaN x[i] (+Inf if none) and whether some
// x[i] is NaN. Its exact loop is minF32Go's.
func MinF32(x []float32) (m float32, nan bool) {
	if !useAVX2 {
		return minF32Go(x)
	}
	return minF32AVX2(x)
}

// MaxF64 is MaxF32 for float64. Its exact loop is maxF64Go's.
func MaxF64(x []float64) (m float64, nan bool) {
	if !useAVX2 {
		return maxF64Go(x)
	}
	return maxF64AVX2(x)
}

// MinF64 is MinF32 for float64. Its exact loop is minF64Go's.
func MinF64(x []float64) (m float64, nan bool) {
	if !useAVX2 {
		return minF64Go(x)
	}
	return minF64AVX2(x)
}

// ExpSubSumF32 sets dst[i] = e^(x[i]-m) (exp32: within 2 ulp; 0 where
// x[i]-m is below -87.34 or NaN) and returns their sum. x[i]-m must not
// exceed 88. Its exact loop is expSubSumF32Go's.
func ExpSubSumF32(dst, x []float32, m float32) float32 {
	if !useAVX2 {
		return expSubSumF32Go(dst, x, m)
	}
	x = x[:len(dst)]
	return expSubSumF32AVX2(dst, x, m)
}

// SumSqDevF32 returns Σ (x[i]-m)², each square added with one rounding.
// Its exact loop is sumSqDevF32Go's.
func SumSqDevF32(x []float32, m float32) float32 {
	if !useAVX2 {
		return sumSqDevF32Go(x, m)
	}
	return sumSqDevF32AVX2(x, m)
}

// NormAffineF32 sets dst[i] = (x[i]-mean)·rstd·w[i] + b[i], the last
// multiply-add fused. Its exact loop is normAffineF32Go's.
func NormAffineF32(dst, x, w, b []float32, mean, rstd float32) {
	if !useAVX2 {
		normAffineF32Go(dst, x, w, b, mean, rstd)
		return
	}
	x, w, b = x[:len(dst)], w[:len(dst)], b[:len(dst)]
	normAffineF32AVX2(dst, x, w, b, mean, rstd)
}

// AccF32F64 sets dst[i] += float64(x[i]). Its exact loop is accF32F64Go's.
func AccF32F64(dst []float64, x []float32) {
	if !useAVX2 {
		accF32F64Go(dst, x)
		return
	}
	x = x[:len(dst)]
	accF32F64AVX2(dst, x)
}

// SumF32F64 returns Σ x[i] added in float64 lanes (groups of 8 elements,
// 8 apart, first added pairwise in float32, saving conversions). Its exact
// order is sumF32F64Go's.
func SumF32F64(x []float32) float64 {
	if !useAVX2 {
		return sumF32F64Go(x)
	}
	return sumF32F64AVX2(x)
}

// AccRows4F32F64 sets dst[i] += (x0[i] + x1[i]) + (x2[i] + x3[i]), added
// in float64. Its exact loop is accRows4F32F64Go's.
func AccRows4F32F64(dst []float64, x0, x1, x2, x3 []float32) {
	if !useAVX2 {
		accRows4F32F64Go(dst, x0, x1, x2, x3)
		return
	}
	n := len(dst)
	accRows4F32F64AVX2(dst, x0[:n], x1[:n], x2[:n], x3[:n])
}

// CumAccF32F64 sets acc[i] += float64(x[i]) and y[i] = float32(acc[i]):
// one step of a float32 running sum kept in float64. Its exact loop is
// cumAccF32F64Go's.
func CumAccF32F64(acc []float64, x, y []float32) {
	if !useAVX2 {
		cumAccF32F64Go(acc, x, y)
		return
	}
	n := len(acc)
	cumAccF32F64AVX2(acc, x[:n], y[:n])
}
