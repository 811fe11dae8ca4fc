package main

import (
	"math"

	"github.com/goten-ml/goten/optim"
	"github.com/goten-ml/goten/tensor"
)

func init() { families = append(families, autograd) }

// autograd builds the workloads of backward passes: a small MLP layer's
// step, a long chain of tiny ops (per-node overhead), a broadcast
// gradient summed back to its input, and a training step with Adam.
func autograd() []workload {
	f32 := tensor.Float32
	x := pattern(f32, 13, 256, 512).Div(tensor.Scalar(16))
	w := pattern(f32, 3, 512, 512).Div(tensor.Scalar(64)).SetRequiresGrad(true)
	bias := pattern(f32, 5, 512).Div(tensor.Scalar(64)).SetRequiresGrad(true)
	x16 := pattern(f32, 13, 16).SetRequiresGrad(true)
	a := pattern(f32, 13, s, s).SetRequiresGrad(true)
	b := pattern(f32, 29, s).SetRequiresGrad(true)
	// train_step_adam: MLP 256→512→512→10 with PyTorch's nn.Linear init
	// (uniform in ±1/√in, seeded: "weights of any init")
	g := tensor.NewGenerator(0)
	var params []*tensor.Tensor
	layer := func(in, out int) (w, b *tensor.Tensor) {
		r := 1 / math.Sqrt(float64(in))
		w = tensor.Zeros(f32, out, in).UniformInPlace(g, -r, r).SetRequiresGrad(true)
		b = tensor.Zeros(f32, out).UniformInPlace(g, -r, r).SetRequiresGrad(true)
		params = append(params, w, b)
		return w, b
	}
	w1, b1 := layer(256, 512)
	w2, b2 := layer(512, 512)
	w3, b3 := layer(512, 10)
	xin := pattern(f32, 13, 256, 256).Div(tensor.Scalar(16))
	target := index(256, 10, 13)
	adam := optim.NewAdam(params, optim.Adam{LR: 1e-3})
	return []workload{
		{"train_step_adam", func() {
			adam.ZeroGrad()
			h := tensor.Linear(xin, w1, b1).Relu()
			h = tensor.Linear(h, w2, b2).Relu()
			tensor.CrossEntropy(tensor.Linear(h, w3, b3), target).Backward()
			adam.Step()
		}, 0, 6 * 256 * (256*512 + 512*512 + 512*10)},
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
