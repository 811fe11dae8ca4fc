package elem

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Note [Bfloat16 steps]
// PyTorch 1.13 writes some CPU kernels in the arithmetic of their scalar_t:
// for bfloat16, every operation of c10::BFloat16 converts its operands to
// float, computes, and rounds the result back to bfloat16, and its
// Vectorized<BFloat16> does the same operation by operation. gelu (both
// forms), silu and logit are such kernels, so their bfloat16 results are
// the float32 operations of their formulas with each result rounded to
// bfloat16, not the formula rounded once (which differs in the last bit for
// a third to a half of random inputs). rsqrt's vector body computes 1/√x
// in float32 and rounds once; its scalar tail divides 1 by √x already
// rounded. The functions here take and return float32 holding bfloat16
// values; the transcendental steps are the float32 functions PyTorch's
// vectorized bfloat16 calls (SLEEF's expf and logf, erf and tanh rounded
// from float64).

// bf rounds x to bfloat16 (nearest even) and back.
func bf(x float32) float32 { return dtype.BF16FromFloat32(x).Float32() }

// The constants of PyTorch's kernels as bfloat16 holds them.
var (
	bfSqrtHalf  = bf(float32(math.Sqrt2 / 2))                              // gelu's M_SQRT1_2
	bfGeluBeta  = bf(float32(math.Sqrt2 * (2 / math.Sqrt(math.Pi)) * 0.5)) // gelu tanh's √(2/π)
	bfGeluKappa = bf(float32(0.044715))
)

// GeluBF16 is gelu of bfloat16 x step by step: x·0.5·(1 + erf(x·√½)).
func GeluBF16(x float32) float32 {
	e := bf(float32(math.Erf(float64(bf(x * bfSqrtHalf)))))
	return bf(bf(x*0.5) * bf(1+e))
}

// GeluTanhBF16 is gelu's tanh form of bfloat16 x step by step:
// 0.5·x·(1 + tanh(β·(x + κ·x·x·x))).
func GeluTanhBF16(x float32) float32 {
	cube := bf(bf(x*x) * x)
	inner := bf(bfGeluBeta * bf(x+bf(bfGeluKappa*cube)))
	t := bf(float32(math.Tanh(float64(inner))))
	return bf(bf(0.5*x) * bf(1+t))
}

// SiluBF16 is silu of bfloat16 x step by step: x / (1 + e^-x).
func SiluBF16(x float32) float32 {
	return bf(x / bf(1+bf(ExpF32(-x))))
}

// LogitBF16 is logit of bfloat16 x step by step: log(x / (1 - x)), x
// clamped as [Logit] does first.
func LogitBF16(x, lo, hi float32, clamp bool) float32 {
	if clamp {
		if x < lo {
			x = lo
		} else if x > hi {
			x = hi
		}
	}
	return bf(LogF32(bf(x / bf(1-x))))
}

// RsqrtBF16 is rsqrt of bfloat16 x: 1/√x rounded once in PyTorch's
// vector body, 1 over the rounded √x in its scalar tail.
func RsqrtBF16(x float32, vectorBody bool) float32 {
	s := float32(math.Sqrt(float64(x)))
	if vectorBody {
		return bf(1 / s)
	}
	return bf(1 / bf(s))
}
