package vec

import "math"

var _ = math.Float32bits

// AddF32 sets dst[i] = a[i] + b[i].
func AddF32(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// AddScalarF32 sets dst[i] = a[i] + s.
func AddScalarF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

// SubF32 sets dst[i] = a[i] - b[i].
func SubF32(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

// SubScalarF32 sets dst[i] = a[i] - s.
func SubScalarF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - s
	}
}

// MulF32 sets dst[i] = a[i] * b[i].
func MulF32(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

// MulScalarF32 sets dst[i] = a[i] * s.
func MulScalarF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * s
	}
}

// DivF32 sets dst[i] = a[i] / b[i].
func DivF32(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
}

// DivScalarF32 sets dst[i] = a[i] / s.
func DivScalarF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / s
	}
}

// ScalarSubF32 sets dst[i] = s - a[i].
func ScalarSubF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s - a[i]
	}
}

// ScalarDivF32 sets dst[i] = s / a[i].
func ScalarDivF32(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s / a[i]
	}
}

// AxpyF32 sets dst[i] = a[i] + alpha*b[i] (fused multiply-add, as PyTorch's add with alpha).
func AxpyF32(dst, a, b []float32, alpha float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = float32(math.FMA(float64(alpha), float64(b[i]), float64(a[i])))
	}
}

// AddF64 sets dst[i] = a[i] + b[i].
func AddF64(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// AddScalarF64 sets dst[i] = a[i] + s.
func AddScalarF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

// SubF64 sets dst[i] = a[i] - b[i].
func SubF64(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

// SubScalarF64 sets dst[i] = a[i] - s.
func SubScalarF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - s
	}
}

// MulF64 sets dst[i] = a[i] * b[i].
func MulF64(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

// MulScalarF64 sets dst[i] = a[i] * s.
func MulScalarF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * s
	}
}

// DivF64 sets dst[i] = a[i] / b[i].
func DivF64(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
}

// DivScalarF64 sets dst[i] = a[i] / s.
func DivScalarF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / s
	}
}

// ScalarSubF64 sets dst[i] = s - a[i].
func ScalarSubF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s - a[i]
	}
}

// ScalarDivF64 sets dst[i] = s / a[i].
func ScalarDivF64(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s / a[i]
	}
}

// AxpyF64 sets dst[i] = a[i] + alpha*b[i] (fused multiply-add, as PyTorch's add with alpha).
func AxpyF64(dst, a, b []float64, alpha float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = float64(math.FMA(float64(alpha), float64(b[i]), float64(a[i])))
	}
}
