package kernel

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
)

// Matrix is a batch of strided matrices in one storage: element (b, i, j)
// is at element Offset + b·BatchStride + i·RowStride + j·ColStride.
type Matrix struct {
	Storage                           *device.Storage
	Offset                            int // in elements
	BatchStride, RowStride, ColStride int // in elements; any sign-free layout, transposes included
}

// Gemm describes C[b] = Alpha·A[b]·B[b] + Beta·C[b] for every b < Batch,
// with A[b] M×K, B[b] K×N and C[b] M×N, all of dtype DType. Beta 0 means C's
// old values are ignored (NaN included). C must not overlap A or B.
// Float16 and bfloat16 accumulate in float32; integers in int64.
type Gemm struct {
	DType          dtype.DType
	Batch, M, N, K int
	A, B, C        Matrix
	Alpha, Beta    float64
	// Plain asks for PyTorch 1.13's plain loop, which its bmm and baddbmm
	// run for small matrices (K·M·N < 400): each element of C starts from
	// Beta times its old value (0 when Beta is 0) and adds, in the order
	// of k, (Alpha·A[i][k])·B[k][j], every float product rounded (no fused
	// multiply-add). Where a product overflows, the result is then
	// PyTorch's. The CPU honours it for float32 and float64; other dtypes
	// round the same way or, for float16 and bfloat16, accumulate in
	// float32 either way.
	Plain bool
}
