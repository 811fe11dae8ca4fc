package vec

import "github.com/goten-ml/goten/dtype"

// F32ToF16 sets dst[i] to src[i] rounded to float16 (nearest even), as bits.
func F32ToF16(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = uint16(dtype.HalfFromFloat32(src[i]))
	}
}

// F16ToF32 sets dst[i] to the float16 whose bits are src[i].
func F16ToF32(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = dtype.Half(src[i]).Float32()
	}
}

// F32ToBF16 sets dst[i] to src[i] rounded to bfloat16 (nearest even), as bits.
func F32ToBF16(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = uint16(dtype.BF16FromFloat32(src[i]))
	}
}

// BF16ToF32 sets dst[i] to the bfloat16 whose bits are src[i].
func BF16ToF32(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = dtype.BF16(src[i]).Float32()
	}
}

// I32ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
func I32ToF32(dst []float32, src []int32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float32(src[i])
	}
}

// F32ToF64 sets dst[i] = float64(src[i]).
func F32ToF64(dst []float64, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float64(src[i])
	}
}

// F64ToF32 sets dst[i] = float32(src[i]) (round to nearest even).
func F64ToF32(dst []float32, src []float64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = float32(src[i])
	}
}
