package gemm

import "github.com/goten-ml/goten/backend/cpu/internal/vec"

// The Go microkernels' tiles, which the assembly of gemm_amd64.go
// replaces with its own (maxNR bounds every impl's nr).
const (
	mrF32, nrF32 = 6, 16
	mrF64, nrF64 = 6, 8
	maxNR        = 64
)

// f32, f64, bf16 and f16 hold each kind of product's kernel, packing and
// blocking (Note [Blocking]): the Go ones, until the architecture's init
// puts assembly in their place. bf16dot, when set, runs the bfloat16
// products instead of bf16 (Note [Reduced precision]).
var (
	f32     = newFloat(kernelGoOf[float32](mrF32, nrF32), mrF32, nrF32, goPack[float32], 256, 144, 3072, goGemv[float32]())
	f64     = newFloat(kernelGoOf[float64](mrF64, nrF64), mrF64, nrF64, goPack[float64], 256, 72, 3072, goGemv[float64]())
	bf16    = newConv(f32, bf16ToF32, goPackConv(bf16ToF32), vec.BF16ToF32, vec.F32ToBF16, vec.F32ToBF16Rows)
	f16     = newConv(f32, f16ToF32, goPackConv(f16ToF32), vec.F16ToF32, vec.F32ToF16, vec.F32ToF16Rows)
	bf16dot *impl[uint16, uint32, float32]
)

// packKit gives the whole-sliver packing routines of width w, copying
// (packCopyGo's loop) or transposing (packTransGo's).
type packKit[S elem, P packed] func(w int, trans bool) packFunc[S, P]

// goGemv returns the matrix-vector kernels of the Go twins.
func goGemv[T num]() *gemvKit[T] {
	return &gemvKit[T]{dot: gemvDotGo[T], axpy: gemvAxpyGo[T]}
}

// goPack is the packKit of the Go twins.
func goPack[T num](w int, trans bool) packFunc[T, T] {
	if trans {
		return func(k int, src []T, ld int, dst []T) { packTransGo(w, k, src, ld, dst) }
	}
	return func(k int, src []T, ld int, dst []T) { packCopyGo(w, k, src, ld, dst) }
}

// goPackConv is the packKit of the Go twins converting with conv.
func goPackConv(conv func(uint16) float32) packKit[uint16, float32] {
	return func(w int, trans bool) packFunc[uint16, float32] {
		if trans {
			return func(k int, src []uint16, ld int, dst []float32) { packTransConvGo(w, k, src, ld, dst, conv) }
		}
		return func(k int, src []uint16, ld int, dst []float32) { packCopyConvGo(w, k, src, ld, dst, conv) }
	}
}

// newFloat returns the impl of a float32 or float64 product with an mr×nr
// kernel, packs and blocks kc, mc (rounded down to a multiple of mr), nc.
func newFloat[T num](kernel kernelFunc[T, T], mr, nr int, packs packKit[T, T], kc, mc, nc int, gemv *gemvKit[T]) *impl[T, T, T] {
	return withBlocks(&impl[T, T, T]{
		kernel:  kernel,
		gemv:    gemv,
		sliverA: sliver(mr, packs(mr, false), packs(mr, true)),
		sliverB: sliver(nr, packs(nr, false), packs(nr, true)),
		mr:      mr, nr: nr,
	}, kc, mc, nc)
}

// newConv returns the impl of a product of 16-bit floats on the float32
// impl f: its kernel and blocks, with packs converting by conv and C
// converted by toT and fromT (by fromTRows a tile at once, when not nil).
func newConv(f *impl[float32, float32, float32], conv func(uint16) float32, packs packKit[uint16, float32],
	toT func([]float32, []uint16), fromT func([]uint16, []float32),
	fromTRows func([]uint16, []float32, int, int, int, int)) *impl[uint16, float32, float32] {
	mr, nr := f.mr, f.nr
	return withBlocks(&impl[uint16, float32, float32]{
		kernel:  f.kernel,
		gemv:    f.gemv,
		sliverA: sliverConv(mr, conv, packs(mr, false), packs(mr, true)),
		sliverB: sliverConv(nr, conv, packs(nr, false), packs(nr, true)),
		toT:     toT, fromT: fromT, fromTRows: fromTRows,
		mr: mr, nr: nr,
	}, f.kc, f.mc, f.nc)
}

// newPairs returns the impl of bfloat16 products on an mr×nr dot-product
// kernel, whose steps are pairs of k (Note [Reduced precision]).
func newPairs(kernel kernelFunc[uint32, float32], mr, nr int, packs packKit[uint16, uint32], kc, mc, nc int) *impl[uint16, uint32, float32] {
	return withBlocks(&impl[uint16, uint32, float32]{
		kernel:  kernel,
		gemv:    f32.gemv,
		sliverA: sliverPairs(mr, packs(mr, false), packs(mr, true)),
		sliverB: sliverPairs(nr, packs(nr, false), packs(nr, true)),
		pairs:   true,
		toT:     vec.BF16ToF32, fromT: vec.F32ToBF16, fromTRows: vec.F32ToBF16Rows,
		mr: mr, nr: nr,
	}, kc, mc, nc)
}

// withBlocks sets im's cache blocks and parallel thresholds.
func withBlocks[S elem, P packed, T num](im *impl[S, P, T], kc, mc, nc int) *impl[S, P, T] {
	im.kc, im.mc, im.nc = kc, max(im.mr, mc/im.mr*im.mr), max(im.nr, nc/im.nr*im.nr)
	im.parallelWork = 64 * 64 * 64
	im.workPerThread = 32 * 32 * 32
	im.batchSmallWork = 256 * 256 * 256
	im.partsPerThread = 1
	return im
}

// F32 computes C = alpha·A·B + beta·C for the m×k matrix A whose element
// (i, p) is a[i*rsA+p*csA], the k×n matrix B whose element (p, j) is
// b[p*rsB+j*csB] and the m×n matrix C whose element (i, j) is
// c[i*rsC+j*csC].
//
// Strides may be any values ≥ 0, so transposed and sliced operands need no
// copy; A and B may have zero strides (broadcast), C may not in a dimension
// longer than one. C must not overlap A or B, and C's elements must be
// distinct. beta == 0 ignores C's old values (NaN and Inf included); alpha
// == 0 or k == 0 sets C = beta·C without reading A or B.
//
// F32 panics if a dimension or stride is negative or if an operand's last
// element lies past the end of its slice. Large products run on up to
// GOMAXPROCS goroutines; see the package doc on Concurrency and Determinism.
func F32(m, n, k int, alpha float32, a []float32, rsA, csA int, b []float32, rsB, csB int, beta float32, c []float32, rsC, csC int) {
	p := problem[float32, float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	p.check("F32")
	gemm(f32, p, f32.threads(m*n*k))
}

// F64 is F32 for float64.
func F64(m, n, k int, alpha float64, a []float64, rsA, csA int, b []float64, rsB, csB int, beta float64, c []float64, rsC, csC int) {
	p := problem[float64, float64]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	p.check("F64")
	gemm(f64, p, f64.threads(m*n*k))
}

// F32Batched computes batch products as F32 does: product i reads A, B and
// C from a[i*bsA:], b[i*bsB:] and c[i*bsC:] with the given row and column
// strides (bsA or bsB 0 broadcasts one operand over the batch). The C
// matrices of different products must not overlap. Small products are
// spread across goroutines whole, large ones split each product; see
// Note [Threads].
//
// F32Batched panics as F32 does for any product of the batch, if the batch
// count or a batch stride is negative, or if bsC is 0 with batch > 1.
func F32Batched(batch int, m, n, k int, alpha float32, a []float32, bsA, rsA, csA int, b []float32, bsB, rsB, csB int, beta float32, c []float32, bsC, rsC, csC int) {
	p := problem[float32, float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(f32, "F32Batched", batch, p, bsA, bsB, bsC)
}

// F64Batched is F32Batched for float64.
func F64Batched(batch int, m, n, k int, alpha float64, a []float64, bsA, rsA, csA int, b []float64, bsB, rsB, csB int, beta float64, c []float64, bsC, rsC, csC int) {
	p := problem[float64, float64]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(f64, "F64Batched", batch, p, bsA, bsB, bsC)
}

// BF16Batched computes batch products as F32Batched does, of bfloat16
// matrices given as their bits: each element of C is computed in float32
// and rounded once to nearest even (Note [Reduced precision]). alpha and
// beta are float32.
func BF16Batched(batch int, m, n, k int, alpha float32, a []uint16, bsA, rsA, csA int, b []uint16, bsB, rsB, csB int, beta float32, c []uint16, bsC, rsC, csC int) {
	p := problem[uint16, float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	if bf16dot != nil {
		batched(bf16dot, "BF16Batched", batch, p, bsA, bsB, bsC)
		return
	}
	batched(bf16, "BF16Batched", batch, p, bsA, bsB, bsC)
}

// F16Batched is BF16Batched for float16.
func F16Batched(batch int, m, n, k int, alpha float32, a []uint16, bsA, rsA, csA int, b []uint16, bsB, rsB, csB int, beta float32, c []uint16, bsC, rsC, csC int) {
	p := problem[uint16, float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(f16, "F16Batched", batch, p, bsA, bsB, bsC)
}
