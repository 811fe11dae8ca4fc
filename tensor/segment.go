package tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
)

// SegmentReduce reduces runs of x's first dim: the result has x's shape
// but with len(offsets)−1 in the first dim, and its slice b is the
// reduction r (ReduceSum, ReduceMean, ReduceAmax or ReduceAmin; NaN
// propagates through the last two) of x's slices offsets[b] up to
// offsets[b+1] — in one pass over x, parallel over the segments (Note
// [Segment reductions] in package kernel). It is the reduction over the
// ragged dim of a nested tensor whose buffer x is. Offsets start at 0,
// never decrease and end at x's first size (else a value error); x is
// of a float dtype (else a dtype error; float16 and bfloat16 accumulate
// in float32); an empty segment gives 0 for a
// sum, NaN for a mean, and an index error for amax and amin. The gradient
// of amax and amin is split evenly among the elements equal to the
// result, as for [Tensor.Amax].
func SegmentReduce(x *Tensor, offsets []int64, r Reduction) *Tensor {
	var o *optable.Op
	switch r {
	case ReduceSum:
		o = optable.Sum
	case ReduceMean:
		o = optable.Mean
	case ReduceAmax:
		o = optable.Amax
	case ReduceAmin:
		o = optable.Amin
	default:
		panic(errs.New(errs.Value, "segment_reduce", "reduction %d has no segment form (sum, mean, amax, amin)", r))
	}
	if x.in(o.Name).Dim() == 0 {
		panic(errs.New(errs.Value, o.Name, "a segment reduction needs at least one dim"))
	}
	sh := x.Shape()
	inner := 1
	for _, s := range sh[1:] {
		inner *= s
	}
	m := x.Reshape(sh[0], inner)
	res := newResult(op.SegmentReduce(o, m.v, offsets))
	osh := slices.Clone(sh)
	osh[0] = len(offsets) - 1
	out := res.View(osh...)
	if !recording(x) {
		return out
	}
	offs := slices.Clone(offsets)
	record("SegmentReduceBackward", []*Tensor{x}, []*Tensor{out}, func(_ *node, gs []*Tensor) []*Tensor {
		return []*Tensor{segmentGrad(r, gs[0], x, out, offs)}
	})
	return out
}

// segmentGrad is SegmentReduce's derivative: each row of a segment gets
// the segment's gradient (divided by its length for a mean; for amax and
// amin only the rows equal to the result get it, split evenly among them).
func segmentGrad(r Reduction, g, x, result *Tensor, offsets []int64) *Tensor {
	n := x.Size(0)
	seg := make([]int64, n) // the segment of each row
	for b := 0; b+1 < len(offsets); b++ {
		for k := offsets[b]; k < offsets[b+1]; k++ {
			seg[k] = int64(b)
		}
	}
	idx := FromSlice(seg, n).ToDevice(x.Device())
	switch r {
	case ReduceMean:
		cnt := make([]float64, len(offsets)-1)
		for b := range cnt {
			cnt[b] = float64(offsets[b+1] - offsets[b])
		}
		bs := make([]int, g.Dim())
		for d := range bs {
			bs[d] = 1
		}
		bs[0] = len(cnt)
		g = g.Div(FromSlice(cnt, bs...).To(g.DType()).ToDevice(g.Device()))
	case ReduceAmax, ReduceAmin:
		mask := x.Eq(result.IndexSelect(0, idx))
		ties := SegmentReduce(mask.To(x.DType()), offsets, ReduceSum)
		return g.Div(ties).IndexSelect(0, idx).Mul(mask)
	}
	return g.IndexSelect(0, idx)
}

// SegmentPad returns the padded form of runs of x's first dim: a tensor
// [len(offsets)−1, rows, x's other sizes...] whose slice b holds x's
// slices offsets[b] up to offsets[b+1] first and padding (a [Scalar],
// converted to x's dtype as by [Full]) after them — to_padded_tensor of a
// nested tensor ragged in its first dim only, whose buffer x is. One pass
// writes each element of the result once, parallel over the segments
// (Note [Segment padding] in package kernel). Offsets start at 0, never
// decrease and end at x's first size, and no run is longer than rows:
// else a value error. Under autograd each slice of x gets its row of the
// result's gradient.
func SegmentPad(x *Tensor, offsets []int64, rows int, padding *Tensor) *Tensor {
	const name = "to_padded_tensor"
	if x.in(name).Dim() == 0 {
		panic(errs.New(errs.Value, name, "segment padding needs at least one dim"))
	}
	sh := x.Shape()
	inner := 1
	for _, s := range sh[1:] {
		inner *= s
	}
	val := Full(padding, x.DType(), 1).ToDevice(x.Device())
	res := newResult(op.SegmentPad(x.Reshape(sh[0], inner).v, offsets, rows, val.v))
	osh := append([]int{len(offsets) - 1, rows}, sh[1:]...)
	out := res.View(osh...)
	if !recording(x) {
		return out
	}
	at := make([]int64, sh[0]) // the row of the result each row of x went to
	for b := 0; b+1 < len(offsets); b++ {
		for r := offsets[b]; r < offsets[b+1]; r++ {
			at[r] = int64(b*rows) + r - offsets[b]
		}
	}
	record("SegmentPadBackward", []*Tensor{x}, []*Tensor{out}, func(_ *node, gs []*Tensor) []*Tensor {
		idx := FromSlice(at, len(at)).ToDevice(x.Device())
		return []*Tensor{gs[0].Reshape((len(offsets)-1)*rows, inner).IndexSelect(0, idx).View(sh...)}
	})
	return out
}
