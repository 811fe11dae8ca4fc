//go:build amd64 && !purego

package vec

import "github.com/goten-ml/goten/backend/cpu/internal/cpufeat"

//go:generate go run -C ../../../../asm . -out ../backend/cpu/internal/vec/zz_vec_amd64.s -stubs ../backend/cpu/internal/vec/zz_stubs_amd64.go -pkg vec
//go:generate go run -C ../../../../asm . -part elem -out ../backend/cpu/internal/vec/zz_elem_amd64.s -stubs ../backend/cpu/internal/vec/zz_elem_stubs_amd64.go -pkg vec -api ../backend/cpu/internal/vec/zz_elem

// useAVX2 reports that kernels may use AVX2 and FMA, useF16C that they may
// also use F16C, useAVX512 that they may use AVX-512 F, BW, DQ and VL (Note
// [Kernel levels] in package cpufeat). Every exported function checks its
// flag and otherwise runs its pure-Go twin (or the AVX2 assembly).
var (
	useAVX2   = cpufeat.Current().Level >= cpufeat.AVX2
	useF16C   = cpufeat.Current().F16C
	useAVX512 = cpufeat.Current().Level >= cpufeat.AVX512
)

// SIMD reports whether the elementwise kernels of zz_elem_amd64.go run in
// assembly (AVX2 or AVX-512). Their twins are exact but slower than a
// caller's own loop may be (they call the element function through a func
// value, and the float ones emulate the fused multiply-add): a caller with
// another loop should run that one when SIMD is false.
var SIMD = useAVX2

// AddF32 sets dst[i] = a[i] + b[i].
// Its exact loop is addF32Go's.
func AddF32(dst, a, b []float32) {
	if !useAVX2 {
		addF32Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	addF32AVX2(dst, a, b)
}

// AddScalarF32 sets dst[i] = a[i] + s.
// Its exact loop is addScalarF32Go's.
func AddScalarF32(dst, a []float32, s float32) {
	if !useAVX2 {
		addScalarF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	addScalarF32AVX2(dst, a, s)
}

// SubF32 sets dst[i] = a[i] - b[i].
// Its exact loop is subF32Go's.
func SubF32(dst, a, b []float32) {
	if !useAVX2 {
		subF32Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	subF32AVX2(dst, a, b)
}

// SubScalarF32 sets dst[i] = a[i] - s.
// Its exact loop is subScalarF32Go's.
func SubScalarF32(dst, a []float32, s float32) {
	if !useAVX2 {
		subScalarF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	subScalarF32AVX2(dst, a, s)
}

// MulF32 sets dst[i] = a[i] * b[i].
// Its exact loop is mulF32Go's.
func MulF32(dst, a, b []float32) {
	if !useAVX2 {
		mulF32Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	mulF32AVX2(dst, a, b)
}

// MulScalarF32 sets dst[i] = a[i] * s.
// Its exact loop is mulScalarF32Go's.
func MulScalarF32(dst, a []float32, s float32) {
	if !useAVX2 {
		mulScalarF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	mulScalarF32AVX2(dst, a, s)
}

// DivF32 sets dst[i] = a[i] / b[i].
// Its exact loop is divF32Go's.
func DivF32(dst, a, b []float32) {
	if !useAVX2 {
		divF32Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	divF32AVX2(dst, a, b)
}

// DivScalarF32 sets dst[i] = a[i] / s.
// Its exact loop is divScalarF32Go's.
func DivScalarF32(dst, a []float32, s float32) {
	if !useAVX2 {
		divScalarF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	divScalarF32AVX2(dst, a, s)
}

// ScalarSubF32 sets dst[i] = s - a[i].
// Its exact loop is scalarSubF32Go's.
func ScalarSubF32(dst, a []float32, s float32) {
	if !useAVX2 {
		scalarSubF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarSubF32AVX2(dst, a, s)
}

// ScalarDivF32 sets dst[i] = s / a[i].
// Its exact loop is scalarDivF32Go's.
func ScalarDivF32(dst, a []float32, s float32) {
	if !useAVX2 {
		scalarDivF32Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarDivF32AVX2(dst, a, s)
}

// AxpyF32 sets dst[i] = a[i] + alpha*b[i] with a single rounding (fused
// multiply-add, as PyTorch's add with alpha).
// Its exact loop is axpyF32Go's.
func AxpyF32(dst, a, b []float32, alpha float32) {
	if !useAVX2 {
		axpyF32Go(dst, a, b, alpha)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	axpyF32AVX2(dst, a, b, alpha)
}

// AddF64 sets dst[i] = a[i] + b[i].
// Its exact loop is addF64Go's.
func AddF64(dst, a, b []float64) {
	if !useAVX2 {
		addF64Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	addF64AVX2(dst, a, b)
}

// AddScalarF64 sets dst[i] = a[i] + s.
// Its exact loop is addScalarF64Go's.
func AddScalarF64(dst, a []float64, s float64) {
	if !useAVX2 {
		addScalarF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	addScalarF64AVX2(dst, a, s)
}

// SubF64 sets dst[i] = a[i] - b[i].
// Its exact loop is subF64Go's.
func SubF64(dst, a, b []float64) {
	if !useAVX2 {
		subF64Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	subF64AVX2(dst, a, b)
}

// SubScalarF64 sets dst[i] = a[i] - s.
// Its exact loop is subScalarF64Go's.
func SubScalarF64(dst, a []float64, s float64) {
	if !useAVX2 {
		subScalarF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	subScalarF64AVX2(dst, a, s)
}

// MulF64 sets dst[i] = a[i] * b[i].
// Its exact loop is mulF64Go's.
func MulF64(dst, a, b []float64) {
	if !useAVX2 {
		mulF64Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	mulF64AVX2(dst, a, b)
}

// MulScalarF64 sets dst[i] = a[i] * s.
// Its exact loop is mulScalarF64Go's.
func MulScalarF64(dst, a []float64, s float64) {
	if !useAVX2 {
		mulScalarF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	mulScalarF64AVX2(dst, a, s)
}

// DivF64 sets dst[i] = a[i] / b[i].
// Its exact loop is divF64Go's.
func DivF64(dst, a, b []float64) {
	if !useAVX2 {
		divF64Go(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	divF64AVX2(dst, a, b)
}

// DivScalarF64 sets dst[i] = a[i] / s.
// Its exact loop is divScalarF64Go's.
func DivScalarF64(dst, a []float64, s float64) {
	if !useAVX2 {
		divScalarF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	divScalarF64AVX2(dst, a, s)
}

// ScalarSubF64 sets dst[i] = s - a[i].
// Its exact loop is scalarSubF64Go's.
func ScalarSubF64(dst, a []float64, s float64) {
	if !useAVX2 {
		scalarSubF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarSubF64AVX2(dst, a, s)
}

// ScalarDivF64 sets dst[i] = s / a[i].
// Its exact loop is scalarDivF64Go's.
func ScalarDivF64(dst, a []float64, s float64) {
	if !useAVX2 {
		scalarDivF64Go(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarDivF64AVX2(dst, a, s)
}

// AxpyF64 sets dst[i] = a[i] + alpha*b[i] with a single rounding (fused
// multiply-add, as PyTorch's add with alpha).
// Its exact loop is axpyF64Go's.
func AxpyF64(dst, a, b []float64, alpha float64) {
	if !useAVX2 {
		axpyF64Go(dst, a, b, alpha)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	axpyF64AVX2(dst, a, b, alpha)
}

// F32ToF16 sets dst[i] to the bits of src[i] rounded to float16 (nearest even;
// overflow to ±inf; NaN becomes the quiet NaN sign|0x7e00), as
// dtype.HalfFromFloat32.
// Its exact loop is f32ToF16Go's.
func F32ToF16(dst []uint16, src []float32) {
	if !useF16C {
		f32ToF16Go(dst, src)
		return
	}
	src = src[:len(dst)]
	f32ToF16AVX2(dst, src)
}

// F32ToF16Rows runs [F32ToF16] on each of rows rows of rowLen elements,
// row r of dst at element r·dstStride and of src at r·srcStride (strides
// ≥ 0), in one call (Note [Storing tiles] in backend/cpu/internal/gemm).
// It panics if dst or src does not hold every element of the rows.
// Its exact loop is f32ToF16RowsGo's.
func F32ToF16Rows(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	switch {
	case convRowsEmpty(len(dst), len(src), rows, rowLen, dstStride, srcStride):
	case useF16C:
		f32ToF16RowsAVX2(dst, src, rows, rowLen, dstStride, srcStride)
	default:
		f32ToF16RowsGo(dst, src, rows, rowLen, dstStride, srcStride)
	}
}

// F16ToF32 sets dst[i] to the float16 whose bits are src[i], exactly (NaN
// payload kept, not quieted), as dtype.Half.Float32.
// Its exact loop is f16ToF32Go's.
func F16ToF32(dst []float32, src []uint16) {
	if !useF16C {
		f16ToF32Go(dst, src)
		return
	}
	src = src[:len(dst)]
	f16ToF32AVX2(dst, src)
}

// F32ToBF16 sets dst[i] to the bits of src[i] rounded to bfloat16 (nearest
// even; NaN keeps its top bits with the quiet bit set), as
// dtype.BF16FromFloat32.
// Its exact loop is f32ToBF16Go's.
func F32ToBF16(dst []uint16, src []float32) {
	switch {
	case useAVX512:
		f32ToBF16AVX512(dst, src[:len(dst)])
	case useAVX2:
		f32ToBF16AVX2(dst, src[:len(dst)])
	default:
		f32ToBF16Go(dst, src)
	}
}

// F32ToBF16Rows runs [F32ToBF16] on each of rows rows of rowLen elements,
// row r of dst at element r·dstStride and of src at r·srcStride (strides
// ≥ 0), in one call (Note [Storing tiles] in backend/cpu/internal/gemm).
// It panics if dst or src does not hold every element of the rows.
// Its exact loop is f32ToBF16RowsGo's.
func F32ToBF16Rows(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	switch {
	case convRowsEmpty(len(dst), len(src), rows, rowLen, dstStride, srcStride):
	case useAVX512:
		f32ToBF16RowsAVX512(dst, src, rows, rowLen, dstStride, srcStride)
	case !useAVX2:
		f32ToBF16RowsGo(dst, src, rows, rowLen, dstStride, srcStride)
	default:
		f32ToBF16RowsAVX2(dst, src, rows, rowLen, dstStride, srcStride)
	}
}

// BF16ToF32 sets dst[i] to the bfloat16 whose bits are src[i], exactly.
// Its exact loop is bf16ToF32Go's.
func BF16ToF32(dst []float32, src []uint16) {
	if !useAVX2 {
		bf16ToF32Go(dst, src)
		return
	}
	src = src[:len(dst)]
	bf16ToF32AVX2(dst, src)
}

// I32ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
// Its exact loop is i32ToF32Go's.
func I32ToF32(dst []float32, src []int32) {
	if !useAVX2 {
		i32ToF32Go(dst, src)
		return
	}
	src = src[:len(dst)]
	i32ToF32AVX2(dst, src)
}

// F32ToF64 sets dst[i] = float64(src[i]).
// Its exact loop is f32ToF64Go's.
func F32ToF64(dst []float64, src []float32) {
	if !useAVX2 {
		f32ToF64Go(dst, src)
		return
	}
	src = src[:len(dst)]
	f32ToF64AVX2(dst, src)
}

// F64ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
// Its exact loop is f64ToF32Go's.
func F64ToF32(dst []float32, src []float64) {
	if !useAVX2 {
		f64ToF32Go(dst, src)
		return
	}
	src = src[:len(dst)]
	f64ToF32AVX2(dst, src)
}
