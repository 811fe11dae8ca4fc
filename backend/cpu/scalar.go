package cpu

import "math"

// Scalar helpers called by the generated loops (zz_pointwise.go), one per
// expression too long to write inline. Integer division helpers return 0
// for a zero divisor instead of panicking: PyTorch raises there, the op
// layer's cases never divide an integer by zero, and a kernel running on a
// worker goroutine must not crash the program.

type signed interface{ int8 | int16 | int32 | int64 }

type integer interface {
	uint8 | int8 | int16 | int32 | int64
}

type float interface{ float32 | float64 }

func iabs[T signed](a T) T {
	if a < 0 {
		return -a
	}
	return a
}

func sgnU[T uint8](a T) T {
	if a > 0 {
		return 1
	}
	return 0
}

// sgn is -1, 0 or 1; NaN gives 0 (PyTorch 1.13).
func sgn[T signed | float](a T) T {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return 0
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func silu(x float64) float64 { return x / (1 + math.Exp(-x)) }

func gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

func geluTanh(x float64) float64 {
	const k = 0.7978845608028654 // √(2/π)
	return 0.5 * x * (1 + math.Tanh(k*(x+0.044715*x*x*x)))
}

// logit clamps x to [lo, hi] in T first when clamp is set (PyTorch's
// logit_kernel: lo = eps, hi = 1 - eps in the loop type; NaN stays NaN).
func logit[T float](x, lo, hi T, clamp bool) T {
	if clamp {
		if x < lo {
			x = lo
		} else if x > hi {
			x = hi
		}
	}
	f := float64(x)
	return T(logf64(f / (1 - f)))
}

// logf64 is math.Log, exact on subnormal x too: Go's amd64 math.Log does
// not normalise them (golang/go#56600) and is off by up to 35 for the
// smallest, so they are scaled by 2^52 first.
func logf64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p52) - 52*math.Ln2
	}
	return math.Log(x)
}

// log10f64 is math.Log10 through logf64.
func log10f64(x float64) float64 { return logf64(x) * (1 / math.Ln10) }

func divTrunc[T integer](a, b T) T {
	if b == 0 {
		return 0
	}
	return a / b
}

func modTrunc[T integer](a, b T) T {
	if b == 0 {
		return 0
	}
	return a % b
}

// divFloor is Python's // on integers.
func divFloor[T signed](a, b T) T {
	if b == 0 {
		return 0
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// remI is Python's % on integers: the sign of b.
func remI[T signed](a, b T) T {
	if b == 0 {
		return 0
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// divFloorF is PyTorch's div_floor_floating (CPython's float floordiv):
// computed from the exact fmod so that a == (a // b)·b + a % b holds.
func divFloorF[T float](a, b T) T {
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

// remF is PyTorch's float remainder: fmod, moved to the sign of b.
func remF[T float](a, b T) T {
	mod := T(math.Mod(float64(a), float64(b)))
	if mod != 0 && (b < 0) != (mod < 0) {
		mod += b
	}
	return mod
}

// powU is a^b by repeated squaring, wrapping.
func powU[T uint8](a, b T) T {
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

// powS is a^b by repeated squaring, wrapping; a negative exponent gives
// 1/a^|b| truncated (PyTorch's powi): 1 for a = 1, ±1 for a = -1, else 0.
func powS[T signed](a, b T) T {
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

// fmax and fmin ignore one NaN operand (C's fmax).
func fmax[T float](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return max(a, b)
}

func fmin[T float](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return min(a, b)
}

// lerp is PyTorch's two-branch formula, exact at both ends.
func lerp[T float](a, b, w T) T {
	d := b - a
	if w < 0.5 { // PyTorch 1.13's test: a negative weight takes this branch too (lerp(inf, 1, -2) = inf)
		return a + w*d
	}
	return b - d*(1-w)
}

func sel[T any](c bool, x, y T) T {
	if c {
		return x
	}
	return y
}
