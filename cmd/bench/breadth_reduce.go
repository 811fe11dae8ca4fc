package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, breadthReductions) }

// breadthReductions builds the reductions, row ops and scans of
// WORKLOADS.md's Breadth table, with torch_ref.py's inputs.
func breadthReductions() []workload {
	bfa := pattern(tensor.BFloat16, 13, n)
	m := pattern(tensor.Float32, 13, s, s)
	t3 := pattern(tensor.Float32, 13, 64, 1024, 256)
	a16 := pattern(tensor.Float32, 13, 16)
	mo := tensor.Empty(tensor.Float32, s, s)
	ln := pattern(tensor.Float32, 13, 8192, 768)
	w := pattern(tensor.Float32, 3, 768).Div(tensor.Scalar(64))
	bias := pattern(tensor.Float32, 5, 768).Div(tensor.Scalar(64))
	t3n, lnn := 64*1024*256, 8192*768
	return []workload{
		{"sum_bf16", func() { bfa.Sum() }, 2 * n, n},
		{"prod_dim1", func() { m.Prod(tensor.Over(1)) }, 4 * s * s, s * s},
		{"norm_dim1", func() { m.Norm(tensor.Over(1)) }, 4 * s * s, 2 * s * s},
		{"amax_mid", func() { t3.Amax(tensor.Over(1)) }, 4 * t3n, t3n},
		{"softmax_dim0", func() { m.Softmax(tensor.Over(0)) }, 8 * s * s, 0},
		{"layer_norm_8192x768", func() { tensor.LayerNorm(ln, []int{768}, w, bias, 1e-5) }, 8 * lnn, 0},
		{"cummax_dim1", func() { m.CumMax(tensor.Over(1)) }, 0, 0}, // 0, 0 as torch_ref.py prints
		{"logcumsumexp_dim1", func() { tensor.LogCumSumExpTo(mo, m, tensor.Over(1)) }, 8 * s * s, 0},
		{"sum_16", func() { a16.Sum() }, 64, 16},
	}
}
