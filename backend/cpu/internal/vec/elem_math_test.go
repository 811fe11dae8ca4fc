package vec

import (
	"math"
	"testing"

	optelem "github.com/goten-ml/goten/optable/elem"
)

// The float function kernels (elem_math_go.go) against float64 math:
// within each one's stated bound over the float32 range sampled, exact on
// the special values. TestElemKernels checks them against their twins bit
// for bit; this file checks what both compute. CI runs it at every level
// (GOTEN_CPU) and with purego, so the AVX-512, AVX2 and Go paths all meet
// the bounds.

type mathCase32 struct {
	name string
	fn   func(dst, x []float32)
	ref  func(float64) float64
	ulps float64
}

func sigmoid64(x float64) float64 {
	if x < 0 {
		e := math.Exp(x)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(-x))
}

// silu64 is x·sigmoid(x), as (x·e^(x/2))·e^(x/2) where e^x is subnormal.
func silu64(x float64) float64 {
	if x < -700 && x > math.Inf(-1) {
		h := math.Exp(x / 2)
		return x * h * h
	}
	return x * sigmoid64(x)
}

var mathCases32 = []mathCase32{
	{"Expm1F32", Expm1F32, math.Expm1, 2},
	{"Exp2F32", Exp2F32, math.Exp2, 2},
	{"LogF32", LogF32, math.Log, 2},
	{"Log2F32", Log2F32, math.Log2, 2},
	{"Log10F32", Log10F32, math.Log10, 2},
	{"Log1pF32", Log1pF32, torchLog1p(float64(float32(1e38))), 2},
	{"SinF32", SinF32, math.Sin, 1},
	{"CosF32", CosF32, math.Cos, 1},
	{"TanF32", TanF32, math.Tan, 2},
	{"SiluF32", SiluF32, silu64, 3},
	{"ErfF32", ErfF32, math.Erf, 3},
	{"ErfcF32", ErfcF32, math.Erfc, 4},
	{"FloorF32", FloorF32, math.Floor, 0},
	{"CeilF32", CeilF32, math.Ceil, 0},
	{"RoundF32", RoundF32, math.RoundToEven, 0},
	{"TruncF32", TruncF32, math.Trunc, 0},
	{"FracF32", FracF32, func(x float64) float64 { return x - math.Trunc(x) }, 0},
	{"SignF32", SignF32, sign64Ref, 0},
	{"RsqrtF32", RsqrtF32, func(x float64) float64 { return 1 / math.Sqrt(x) }, 1.5},
	{"ReciprocalF32", ReciprocalF32, func(x float64) float64 { return 1 / x }, 0.5},
	{"AtanF32", AtanF32, math.Atan, 1},
	{"AsinF32", AsinF32, math.Asin, 1},
	{"AcosF32", AcosF32, math.Acos, 1},
	{"SinhF32", SinhF32, sinhRef32, 1},
	{"CoshF32", CoshF32, coshRef32, 1},
	{"AsinhF32", AsinhF32, math.Asinh, 1},
	{"AcoshF32", AcoshF32, math.Acosh, 1},
	{"AtanhF32", AtanhF32, math.Atanh, 1},
	{"GeluTanhF32", GeluTanhF32, geluTanh64, 1},
	{"LogitF32", LogitF32, func(x float64) float64 { return math.Log(x / (1 - x)) }, 1},
}

// geluTanh64 is PyTorch's 0.5x(1 + tanh u), u = √(2/π)(x + 0.044715x³),
// as x·sigmoid(2u): 1 + tanh u cancels in float64 too for x below about
// -6, where the result is still a normal float32.
func geluTanh64(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.NaN() // −∞·0, as PyTorch's formula gives
	}
	u := math.Sqrt(2/math.Pi) * (x + 0.044715*x*x*x)
	return x * sigmoid64(2*u)
}

func sign64Ref(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// sameSpecial reports whether got is the float32 rounding of want exactly
// (any NaN for a NaN; the sign of a zero counts).
func sameSpecial32(got float32, want float64) bool {
	w := float32(want)
	if w != w {
		return got != got
	}
	return math.Float32bits(got) == math.Float32bits(w)
}

// sweep32 returns every stride-th float32 bit pattern (NaNs, infinities
// and subnormals included) and the special values.
func sweep32(stride uint32) []float32 {
	var xs []float32
	for b := uint64(0); b < 1<<32; b += uint64(stride) {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	for _, b := range specials32 {
		xs = append(xs, math.Float32frombits(b))
	}
	for i := 0; i < 20000; i++ {
		xs = append(xs, float32(rng.NormFloat64()*8), float32(rng.NormFloat64()*1e-3))
	}
	return xs
}

func mathStride() uint32 {
	if testing.Short() || !SIMD {
		return 100003
	}
	return 4099
}

// TestMathAccuracyF32 runs each float32 kernel over the sampled range and
// compares with float64 math rounded to float32: within the bound where
// the result is finite and nonzero, exactly where it is zero, infinite or
// NaN or the input is special (±0, ±Inf, NaN).
func TestMathAccuracyF32(t *testing.T) {
	xs := sweep32(mathStride())
	got := make([]float32, len(xs))
	for _, c := range mathCases32 {
		c.fn(got, xs)
		worst, wx := 0.0, float32(0)
		bad := 0
		for i, x := range xs {
			want := c.ref(float64(x))
			w := float32(want)
			special := x != x || x == 0 || math.IsInf(float64(x), 0) || w != w || w == 0 || math.IsInf(float64(w), 0)
			if special {
				// results that round to 0 may be the least subnormal
				// within the bound; the rest are exact
				if w == 0 && x == x && x != 0 && ulpErr(got[i], want) <= c.ulps && math.Signbit(float64(got[i])) == math.Signbit(want) {
					continue
				}
				if !sameSpecial32(got[i], want) {
					if bad++; bad <= 5 {
						t.Errorf("%s(%v [%#x]) = %v [%#x], want %v exactly", c.name, x, math.Float32bits(x), got[i], math.Float32bits(got[i]), w)
					}
				}
				continue
			}
			if e := ulpErr(got[i], want); e > worst || e != e {
				worst, wx = e, x
			}
		}
		t.Logf("%s: worst %.3f ulp at %v over %d inputs", c.name, worst, wx, len(xs))
		if !(worst <= c.ulps) {
			out := make([]float32, 1)
			c.fn(out, []float32{wx})
			t.Errorf("%s(%v) = %v, want %v: %.3f ulp, bound %v", c.name, wx, out[0], c.ref(float64(wx)), worst, c.ulps)
		}
	}
}

// TestMathNaNF32 checks that the kernels that say so return a NaN input
// unchanged, payload and sign included (quieted by those computed in
// float64); those with a slow path return some NaN (TestMathAccuracyF32).
func TestMathNaNF32(t *testing.T) {
	anyNaN := map[string]bool{"SignF32": true, "LogF32": true, "Log2F32": true, "Log10F32": true, "Log1pF32": true,
		"SinF32": true, "CosF32": true, "TanF32": true, "AtanF32": true, "AsinF32": true, "AcosF32": true,
		"SinhF32": true, "CoshF32": true, "AsinhF32": true, "AcoshF32": true, "AtanhF32": true, "LogitF32": true}
	quieted := map[string]bool{"GeluTanhF32": true}
	for _, c := range mathCases32 {
		if anyNaN[c.name] {
			continue
		}
		for _, b := range []uint32{0x7fc00000, 0xffc00001, 0x7f800001, 0xff812345} {
			got := []float32{0}
			c.fn(got, []float32{math.Float32frombits(b)})
			want := b
			if quieted[c.name] {
				want |= 1 << 22
			}
			if math.Float32bits(got[0]) != want {
				t.Errorf("%s(%#x) = %#x, want the NaN unchanged", c.name, b, math.Float32bits(got[0]))
			}
		}
	}
}

// TestPowAccuracyF32 checks pow over pairs: bases over the sampled range
// with exponents near the useful ones, and the special pairs of C's pow.
func TestPowAccuracyF32(t *testing.T) {
	xs := sweep32(mathStride() * 4)
	ys := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 2.5, 0.5, -0.5, 3, 1.0 / 3, 7.25, -13.5, 100, 1e10, -1e10,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(1)}
	for range 8 {
		ys = append(ys, float32(rng.NormFloat64()*4))
	}
	got := make([]float32, len(xs))
	worst, wx, wy := 0.0, float32(0), float32(0)
	bad := 0
	for _, y := range ys {
		for _, variant := range []string{"vv", "vs"} {
			if variant == "vv" {
				yv := make([]float32, len(xs))
				for i := range yv {
					yv[i] = y
				}
				PowF32(got, xs, yv)
			} else {
				PowScalarF32(got, xs, y)
			}
			for i, x := range xs {
				want := math.Pow(float64(x), float64(y))
				w := float32(want)
				if x != x || y != y || x == 0 || y == 0 || math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) || w != w || w == 0 || math.IsInf(float64(w), 0) {
					if w == 0 && ulpErr(got[i], want) <= 1 {
						continue
					}
					if !sameSpecial32(got[i], want) {
						if bad++; bad <= 5 {
							t.Errorf("pow(%v, %v) = %v, want %v exactly (%s)", x, y, got[i], w, variant)
						}
					}
					continue
				}
				if e := ulpErr(got[i], want); e > worst || e != e {
					worst, wx, wy = e, x, y
				}
			}
		}
	}
	// s^x with the scalar base
	for _, s := range []float32{2, 0.5, 10, 1} {
		ScalarPowF32(got, xs, s)
		for i, x := range xs {
			want := math.Pow(float64(s), float64(x))
			if w := float32(want); w != w || w == 0 || math.IsInf(float64(w), 0) || x != x {
				if !sameSpecial32(got[i], want) && !(w == 0 && ulpErr(got[i], want) <= 1) {
					if bad++; bad <= 5 {
						t.Errorf("pow(%v, %v) = %v, want %v exactly (sv)", s, x, got[i], w)
					}
				}
				continue
			}
			if e := ulpErr(got[i], want); e > worst {
				worst, wx, wy = e, s, x
			}
		}
	}
	t.Logf("PowF32: worst %.3f ulp at pow(%v, %v)", worst, wx, wy)
	if !(worst <= 1) {
		t.Errorf("pow(%v, %v): %.3f ulp, bound 1", wx, wy, worst)
	}
}

type mathCase64 struct {
	name string
	fn   func(dst, x []float64)
	ref  func(float64) float64
	ulps float64 // beside math's function, itself within 1 ulp
}

var mathCases64 = []mathCase64{
	{"ExpF64", ExpF64, exp64Ref, 2},
	{"Expm1F64", Expm1F64, math.Expm1, 2},
	{"Exp2F64", Exp2F64, math.Exp2, 2},
	{"LogF64", LogF64, logRef64, 2},
	{"Log2F64", Log2F64, log2Ref, 2},
	{"Log10F64", Log10F64, func(x float64) float64 { return logRef64(x) / math.Ln10 }, 2},
	{"Log1pF64", Log1pF64, torchLog1p(1e307), 2},
	{"TanhF64", TanhF64, math.Tanh, 3},
	{"SigmoidF64", SigmoidF64, sigmoid64, 3},
	{"SiluF64", SiluF64, silu64, 3},
	{"FloorF64", FloorF64, math.Floor, 0},
	{"CeilF64", CeilF64, math.Ceil, 0},
	{"RoundF64", RoundF64, math.RoundToEven, 0},
	{"TruncF64", TruncF64, math.Trunc, 0},
	{"FracF64", FracF64, func(x float64) float64 { return x - math.Trunc(x) }, 0},
	{"SignF64", SignF64, sign64Ref, 0},
	{"RsqrtF64", RsqrtF64, func(x float64) float64 { return 1 / math.Sqrt(x) }, 1},
	{"ReciprocalF64", ReciprocalF64, func(x float64) float64 { return 1 / x }, 0},
	{"SinF64", SinF64, math.Sin, 2},
	{"CosF64", CosF64, math.Cos, 2},
	{"TanF64", TanF64, tanRef64, 3},
	{"AtanF64", AtanF64, math.Atan, 2},
	{"AsinF64", AsinF64, asinRef64, 2},
	{"AcosF64", AcosF64, acosRef64, 2},
	{"SinhF64", SinhF64, sinhRef64, 3},
	{"CoshF64", CoshF64, coshRef64, 3},
	{"AsinhF64", AsinhF64, math.Asinh, 3},
	{"AcoshF64", AcoshF64, math.Acosh, 3},
	{"AtanhF64", AtanhF64, math.Atanh, 3},
	{"ErfF64", ErfF64, math.Erf, 2},
	{"ErfcF64", ErfcF64, math.Erfc, 3},
	{"LogitF64", LogitF64, func(x float64) float64 { return logRef64(x / (1 - x)) }, 1},
}

// exp64Ref is math.Exp, whose amd64 assembly overflows early (e^709.76
// is finite).
func exp64Ref(x float64) float64 {
	if x > 709 {
		return math.Exp(x-1) * math.E
	}
	return math.Exp(x)
}

// The float64 references are Go's math functions (Cephes and fdlibm,
// within about 1 ulp), but where they are not: math.Tan returns x itself
// for x² ≤ 1e-14 (off by x³/3, up to 25 ulp), math.Acos is π/2 − asin x
// (which cancels near 1, 20 ulp at 0.997), math.Asin cancels in √(1 − x²), and math.Sinh and math.Cosh
// compute e^|x| first, which overflows from 709.78 where they do not
// until 710.48. The replacements below were checked against mpmath at
// the points where math's failed.

// tanRef64 is tan x, by its series where math.Tan returns x.
func tanRef64(x float64) float64 {
	if math.Abs(x) < 1e-6 {
		z := x * x
		return x + x*z*(1.0/3+z*2.0/15)
	}
	return math.Tan(x)
}

// asinRef64 is asin x as atan2(x, √((1−x)(1+x))), which does not cancel
// near ±1 as math.Asin's √(1 − x²) does (3 ulp at -0.9995).
func asinRef64(x float64) float64 {
	if math.Abs(x) <= 1 {
		return math.Atan2(x, math.Sqrt((1-x)*(1+x)))
	}
	return math.Asin(x)
}

// acosRef64 is acos x as 2·asin(√((1−x)/2)) for x > ½, where 1 − x is
// exact.
func acosRef64(x float64) float64 {
	if x > 0.5 && x <= 1 {
		return 2 * math.Asin(math.Sqrt((1-x)/2))
	}
	return math.Acos(x)
}

// sinhRef64 and coshRef64 are e^(|x|−2)·(e²/2) beyond 709 (math.Exp's
// amd64 assembly overflows early too), and ±Inf beyond ln(max float64),
// as PyTorch's SLEEF kernels (Note [SLEEF's sinh and cosh] in
// optable/elem).
func sinhRef64(x float64) float64 {
	if a := math.Abs(x); a > optelem.LnMaxF64 {
		return math.Copysign(math.Inf(1), x)
	} else if a > 709 {
		return math.Copysign(math.Exp(a-2)*(math.E*math.E/2), x)
	}
	return math.Sinh(x)
}

func coshRef64(x float64) float64 {
	if a := math.Abs(x); a > optelem.LnMaxF64 {
		return math.Inf(1)
	} else if a > 709 {
		return math.Exp(a-2) * (math.E * math.E / 2)
	}
	return math.Cosh(x)
}

// sinhRef32 and coshRef32 are math's, ±Inf beyond ln(max float32) as
// PyTorch's SLEEF kernels.
func sinhRef32(x float64) float64 { return optelem.SinhVec(x, optelem.LnMaxF32) }
func coshRef32(x float64) float64 { return optelem.CoshVec(x, optelem.LnMaxF32) }

// log2Ref is math.Log2, which cancels near 1 (log(frexp's fraction) +
// its exponent), with log1p there.
func log2Ref(x float64) float64 {
	if x > 0.5 && x < 2 {
		return math.Log1p(x-1) * math.Log2E
	}
	return math.Log2(x)
}

// ulpErr64 is |got − want| in units of the float64 spacing at want.
func ulpErr64(got, want float64) float64 {
	if got == want {
		return 0
	}
	a := math.Abs(want)
	ulp := math.Nextafter(a, math.Inf(1)) - a
	if math.IsInf(ulp, 0) {
		ulp = a - math.Nextafter(a, 0)
	}
	return math.Abs(got-want) / ulp
}

// TestMathAccuracyF64 is TestMathAccuracyF32 for the float64 kernels: the
// float64 range sampled by exponent (every exponent, random mantissas),
// and normal draws where the functions change.
func TestMathAccuracyF64(t *testing.T) {
	var xs []float64
	per := 64
	if testing.Short() || !SIMD {
		per = 8
	}
	for e := uint64(0); e < 2048; e++ {
		for range per {
			b := e<<52 | rng.Uint64()&(1<<52-1)
			xs = append(xs, math.Float64frombits(b), -math.Float64frombits(b))
		}
	}
	for _, b := range specials64 {
		xs = append(xs, math.Float64frombits(b))
	}
	for range 20000 {
		xs = append(xs, rng.NormFloat64()*8, rng.NormFloat64()*300, rng.NormFloat64()*1e-3)
	}
	got := make([]float64, len(xs))
	for _, c := range mathCases64 {
		c.fn(got, xs)
		worst, wx := 0.0, 0.0
		bad := 0
		for i, x := range xs {
			want := c.ref(x)
			if x != x || x == 0 || math.IsInf(x, 0) || want != want || want == 0 || math.IsInf(want, 0) {
				if want == 0 && x == x && ulpErr64(got[i], want) <= c.ulps+1 {
					continue
				}
				if !(got[i] == want && math.Signbit(got[i]) == math.Signbit(want) || want != want && got[i] != got[i]) {
					if bad++; bad <= 5 {
						t.Errorf("%s(%v) = %v, want %v exactly", c.name, x, got[i], want)
					}
				}
				continue
			}
			if e := ulpErr64(got[i], want); e > worst || e != e {
				worst, wx = e, x
			}
		}
		t.Logf("%s: worst %.3f ulp at %v over %d inputs", c.name, worst, wx, len(xs))
		if !(worst <= c.ulps+1) {
			t.Errorf("%s(%v): %.3f ulp from math's, bound %v+1", c.name, wx, worst, c.ulps)
		}
	}
}

// torchLog1p is log1p as PyTorch's SLEEF kernels give it: +Inf above big
// (optable/elem.Log1p).
func torchLog1p(big float64) func(float64) float64 {
	return func(x float64) float64 {
		if x > big {
			return math.Inf(1)
		}
		return math.Log1p(x)
	}
}
