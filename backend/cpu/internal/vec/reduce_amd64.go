//go:build amd64 && !purego

package vec

import optelem "github.com/goten-ml/goten/optable/elem"

//go:generate go run -C ../../../../asm . -part reduce -out ../backend/cpu/internal/vec/zz_reduce_amd64.s -stubs ../backend/cpu/internal/vec/zz_reduce_stubs_amd64.go -pkg vec
//go:generate go run -C ../../../../asm . -part reduce512 -out ../backend/cpu/internal/vec/zz_reduce512_amd64.s -stubs ../backend/cpu/internal/vec/zz_reduce512_stubs_amd64.go -pkg vec

// The 16-lane reductions run their AVX-512 forms under useAVX512 (vec_amd64.go;
// Note [Sixteen lanes] in reduce_go.go): only functions named ...AVX512 use
// AVX-512, and only under that flag (TestAVX512Confined, TestNoAVX512).

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
	switch {
	case useAVX512:
		return maxF32AVX512(x)
	case useAVX2:
		return maxF32AVX2(x)
	}
	return maxF32Go(x)
}

// MinF32 returns the smallest non-NaN x[i] (+Inf if none) and whether some
// x[i] is NaN. Its exact loop is minF32Go's.
func MinF32(x []float32) (m float32, nan bool) {
	switch {
	case useAVX512:
		return minF32AVX512(x)
	case useAVX2:
		return minF32AVX2(x)
	}
	return minF32Go(x)
}

// MaxRowsF32 sets dst[r] to MaxF32 of row r, x[r·stride:][:rowLen], or to
// NaN where the row holds a NaN, for each r < len(dst); if four, four
// rows at a time (Note [Four streams]), the same bits. Its exact loop is
// maxRowsF32Go's.
func MaxRowsF32(dst, x []float32, rowLen, stride int, four bool) {
	m4 := fourRows(len(dst), four)
	if m4 > 0 {
		maxRows4F32(dst[:m4], x[:rowsSpan(m4, rowLen, stride)], rowLen, stride)
	}
	extremeRows(dst[m4:], x[min(len(x), m4*stride):], rowLen, stride, MaxF32)
}

// MinRowsF32 is MaxRowsF32 with MinF32. Its exact loop is
// minRowsF32Go's.
func MinRowsF32(dst, x []float32, rowLen, stride int, four bool) {
	m4 := fourRows(len(dst), four)
	if m4 > 0 {
		minRows4F32(dst[:m4], x[:rowsSpan(m4, rowLen, stride)], rowLen, stride)
	}
	extremeRows(dst[m4:], x[min(len(x), m4*stride):], rowLen, stride, MinF32)
}

// maxRows4F32 is maxRowsF32Go's kernel on 4q rows, read four at a time.
func maxRows4F32(dst, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		maxRows4F32AVX512(dst, x, rowLen, stride)
	case useAVX2:
		maxRows4F32AVX2(dst, x, rowLen, stride)
	default:
		maxRowsF32Go(dst, x, rowLen, stride)
	}
}

// minRows4F32 is minRowsF32Go's kernel on 4q rows, read four at a time.
func minRows4F32(dst, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		minRows4F32AVX512(dst, x, rowLen, stride)
	case useAVX2:
		minRows4F32AVX2(dst, x, rowLen, stride)
	default:
		minRowsF32Go(dst, x, rowLen, stride)
	}
}

// IndexF32 returns the index of the first x[i] equal to v (-0 equals +0;
// a NaN v equals nothing), or -1. Its exact loop is indexF32Go's.
func IndexF32(x []float32, v float32) int {
	switch {
	case useAVX512:
		return indexF32AVX512(x, v)
	case useAVX2:
		return indexF32AVX2(x, v)
	}
	return indexF32Go(x, v)
}

// ArgRowsF32 sets idx[r] to the index in row r, x[r·stride:][:rowLen]
// (rowLen ≥ 1, below 2^31), of its first NaN, or else of its first
// greatest (isMax) or least element, ±0 equal (Note [Short arg rows]).
// Its exact results are argRowsF32Go's.
func ArgRowsF32(idx []int32, x []float32, rowLen, stride int, isMax bool) {
	if len(idx) == 0 {
		return
	}
	_ = x[rowsSpan(len(idx), rowLen, stride)-1]
	switch {
	case isMax && useAVX512:
		argMaxRowsF32AVX512(&idx[0], &x[0], rowLen, stride, len(idx))
	case useAVX512:
		argMinRowsF32AVX512(&idx[0], &x[0], rowLen, stride, len(idx))
	default:
		argRowsF32Go(idx, x, rowLen, stride, isMax)
	}
}

// ColumnsKernel reports whether ColumnsF32 turns rows of m elements into
// columns with a kernel (else element by element, in Go).
func ColumnsKernel(m int) bool { return m >= 2 && m < 16 && useAVX512 }

// ColumnsF32 turns n rows of m float32, x[r·m:][:m], into m columns of
// n: dst[j·ds + r] = x[r·m + j] (Note [Short rows as columns] in
// backend/cpu). Its exact moves are columnsF32Go's.
func ColumnsF32(dst, x []float32, m, n, ds int) {
	columnsBounds(dst, x, m, n, ds)
	done := 0
	if blocks := n / 16; blocks > 0 && m >= 2 && m < 16 && useAVX512 {
		columnsF32AVX512(&dst[0], &x[0], m, blocks, ds*4)
		done = 16 * blocks
	}
	columnsF32Go(dst[done:], x[done*m:], m, n-done, ds)
}

// SumSqRowsF32F64 adds SumSqF32F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu); if four, four rows at a time (Note [Four streams]), the
// same bits. Its exact order is sumSqRowsStreamsF32F64Go's.
func SumSqRowsF32F64(dst []float64, x []float32, rowLen, stride int, four bool) {
	sumRowsF32(dst, x, rowLen, stride, four, true)
}

// sumSqRows4F32F64 is sumSqRowsF32F64Go's kernel on 4q rows, read four at
// a time (Note [Four streams]); x holds the rows exactly.
func sumSqRows4F32F64(dst []float64, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		sumSqRows4F32F64AVX512(dst, x, rowLen, stride)
	case useAVX2:
		sumSqRows4F32F64AVX2(dst, x, rowLen, stride)
	default:
		sumSqRowsF32F64Go(dst, x, rowLen, stride)
	}
}

// sumSqRows1F32F64 is sumSqRowsF32F64Go's kernel, the rows one after
// another; x holds the rows exactly.
func sumSqRows1F32F64(dst []float64, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		sumSqRowsF32F64AVX512(dst, x, rowLen, stride)
	case useAVX2:
		sumSqRowsF32F64AVX2(dst, x, rowLen, stride)
	default:
		sumSqRowsF32F64Go(dst, x, rowLen, stride)
	}
}

// ProdRowsF32 multiplies ProdF32 of row r, x[r·stride:][:rowLen], into
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu); if four, four rows at a time (Note [Four streams]), the
// same bits. Its exact order is prodRowsF32Go's.
func ProdRowsF32(dst []float32, x []float32, rowLen, stride int, four bool) {
	if len(dst) == 0 {
		return
	}
	m4 := fourRows(len(dst), four)
	if m4 > 0 {
		prodRows4F32(dst[:m4], x[:rowsSpan(m4, rowLen, stride)], rowLen, stride)
	}
	if m4 == len(dst) {
		return
	}
	dst, x = dst[m4:], x[m4*stride:][:rowsSpan(len(dst)-m4, rowLen, stride)]
	switch {
	case useAVX512:
		prodRowsF32AVX512(dst, x, rowLen, stride)
	case useAVX2:
		prodRowsF32AVX2(dst, x, rowLen, stride)
	default:
		prodRowsF32Go(dst, x, rowLen, stride)
	}
}

// prodRows4F32 is prodRowsF32Go's kernel on 4q rows, read four at a time.
func prodRows4F32(dst, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		prodRows4F32AVX512(dst, x, rowLen, stride)
	case useAVX2:
		prodRows4F32AVX2(dst, x, rowLen, stride)
	default:
		prodRowsF32Go(dst, x, rowLen, stride)
	}
}

// ProdF32 returns Π x[i], multiplied in 16 lanes, 4 accumulators of
// them, merged pairwise. Its exact order is prodF32Go's.
func ProdF32(x []float32) float32 {
	switch {
	case useAVX512:
		return prodF32AVX512(x)
	case useAVX2:
		return prodF32AVX2(x)
	}
	return prodF32Go(x)
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
	// AVX-512: the blocks of 16 in assembly, the rest as the twin ends
	n := len(dst) &^ 15
	var a [2][8]float32
	if useAVX512 {
		expSubSumBlocksF32AVX512(dst[:n], x[:n], m, &a)
		return expSubSumEnd(dst, x, m, n, &a)
	}
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

// SumF32InF64 returns Σ float64(x[i]), every add in float64 (16 lanes,
// merged pairwise). Its exact loop is sumF32InF64Go's.
func SumF32InF64(x []float32) float64 {
	if !useAVX2 {
		return sumF32InF64Go(x)
	}
	return sumF32InF64AVX2(x)
}

// SumF32InF64Rows4 sets s[k] to SumF32InF64(x[k·stride:][:n]), the same
// bits, for k < 4, the four rows read together as four streams (Note
// [Four streams]). Its exact loop is sumF32InF64Rows4Go's, then
// sumF32InF64Rows4End's.
func SumF32InF64Rows4(s *[4]float64, x []float32, stride, n int) {
	if n <= 0 {
		*s = [4]float64{}
		return
	}
	x = x[:3*stride+n]
	var acc [4][16]float64
	switch {
	case useAVX512:
		sumF32InF64Rows4AVX512(&acc, &x[0], stride, n)
	case useAVX2:
		sumF32InF64Rows4AVX2(&acc, &x[0], stride, n)
	default:
		sumF32InF64Rows4Go(&acc, x, stride, n)
	}
	sumF32InF64Rows4End(s, &acc, x, stride, n)
}

// SumSqDevF32InF64Rows4 sets s[k] to SumSqDevF32InF64(x[k·stride:][:n],
// m[k]), the same bits, for k < 4. At AVX-512 the four rows are folded
// together, eight chains of adds where one row has two: its exact loop is
// then sumSqDevF32InF64Rows4Go's, then sumSqDevF32InF64Rows4End's. Below,
// a row at a time, its AVX2 kernel's four chains kept.
func SumSqDevF32InF64Rows4(s *[4]float64, x []float32, stride, n int, m *[4]float64) {
	if n <= 0 {
		*s = [4]float64{}
		return
	}
	x = x[:3*stride+n]
	var acc [4][16]float64
	switch {
	case useAVX512:
		sumSqDevF32InF64Rows4AVX512(&acc, &x[0], stride, n, m)
	case useAVX2:
		for k := range s {
			s[k] = sumSqDevF32InF64AVX2(x[k*stride:][:n], m[k])
		}
		return
	default:
		sumSqDevF32InF64Rows4Go(&acc, x, stride, n, m)
	}
	sumSqDevF32InF64Rows4End(s, &acc, x, stride, n, m)
}

// SumSqDevF32InF64 returns Σ (float64(x[i])-m)², each square added in
// float64 with one rounding. Its exact loop is sumSqDevF32InF64Go's.
func SumSqDevF32InF64(x []float32, m float64) float64 {
	if !useAVX2 {
		return sumSqDevF32InF64Go(x, m)
	}
	return sumSqDevF32InF64AVX2(x, m)
}

// SumSqDevF64 returns Σ (x[i]-m)², each square added with one rounding.
// Its exact loop is sumSqDevF64Go's.
func SumSqDevF64(x []float64, m float64) float64 {
	if !useAVX2 {
		return sumSqDevF64Go(x, m)
	}
	return sumSqDevF64AVX2(x, m)
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

// SumF32F64 returns Σ x[i]: 16 elements at a time added lane by lane
// pairwise in float32, their sums in float64 lanes (Note [Sixteen
// lanes]), a long x as four quarters, read together if four (Note [Four
// streams]). Its exact order is sumStreamsF32F64Go's.
func SumF32F64(x []float32, four bool) float64 { return sumQuartersF32(x, four, false) }

// SumRowsF32F64 adds SumF32F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu); if four, four rows at a time (Note [Four streams]), the
// same bits. Its exact order is sumRowsStreamsF32F64Go's.
func SumRowsF32F64(dst []float64, x []float32, rowLen, stride int, four bool) {
	sumRowsF32(dst, x, rowLen, stride, four, false)
}

// sumQuartersF32 is SumF32F64, or SumSqF32F64 if sq. Its kernels are
// called directly, not through func values, so that the quarters' sums
// stay on the stack.
func sumQuartersF32(x []float32, four, sq bool) float64 {
	q := quarterLen(len(x))
	if q == 0 {
		return sumRunF32(x, sq)
	}
	var s [4]float64
	switch {
	case four && sq:
		sumSqRows4F32F64(s[:], x[:4*q], q, q)
	case four:
		sumRows4F32F64(s[:], x[:4*q], q, q)
	default:
		for k := range s {
			s[k] += sumRunF32(x[k*q:][:q], sq)
		}
	}
	return addQuarters(&s) + sumRunF32(x[4*q:], sq)
}

// sumRunF32 is sumRunF32F64, or sumSqRunF32F64 if sq.
func sumRunF32(x []float32, sq bool) float64 {
	if sq {
		return sumSqRunF32F64(x)
	}
	return sumRunF32F64(x)
}

// sumRowsF32 is SumRowsF32F64, or SumSqRowsF32F64 if sq, calling its
// kernels directly so that dst may live on the caller's stack.
func sumRowsF32(dst []float64, x []float32, rowLen, stride int, four, sq bool) {
	if len(dst) == 0 {
		return
	}
	if quarterLen(rowLen) > 0 {
		for r := range dst {
			dst[r] += sumQuartersF32(x[r*stride:][:rowLen], four, sq)
		}
		return
	}
	m4 := fourRows(len(dst), four)
	if m4 > 0 {
		d, rows := dst[:m4], x[:rowsSpan(m4, rowLen, stride)]
		if sq {
			sumSqRows4F32F64(d, rows, rowLen, stride)
		} else {
			sumRows4F32F64(d, rows, rowLen, stride)
		}
	}
	if m4 < len(dst) {
		d, rows := dst[m4:], x[m4*stride:][:rowsSpan(len(dst)-m4, rowLen, stride)]
		if sq {
			sumSqRows1F32F64(d, rows, rowLen, stride)
		} else {
			sumRows1F32F64(d, rows, rowLen, stride)
		}
	}
}

// sumRunF32F64 is sumF32F64Go's kernel: x summed as one stream.
func sumRunF32F64(x []float32) float64 {
	switch {
	case useAVX512:
		return sumF32F64AVX512(x)
	case useAVX2:
		return sumF32F64AVX2(x)
	}
	return sumF32F64Go(x)
}

// sumRows4F32F64 is sumRowsF32F64Go's kernel on 4q rows, read four at a
// time (Note [Four streams]); x holds the rows exactly.
func sumRows4F32F64(dst []float64, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		sumRows4F32F64AVX512(dst, x, rowLen, stride)
	case useAVX2:
		sumRows4F32F64AVX2(dst, x, rowLen, stride)
	default:
		sumRowsF32F64Go(dst, x, rowLen, stride)
	}
}

// sumRows1F32F64 is sumRowsF32F64Go's kernel, the rows one after another;
// x holds the rows exactly.
func sumRows1F32F64(dst []float64, x []float32, rowLen, stride int) {
	switch {
	case useAVX512:
		sumRowsF32F64AVX512(dst, x, rowLen, stride)
	case useAVX2:
		sumRowsF32F64AVX2(dst, x, rowLen, stride)
	default:
		sumRowsF32F64Go(dst, x, rowLen, stride)
	}
}

// SumBF16F64 is SumF32F64 of the bfloat16 elements x[i] (their bits),
// converted exactly to float32 as they are read. Its exact order is
// sumStreamsBF16F64Go's.
func SumBF16F64(x []uint16, four bool) float64 { return sumQuarters16(x, four, false) }

// SumF16F64 is SumF32F64 of the float16 elements x[i] (their bits),
// converted exactly to float32 as they are read. Its exact order is
// sumStreamsF16F64Go's.
func SumF16F64(x []uint16, four bool) float64 { return sumQuarters16(x, four, true) }

// SumRowsBF16F64 adds SumBF16F64 of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst), in one loop (Note [Rows in one call] in
// backend/cpu); if four, four rows at a time (Note [Four streams]), the
// same bits. Its exact order is sumRowsStreamsBF16F64Go's.
func SumRowsBF16F64(dst []float64, x []uint16, rowLen, stride int, four bool) {
	sumRows16(dst, x, rowLen, stride, four, false)
}

// SumRowsF16F64 adds SumF16F64 of row r, x[r·stride:][:rowLen], to dst[r]
// for each r < len(dst), in one loop; if four, four rows at a time, the
// same bits. Its exact order is sumRowsStreamsF16F64Go's.
func SumRowsF16F64(dst []float64, x []uint16, rowLen, stride int, four bool) {
	sumRows16(dst, x, rowLen, stride, four, true)
}

// sumRows16 is SumRowsBF16F64, or SumRowsF16F64 if f16: sumRowsF32's
// split of the rows over 16-bit elements.
func sumRows16(dst []float64, x []uint16, rowLen, stride int, four, f16 bool) {
	if len(dst) == 0 {
		return
	}
	if quarterLen(rowLen) > 0 {
		for r := range dst {
			dst[r] += sumQuarters16(x[r*stride:][:rowLen], four, f16)
		}
		return
	}
	m4 := fourRows(len(dst), four)
	if m4 > 0 {
		d, rows := dst[:m4], x[:rowsSpan(m4, rowLen, stride)]
		if f16 {
			sumRows4F16F64(d, rows, rowLen, stride)
		} else {
			sumRows4BF16F64(d, rows, rowLen, stride)
		}
	}
	if m4 < len(dst) {
		d, rows := dst[m4:], x[m4*stride:][:rowsSpan(len(dst)-m4, rowLen, stride)]
		switch {
		case useAVX512 && f16:
			sumRowsF16F64AVX512(d, rows, rowLen, stride)
		case useAVX512:
			sumRowsBF16F64AVX512(d, rows, rowLen, stride)
		case useF16C && f16:
			sumRowsF16F64AVX2(d, rows, rowLen, stride)
		case useAVX2 && !f16:
			sumRowsBF16F64AVX2(d, rows, rowLen, stride)
		case f16:
			sumRowsF16F64Go(d, rows, rowLen, stride)
		default:
			sumRowsBF16F64Go(d, rows, rowLen, stride)
		}
	}
}

// sumQuarters16 is SumBF16F64, or SumF16F64 if f16, its kernels called
// directly as sumQuartersF32's are.
func sumQuarters16(x []uint16, four, f16 bool) float64 {
	q := quarterLen(len(x))
	if q == 0 {
		return sumRun16(x, f16)
	}
	var s [4]float64
	switch {
	case four && f16:
		sumRows4F16F64(s[:], x[:4*q], q, q)
	case four:
		sumRows4BF16F64(s[:], x[:4*q], q, q)
	default:
		for k := range s {
			s[k] += sumRun16(x[k*q:][:q], f16)
		}
	}
	return addQuarters(&s) + sumRun16(x[4*q:], f16)
}

// sumRun16 is sumRunBF16F64, or sumRunF16F64 if f16.
func sumRun16(x []uint16, f16 bool) float64 {
	if f16 {
		return sumRunF16F64(x)
	}
	return sumRunBF16F64(x)
}

// sumRunBF16F64 is sumBF16F64Go's kernel: x read as one stream.
func sumRunBF16F64(x []uint16) float64 {
	switch {
	case useAVX512:
		return sumBF16F64AVX512(x)
	case useAVX2:
		return sumBF16F64AVX2(x)
	}
	return sumBF16F64Go(x)
}

// sumRows4BF16F64 is sumRowsBF16F64Go's kernel on 4q rows, read four at a
// time; x holds the rows exactly.
func sumRows4BF16F64(dst []float64, x []uint16, rowLen, stride int) {
	switch {
	case useAVX512:
		sumRows4BF16F64AVX512(dst, x, rowLen, stride)
	case useAVX2:
		sumRows4BF16F64AVX2(dst, x, rowLen, stride)
	default:
		sumRowsBF16F64Go(dst, x, rowLen, stride)
	}
}

// sumRunF16F64 is sumF16F64Go's kernel: x read as one stream.
func sumRunF16F64(x []uint16) float64 {
	switch {
	case useAVX512:
		return sumF16F64AVX512(x)
	case useF16C:
		return sumF16F64AVX2(x)
	}
	return sumF16F64Go(x)
}

// sumRows4F16F64 is sumRowsF16F64Go's kernel on 4q rows, read four at a
// time; x holds the rows exactly.
func sumRows4F16F64(dst []float64, x []uint16, rowLen, stride int) {
	switch {
	case useAVX512:
		sumRows4F16F64AVX512(dst, x, rowLen, stride)
	case useF16C:
		sumRows4F16F64AVX2(dst, x, rowLen, stride)
	default:
		sumRowsF16F64Go(dst, x, rowLen, stride)
	}
}

// SumSqF32F64 returns Σ x[i]², each square exact in float64 and added in
// float64 lanes, a long x as four quarters, read together if four (Note
// [Four streams]). Its exact order is sumSqStreamsF32F64Go's.
func SumSqF32F64(x []float32, four bool) float64 { return sumQuartersF32(x, four, true) }

// sumSqRunF32F64 is sumSqF32F64Go's kernel: x read as one stream.
func sumSqRunF32F64(x []float32) float64 {
	switch {
	case useAVX512:
		return sumSqF32F64AVX512(x)
	case useAVX2:
		return sumSqF32F64AVX2(x)
	}
	return sumSqF32F64Go(x)
}

// SumRows8F32 sets dst[i] = ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i]
// + x5[i]) + (x6[i] + x7[i])). Its exact loop is sumRows8F32Go's.
func SumRows8F32(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		sumRows8F32AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useAVX2:
		sumRows8F32AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		sumRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
}

// SumRows8RunF32 runs the q passes of an outer float32 sum over rows of
// len(st) elements, stride elements apart, in one call (Note [Rows in
// registers] in package backend/cpu): pass j sets blk (when j mod 8 = 0)
// or adds to it (SumRows8F32, AccRows8F32) rows j, j+q, ..., j+7q, and
// blk goes into the float64 states st after every eighth pass and the
// last (AccF32F64). blk holds len(st) elements of scratch. Its exact loop
// is sumRows8RunF32Go's.
func SumRows8RunF32(st []float64, blk, x []float32, stride, q int) {
	run8Bounds(st, blk, x, stride, q)
	if len(st) > 0 && q > 0 && useAVX512 {
		sumRows8RunF32AVX512(&st[0], &x[0], stride, q, len(st))
		return
	}
	sumRows8Run(st, blk, x, stride, q, SumRows8F32, AccRows8F32, AccF32F64)
}

// AccRows8F32 sets dst[i] += ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i]
// + x5[i]) + (x6[i] + x7[i])). Its exact loop is accRows8F32Go's.
func AccRows8F32(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		accRows8F32AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useAVX2:
		accRows8F32AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		accRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
}

// SumRows8BF16 is SumRows8F32 of bfloat16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// sumRows8BF16Go's.
func SumRows8BF16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		sumRows8BF16AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useAVX2:
		sumRows8BF16AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		sumRows8BF16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
}

// AccRows8BF16 is AccRows8F32 of bfloat16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// accRows8BF16Go's.
func AccRows8BF16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		accRows8BF16AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useAVX2:
		accRows8BF16AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		accRows8BF16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
}

// SumRows8F16 is SumRows8F32 of float16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// sumRows8F16Go's.
func SumRows8F16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		sumRows8F16AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useF16C:
		sumRows8F16AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		sumRows8F16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
}

// AccRows8F16 is AccRows8F32 of float16 rows (their bits), each element
// converted exactly to float32 as it is read. Its exact loop is
// accRows8F16Go's.
func AccRows8F16(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	switch {
	case useAVX512:
		accRows8F16AVX512(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	case useF16C:
		accRows8F16AVX2(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	default:
		accRows8F16Go(dst, x0, x1, x2, x3, x4, x5, x6, x7)
	}
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

// CumAccRows4F32F64 runs CumAccF32F64 on the rows x[r·xs:] and y[r·ys:]
// for r = 0, 1, 2, 3 in turn, the same bits, reading the four rows of x
// together (Note [Four streams]) and acc once. Its exact loop is
// cumAccRows4F32F64Go's.
func CumAccRows4F32F64(acc []float64, x []float32, xs int, y []float32, ys int) {
	n := len(acc)
	if n == 0 {
		return
	}
	x, y = x[:3*xs+n], y[:3*ys+n]
	if !useAVX2 {
		cumAccRows4F32F64Go(acc, x, xs, y, ys)
		return
	}
	m := n &^ 3
	if m > 0 {
		cumAccRows4F32F64AVX2(acc[:m], &x[0], xs, &y[0], ys)
	}
	if m < n {
		cumAccRows4F32F64Go(acc[m:], x[m:], xs, y[m:], ys)
	}
}

// MaxAccF32 sets dst[i] = x[i] where x[i] > dst[i] or x[i] is NaN: one row
// of a max over an outer dim, NaN propagating. Its exact loop is
// maxAccF32Go's.
func MaxAccF32(dst, x []float32) {
	if !useAVX2 {
		maxAccF32Go(dst, x)
		return
	}
	maxAccF32AVX2(dst, x[:len(dst)])
}

// MaxAccRowsF32 folds rows rows of x, stride elements apart, into dst as
// MaxAccF32 on each in turn: dst[i] = x[r·stride+i] where that is above
// dst[i] or NaN, r from 0 up (Note [Rows in registers] in package
// backend/cpu). Its exact loop is maxAccRowsF32Go's.
func MaxAccRowsF32(dst, x []float32, stride, rows int) {
	if c := accRowsBounds(dst, x, stride, rows); c > 0 && useAVX512 {
		maxAccRowsF32AVX512(&dst[0], &x[0], 4*stride, rows, c)
		return
	}
	eachRow(dst, x, stride, rows, MaxAccF32)
}

// MinAccRowsF32 is MaxAccRowsF32 with MinAccF32's test: x[r·stride+i]
// below dst[i] or NaN. Its exact loop is minAccRowsF32Go's.
func MinAccRowsF32(dst, x []float32, stride, rows int) {
	if c := accRowsBounds(dst, x, stride, rows); c > 0 && useAVX512 {
		minAccRowsF32AVX512(&dst[0], &x[0], 4*stride, rows, c)
		return
	}
	eachRow(dst, x, stride, rows, MinAccF32)
}

// MulAccRowsF32 multiplies rows rows of x, stride elements apart, into
// dst as MulF32(dst, dst, row) on each in turn (Note [Rows in registers]
// in package backend/cpu). Its exact loop is mulAccRowsF32Go's.
func MulAccRowsF32(dst, x []float32, stride, rows int) {
	if c := accRowsBounds(dst, x, stride, rows); c > 0 && useAVX512 {
		mulAccRowsF32AVX512(&dst[0], &x[0], 4*stride, rows, c)
		return
	}
	eachRow(dst, x, stride, rows, func(dst, x []float32) { MulF32(dst, dst, x) })
}

// ArgMaxAccRowsF32 folds rows rows of x, stride elements apart, into the
// ArgMax states v (values) and ix (indices), row r having index i0+r: an
// element replaces its state where it is above the value, or NaN where
// the value is not (Note [Rows in registers] in package backend/cpu).
// Its exact loop is argMaxAccRowsF32Go's.
func ArgMaxAccRowsF32(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	ix = ix[:len(v)]
	if c := accRowsBounds(v, x, stride, rows); c > 0 && useAVX512 {
		argMaxAccRowsF32AVX512(&v[0], &ix[0], &x[0], 4*stride, rows, c, i0)
		return
	}
	argMaxAccRowsF32Go(v, ix, x, stride, rows, i0)
}

// ArgMinAccRowsF32 is ArgMaxAccRowsF32 for ArgMin: an element replaces
// its state where it is below the value, or NaN where the value is not.
// Its exact loop is argMinAccRowsF32Go's.
func ArgMinAccRowsF32(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	ix = ix[:len(v)]
	if c := accRowsBounds(v, x, stride, rows); c > 0 && useAVX512 {
		argMinAccRowsF32AVX512(&v[0], &ix[0], &x[0], 4*stride, rows, c, i0)
		return
	}
	argMinAccRowsF32Go(v, ix, x, stride, rows, i0)
}

// MinAccF32 sets dst[i] = x[i] where x[i] < dst[i] or x[i] is NaN. Its
// exact loop is minAccF32Go's.
func MinAccF32(dst, x []float32) {
	if !useAVX2 {
		minAccF32Go(dst, x)
		return
	}
	minAccF32AVX2(dst, x[:len(dst)])
}

// WelfordChunkBF16 is elem.WelfordChunkBF16, bit for bit: the Welford
// steps of PyTorch's bfloat16 layer_norm moments over the whole 16-lane
// vectors of x (at most 16), in 16 lanes.
func WelfordChunkBF16(m *[2][16]float32, x []float32, coef *[16]float32) {
	if len(x)/16 > len(coef) {
		panic("vec: WelfordChunkBF16 of more than 16 vectors")
	}
	if !useAVX2 {
		optelem.WelfordChunkBF16(m, x, coef)
		return
	}
	welfordChunkBF16AVX2(m, x, coef)
}

// MergeLanesBF16 is elem.MergeLanesBF16, bit for bit: AddMoments of
// PyTorch's bfloat16 layer_norm moments on 16 lanes.
func MergeLanesBF16(w, m *[2][16]float32, c, wn float32) {
	if !useAVX2 {
		optelem.MergeLanesBF16(w, m, c, wn)
		return
	}
	mergeLanesBF16AVX2(w, m, c, wn)
}
