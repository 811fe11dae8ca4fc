package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, breadthLinalg) }

// breadthLinalg builds the matrix products of WORKLOADS.md's "Breadth"
// section: a matrix-vector product and the bfloat16 and float64 GEMMs.
func breadthLinalg() []workload {
	f32 := tensor.Float32
	n := 1024 // a variable: 2n³ overflows a 32-bit int as a constant
	div := func(t *tensor.Tensor, d float64) *tensor.Tensor { return t.Div(tensor.Scalar(d)) }
	m, v := pattern(f32, 13, s, s), div(pattern(f32, 7, s), 16)
	// As torch_ref.py: the pattern in float32, divided, then converted.
	ab := div(pattern(f32, 13, 512, 512), 16).To(tensor.BFloat16)
	bb := div(pattern(f32, 7, 512, 512), 16).To(tensor.BFloat16)
	ad := div(pattern(f32, 13, 1024, 1024), 16).To(tensor.Float64)
	bd := div(pattern(f32, 7, 1024, 1024), 16).To(tensor.Float64)
	return []workload{
		{"mv_4096", func() { tensor.Mv(m, v) }, 4 * s * s, 2 * s * s},
		{"matmul_bf16_512", func() { tensor.Matmul(ab, bb) }, 6 * 512 * 512, 2 * 512 * 512 * 512},
		{"matmul_f64_1024", func() { tensor.Matmul(ad, bd) }, 24 * 1024 * 1024, 2 * n * n * n},
	}
}
