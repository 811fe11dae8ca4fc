package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/gemm"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
)

// MatMul runs a batched matrix product. The floats run on the packed GEMM,
// float16 and bfloat16 accumulating in float32 and rounding once, as
// PyTorch's opmath does, integers accumulating in int64 (wrapping, then
// truncated to the dtype).
func (*Backend) MatMul(g *kernel.Gemm) error {
	if g.Batch == 0 || g.M == 0 || g.N == 0 {
		return nil
	}
	switch {
	case g.Plain && g.DType == dtype.Float32:
		plainGemm[float32](g)
	case g.Plain && g.DType == dtype.Float64:
		plainGemm[float64](g)
	default:
		return packedMatMul(g)
	}
	return nil
}

// plainGemm is PyTorch's baddbmm_cpu_kernel (kernel.Gemm's Plain): each
// element of C starts from Beta times its old value (0 when Beta is 0)
// and adds, for k from 0, (Alpha·A[i][k])·B[k][j], each product rounded.
func plainGemm[T float32 | float64](g *kernel.Gemm) {
	a, b, c := elems[T](g.A, g, g.M, g.K), elems[T](g.B, g, g.K, g.N), elems[T](g.C, g, g.M, g.N)
	alpha, beta := T(g.Alpha), T(g.Beta)
	for n := range g.Batch {
		for i := range g.M {
			ai := n*g.A.BatchStride + i*g.A.RowStride
			ci := n*g.C.BatchStride + i*g.C.RowStride
			for j := range g.N {
				bj := n*g.B.BatchStride + j*g.B.ColStride
				q := &c[ci+j*g.C.ColStride]
				var acc T
				if beta != 0 {
					acc = beta * *q
				}
				for k := range g.K {
					// the conversions round each product: no fused multiply-add
					acc += T(T(alpha*a[ai+k*g.A.ColStride]) * b[bj+k*g.B.RowStride])
				}
				*q = acc
			}
		}
	}
}

// packedMatMul runs g on the packed GEMM.
func packedMatMul(g *kernel.Gemm) error {
	switch g.DType {
	case dtype.Float32:
		gemmF32(g)
	case dtype.Float64:
		gemmF64(g)
	case dtype.Float16:
		gemm16(g, gemm.F16Batched)
	case dtype.BFloat16:
		gemm16(g, gemm.BF16Batched)
	case dtype.Uint8:
		intMatMul[uint8](g)
	case dtype.Int8:
		intMatMul[int8](g)
	case dtype.Int16:
		intMatMul[int16](g)
	case dtype.Int32:
		intMatMul[int32](g)
	case dtype.Int64:
		intMatMul[int64](g)
	default:
		return errs.New(errs.DType, "matmul", "no matrix product kernel for %s", g.DType)
	}
	return nil
}

func elems[T any](m kernel.Matrix, g *kernel.Gemm, rows, cols int) []T {
	// the extent of the batch of matrices, from its first element
	n := 1 + (g.Batch-1)*m.BatchStride + (rows-1)*m.RowStride + (cols-1)*m.ColStride
	if rows == 0 || cols == 0 {
		n = 0 // K = 0: nothing of A or B is read
	}
	if n <= 0 {
		return nil
	}
	var z T
	size := int(unsafe.Sizeof(z))
	return unsafe.Slice((*T)(unsafe.Add(m.Storage.Pointer(), m.Offset*size)), n)
}

// intMatMul is the product of integers on the packed GEMM: accumulated in
// int64 with wrapping, as PyTorch's, then truncated to T; alpha and beta
// are truncated to integers.
func intMatMul[T uint8 | int8 | int16 | int32 | int64](g *kernel.Gemm) {
	a, b, c := elems[T](g.A, g, g.M, g.K), elems[T](g.B, g, g.K, g.N), elems[T](g.C, g, g.M, g.N)
	gemm.IntBatched(g.Batch, g.M, g.N, g.K, int64(g.Alpha),
		a, g.A.BatchStride, g.A.RowStride, g.A.ColStride,
		b, g.B.BatchStride, g.B.RowStride, g.B.ColStride,
		int64(g.Beta), c, g.C.BatchStride, g.C.RowStride, g.C.ColStride)
}

// gemmF32 and gemmF64 run a batch of products on the packed GEMM, which
// takes the operands' own strides (transposed or broadcast operands are
// packed, never copied first).
func gemmF32(g *kernel.Gemm) {
	a, b, c := elems[float32](g.A, g, g.M, g.K), elems[float32](g.B, g, g.K, g.N), elems[float32](g.C, g, g.M, g.N)
	gemm.F32Batched(g.Batch, g.M, g.N, g.K, float32(g.Alpha),
		a, g.A.BatchStride, g.A.RowStride, g.A.ColStride,
		b, g.B.BatchStride, g.B.RowStride, g.B.ColStride,
		float32(g.Beta), c, g.C.BatchStride, g.C.RowStride, g.C.ColStride)
}

func gemmF64(g *kernel.Gemm) {
	a, b, c := elems[float64](g.A, g, g.M, g.K), elems[float64](g.B, g, g.K, g.N), elems[float64](g.C, g, g.M, g.N)
	gemm.F64Batched(g.Batch, g.M, g.N, g.K, g.Alpha,
		a, g.A.BatchStride, g.A.RowStride, g.A.ColStride,
		b, g.B.BatchStride, g.B.RowStride, g.B.ColStride,
		g.Beta, c, g.C.BatchStride, g.C.RowStride, g.C.ColStride)
}

// gemm16 runs a batch of float16 or bfloat16 products on the packed GEMM,
// which takes their bits.
func gemm16(g *kernel.Gemm, f func(batch int, m, n, k int, alpha float32, a []uint16, bsA, rsA, csA int, b []uint16, bsB, rsB, csB int, beta float32, c []uint16, bsC, rsC, csC int)) {
	a, b, c := elems[uint16](g.A, g, g.M, g.K), elems[uint16](g.B, g, g.K, g.N), elems[uint16](g.C, g, g.M, g.N)
	f(g.Batch, g.M, g.N, g.K, float32(g.Alpha),
		a, g.A.BatchStride, g.A.RowStride, g.A.ColStride,
		b, g.B.BatchStride, g.B.RowStride, g.B.ColStride,
		float32(g.Beta), c, g.C.BatchStride, g.C.RowStride, g.C.ColStride)
}
