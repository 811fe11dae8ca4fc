package conform

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// The scans, softmax and normalization ops of OPS.md (suites scans, softmax).
func init() {
	add("cumsum", func(c *call) result {
		return withDType(c, (*tensor.Tensor).CumSum, (*tensor.Tensor).CumSumDType)
	})
	add("cumprod", func(c *call) result {
		return withDType(c, (*tensor.Tensor).CumProd, (*tensor.Tensor).CumProdDType)
	})
	add("cummax", func(c *call) result {
		v, i := c.tensor(0, "input").CumMax(c.intArg(1, "dim"))
		return many([]*tensor.Tensor{v, i})
	})
	add("cummin", func(c *call) result {
		v, i := c.tensor(0, "input").CumMin(c.intArg(1, "dim"))
		return many([]*tensor.Tensor{v, i})
	})
	add("logcumsumexp", func(c *call) result {
		return one(c.tensor(0, "input").LogCumSumExp(c.intArg(1, "dim")))
	})
	add("softmax", func(c *call) result {
		return withDType(c, (*tensor.Tensor).Softmax, (*tensor.Tensor).SoftmaxDType)
	})
	add("log_softmax", func(c *call) result {
		return withDType(c, (*tensor.Tensor).LogSoftmax, (*tensor.Tensor).LogSoftmaxDType)
	})
	add("layer_norm", func(c *call) result {
		x := c.tensor(0, "input")
		shape := c.intsArg(1, "normalized_shape")
		var w, b *tensor.Tensor
		if a, ok := c.opt(2, "weight", argTensor); ok {
			w = a.t
		}
		if a, ok := c.opt(3, "bias", argTensor); ok {
			b = a.t
		}
		eps := 1e-5
		if a, ok := c.opt(4, "eps", argScalar); ok {
			eps = a.float()
		}
		return one(tensor.LayerNorm(x, shape, w, b, eps))
	})
}

// withDType runs an op of (input, dim, *, dtype=None).
func withDType(c *call, plain func(*tensor.Tensor, int) *tensor.Tensor, as func(*tensor.Tensor, int, dtype.DType) *tensor.Tensor) result {
	t, dim := c.tensor(0, "input"), c.intArg(1, "dim")
	if dt, ok := c.dtype(-1, "dtype"); ok {
		return one(as(t, dim, dt))
	}
	return one(plain(t, dim))
}
