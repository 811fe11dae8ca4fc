package elem

import (
	"math"
	"testing"
)

// TestPow checks Pow against values computed by mpmath at 300 bits
// (within 1 ulp; math.Pow is thousands of ulps off on the first ones) and
// math.Pow's special values exactly (a zero, infinite or NaN operand, or x = 1). backend/cpu/internal/vec's TestPowMP
// checks the same algorithm over the whole range.
func TestPow(t *testing.T) {
	for _, c := range []struct{ x, y, want float64 }{
		{1.00048828125, 65520.0, 77739098810174.31},
		{1.00390625, 65520.0, 8.624093056533384e+110},
		{-1.00146484375, 65520.0, 4.48324415380978e+41},
		{9.223372036854776e+18, 3.25, 4.324059011047039e+61},
		{2.0557387421008737e+18, 1.5, 2.9474868818997684e+27},
		{0.999, 700000.0, 6.946374402185022e-305},
		{3.0, -600.5, 3.080963411729999e-287},
		{1e-310, 0.75, 3.162277660168372e-233},
		{2.5, -800.0, 4.44624e-319},
		{-7.0, -361.0, -8.310124969566001e-306},
		{1.0000001, -7090000000.0, 1.2168233825442455e-308},
		{123.456, 147.0, 2.8333070306009797e+307},
		{3, 40, 12157665459056928801}, {-2, 3, -8}, {2, -1074, 5e-324}, {2, 1024, math.Inf(1)}, {-2, 1025, math.Inf(-1)},
		{0.5, 1075, 0}, {-0.5, 1075, math.Copysign(0, -1)}, {math.MaxFloat64, 1, math.MaxFloat64}, {4, 0.5, 2},
	} {
		got := Pow(c.x, c.y)
		d := math.Abs(got - c.want)
		ulp := math.Nextafter(math.Abs(c.want), math.Inf(1)) - math.Abs(c.want)
		if !(got == c.want && math.Signbit(got) == math.Signbit(c.want) || c.want != 0 && !math.IsInf(c.want, 0) && d <= ulp) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, -0.5, inf, -inf, nan, 5e-324} {
		for _, y := range []float64{0, math.Copysign(0, -1), 1, -1, 2, -3, 0.5, -0.5, 3, inf, -inf, nan, 1e300} {
			if !(x == 0 || math.IsInf(x, 0) || x != x || y == 0 || math.IsInf(y, 0) || y != y || x == 1) {
				continue // not a special pair: math.Pow(2, -0.5), say, is 1 ulp off
			}
			got, want := Pow(x, y), math.Pow(x, y)
			if !(got == want && math.Signbit(got) == math.Signbit(want) || got != got && want != want) {
				t.Errorf("Pow(%v, %v) = %v, want math.Pow's %v", x, y, got, want)
			}
		}
	}
}

// BenchmarkPow times Pow beside math.Pow, the scalar loop's function
// before it (ns/op per element).
func BenchmarkPow(b *testing.B) {
	xs, ys := make([]float64, 1024), make([]float64, 1024)
	for i := range xs {
		xs[i], ys[i] = 0.1+float64(i%97)/9.7, -10+float64(i%89)/4.45
	}
	for _, f := range []struct {
		name string
		fn   func(x, y float64) float64
	}{{"elem", Pow}, {"math", math.Pow}} {
		b.Run(f.name, func(b *testing.B) {
			s := 0.0
			for i := range b.N {
				s += f.fn(xs[i&1023], ys[i&1023])
			}
			_ = s
		})
	}
}
