package vec

import (
	"fmt"

	"github.com/goten-ml/goten/dtype"
)

// Pure-Go twins of the conversions; see arith_go.go.

// f32ToF16Go is F32ToF16's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = uint16(dtype.HalfFromFloat32(src[i]))
//	}
func f32ToF16Go(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = uint16(dtype.HalfFromFloat32(src[i]))
	}
}

// f16ToF32Go is F16ToF32's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = dtype.Half(src[i]).Float32()
//	}
func f16ToF32Go(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = dtype.Half(src[i]).Float32()
	}
}

// f32ToBF16Go is F32ToBF16's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = uint16(dtype.BF16FromFloat32(src[i]))
//	}
func f32ToBF16Go(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = uint16(dtype.BF16FromFloat32(src[i]))
	}
}

// bf16ToF32Go is BF16ToF32's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = dtype.BF16(src[i]).Float32()
//	}
func bf16ToF32Go(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = dtype.BF16(src[i]).Float32()
	}
}

// i32ToF32Go is I32ToF32's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = float32(src[i])
//	}
func i32ToF32Go(dst []float32, src []int32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float32(src[i])
	}
}

// f32ToF64Go is F32ToF64's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = float64(src[i])
//	}
func f32ToF64Go(dst []float64, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float64(src[i])
	}
}

// f64ToF32Go is F64ToF32's pure-Go twin, its exact loop:
//
//	src = src[:len(dst)]
//	for i := range dst {
//		dst[i] = float32(src[i])
//	}
func f64ToF32Go(dst []float32, src []float64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float32(src[i])
	}
}

// f32ToBF16RowsGo is F32ToBF16Rows' pure-Go twin, its exact loop:
//
//	for r := 0; r < rows; r++ {
//		f32ToBF16Go(dst[r*dstStride:][:rowLen], src[r*srcStride:][:rowLen])
//	}
func f32ToBF16RowsGo(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	for r := 0; r < rows; r++ {
		f32ToBF16Go(dst[r*dstStride:][:rowLen], src[r*srcStride:][:rowLen])
	}
}

// f32ToF16RowsGo is F32ToF16Rows' pure-Go twin, its exact loop:
//
//	for r := 0; r < rows; r++ {
//		f32ToF16Go(dst[r*dstStride:][:rowLen], src[r*srcStride:][:rowLen])
//	}
func f32ToF16RowsGo(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int) {
	for r := 0; r < rows; r++ {
		f32ToF16Go(dst[r*dstStride:][:rowLen], src[r*srcStride:][:rowLen])
	}
}

// convRowsEmpty reports whether the rows of a rows conversion have no
// element, and panics if dst or src (of these lengths) do not hold every
// element they reach.
func convRowsEmpty(nd, ns, rows, rowLen, dstStride, srcStride int) bool {
	if rows <= 0 || rowLen <= 0 {
		return true
	}
	if !holds(nd, dstStride, rows, rowLen) || !holds(ns, srcStride, rows, rowLen) {
		panic(fmt.Sprintf("vec: %d rows of %d, strides %d and %d, out of operands of %d and %d elements",
			rows, rowLen, dstStride, srcStride, nd, ns))
	}
	return false
}
