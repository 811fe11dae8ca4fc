package elem

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Note [SLEEF's exp]
//
// PyTorch 1.13 computes e^x of float32 (and of bfloat16, through float32)
// with SLEEF's Sleef_expf8_u10 / Sleef_expf16_u10 for every layout: its
// unary kernels copy a strided input into a buffer for the vectorized
// function. That function is not correctly rounded (9% of inputs
// differ from e^x rounded, by an ulp), so goten computes the same steps,
// with the same constants and the same fused roundings, and matches it
// bit for bit (vec.ExpF32 in assembly and its Go twin, and ExpF32 here for
// the generated loops):
//
//	q = round(x·log2e) (nearest even), s = x − q·L2U − q·L2L (two fused
//	steps), u = Horner(c0..c5, s) (fused steps), u = 1 + (s²·u + s)
//	(fused), e^x = u·2^(q>>1)·2^(q−q>>1)
//
// with x clamped to [-104, 100] first: below, SLEEF returns 0, which e^-104
// already rounds to; above, +Inf, which e^100 already overflows to. A
// NaN comes back unchanged. float16 goes through the same function
// (PyTorch 1.13 has no float16 exp on the CPU: "exp_vml_cpu" not
// implemented for 'Half').

// The constants of Note [SLEEF's exp].
const (
	sleefL2U = float32(0.693145751953125)
	sleefL2L = float32(1.428606765330187045e-06)
	sleefLo  = float32(-104)
	sleefHi  = float32(100)
	log2e32  = float32(1.442695040888963407359924681001892137426645954152985934135449406931)
)

// sleefExpPoly is SLEEF's polynomial of expf, highest degree first.
var sleefExpPoly = [6]float32{0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156, 0.166666671633720397949219, 0.5}

// ExpF32 is e^x as PyTorch 1.13's float32 kernels compute it (Note
// [SLEEF's exp]).
func ExpF32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, sleefLo), sleefHi)
	q := float32(math.RoundToEven(float64(float32(x * log2e32))))
	s := dtype.FMA32(-q, sleefL2U, x)
	s = dtype.FMA32(-q, sleefL2L, s)
	u := sleefExpPoly[0]
	for _, c := range sleefExpPoly[1:] {
		u = dtype.FMA32(u, s, c)
	}
	u = 1 + dtype.FMA32(float32(s*s), u, s)
	k := int32(q)
	h := k >> 1
	return float32(u*pow2f(h)) * pow2f(k-h)
}

// pow2f is 2^k for k in [-126, 127].
func pow2f(k int32) float32 { return math.Float32frombits(uint32(k+127) << 23) }
