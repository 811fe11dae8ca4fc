package vec

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Pure-Go twins of the reduction primitives (asm/reduce.go). A fold keeps
// 4 accumulators of 8 float32 lanes (4 lanes for float64; expSubSumF32
// keeps 2): the main loop adds 32 elements per step, element i into lane
// i%8 of accumulator (i/8)%4; then single vectors go into accumulator 0;
// the accumulators are merged (0⊕1, 2⊕3, 0⊕2), the lanes pairwise (l with
// l+4, then l with l+2, then 0 with 1), and the remaining elements are
// folded into the scalar one at a time.
//
// Note [Sixteen lanes]
//
// The float32 row sums, products, max and min and the outer sum of eight
// rows (SumF32F64, SumSqF32F64, ProdF32, MaxF32, MinF32, SumRows8F32,
// AccRows8F32;
// SumBF16F64 and SumF16F64 on their converted elements; IndexF32 too,
// whose result does not depend on lanes) are defined on vectors of 16
// lanes, the width of an AVX-512 register: with AVX-512 (asm/reduce16.go,
// zz_reduce512_amd64.s) a vector is one ZMM register, with AVX2 two YMM
// registers (lanes 0-7, 8-15) that every step treats alike. So every level
// (Note [Kernel levels] in package cpufeat) adds the same elements in the
// same order and gives the same bits, its twin's: a result does not
// depend on the machine. The AVX-512 forms are twice as wide per
// instruction, which matters where a core's loads, not memory, set the
// speed.

// sumF32Go is SumF32's pure-Go twin, its exact loop:
//
//	var a [4][8]float32
//	i := 0
//	for ; i+32 <= len(x); i += 32 {
//		for k := range a {
//			for l := range a[k] {
//				a[k][l] += x[i+8*k+l]
//			}
//		}
//	}
//	for ; i+8 <= len(x); i += 8 {
//		for l := range a[0] {
//			a[0][l] += x[i+l]
//		}
//	}
//	for l := range a[0] {
//		a[0][l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l])
//	}
//	h := a[0]
//	s := ((h[0] + h[4]) + (h[2] + h[6])) + ((h[1] + h[5]) + (h[3] + h[7]))
//	for ; i < len(x); i++ {
//		s += x[i]
//	}
//	return s
func sumF32Go(x []float32) float32 {
	var a [4][8]float32
	i := 0
	for ; i+32 <= len(x); i += 32 {
		for k := range a {
			for l := range a[k] {
				a[k][l] += x[i+8*k+l]
			}
		}
	}
	for ; i+8 <= len(x); i += 8 {
		for l := range a[0] {
			a[0][l] += x[i+l]
		}
	}
	for l := range a[0] {
		a[0][l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l])
	}
	h := a[0]
	s := ((h[0] + h[4]) + (h[2] + h[6])) + ((h[1] + h[5]) + (h[3] + h[7]))
	for ; i < len(x); i++ {
		s += x[i]
	}
	return s
}

// sumF64Go is SumF64's pure-Go twin: sumF32Go's loop with 4 lanes per
// accumulator (16 elements per main step) and s := (h[0] + h[2]) + (h[1] + h[3]).
func sumF64Go(x []float64) float64 {
	var a [4][4]float64
	i := 0
	for ; i+16 <= len(x); i += 16 {
		for k := range a {
			for l := range a[k] {
				a[k][l] += x[i+4*k+l]
			}
		}
	}
	for ; i+4 <= len(x); i += 4 {
		for l := range a[0] {
			a[0][l] += x[i+l]
		}
	}
	for l := range a[0] {
		a[0][l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l])
	}
	h := a[0]
	s := (h[0] + h[2]) + (h[1] + h[3])
	for ; i < len(x); i++ {
		s += x[i]
	}
	return s
}

// gt is a > b ? a : b, VMAXPS's rule (a NaN or an equal a gives b).
func gt[T float32 | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// lt is a < b ? a : b, VMINPS's rule.
func lt[T float32 | float64](a, b T) T {
	if a < b {
		return a
	}
	return b
}

// maxF32Go is MaxF32's pure-Go twin, on 16 lanes (Note [Sixteen lanes]):
// four accumulators a[k] of 16 lanes start at -Inf; the main loop folds
// 64 elements per step, element i into lane i%16 of accumulator (i/16)%4,
// a = gt(x, a); single vectors go into a[0]; the accumulators merge as
// gt(gt(a0, a1), gt(a2, a3)), the lanes as h[l] = gt(h[l], h[l+w]) for
// w = 8, 4, 2, 1; the rest folds into s = gt(x, s); nan tells whether an
// element is NaN:
//
//	var a [4][16]float32 // every lane -Inf
//	i := 0
//	for ; i+64 <= len(x); i += 64 {
//		for k := range a {
//			for l := range a[k] {
//				a[k][l] = gt(x[i+16*k+l], a[k][l])
//			}
//		}
//	}
//	for ; i+16 <= len(x); i += 16 {
//		for l := range a[0] {
//			a[0][l] = gt(x[i+l], a[0][l])
//		}
//	}
//	h := a[0]
//	for l := range h {
//		h[l] = gt(gt(a[0][l], a[1][l]), gt(a[2][l], a[3][l]))
//	}
//	for w := 8; w > 0; w /= 2 {
//		for l := 0; l < w; l++ {
//			h[l] = gt(h[l], h[l+w])
//		}
//	}
//	s := h[0]
//	for ; i < len(x); i++ {
//		s = gt(x[i], s)
//	}
//	return s, nan
func maxF32Go(x []float32) (m float32, nan bool) {
	return foldMax16(x, float32(math.Inf(-1)), gt[float32])
}

// minF32Go is MinF32's pure-Go twin: maxF32Go's loop with +Inf and lt.
func minF32Go(x []float32) (m float32, nan bool) {
	return foldMax16(x, float32(math.Inf(1)), lt[float32])
}

// maxRowsF32Go is MaxRowsF32's pure-Go twin: dst[r] is maxF32Go of row r,
// x[r·stride:][:rowLen], or NaN where the row holds one.
func maxRowsF32Go(dst, x []float32, rowLen, stride int) {
	extremeRows(dst, x, rowLen, stride, maxF32Go)
}

// minRowsF32Go is MinRowsF32's pure-Go twin: maxRowsF32Go with minF32Go.
func minRowsF32Go(dst, x []float32, rowLen, stride int) {
	extremeRows(dst, x, rowLen, stride, minF32Go)
}

// extremeRows sets dst[r] to fold of row r, or NaN where the row holds
// one.
func extremeRows(dst, x []float32, rowLen, stride int, fold func([]float32) (float32, bool)) {
	for r := range dst {
		m, nan := fold(x[r*stride:][:rowLen])
		if nan {
			m = float32(math.NaN())
		}
		dst[r] = m
	}
}

// fourRows returns how many of m rows a kernel reads four at a time
// (Note [Four streams]): 4q of them if four, none otherwise.
func fourRows(m int, four bool) int {
	if four {
		return m &^ 3
	}
	return 0
}

// rowsSpan is the number of elements m > 0 rows of rowLen elements,
// stride apart, span.
func rowsSpan(m, rowLen, stride int) int { return (m-1)*stride + rowLen }

func foldMax16(x []float32, init float32, op func(a, b float32) float32) (float32, bool) {
	var a [4][16]float32
	for k := range a {
		for l := range a[k] {
			a[k][l] = init
		}
	}
	nan := false
	i := 0
	for ; i+64 <= len(x); i += 64 {
		for k := range a {
			for l := range a[k] {
				v := x[i+16*k+l]
				nan = nan || v != v
				a[k][l] = op(v, a[k][l])
			}
		}
	}
	for ; i+16 <= len(x); i += 16 {
		for l := range a[0] {
			v := x[i+l]
			nan = nan || v != v
			a[0][l] = op(v, a[0][l])
		}
	}
	var h [16]float32
	for l := range h {
		h[l] = op(op(a[0][l], a[1][l]), op(a[2][l], a[3][l]))
	}
	for w := 8; w > 0; w /= 2 {
		for l := 0; l < w; l++ {
			h[l] = op(h[l], h[l+w])
		}
	}
	s := h[0]
	for ; i < len(x); i++ {
		v := x[i]
		nan = nan || v != v
		s = op(v, s)
	}
	return s, nan
}

// maxF64Go is MaxF64's pure-Go twin: sumF64Go's loop (4 accumulators of
// 4 lanes, merged 0⊕1, 2⊕3, 0⊕2, the lanes (0⊕2)⊕(1⊕3)) with the
// accumulators starting at -Inf, a = gt(x, a), every merge a ⊕ b = gt(a, b).
func maxF64Go(x []float64) (m float64, nan bool) { return foldMax64(x, math.Inf(-1), gt[float64]) }

// minF64Go is MinF64's pure-Go twin.
func minF64Go(x []float64) (m float64, nan bool) { return foldMax64(x, math.Inf(1), lt[float64]) }

func foldMax64(x []float64, init float64, op func(a, b float64) float64) (float64, bool) {
	var a [4][4]float64
	for k := range a {
		for l := range a[k] {
			a[k][l] = init
		}
	}
	nan := false
	i := 0
	for ; i+16 <= len(x); i += 16 {
		for k := range a {
			for l := range a[k] {
				v := x[i+4*k+l]
				nan = nan || v != v
				a[k][l] = op(v, a[k][l])
			}
		}
	}
	for ; i+4 <= len(x); i += 4 {
		for l := range a[0] {
			v := x[i+l]
			nan = nan || v != v
			a[0][l] = op(v, a[0][l])
		}
	}
	for l := range a[0] {
		a[0][l] = op(op(a[0][l], a[1][l]), op(a[2][l], a[3][l]))
	}
	h := a[0]
	s := op(op(h[0], h[2]), op(h[1], h[3]))
	for ; i < len(x); i++ {
		v := x[i]
		nan = nan || v != v
		s = op(v, s)
	}
	return s, nan
}

// The constants of exp32 (Cephes' expf).
const (
	expLo    = float32(-87.33654)
	expLog2e = float32(1.44269504088896341)
	expC1    = float32(0.693359375)
	expC2    = float32(-2.12194440e-4)
)

var expPoly = [6]float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}

// exp32 is e^v in float32 (within 2 ulp), exactly as expSubSumF32AVX2
// computes it: 0 for v below expLo or NaN; v must be at most 88.
func exp32(v float32) float32 {
	if !(v >= expLo) {
		return 0
	}
	n := float32(math.RoundToEven(float64(v * expLog2e)))
	r := fmaF32(-n, expC1, v)
	r = fmaF32(-n, expC2, r)
	p := expPoly[0]
	for _, c := range expPoly[1:] {
		p = fmaF32(p, r, c)
	}
	p = fmaF32(p, r*r, r) + 1
	return p * math.Float32frombits(uint32(int32(n)+127)<<23)
}

// expSubSumF32Go is ExpSubSumF32's pure-Go twin: dst[i] = exp32(x[i] - m),
// summed in sumF32Go's order but with 2 accumulators (16 elements per main
// step, merged 0⊕1).
func expSubSumF32Go(dst, x []float32, m float32) float32 {
	x = x[:len(dst)]
	var a [2][8]float32
	i := 0
	for ; i+16 <= len(x); i += 16 {
		for k := range a {
			for l := range a[k] {
				e := exp32(x[i+8*k+l] - m)
				dst[i+8*k+l] = e
				a[k][l] += e
			}
		}
	}
	return expSubSumEnd(dst, x, m, i, &a)
}

// expSubSumEnd ends expSubSumF32Go's loop from element i (past its blocks
// of 16), a holding the blocks' accumulators: the vectors of 8, the
// merge, the lanes and the last elements.
func expSubSumEnd(dst, x []float32, m float32, i int, a *[2][8]float32) float32 {
	for ; i+8 <= len(x); i += 8 {
		for l := range a[0] {
			e := exp32(x[i+l] - m)
			dst[i+l] = e
			a[0][l] += e
		}
	}
	for l := range a[0] {
		a[0][l] += a[1][l]
	}
	h := a[0]
	s := ((h[0] + h[4]) + (h[2] + h[6])) + ((h[1] + h[5]) + (h[3] + h[7]))
	for ; i < len(x); i++ {
		e := exp32(x[i] - m)
		dst[i] = e
		s += e
	}
	return s
}

// sumSqDevF32Go is SumSqDevF32's pure-Go twin: sumF32Go's loop adding
// d·d, d = x[i] - m, with one rounding: a[k][l] = fmaF32(d, d, a[k][l]).
func sumSqDevF32Go(x []float32, m float32) float32 {
	var a [4][8]float32
	i := 0
	for ; i+32 <= len(x); i += 32 {
		for k := range a {
			for l := range a[k] {
				d := x[i+8*k+l] - m
				a[k][l] = fmaF32(d, d, a[k][l])
			}
		}
	}
	for ; i+8 <= len(x); i += 8 {
		for l := range a[0] {
			d := x[i+l] - m
			a[0][l] = fmaF32(d, d, a[0][l])
		}
	}
	for l := range a[0] {
		a[0][l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l])
	}
	h := a[0]
	s := ((h[0] + h[4]) + (h[2] + h[6])) + ((h[1] + h[5]) + (h[3] + h[7]))
	for ; i < len(x); i++ {
		d := x[i] - m
		s = fmaF32(d, d, s)
	}
	return s
}

// sumF32InF64Go is SumF32InF64's pure-Go twin: sumF64Go's loop over the
// elements converted (exactly) to float64.
func sumF32InF64Go(x []float32) float64 { return foldInF64(x, addF64) }

// sumSqDevF32InF64Go is SumSqDevF32InF64's pure-Go twin: sumF64Go's loop
// adding d·d, d = float64(x[i]) - m, with one rounding: a[k][l] =
// math.FMA(d, d, a[k][l]).
func sumSqDevF32InF64Go(x []float32, m float64) float64 { return sumSqDevInF64(x, m) }

// sumSqDevF64Go is SumSqDevF64's pure-Go twin: sumSqDevF32InF64Go's loop
// over float64 elements.
func sumSqDevF64Go(x []float64, m float64) float64 { return sumSqDevInF64(x, m) }

// sumSqDevInF64 is sumF64Go's loop adding math.FMA(d, d, a[k][l]), d =
// float64(x[i]) - m.
func sumSqDevInF64[E float32 | float64](x []E, m float64) float64 {
	return foldInF64(x, sqDevAdd(m))
}

// foldInF64 is sumF64Go's loop over float64(x[i]), each element folded
// into its accumulator by add(v, acc) and the accumulators merged by +.
// Its 16 lanes are sumF64Go's a[k][l], lane 4k+l.
func foldInF64[E float32 | float64](x []E, add func(v, acc float64) float64) float64 {
	var a [16]float64
	i := foldInF64Steps(&a, x, add)
	return foldInF64End(&a, x[i:], add)
}

// foldInF64Steps is foldInF64's main steps: element i+e of x, for each
// step of 16 at i, folded into lane e. It returns the elements done.
func foldInF64Steps[E float32 | float64](a *[16]float64, x []E, add func(v, acc float64) float64) int {
	i := 0
	for ; i+16 <= len(x); i += 16 {
		for e := range a {
			a[e] = add(float64(x[i+e]), a[e])
		}
	}
	return i
}

// foldInF64End is foldInF64 after its main steps, on the rest of x (fewer
// than 16 elements): fours into lanes 0-3, the lanes merged, then one by
// one.
func foldInF64End[E float32 | float64](a *[16]float64, x []E, add func(v, acc float64) float64) float64 {
	i := 0
	for ; i+4 <= len(x); i += 4 {
		for l := range 4 {
			a[l] = add(float64(x[i+l]), a[l])
		}
	}
	for l := range 4 {
		a[l] = (a[l] + a[4+l]) + (a[8+l] + a[12+l])
	}
	s := (a[0] + a[2]) + (a[1] + a[3])
	for ; i < len(x); i++ {
		s = add(float64(x[i]), s)
	}
	return s
}

// addF64 is the sums' fold of foldInF64.
func addF64(v, acc float64) float64 { return acc + v }

// sumF32InF64Rows4Go is the kernels' loop of SumF32InF64Rows4: the main
// steps of sumF32InF64Go over the four rows x[k·stride:][:n], each into
// acc[k] (lane e takes element 16j+e of step j), n rounded down to a
// multiple of 16:
//
//	for k := range acc {
//		foldInF64Steps(&acc[k], x[k*stride:][:n&^15], addF64)
//	}
func sumF32InF64Rows4Go(acc *[4][16]float64, x []float32, stride, n int) {
	for k := range acc {
		foldInF64Steps(&acc[k], x[k*stride:][:n&^15], addF64)
	}
}

// sumSqDevF32InF64Rows4Go is the kernel's loop of SumSqDevF32InF64Rows4:
// the main steps of sumSqDevF32InF64Go over the four rows x[k·stride:][:n]
// with means m[k], each into acc[k], n rounded down to a multiple of 16:
//
//	for k := range acc {
//		foldInF64Steps(&acc[k], x[k*stride:][:n&^15], sqDevAdd(m[k]))
//	}
func sumSqDevF32InF64Rows4Go(acc *[4][16]float64, x []float32, stride, n int, m *[4]float64) {
	for k := range acc {
		foldInF64Steps(&acc[k], x[k*stride:][:n&^15], sqDevAdd(m[k]))
	}
}

// sqDevAdd is the fold of sumSqDevInF64 with mean m.
func sqDevAdd(m float64) func(v, acc float64) float64 {
	return func(v, acc float64) float64 {
		d := v - m
		return math.FMA(d, d, acc)
	}
}

// sumF32InF64Rows4End ends SumF32InF64Rows4 after its kernel: row k's
// elements from n&^15 on, and its lanes merged, into s[k], as
// foldInF64End ends one row.
func sumF32InF64Rows4End(s *[4]float64, acc *[4][16]float64, x []float32, stride, n int) {
	for k := range s {
		s[k] = foldInF64End(&acc[k], x[k*stride:][n&^15:n], addF64)
	}
}

// sumSqDevF32InF64Rows4End ends SumSqDevF32InF64Rows4 after its kernel,
// as sumF32InF64Rows4End ends SumF32InF64Rows4, each row with its mean.
// (A shared end taking a func per row made the fold of each row a
// closure on the heap.)
func sumSqDevF32InF64Rows4End(s *[4]float64, acc *[4][16]float64, x []float32, stride, n int, m *[4]float64) {
	for k := range s {
		s[k] = foldInF64End(&acc[k], x[k*stride:][n&^15:n], sqDevAdd(m[k]))
	}
}

// normAffineF32Go is NormAffineF32's pure-Go twin, its exact loop:
//
//	x, w, b = x[:len(dst)], w[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = fmaF32((x[i]-mean)*rstd, w[i], b[i])
//	}
func normAffineF32Go(dst, x, w, b []float32, mean, rstd float32) {
	x, w, b = x[:len(dst)], w[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = fmaF32((x[i]-mean)*rstd, w[i], b[i])
	}
}

// accF32F64Go is AccF32F64's pure-Go twin, its exact loop:
//
//	x = x[:len(dst)]
//	for i := range dst {
//		dst[i] += float64(x[i])
//	}
func accF32F64Go(dst []float64, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += float64(x[i])
	}
}

// Note [Short arg rows]
//
// ArgMax and ArgMin (and Max, Min with their indices) of float32 rows
// took two kernel calls a row, the row's extreme (MaxF32) and its first
// position (IndexF32), which for rows of tens of elements cost more than
// the rows' reading. ArgRowsF32 gives the index of each row's first NaN,
// or else of its first greatest (least) element, for many rows in one
// call; at AVX-512 a first pass over a row's vectors stops at a NaN or
// keeps the lanes' extremes, and a second finds the first element equal
// to the extreme (±0 equal, so the first zero of either sign, as
// IndexF32 finds it).

// columnsF32Go is ColumnsF32's pure-Go twin: dst[j·ds + r] = x[r·m + j]
// for r < n, j < m.
func columnsF32Go(dst, x []float32, m, n, ds int) {
	for r := 0; r < n; r++ {
		for j, v := range x[r*m : r*m+m] {
			dst[j*ds+r] = v
		}
	}
}

// columnsBounds panics unless x holds n rows of m elements and dst m
// columns of n, ds ≥ n apart.
func columnsBounds(dst, x []float32, m, n, ds int) {
	if n <= 0 || m <= 0 {
		return
	}
	if ds < n {
		panic("vec: columns that overlap")
	}
	_, _ = x[n*m-1], dst[(m-1)*ds+n-1]
}

// argRowsF32Go is ArgRowsF32's pure-Go twin: idx[r] is the index in row
// r, x[r·stride:][:rowLen] (rowLen ≥ 1), of its first NaN, or else of its
// first greatest (isMax) or least element, ±0 equal.
func argRowsF32Go(idx []int32, x []float32, rowLen, stride int, isMax bool) {
	for r := range idx {
		row := x[r*stride:][:rowLen]
		best, j := row[0], 0
		for i, v := range row {
			if v != v {
				j = i
				break
			}
			if isMax && v > best || !isMax && v < best {
				best, j = v, i
			}
		}
		idx[r] = int32(j)
	}
}

// sumF32F64Go is SumF32F64's pure-Go twin, on 16 lanes (Note [Sixteen
// lanes]). A main step takes 256 elements as 16 vectors of 16 lanes, adds
// them lane by lane pairwise in float32 (vector k with k+8, then k+4, k+2,
// k+1: four roundings at most), and adds each lane's sum, converted
// exactly, to a float64 lane; single vectors are converted and added
// lane by lane; the lanes merge pairwise and the rest is added one by one:
//
//	var acc [16]float64
//	i := 0
//	for ; i+256 <= len(x); i += 256 {
//		for l := range acc {
//			var v [16]float32
//			for k := range v {
//				v[k] = x[i+16*k+l]
//			}
//			for w := 8; w > 0; w /= 2 {
//				for k := 0; k < w; k++ {
//					v[k] += v[k+w]
//				}
//			}
//			acc[l] += float64(v[0])
//		}
//	}
//	for ; i+16 <= len(x); i += 16 {
//		for l := range acc {
//			acc[l] += float64(x[i+l])
//		}
//	}
//	s := merge16(&acc)
//	for ; i < len(x); i++ {
//		s += float64(x[i])
//	}
//	return s
func sumF32F64Go(x []float32) float64 {
	var acc [16]float64
	i := 0
	for ; i+256 <= len(x); i += 256 {
		sumStep(&acc, (*[256]float32)(x[i:i+256]))
	}
	return sumRest(&acc, x[i:])
}

// sumRowsF32F64Go adds sumF32F64Go of row r, x[r·stride:][:rowLen], to
// dst[r] for each r < len(dst): the twin of the kernels that sum rows one
// after another (sumRowsF32F64AVX2) or four at a time (sumRows4F32F64AVX2,
// on 4q rows).
func sumRowsF32F64Go(dst []float64, x []float32, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumF32F64Go)
}

// Note [Four streams]
//
// One core reading one stream from memory is held to the misses its
// prefetchers keep in flight for that stream; reading four streams at
// once, it keeps about four times as many. On the Zen 3 machines (2^24
// float32, 64 MiB, read by a loop of plain float32 adds, variants
// interleaved 40 times in one process, two runs) one stream per core read
// 9-10 GB/s on one core and 14-17 on two; four streams of at least 16 KiB
// each, 12-15 and 17-20. Four streams 4 KiB long were slower than one, and
// sixteen were slower than four: each stream needs a prefetcher of its
// own, trained over a few pages.
//
// So the float32 sums (of squares, and of bfloat16 and float16 elements
// too), max and min can read long rows as four. SumF32F64 of at least
// 4·streamMin elements is the sum of its four quarters (q elements each,
// q a multiple of 256), added pairwise, and of the rest (fewer than 1024
// elements): sumStreamsF32F64Go. With four set it reads the quarters
// together (sumRows4F32F64), without it one after another; the bits are
// the same, fixed by the length alone. SumRowsF32F64 with four reads rows
// j, j+q, j+2q and j+3q of its 4q first rows together, each row summed in
// sumF32F64Go's order, so a row's bits are those of a call per row; rows
// of at least 4·streamMin elements are each a SumF32F64 of their own.
// MaxRowsF32 and MinRowsF32 read their rows as SumRowsF32F64 does, each
// row folded in maxF32Go's order, and ProdRowsF32 too, each row
// multiplied in prodF32Go's order. A result does not depend on four, the
// machine or the thread count. Four streams pay where the data comes
// from memory and cost where it is in a cache (a stack of accumulators to
// move per row), so the caller chooses: package cpu sets four for inputs
// of at least 16 MiB (fourStreamsBytes there).
//
// Measured with the kernels, interleaved 60 times in one process on two
// threads: on the Zen 3 machine the full sum of 2^24 float32 took 13-18%
// less time at p10 and p50, the rows of [4096, 4096] 10-16% (sum), 18-20%
// (squares) and 15-27% (max); on a 16-core Intel Xeon with AVX-512
// (Sapphire Rapids, 300 MiB L3, one run) two threads read 44 GB/s either
// way, the same with four streams as with one. In the caches of the Zen 3
// (one thread): rows of 4 MiB in all in L3 11% slower with four, slices of
// 256 KiB in L2 up to 20% slower, rows of 16 and 64 elements faster.
// The product of [4096, 4096] float32 rows (cmd/bench's prod_dim1, two
// threads, the bench binaries interleaved four times) took 2.6-3.4 ms
// with four streams against 3.3-4.8 with one.

// streamMin is the fewest elements a stream of Note [Four streams] has.
const streamMin = 4096

// sumStreamsF32F64Go is SumF32F64's pure-Go twin (Note [Four streams]).
func sumStreamsF32F64Go(x []float32) float64 {
	return sumStreams(x, sumF32F64Go)
}

// sumRowsStreamsF32F64Go is SumRowsF32F64's pure-Go twin: dst[r] +=
// sumStreamsF32F64Go(x[r·stride:][:rowLen]).
func sumRowsStreamsF32F64Go(dst []float64, x []float32, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumStreamsF32F64Go)
}

// sumSqStreamsF32F64Go is SumSqF32F64's pure-Go twin: sumStreamsF32F64Go's
// split of sumSqF32F64Go.
func sumSqStreamsF32F64Go(x []float32) float64 {
	return sumStreams(x, sumSqF32F64Go)
}

// sumSqRowsStreamsF32F64Go is SumSqRowsF32F64's pure-Go twin: dst[r] +=
// sumSqStreamsF32F64Go(x[r·stride:][:rowLen]).
func sumSqRowsStreamsF32F64Go(dst []float64, x []float32, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumSqStreamsF32F64Go)
}

// sumRowsStreamsBF16F64Go and sumRowsStreamsF16F64Go are SumRowsBF16F64's
// and SumRowsF16F64's pure-Go twins: dst[r] += sumStreamsBF16F64Go
// (sumStreamsF16F64Go) of x[r·stride:][:rowLen].
func sumRowsStreamsBF16F64Go(dst []float64, x []uint16, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumStreamsBF16F64Go)
}

func sumRowsStreamsF16F64Go(dst []float64, x []uint16, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumStreamsF16F64Go)
}

// sumStreamsBF16F64Go and sumStreamsF16F64Go are SumBF16F64's and
// SumF16F64's pure-Go twins: sumStreamsF32F64Go's split of sumBF16F64Go
// and sumF16F64Go.
func sumStreamsBF16F64Go(x []uint16) float64 {
	return sumStreams(x, sumBF16F64Go)
}

func sumStreamsF16F64Go(x []uint16) float64 {
	return sumStreams(x, sumF16F64Go)
}

// sumRowsBF16F64Go and sumRowsF16F64Go add sumBF16F64Go (sumF16F64Go) of
// row r, x[r·stride:][:rowLen], to dst[r] for each r < len(dst): the
// twins of the kernels that sum 16-bit rows four at a time
// (sumRows4BF16F64AVX2, on 4q rows).
func sumRowsBF16F64Go(dst []float64, x []uint16, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumBF16F64Go)
}

func sumRowsF16F64Go(dst []float64, x []uint16, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumF16F64Go)
}

// sumStreams is the twins' SumF32F64 (Note [Four streams]) with run, a
// sum of one stream: the quarters' sums added to zeros, as a rows loop
// adds them, then pairwise, then the rest.
func sumStreams[E float32 | uint16](x []E, run func([]E) float64) float64 {
	q := quarterLen(len(x))
	if q == 0 {
		return run(x)
	}
	var s [4]float64
	for k := range s {
		s[k] += run(x[k*q:][:q])
	}
	return addQuarters(&s) + run(x[4*q:])
}

// quarterLen is the length q of each quarter Note [Four streams] splits
// n elements into (a multiple of 256), or 0 where n is too short to split.
func quarterLen(n int) int {
	if n < 4*streamMin {
		return 0
	}
	return n / 4 &^ 255
}

// addRowSums adds sum of row r, x[r·stride:][:rowLen], to dst[r] for
// each r < len(dst): the twins' rows loop.
func addRowSums[E float32 | uint16](dst []float64, x []E, rowLen, stride int, sum func([]E) float64) {
	for r := range dst {
		dst[r] += sum(x[r*stride:][:rowLen])
	}
}

// addQuarters adds the sums of the four quarters pairwise.
func addQuarters(s *[4]float64) float64 { return (s[0] + s[1]) + (s[2] + s[3]) }

// sumSqRowsF32F64Go adds sumSqF32F64Go of row r, x[r·stride:][:rowLen],
// to dst[r] for each r < len(dst).
func sumSqRowsF32F64Go(dst []float64, x []float32, rowLen, stride int) {
	addRowSums(dst, x, rowLen, stride, sumSqF32F64Go)
}

// prodRowsF32Go multiplies prodF32Go of row r, x[r·stride:][:rowLen],
// into dst[r] for each r < len(dst).
func prodRowsF32Go(dst []float32, x []float32, rowLen, stride int) {
	for r := range dst {
		dst[r] *= prodF32Go(x[r*stride:][:rowLen])
	}
}

// sumStep is a main step of sumF32F64Go.
func sumStep(acc *[16]float64, y *[256]float32) {
	for l := range acc {
		var v [16]float32
		for k := range v {
			v[k] = y[16*k+l]
		}
		for w := 8; w > 0; w /= 2 {
			for k := 0; k < w; k++ {
				v[k] += v[k+w]
			}
		}
		acc[l] += float64(v[0])
	}
}

// sumRest is sumF32F64Go after its main steps, on the rest of x (fewer
// than 256 elements).
func sumRest(acc *[16]float64, x []float32) float64 {
	i := 0
	for ; i+16 <= len(x); i += 16 {
		for l := range acc {
			acc[l] += float64(x[i+l])
		}
	}
	s := merge16(acc)
	for ; i < len(x); i++ {
		s += float64(x[i])
	}
	return s
}

// Note [Even and odd bfloat16]
//
// A bfloat16 is the upper half of a float32, so a vector register of
// 32-bit lanes loaded with 2k bfloat16 holds k pairs: shifted left by 16,
// each lane is its even element as a float32; masked to the upper half,
// its odd one. Two integer operations per load give two vectors of float32
// where a widening load per vector costs a shuffle (VPMOVZXWD), which set
// the speed of the bfloat16 sum, not memory. So SumBF16F64's main step
// takes its 256 elements as 8 loads of 32: vector 2j of the step holds the
// even elements of load j (lane l: element 32j+2l), vector 2j+1 its odd
// ones (32j+2l+1); the rest of the step is sumF32F64Go's. On AVX2 a 16-lane
// vector is two registers: lanes 0-7 from the first 16 elements of a load,
// lanes 8-15 from the second, the same lanes.

// sumBF16F64Go is SumBF16F64's pure-Go twin: sumF32F64Go's loop over the
// elements converted (exactly) to float32, dtype.BF16(x[i]).Float32(),
// the vectors of a main step taken even and odd (Note [Even and odd
// bfloat16]).
func sumBF16F64Go(x []uint16) float64 {
	var acc [16]float64
	var y [256]float32
	i := 0
	for ; i+256 <= len(x); i += 256 {
		for j := 0; j < 8; j++ {
			for l := 0; l < 16; l++ {
				y[32*j+l] = dtype.BF16(x[i+32*j+2*l]).Float32()
				y[32*j+16+l] = dtype.BF16(x[i+32*j+2*l+1]).Float32()
			}
		}
		sumStep(&acc, &y)
	}
	for k, v := range x[i:] {
		y[k] = dtype.BF16(v).Float32()
	}
	return sumRest(&acc, y[:len(x)-i])
}

// sumF16F64Go is SumF16F64's pure-Go twin: sumF32F64Go's loop over the
// elements converted (exactly) to float32, dtype.Half(x[i]).Float32().
func sumF16F64Go(x []uint16) float64 {
	var acc [16]float64
	var y [256]float32
	i := 0
	for ; i+256 <= len(x); i += 256 {
		for k, v := range x[i : i+256] {
			y[k] = dtype.Half(v).Float32()
		}
		sumStep(&acc, &y)
	}
	for k, v := range x[i:] {
		y[k] = dtype.Half(v).Float32()
	}
	return sumRest(&acc, y[:len(x)-i])
}

// merge16 adds the 16 lanes of acc pairwise, lane l with l+8, then l+4,
// l+2 and l+1, and returns lane 0.
func merge16(acc *[16]float64) float64 {
	for w := 8; w > 0; w /= 2 {
		for l := 0; l < w; l++ {
			acc[l] += acc[l+w]
		}
	}
	return acc[0]
}

// sumSqF32F64Go is SumSqF32F64's pure-Go twin, on 16 lanes (Note [Sixteen
// lanes]): each element converted exactly and squared (exactly: 48 bits)
// into float64 lanes, two accumulators in the main loop:
//
//	var acc [2][16]float64
//	i := 0
//	for ; i+32 <= len(x); i += 32 {
//		for k := range acc {
//			for l := range acc[k] {
//				v := float64(x[i+16*k+l])
//				acc[k][l] += v * v
//			}
//		}
//	}
//	for ; i+16 <= len(x); i += 16 {
//		for l := range acc[0] {
//			v := float64(x[i+l])
//			acc[0][l] += v * v
//		}
//	}
//	for l := range acc[0] {
//		acc[0][l] += acc[1][l]
//	}
//	s := merge16(&acc[0])
//	for ; i < len(x); i++ {
//		v := float64(x[i])
//		s += v * v
//	}
//	return s
func sumSqF32F64Go(x []float32) float64 {
	var acc [2][16]float64
	i := 0
	for ; i+32 <= len(x); i += 32 {
		for k := range acc {
			for l := range acc[k] {
				v := float64(x[i+16*k+l])
				acc[k][l] += v * v
			}
		}
	}
	for ; i+16 <= len(x); i += 16 {
		for l := range acc[0] {
			v := float64(x[i+l])
			acc[0][l] += v * v
		}
	}
	for l := range acc[0] {
		acc[0][l] += acc[1][l]
	}
	s := merge16(&acc[0])
	for ; i < len(x); i++ {
		v := float64(x[i])
		s += v * v
	}
	return s
}

// indexF32Go is IndexF32's pure-Go twin, its exact loop:
//
//	for i, e := range x {
//		if e == v {
//			return i
//		}
//	}
//	return -1
func indexF32Go(x []float32, v float32) int {
	for i, e := range x {
		if e == v {
			return i
		}
	}
	return -1
}

// sumRows8F32Go is SumRows8F32's pure-Go twin, its exact loop:
//
//	x0, ..., x7 = x0[:len(dst)], ..., x7[:len(dst)]
//	for i := range dst {
//		dst[i] = ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i] + x5[i]) + (x6[i] + x7[i]))
//	}
func sumRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	for i := range dst {
		dst[i] = ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i] + x5[i]) + (x6[i] + x7[i]))
	}
}

// sumRows8RunF32Go is SumRows8RunF32's pure-Go twin, its exact loop:
//
//	for j := 0; j < q; j++ {
//		x0, ..., x7 := rows j, j+q, ..., j+7q of x
//		if j%8 == 0 {
//			sumRows8F32Go(blk, x0, ..., x7)
//		} else {
//			accRows8F32Go(blk, x0, ..., x7)
//		}
//		if j%8 == 7 || j == q-1 {
//			accF32F64Go(st, blk)
//		}
//	}
func sumRows8RunF32Go(st []float64, blk, x []float32, stride, q int) {
	sumRows8Run(st, blk, x, stride, q, sumRows8F32Go, accRows8F32Go, accF32F64Go)
}

// sumRows8Run is sumRows8RunF32Go's loop with the given row functions.
func sumRows8Run(st []float64, blk, x []float32, stride, q int,
	sum, acc func(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32), flush func(dst []float64, x []float32)) {
	n := len(st)
	b := blk[:n]
	row := func(r int) []float32 { return x[r*stride : r*stride+n] }
	for j := 0; j < q; j++ {
		rows8 := acc
		if j%8 == 0 {
			rows8 = sum
		}
		rows8(b, row(j), row(j+q), row(j+2*q), row(j+3*q), row(j+4*q), row(j+5*q), row(j+6*q), row(j+7*q))
		if j%8 == 7 || j == q-1 {
			flush(st, b)
		}
	}
}

// run8Bounds panics unless x holds the 8q rows of len(st) elements,
// stride ≥ len(st) apart, that SumRows8RunF32 reads, and blk len(st).
func run8Bounds(st []float64, blk, x []float32, stride, q int) {
	if q <= 0 || len(st) == 0 {
		return
	}
	if stride < len(st) {
		panic("vec: rows that overlap")
	}
	_, _ = blk[len(st)-1], x[(8*q-1)*stride+len(st)-1]
}

// accRows8F32Go is AccRows8F32's pure-Go twin, its exact loop:
//
//	x0, ..., x7 = x0[:len(dst)], ..., x7[:len(dst)]
//	for i := range dst {
//		dst[i] += ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i] + x5[i]) + (x6[i] + x7[i]))
//	}
func accRows8F32Go(dst, x0, x1, x2, x3, x4, x5, x6, x7 []float32) {
	n := len(dst)
	x0, x1, x2, x3, x4, x5, x6, x7 = x0[:n], x1[:n], x2[:n], x3[:n], x4[:n], x5[:n], x6[:n], x7[:n]
	for i := range dst {
		dst[i] += ((x0[i] + x1[i]) + (x2[i] + x3[i])) + ((x4[i] + x5[i]) + (x6[i] + x7[i]))
	}
}

// sumRows8BF16Go is SumRows8BF16's pure-Go twin: sumRows8F32Go's loop
// over the elements converted (exactly) to float32,
// dtype.BF16(x[i]).Float32().
func sumRows8BF16Go(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	rows8Of16(dst, &[8][]uint16{x0, x1, x2, x3, x4, x5, x6, x7}, false, f32Of)
}

// accRows8BF16Go is AccRows8BF16's pure-Go twin: accRows8F32Go's loop
// over the elements converted (exactly) to float32.
func accRows8BF16Go(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	rows8Of16(dst, &[8][]uint16{x0, x1, x2, x3, x4, x5, x6, x7}, true, f32Of)
}

// sumRows8F16Go is SumRows8F16's pure-Go twin: sumRows8F32Go's loop over
// the elements converted (exactly) to float32, dtype.Half(x[i]).Float32().
func sumRows8F16Go(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	rows8Of16(dst, &[8][]uint16{x0, x1, x2, x3, x4, x5, x6, x7}, false, f32OfF16)
}

// accRows8F16Go is AccRows8F16's pure-Go twin: accRows8F32Go's loop over
// the elements converted (exactly) to float32.
func accRows8F16Go(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16) {
	rows8Of16(dst, &[8][]uint16{x0, x1, x2, x3, x4, x5, x6, x7}, true, f32OfF16)
}

// rows8Of16 is the loop of the 16-bit rows8 twins: the eight elements
// converted by conv and added pairwise, into dst[i] (acc: added to it).
func rows8Of16(dst []float32, x *[8][]uint16, acc bool, conv func(uint16) float32) {
	n := len(dst)
	for k := range x {
		x[k] = x[k][:n]
	}
	for i := range dst {
		var v [8]float32
		for k := range v {
			v[k] = conv(x[k][i])
		}
		s := ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
		if acc {
			s += dst[i]
		}
		dst[i] = s
	}
}

// cumAccF32F64Go is CumAccF32F64's pure-Go twin, its exact loop:
//
//	x, y = x[:len(acc)], y[:len(acc)]
//	for i := range acc {
//		acc[i] += float64(x[i])
//		y[i] = float32(acc[i])
//	}
func cumAccF32F64Go(acc []float64, x, y []float32) {
	x, y = x[:len(acc)], y[:len(acc)]
	for i := range acc {
		acc[i] += float64(x[i])
		y[i] = float32(acc[i])
	}
}

// cumAccRows4F32F64Go is CumAccRows4F32F64's pure-Go twin, its exact
// loop: four steps of cumAccF32F64Go, on the rows x[r·xs:] and y[r·ys:]
// for r < 4.
func cumAccRows4F32F64Go(acc []float64, x []float32, xs int, y []float32, ys int) {
	for r := range 4 {
		cumAccF32F64Go(acc, x[r*xs:], y[r*ys:])
	}
}

// maxAccF32Go is MaxAccF32's pure-Go twin, its exact loop:
//
//	x = x[:len(dst)]
//	for i := range dst {
//		if x[i] > dst[i] || x[i] != x[i] {
//			dst[i] = x[i]
//		}
//	}
func maxAccF32Go(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		if x[i] > dst[i] || x[i] != x[i] {
			dst[i] = x[i]
		}
	}
}

// maxAccRowsF32Go is MaxAccRowsF32's pure-Go twin: maxAccF32Go on each
// row in turn.
func maxAccRowsF32Go(dst, x []float32, stride, rows int) {
	eachRow(dst, x, stride, rows, maxAccF32Go)
}

// minAccRowsF32Go is MinAccRowsF32's pure-Go twin: minAccF32Go on each
// row in turn.
func minAccRowsF32Go(dst, x []float32, stride, rows int) {
	eachRow(dst, x, stride, rows, minAccF32Go)
}

// mulAccRowsF32Go is MulAccRowsF32's pure-Go twin: mulF32Go(dst, dst,
// row) on each row in turn.
func mulAccRowsF32Go(dst, x []float32, stride, rows int) {
	eachRow(dst, x, stride, rows, func(dst, x []float32) { mulF32Go(dst, dst, x) })
}

// eachRow runs acc on dst and each of rows rows of x, stride elements
// apart, in turn.
func eachRow(dst, x []float32, stride, rows int, acc func(dst, x []float32)) {
	for r := 0; r < rows; r++ {
		acc(dst, x[r*stride:r*stride+len(dst)])
	}
}

// argMaxAccRowsF32Go and argMinAccRowsF32Go are ArgMaxAccRowsF32's and
// ArgMinAccRowsF32's pure-Go twins: argAccRowsF32Go.
func argMaxAccRowsF32Go(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	argAccRowsF32Go(v, ix, x, stride, rows, i0, true)
}

func argMinAccRowsF32Go(v []float32, ix []int64, x []float32, stride, rows, i0 int) {
	argAccRowsF32Go(v, ix, x, stride, rows, i0, false)
}

// argAccRowsF32Go is the generated ArgMax (isMax) or ArgMin fold of
// float32 rows, its exact loop.
func argAccRowsF32Go(v []float32, ix []int64, x []float32, stride, rows, i0 int, isMax bool) {
	ix = ix[:len(v)]
	for r := 0; r < rows; r++ {
		row := x[r*stride : r*stride+len(v)]
		if isMax { // a loop each: the test of isMax per element cost a fifth of the loop
			for k, e := range row {
				if e > v[k] || e != e && v[k] == v[k] {
					v[k], ix[k] = e, int64(i0+r)
				}
			}
			continue
		}
		for k, e := range row {
			if e < v[k] || e != e && v[k] == v[k] {
				v[k], ix[k] = e, int64(i0+r)
			}
		}
	}
}

// accRowsBounds panics unless x holds rows rows of len(dst) elements,
// stride ≥ len(dst) apart (the Acc…RowsF32 functions), and returns
// len(dst), or 0 without rows.
func accRowsBounds(dst, x []float32, stride, rows int) int {
	if rows <= 0 || len(dst) == 0 {
		return 0
	}
	if stride < len(dst) {
		panic("vec: rows that overlap")
	}
	_ = x[(rows-1)*stride+len(dst)-1]
	return len(dst)
}

// minAccF32Go is MinAccF32's pure-Go twin: maxAccF32Go's loop with
// x[i] < dst[i].
func minAccF32Go(dst, x []float32) {
	x = x[:len(dst)]
	for i := range dst {
		if x[i] < dst[i] || x[i] != x[i] {
			dst[i] = x[i]
		}
	}
}

// prodF32Go is ProdF32's pure-Go twin, on 16 lanes (Note [Sixteen lanes]),
// its exact loop: four accumulators of 16 products,
//
//	a := [4][16]float32{} // every lane 1
//	i := 0
//	for ; i+64 <= len(x); i += 64 {
//		a[k][l] *= x[i+16*k+l] // every k, l
//	}
//	for ; i+16 <= len(x); i += 16 {
//		a[0][l] *= x[i+l]
//	}
//	a[0][l] = (a[0][l] * a[1][l]) * (a[2][l] * a[3][l])
//	// lanes l with l+8, l+4, l+2, l+1, then the rest one by one
func prodF32Go(x []float32) float32 {
	var a [4][16]float32
	for k := range a {
		for l := range a[k] {
			a[k][l] = 1
		}
	}
	i := 0
	for ; i+64 <= len(x); i += 64 {
		for k := range a {
			for l := range a[k] {
				a[k][l] *= x[i+16*k+l]
			}
		}
	}
	for ; i+16 <= len(x); i += 16 {
		for l := range a[0] {
			a[0][l] *= x[i+l]
		}
	}
	h := a[0]
	for l := range h {
		h[l] = (a[0][l] * a[1][l]) * (a[2][l] * a[3][l])
	}
	for w := 8; w > 0; w /= 2 {
		for l := 0; l < w; l++ {
			h[l] *= h[l+w]
		}
	}
	s := h[0]
	for ; i < len(x); i++ {
		s *= x[i]
	}
	return s
}
