//go:build !amd64 || purego

package vec

import optelem "github.com/goten-ml/goten/optable/elem"

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

// MaxRowsF32 sets dst[r] to MaxF32 of row r, x[r·stride:][:rowLen], or to
// NaN where the row holds a NaN, for each r < len(dst).
func MaxRowsF32(dst, x []float32, rowLen, stride int, four bool) {
	maxRowsF32Go(dst, x, rowLen, stride)
}

// MinRowsF32 is MaxRowsF32 with MinF32.
func MinRowsF32(dst, x []float32, rowLen, stride int, four bool) {
	minRowsF32Go(dst, x, rowLen, stride)
}

// IndexF32 returns the index of the first x[i] equal to v (-0 equals +0;
// a NaN v equals nothing), or -1. Its exact loop is indexF32Go's.
func IndexF32(x []float32, v float32) int { return indexF32Go(x, v) }

// ArgRowsF32 sets idx[r] to the index in row r, x[r·stride:][:rowLen]
// (rowLen ≥ 1), of its first NaN, or else of its first greatest (isMax)
// or least element, ±0 equal (Note [Short arg rows]).
func ArgRowsF32(idx []int32, x []float32, rowLen, stride int, isMax bool) {
	argRowsF32Go(idx, x, rowLen, stride, isMax)
}

// ColumnsKernel reports whether ColumnsF32 turns rows of m elements into
// columns with a kernel: never, here.
func ColumnsKernel(m int) bool { return false }

// ColumnsF32 turns n rows of m float32, x[r·m:][:m], into m columns of
// n: dst[j·ds + r] = x[r·m + j] (Note [Short rows as columns] in
// backend/cpu).
func ColumnsF32(dst, x []float32, m, n, ds int) {
	columnsBounds(dst, x, m, n, ds)
	columnsF32Go(dst, x, m, n, ds)
}

// SumSqRowsF32F64 adds SumSqF32F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst).
func SumSqRowsF32F64(dst []float64, x []float32, rowLen, stride int, four bool) {
	sumSqRowsStreamsF32F64Go(dst, x, rowLen, stride)
}

// ProdRowsF32 multiplies ProdF32 of row r, x[r·stride:][:rowLen], into
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu); four (Note [Four streams]) changes nothing here.
func ProdRowsF32(dst []float32, x []float32, rowLen, stride int, four bool) {
	prodRowsF32Go(dst, x, rowLen, stride)
}

// ProdF32 returns Π x[i], multiplied in 16 lanes, 4 accumulators of
// them, merged pairwise. Its exact order is prodF32Go's.
func ProdF32(x []float32) float32 { return prodF32Go(x) }

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

// SumF32InF64 returns Σ float64(x[i]), every add in float64 (16 lanes,
// merged pairwise). Its exact loop is sumF32InF64Go's.
func SumF32InF64(x []float32) float64 { return sumF32InF64Go(x) }

// SumF32InF64Rows4 sets s[k] to SumF32InF64(x[k·stride:][:n]), the same
// bits, for k < 4. Its exact loop is sumF32InF64Rows4Go's, then
// sumF32InF64Rows4End's.
func SumF32InF64Rows4(s *[4]float64, x []float32, stride, n int) {
	if n <= 0 {
		*s = [4]float64{}
		return
	}
	x = x[:3*stride+n]
	var acc [4][16]float64
	sumF32InF64Rows4Go(&acc, x, stride, n)
	sumF32InF64Rows4End(s, &acc, x, stride, n)
}

// SumSqDevF32InF64Rows4 sets s[k] to SumSqDevF32InF64(x[k·stride:][:n],
// m[k]), the same bits, for k < 4. Its exact loop is
// sumSqDevF32InF64Rows4Go's, then sumSqDevF32InF64Rows4End's.
func SumSqDevF32InF64Rows4(s *[4]float64, x []float32, stride, n int, m *[4]float64) {
	if n <= 0 {
		*s = [4]float64{}
		return
	}
	x = x[:3*stride+n]
	var acc [4][16]float64
	sumSqDevF32InF64Rows4Go(&acc, x, stride, n, m)
	sumSqDevF32InF64Rows4End(s, &acc, x, stride, n, m)
}

// SumSqDevF32InF64 returns Σ (float64(x[i])-m)², each square added in
// float64 with one rounding. Its exact loop is sumSqDevF32InF64Go's.
func SumSqDevF32InF64(x []float32, m float64) float64 { return sumSqDevF32InF64Go(x, m) }

// SumSqDevF64 returns Σ (x[i]-m)², each square added with one rounding.
// Its exact loop is sumSqDevF64Go's.
func SumSqDevF64(x []float64, m float64) float64 { return sumSqDevF64Go(x, m) }

// NormAffineF32 sets dst[i] = (x[i]-mean)·rstd·w[i] + b[i], the last
// multiply-add fused. Its exact loop is normAffineF32Go's.
func NormAffineF32(dst, x, w, b []float32, mean, rstd float32) {
	normAffineF32Go(dst, x, w, b, mean, rstd)
}

// AccF32F64 sets dst[i] += float64(x[i]). Its exact loop is accF32F64Go's.
func AccF32F64(dst []float64, x []float32) { accF32F64Go(dst, x) }

// SumF32F64 returns Σ x[i]: 16 elements at a time added lane by lane
// pairwise in float32, their sums in float64 lanes (Note [Sixteen
// lanes]), a long x read as four streams (Note [Four streams]). Its exact
// order is sumStreamsF32F64Go's.
func SumF32F64(x []float32, four bool) float64 { return sumStreamsF32F64Go(x) }

// SumRowsF32F64 adds SumF32F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu), four rows at a time (Note [Four streams]).
func SumRowsF32F64(dst []float64, x []float32, rowLen, stride int, four bool) {
	sumRowsStreamsF32F64Go(dst, x, rowLen, stride)
}

// SumBF16F64 is SumF32F64 of the bfloat16 elements x[i] (their bits),
// converted exactly to float32 as they are read, a long x read as four
// streams (Note [Four streams]). Its exact order is sumStreamsBF16F64Go's.
func SumBF16F64(x []uint16, four bool) float64 { return sumStreamsBF16F64Go(x) }

// SumRowsBF16F64 adds SumBF16F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst), in one loop; if four, four rows at a
// time, the same bits. Its exact order is sumRowsStreamsBF16F64Go's.
func SumRowsBF16F64(dst []float64, x []uint16, rowLen, stride int, four bool) {
	sumRowsStreamsBF16F64Go(dst, x, rowLen, stride)
}

// SumRowsF16F64 adds SumF16F64 of row r, x[r·stride:][:rowLen], to dst[r]
// for each r < len(dst), in one loop; if four, four rows at a time, the
// same bits. Its exact order is sumRowsStreamsF16F64Go's.
func SumRowsF16F64(dst []float64, x []uint16, rowLen, stride int, four bool) {
	sumRowsStreamsF16F64Go(dst, x, rowLen, stride)
}

// SumF16F64 is SumF32F64 of the float16 elements x[i] (their bits),
// converted exactly to float32 as they are read, a long x read as four
// streams (Note [Four streams]). Its exact order is sumStreamsF16F64Go's.
func SumF16F64(x []uint16, four bool) float64 { return sumStreamsF16F64Go(x) }

// SumSqF32F64 returns Σ x[i]², each square exact in float64 and added in
// float64 lanes, a long x read as four streams (Note [Four streams]). Its
// exact order is sumSqStreamsF32F64Go's.
func SumSqF32F64(x []float32, four bool) float64 { return sumSqStreamsF32F64Go(x) }

// SumRows8F32 sets dst[i] = ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i]
// + x5[i]) + (x6[i] + x7[i])). Its exact loop is sumRows8F32Go's.
func SumRows8F32(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	sumRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// AccRows8F32 sets dst[i] += ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i]
// + x5[i]) + (x6[i] + x7[i])). Its exact loop is accRows8F32Go's.
func AccRows8F32(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	accRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// SumRows8BF16 is SumRows8F32 of bfloat16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// sumRows8BF16Go's.
func SumRows8BF16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	sumRows8BF16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// AccRows8BF16 is AccRows8F32 of bfloat16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// accRows8BF16Go's.
func AccRows8BF16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	accRows8BF16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// SumRows8F16 is SumRows8F32 of float16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// sumRows8F16Go's.
func SumRows8F16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	sumRows8F16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// AccRows8F16 is AccRows8F32 of float16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// accRows8F16Go's.
func AccRows8F16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	accRows8F16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
}

// CumAccF32F64 sets acc[i] += float64(x[i]) and y[i] = float32(acc[i]):
// one step of a float32 running sum kept in float64. Its exact loop is
// cumAccF32F64Go's.
func CumAccF32F64(acc []float64, x, y []float32) { cumAccF32F64Go(acc, x, y) }

// CumAccRows4F32F64 runs CumAccF32F64 on the rows x[r·xs:] and y[r·ys:]
// for r = 0, 1, 2, 3 in turn. Its exact loop is cumAccRows4F32F64Go's.
func CumAccRows4F32F64(acc []float64, x []float32, xs int, y []float32, ys int) {
	cumAccRows4F32F64Go(acc, x, xs, y, ys)
}

// MaxAccF32 sets dst[i] = x[i] where x[i] > dst[i] or x[i] is NaN: one row
// of a max over an outer dim, NaN propagating. Its exact loop is
// maxAccF32Go's.
func MaxAccF32(dst, x []float32) { maxAccF32Go(dst, x) }

// MinAccF32 sets dst[i] = x[i] where x[i] < dst[i] or x[i] is NaN. Its
// exact loop is minAccF32Go's.
func MinAccF32(dst, x []float32) { minAccF32Go(dst, x) }

// MaxAccRowsF32 folds rows rows of x, stride elements apart, into dst as
// MaxAccF32 on each in turn. Its exact loop is maxAccRowsF32Go's.
func MaxAccRowsF32(dst, x []float32, stride, rows int) {
	accRowsBounds(dst, x, stride, rows)
	maxAccRowsF32Go(dst, x, stride, rows)
}

// MinAccRowsF32 folds rows rows of x, stride elements apart, into dst as
// MinAccF32 on each in turn. Its exact loop is minAccRowsF32Go's.
func MinAccRowsF32(dst, x []float32, stride, rows int) {
	accRowsBounds(dst, x, stride, rows)
	minAccRowsF32Go(dst, x, stride, rows)
}

// WelfordChunkBF16 is elem.WelfordChunkBF16, bit for bit: the Welford
// steps of PyTorch's bfloat16 layer_norm moments over the whole 16-lane
// vectors of x (at most 16), in 16 lanes.
func WelfordChunkBF16(m *[2][16]float32, x []float32, coef *[16]float32) {
	optelem.WelfordChunkBF16(m, x, coef)
}

// MergeLanesBF16 is elem.MergeLanesBF16, bit for bit: AddMoments of
// PyTorch's bfloat16 layer_norm moments on 16 lanes.
func MergeLanesBF16(w, m *[2][16]float32, c, wn float32) {
	optelem.MergeLanesBF16(w, m, c, wn)
}

// SumRows8RunF32 runs the q passes of an outer float32 sum over rows of
// len(st) elements, stride elements apart, in one call. Its exact loop is
// sumRows8RunF32Go's.
func SumRows8RunF32(st []float64, blk, x []float32, stride, q int) {
	run8Bounds(st, blk, x, stride, q)
	sumRows8RunF32Go(st, blk, x, stride, q)
}

// MulAccRowsF32 multiplies rows rows of x, stride elements apart, into
// dst as MulF32(dst, dst, row) on each in turn. Its exact loop is
// mulAccRowsF32Go's.
func MulAccRowsF32(dst, x []float32, stride, rows int) {
	accRowsBounds(dst, x, stride, rows)
	mulAccRowsF32Go(dst, x, stride, rows)
}

// ArgMaxAccRowsF32 folds rows rows of x, stride elements apart, into the
// ArgMax states v (values) and ix (indices), row r having index i0+r.
// Its exact loop is argMaxAccRowsF32Go's.
func ArgMaxAccRowsF32(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	accRowsBounds(v, x, stride, rows)
	argMaxAccRowsF32Go(v, ix[:len(v)], x, stride, rows, i0)
}

// ArgMinAccRowsF32 is ArgMaxAccRowsF32 for ArgMin. Its exact loop is
// argMinAccRowsF32Go's.
func ArgMinAccRowsF32(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	accRowsBounds(v, x, stride, rows)
	argMinAccRowsF32Go(v, ix[:len(v)], x, stride, rows, i0)
}
