package tensor

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/op"
)

// ReduceOpt configures a reduction: the dims to reduce (all when none),
// whether to keep them with size 1, the dtype= to compute in.
type ReduceOpt struct {
	Dims    []int
	KeepDim bool
	DType   DType // dtype.Invalid: the default rule
}

func reduce(r *op.Reduction, t *Tensor, o ReduceOpt, dst *Tensor) *Tensor {
	var out = dst
	if dst == nil {
		v, err := r.Run(t.v, o.Dims, o.KeepDim, o.DType, nil)
		must(err)
		return wrap(v)
	}
	_, err := r.Run(t.v, o.Dims, o.KeepDim, o.DType, out.v)
	must(err)
	return dst
}

// Sum returns the sum over all elements (0-dim); bool and integer tensors give int64.
func (t *Tensor) Sum() *Tensor { return reduce(op.Sum, t, ReduceOpt{}, nil) }

// SumOpt returns the sum over o.Dims.
func (t *Tensor) SumOpt(o ReduceOpt) *Tensor { return reduce(op.Sum, t, o, nil) }

// SumTo writes the sum over o.Dims into dst and returns dst.
func SumTo(dst, t *Tensor, o ReduceOpt) *Tensor { return reduce(op.Sum, t, o, dst) }

// Prod returns the product of all elements.
func (t *Tensor) Prod() *Tensor { return reduce(op.Prod, t, ReduceOpt{}, nil) }

// ProdOpt returns the product over o.Dims.
func (t *Tensor) ProdOpt(o ReduceOpt) *Tensor { return reduce(op.Prod, t, o, nil) }

// Amax returns the maximum over o.Dims (NaN propagates); over no elements: an index error.
func (t *Tensor) Amax(o ReduceOpt) *Tensor { return reduce(op.Amax, t, o, nil) }

// AmaxTo writes the maximum over o.Dims into dst (of t's dtype) and returns dst.
func AmaxTo(dst, t *Tensor, o ReduceOpt) *Tensor { return reduce(op.Amax, t, o, dst) }

// Amin returns the minimum over o.Dims (NaN propagates).
func (t *Tensor) Amin(o ReduceOpt) *Tensor { return reduce(op.Amin, t, o, nil) }

var _ = dtype.Invalid
