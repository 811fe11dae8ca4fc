package vec

import "math"

// Pure-Go twins of the reduction primitives (asm/reduce.go). A fold keeps
// 4 accumulators of 8 float32 lanes (4 lanes for float64; expSubSumF32
// keeps 2): the main loop adds 32 elements per step, element i into lane
// i%8 of accumulator (i/8)%4; then single vectors go into accumulator 0;
// the accumulators are merged (0⊕1, 2⊕3, 0⊕2), the lanes pairwise (l with
// l+4, then l with l+2, then 0 with 1), and the remaining elements are
// folded into the scalar one at a time.

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

// maxF32Go is MaxF32's pure-Go twin: sumF32Go's loop with the
// accumulators starting at -Inf, a[k][l] = gt(x[j], a[k][l]) for each
// element (and s = gt(x[i], s) in the tail), every merge a ⊕ b = gt(a, b),
// and nan set when some element is NaN.
func maxF32Go(x []float32) (m float32, nan bool) {
	return foldMax32(x, float32(math.Inf(-1)), gt[float32])
}

// minF32Go is MinF32's pure-Go twin: maxF32Go's loop with +Inf and lt.
func minF32Go(x []float32) (m float32, nan bool) {
	return foldMax32(x, float32(math.Inf(1)), lt[float32])
}

func foldMax32(x []float32, init float32, op func(a, b float32) float32) (float32, bool) {
	var a [4][8]float32
	for k := range a {
		for l := range a[k] {
			a[k][l] = init
		}
	}
	nan := false
	i := 0
	for ; i+32 <= len(x); i += 32 {
		for k := range a {
			for l := range a[k] {
				v := x[i+8*k+l]
				nan = nan || v != v
				a[k][l] = op(v, a[k][l])
			}
		}
	}
	for ; i+8 <= len(x); i += 8 {
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
	s := op(op(op(h[0], h[4]), op(h[2], h[6])), op(op(h[1], h[5]), op(h[3], h[7])))
	for ; i < len(x); i++ {
		v := x[i]
		nan = nan || v != v
		s = op(v, s)
	}
	return s, nan
}

// maxF64Go is MaxF64's pure-Go twin: maxF32Go's loop over sumF64Go's lanes.
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

// sumF32F64Go is SumF32F64's pure-Go twin. A main step takes 128
// elements as two halves of 64; each half adds its 8 vectors of 8 lanes
// pairwise in float32 and its 8 lane sums, converted exactly, into two
// accumulators of 4 float64 lanes; the rest is sumF64Go's loop over
// float64(x[i]):
//
//	var a [4][4]float64
//	i := 0
//	for ; i+128 <= len(x); i += 128 {
//		for h := 0; h < 2; h++ {
//			for l := 0; l < 8; l++ {
//				v := func(k int) float32 { return x[i+64*h+8*k+l] }
//				s := ((v(0) + v(1)) + (v(2) + v(3))) + ((v(4) + v(5)) + (v(6) + v(7)))
//				a[2*h+l/4][l%4] += float64(s)
//			}
//		}
//	}
//	for ; i+4 <= len(x); i += 4 {
//		for l := range a[0] {
//			a[0][l] += float64(x[i+l])
//		}
//	}
//	... merged as in sumF64Go, then s += float64(x[i]) for the rest.
func sumF32F64Go(x []float32) float64 {
	var a [4][4]float64
	i := 0
	for ; i+128 <= len(x); i += 128 {
		for h := 0; h < 2; h++ {
			y := x[i+64*h : i+64*h+64]
			for l := 0; l < 8; l++ {
				s := ((y[l] + y[8+l]) + (y[16+l] + y[24+l])) + ((y[32+l] + y[40+l]) + (y[48+l] + y[56+l]))
				a[2*h+l/4][l%4] += float64(s)
			}
		}
	}
	for ; i+4 <= len(x); i += 4 {
		for l := range a[0] {
			a[0][l] += float64(x[i+l])
		}
	}
	for l := range a[0] {
		a[0][l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l])
	}
	h := a[0]
	s := (h[0] + h[2]) + (h[1] + h[3])
	for ; i < len(x); i++ {
		s += float64(x[i])
	}
	return s
}

// accRows4F32F64Go is AccRows4F32F64's pure-Go twin, its exact loop:
//
//	x0, x1, x2, x3 = x0[:len(dst)], x1[:len(dst)], x2[:len(dst)], x3[:len(dst)]
//	for i := range dst {
//		dst[i] += (float64(x0[i]) + float64(x1[i])) + (float64(x2[i]) + float64(x3[i]))
//	}
func accRows4F32F64Go(dst []float64, x0, x1, x2, x3 []float32) {
	x0, x1, x2, x3 = x0[:len(dst)], x1[:len(dst)], x2[:len(dst)], x3[:len(dst)]
	for i := range dst {
		dst[i] += (float64(x0[i]) + float64(x1[i])) + (float64(x2[i]) + float64(x3[i]))
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
