package dtype

import "math"

// Half is the element type of Float16: an IEEE 754 half-precision float, stored as its bits.
type Half uint16

// BF16 is the element type of BFloat16: a bfloat16 (the upper half of a float32), stored as its bits.
type BF16 uint16

// Note [Rounding to 16 bits]
// Both conversions round to nearest, ties to even, as PyTorch's c10::Half
// and c10::BFloat16 do; NaN stays NaN (quiet) and overflow gives ±inf.
// float64 values are first rounded to float32, as PyTorch converts
// float64 → float32 → float16 (a double rounding the conformance cases avoid).

// HalfFromFloat32 rounds f to the nearest float16 (ties to even).
func HalfFromFloat32(f float32) Half {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xff)
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return Half(sign | 0x7e00)
		}
		return Half(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return Half(sign | 0x7c00)
	}
	if e <= 0 {
		// subnormal half (or zero): shift the mantissa with its implicit bit
		if e < -10 {
			return Half(sign)
		}
		m := mant | 0x800000
		shift := uint32(14 - e)
		half := uint32(1) << (shift - 1)
		r := m >> shift
		rem := m & ((1 << shift) - 1)
		if rem > half || (rem == half && r&1 == 1) {
			r++
		}
		return Half(sign | uint16(r))
	}
	r := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && r&1 == 1) {
		r++ // may carry into the exponent, up to inf: still correct
	}
	return Half(sign | uint16(r))
}

// Float32 returns h exactly as a float32.
func (h Half) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		// subnormal: normalise
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		mant &= 0x3ff
		return math.Float32frombits(sign | e<<23 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// BF16FromFloat32 rounds f to the nearest bfloat16 (ties to even).
func BF16FromFloat32(f float32) BF16 {
	b := math.Float32bits(f)
	if f != f {
		return BF16(uint16(b>>16) | 0x40)
	}
	b += 0x7fff + (b>>16)&1
	return BF16(b >> 16)
}

// Float32 returns b exactly as a float32.
func (b BF16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// Round returns x rounded to nearest even in the float dtype d: to
// float32, and for float16 and bfloat16 on through float32, as their
// arithmetic goes; x itself for float64 and every other dtype.
func Round(d DType, x float64) float64 {
	switch d {
	case Float32:
		return float64(float32(x))
	case Float16:
		return float64(HalfFromFloat32(float32(x)).Float32())
	case BFloat16:
		return float64(BF16FromFloat32(float32(x)).Float32())
	}
	return x
}
