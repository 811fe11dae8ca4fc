package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, reductions) }

// reductions builds the reduction, scan and normalization workloads.
func reductions() []workload {
	f32 := tensor.Float32
	a := pattern(f32, 13, n)
	m := pattern(f32, 13, s, s)
	lnW := tensor.Div(pattern(f32, 3, s), tensor.Scalar(64))
	lnB := tensor.Div(pattern(f32, 5, s), tensor.Scalar(64))
	e := 4
	return []workload{
		{"sum_all", func() { a.Sum() }, e * n, n},
		{"sum_dim0", func() { m.Sum(tensor.Over(0)) }, e * s * s, s * s},
		{"sum_dim1", func() { m.Sum(tensor.Over(1)) }, e * s * s, s * s},
		{"amax_dim1", func() { m.Amax(tensor.Over(1)) }, e * s * s, s * s},
		{"argmax_dim1", func() { m.ArgMax(tensor.Over(1)) }, e * s * s, s * s},
		{"var_dim1", func() { m.Var(tensor.Over(1)) }, e * s * s, 3 * s * s},
		{"cumsum_dim1", func() { m.CumSum(tensor.Over(1)) }, 2 * e * s * s, s * s},
		{"cumsum_dim0", func() { m.CumSum(tensor.Over(0)) }, 2 * e * s * s, s * s},
		{"softmax_lastdim", func() { m.Softmax(tensor.Over(-1)) }, 2 * e * s * s, 0},
		{"layer_norm_lastdim", func() { tensor.LayerNorm(m, []int{s}, lnW, lnB, 1e-5) }, 2 * e * s * s, 0},
	}
}
