package tensor

import (
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
)

func viewResult(v *raw.View, err error) *Tensor {
	must(err)
	return wrap(v)
}

func viewsResult(vs []*raw.View, err error) []*Tensor {
	must(err)
	out := make([]*Tensor, len(vs))
	for i, v := range vs {
		out[i] = wrap(v)
	}
	return out
}

// View returns a view of t with a new shape (one size may be -1, inferred).
// It panics with a view error when the shape cannot be expressed over t's
// strides (use [Tensor.Reshape]), a shape error when the element count differs.
func (t *Tensor) View(shape ...int) *Tensor { return viewResult(op.View(t.v, shape)) }

// Reshape returns a view of t with a new shape where one exists, else a
// contiguous copy.
func (t *Tensor) Reshape(shape ...int) *Tensor { return viewResult(op.Reshape(t.v, shape)) }

// Flatten merges dims start..end (a view where possible); a 0-dim tensor gives shape [1].
func (t *Tensor) Flatten(start, end int) *Tensor { return viewResult(op.Flatten(t.v, start, end)) }

// Unflatten splits dim into sizes (one may be -1), as a view.
func (t *Tensor) Unflatten(dim int, sizes ...int) *Tensor {
	return viewResult(op.Unflatten(t.v, dim, sizes))
}

// Permute returns a view with dims reordered: result dim i is t's dim dims[i].
func (t *Tensor) Permute(dims ...int) *Tensor { return viewResult(op.Permute(t.v, dims)) }

// Transpose returns a view with dims d0 and d1 swapped.
func (t *Tensor) Transpose(d0, d1 int) *Tensor { return viewResult(op.Transpose(t.v, d0, d1)) }

// T returns the transpose of a tensor of at most 2 dims (more: a shape error).
func (t *Tensor) T() *Tensor { return viewResult(op.T(t.v)) }

// Expand returns a view broadcast to shape (-1 keeps a size; new leading
// dims allowed), with stride 0 on expanded dims.
func (t *Tensor) Expand(shape ...int) *Tensor { return viewResult(op.Expand(t.v, shape)) }

// ExpandAs expands t to other's shape.
func (t *Tensor) ExpandAs(other *Tensor) *Tensor { return viewResult(op.Expand(t.v, other.v.Shape)) }

// Narrow returns the view of elements start..start+length-1 along dim.
func (t *Tensor) Narrow(dim, start, length int) *Tensor {
	return viewResult(op.Narrow(t.v, dim, start, length))
}

// Select returns the view at index along dim, without that dim.
func (t *Tensor) Select(dim, index int) *Tensor { return viewResult(op.Select(t.v, dim, index)) }

// Slice returns Python's t[..., start:end:step, ...] on dim as a view;
// negative bounds count from the end and bounds clamp to the size.
func (t *Tensor) Slice(dim, start, end, step int) *Tensor {
	return viewResult(op.Slice(t.v, dim, &start, &end, step))
}

// SliceFrom returns t[..., start::step, ...] on dim.
func (t *Tensor) SliceFrom(dim, start, step int) *Tensor {
	return viewResult(op.Slice(t.v, dim, &start, nil, step))
}

// Squeeze returns a view without size-1 dims, or, given dims, without
// those of them whose size is 1 (PyTorch 2.0's squeeze(dims): the others
// stay). A dim out of range is an index error, a dim given twice a value
// error.
func (t *Tensor) Squeeze(dims ...int) *Tensor { return viewResult(op.Squeeze(t.v, dims...)) }

// Unsqueeze returns a view with a size-1 dim inserted at dim.
func (t *Tensor) Unsqueeze(dim int) *Tensor { return viewResult(op.Unsqueeze(t.v, dim)) }

// Movedim returns a view with dims src moved to positions dst.
func (t *Tensor) Movedim(src, dst []int) *Tensor { return viewResult(op.Movedim(t.v, src, dst)) }

// AsStrided returns a view of t's storage with this layout, at t's own
// storage offset (see [Tensor.AsStridedAt]).
func (t *Tensor) AsStrided(sizes, strides []int) *Tensor {
	return viewResult(op.AsStrided(t.v, sizes, strides, nil))
}

// AsStridedAt returns a view of t's storage with this layout and storage offset.
func (t *Tensor) AsStridedAt(sizes, strides []int, offset int) *Tensor {
	return viewResult(op.AsStrided(t.v, sizes, strides, &offset))
}

// Split cuts dim into views of size elements (the last may be smaller).
func (t *Tensor) Split(size, dim int) []*Tensor { return viewsResult(op.Split(t.v, size, dim)) }

// SplitSizes cuts dim into views of the listed sizes, which must sum to its size.
func (t *Tensor) SplitSizes(sizes []int, dim int) []*Tensor {
	return viewsResult(op.SplitSizes(t.v, sizes, dim))
}

// Chunk cuts dim into at most chunks views of equal size.
func (t *Tensor) Chunk(chunks, dim int) []*Tensor { return viewsResult(op.Chunk(t.v, chunks, dim)) }

func raws(ts []*Tensor) []*raw.View {
	vs := make([]*raw.View, len(ts))
	for i, t := range ts {
		vs[i] = t.v
	}
	return vs
}

// Cat concatenates tensors along dim, promoting their dtypes.
func Cat(ts []*Tensor, dim int) *Tensor { return viewResult(op.Cat(raws(ts), dim, nil)) }

// CatTo concatenates tensors along dim into dst and returns dst.
func CatTo(dst *Tensor, ts []*Tensor, dim int) *Tensor {
	_, err := op.Cat(raws(ts), dim, dst.v)
	must(err)
	return dst
}

// Stack stacks equally shaped tensors along a new dim.
func Stack(ts []*Tensor, dim int) *Tensor { return viewResult(op.Stack(raws(ts), dim)) }
