// Package elem holds the scalar functions and accumulator states that the
// op table's expressions call (package optable): what an op computes on one
// element, where it is too long to write inline. Every backend generated
// from the table calls these same functions, so each op's scalar meaning
// lives in the table and here, nowhere else.
//
// Integer division helpers return 0 for a zero divisor instead of
// panicking: the op layer refuses integer division by zero before a kernel
// runs (PyTorch's ZeroDivisionError), and a kernel running on a worker
// goroutine must never crash the program.
package elem

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/internal/sleef"
)

// Signed lists the signed integer loop types.
type Signed interface{ int8 | int16 | int32 | int64 }

// Integer lists the integer loop types.
type Integer interface {
	uint8 | int8 | int16 | int32 | int64
}

// Float lists the float loop types (float16 and bfloat16 compute in float32).
type Float interface{ float32 | float64 }

// Ordered lists every loop type, bool included (false < true).
type Ordered interface {
	bool | uint8 | int8 | int16 | int32 | int64 | float32 | float64
}

// AbsInt is |a|, wrapping for the most negative value.
func AbsInt[T Signed](a T) T {
	if a < 0 {
		return -a
	}
	return a
}

// SignU is the sign of an unsigned a: 0 or 1.
func SignU[T uint8](a T) T {
	if a > 0 {
		return 1
	}
	return 0
}

// Sign is -1, 0 or 1; NaN gives 0 (PyTorch 1.13).
func Sign[T Signed | Float](a T) T {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return 0
}

// Sigmoid is 1/(1+e^-x).
func Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Silu is x·sigmoid(x).
func Silu(x float64) float64 { return x / (1 + math.Exp(-x)) }

// Gelu is x·Φ(x), Φ the standard normal CDF (the erf form).
func Gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

// GeluTanh is gelu's tanh approximation, 0.5x(1+tanh(√(2/π)(x+0.044715x³))).
func GeluTanh(x float64) float64 {
	const k = 0.7978845608028654 // √(2/π)
	return 0.5 * x * (1 + math.Tanh(k*(x+0.044715*x*x*x)))
}

// Logit is log(x/(1-x)), with x clamped to [lo, hi] in T first when clamp
// is set (PyTorch's logit_kernel: lo = eps, hi = 1 - eps in the loop type;
// NaN stays NaN).
func Logit[T Float](x, lo, hi T, clamp bool) T {
	if clamp {
		if x < lo {
			x = lo
		} else if x > hi {
			x = hi
		}
	}
	f := float64(x)
	return T(Log(f / (1 - f)))
}

// LogitOf is [Logit], or [LogitBF16] of float32 x holding a bfloat16
// with steps (Note [Bfloat16 steps]).
func LogitOf[T Float](x, lo, hi T, clamp, steps bool) T {
	if steps {
		return T(LogitBF16(float32(x), float32(lo), float32(hi), clamp))
	}
	return Logit(x, lo, hi, clamp)
}

// Log is math.Log, exact on subnormal x too: Go's amd64 math.Log does not
// normalise them (golang/go#56600) and is off by up to 35 for the
// smallest, so they are scaled by 2^52 first.
func Log(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p52) - 52*math.Ln2
	}
	return math.Log(x)
}

// LogF32 is log x as PyTorch 1.13's float32 kernels compute it: SLEEF's
// logf (Note [SLEEF's log] in package internal/sleef).
func LogF32(x float32) float32 { return sleef.LogF32(x) }

// Log2F32 is log₂ x as PyTorch 1.13's float32 kernels compute it: SLEEF's
// log2f (Note [SLEEF's log] in package internal/sleef).
func Log2F32(x float32) float32 { return sleef.Log2F32(x) }

// Expm1F32 is e^x − 1 as PyTorch 1.13's float32 kernels compute it:
// SLEEF's expm1f (package internal/sleef).
func Expm1F32(x float32) float32 { return sleef.Expm1F32(x) }

// Log1pF32 is log(1 + x) as PyTorch 1.13's float32 kernels compute it:
// SLEEF's log1pf (package internal/sleef).
func Log1pF32(x float32) float32 { return sleef.Log1pF32(x) }

// Log10F32 is log₁₀ x as PyTorch 1.13's float32 kernels compute it:
// SLEEF's log10f (Note [SLEEF's log] in package internal/sleef).
func Log10F32(x float32) float32 { return sleef.Log10F32(x) }

// Log1p is ln(1 + x) as PyTorch 1.13's CPU kernels compute it, with
// SLEEF's log1p for every float dtype: +Inf for x above big, though ln(1 +
// x) is still finite there. big is 1e307 for float64, and float32's 1e38
// for float32 and the 16-bit floats, which compute in float32; the table
// gives it per dtype, as the reference backend computes every float in
// float64.
func Log1p[T Float](x T, big float64) T {
	if float64(x) > big {
		return T(math.Inf(1))
	}
	return T(math.Log1p(float64(x)))
}

// Note [SLEEF's sinh and cosh]
// PyTorch 1.13's vectorized sinh and cosh are SLEEF's, which form e^|x|
// in the compute dtype and give ±Inf (+Inf for cosh) wherever that
// overflows, |x| > ln of the dtype's largest value (88.7228 in float32,
// 709.78 in float64), though sinh x and cosh x ≈ e^|x|/2 stay finite up
// to ln 2 more; the scalar tail of its loops calls the C library, which
// returns them. So the ops' loops, in the vector body of a row (Note
// [Vector bodies] in package optable), are [SinhVec] and [CoshVec], with
// the float32 bound for the float32 loops of float32 and bfloat16, and
// their SIMD kernels compute the same; elsewhere they are sinh and cosh.

// LnMaxF32 and LnMaxF64 are ln of the largest float32 and float64: the
// bounds of [SinhVec] and [CoshVec].
var (
	LnMaxF32 = math.Log(math.MaxFloat32)
	LnMaxF64 = math.Log(math.MaxFloat64)
)

// SinhVec is sinh x as PyTorch's vectorized kernels compute it: ±Inf for
// |x| > lnMax (Note [SLEEF's sinh and cosh]).
func SinhVec[T Float](x T, lnMax float64) T {
	if math.Abs(float64(x)) > lnMax {
		return T(math.Copysign(math.Inf(1), float64(x)))
	}
	return T(Sinh(float64(x)))
}

// CoshVec is cosh x as PyTorch's vectorized kernels compute it: +Inf for
// |x| > lnMax (Note [SLEEF's sinh and cosh]).
func CoshVec[T Float](x T, lnMax float64) T {
	if math.Abs(float64(x)) > lnMax {
		return T(math.Inf(1))
	}
	return T(Cosh(float64(x)))
}

// Exp is e^x, finite wherever it is: Go's math.Exp on amd64 returns +Inf
// from x ≈ 709.1 on, short of ln of the largest float64 (709.78), so
// beyond 709 it is e^(x/2)·e^(x/2).
func Exp(x float64) float64 {
	switch {
	case x > LnMaxF64:
		return math.Inf(1)
	case x > 709:
		w := math.Exp(0.5 * x)
		return w * w
	}
	return math.Exp(x)
}

// Sinh is sinh x, finite wherever it is: math.Sinh forms e^|x|/2 with
// math.Exp, so beyond 709 it is e^(|x|/2) · e^(|x|/2)/2, as the C
// library's sinh, which PyTorch's scalar loops call, computes it (finite
// up to 710.47).
func Sinh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		w := math.Exp(0.5 * a)
		return math.Copysign(0.5*w*w, x)
	}
	return math.Sinh(x)
}

// Cosh is cosh x, finite wherever it is, as [Sinh].
func Cosh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		w := math.Exp(0.5 * a)
		return 0.5 * w * w
	}
	return math.Cosh(x)
}

// Log10 is math.Log10 through [Log].
func Log10(x float64) float64 { return Log(x) * (1 / math.Ln10) }

// DivTrunc is a/b rounded toward zero (Go's /); 0 for b = 0.
func DivTrunc[T Integer](a, b T) T {
	if b == 0 {
		return 0
	}
	return a / b
}

// ModTrunc is C's a % b (the sign of a); 0 for b = 0.
func ModTrunc[T Integer](a, b T) T {
	if b == 0 {
		return 0
	}
	return a % b
}

// FloorDivInt is Python's // on integers; 0 for b = 0.
func FloorDivInt[T Signed](a, b T) T {
	if b == 0 {
		return 0
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// RemInt is Python's % on integers: the sign of b; 0 for b = 0.
func RemInt[T Signed](a, b T) T {
	if b == 0 {
		return 0
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// FloorDiv is PyTorch's div_floor_floating (CPython's float floordiv):
// computed from the exact fmod so that a == (a // b)·b + a % b holds.
func FloorDiv[T Float](a, b T) T {
	if b == 0 {
		return a / b
	}
	mod := T(math.Mod(float64(a), float64(b)))
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div != 0 {
		fl := T(math.Floor(float64(div)))
		if div-fl > 0.5 {
			fl++
		}
		return fl
	}
	return T(math.Copysign(0, float64(a/b)))
}

// Rem is PyTorch's float remainder: fmod, moved to the sign of b.
func Rem[T Float](a, b T) T {
	mod := T(math.Mod(float64(a), float64(b)))
	if mod != 0 && (b < 0) != (mod < 0) {
		mod += b
	}
	return mod
}

// Note [SLEEF's fmod]
// PyTorch 1.13's vectorized fmod is SLEEF's, and its vectorized remainder
// and floor_divide are built on it. SLEEF's fmod(x, y) takes n = |x| and
// d = |y|, both first scaled by 2^54 (float32: 2^25) when d is below the
// smallest normal, and starts from the quotient toward0(n)·toward0(1/d),
// each factor one ulp toward zero. Where that product overflows, the
// quotient is +Inf and the result NaN, though the true remainder is
// finite: 1.7e308 fmod 0.5 (C gives 0), 1 fmod 1e-310. PyTorch's scalar
// tail, and rows it does not vectorize, call the C library's fmod. So the
// three ops' loops, in the vector body of a row (Note [Vector bodies] in
// package optable), are [FmodVec], [RemVec] and [FloorDivVec]: NaN where
// [FmodOverflows], else the C values. The rule matched torch.fmod's NaNs
// on 4000 random pairs of each of float64 and float32, extreme magnitudes
// among them.

// FmodOverflows reports whether SLEEF's fmod of a and b overflows its
// first quotient (Note [SLEEF's fmod]), computed in T.
func FmodOverflows[T Float](a, b T) bool {
	n, d := T(math.Abs(float64(a))), T(math.Abs(float64(b)))
	if d == 0 || n != n || d != d || math.IsInf(float64(n), 0) {
		return false // NaN either way
	}
	minNormal, scale := T(0x1p-1022), T(0x1p54)
	if unsafe.Sizeof(a) == 4 {
		minNormal, scale = T(0x1p-126), T(0x1p25)
	}
	if d < minNormal {
		n, d = n*scale, d*scale
	}
	if n < d {
		return false // x itself
	}
	q := toward0(n) * toward0(1/d)
	return math.IsInf(float64(q), 0)
}

// toward0 is x one ulp toward zero (0 stays 0), as SLEEF's toward0.
func toward0[T Float](x T) T {
	if x == 0 {
		return 0
	}
	if unsafe.Sizeof(x) == 4 {
		return T(math.Float32frombits(math.Float32bits(float32(x)) - 1))
	}
	return T(math.Float64frombits(math.Float64bits(float64(x)) - 1))
}

// FmodVec is C's fmod(a, b) as PyTorch's vectorized kernel computes it:
// NaN where [FmodOverflows] (Note [SLEEF's fmod]).
func FmodVec[T Float](a, b T) T {
	if FmodOverflows(a, b) {
		return T(math.NaN())
	}
	return T(math.Mod(float64(a), float64(b)))
}

// RemVec is [Rem] as PyTorch's vectorized kernel computes it: NaN where
// [FmodOverflows].
func RemVec[T Float](a, b T) T {
	if FmodOverflows(a, b) {
		return T(math.NaN())
	}
	return Rem(a, b)
}

// FloorDivVec is [FloorDiv] as PyTorch's vectorized kernel computes it:
// NaN where [FmodOverflows].
func FloorDivVec[T Float](a, b T) T {
	if FmodOverflows(a, b) {
		return T(math.NaN())
	}
	return FloorDiv(a, b)
}

// PowUint8 is a^b by repeated squaring, wrapping.
func PowUint8[T uint8](a, b T) T { return powSquaring(a, b) }

// PowInt is a^b by repeated squaring, wrapping; a negative exponent gives
// 1/a^|b| truncated (PyTorch's powi): 1 for a = 1, ±1 for a = -1, else 0.
func PowInt[T Signed](a, b T) T {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	return powSquaring(a, b)
}

// powSquaring is a^b for b ≥ 0 by repeated squaring, wrapping.
func powSquaring[T uint8 | Signed](a, b T) T {
	r := T(1)
	for b != 0 {
		if b&1 != 0 {
			r *= a
		}
		b >>= 1
		a *= a
	}
	return r
}

// Fmax is C's fmax: the larger of a and b, ignoring one NaN operand.
func Fmax[T Float](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return max(a, b)
}

// Fmin is C's fmin: the smaller of a and b, ignoring one NaN operand.
func Fmin[T Float](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return min(a, b)
}

// MulAdd is x·y + z rounded once to T, as a fused multiply-add computes it.
// PyTorch's CPU kernels are compiled with FMA contraction, so that add's
// a + alpha·b, addcmul's self + value·t1·t2 and lerp's branches are fused
// there (an x·y past T's range can still give a finite sum); Go fuses
// nothing on amd64 by itself. float32's is the float64 sum of the exact
// product, rounded to float32: one rounding but where that sum is itself
// inexact and falls exactly halfway between two float32s (about one
// inexact sum in 2^29), which keeps it inlined in the loops (dtype.FMA32
// is the exact, slower form).
func MulAdd[T Float](x, y, z T) T {
	if unsafe.Sizeof(x) == 8 {
		return T(math.FMA(float64(x), float64(y), float64(z)))
	}
	return T(float32(float64(x)*float64(y) + float64(z)))
}

// Lerp is a + w·(b - a) by PyTorch's two-branch formula, exact at both ends.
// Each branch is one fused multiply-add, as PyTorch's kernel, built with
// FMA contraction, computes it.
func Lerp[T Float](a, b, w T) T {
	d := b - a
	if w < 0.5 { // PyTorch 1.13's test: a negative weight takes this branch too (lerp(inf, 1, -2) = inf)
		return MulAdd(w, d, a)
	}
	return MulAdd(-d, 1-w, b)
}

// Select is c ? x : y.
func Select[T any](c bool, x, y T) T {
	if c {
		return x
	}
	return y
}
