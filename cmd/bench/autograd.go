package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, autograd) }

// autograd builds the workloads of backward passes: a small MLP layer's
// step, a long chain of tiny ops (per-node overhead), and a broadcast
// gradient summed back to its input.
func autograd() []workload {
	f32 := tensor.Float32
	x := pattern(f32, 13, 256, 512).Div(tensor.Scalar(16))
	w := pattern(f32, 3, 512, 512).Div(tensor.Scalar(64)).SetRequiresGrad(true)
	bias := pattern(f32, 5, 512).Div(tensor.Scalar(64)).SetRequiresGrad(true)
	x16 := pattern(f32, 13, 16).SetRequiresGrad(true)
	a := pattern(f32, 13, s, s).SetRequiresGrad(true)
	b := pattern(f32, 29, s).SetRequiresGrad(true)
	return []workload{
		{"mlp_step", func() {
			w.SetGrad(nil)
			bias.SetGrad(nil)
			x.Matmul(w).Add(bias).Relu().Sum().Backward()
		}, 0, 6 * 256 * 512 * 512},
		{"autograd_chain", func() {
			x16.SetGrad(nil)
			y := x16
			for range 100 {
				y = y.Mul(tensor.Scalar(1.01)).Add(tensor.Scalar(0.1)).Tanh()
			}
			y.Sum().Backward()
		}, 0, 0},
		{"grad_bcast_sum", func() {
			a.SetGrad(nil)
			b.SetGrad(nil)
			a.Add(b).Sum().Backward()
		}, 12 * s * s, 2 * s * s},
	}
}
