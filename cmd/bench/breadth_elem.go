package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, breadthElementwise, breadthLayout) }

// breadthElementwise builds the elementwise workloads of WORKLOADS.md's
// Breadth section, with torch_ref.py's inputs.
func breadthElementwise() []workload {
	f32 := tensor.Float32
	a, b, out := pattern(f32, 13, n), pattern(f32, 29, n), tensor.Empty(f32, n)
	apos := a.Add(tensor.Scalar(7.9)).Div(tensor.Scalar(8)) // in (0, 2)
	obool := tensor.Empty(tensor.Bool, n)
	i8a, i8b := make([]int8, n), make([]int8, n)
	for i := range i8a {
		i8a[i], i8b[i] = int8(i%101-50), int8(7*i%103-51)
	}
	ta, tb, i8o := tensor.FromSlice(i8a, n), tensor.FromSlice(i8b, n), tensor.Empty(tensor.Int8, n)
	i64a, i64b := a.To(tensor.Int64), b.To(tensor.Int64) // the float patterns, truncated
	i64o := tensor.Empty(tensor.Int64, n)
	bfa, bfb := pattern(tensor.BFloat16, 13, n), pattern(tensor.BFloat16, 29, n)
	bfo := tensor.Empty(tensor.BFloat16, n)
	f64a, f64o := pattern(tensor.Float64, 13, n), tensor.Empty(tensor.Float64, n)
	zero, p25 := tensor.Scalar(0), tensor.Scalar(2.5)
	return []workload{
		{"log_f32", func() { tensor.LogTo(out, apos) }, 8 * n, n},
		{"sqrt_f32", func() { tensor.SqrtTo(out, apos) }, 8 * n, n},
		{"sin_f32", func() { tensor.SinTo(out, a) }, 8 * n, n},
		{"erf_f32", func() { tensor.ErfTo(out, a) }, 8 * n, n},
		{"expm1_f32", func() { tensor.Expm1To(out, a) }, 8 * n, n},
		{"pow_f32", func() { tensor.PowTo(out, apos, p25) }, 8 * n, n},
		{"relu_f32", func() { tensor.ClampTo(out, a, zero, nil) }, 8 * n, n},
		{"silu_f32", func() { a.Silu() }, 8 * n, n},
		{"maximum_f32", func() { tensor.MaximumTo(out, a, b) }, 12 * n, n},
		{"gt_f32", func() { tensor.GtTo(obool, a, b) }, 9 * n, n},
		{"add_i8", func() { tensor.AddTo(i8o, ta, tb) }, 3 * n, n},
		{"mul_i64", func() { tensor.MulTo(i64o, i64a, i64b) }, 24 * n, n},
		{"add_bf16", func() { tensor.AddTo(bfo, bfa, bfb) }, 6 * n, n},
		{"exp_f64", func() { tensor.ExpTo(f64o, f64a) }, 16 * n, n},
	}
}

// breadthLayout builds the layout workloads of the Breadth section: a
// strided copy and a bias add over short rows.
func breadthLayout() []workload {
	f32 := tensor.Float32
	m := pattern(f32, 13, s, s)
	x4, bias4 := pattern(f32, 13, 64, 256, 14, 14), pattern(f32, 5, 256, 1, 1)
	o4 := tensor.Empty(f32, 64, 256, 14, 14)
	x4n := 64 * 256 * 14 * 14
	return []workload{
		{"contiguous_step2", func() { m.Slice(1, 0, s, 2).Contiguous() }, 4 * s * s, 0},
		{"bias_nchw_small", func() { tensor.AddTo(o4, x4, bias4) }, 8 * x4n, x4n},
	}
}
