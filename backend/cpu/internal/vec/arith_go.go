package vec

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Pure-Go twins of the arithmetic primitives. Each one is the reference the
// assembly must match bit for bit, and what runs with the purego build tag,
// off amd64, or on CPUs without AVX2 and FMA.

// addF32Go is AddF32's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] + b[i]
//	}
func addF32Go(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// addScalarF32Go is AddScalarF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] + s
//	}
func addScalarF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

// subF32Go is SubF32's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] - b[i]
//	}
func subF32Go(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

// subScalarF32Go is SubScalarF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] - s
//	}
func subScalarF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - s
	}
}

// mulF32Go is MulF32's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] * b[i]
//	}
func mulF32Go(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

// mulScalarF32Go is MulScalarF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] * s
//	}
func mulScalarF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * s
	}
}

// divF32Go is DivF32's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] / b[i]
//	}
func divF32Go(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
}

// divScalarF32Go is DivScalarF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] / s
//	}
func divScalarF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / s
	}
}

// scalarSubF32Go is ScalarSubF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = s - a[i]
//	}
func scalarSubF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s - a[i]
	}
}

// scalarDivF32Go is ScalarDivF32's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = s / a[i]
//	}
func scalarDivF32Go(dst, a []float32, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s / a[i]
	}
}

// axpyF32Go is AxpyF32's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = fmaF32(alpha, b[i], a[i])
//	}
func axpyF32Go(dst, a, b []float32, alpha float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = fmaF32(alpha, b[i], a[i])
	}
}

// addF64Go is AddF64's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] + b[i]
//	}
func addF64Go(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// addScalarF64Go is AddScalarF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] + s
//	}
func addScalarF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

// subF64Go is SubF64's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] - b[i]
//	}
func subF64Go(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

// subScalarF64Go is SubScalarF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] - s
//	}
func subScalarF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - s
	}
}

// mulF64Go is MulF64's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] * b[i]
//	}
func mulF64Go(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

// mulScalarF64Go is MulScalarF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] * s
//	}
func mulScalarF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * s
	}
}

// divF64Go is DivF64's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] / b[i]
//	}
func divF64Go(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
}

// divScalarF64Go is DivScalarF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = a[i] / s
//	}
func divScalarF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / s
	}
}

// scalarSubF64Go is ScalarSubF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = s - a[i]
//	}
func scalarSubF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s - a[i]
	}
}

// scalarDivF64Go is ScalarDivF64's pure-Go twin, its exact loop:
//
//	a = a[:len(dst)]
//	for i := range dst {
//		dst[i] = s / a[i]
//	}
func scalarDivF64Go(dst, a []float64, s float64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = s / a[i]
	}
}

// axpyF64Go is AxpyF64's pure-Go twin, its exact loop:
//
//	a, b = a[:len(dst)], b[:len(dst)]
//	for i := range dst {
//		dst[i] = math.FMA(alpha, b[i], a[i])
//	}
func axpyF64Go(dst, a, b []float64, alpha float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = math.FMA(alpha, b[i], a[i])
	}
}

// fmaF32 returns x*y + z rounded once to float32, as the FMA instructions
// do ([dtype.FMA32]).
func fmaF32(x, y, z float32) float32 { return dtype.FMA32(x, y, z) }
