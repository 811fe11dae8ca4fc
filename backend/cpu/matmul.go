package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
)

// MatMul runs a batched matrix product. float32 and float64 run on the
// packed GEMM; the other dtypes on a generic loop that accumulates in
// float32 (16-bit floats) or int64 (integers).
func (*Backend) MatMul(g *kernel.Gemm) error {
	if g.Batch == 0 || g.M == 0 || g.N == 0 {
		return nil
	}
	switch g.DType {
	case dtype.Float32:
		gemmF32(g)
		return nil
	case dtype.Float64:
		gemmF64(g)
		return nil
	}
	return genericMatMul(g)
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

// genericMatMul is the loop for dtypes without a packed GEMM.
func genericMatMul(g *kernel.Gemm) error {
	es := g.DType.Size()
	at := func(m kernel.Matrix, b, i, j int) unsafe.Pointer {
		return unsafe.Add(m.Storage.Pointer(), (m.Offset+b*m.BatchStride+i*m.RowStride+j*m.ColStride)*es)
	}
	load := loadFloat64Fn(g.DType)
	store := storeFloat64Fn(g.DType)
	if load == nil || store == nil {
		return notImplemented(kernel.Invalid, g.DType)
	}
	for b := 0; b < g.Batch; b++ {
		for i := 0; i < g.M; i++ {
			for j := 0; j < g.N; j++ {
				var acc float64
				for p := 0; p < g.K; p++ {
					acc += load(at(g.A, b, i, p)) * load(at(g.B, b, p, j))
				}
				c := at(g.C, b, i, j)
				r := g.Alpha * acc
				if g.Beta != 0 {
					r += g.Beta * load(c)
				}
				store(c, r)
			}
		}
	}
	return nil
}

func loadFloat64Fn(d dtype.DType) func(unsafe.Pointer) float64 {
	switch d {
	case dtype.Float16:
		return func(p unsafe.Pointer) float64 { return float64((*(*dtype.Half)(p)).Float32()) }
	case dtype.BFloat16:
		return func(p unsafe.Pointer) float64 { return float64((*(*dtype.BF16)(p)).Float32()) }
	case dtype.Uint8:
		return func(p unsafe.Pointer) float64 { return float64(*(*uint8)(p)) }
	case dtype.Int8:
		return func(p unsafe.Pointer) float64 { return float64(*(*int8)(p)) }
	case dtype.Int16:
		return func(p unsafe.Pointer) float64 { return float64(*(*int16)(p)) }
	case dtype.Int32:
		return func(p unsafe.Pointer) float64 { return float64(*(*int32)(p)) }
	case dtype.Int64:
		return func(p unsafe.Pointer) float64 { return float64(*(*int64)(p)) }
	}
	return nil
}

func storeFloat64Fn(d dtype.DType) func(unsafe.Pointer, float64) {
	switch d {
	case dtype.Float16:
		return func(p unsafe.Pointer, x float64) { *(*dtype.Half)(p) = dtype.HalfFromFloat32(float32(x)) }
	case dtype.BFloat16:
		return func(p unsafe.Pointer, x float64) { *(*dtype.BF16)(p) = dtype.BF16FromFloat32(float32(x)) }
	case dtype.Uint8:
		return func(p unsafe.Pointer, x float64) { *(*uint8)(p) = uint8(int64(x)) }
	case dtype.Int8:
		return func(p unsafe.Pointer, x float64) { *(*int8)(p) = int8(int64(x)) }
	case dtype.Int16:
		return func(p unsafe.Pointer, x float64) { *(*int16)(p) = int16(int64(x)) }
	case dtype.Int32:
		return func(p unsafe.Pointer, x float64) { *(*int32)(p) = int32(int64(x)) }
	case dtype.Int64:
		return func(p unsafe.Pointer, x float64) { *(*int64)(p) = int64(x) }
	}
	return nil
}

// gemmF32 and gemmF64 are naive until the packed GEMM lands.
func gemmF32(g *kernel.Gemm) { naive[float32](g) }
func gemmF64(g *kernel.Gemm) { naive[float64](g) }

func naive[T float32 | float64](g *kernel.Gemm) {
	a, b, c := elems[T](g.A, g, g.M, g.K), elems[T](g.B, g, g.K, g.N), elems[T](g.C, g, g.M, g.N)
	alpha, beta := T(g.Alpha), T(g.Beta)
	for bt := 0; bt < g.Batch; bt++ {
		for i := 0; i < g.M; i++ {
			for j := 0; j < g.N; j++ {
				var acc T
				for p := 0; p < g.K; p++ {
					acc += a[bt*g.A.BatchStride+i*g.A.RowStride+p*g.A.ColStride] * b[bt*g.B.BatchStride+p*g.B.RowStride+j*g.B.ColStride]
				}
				ci := bt*g.C.BatchStride + i*g.C.RowStride + j*g.C.ColStride
				if beta == 0 {
					c[ci] = alpha * acc
				} else {
					c[ci] = alpha*acc + beta*c[ci]
				}
			}
		}
	}
}
