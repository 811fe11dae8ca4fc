package op

import (
	"fmt"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// View ops return views sharing the input's storage; their shape algebra
// lives in package shape. Ops that may copy (Reshape, Flatten) copy only
// when no view exists.

func layoutOf(v *raw.View) shape.Layout {
	return shape.Layout{Sizes: v.Shape, Strides: v.Strides, Offset: v.Offset}
}

// viewOf returns the view of v's storage with layout l made by op name,
// after checking it against the storage (Note [Checked sizes] in package
// shape): the one place every view a user can make passes.
func viewOf(name string, v *raw.View, l shape.Layout, err error) (*raw.View, error) {
	if err != nil {
		return nil, err
	}
	if err := checkView(name, v, l); err != nil {
		return nil, err
	}
	return v.WithLayout(l.Sizes, l.Strides, l.Offset), nil
}

// checkView checks layout l of v's storage for op name.
func checkView(name string, v *raw.View, l shape.Layout) error {
	return shape.CheckView(name, l, v.Storage.Len()/v.DType.Size())
}

// View returns v with a new shape (one size may be -1) as a view; a shape
// that cannot be expressed over v's strides is a view error.
func View(v *raw.View, sizes []int) (*raw.View, error) {
	l, err := shape.View(layoutOf(v), sizes)
	return viewOf("view", v, l, err)
}

// Reshape returns a view of v with a new shape where one exists, else a
// contiguous copy.
func Reshape(v *raw.View, sizes []int) (*raw.View, error) {
	l, needCopy, err := shape.Reshape(layoutOf(v), sizes)
	return reshaped("reshape", v, l, needCopy, err)
}

func reshaped(name string, v *raw.View, l shape.Layout, needCopy bool, err error) (*raw.View, error) {
	if err != nil {
		return nil, err
	}
	if !needCopy {
		return viewOf(name, v, l, nil)
	}
	c, err := empty(name, v.DType, v.Shape, v)
	if err != nil {
		return nil, err
	}
	if c, err = CopyInto(name, c, v, false); err != nil {
		return nil, err
	}
	return c.WithLayout(l.Sizes, shape.Contiguous(l.Sizes), 0), nil
}

// Flatten merges dims start..end, as a view where possible.
func Flatten(v *raw.View, start, end int) (*raw.View, error) {
	l, needCopy, err := shape.Flatten(layoutOf(v), start, end)
	return reshaped("flatten", v, l, needCopy, err)
}

// Permute reorders v's dims.
func Permute(v *raw.View, dims []int) (*raw.View, error) {
	l, err := shape.Permute(layoutOf(v), dims)
	return viewOf("permute", v, l, err)
}

// Transpose swaps dims d0 and d1.
func Transpose(v *raw.View, d0, d1 int) (*raw.View, error) {
	l, err := shape.Transpose(layoutOf(v), d0, d1)
	return viewOf("transpose", v, l, err)
}

// T transposes a tensor of at most 2 dims.
func T(v *raw.View) (*raw.View, error) {
	l, err := shape.T(layoutOf(v))
	return viewOf("t", v, l, err)
}

// Expand broadcasts v to sizes (-1 keeps a size) with stride 0 on expanded dims.
func Expand(v *raw.View, sizes []int) (*raw.View, error) {
	l, err := shape.Expand(layoutOf(v), sizes)
	return viewOf("expand", v, l, err)
}

// Narrow keeps elements start..start+length-1 of dim.
func Narrow(v *raw.View, dim, start, length int) (*raw.View, error) {
	l, err := shape.Narrow(layoutOf(v), dim, start, length)
	return viewOf("narrow", v, l, err)
}

// Select indexes dim at index, removing the dim.
func Select(v *raw.View, dim, index int) (*raw.View, error) {
	l, err := shape.Select(layoutOf(v), dim, index)
	return viewOf("select", v, l, err)
}

// Slice is Python's v[..., start:end:step, ...] on dim (nil bounds mean the edges).
func Slice(v *raw.View, dim int, start, end *int, step int) (*raw.View, error) {
	l, err := shape.Slice(layoutOf(v), dim, start, end, step)
	return viewOf("slice", v, l, err)
}

// Squeeze drops every size-1 dim when no dims are given, else those of
// dims of size 1 (see shape.Squeeze).
func Squeeze(v *raw.View, dims ...int) (*raw.View, error) {
	l, err := shape.Squeeze(layoutOf(v), dims...)
	return viewOf("squeeze", v, l, err)
}

// Unsqueeze inserts a size-1 dim at dim.
func Unsqueeze(v *raw.View, dim int) (*raw.View, error) {
	l, err := shape.Unsqueeze(layoutOf(v), dim)
	return viewOf("unsqueeze", v, l, err)
}

// Unflatten splits dim into sizes.
func Unflatten(v *raw.View, dim int, sizes []int) (*raw.View, error) {
	l, err := shape.Unflatten(layoutOf(v), dim, sizes)
	return viewOf("unflatten", v, l, err)
}

// Movedim moves dims src to positions dst, the others keeping their order.
func Movedim(v *raw.View, src, dst []int) (*raw.View, error) {
	l, err := shape.Movedim(layoutOf(v), src, dst)
	return viewOf("movedim", v, l, err)
}

// AsStrided returns a view of v's storage with the given layout (offset nil: v's own).
func AsStrided(v *raw.View, sizes, strides []int, offset *int) (*raw.View, error) {
	l, err := shape.AsStrided(layoutOf(v), sizes, strides, offset, v.Storage.Len()/v.DType.Size())
	return viewOf("as_strided", v, l, err)
}

func viewsOf(name string, v *raw.View, ls []shape.Layout, err error) ([]*raw.View, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*raw.View, len(ls))
	for i, l := range ls {
		if err := checkView(name, v, l); err != nil {
			return nil, err
		}
		out[i] = v.WithLayout(l.Sizes, l.Strides, l.Offset)
	}
	return out, nil
}

// Split cuts dim into pieces of size (the last may be smaller).
func Split(v *raw.View, size, dim int) ([]*raw.View, error) {
	if d, err := shape.WrapDim(dim, v.Dim()); err == nil && v.Dim() > 0 {
		if err := checkPieces("split", shape.SplitPieces(v.Shape[d], size), v.Dim()); err != nil {
			return nil, err
		}
	}
	ls, err := shape.Split(layoutOf(v), size, dim)
	return viewsOf("split", v, ls, err)
}

// pieceBytes bounds the memory of one view of a split per dim, and of its
// header: a Layout, a raw.View and a tensor's.
const pieceBytes, pieceDimBytes = 256, 32

// checkPieces refuses, with a memory error, a split of a view of ndim dims
// into more pieces than the memory limit holds: the pieces of a dim of an
// expanded view of 2^40 elements are valid views, too many to make.
func checkPieces(name string, pieces, ndim int) error {
	limit := device.MemoryLimit()
	if pieces <= limit/(pieceBytes+pieceDimBytes*ndim) {
		return nil
	}
	return &errs.Error{Kind: errs.Memory, Op: name, Err: device.ErrMemoryLimit,
		Msg: fmt.Sprintf("%v: %d views of the pieces would take more than the limit of %d bytes (see device.SetMemoryLimit)", device.ErrMemoryLimit, pieces, limit)}
}

// SplitSizes cuts dim into pieces of the listed sizes.
func SplitSizes(v *raw.View, sizes []int, dim int) ([]*raw.View, error) {
	ls, err := shape.SplitSizes(layoutOf(v), sizes, dim)
	return viewsOf("split_with_sizes", v, ls, err)
}

// Chunk cuts dim into at most chunks pieces of equal size.
func Chunk(v *raw.View, chunks, dim int) ([]*raw.View, error) {
	if d, err := shape.WrapDim(dim, v.Dim()); err == nil && v.Dim() > 0 && chunks > 0 {
		if err := checkPieces("chunk", shape.ChunkPieces(v.Shape[d], chunks), v.Dim()); err != nil {
			return nil, err
		}
	}
	ls, err := shape.Chunk(layoutOf(v), chunks, dim)
	return viewsOf("chunk", v, ls, err)
}

// Cat concatenates vs along dim into a new view of their promoted dtype,
// or into out. 1-D inputs of size 0 are skipped, as PyTorch 1.13 does.
func Cat(vs []*raw.View, dim int, out *raw.View) (*raw.View, error) {
	shapes := make([][]int, len(vs))
	var st dtype.ResultState
	for i, v := range vs {
		shapes[i] = v.Shape
		st.Update(v.DType, 1, false) // cat promotes tensors as if all were dimensioned
	}
	sh, err := shape.CatShape(shapes, dim)
	if err != nil {
		return nil, err
	}
	result := st.Result()
	d := 0
	for _, v := range vs {
		if !(v.Dim() == 1 && v.Shape[0] == 0) {
			d, _ = shape.WrapDim(dim, v.Dim())
			break
		}
	}
	if out != nil {
		if !dtype.CanCast(result, out.DType) {
			return nil, errs.New(errs.DType, "cat", "result type %s can't be cast to the desired output type %s", result, out.DType)
		}
		// cat cannot work in place: an out that is an input, even fully,
		// would be read while written (PyTorch's assert_no_internal_overlap
		// and assert_no_overlap). As in PyTorch they look at the out as
		// resized to the result's shape, so an empty out that the resize
		// spreads over an input, or that is an input, is refused too.
		resized := out
		if !shape.Equal(out.Shape, sh) {
			r := *out
			r.Shape, r.Strides = sh, shape.Contiguous(sh)
			resized = &r
		}
		if err := iter.CheckNoInternalOverlap("cat", resized); err != nil {
			return nil, err
		}
		for _, v := range vs {
			if v == out { // resized with it
				v = resized
			}
			if err := iter.CheckNoOverlap("cat", resized, v); err != nil {
				return nil, err
			}
		}
		if resized != out {
			if out.NumEl() != 0 {
				return nil, errs.New(errs.Shape, "cat", "output with shape %v doesn't match the result shape %v", out.Shape, sh)
			}
			if err := resize("cat", out, sh); err != nil {
				return nil, err
			}
		}
	} else {
		var err error
		if out, err = empty("cat", result, sh, vs...); err != nil {
			return nil, err
		}
	}
	at := 0
	for _, v := range vs {
		if v.Dim() == 1 && v.Shape[0] == 0 && len(sh) != 1 {
			continue
		}
		n := v.Shape[d]
		if n == 0 {
			continue
		}
		dst, err := Narrow(out, d, at, n)
		if err != nil {
			return nil, err
		}
		if _, err := CopyInto("cat", dst, v, false); err != nil {
			return nil, err
		}
		at += n
	}
	return out, nil
}

// Stack stacks equally shaped vs along a new dim.
func Stack(vs []*raw.View, dim int) (*raw.View, error) {
	shapes := make([][]int, len(vs))
	for i, v := range vs {
		shapes[i] = v.Shape
	}
	if _, err := shape.StackShape(shapes, dim); err != nil {
		return nil, err
	}
	d, err := shape.WrapDim(dim, vs[0].Dim()+1)
	if err != nil {
		return nil, errs.WithOp(err, "stack")
	}
	us := make([]*raw.View, len(vs))
	for i, v := range vs {
		if us[i], err = Unsqueeze(v, d); err != nil {
			return nil, err
		}
	}
	return Cat(us, d, nil)
}
