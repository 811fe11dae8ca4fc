// Package optim updates parameters from their gradients with PyTorch's
// optimizers and exactly their update formulas (torch.optim, 1.13): SGD
// with momentum, dampening, weight decay and Nesterov momentum; Adam
// (with AMSGrad) and AdamW.
//
//	opt := optim.NewAdam(params, optim.Adam{LR: 1e-3})
//	for step := range steps {
//		opt.ZeroGrad()
//		loss(params).Backward()
//		opt.Step()
//	}
//
// Updates write into the parameters in place, through detached views: they
// are not recorded for backward, and they move the parameters' version
// counters as PyTorch's do.
package optim

import (
	"math"

	"github.com/goten-ml/goten/tensor"
)

// Optimizer updates its parameters from their gradients.
type Optimizer interface {
	// Step updates every parameter that has a gradient.
	Step()
	// ZeroGrad clears the parameters' gradients (sets them to none, as
	// PyTorch's zero_grad(set_to_none=True)).
	ZeroGrad()
}

// zeroGrad clears the gradients of params.
func zeroGrad(params []*tensor.Tensor) {
	for _, p := range params {
		p.SetGrad(nil)
	}
}

// SGD is stochastic gradient descent's settings (torch.optim.SGD).
type SGD struct {
	LR          float64 // learning rate (required)
	Momentum    float64
	Dampening   float64
	WeightDecay float64
	Nesterov    bool // Nesterov momentum (needs Momentum > 0 and no Dampening)
	Maximize    bool // ascend instead of descend
}

type sgd struct {
	SGD
	params []*tensor.Tensor
	bufs   []*tensor.Tensor // momentum buffers
}

// NewSGD returns an SGD optimizer of params. It panics on settings
// PyTorch refuses (a negative rate, momentum or weight decay; Nesterov
// without momentum or with dampening).
func NewSGD(params []*tensor.Tensor, o SGD) Optimizer {
	switch {
	case o.LR < 0 || o.Momentum < 0 || o.WeightDecay < 0:
		panic(&tensor.Error{Kind: tensor.ValueError, Op: "SGD", Msg: "invalid learning rate, momentum or weight decay: must be non-negative"})
	case o.Nesterov && (o.Momentum <= 0 || o.Dampening != 0):
		panic(&tensor.Error{Kind: tensor.ValueError, Op: "SGD", Msg: "Nesterov momentum requires a momentum and zero dampening"})
	}
	return &sgd{SGD: o, params: params, bufs: make([]*tensor.Tensor, len(params))}
}

func (o *sgd) ZeroGrad() { zeroGrad(o.params) }

func (o *sgd) Step() {
	for i, param := range o.params {
		g := param.Grad()
		if g == nil {
			continue
		}
		p := param.Detach()
		if o.Maximize {
			g = g.Neg()
		}
		if o.WeightDecay != 0 {
			g = g.Add(p, tensor.Scalar(o.WeightDecay))
		}
		if o.Momentum != 0 {
			buf := o.bufs[i]
			if buf == nil {
				buf = g.Detach().Clone()
				o.bufs[i] = buf
			} else {
				buf.MulInPlace(tensor.Scalar(o.Momentum)).AddInPlace(g, tensor.Scalar(1-o.Dampening))
			}
			if o.Nesterov {
				g = g.Add(buf, tensor.Scalar(o.Momentum))
			} else {
				g = buf
			}
		}
		p.AddInPlace(g, tensor.Scalar(-o.LR))
	}
}

// Adam is Adam's and AdamW's settings (torch.optim.Adam, AdamW); zero
// Betas and Eps take PyTorch's defaults (0.9, 0.999) and 1e-8.
type Adam struct {
	LR          float64 // learning rate (required; PyTorch's default is 1e-3)
	Betas       [2]float64
	Eps         float64
	WeightDecay float64 // Adam: added to the gradient; AdamW: decoupled
	AMSGrad     bool
	Maximize    bool
}

type adam struct {
	Adam
	decoupled  bool
	params     []*tensor.Tensor
	steps      []int
	avg, avgSq []*tensor.Tensor
	maxAvgSq   []*tensor.Tensor
}

// NewAdam returns an Adam optimizer of params.
func NewAdam(params []*tensor.Tensor, o Adam) Optimizer { return newAdam(params, o, false) }

// NewAdamW returns an AdamW optimizer of params: Adam with the weight
// decay applied to the parameters directly (PyTorch's default weight
// decay for AdamW is 1e-2; here it is what o says).
func NewAdamW(params []*tensor.Tensor, o Adam) Optimizer { return newAdam(params, o, true) }

func newAdam(params []*tensor.Tensor, o Adam, decoupled bool) *adam {
	if o.Betas == [2]float64{} {
		o.Betas = [2]float64{0.9, 0.999}
	}
	if o.Eps == 0 {
		o.Eps = 1e-8
	}
	if o.LR < 0 || o.Eps < 0 || o.WeightDecay < 0 || o.Betas[0] < 0 || o.Betas[0] >= 1 || o.Betas[1] < 0 || o.Betas[1] >= 1 {
		panic(&tensor.Error{Kind: tensor.ValueError, Op: "Adam", Msg: "invalid learning rate, eps, weight decay or betas"})
	}
	n := len(params)
	return &adam{Adam: o, decoupled: decoupled, params: params, steps: make([]int, n),
		avg: make([]*tensor.Tensor, n), avgSq: make([]*tensor.Tensor, n), maxAvgSq: make([]*tensor.Tensor, n)}
}

func (o *adam) ZeroGrad() { zeroGrad(o.params) }

func (o *adam) Step() {
	b1, b2 := o.Betas[0], o.Betas[1]
	for i, param := range o.params {
		g := param.Grad()
		if g == nil {
			continue
		}
		p := param.Detach()
		if o.Maximize {
			g = g.Neg()
		}
		if o.avg[i] == nil {
			o.avg[i], o.avgSq[i] = tensor.ZerosLike(p), tensor.ZerosLike(p)
			if o.AMSGrad {
				o.maxAvgSq[i] = tensor.ZerosLike(p)
			}
		}
		o.steps[i]++
		step := float64(o.steps[i])
		switch {
		case o.decoupled:
			p.MulInPlace(tensor.Scalar(1 - o.LR*o.WeightDecay))
		case o.WeightDecay != 0:
			g = g.Add(p, tensor.Scalar(o.WeightDecay))
		}
		m, v := o.avg[i], o.avgSq[i]
		m.MulInPlace(tensor.Scalar(b1)).AddInPlace(g, tensor.Scalar(1-b1))
		v.MulInPlace(tensor.Scalar(b2)).AddcmulInPlace(g, g, tensor.Scalar(1-b2))
		bc1 := 1 - math.Pow(b1, step)
		bc2Sqrt := math.Sqrt(1 - math.Pow(b2, step))
		if o.AMSGrad {
			tensor.MaximumTo(o.maxAvgSq[i], o.maxAvgSq[i], v)
			v = o.maxAvgSq[i]
		}
		denom := v.Sqrt().DivInPlace(tensor.Scalar(bc2Sqrt)).AddInPlace(tensor.Scalar(o.Eps))
		p.AddcdivInPlace(m, denom, tensor.Scalar(-o.LR/bc1))
	}
}
