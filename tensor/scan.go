package tensor

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

func scan(s *optable.Op, t *Tensor, dim int, dt DType) *Tensor {
	v, err := op.Scan(s, t.v, dim, dt)
	must(err)
	return wrap(v[0])
}

// CumSum returns the running sum along dim (of t's shape); bool and integer
// tensors give int64. A dim out of range is an index error.
func (t *Tensor) CumSum(dim int) *Tensor { return scan(optable.CumSum, t, dim, dtype.Invalid) }

// CumSumDType returns the running sum along dim computed in dt (t is read
// converted to dt; the result has dtype dt).
func (t *Tensor) CumSumDType(dim int, dt DType) *Tensor { return scan(optable.CumSum, t, dim, dt) }

// CumProd returns the running product along dim; bool and integer tensors give int64.
func (t *Tensor) CumProd(dim int) *Tensor { return scan(optable.CumProd, t, dim, dtype.Invalid) }

// CumProdDType returns the running product along dim computed in dt.
func (t *Tensor) CumProdDType(dim int, dt DType) *Tensor { return scan(optable.CumProd, t, dim, dt) }

// CumMax returns the running maximum along dim and the int64 index where
// each was reached (an equal value or a NaN takes over the index).
func (t *Tensor) CumMax(dim int) (values, indices *Tensor) {
	v, err := op.Scan(optable.CumMax, t.v, dim, dtype.Invalid)
	must(err)
	return wrap(v[0]), wrap(v[1])
}

// CumMin returns the running minimum along dim and its int64 indices.
func (t *Tensor) CumMin(dim int) (values, indices *Tensor) {
	v, err := op.Scan(optable.CumMin, t.v, dim, dtype.Invalid)
	must(err)
	return wrap(v[0]), wrap(v[1])
}

// LogCumSumExp returns the running log Σ e^x along dim; float tensors only.
func (t *Tensor) LogCumSumExp(dim int) *Tensor {
	return scan(optable.LogCumSumExp, t, dim, dtype.Invalid)
}

// Softmax returns e^x/Σe^x along dim, computed stably (the row's max is
// subtracted first); float tensors only (see [Tensor.SoftmaxDType]).
func (t *Tensor) Softmax(dim int) *Tensor { return scan(optable.Softmax, t, dim, dtype.Invalid) }

// SoftmaxDType returns the softmax along dim of t read converted to dt (a
// float dtype), of dtype dt.
func (t *Tensor) SoftmaxDType(dim int, dt DType) *Tensor { return scan(optable.Softmax, t, dim, dt) }

// LogSoftmax returns x - log Σe^x along dim, computed stably; float tensors only.
func (t *Tensor) LogSoftmax(dim int) *Tensor { return scan(optable.LogSoftmax, t, dim, dtype.Invalid) }

// LogSoftmaxDType returns the log-softmax along dim of t read converted to dt.
func (t *Tensor) LogSoftmaxDType(dim int, dt DType) *Tensor {
	return scan(optable.LogSoftmax, t, dim, dt)
}

// LayerNorm returns x normalised over its trailing dims normalizedShape
// (biased variance, eps added to it), times weight plus bias (either may
// be nil; else of shape normalizedShape): torch.nn.functional.layer_norm.
// Trailing sizes that differ from normalizedShape are a shape error.
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	var w, b = nilView(weight), nilView(bias)
	v, err := op.LayerNorm(x.v, normalizedShape, w, b, eps)
	must(err)
	return wrap(v)
}

// nilView returns t's view, or nil for a nil tensor.
func nilView(t *Tensor) *raw.View {
	if t == nil {
		return nil
	}
	return t.v
}
