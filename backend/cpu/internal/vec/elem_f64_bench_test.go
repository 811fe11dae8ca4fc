package vec

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkF64 times each float64 kernel of elem_f64_go.go and
// elem_erf64_go.go beside the scalar loop of Go's math function it
// replaces (optable's viaFloat64), on 4096 in-cache elements of its
// domain: ns/elem is ns/op/4096.
func BenchmarkF64(b *testing.B) {
	const n = 4096
	for _, c := range []struct {
		name   string
		fn     func(dst, x []float64)
		old    func(float64) float64
		lo, hi float64
	}{
		{"sin", SinF64, math.Sin, -10, 10},
		{"cos", CosF64, math.Cos, -10, 10},
		{"tan", TanF64, math.Tan, -10, 10},
		{"atan", AtanF64, math.Atan, -10, 10},
		{"asin", AsinF64, math.Asin, -1, 1},
		{"acos", AcosF64, math.Acos, -1, 1},
		{"sinh", SinhF64, math.Sinh, -10, 10},
		{"cosh", CoshF64, math.Cosh, -10, 10},
		{"asinh", AsinhF64, math.Asinh, -100, 100},
		{"acosh", AcoshF64, math.Acosh, 1, 100},
		{"atanh", AtanhF64, math.Atanh, -1, 1},
		{"erf", ErfF64, math.Erf, -4, 4},
		{"erfc", ErfcF64, math.Erfc, -4, 8},
		{"logit", LogitF64, func(x float64) float64 { return math.Log(x / (1 - x)) }, 0, 1},
	} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = c.lo + (c.hi-c.lo)*rng.Float64()
		}
		dst := make([]float64, n)
		scalar := func(dst, x []float64) {
			for i, v := range x[:len(dst)] {
				dst[i] = c.old(v)
			}
		}
		for _, v := range []struct {
			name string
			fn   func(dst, x []float64)
		}{{"scalar", scalar}, {"vec", c.fn}} {
			b.Run(fmt.Sprintf("%s/%s", c.name, v.name), func(b *testing.B) {
				b.SetBytes(8 * n)
				for range b.N {
					v.fn(dst, xs)
				}
			})
		}
	}
}
