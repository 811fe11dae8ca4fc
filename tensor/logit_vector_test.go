package tensor

import (
	"math"
	"testing"
)

// logitValues are the inputs of TestLogitVectorBody (values in
// tools/confgen/logit_vector.py): i*0.37 mod 1, NaN at 3.
func logitValues(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i*37%100) / 100
	}
	xs[3] = math.NaN()
	return xs
}

// TestLogitVectorBody: logit with eps > 0.5 clamps as PyTorch 1.13's CPU
// kernel does, to 1 - eps in the vector body of its loop and to eps below
// eps in the scalar tail, over contiguous, strided, transposed, converted
// and expanded inputs (Note [Vector bodies] in package optable). The
// patterns are torch's, printed by tools/confgen/logit_vector.py: '+'
// for logit(eps), '-' for logit(1 - eps), 'n' for NaN.
func TestLogitVectorBody(t *testing.T) {
	const eps = 0.75
	mask := make([]bool, 18)
	for i, v := range logitValues(18) {
		mask[i] = v > 0.5
	}
	ints := make([]int64, 35)
	for i := range ints {
		ints[i] = int64(i%3 - 1)
	}
	inputs := map[string]*Tensor{
		"contiguous float32":  FromSlice(logitValues(36), 36).To(Float32),
		"contiguous float64":  FromSlice(logitValues(11), 11),
		"contiguous bfloat16": FromSlice(logitValues(40), 40).To(BFloat16),
		"stepped float32":     FromSlice(logitValues(40), 40).To(Float32).Slice(0, 0, 40, 2),
		"transposed float32":  FromSlice(logitValues(60), 20, 3).To(Float32).T(),
		"expanded float32":    FromSlice([]float32{0.1}, 1).Expand(20),
		"int64 [5, 7]":        FromSlice(ints, 5, 7),
		"expanded bool":       FromSlice(mask, 18).AsStridedAt([]int{2, 3, 2, 2}, []int{3, 1, 6, 0}, 5),
	}
	for _, c := range []struct{ name, want string }{
		{"contiguous float32", "---n-----------------------------++-"},
		{"contiguous float64", "---n-----++"},
		{"contiguous bfloat16", "---n-----------------------------++-++++"},
		{"stepped float32", "++++-+++-+++-+++-+++"},
		{"transposed float32", "-n-----------------+----------------++++----------------+++-"},
		{"expanded float32", "----------------++++"},
		{"int64 [5, 7]", "---------------------------------++"},
		{"expanded bool", "--------------++--------"},
	} {
		y := inputs[c.name].Logit(eps)
		lo := FromSlice([]float64{eps}, 1).To(y.DType())
		up, down := lo.Logit().Item(), OnesLike(lo).Sub(lo).Logit().Item()
		got := []byte{}
		for _, v := range y.Float64s() {
			switch {
			case math.IsNaN(v):
				got = append(got, 'n')
			case v == up:
				got = append(got, '+')
			case v == down:
				got = append(got, '-')
			default:
				got = append(got, '?')
			}
		}
		if string(got) != c.want {
			t.Errorf("%s: logit(x, eps=0.75) gives %s, want %s", c.name, got, c.want)
		}
	}
}
