package tensor

import (
	"math"
	"testing"
)

// sinhValues are the inputs of TestSinhVectorBody (values in
// tools/confgen/sinh_vector.py): -big at multiples of 5, big at the
// other multiples of 3, 1 elsewhere.
func sinhValues(n int, big float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		switch {
		case i%5 == 0:
			xs[i] = -big
		case i%3 == 0:
			xs[i] = big
		default:
			xs[i] = 1
		}
	}
	return xs
}

// TestSinhVectorBody: sinh and cosh just beyond ln of the dtype's largest
// value overflow to ±Inf in the vector body of PyTorch 1.13's loops
// (SLEEF's kernels) and stay finite in their scalar tail and in rows it
// does not vectorize (Note [SLEEF's sinh and cosh] in optable/elem). The
// patterns are torch's, printed by tools/confgen/sinh_vector.py: '+' for
// +Inf, '-' for -Inf, 'f' for a finite value.
func TestSinhVectorBody(t *testing.T) {
	inputs := map[string]*Tensor{
		"contiguous float32":  FromSlice(sinhValues(36, 89), 36).To(Float32),
		"contiguous float64":  FromSlice(sinhValues(11, 709.8), 11),
		"contiguous bfloat16": FromSlice(sinhValues(40, 89), 40).To(BFloat16),
		"stepped float32":     FromSlice(sinhValues(40, 89), 40).To(Float32).Slice(0, 0, 40, 2),
		"stepped float64":     FromSlice(sinhValues(22, 709.8), 22).Slice(0, 0, 22, 2),
		"int32":               FromSlice(sinhValues(20, 89), 20).To(Int32),
	}
	for _, c := range []struct{ name, sinh, cosh string }{
		{"contiguous float32", "-ff+f-+ff+-f+ff-ff+f-+ff+-f+ff-fffff", "+ff+f++ff++f+ff+ff+f++ff++f+ff+fffff"},
		{"contiguous float64", "-ff+f-+ffff", "+ff+f++ffff"},
		{"contiguous bfloat16", "-ff+f-+ff+-f+ff-ff+f-+ff+-f+ff-fffffffff", "+ff+f++ff++f+ff+ff+f++ff++f+ff+fffffffff"},
		{"stepped float32", "ffffffffffffffffffff", "ffffffffffffffffffff"},
		{"stepped float64", "fffffffffff", "fffffffffff"},
		{"int32", "-ff+f-+ff+-f+ff-ffff", "+ff+f++ff++f+ff+ffff"},
	} {
		for _, f := range []struct {
			name string
			fn   func(*Tensor) *Tensor
			want string
		}{{"sinh", Sinh, c.sinh}, {"cosh", Cosh, c.cosh}} {
			got := []byte{}
			for _, v := range f.fn(inputs[c.name]).Float64s() {
				switch {
				case math.IsInf(v, 1):
					got = append(got, '+')
				case math.IsInf(v, -1):
					got = append(got, '-')
				case !math.IsNaN(v):
					got = append(got, 'f')
				default:
					got = append(got, 'n')
				}
			}
			if string(got) != f.want {
				t.Errorf("%s of %s gives %s, want %s", f.name, c.name, got, f.want)
			}
		}
	}
}
