package tensor

import (
	"github.com/goten-ml/goten/errs"
)

// Note [Derivatives of index ops]
//
// The index, gather, mask and sort ops take positions as well as values,
// so their derivatives are recorded here, beside their forward code (as
// views and matrix products record theirs), not as expressions of the op
// table: each is another op of this file over the same positions, written
// with differentiable ops so that it can be differentiated again. The
// pairs are PyTorch's: gather ↔ scatter_add, index_select ↔ index_add,
// take ↔ put with accumulate, index ↔ index_put with accumulate,
// masked_select ↔ masked_scatter; a write through positions (scatter,
// index_copy, index_fill, masked_fill, index_put, put) passes the
// gradient of the elements it did not overwrite, and its source gets the
// gradient read back at the positions it went to; sorts send each value's
// gradient back to the position it came from (a scatter along the dim by
// the indices). Index positions are captured, not saved: like PyTorch, a
// later in-place change of an index tensor is not detected. Where
// PyTorch 1.13 has no derivative (scatter with reduce=, unique, bincount)
// the op records a node whose backward is PyTorch's "not implemented"
// error, so that a gradient is never silently dropped; histc's result,
// as PyTorch's, does not require grad.

// gradFn computes the gradients of a node's inputs from g, the gradient of
// its output; n.needs(i) says which inputs want one.
type gradFn func(n *node, g *Tensor) []*Tensor

// recordNew records r, a new float tensor made from ins by the op whose
// backward node is name (Note [Derivatives of index ops]), and returns r.
func recordNew(name string, ins []*Tensor, r *Tensor, grad gradFn) *Tensor {
	if r.DType().IsFloat() && recording(ins...) {
		record(name, ins, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
			if gs[0] == nil {
				return nil
			}
			return grad(n, gs[0])
		})
	}
	return r
}

// beginWrite checks, before the op name writes into t in place reading
// srcs, that autograd can follow the write, and reports whether it records.
func beginWrite(name string, t *Tensor, srcs ...*Tensor) bool {
	checkInPlace(name, t)
	rec := recording(append([]*Tensor{t}, srcs...)...)
	if rec {
		checkViewInPlace(name, t)
	}
	return rec
}

// endWrite counts the write into t and, when rec, records t's new history:
// a node over t's old value and srcs whose gradients grad computes.
func endWrite(rec bool, name string, t *Tensor, srcs []*Tensor, grad gradFn) *Tensor {
	written(t)
	if !rec || !t.DType().IsFloat() {
		return t
	}
	n := record(name, append([]*Tensor{t}, srcs...), []*Tensor{t}, func(n *node, gs []*Tensor) []*Tensor {
		if gs[0] == nil {
			return nil
		}
		return grad(n, gs[0])
	})
	rebase(t, n)
	return t
}

// notDifferentiable is the backward of an op whose derivative goten lacks.
func notDifferentiable(name string) gradFn {
	return func(*node, *Tensor) []*Tensor {
		panic(errs.New(errs.Autograd, name, "the derivative for '%s' is not implemented.", name))
	}
}

// notImplementedAten is the backward of an op that PyTorch 1.13 records
// without a derivative formula (scatter with reduce=, bincount): its
// error at backward.
func notImplementedAten(name string) gradFn {
	return func(*node, *Tensor) []*Tensor {
		panic(errs.New(errs.Autograd, name, "derivative for aten::%s is not implemented", name))
	}
}

// zero is a 0-dim zero of t's dtype on t's device, a fill value for
// gradients.
func zero(t *Tensor) *Tensor { return fullOn(t, Scalar(0), t.DType(), nil) }

// sortedGrad sends g, the gradient of values taken along dim of a tensor
// of shape sh at indices (a sort, topk), back to where they came from.
func sortedGrad(g, indices *Tensor, dim int, sh []int) *Tensor {
	if len(sh) == 0 {
		return g.Reshape()
	}
	return ScatterAdd(fullOn(g, Scalar(0), g.DType(), sh), dim, indices, g)
}
