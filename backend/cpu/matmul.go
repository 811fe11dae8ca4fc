package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/gemm"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
)

// MatMul runs a batched matrix product. float32 and float64 run on the
// packed GEMM; the other dtypes on a generic loop that accumulates as
// PyTorch's opmath does: 16-bit floats in float32, integers in int64
// (wrapping, then truncated to the dtype).
func (*Backend) MatMul(g *kernel.Gemm) error {
	if g.Batch == 0 || g.M == 0 || g.N == 0 {
		return nil
	}
	switch g.DType {
	case dtype.Float32:
		gemmF32(g)
	case dtype.Float64:
		gemmF64(g)
	case dtype.Float16:
		floatMatMul(g, func(h dtype.Half) float32 { return h.Float32() }, dtype.HalfFromFloat32)
	case dtype.BFloat16:
		floatMatMul(g, func(h dtype.BF16) float32 { return h.Float32() }, dtype.BF16FromFloat32)
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

// productLoop calls dot(a, b, c) for every element of C, with the offsets of
// row i of A[batch], column j of B[batch] and element (i, j) of C[batch].
func productLoop(g *kernel.Gemm, dot func(ai, bj, cij int)) {
	for bt := 0; bt < g.Batch; bt++ {
		for i := 0; i < g.M; i++ {
			for j := 0; j < g.N; j++ {
				dot(bt*g.A.BatchStride+i*g.A.RowStride, bt*g.B.BatchStride+j*g.B.ColStride,
					bt*g.C.BatchStride+i*g.C.RowStride+j*g.C.ColStride)
			}
		}
	}
}

// floatMatMul is the product of 16-bit floats, accumulated in float32.
func floatMatMul[T dtype.Half | dtype.BF16](g *kernel.Gemm, load func(T) float32, store func(float32) T) {
	a, b, c := elems[T](g.A, g, g.M, g.K), elems[T](g.B, g, g.K, g.N), elems[T](g.C, g, g.M, g.N)
	alpha, beta := float32(g.Alpha), float32(g.Beta)
	productLoop(g, func(ai, bj, cij int) {
		var acc float32
		for p := 0; p < g.K; p++ {
			acc += load(a[ai+p*g.A.ColStride]) * load(b[bj+p*g.B.RowStride])
		}
		r := alpha * acc
		if beta != 0 {
			r += beta * load(c[cij])
		}
		c[cij] = store(r)
	})
}

// intMatMul is the product of integers, accumulated in int64 with
// wrapping, as PyTorch's; alpha and beta are truncated to integers.
func intMatMul[T uint8 | int8 | int16 | int32 | int64](g *kernel.Gemm) {
	a, b, c := elems[T](g.A, g, g.M, g.K), elems[T](g.B, g, g.K, g.N), elems[T](g.C, g, g.M, g.N)
	alpha, beta := int64(g.Alpha), int64(g.Beta)
	productLoop(g, func(ai, bj, cij int) {
		var acc int64
		for p := 0; p < g.K; p++ {
			acc += int64(a[ai+p*g.A.ColStride]) * int64(b[bj+p*g.B.RowStride])
		}
		r := alpha * acc
		if beta != 0 {
			r += beta * int64(c[cij])
		}
		c[cij] = T(r)
	})
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
