package cpu

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
)

// refCast converts x (a value of dtype from) to dtype to: PyTorch's rules.
func refCast(x float64, to dtype.DType) float64 {
	switch {
	case to == dtype.Bool:
		return b2f(x != 0)
	case to.IsInt():
		return wrap(to, int64(math.Trunc(x)))
	}
	return roundTo(to, x)
}

// castPool holds values for each source dtype, in range for every
// destination (float → int only sees in-range finite values).
func castPool(d dtype.DType) []float64 {
	switch {
	case d == dtype.Bool:
		return []float64{0, 1, 1, 0, 1}
	case d == dtype.Uint8:
		return []float64{0, 1, 127, 128, 255, 44}
	case d.IsInt():
		v := []float64{0, 1, -1, 127, -128, 100, -7}
		if d != dtype.Int8 {
			v = append(v, 300, -300, 2049, 32767)
		}
		if d == dtype.Int32 || d == dtype.Int64 {
			v = append(v, 1<<24+1, -(1<<30)-3, 65520, 1<<20+3)
		}
		return v
	}
	return []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 0.75, -0.75, 100.5, -99.5, 127, 7.875}
}

func TestCastAllPairs(t *testing.T) {
	be := New()
	for _, src := range dtype.All {
		for _, dst := range dtype.All {
			vals := castPool(src)
			n := len(vals)
			if src.IsFloat() && dst.IsInt() {
				// out of range for uint8/int8: PyTorch leaves these undefined
				var ok []float64
				for _, v := range vals {
					if lo, hi := intRange(dst); v > lo-1 && v < hi+1 {
						ok = append(ok, v)
					}
				}
				vals, n = ok, len(ok)
			}
			for _, layout := range []string{"contiguous", "strided", "broadcast", "0-d", "long"} {
				var in, out *raw.View
				want := func(i int) float64 { return refCast(vals[i%len(vals)], dst) }
				switch layout {
				case "contiguous":
					in = filled(src, []int{n}, func(i int) float64 { return vals[i] })
					out = raw.New(dst, []int{n})
				case "strided":
					base := raw.New(src, []int{2*n + 1})
					in = base.WithLayout([]int{n}, []int{2}, 1)
					for i := range vals {
						setElem(in, i, vals[i])
					}
					out = raw.New(dst, []int{3 * n}).WithLayout([]int{n}, []int{3}, 0)
				case "broadcast":
					in = filled(src, []int{1}, func(int) float64 { return vals[n-1] }).WithLayout([]int{2, 7}, []int{0, 0}, 0)
					out = raw.New(dst, []int{2, 7})
					want = func(int) float64 { return refCast(vals[n-1], dst) }
				case "0-d":
					in = filled(src, nil, func(int) float64 { return vals[1] })
					out = raw.New(dst, nil)
					want = func(int) float64 { return refCast(vals[1], dst) }
				case "long":
					in = filled(src, []int{700}, func(i int) float64 { return vals[i%n] })
					out = raw.New(dst, []int{700})
				}
				p, err := iter.NewConfig().AddOutput(out).AddInput(in).CheckAllSameDType(false).Build()
				if err != nil {
					t.Fatal(err)
				}
				if err := be.Copy(p); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < out.NumEl(); i++ {
					g, w := getElem(out, i), want(i)
					if g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
						t.Errorf("%s → %s %s: element %d: got %v, want %v", src, dst, layout, i, g, w)
						break
					}
				}
			}
		}
	}
}

func intRange(d dtype.DType) (lo, hi float64) {
	switch d {
	case dtype.Uint8:
		return 0, 255
	case dtype.Int8:
		return -128, 127
	case dtype.Int16:
		return -32768, 32767
	case dtype.Int32:
		return -(1 << 31), 1<<31 - 1
	}
	return -(1 << 62), 1 << 62
}

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
				off := elemOffset(out, i)
				b := out.Storage.Bytes()[off:]
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
