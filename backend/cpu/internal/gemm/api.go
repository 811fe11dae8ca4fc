package gemm

// Microkernel tiles: the assembly kernels hold a 6×16 float32 or 6×8
// float64 tile of C in twelve YMM registers.
const (
	mrF32, nrF32 = 6, 16
	mrF64, nrF64 = 6, 8
	maxNR        = 16
)

// f32 and f64 hold each type's kernel (the Go one until the
// architecture's init replaces it) and blocking; see Note [Blocking].
var (
	f32 = &impl[float32]{
		kernel: kernelF32Go,
		copyA:  func(k int, src []float32, ld int, dst []float32) { packCopyGo(mrF32, k, src, ld, dst) },
		transA: func(k int, src []float32, ld int, dst []float32) { packTransGo(mrF32, k, src, ld, dst) },
		copyB:  func(k int, src []float32, ld int, dst []float32) { packCopyGo(nrF32, k, src, ld, dst) },
		transB: func(k int, src []float32, ld int, dst []float32) { packTransGo(nrF32, k, src, ld, dst) },
		mr:     mrF32, nr: nrF32,
		kc: 256, mc: 144, nc: 3072,
		parallelWork:   64 * 64 * 64,
		workPerThread:  32 * 32 * 32,
		batchSmallWork: 256 * 256 * 256,
		partsPerThread: 1,
	}
	f64 = &impl[float64]{
		kernel: kernelF64Go,
		copyA:  func(k int, src []float64, ld int, dst []float64) { packCopyGo(mrF64, k, src, ld, dst) },
		transA: func(k int, src []float64, ld int, dst []float64) { packTransGo(mrF64, k, src, ld, dst) },
		copyB:  func(k int, src []float64, ld int, dst []float64) { packCopyGo(nrF64, k, src, ld, dst) },
		transB: func(k int, src []float64, ld int, dst []float64) { packTransGo(nrF64, k, src, ld, dst) },
		mr:     mrF64, nr: nrF64,
		kc: 256, mc: 72, nc: 3072,
		parallelWork:   64 * 64 * 64,
		workPerThread:  32 * 32 * 32,
		batchSmallWork: 256 * 256 * 256,
		partsPerThread: 1,
	}
)

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
	p := problem[float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	p.check("F32")
	gemm(f32, p, f32.threads(m*n*k))
}

// F64 is F32 for float64.
func F64(m, n, k int, alpha float64, a []float64, rsA, csA int, b []float64, rsB, csB int, beta float64, c []float64, rsC, csC int) {
	p := problem[float64]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
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
	p := problem[float32]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(f32, "F32Batched", batch, p, bsA, bsB, bsC)
}

// F64Batched is F32Batched for float64.
func F64Batched(batch int, m, n, k int, alpha float64, a []float64, bsA, rsA, csA int, b []float64, bsB, rsB, csB int, beta float64, c []float64, bsC, rsC, csC int) {
	p := problem[float64]{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c,
		rsA: rsA, csA: csA, rsB: rsB, csB: csB, rsC: rsC, csC: csC}
	batched(f64, "F64Batched", batch, p, bsA, bsB, bsC)
}
