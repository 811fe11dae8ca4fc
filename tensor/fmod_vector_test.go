package tensor

import (
	"math"
	"testing"
)

// TestFmodVectorBody: fmod, remainder and floor_divide give NaN where
// SLEEF's fmod overflows its first quotient, in the vector body of
// PyTorch 1.13's loops, and the C library's values in their scalar tail,
// in rows it does not vectorize and for float16 (Note [SLEEF's fmod] in
// optable/elem). The patterns are torch's, printed by
// tools/confgen/fmod_vector.py: 'n' NaN, '+' +Inf, '-' -Inf, 'f' finite.
// Seed 617 found fmod(1, -1e-310) finite where torch gives NaN.
func TestFmodVectorBody(t *testing.T) {
	full := func(n int, v float64, dt DType) *Tensor { return Full(Scalar(v), dt, n) }
	inputs := map[string][2]*Tensor{
		"contiguous float64 by 1e-310": {full(19, 1, Float64), ZeroDim(1e-310)},
		"contiguous float64 by 0.5":    {full(19, 1.7e308, Float64), ZeroDim(0.5)},
		"contiguous float32 by 1e-40":  {full(35, 1, Float32), ZeroDim(float32(1e-40))},
		"stepped float64 by 1e-310":    {full(38, 1, Float64).Slice(0, 0, 38, 2), ZeroDim(1e-310)},
		"bfloat16 by 1e-40":            {full(40, 1, BFloat16), ZeroDim(float32(1e-40)).To(BFloat16)},
		"float16 by 1e-7":              {full(40, 60000, Float16), ZeroDim(float32(1e-7)).To(Float16)},
	}
	for _, c := range []struct{ name, fmod, remainder, floorDivide string }{
		{"contiguous float64 by 1e-310", "nnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnn+++"},
		{"contiguous float64 by 0.5", "nnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnn+++"},
		{"contiguous float32 by 1e-40", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnfff", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn+++"},
		{"stepped float64 by 1e-310", "fffffffffffffffffff", "fffffffffffffffffff", "+++++++++++++++++++"},
		{"bfloat16 by 1e-40", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnffffffff", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnffffffff", "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn++++++++"},
		{"float16 by 1e-7", "ffffffffffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffffffffffff", "++++++++++++++++++++++++++++++++++++++++"},
	} {
		in := inputs[c.name]
		for _, f := range []struct {
			name string
			fn   func(a, b *Tensor) *Tensor
			want string
		}{{"fmod", Fmod, c.fmod}, {"remainder", Remainder, c.remainder}, {"floor_divide", FloorDivide, c.floorDivide}} {
			got := []byte{}
			for _, v := range f.fn(in[0], in[1]).Float64s() {
				switch {
				case math.IsNaN(v):
					got = append(got, 'n')
				case math.IsInf(v, 1):
					got = append(got, '+')
				case math.IsInf(v, -1):
					got = append(got, '-')
				default:
					got = append(got, 'f')
				}
			}
			if string(got) != f.want {
				t.Errorf("%s %s gives %s, want %s", f.name, c.name, got, f.want)
			}
		}
	}
}
