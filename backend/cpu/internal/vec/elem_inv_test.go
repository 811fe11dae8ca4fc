package vec

import (
	"fmt"
	"math"
	"testing"
)

// TestInvDomainEdges checks the domain edges of the inverse and hyperbolic
// kernels exactly, in a vector long enough for the main loop, against the
// values C's math library defines there (Note [Inverse and hyperbolic
// functions]).
func TestInvDomainEdges(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negz := float32(math.Copysign(0, -1))
	below1 := math.Nextafter32(1, 0)
	above1 := math.Nextafter32(1, 2)
	cases := []struct {
		name string
		fn   func(dst, x []float32)
		x    []float32
		want []float32
	}{
		{"AsinF32", AsinF32, []float32{1, -1, above1, -above1, 2, inf, 0, negz},
			[]float32{float32(math.Pi / 2), -float32(math.Pi / 2), nan, nan, nan, nan, 0, negz}},
		{"AcosF32", AcosF32, []float32{1, -1, above1, -2, 0, negz},
			[]float32{0, float32(math.Pi), nan, nan, float32(math.Pi / 2), float32(math.Pi / 2)}},
		{"AtanF32", AtanF32, []float32{inf, -inf, 0, negz, 1, -1},
			[]float32{float32(math.Pi / 2), -float32(math.Pi / 2), 0, negz, float32(math.Pi / 4), -float32(math.Pi / 4)}},
		{"AtanhF32", AtanhF32, []float32{1, -1, above1, -2, 0, negz, below1},
			[]float32{inf, -inf, nan, nan, 0, negz, float32(math.Atanh(float64(below1)))}},
		{"AcoshF32", AcoshF32, []float32{1, below1, 0, -1, inf, above1},
			[]float32{0, nan, nan, nan, inf, float32(math.Acosh(float64(above1)))}},
		{"AsinhF32", AsinhF32, []float32{inf, -inf, 0, negz, math.MaxFloat32},
			[]float32{inf, -inf, 0, negz, float32(math.Asinh(math.MaxFloat32))}},
		// beyond ln(max float32), 88.72283905, PyTorch's SLEEF kernels
		// give ±Inf where sinh and cosh are finite (up to 89.4159)
		{"SinhF32", SinhF32, []float32{inf, -inf, 0, negz, 88.72283, 88.72284, -89, 89.4, 89.5, -89.5, math.MaxFloat32},
			[]float32{inf, -inf, 0, negz, float32(math.Sinh(float64(float32(88.72283)))), inf, -inf, inf, inf, -inf, inf}},
		{"CoshF32", CoshF32, []float32{inf, -inf, 0, negz, -88.72283, 88.72284, 89, 89.5, -math.MaxFloat32},
			[]float32{inf, inf, 1, 1, float32(math.Cosh(float64(float32(88.72283)))), inf, inf, inf, inf}},
		{"LogitF32", LogitF32, []float32{0, negz, 1, 0.5, 2, -1, above1, inf, -inf},
			[]float32{-inf, -inf, inf, 0, nan, nan, nan, nan, nan}},
		{"GeluTanhF32", GeluTanhF32, []float32{inf, -inf, 0, negz, -1e30, 1e30, math.MaxFloat32},
			[]float32{inf, nan, 0, negz, negz, 1e30, math.MaxFloat32}},
	}
	for _, c := range cases {
		// each value at every position of a 67-element vector: the main
		// loop, the single vectors and the tail
		for pos := 0; pos < 67; pos += 11 {
			for i, x := range c.x {
				xs := make([]float32, 67)
				for j := range xs {
					xs[j] = 0.25
				}
				xs[pos] = x
				got := make([]float32, len(xs))
				c.fn(got, xs)
				w := c.want[i]
				ok := math.Float32bits(got[pos]) == math.Float32bits(w) || w != w && got[pos] != got[pos]
				if !ok {
					t.Errorf("%s(%v) = %v [%#x], want %v [%#x] (at %d)", c.name, x, got[pos], math.Float32bits(got[pos]), w, math.Float32bits(w), pos)
				}
			}
		}
	}
}

// scalar64 is the loop the ops ran before the kernels: each element
// through float64 math (optable's viaFloat64).
func scalar64(f func(float64) float64) func(dst, x []float32) {
	return func(dst, x []float32) {
		x = x[:len(dst)]
		for i, v := range x {
			dst[i] = float32(f(float64(v)))
		}
	}
}

// geluTanhOld is optable/elem's GeluTanh, GeluTanh's loop before its
// kernel.
func geluTanhOld(x float64) float64 {
	const k = 0.7978845608028654
	return 0.5 * x * (1 + math.Tanh(k*(x+0.044715*x*x*x)))
}

// BenchmarkInv times each kernel beside the scalar loop it replaces, on
// 4096 in-cache elements of its domain: ns/elem is ns/op/4096.
func BenchmarkInv(b *testing.B) {
	const n = 4096
	domain := func(lo, hi float64) []float32 {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(lo + (hi-lo)*rng.Float64())
		}
		return xs
	}
	for _, c := range []struct {
		name   string
		fn     func(dst, x []float32)
		old    func(float64) float64
		lo, hi float64
	}{
		{"atan", AtanF32, math.Atan, -10, 10},
		{"asin", AsinF32, math.Asin, -1, 1},
		{"acos", AcosF32, math.Acos, -1, 1},
		{"sinh", SinhF32, math.Sinh, -10, 10},
		{"cosh", CoshF32, math.Cosh, -10, 10},
		{"asinh", AsinhF32, math.Asinh, -100, 100},
		{"acosh", AcoshF32, math.Acosh, 1, 100},
		{"atanh", AtanhF32, math.Atanh, -1, 1},
		{"gelu_tanh", GeluTanhF32, geluTanhOld, -6, 6},
		{"logit", LogitF32, func(x float64) float64 { return math.Log(x / (1 - x)) }, 0, 1},
	} {
		xs := domain(c.lo, c.hi)
		dst := make([]float32, n)
		for _, v := range []struct {
			name string
			fn   func(dst, x []float32)
		}{{"scalar", scalar64(c.old)}, {"vec", c.fn}} {
			b.Run(fmt.Sprintf("%s/%s", c.name, v.name), func(b *testing.B) {
				b.SetBytes(4 * n)
				for range b.N {
					v.fn(dst, xs)
				}
			})
		}
	}
}
