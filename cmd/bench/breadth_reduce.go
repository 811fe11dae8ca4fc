package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, breadthReductions) }

// breadthReductions builds the plain reductions of WORKLOADS.md's breadth
// table (softmax, layer_norm and the scans of that table are not here).
func breadthReductions() []workload {
	bfa := pattern(tensor.BFloat16, 13, n)
	m := pattern(tensor.Float32, 13, s, s)
	t3 := pattern(tensor.Float32, 13, 64, 1024, 256)
	a16 := pattern(tensor.Float32, 13, 16)
	t3n := 64 * 1024 * 256
	return []workload{
		{"sum_bf16", func() { bfa.Sum() }, 2 * n, n},
		{"prod_dim1", func() { m.Prod(tensor.Over(1)) }, 4 * s * s, s * s},
		{"norm_dim1", func() { m.Norm(tensor.Over(1)) }, 4 * s * s, 2 * s * s},
		{"amax_mid", func() { t3.Amax(tensor.Over(1)) }, 4 * t3n, t3n},
		{"sum_16", func() { a16.Sum() }, 64, 16},
	}
}
