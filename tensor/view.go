package tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
)

// viewOf wraps v, the result of a view op on t (or a copy, where Reshape
// could not make a view): a view remembers the tensor whose storage it
// shares, for autograd's in-place rules.
func (t *Tensor) viewOf(v *raw.View, err error) *Tensor {
	must(err)
	r := wrap(v)
	if v.Storage == t.v.Storage {
		r.base = t
		if t.base != nil {
			r.base = t.base
		}
	}
	return r
}

// recordView records r, made from t by the view op named name, whose
// backward grad maps r's gradient to t's.
func recordView(name string, t, r *Tensor, grad func(g *Tensor) *Tensor) *Tensor {
	record(name, []*Tensor{t}, []*Tensor{r}, func(_ *node, gs []*Tensor) []*Tensor { return []*Tensor{grad(gs[0])} })
	return r
}

// reshaped records r, t with another shape, for backward: its gradient is
// the view's, shaped back.
func reshaped(name string, t, r *Tensor) *Tensor {
	if !recording(t) {
		return r
	}
	sh := t.Shape()
	return recordView(name, t, r, func(g *Tensor) *Tensor { return g.Reshape(sh...) })
}

// narrowed records r, a part of t that view picks out of any tensor of
// t's shape, for backward: its gradient goes into those elements of a
// zero gradient of t's shape.
func narrowed(name string, t, r *Tensor, view func(*Tensor) *Tensor) *Tensor {
	if !recording(t) {
		return r
	}
	sh := t.Shape()
	return recordView(name, t, r, func(g *Tensor) *Tensor { return scatterView(g, sh, view) })
}

// scatterView returns a zero tensor of shape sh with g written into the
// elements view picks: a narrowing view's backward. Its own backward is
// the view again.
func scatterView(g *Tensor, sh []int, view func(*Tensor) *Tensor) *Tensor {
	z := fullOn(g, Scalar(0), g.DType(), sh)
	view(z).CopyFrom(g.Detach())
	if recording(g) {
		record("ViewScatterBackward", []*Tensor{g}, []*Tensor{z}, func(_ *node, gs []*Tensor) []*Tensor {
			return []*Tensor{view(gs[0])}
		})
	}
	return z
}

// viewsOf wraps views of t (see viewOf).
func (t *Tensor) viewsOf(vs []*raw.View, err error) []*Tensor {
	must(err)
	out := make([]*Tensor, len(vs))
	for i, v := range vs {
		out[i] = t.viewOf(v, nil)
	}
	return out
}

// View returns a view of t with a new shape (one size may be -1, inferred).
// It panics with a view error when the shape cannot be expressed over t's
// strides (use [Tensor.Reshape]), a shape error when the element count differs.
func (t *Tensor) View(shape ...int) *Tensor {
	return reshaped("ViewBackward0", t, t.viewOf(op.View(t.in("view"), shape)))
}

// Reshape returns a view of t with a new shape where one exists, else a
// contiguous copy.
func (t *Tensor) Reshape(shape ...int) *Tensor {
	return reshaped("ReshapeAliasBackward0", t, t.viewOf(op.Reshape(t.in("reshape"), shape)))
}

// Flatten merges dims start..end (a view where possible); a 0-dim tensor gives shape [1].
func (t *Tensor) Flatten(start, end int) *Tensor {
	return reshaped("ViewBackward0", t, t.viewOf(op.Flatten(t.in("flatten"), start, end)))
}

// Unflatten splits dim into sizes (one may be -1), as a view.
func (t *Tensor) Unflatten(dim int, sizes ...int) *Tensor {
	return reshaped("ViewBackward0", t, t.viewOf(op.Unflatten(t.in("unflatten"), dim, sizes)))
}

// Permute returns a view with dims reordered: result dim i is t's dim dims[i].
func (t *Tensor) Permute(dims ...int) *Tensor {
	r := t.viewOf(op.Permute(t.in("permute"), dims))
	if !recording(t) {
		return r
	}
	inverse := make([]int, len(dims))
	for i, d := range dims {
		if d < 0 {
			d += len(dims)
		}
		inverse[d] = i
	}
	return recordView("PermuteBackward0", t, r, func(g *Tensor) *Tensor { return g.Permute(inverse...) })
}

// Transpose returns a view with dims d0 and d1 swapped.
func (t *Tensor) Transpose(d0, d1 int) *Tensor {
	r := t.viewOf(op.Transpose(t.in("transpose"), d0, d1))
	if !recording(t) {
		return r
	}
	return recordView("TransposeBackward0", t, r, func(g *Tensor) *Tensor { return g.Transpose(d0, d1) })
}

// T returns the transpose of a tensor of at most 2 dims (more: a shape error).
func (t *Tensor) T() *Tensor {
	r := t.viewOf(op.T(t.in("t")))
	if !recording(t) {
		return r
	}
	return recordView("TBackward0", t, r, func(g *Tensor) *Tensor { return g.T() })
}

// Expand returns a view broadcast to shape (-1 keeps a size; new leading
// dims allowed), with stride 0 on expanded dims.
func (t *Tensor) Expand(shape ...int) *Tensor {
	r := t.viewOf(op.Expand(t.in("expand"), shape))
	if !recording(t) {
		return r
	}
	// the engine sums the gradient back to t's shape (sumTo)
	return recordView("ExpandBackward0", t, r, func(g *Tensor) *Tensor { return g })
}

// ExpandAs expands t to other's shape.
func (t *Tensor) ExpandAs(other *Tensor) *Tensor {
	t.in("expand_as")
	return t.Expand(other.in("expand_as").Shape...)
}

// Narrow returns the view of elements start..start+length-1 along dim.
func (t *Tensor) Narrow(dim, start, length int) *Tensor {
	return narrowed("NarrowBackward0", t, t.viewOf(op.Narrow(t.in("narrow"), dim, start, length)),
		func(z *Tensor) *Tensor { return z.Narrow(dim, start, length) })
}

// Select returns the view at index along dim, without that dim.
func (t *Tensor) Select(dim, index int) *Tensor {
	return narrowed("SelectBackward0", t, t.viewOf(op.Select(t.in("select"), dim, index)),
		func(z *Tensor) *Tensor { return z.Select(dim, index) })
}

// Slice returns Python's t[..., start:end:step, ...] on dim as a view;
// negative bounds count from the end and bounds clamp to the size.
func (t *Tensor) Slice(dim, start, end, step int) *Tensor {
	return narrowed("SliceBackward0", t, t.viewOf(op.Slice(t.in("slice"), dim, &start, &end, step)),
		func(z *Tensor) *Tensor { return z.Slice(dim, start, end, step) })
}

// SliceFrom returns t[..., start::step, ...] on dim.
func (t *Tensor) SliceFrom(dim, start, step int) *Tensor {
	return narrowed("SliceBackward0", t, t.viewOf(op.Slice(t.in("slice"), dim, &start, nil, step)),
		func(z *Tensor) *Tensor { return z.SliceFrom(dim, start, step) })
}

// Squeeze returns a view without size-1 dims, or, given dims, without
// those of them whose size is 1 (PyTorch 2.0's squeeze(dims): the others
// stay). A dim out of range is an index error, a dim given twice a value
// error.
func (t *Tensor) Squeeze(dims ...int) *Tensor {
	node := "SqueezeBackward0" // PyTorch's names: squeeze(), squeeze(dim), squeeze(dims)
	switch {
	case len(dims) == 1:
		node = "SqueezeBackward1"
	case len(dims) > 1:
		node = "SqueezeBackward2"
	}
	return reshaped(node, t, t.viewOf(op.Squeeze(t.in("squeeze"), dims...)))
}

// Unsqueeze returns a view with a size-1 dim inserted at dim.
func (t *Tensor) Unsqueeze(dim int) *Tensor {
	return reshaped("UnsqueezeBackward0", t, t.viewOf(op.Unsqueeze(t.in("unsqueeze"), dim)))
}

// Movedim returns a view with dims src moved to positions dst.
func (t *Tensor) Movedim(src, dst []int) *Tensor {
	r := t.viewOf(op.Movedim(t.in("movedim"), src, dst))
	if !recording(t) {
		return r
	}
	src, dst = slices.Clone(src), slices.Clone(dst)
	return recordView("MovedimBackward0", t, r, func(g *Tensor) *Tensor { return g.Movedim(dst, src) })
}

// AsStrided returns a view of t's storage with this layout, at t's own
// storage offset (see [Tensor.AsStridedAt]).
func (t *Tensor) AsStrided(sizes, strides []int) *Tensor {
	return asStrided(t, t.viewOf(op.AsStrided(t.in("as_strided"), sizes, strides, nil)))
}

// AsStridedAt returns a view of t's storage with this layout and storage offset.
func (t *Tensor) AsStridedAt(sizes, strides []int, offset int) *Tensor {
	return asStrided(t, t.viewOf(op.AsStrided(t.in("as_strided"), sizes, strides, &offset)))
}

// Split cuts dim into views of size elements (the last may be smaller).
func (t *Tensor) Split(size, dim int) []*Tensor {
	return t.parts(dim, t.viewsOf(op.Split(t.in("split"), size, dim)))
}

// SplitSizes cuts dim into views of the listed sizes, which must sum to its size.
func (t *Tensor) SplitSizes(sizes []int, dim int) []*Tensor {
	return t.parts(dim, t.viewsOf(op.SplitSizes(t.in("split_with_sizes"), sizes, dim)))
}

// Chunk cuts dim into at most chunks views of equal size.
func (t *Tensor) Chunk(chunks, dim int) []*Tensor {
	return t.parts(dim, t.viewsOf(op.Chunk(t.in("chunk"), chunks, dim)))
}

// asStrided records r, an as_strided view of t's storage, for backward:
// its gradient goes into the storage positions it reads, which t's
// layout maps back to t's elements. Where r's elements may share
// positions, or t's, the gradient takes the counting path of PyTorch's
// as_strided_backward (asStridedSharedGrad).
func asStrided(t, r *Tensor) *Tensor {
	if !recording(t) {
		return r
	}
	tv, rv := t.v.Clone(), r.v.Clone()
	return recordView("AsStridedBackward0", t, r, func(g *Tensor) *Tensor {
		if rv.NumEl() == 0 { // nothing read: zeros, whatever t's layout
			return fullOn(g, Scalar(0), g.DType(), tv.Shape)
		}
		lo, hi := extent(tv)
		rlo, rhi := extent(rv)
		lo, hi = min(lo, rlo), max(hi, rhi)
		if mayOverlap(rv) || mayOverlap(tv) {
			return asStridedSharedGrad(g, tv, rv, lo, hi)
		}
		flat := fullOn(g, Scalar(0), g.DType(), []int{hi - lo})
		at := func(z *Tensor, v *raw.View) *Tensor { return z.AsStridedAt(v.Shape, v.Strides, v.Offset-lo) }
		return at(scatterView(g, flat.v.Shape, func(z *Tensor) *Tensor { return at(z, rv) }), tv)
	})
}

// asStridedSharedGrad is as_strided's gradient where r's elements (rv)
// or t's (tv) may share storage positions in [lo, hi), as PyTorch's
// as_strided_backward computes it: r's gradient added up per position
// (index_add), then each of t's elements reads its position's sum divided
// by the number of t's elements at that position (the counting), so that
// t's elements sharing a position share its gradient. Positions t does
// not cover lose theirs. Made of differentiable ops, so it has its own
// gradient.
func asStridedSharedGrad(g *Tensor, tv, rv *raw.View, lo, hi int) *Tensor {
	// the positions 0 … hi-lo-1, read through v's layout
	all := onDeviceOf(g, Arange(0, float64(hi-lo), 1, Int64))
	positions := func(v *raw.View) *Tensor { return all.AsStridedAt(v.Shape, v.Strides, v.Offset-lo).Reshape(-1) }
	rp, tp := positions(rv), positions(tv)
	flat := IndexAdd(fullOn(g, Scalar(0), g.DType(), []int{hi - lo}), 0, rp, g.Reshape(-1))
	vals := flat.IndexSelect(0, tp)
	if mayOverlap(tv) {
		count := IndexAdd(fullOn(g, Scalar(0), g.DType(), []int{hi - lo}), 0, tp, fullOn(g, Scalar(1), g.DType(), tp.Shape()))
		vals = vals.Div(count.IndexSelect(0, tp))
	}
	return vals.Reshape(tv.Shape...)
}

// extent returns the storage positions [lo, hi) v's elements span.
func extent(v *raw.View) (lo, hi int) {
	lo, hi = v.Offset, v.Offset+1
	for d, n := range v.Shape {
		if n == 0 {
			return v.Offset, v.Offset
		}
		if s := v.Strides[d]; s < 0 {
			lo += (n - 1) * s
		} else {
			hi += (n - 1) * s
		}
	}
	return lo, hi
}

// mayOverlap reports whether two elements of v may share a storage
// position: taken by increasing stride, each dim must step past all that
// the dims before it span.
func mayOverlap(v *raw.View) bool {
	type dim struct{ size, stride int }
	var ds []dim
	for d, n := range v.Shape {
		if n > 1 {
			ds = append(ds, dim{n, max(v.Strides[d], -v.Strides[d])})
		}
	}
	slices.SortFunc(ds, func(a, b dim) int { return a.stride - b.stride })
	span := 0
	for _, d := range ds {
		if d.stride <= span {
			return true
		}
		span += (d.size - 1) * d.stride
	}
	return false
}

// parts records the views ps of t along dim (split, chunk) for backward
// as one node, as PyTorch's SplitBackward0: its gradient is the parts'
// gradients concatenated, zeros for a part that got none. (A node per
// part, each scattering into a zero gradient of t's shape, would cost
// the number of parts times t's size: Note [Unbinding nested tensors] in
// package nested splits a buffer into many parts.)
func (t *Tensor) parts(dim int, ps []*Tensor) []*Tensor {
	if !recording(t) || len(ps) == 0 {
		return ps
	}
	d := wrapDim(dim, t.Dim())
	sizes := make([][]int, len(ps))
	for i, p := range ps {
		sizes[i] = p.Shape()
	}
	record("SplitBackward0", []*Tensor{t}, ps, func(_ *node, gs []*Tensor) []*Tensor {
		var like *Tensor
		for _, g := range gs {
			if g != nil {
				like = g
				break
			}
		}
		if like == nil {
			return []*Tensor{nil}
		}
		full := make([]*Tensor, len(gs))
		for i, g := range gs {
			if g == nil {
				g = fullOn(like, Scalar(0), like.DType(), sizes[i])
			}
			full[i] = g
		}
		return []*Tensor{Cat(full, d)}
	})
	return ps
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
func Cat(ts []*Tensor, dim int) *Tensor {
	r := newResult(op.Cat(raws("cat", ts), dim, nil))
	if !recording(ts...) {
		return r
	}
	d := wrapDim(dim, r.Dim())
	offsets := make([]int, len(ts))
	sizes := make([][]int, len(ts))
	off := 0
	for i, t := range ts {
		sizes[i] = t.Shape()
		offsets[i] = off
		if t.Dim() == r.Dim() {
			off += t.v.Shape[d]
		}
	}
	record("CatBackward0", ts, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
		out := make([]*Tensor, len(ts))
		for i, sh := range sizes {
			switch {
			case !n.needs(i):
			case len(sh) != r.Dim(): // a legacy empty [0] input, skipped by cat
				out[i] = fullOn(gs[0], Scalar(0), gs[0].DType(), sh)
			default:
				out[i] = gs[0].Narrow(d, offsets[i], sh[d])
			}
		}
		return out
	})
	return r
}

// CatTo concatenates tensors along dim into dst and returns dst.
func CatTo(dst *Tensor, ts []*Tensor, dim int) *Tensor {
	vs, out := raws("cat", ts), dst.in("cat")
	checkOut("cat", dst, ts...)
	_, err := op.Cat(vs, dim, out)
	must(err)
	written(dst)
	return dst
}

// Stack stacks equally shaped tensors along a new dim.
func Stack(ts []*Tensor, dim int) *Tensor {
	r := newResult(op.Stack(raws("stack", ts), dim))
	if !recording(ts...) {
		return r
	}
	d := wrapDim(dim, r.Dim())
	record("StackBackward0", ts, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
		out := make([]*Tensor, len(ts))
		for i := range ts {
			if n.needs(i) {
				out[i] = gs[0].Select(d, i)
			}
		}
		return out
	})
	return r
}

// wrapDim wraps a dim already checked against ndim dims.
func wrapDim(dim, ndim int) int {
	if dim < 0 {
		return dim + ndim
	}
	return dim
}

// newResult wraps the new tensor an op made.
func newResult(v *raw.View, err error) *Tensor {
	must(err)
	return wrap(v)
}
