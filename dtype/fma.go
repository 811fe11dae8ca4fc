package dtype

import "math"

// FMA32 returns x*y + z rounded once to float32, as the FMA instructions do.
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
func FMA32(x, y, z float32) float32 {
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
