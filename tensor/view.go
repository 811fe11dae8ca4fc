package tensor

import (
	"github.com/goten-ml/goten/errs"
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
func (t *Tensor) View(shape ...int) *Tensor { return viewResult(op.View(t.in("view"), shape)) }

// Reshape returns a view of t with a new shape where one exists, else a
// contiguous copy.
func (t *Tensor) Reshape(shape ...int) *Tensor { return viewResult(op.Reshape(t.in("reshape"), shape)) }

// Flatten merges dims start..end (a view where possible); a 0-dim tensor gives shape [1].
func (t *Tensor) Flatten(start, end int) *Tensor {
	return viewResult(op.Flatten(t.in("flatten"), start, end))
}

// Unflatten splits dim into sizes (one may be -1), as a view.
func (t *Tensor) Unflatten(dim int, sizes ...int) *Tensor {
	return viewResult(op.Unflatten(t.in("unflatten"), dim, sizes))
}

// Permute returns a view with dims reordered: result dim i is t's dim dims[i].
func (t *Tensor) Permute(dims ...int) *Tensor { return viewResult(op.Permute(t.in("permute"), dims)) }

// Transpose returns a view with dims d0 and d1 swapped.
func (t *Tensor) Transpose(d0, d1 int) *Tensor {
	return viewResult(op.Transpose(t.in("transpose"), d0, d1))
}

// T returns the transpose of a tensor of at most 2 dims (more: a shape error).
func (t *Tensor) T() *Tensor { return viewResult(op.T(t.in("t"))) }

// Expand returns a view broadcast to shape (-1 keeps a size; new leading
// dims allowed), with stride 0 on expanded dims.
func (t *Tensor) Expand(shape ...int) *Tensor { return viewResult(op.Expand(t.in("expand"), shape)) }

// ExpandAs expands t to other's shape.
func (t *Tensor) ExpandAs(other *Tensor) *Tensor {
	return viewResult(op.Expand(t.in("expand_as"), other.in("expand_as").Shape))
}

// Narrow returns the view of elements start..start+length-1 along dim.
func (t *Tensor) Narrow(dim, start, length int) *Tensor {
	return viewResult(op.Narrow(t.in("narrow"), dim, start, length))
}

// Select returns the view at index along dim, without that dim.
func (t *Tensor) Select(dim, index int) *Tensor {
	return viewResult(op.Select(t.in("select"), dim, index))
}

// Slice returns Python's t[..., start:end:step, ...] on dim as a view;
// negative bounds count from the end and bounds clamp to the size.
func (t *Tensor) Slice(dim, start, end, step int) *Tensor {
	return viewResult(op.Slice(t.in("slice"), dim, &start, &end, step))
}

// SliceFrom returns t[..., start::step, ...] on dim.
func (t *Tensor) SliceFrom(dim, start, step int) *Tensor {
	return viewResult(op.Slice(t.in("slice"), dim, &start, nil, step))
}

// Squeeze returns a view without size-1 dims (or only dim, if given and of size 1).
func (t *Tensor) Squeeze(dim ...int) *Tensor {
	if len(dim) == 0 {
		return viewResult(op.Squeeze(t.in("squeeze"), nil))
	}
	return viewResult(op.Squeeze(t.in("squeeze"), &dim[0]))
}

// Unsqueeze returns a view with a size-1 dim inserted at dim.
func (t *Tensor) Unsqueeze(dim int) *Tensor { return viewResult(op.Unsqueeze(t.in("unsqueeze"), dim)) }

// Movedim returns a view with dims src moved to positions dst.
func (t *Tensor) Movedim(src, dst []int) *Tensor {
	return viewResult(op.Movedim(t.in("movedim"), src, dst))
}

// AsStrided returns a view of t's storage with this layout, at t's own
// storage offset (see [Tensor.AsStridedAt]).
func (t *Tensor) AsStrided(sizes, strides []int) *Tensor {
	return viewResult(op.AsStrided(t.in("as_strided"), sizes, strides, nil))
}

// AsStridedAt returns a view of t's storage with this layout and storage offset.
func (t *Tensor) AsStridedAt(sizes, strides []int, offset int) *Tensor {
	return viewResult(op.AsStrided(t.in("as_strided"), sizes, strides, &offset))
}

// Split cuts dim into views of size elements (the last may be smaller).
func (t *Tensor) Split(size, dim int) []*Tensor {
	return viewsResult(op.Split(t.in("split"), size, dim))
}

// SplitSizes cuts dim into views of the listed sizes, which must sum to its size.
func (t *Tensor) SplitSizes(sizes []int, dim int) []*Tensor {
	return viewsResult(op.SplitSizes(t.in("split_with_sizes"), sizes, dim))
}

// Chunk cuts dim into at most chunks views of equal size.
func (t *Tensor) Chunk(chunks, dim int) []*Tensor {
	return viewsResult(op.Chunk(t.in("chunk"), chunks, dim))
}

// raws returns the views of the tensors of op name, which must not be
// nil: as PyTorch's "expected Tensor as element 1 in argument 0, but got
// NoneType", a value error.
func raws(name string, ts []*Tensor) []*raw.View {
	vs := make([]*raw.View, len(ts))
	for i, t := range ts {
		if t.view() == nil {
			panic(errs.New(errs.Value, name, "expected Tensor as element %d in argument 0, but got nil", i))
		}
		vs[i] = t.v
	}
	return vs
}

// Cat concatenates tensors along dim, promoting their dtypes.
func Cat(ts []*Tensor, dim int) *Tensor { return viewResult(op.Cat(raws("cat", ts), dim, nil)) }

// CatTo concatenates tensors along dim into dst and returns dst.
func CatTo(dst *Tensor, ts []*Tensor, dim int) *Tensor {
	_, err := op.Cat(raws("cat", ts), dim, dst.in("cat"))
	must(err)
	return dst
}

// Stack stacks equally shaped tensors along a new dim.
func Stack(ts []*Tensor, dim int) *Tensor { return viewResult(op.Stack(raws("stack", ts), dim)) }
