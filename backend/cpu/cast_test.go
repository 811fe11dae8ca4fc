package cpu

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
)

// TestCastRounding checks the conversions that round or saturate, by bits,
// on the contiguous (vectorised) and the strided paths.
func TestCastRounding(t *testing.T) {
	cases := []struct {
		src  dtype.DType
		in   float64
		dst  dtype.DType
		bits uint16 // expected bits of a 16-bit result
		val  float64
	}{
		{dtype.Float32, 1 + 1.0/2048, dtype.Float16, 0x3c00, 0},     // tie → even (1)
		{dtype.Float32, 1 + 3.0/2048, dtype.Float16, 0x3c02, 0},     // tie → even (1 + 2⁻⁹)
		{dtype.Float32, 65519, dtype.Float16, 0x7bff, 0},            // below the halfway point: 65504
		{dtype.Float32, 65520, dtype.Float16, 0x7c00, 0},            // halfway: overflow to inf
		{dtype.Float32, -1e6, dtype.Float16, 0xfc00, 0},             // -inf
		{dtype.Float32, math.Ldexp(1, -25), dtype.Float16, 0, 0},    // subnormal tie → 0
		{dtype.Float32, math.Ldexp(3, -25), dtype.Float16, 2, 0},    // subnormal tie → 2⁻²³
		{dtype.Float64, 1 + 1.0/2048, dtype.Float16, 0x3c00, 0},     // via float32
		{dtype.Int32, 2049, dtype.Float16, 0x6800, 0},               // 2048 (tie → even)
		{dtype.Float32, 1 + 1.0/256, dtype.BFloat16, 0x3f80, 0},     // tie → even (1)
		{dtype.Float32, 1 + 3.0/256, dtype.BFloat16, 0x3f82, 0},     // tie → even
		{dtype.Float32, math.MaxFloat32, dtype.BFloat16, 0x7f80, 0}, // overflow to inf
		{dtype.Float32, math.NaN(), dtype.BFloat16, 0, math.NaN()},
		{dtype.Float32, math.NaN(), dtype.Float16, 0, math.NaN()},
		{dtype.Bool, 1, dtype.Float16, 0x3c00, 0},
		{dtype.Bool, 1, dtype.BFloat16, 0x3f80, 0},
		{dtype.Float32, math.NaN(), dtype.Bool, 0, 1},
		{dtype.Float32, math.Copysign(0, -1), dtype.Bool, 0, 0},
		{dtype.Float16, math.NaN(), dtype.Bool, 0, 1},
		{dtype.BFloat16, math.Copysign(0, -1), dtype.Bool, 0, 0},
		{dtype.Float16, -2.5, dtype.Int32, 0, -2},
		{dtype.BFloat16, 2.75, dtype.Uint8, 0, 2},
		{dtype.Float64, -2.9, dtype.Int8, 0, -2},
		{dtype.Int64, 300, dtype.Int8, 0, 44},
		{dtype.Int64, -1, dtype.Uint8, 0, 255},
		{dtype.Int16, 300, dtype.Bool, 0, 1},
		{dtype.Float16, 65504, dtype.BFloat16, 0x4780, 0}, // 65536 after rounding
	}
	be := New()
	for _, c := range cases {
		for _, strided := range []bool{false, true} {
			n := 9
			in := filled(c.src, []int{n}, func(int) float64 { return c.in })
			out := raw.New(c.dst, []int{n})
			if strided {
				in = in.WithLayout([]int{3}, []int{3}, 1)
				out = out.WithLayout([]int{3}, []int{2}, 0)
			}
			p, err := iter.NewConfig().AddOutput(out).AddInput(in).CheckAllSameDType(false).Build()
			if err != nil {
				t.Fatal(err)
			}
			if err := be.Copy(p); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < out.NumEl(); i++ {
				b := out.Storage.Bytes()[elemOffset(out, i)*c.dst.Size():]
				switch {
				case c.dst.IsReduced() && !math.IsNaN(c.val):
					if got := uint16(b[0]) | uint16(b[1])<<8; got != c.bits {
						t.Errorf("%s %v → %s (strided %v): bits %#04x, want %#04x", c.src, c.in, c.dst, strided, got, c.bits)
					}
				default:
					g := getElem(out, i)
					if g != c.val && !(math.IsNaN(g) && math.IsNaN(c.val)) {
						t.Errorf("%s %v → %s (strided %v): got %v, want %v", c.src, c.in, c.dst, strided, g, c.val)
					}
				}
			}
		}
	}
}
