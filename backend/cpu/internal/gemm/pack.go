package gemm

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Packing copies a block of A or B into the layout the microkernel streams;
// see Note [Blocking]. Each impl packs one sliver at a time with its
// sliverA and sliverB, built here: whole slivers of the two unit-stride
// layouts go through routines that copy a whole sliver (assembly where
// available), partial slivers and other strides through strided loops.

// packFunc copies one whole sliver: w (the impl's mr or nr) rows or columns
// by k elements, from src with stride ld into dst; see packCopyGo and
// packTransGo.
type packFunc[S elem, P packed] func(k int, src []S, ld int, dst []P)

// packCopyGo sets dst[p*w+i] = src[p*ld+i] for p < k, i < w: w contiguous
// elements per k step (a sliver of column-major A or of row-major B).
func packCopyGo[T num](w, k int, src []T, ld int, dst []T) {
	dst = dst[:k*w]
	for p := 0; p < k; p++ {
		copy(dst[p*w:p*w+w], src[p*ld:p*ld+w])
	}
}

// packTransGo sets dst[p*w+i] = src[i*ld+p] for p < k, i < w: w rows of
// contiguous elements interleaved one k step at a time (a sliver of
// row-major A or of column-major B).
func packTransGo[T num](w, k int, src []T, ld int, dst []T) {
	dst = dst[:k*w]
	for i := 0; i < w; i++ {
		row := src[i*ld : i*ld+k]
		for p, v := range row {
			dst[p*w+i] = v
		}
	}
}

// packA copies the mc×kc block of A whose element (i, p) is a[i*rs+p*cs]
// into dst as ⌈mc/mr⌉ slivers of steps(kc)·mr elements: sliver s holds rows
// s·mr … s·mr+mr-1, one k step of mr elements after another, rows past mc
// zero.
func packA[S elem, P packed, T num](im *impl[S, P, T], dst []P, a []S, mc, kc, rs, cs int) {
	mr, kp := im.mr, im.steps(kc)
	for ir := 0; ir < mc; ir += mr {
		im.sliverA(dst[ir*kp:ir*kp+kp*mr], a[ir*rs:], min(mr, mc-ir), kc, rs, cs)
	}
}

// packB copies the kc×nc panel of B whose element (p, j) is b[p*rs+j*cs]
// into dst as ⌈nc/nr⌉ slivers of steps(kc)·nr elements: sliver s holds
// columns s·nr … s·nr+nr-1, one k step of nr elements after another,
// columns past nc zero.
func packB[S elem, P packed, T num](im *impl[S, P, T], dst []P, b []S, kc, nc, rs, cs int) {
	nr, kp := im.nr, im.steps(kc)
	for jr := 0; jr < nc; jr += nr {
		im.sliverB(dst[jr*kp:jr*kp+kp*nr], b[jr*cs:], min(nr, nc-jr), kc, cs, rs)
	}
}

// sliver returns the sliverFunc of width w that packs whole slivers whose
// lines have unit stride with trans and those whose steps have unit stride
// with cp, and anything else with packStrided.
func sliver[T num](w int, cp, trans packFunc[T, T]) sliverFunc[T, T] {
	return func(dst, src []T, n, k, ls, ps int) {
		switch {
		case n == w && ps == 1:
			trans(k, src, ls, dst)
		case n == w && ls == 1:
			cp(k, src, ps, dst)
		default:
			packStrided(dst, src, n, w, k, ls, ps)
		}
	}
}

// packStrided packs a sliver of n ≤ w lines (rows of A or columns of B)
// whose element (line i, step p) is src[i*ls+p*ps]: dst[p*w+i], lines n …
// w-1 zero.
func packStrided[T num](dst, src []T, n, w, k, ls, ps int) {
	for p := 0; p < k; p++ {
		dp := dst[p*w : p*w+w]
		for i := 0; i < n; i++ {
			dp[i] = src[i*ls+p*ps]
		}
		clear(dp[n:])
	}
}

// Converting packs: bfloat16 and float16 operands packed as float32 (Note
// [Reduced precision]).

// bf16ToF32 returns the float32 of the bfloat16 bits h (exact).
func bf16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// f16ToF32 returns the float32 of the float16 bits h (exact).
func f16ToF32(h uint16) float32 { return dtype.Half(h).Float32() }

// sliverConv returns the sliverFunc of width w that packs 16-bit floats as
// float32, each element converted by conv: whole slivers through cp and
// trans (packCopyConvGo's and packTransConvGo's loops), the rest element
// by element.
func sliverConv(w int, conv func(uint16) float32, cp, trans packFunc[uint16, float32]) sliverFunc[uint16, float32] {
	return func(dst []float32, src []uint16, n, k, ls, ps int) {
		switch {
		case n == w && ps == 1:
			trans(k, src, ls, dst)
		case n == w && ls == 1:
			cp(k, src, ps, dst)
		default:
			for p := 0; p < k; p++ {
				dp := dst[p*w : p*w+w]
				for i := 0; i < n; i++ {
					dp[i] = conv(src[i*ls+p*ps])
				}
				clear(dp[n:])
			}
		}
	}
}

// packCopyConvGo sets dst[p*w+i] = conv(src[p*ld+i]) for p < k, i < w:
// packCopyGo converting each element.
func packCopyConvGo(w, k int, src []uint16, ld int, dst []float32, conv func(uint16) float32) {
	dst = dst[:k*w]
	for p := 0; p < k; p++ {
		row := src[p*ld : p*ld+w]
		for i, v := range row {
			dst[p*w+i] = conv(v)
		}
	}
}

// packTransConvGo sets dst[p*w+i] = conv(src[i*ld+p]) for p < k, i < w:
// packTransGo converting each element.
func packTransConvGo(w, k int, src []uint16, ld int, dst []float32, conv func(uint16) float32) {
	dst = dst[:k*w]
	for i := 0; i < w; i++ {
		row := src[i*ld : i*ld+k]
		for p, v := range row {
			dst[p*w+i] = conv(v)
		}
	}
}

// Pair packs: bfloat16 operands for the dot-product kernels, which take
// two k steps at a time. Step q of a sliver holds, for each line, the
// elements at k = 2q (low half) and 2q+1 (high half) in one uint32; the
// high half of the last step of an odd k is zero.

// pair joins two bfloat16 into the uint32 of a pair.
func pair(lo, hi uint16) uint32 { return uint32(lo) | uint32(hi)<<16 }

// sliverPairs returns the sliverFunc of width w that packs bfloat16 pairs:
// whole slivers through cp and trans (packCopyPairsGo's and
// packTransPairsGo's loops), the rest through packPairsStrided.
func sliverPairs(w int, cp, trans packFunc[uint16, uint32]) sliverFunc[uint16, uint32] {
	return func(dst []uint32, src []uint16, n, k, ls, ps int) {
		switch {
		case n == w && ps == 1:
			trans(k, src, ls, dst)
		case n == w && ls == 1:
			cp(k, src, ps, dst)
		default:
			packPairsStrided(dst, src, n, w, k, ls, ps)
		}
	}
}

// packCopyPairsGo sets dst[q*w+i] = pair(src[2q*ld+i], src[(2q+1)*ld+i])
// for q < ⌈k/2⌉, i < w, the second element 0 when 2q+1 = k: two
// contiguous runs of w elements interleaved (a sliver of column-major A or
// of row-major B).
func packCopyPairsGo(w, k int, src []uint16, ld int, dst []uint32) {
	dst = dst[:(k+1)/2*w]
	for q := 0; q < k/2; q++ {
		lo, hi := src[2*q*ld:2*q*ld+w], src[(2*q+1)*ld:(2*q+1)*ld+w]
		for i := range lo {
			dst[q*w+i] = pair(lo[i], hi[i])
		}
	}
	if k%2 == 1 {
		q := k / 2
		lo := src[2*q*ld : 2*q*ld+w]
		for i, v := range lo {
			dst[q*w+i] = pair(v, 0)
		}
	}
}

// packTransPairsGo sets dst[q*w+i] = pair(src[i*ld+2q], src[i*ld+2q+1])
// for q < ⌈k/2⌉, i < w, the second element 0 when 2q+1 = k: w rows whose
// consecutive pairs become the steps (a sliver of row-major A or of
// column-major B).
func packTransPairsGo(w, k int, src []uint16, ld int, dst []uint32) {
	dst = dst[:(k+1)/2*w]
	for i := 0; i < w; i++ {
		row := src[i*ld : i*ld+k]
		for q := 0; q < k/2; q++ {
			dst[q*w+i] = pair(row[2*q], row[2*q+1])
		}
		if k%2 == 1 {
			dst[k/2*w+i] = pair(row[k-1], 0)
		}
	}
}

// packPairsStrided packs a sliver of n ≤ w lines whose element (line i,
// k index p) is src[i*ls+p*ps] as pairs, lines n … w-1 zero.
func packPairsStrided(dst []uint32, src []uint16, n, w, k, ls, ps int) {
	for q := 0; q < (k+1)/2; q++ {
		dq := dst[q*w : q*w+w]
		for i := 0; i < n; i++ {
			var hi uint16
			if 2*q+1 < k {
				hi = src[i*ls+(2*q+1)*ps]
			}
			dq[i] = pair(src[i*ls+2*q*ps], hi)
		}
		clear(dq[n:])
	}
}
