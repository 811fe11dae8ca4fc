//go:build !amd64 || purego

package vec

// Without assembly every primitive is its pure-Go twin.

// SIMD reports whether the elementwise kernels of zz_elem_amd64.go run in
// assembly: never without it.
const SIMD = false

// AddF32 sets dst[i] = a[i] + b[i].
// Its exact loop is addF32Go's.
func AddF32(dst, a, b []float32) { addF32Go(dst, a, b) }

// AddScalarF32 sets dst[i] = a[i] + s.
// Its exact loop is addScalarF32Go's.
func AddScalarF32(dst, a []float32, s float32) { addScalarF32Go(dst, a, s) }

// SubF32 sets dst[i] = a[i] - b[i].
// Its exact loop is subF32Go's.
func SubF32(dst, a, b []float32) { subF32Go(dst, a, b) }

// SubScalarF32 sets dst[i] = a[i] - s.
// Its exact loop is subScalarF32Go's.
func SubScalarF32(dst, a []float32, s float32) { subScalarF32Go(dst, a, s) }

// MulF32 sets dst[i] = a[i] * b[i].
// Its exact loop is mulF32Go's.
func MulF32(dst, a, b []float32) { mulF32Go(dst, a, b) }

// MulScalarF32 sets dst[i] = a[i] * s.
// Its exact loop is mulScalarF32Go's.
func MulScalarF32(dst, a []float32, s float32) { mulScalarF32Go(dst, a, s) }

// DivF32 sets dst[i] = a[i] / b[i].
// Its exact loop is divF32Go's.
func DivF32(dst, a, b []float32) { divF32Go(dst, a, b) }

// DivScalarF32 sets dst[i] = a[i] / s.
// Its exact loop is divScalarF32Go's.
func DivScalarF32(dst, a []float32, s float32) { divScalarF32Go(dst, a, s) }

// ScalarSubF32 sets dst[i] = s - a[i].
// Its exact loop is scalarSubF32Go's.
func ScalarSubF32(dst, a []float32, s float32) { scalarSubF32Go(dst, a, s) }

// ScalarDivF32 sets dst[i] = s / a[i].
// Its exact loop is scalarDivF32Go's.
func ScalarDivF32(dst, a []float32, s float32) { scalarDivF32Go(dst, a, s) }

// AxpyF32 sets dst[i] = a[i] + alpha*b[i] with a single rounding (fused
// multiply-add, as PyTorch's add with alpha).
// Its exact loop is axpyF32Go's.
func AxpyF32(dst, a, b []float32, alpha float32) { axpyF32Go(dst, a, b, alpha) }

// AddF64 sets dst[i] = a[i] + b[i].
// Its exact loop is addF64Go's.
func AddF64(dst, a, b []float64) { addF64Go(dst, a, b) }

// AddScalarF64 sets dst[i] = a[i] + s.
// Its exact loop is addScalarF64Go's.
func AddScalarF64(dst, a []float64, s float64) { addScalarF64Go(dst, a, s) }

// SubF64 sets dst[i] = a[i] - b[i].
// Its exact loop is subF64Go's.
func SubF64(dst, a, b []float64) { subF64Go(dst, a, b) }

// SubScalarF64 sets dst[i] = a[i] - s.
// Its exact loop is subScalarF64Go's.
func SubScalarF64(dst, a []float64, s float64) { subScalarF64Go(dst, a, s) }

// MulF64 sets dst[i] = a[i] * b[i].
// Its exact loop is mulF64Go's.
func MulF64(dst, a, b []float64) { mulF64Go(dst, a, b) }

// MulScalarF64 sets dst[i] = a[i] * s.
// Its exact loop is mulScalarF64Go's.
func MulScalarF64(dst, a []float64, s float64) { mulScalarF64Go(dst, a, s) }

// DivF64 sets dst[i] = a[i] / b[i].
// Its exact loop is divF64Go's.
func DivF64(dst, a, b []float64) { divF64Go(dst, a, b) }

// DivScalarF64 sets dst[i] = a[i] / s.
// Its exact loop is divScalarF64Go's.
func DivScalarF64(dst, a []float64, s float64) { divScalarF64Go(dst, a, s) }

// ScalarSubF64 sets dst[i] = s - a[i].
// Its exact loop is scalarSubF64Go's.
func ScalarSubF64(dst, a []float64, s float64) { scalarSubF64Go(dst, a, s) }

// ScalarDivF64 sets dst[i] = s / a[i].
// Its exact loop is scalarDivF64Go's.
func ScalarDivF64(dst, a []float64, s float64) { scalarDivF64Go(dst, a, s) }

// AxpyF64 sets dst[i] = a[i] + alpha*b[i] with a single rounding (fused
// multiply-add, as PyTorch's add with alpha).
// Its exact loop is axpyF64Go's.
func AxpyF64(dst, a, b []float64, alpha float64) { axpyF64Go(dst, a, b, alpha) }

// F32ToF16 sets dst[i] to the bits of src[i] rounded to float16 (nearest even;
// overflow to ±inf; NaN becomes the quiet NaN sign|0x7e00), as
// dtype.HalfFromFloat32.
// Its exact loop is f32ToF16Go's.
func F32ToF16(dst []uint16, src []float32) { f32ToF16Go(dst, src) }

// F32ToF16Rows runs [F32ToF16] on each of rows rows of rowLen elements,
// row r of dst at element r·dstStride and of src at r·srcStride (strides
// ≥ 0), in one call (Note [Storing tiles] in backend/cpu/internal/gemm).
// It panics if dst or src does not hold every element of the rows.
// Its exact loop is f32ToF16RowsGo's.
func F32ToF16Rows(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	if !convRowsEmpty(len(dst), len(src), rows, rowLen, dstStride, srcStride) {
		f32ToF16RowsGo(dst, src, rows, rowLen, dstStride, srcStride)
	}
}

// F16ToF32 sets dst[i] to the float16 whose bits are src[i], exactly (NaN
// payload kept, not quieted), as dtype.Half.Float32.
// Its exact loop is f16ToF32Go's.
func F16ToF32(dst []float32, src []uint16) { f16ToF32Go(dst, src) }

// F32ToBF16 sets dst[i] to the bits of src[i] rounded to bfloat16 (nearest
// even; NaN keeps its top bits with the quiet bit set), as
// dtype.BF16FromFloat32.
// Its exact loop is f32ToBF16Go's.
func F32ToBF16(dst []uint16, src []float32) { f32ToBF16Go(dst, src) }

// F32ToBF16Rows runs [F32ToBF16] on each of rows rows of rowLen elements,
// row r of dst at element r·dstStride and of src at r·srcStride (strides
// ≥ 0), in one call (Note [Storing tiles] in backend/cpu/internal/gemm).
// It panics if dst or src does not hold every element of the rows.
// Its exact loop is f32ToBF16RowsGo's.
func F32ToBF16Rows(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	if !convRowsEmpty(len(dst), len(src), rows, rowLen, dstStride, srcStride) {
		f32ToBF16RowsGo(dst, src, rows, rowLen, dstStride, srcStride)
	}
}

// BF16ToF32 sets dst[i] to the bfloat16 whose bits are src[i], exactly.
// Its exact loop is bf16ToF32Go's.
func BF16ToF32(dst []float32, src []uint16) { bf16ToF32Go(dst, src) }

// I32ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
// Its exact loop is i32ToF32Go's.
func I32ToF32(dst []float32, src []int32) { i32ToF32Go(dst, src) }

// F32ToF64 sets dst[i] = float64(src[i]).
// Its exact loop is f32ToF64Go's.
func F32ToF64(dst []float64, src []float32) { f32ToF64Go(dst, src) }

// F64ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
// Its exact loop is f64ToF32Go's.
func F64ToF32(dst []float32, src []float64) { f64ToF32Go(dst, src) }
