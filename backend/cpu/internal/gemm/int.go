package gemm

// Note [Integer products]
//
// Integer products compute in int64 and truncate each element of C to its
// type, wrapping on overflow as PyTorch's do: alpha·Σ A·B + beta·C in
// int64 arithmetic modulo 2^64, whose low bits are those of the same
// arithmetic in the narrower type. Integer sums are exact in that
// arithmetic, so their order does not matter: every blocking, edge path
// and split gives the same bits.
//
// They run on the same driver as the floats (Note [Blocking], Note
// [Threads], Note [Matrix-vector products]): operands are widened to
// int64 as they are packed, and kernelInt2x4, in Go, keeps a 2×4 tile of
// C in eight int64 variables, so that each element of a packed sliver
// loaded serves two or four multiply-adds (a 4×4 tile would spill). A C narrower than int64 is handled as
// the 16-bit floats' (Note [Reduced precision]): each tile is computed in
// int64 and converted into C once.

// integer is an integer element type of a product.
type integer interface {
	uint8 | int8 | int16 | int32 | int64
}

// The integer kernel's tile.
const mrInt, nrInt = 2, 4

var (
	u8Impl  = newInt[uint8]()
	i8Impl  = newInt[int8]()
	i16Impl = newInt[int16]()
	i32Impl = newInt[int32]()
	i64Impl = newInt[int64]()
)

// newInt returns the impl of products of S.
func newInt[S integer]() *impl[S, int64, int64] {
	im := &impl[S, int64, int64]{
		kernel:  kernelInt2x4,
		sliverA: sliverWiden[S](mrInt),
		sliverB: sliverWiden[S](nrInt),
		gemv:    &gemvKit[int64]{dot: gemvDotGo[int64], axpy: gemvAxpyGo[int64]},
		mr:      mrInt, nr: nrInt,
	}
	if _, same := any(*new(S)).(int64); !same {
		im.toT, im.fromT = widen[S], narrow[S]
	}
	return withBlocks(im, 256, 128, 1024)
}

// IntBatched computes batch products as F32Batched does, of integer
// matrices: each element of C is alpha·Σ A·B + beta·C computed in int64,
// wrapping, and truncated to T (Note [Integer products]).
func IntBatched[T integer](batch int, m, n, k int, alpha int64, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta int64, c []T, bsC, rsC, csC int) {
	p := problem[T, int64]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(intImpl[T](), "IntBatched", batch, p, bsA, bsB, bsC)
}

// intImpl returns the impl of products of T.
func intImpl[T integer]() *impl[T, int64, int64] {
	var im any
	switch any(*new(T)).(type) {
	case uint8:
		im = u8Impl
	case int8:
		im = i8Impl
	case int16:
		im = i16Impl
	case int32:
		im = i32Impl
	case int64:
		im = i64Impl
	}
	return im.(*impl[T, int64, int64])
}

// widen sets dst[i] = int64(src[i]).
func widen[S integer](dst []int64, src []S) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = int64(v)
	}
}

// narrow sets dst[i] = S(src[i]), truncating.
func narrow[S integer](dst []S, src []int64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = S(v)
	}
}

// sliverWiden returns the sliverFunc of width w that packs integers as
// int64: packStrided's layout, with unit-stride lines and steps read as
// runs.
func sliverWiden[S integer](w int) sliverFunc[S, int64] {
	return func(dst []int64, src []S, n, k, ls, ps int) {
		dst = dst[:k*w]
		switch {
		case n == w && ps == 1:
			for i := 0; i < w; i++ {
				for p, v := range src[i*ls : i*ls+k] {
					dst[p*w+i] = int64(v)
				}
			}
		case n == w && ls == 1:
			for p := 0; p < k; p++ {
				d := dst[p*w : p*w+w]
				for i, v := range src[p*ps : p*ps+w] {
					d[i] = int64(v)
				}
			}
		default:
			for p := 0; p < k; p++ {
				d := dst[p*w : p*w+w]
				for i := 0; i < n; i++ {
					d[i] = int64(src[i*ls+p*ps])
				}
				clear(d[n:])
			}
		}
	}
}

// kernelInt2x4 is kernelGo for int64 with a 2×4 tile held in eight
// variables (the products wrap): few enough that Go keeps them all in
// registers.
func kernelInt2x4(k int, a, b, c []int64, ldc int, alpha, beta int64) {
	a, b = a[:2*k], b[:4*k]
	var c00, c01, c02, c03, c10, c11, c12, c13 int64
	for p := 0; p < k; p++ {
		ap, bp := a[2*p:2*p+2:2*p+2], b[4*p:4*p+4:4*p+4]
		a0, a1 := ap[0], ap[1]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
	}
	rows := [2][4]int64{{c00, c01, c02, c03}, {c10, c11, c12, c13}}
	for i, row := range rows {
		ci := c[i*ldc : i*ldc+4]
		for j, v := range row {
			if beta == 0 {
				ci[j] = alpha * v
			} else {
				ci[j] = alpha*v + beta*ci[j]
			}
		}
	}
}
