package vec

import "math"

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

// fmaF32 returns x*y + z rounded once to float32, as the FMA instructions do.
//
// float32(math.FMA(float64(x), float64(y), float64(z))) would round twice
// (to float64, then to float32) and can be off by one ulp when the float64
// sum lands exactly halfway between two float32s. Here the product is exact
// in float64 (24+24 bits), the sum's rounding error is recovered exactly
// (TwoSum), and the float64 sum is rounded to odd, which makes the final
// rounding to float32 correct (Boldo & Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd").
//
// A NaN operand comes back quieted, never the default NaN that inf*0 would
// make, as from the FMA instructions. With several NaN operands the first of
// x, y, z is returned, which is what VFMADD231PS (alpha*b + a) does on the
// AMD Zen machine this was checked on; the tests compare only that some NaN
// comes out in that case.
func fmaF32(x, y, z float32) float32 {
	if x != x || y != y || z != z {
		v := z
		if x != x {
			v = x
		} else if y != y {
			v = y
		}
		return math.Float32frombits(math.Float32bits(v) | 0x00400000)
	}
	p := float64(x) * float64(y)
	zz := float64(z)
	s := p + zz
	if s-s != 0 { // ±inf, or NaN from inf-inf or inf*0: nothing to round
		return float32(s)
	}
	bb := s - p
	e := (p - (s - bb)) + (zz - bb) // p + zz == s + e exactly
	if e != 0 {
		if bits := math.Float64bits(s); bits&1 == 0 {
			// Round to odd: step to the odd neighbour on e's side.
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}
