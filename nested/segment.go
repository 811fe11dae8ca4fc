package nested

import (
	"github.com/goten-ml/goten/tensor"
)

// Note [Reductions over the ragged dim]
//
// A reduction over component dim 0 of a packed tensor whose components
// share their other sizes reduces runs of rows of the buffer, seen as a
// [rows, trailing...] matrix: a segment reduction (tensor.SegmentReduce,
// one pass over the buffer, parallel over the components), not a dense
// reduction per component. Softmax and log_softmax over that dim are
// built from two of them (the max of each component, then the sum of the
// exponentials) and the rows of their results gathered back to each row
// of the buffer by index_select. Other dtypes, layouts and reductions run
// per component.

// segmentReductions are the reductions by name that have a segment form.
var segmentReductions = map[string]tensor.Reduction{
	"sum": tensor.ReduceSum, "mean": tensor.ReduceMean, "amax": tensor.ReduceAmax, "amin": tensor.ReduceAmin,
}

// segments returns the buffer of x as [rows, trailing...] and the row
// offsets of its components, when x's component dim 0 can be reduced as
// segments (Note [Reductions over the ragged dim]): half also admits
// float16 and bfloat16, whose segment reductions accumulate in float32
// (softmax, built of several ops, keeps them per component, where the
// dense softmax computes in float32 throughout).
func (t *Tensor) segments(half bool) (*tensor.Tensor, []int64, bool) {
	if dt := t.DType(); dt != tensor.Float32 && dt != tensor.Float64 && !(half && (dt == tensor.Float16 || dt == tensor.BFloat16)) {
		return nil, nil, false
	}
	return t.segmentRows()
}

// segmentRows is [Tensor.segments] for any dtype: the buffer as [rows,
// trailing...] and the components' row offsets, when x is packed and its
// components share their trailing sizes.
func (t *Tensor) segmentRows() (*tensor.Tensor, []int64, bool) {
	if t.ndim < 1 {
		return nil, nil, false
	}
	rows, _, ok := t.rows(t.ndim - 1)
	if !ok {
		return nil, nil, false
	}
	offs := make([]int64, t.Len()+1)
	for i := range t.Len() {
		offs[i+1] = offs[i] + t.sizes[i*t.ndim]
	}
	return rows, offs, true
}

// segmentIDs returns the int64 [rows] tensor of the component of each
// row, on like's device.
func segmentIDs(offs []int64, like *tensor.Tensor) *tensor.Tensor {
	ids := make([]int64, offs[len(offs)-1])
	for b := 0; b+1 < len(offs); b++ {
		for r := offs[b]; r < offs[b+1]; r++ {
			ids[r] = int64(b)
		}
	}
	return on(like, tensor.FromSlice(ids, len(ids)))
}

// raggedReduce is [Reduce] over component dim 0 as a segment reduction;
// nil when x or the reduction has no segment form.
func raggedReduce(name string, x *Tensor, keepDim bool) *Tensor {
	r, ok := segmentReductions[name]
	if !ok {
		return nil
	}
	rows, offs, ok := x.segments(true)
	if !ok {
		return nil
	}
	res := tensor.SegmentReduce(rows, offs, r) // [n, trailing...]
	tr := res.Shape()[1:]
	if keepDim {
		tr = append([]int{1}, tr...)
	}
	sizes := make([][]int, x.Len())
	for i := range sizes {
		sizes[i] = tr
	}
	return packedSizes(res.Reshape(res.NumEl()), sizes)
}

// raggedSoftmax is softmax (log_softmax when log) over component dim 0 by
// segment reductions; nil when x has no segment form.
func raggedSoftmax(x *Tensor, log bool) *Tensor {
	rows, offs, ok := x.segments(false)
	if !ok {
		return nil
	}
	for b := 1; b < len(offs); b++ {
		if offs[b] == offs[b-1] {
			return nil // an empty component has no max to shift by
		}
	}
	ids := segmentIDs(offs, rows)
	// the shift only keeps exp in range: no gradient flows through it
	m := tensor.SegmentReduce(rows.Detach(), offs, tensor.ReduceAmax).IndexSelect(0, ids)
	z := rows.Sub(m)
	e := z.Exp()
	s := tensor.SegmentReduce(e, offs, tensor.ReduceSum).IndexSelect(0, ids)
	var y *tensor.Tensor
	if log {
		y = z.Sub(s.Log())
	} else {
		y = e.Div(s)
	}
	return x.like(y.Reshape(y.NumEl()))
}
