package conform

import (
	"github.com/goten-ml/goten/tensor"
)

// The losses (suite losses), with torch.nn.functional's signatures
// (OPS.md).
func init() {
	for name, f := range map[string]func(x, t *tensor.Tensor, o ...tensor.LossOptions) *tensor.Tensor{
		"mse_loss":                         tensor.MSELoss,
		"l1_loss":                          tensor.L1Loss,
		"smooth_l1_loss":                   tensor.SmoothL1Loss,
		"huber_loss":                       tensor.HuberLoss,
		"cross_entropy":                    tensor.CrossEntropy,
		"nll_loss":                         tensor.NLLLoss,
		"binary_cross_entropy":             tensor.BinaryCrossEntropy,
		"binary_cross_entropy_with_logits": tensor.BinaryCrossEntropyWithLogits,
		"kl_div":                           tensor.KLDiv,
	} {
		add(name, func(c *call) result {
			x, t := c.tensor(0, "input"), c.tensor(1, "target")
			return one(f(x, t, lossOptions(c)))
		})
	}
}

// lossOptions reads the losses' keyword arguments; the runner reports
// those an op does not read as missing, so each is read only where the
// case gives it.
func lossOptions(c *call) tensor.LossOptions {
	var o tensor.LossOptions
	if r, ok := c.str(-1, "reduction"); ok {
		o.Reduction = tensor.LossReduction(r)
	}
	if _, ok := c.opt(-1, "weight", argTensor); ok {
		o.Weight = c.tensor(-1, "weight")
	}
	if _, ok := c.opt(-1, "pos_weight", argTensor); ok {
		o.PosWeight = c.tensor(-1, "pos_weight")
	}
	if i, ok := c.optInt(-1, "ignore_index"); ok {
		o.IgnoreIndex, o.HasIgnoreIndex = i, true
	}
	if v := c.optNumber(-1, "label_smoothing"); v != nil {
		o.LabelSmoothing = v[0].Item()
	}
	if v := c.optNumber(-1, "beta"); v != nil {
		o.Beta, o.HasBeta = v[0].Item(), true
	}
	if v := c.optNumber(-1, "delta"); v != nil {
		o.Delta, o.HasDel = v[0].Item(), true
	}
	o.LogTarget = c.flag(-1, "log_target", false)
	return o
}
