package vec

import (
	"math"
	"testing"
)

// TestGeluMP checks GeluF64 and GeluTanhF64 against correctly rounded
// values (mpGelu, mpGeluTanh: mpmath at 400 bits over the whole range,
// the negative tails dense), not against PyTorch's formulas, which lose
// every digit there (Note [Float64 gelu]). Results below 2^-1022 are
// checked to within 2^-1070 (erfc itself is subnormal there); the rest to
// within 4 ulp. CI runs it at every level and with purego, so each path
// meets the bound.
func TestGeluMP(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(dst, x []float64)
		pts  [][2]uint64
	}{{"GeluF64", GeluF64, mpGelu}, {"GeluTanhF64", GeluTanhF64, mpGeluTanh}} {
		xs, got := make([]float64, len(c.pts)), make([]float64, len(c.pts))
		for i, p := range c.pts {
			xs[i] = math.Float64frombits(p[0])
		}
		c.fn(got, xs)
		worst, wx, worstSub := 0.0, 0.0, 0.0
		for i, p := range c.pts {
			want := math.Float64frombits(p[1])
			if math.Abs(want) < 0x1p-1022 {
				if d := math.Abs(got[i] - want); !(d <= 0x1p-1070) {
					t.Errorf("%s(%v) = %v, want %v (subnormal, within 2^-1070)", c.name, xs[i], got[i], want)
				} else {
					worstSub = max(worstSub, d/0x1p-1074)
				}
				continue
			}
			if e := ulpErr64(got[i], want); e > worst || e != e {
				worst, wx = e, xs[i]
			}
		}
		t.Logf("%s: worst %.3f ulp at %v (%d points; subnormal results within %v·2^-1074)", c.name, worst, wx, len(c.pts), worstSub)
		if !(worst <= 4) {
			out := []float64{0}
			c.fn(out, []float64{wx})
			t.Errorf("%s(%v) = %v: %.3f ulp, bound 4", c.name, wx, out[0], worst)
		}
	}
}

// TestGeluSpecialF64 checks the special values of GeluF64 and
// GeluTanhF64: NaN unchanged, the infinities as PyTorch's formulas give
// them (−Inf·0 is NaN), ±0 themselves, large x itself, very negative x −0.
func TestGeluSpecialF64(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000123)
	negz := math.Copysign(0, -1)
	in := []float64{nan, math.Inf(1), math.Inf(-1), 0, negz, 1e300, math.MaxFloat64, -1e300, -math.MaxFloat64, -45, 5e-324, -5e-324}
	for _, c := range []struct {
		name string
		fn   func(dst, x []float64)
	}{{"GeluF64", GeluF64}, {"GeluTanhF64", GeluTanhF64}} {
		got := make([]float64, len(in))
		c.fn(got, in)
		want := []float64{nan, math.Inf(1), math.NaN(), 0, negz, 1e300, math.MaxFloat64, negz, negz, negz}
		for i, w := range want {
			g := got[i]
			ok := math.Float64bits(g) == math.Float64bits(w) || i == 2 && g != g
			if !ok {
				t.Errorf("%s(%v) = %v (%#x), want %v", c.name, in[i], g, math.Float64bits(g), w)
			}
		}
		// ±the smallest subnormal: x/2 rounded, or 0 of x's sign
		for i := 10; i < 12; i++ {
			if g := got[i]; math.Abs(g) > 5e-324 || math.Signbit(g) != math.Signbit(in[i]) {
				t.Errorf("%s(%v) = %v", c.name, in[i], g)
			}
		}
	}
}

// TestPowMP checks PowF64, PowScalarF64 and ScalarPowF64 against
// correctly rounded values (mpPow: mpmath at 400 bits; bases over the
// whole float64 range, subnormals included, exponents putting y·log|x|
// over [−760, 720], bases next to 1 with large exponents, negative bases
// with integer exponents): within 1 ulp, the infinities and zeros of
// overflow and underflow exactly. The scalar forms run each point as a
// one-element slice with the scalar operand.
func TestPowMP(t *testing.T) {
	xs, ys := make([]float64, len(mpPow)), make([]float64, len(mpPow))
	for i, p := range mpPow {
		xs[i], ys[i] = math.Float64frombits(p[0]), math.Float64frombits(p[1])
	}
	vv := make([]float64, len(mpPow))
	PowF64(vv, xs, ys)
	worst, wx, wy, bad := 0.0, 0.0, 0.0, 0
	for i, p := range mpPow {
		want := math.Float64frombits(p[2])
		vs, sv := []float64{0}, []float64{0}
		PowScalarF64(vs, xs[i:i+1], ys[i])
		ScalarPowF64(sv, ys[i:i+1], xs[i])
		for _, got := range []float64{vv[i], vs[0], sv[0]} {
			if want == 0 || math.IsInf(want, 0) {
				if got != want || math.Signbit(got) != math.Signbit(want) {
					if bad++; bad <= 10 {
						t.Errorf("pow(%v, %v) = %v, want %v", xs[i], ys[i], got, want)
					}
				}
				continue
			}
			if e := ulpErr64(got, want); e > worst || e != e {
				worst, wx, wy = e, xs[i], ys[i]
			}
		}
	}
	t.Logf("PowF64: worst %.3f ulp from the correctly rounded value at pow(%v, %v) (%d points)", worst, wx, wy, len(mpPow))
	if !(worst <= 1) {
		t.Errorf("pow(%v, %v): %.3f ulp, bound 1", wx, wy, worst)
	}
}

// TestPowSpecialF64 checks the special operands of C99's pow (which
// PyTorch's std::pow follows), exactly, through every variant.
func TestPowSpecialF64(t *testing.T) {
	inf, nan, negz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	sub := 5e-324
	cases := []struct{ x, y, want float64 }{
		{2, 0, 1}, {nan, 0, 1}, {inf, negz, 1}, {-3, 0, 1}, {0, 0, 1},
		{1, nan, 1}, {1, inf, 1}, {1, -inf, 1}, {1, 1e300, 1},
		{nan, 2, nan}, {2, nan, nan}, {-1, inf, 1}, {-1, -inf, 1},
		{0, -3, inf}, {negz, -3, -inf}, {0, -2, inf}, {negz, -2, inf}, {negz, -2.5, inf}, {0, -inf, inf}, {negz, -inf, inf},
		{0, 3, 0}, {negz, 3, negz}, {negz, 2, 0}, {negz, 2.5, 0}, {0, inf, 0},
		{0.5, inf, 0}, {0.5, -inf, inf}, {2, inf, inf}, {2, -inf, 0}, {-2, inf, inf}, {-0.5, -inf, inf},
		{inf, 2, inf}, {inf, -2, 0}, {-inf, 3, -inf}, {-inf, 2, inf}, {-inf, -3, negz}, {-inf, -2, 0}, {-inf, 0.5, inf},
		{-2, 3, -8}, {-2, 2, 4}, {-2, -1, -0.5}, {-2, 0.5, nan}, {-8, 1.0 / 3, nan}, {-1, 1e300, 1}, {-1, 3, -1},
		{2, 1024, inf}, {-2, 1025, -inf}, {2, -1075, 0}, {-2, -1075, negz}, {2, -1074, sub}, {-2, -1073, -2 * sub},
		{sub, 1, sub}, {sub, 0.5, 0x1p-537}, {sub, -1, inf}, {sub, -0.5, 0x1p537}, {-sub, 2, 0}, {-sub, -1, -inf},
		{math.MaxFloat64, 1, math.MaxFloat64}, {math.MaxFloat64, 2, inf}, {math.MaxFloat64, -1, 1 / math.MaxFloat64},
		{10, 308, 1e308}, {10, -300, 1e-300}, {3, 40, 12157665459056928801}, {1.5, 2, 2.25}, {4, 0.5, 2}, {4, -0.5, 0.5},
	}
	xs, ys := make([]float64, len(cases)), make([]float64, len(cases))
	for i, c := range cases {
		xs[i], ys[i] = c.x, c.y
	}
	vv := make([]float64, len(cases))
	PowF64(vv, xs, ys)
	for i, c := range cases {
		vs, sv := []float64{0}, []float64{0}
		PowScalarF64(vs, xs[i:i+1], c.y)
		ScalarPowF64(sv, ys[i:i+1], c.x)
		for j, got := range []float64{vv[i], vs[0], sv[0]} {
			if !(got == c.want && math.Signbit(got) == math.Signbit(c.want) || got != got && c.want != c.want) {
				t.Errorf("pow(%v, %v) = %v (variant %d), want %v", c.x, c.y, got, j, c.want)
			}
		}
	}
}
