package elem

import (
	"math"
	"math/bits"
)

// Philox returns the four 32-bit words of Philox4x32-10 (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", the generator of
// PyTorch's CUDA streams) for a 64-bit key and a 64-bit counter, in the
// counter's low words. It is a pure function of its arguments: element i
// of a random fill draws counter offset+i, whatever thread computes it
// (Note [Random streams] in package kernel).
func Philox(key, counter uint64) [4]uint32 {
	const (
		m0, m1 = 0xD2511F53, 0xCD9E8D57
		w0, w1 = 0x9E3779B9, 0xBB67AE85
	)
	c0, c1, c2, c3 := uint32(counter), uint32(counter>>32), uint32(0), uint32(0)
	k0, k1 := uint32(key), uint32(key>>32)
	for r := 0; r < 10; r++ {
		hi0, lo0 := bits.Mul32(m0, c0)
		hi1, lo1 := bits.Mul32(m1, c2)
		c0, c1, c2, c3 = hi1^c1^k0, lo1, hi0^c3^k1, lo0
		k0 += w0
		k1 += w1
	}
	return [4]uint32{c0, c1, c2, c3}
}

// unit53 is a float64 uniform in [0, 1) from 53 bits of two words.
func unit53(a, b uint32) float64 {
	return float64((uint64(a)<<32|uint64(b))>>11) * 0x1p-53
}

// UniformOf is uniform_'s value from the words w: low + (high-low)·u with
// u uniform in [0, 1) made of the output dtype's own number of significant
// bits (digits: 53 for float64, 24 for float32, 11 for float16, 8 for
// bfloat16), computed in float64 for float64 and in float32 otherwise, as
// PyTorch's CPU uniform_real_distribution does: u is then exact in the
// dtype, so a float16 or bfloat16 value of [0, 1) never rounds up to 1.
func UniformOf(w [4]uint32, digits uint, low, high float64) float64 {
	if digits > 24 {
		return unit53(w[0], w[1])*(high-low) + low
	}
	u := float32(w[0]>>(32-digits)) * float32(1/float64(uint64(1)<<digits))
	return float64(u*float32(high-low) + float32(low))
}

// NormalOf is normal_'s value from the words w: mean + std·z, z standard
// normal by the Box–Muller transform of two 53-bit uniforms, computed in
// float64 (an output of another float dtype rounds it).
func NormalOf(w [4]uint32, mean, std float64) float64 {
	u1, u2 := unit53(w[0], w[1]), unit53(w[2], w[3])
	z := math.Sqrt(-2*math.Log1p(-u1)) * math.Cos(2*math.Pi*u2)
	return mean + std*z
}

// BernoulliOf is bernoulli's value from the words w: whether a 53-bit
// uniform in [0, 1) falls below p (so p 0 never, p 1 always).
func BernoulliOf(w [4]uint32, p float64) bool { return unit53(w[0], w[1]) < p }

// RandIntOf is random_'s value from the words w: an integer in [low,
// high), the 64-bit word modulo the range (PyTorch's method; high > low).
func RandIntOf(w [4]uint32, low, high int64) int64 {
	return low + int64((uint64(w[0])<<32|uint64(w[1]))%uint64(high-low))
}
