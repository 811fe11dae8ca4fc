package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, linalg) }

// linalg builds the matrix-product workloads.
func linalg() []workload {
	f32 := tensor.Float32
	div := func(t *tensor.Tensor, d float64) *tensor.Tensor { return t.Div(tensor.Scalar(d)) }
	a, b := div(pattern(f32, 13, 1024, 1024), 16), div(pattern(f32, 7, 1024, 1024), 16)
	a256, b256 := div(pattern(f32, 13, 256, 256), 16), div(pattern(f32, 7, 256, 256), 16)
	x, y := div(pattern(f32, 13, 64, 128, 64), 16), div(pattern(f32, 7, 64, 64, 128), 16)
	xin, w, bias := div(pattern(f32, 13, 256, 512), 16), div(pattern(f32, 3, 512, 512), 64), div(pattern(f32, 5, 512), 64)
	wt := w.T() // stored [in, out]: linear reads it transposed, as torch_ref.py does
	e := 4
	n := 1024 // a variable: 2n³ overflows a 32-bit int as a constant
	return []workload{
		{"matmul_256", func() { tensor.Matmul(a256, b256) }, 3 * e * 256 * 256, 2 * 256 * 256 * 256},
		{"matmul_1024", func() { tensor.Matmul(a, b) }, 3 * e * 1024 * 1024, 2 * n * n * n},
		{"bmm_64x128x64x128", func() { tensor.Bmm(x, y) }, e * (x.NumEl() + y.NumEl() + 64*128*128), 2 * 64 * 128 * 64 * 128},
		{"linear_256x512x512", func() { tensor.Linear(xin, wt, bias) }, 0, 2 * 256 * 512 * 512},
	}
}
