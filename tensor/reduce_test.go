package tensor_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// TestSumAccuracy sums 2^24 float32 values and compares the error with
// PyTorch 1.13's (torch.sum on the CPU, 2 threads, same values): goten's
// must be no larger, and within an ulp of the exact sum.
func TestSumAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("2^24 elements")
	}
	n := 1 << 24
	for _, c := range []struct {
		name  string
		f     func(i int) float64
		torch float64
	}{
		{"pattern", func(i int) float64 { return float64((7919*i+13)%1009-504) / 64 }, -8.203125},
		{"positive", func(i int) float64 { return float64((7919*i+13)%1009)/64 + 0.001 }, 132137368},
		{"lcg", func(i int) float64 { return float64((104729*i+707)%997)/997 + 1 }, 25157410},
	} {
		v := make([]float32, n)
		exact := 0.0
		for i := range v {
			v[i] = float32(c.f(i))
			exact += float64(v[i])
		}
		got := tensor.FromSlice(v, n).Sum().Item()
		ulp := float64(math.Nextafter32(float32(math.Abs(exact)), float32(math.Inf(1)))) - math.Abs(float64(float32(exact)))
		if e, te := math.Abs(got-exact), math.Abs(c.torch-exact); e > te || e > ulp {
			t.Errorf("%s: sum %v, exact %v: error %g (PyTorch's %g, an ulp %g)", c.name, got, exact, e, te, ulp)
		}
	}
}

// TestVarConstantRows checks that the variance and std of rows of equal
// values are 0, as PyTorch's Welford moments over a dim give, for rows
// read in the SIMD two passes and strided rows; and NaN for rows of an
// infinity. (PyTorch's variance of a whole tensor is two passes from its
// mean, not Welford's, and is not 0 for every such tensor.)
func TestVarConstantRows(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, n := range []int{1, 3, 17, 100, 1001, 4096 + 7, 100000} {
			for _, g := range tensor.Full(tensor.Scalar(math.Inf(1)), dt, 2, n).Var(tensor.Over(1).Correction(0)).Float64s() {
				if !math.IsNaN(g) {
					t.Errorf("%s n=%d: var of a row of +Inf = %v, want NaN", dt, n, g)
				}
			}
			for _, v := range []float64{-3.2145776748657227, 0.847162127494812, 1e-3, 1e300} {
				if dt == tensor.Float32 && v > math.MaxFloat32 {
					continue
				}
				for k, x := range []*tensor.Tensor{
					tensor.Full(tensor.Scalar(v), dt, 2, n),
					tensor.Full(tensor.Scalar(v), dt, 2, 1).Expand(2, n),
				} {
					for _, r := range []struct {
						what string
						got  []float64
					}{
						{"var", x.Var(tensor.Over(1).Correction(0)).Float64s()},
						{"std", x.Std(tensor.Over(1).Correction(0)).Float64s()},
					} {
						for i, g := range r.got {
							if g != 0 {
								t.Errorf("%s n=%d v=%v layout %d: %s[%d] = %v, want 0", dt, n, v, k, r.what, i, g)
							}
						}
					}
				}
			}
		}
	}
}

// TestVarAccuracy checks variances of rows far from zero (10^4 plus
// deviations of 2^-10 to 1/2, exact in float32), where a float32 mean or a
// one-pass formula loses every digit: each float32 row's variance must be
// within an ulp of the exact one (rationals), each float64 row's within
// 10^-11 of it, relatively (short rows take Welford's update across
// outputs, a division per element), on rows long enough for the SIMD
// loops and short ones.
func TestVarAccuracy(t *testing.T) {
	for _, n := range []int{3, 17, 4096 + 7} {
		rows := 5
		v := make([]float32, rows*n)
		v64 := make([]float64, rows*n)
		for i := range v {
			v[i] = float32(10000 + float64((7919*i+13)%1009-504)/1024)
			v64[i] = float64(v[i])
		}
		got := tensor.FromSlice(v, rows, n).Var(tensor.Over(1)).Float64s()
		got64 := tensor.FromSlice(v64, rows, n).Var(tensor.Over(1)).Float64s()
		for r := range rows {
			x := v64[r*n:][:n]
			sum := new(big.Rat)
			for _, e := range x {
				sum.Add(sum, new(big.Rat).SetFloat64(e))
			}
			mean := sum.Quo(sum, big.NewRat(int64(n), 1))
			m2 := new(big.Rat)
			for _, e := range x {
				d := new(big.Rat).Sub(new(big.Rat).SetFloat64(e), mean)
				m2.Add(m2, d.Mul(d, d))
			}
			exact, _ := m2.Quo(m2, big.NewRat(int64(n-1), 1)).Float64()
			ulp := float64(math.Nextafter32(float32(exact), float32(math.Inf(1)))) - float64(float32(exact))
			if e := math.Abs(got[r] - exact); e > ulp {
				t.Errorf("float32 var of row %d of %d: %v, exact %v: error %g, an ulp %g", r, n, got[r], exact, e, ulp)
			}
			if e := math.Abs(got64[r]-exact) / exact; e > 1e-11 {
				t.Errorf("float64 var of row %d of %d: %v, exact %v: relative error %g", r, n, got64[r], exact, e)
			}
		}
	}
}

// TestLogSoftmaxLargeValues checks that log_softmax subtracts the max before
// the log of the sum, as PyTorch does: for two equal values of any size each
// result is -log 2 (computing x - (max + log sum) in float32 rounds log 2
// away once max is above about 2^24).
func TestLogSoftmaxLargeValues(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, v := range []float64{1, 1e6, 1e8, 1e15} {
			for _, dim := range []int{0, 1} {
				x := tensor.FromSlice([]float64{v, v, v, v}, 2, 2).To(dt)
				got := x.LogSoftmax(tensor.Over(dim))
				for i := range 2 {
					for j := range 2 {
						if g := got.At(i, j); math.Abs(g+math.Ln2) > 1e-6 {
							t.Errorf("%s log_softmax([[%g, %g], [%g, %g]], %d)[%d, %d] = %v, want -log 2", dt, v, v, v, v, dim, i, j, g)
						}
					}
				}
			}
		}
	}
}

// TestLayerNormConstantRows checks layer_norm of rows of equal values with
// eps = 0, as PyTorch computes it: their mean is the value and their
// variance 0, so every result is 0·Inf, NaN (it was finite where a float32
// sum rounded the mean), for float32 and float64 rows of several lengths,
// with and without a weight and bias, rows read with a stride of 0 too.
func TestLayerNormConstantRows(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, n := range []int{3, 5, 7, 100, 1001} {
			for _, v := range []float64{0.847162127494812, -3.2145776748657227, 1e-3, 0} {
				rows := []*tensor.Tensor{
					tensor.Full(tensor.Scalar(v), dt, 2, n),
					tensor.Full(tensor.Scalar(v), dt, 2, 1).Expand(2, n),
				}
				w, b := tensor.Full(tensor.Scalar(-2.2), dt, n), tensor.Full(tensor.Scalar(0.35), dt, n)
				for k, x := range rows {
					for _, affine := range []bool{false, true} {
						var y *tensor.Tensor
						if affine {
							y = tensor.LayerNorm(x, []int{n}, w, b, 0)
						} else {
							y = tensor.LayerNorm(x, []int{n}, nil, nil, 0)
						}
						for i := range 2 {
							for j := range n {
								if g := y.At(i, j); !math.IsNaN(g) {
									t.Fatalf("%s n=%d v=%v layout %d affine=%v: [%d, %d] = %v, want NaN", dt, n, v, k, affine, i, j, g)
								}
							}
						}
					}
				}
			}
		}
	}
}
