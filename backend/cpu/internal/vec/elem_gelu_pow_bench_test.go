package vec

import (
	"math"
	"testing"
)

// BenchmarkGeluPowF64 times GeluF64, GeluTanhF64 and PowF64 (tensor and
// scalar exponents) beside the scalar loops of optable they replace
// (elem.Gelu, elem.GeluTanh, math.Pow), on 4096 in-cache elements: ns/elem
// is ns/op/4096.
func BenchmarkGeluPowF64(b *testing.B) {
	const n = 4096
	xs, ys, dst := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i] = rng.NormFloat64() * 3
		ys[i] = -10 + 20*rng.Float64()
	}
	pos := make([]float64, n)
	for i := range pos {
		pos[i] = 0.1 + 10*rng.Float64()
	}
	gelu := func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }
	geluTanh := func(x float64) float64 {
		const k = 0.7978845608028654
		return 0.5 * x * (1 + math.Tanh(k*(x+0.044715*x*x*x)))
	}
	unary := func(f func(float64) float64) func() {
		return func() {
			for i, v := range xs {
				dst[i] = f(v)
			}
		}
	}
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"gelu/scalar", unary(gelu)},
		{"gelu/vec", func() { GeluF64(dst, xs) }},
		{"gelu_tanh/scalar", unary(geluTanh)},
		{"gelu_tanh/vec", func() { GeluTanhF64(dst, xs) }},
		{"pow/scalar", func() {
			for i, v := range pos {
				dst[i] = math.Pow(v, ys[i])
			}
		}},
		{"pow/vec", func() { PowF64(dst, pos, ys) }},
		{"pow_2.5/scalar", func() {
			for i, v := range pos {
				dst[i] = math.Pow(v, 2.5)
			}
		}},
		{"pow_2.5/vec", func() { PowScalarF64(dst, pos, 2.5) }},
		{"pow_2/scalar", func() {
			for i, v := range pos {
				dst[i] = math.Pow(v, 2)
			}
		}},
		{"pow_2/vec", func() { PowScalarF64(dst, pos, 2) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			for range b.N {
				c.run()
			}
		})
	}
}
