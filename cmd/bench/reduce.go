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
	dim := func(d int) tensor.ReduceOpt { return tensor.ReduceOpt{Dims: []int{d}} }
	e := 4
	return []workload{
		{"sum_all", func() { a.Sum() }, e * n, n},
		{"sum_dim0", func() { m.SumOpt(dim(0)) }, e * s * s, s * s},
		{"sum_dim1", func() { m.SumOpt(dim(1)) }, e * s * s, s * s},
		{"amax_dim1", func() { m.Amax(dim(1)) }, e * s * s, s * s},
		{"argmax_dim1", func() { m.ArgMaxDim(1, false) }, e * s * s, s * s},
		{"var_dim1", func() { m.Var(dim(1), 1) }, e * s * s, 3 * s * s},
		{"cumsum_dim1", func() { m.CumSum(1) }, 2 * e * s * s, s * s},
		{"cumsum_dim0", func() { m.CumSum(0) }, 2 * e * s * s, s * s},
		{"softmax_lastdim", func() { m.Softmax(-1) }, 2 * e * s * s, 0},
		{"layer_norm_lastdim", func() { tensor.LayerNorm(m, []int{s}, lnW, lnB, 1e-5) }, 2 * e * s * s, 0},
	}
}
