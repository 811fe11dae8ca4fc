package nested

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/tensor"
)

// PaddedShape returns the shape of x's padded form: [n, the largest size of
// each component dim...].
func (t *Tensor) PaddedShape() []int {
	sh := make([]int, t.ndim+1)
	sh[0] = t.Len()
	for i := range t.offsets {
		for d, s := range t.Shape(i) {
			sh[d+1] = max(sh[d+1], s)
		}
	}
	return sh
}

// ToPadded returns the dense tensor [n, max sizes...] (or outputSize, when
// given, which must be at least that in every dim: else a shape error)
// filled with padding (a [tensor.Scalar]) and holding component i in the
// leading corner of slice i (torch.nested.to_padded_tensor). outputSize[0]
// must be the number of components. A padding the dtype cannot hold is a
// value error only where some element is padding.
func ToPadded(x *Tensor, padding *tensor.Tensor, outputSize []int) *tensor.Tensor {
	const name = "to_padded_tensor"
	sh := x.PaddedShape()
	if outputSize != nil {
		if len(outputSize) != len(sh) {
			panic(errs.New(errs.Value, name, "Length of output_size does not match NestedTensor dims. Broadcasting is not supported."))
		}
		if outputSize[0] != sh[0] {
			panic(errs.New(errs.Shape, name, "output_size[0] is %d, but the nested tensor has %d components", outputSize[0], sh[0]))
		}
		for d := range sh {
			if outputSize[d] < sh[d] {
				panic(errs.New(errs.Shape, name, "Value in output_size is less than NestedTensor padded size. Truncation is not supported."))
			}
		}
		sh = outputSize
	}
	if !x.padsAny(sh) {
		// nothing to pad: the padding is never converted to the dtype,
		// as PyTorch's constant_pad_nd clones without padding (-inf pads
		// int8 components of one shape)
		padding = tensor.Scalar(0)
	}
	if r := paddedRows(x, padding, sh); r != nil {
		return r
	}
	if x.RequiresGrad() && tensor.IsGradEnabled() {
		return paddedStack(x, padding, sh)
	}
	out := on(x.values, tensor.Full(padding, x.DType(), sh...))
	cs := x.Unbind()
	for i := range x.offsets {
		dst := out.Select(0, i)
		for d, s := range x.Shape(i) {
			dst = dst.Narrow(d, 0, s)
		}
		dst.CopyFrom(cs[i])
	}
	return out
}

// padsAny reports whether padding x to the padded shape sh leaves an
// element that no component fills.
func (t *Tensor) padsAny(sh []int) bool {
	for i := range t.offsets {
		for d, s := range t.Shape(i) {
			if s != sh[1+d] {
				return true
			}
		}
	}
	return false
}

// paddedRows is [ToPadded] when only the first dim of the components is
// ragged (their other sizes are sh[2:]), in one pass (Note [Padding by
// rows]); nil when the components are not of that kind.
func paddedRows(x *Tensor, padding *tensor.Tensor, sh []int) *tensor.Tensor {
	if x.ndim < 1 || x.Len() == 0 {
		return nil
	}
	short := 0 // the most rows of padding a component needs
	for i := range x.offsets {
		s := x.sizes[i*x.ndim : (i+1)*x.ndim]
		for d := 1; d < x.ndim; d++ {
			if int(s[d]) != sh[d+1] {
				return nil
			}
		}
		short = max(short, sh[1]-int(s[0]))
	}
	if buf, offs, ok := x.segmentRows(); ok {
		return tensor.SegmentPad(buf, offs, sh[1], padding)
	}
	var blk *tensor.Tensor
	if short > 0 {
		bs := slices.Clone(sh[1:])
		bs[0] = short
		blk = on(x.values, tensor.Full(padding, x.DType(), bs...))
	}
	cs := x.Unbind()
	parts := make([]*tensor.Tensor, 0, 2*len(cs))
	for _, c := range cs {
		parts = append(parts, c)
		if n := c.Size(0); n < sh[1] {
			parts = append(parts, blk.Narrow(0, 0, sh[1]-n))
		}
	}
	return tensor.Cat(parts, 0).View(sh...)
}

// Note [Padding by rows]
//
// When only the first dim is ragged, slice i of the padded tensor is
// component i followed by rows of padding, and the slices follow one
// another. For a packed tensor that is a segment padding of the buffer
// (tensor.SegmentPad): one pass, parallel over the components, writing
// each element of the output once into memory taken uninitialised. Other
// layouts (a transposed view) concatenate components and blocks of
// padding with one cat, which also writes each element once; the blocks
// are views of one block of the largest needed size, small enough to stay
// in cache while it is copied from. Under autograd either backward reads
// each component's rows of the padded gradient.

// paddedStack is [ToPadded] for autograd: each component padded by
// concatenating blocks of padding, then stacked, so that the backward is
// views of the padded gradient (Note [Padding under autograd]).
func paddedStack(x *Tensor, padding *tensor.Tensor, sh []int) *tensor.Tensor {
	cs := x.Unbind()
	for i, c := range cs {
		for d, want := range sh[1:] {
			if n := c.Size(d); n < want {
				blk := c.Shape()
				blk[d] = want - n
				c = tensor.Cat([]*tensor.Tensor{c, on(x.values, tensor.Full(padding, x.DType(), blk...))}, d)
			}
		}
		cs[i] = c
	}
	if len(cs) == 0 {
		return on(x.values, tensor.Full(padding, x.DType(), sh...))
	}
	return tensor.Stack(cs, 0)
}

// Note [Padding under autograd]
//
// When more than the first dim is ragged (Note [Padding by rows] has the
// other case), ToPadded without autograd fills the padded tensor and
// copies each component into its corner. Under autograd
// those copies are in-place writes into views, each recorded as a
// CopySlices node whose backward handles the whole padded gradient, which
// costs n times the padded size. Padding each component by concatenation
// and stacking records views instead: the backward reads each component's
// corner of the gradient once.

// FromPadded returns the nested tensor whose component i is
// padded[i][:sizes[i][0], :sizes[i][1], ...], copied into one buffer: the
// inverse of [ToPadded]. sizes is an [n, ndim] tensor of integers or bools
// (n padded's first size, ndim one less than padded's). Sizes over the
// padded ones are a shape error, checked component by component before the
// dtype: float sizes are a dtype error. A negative size -k keeps all but
// the last k, as Python's slice [:-k] does (none when k is larger).
func FromPadded(padded, sizes *tensor.Tensor) *Tensor {
	const name = "from_padded"
	if sizes.Dim() != 2 {
		panic(errs.New(errs.Value, name, "sizes must be an [n, ndim] tensor, got shape %v", sizes.Shape()))
	}
	n, nd := sizes.Size(0), sizes.Size(1)
	if padded.Dim() != nd+1 || n != padded.Size(0) {
		panic(errs.New(errs.Shape, name, "padded tensor does not match sizes: sizes %v, padded shape %v", sizes.Shape(), padded.Shape()))
	}
	// read as float64 first, so that a float size too large is reported
	// as one, as the slicing of the format's definition does
	sz := sizes.To(tensor.Float64).Float64s()
	for i := range n {
		row := sz[i*nd : (i+1)*nd]
		for d, s := range row {
			if s > float64(padded.Size(d+1)) {
				panic(errs.New(errs.Shape, name, "component %d size %v exceeds padded size", i, row))
			}
		}
	}
	if !sizes.DType().IsIntOrBool() {
		panic(errs.New(errs.DType, name, "sizes must be integers, got %v", sizes.DType()))
	}
	cs := make([]*tensor.Tensor, n)
	for i := range cs {
		c := padded.Select(0, i)
		for d, s := range sz[i*nd : (i+1)*nd] {
			n := int(s)
			if n < 0 { // Python's [:n]: all but the last -n, or none
				n = max(0, padded.Size(d+1)+n)
			}
			c = c.Narrow(d, 0, n)
		}
		cs[i] = c
	}
	return packOn(padded, cs, padded.DType())
}

// ToPaddedWithMask returns [ToPadded] of x and a bool mask of the padded
// shape, true at the elements that are a component's and false at the
// padding: the padded+mask form that dense attention and losses take.
// When only the first dim is ragged the mask is a view: [n, rows]
// (row < component's length) expanded over the other dims without a copy
// (its stride-0 dims make it read-only; Contiguous gives a writable one).
func ToPaddedWithMask(x *Tensor, padding *tensor.Tensor, outputSize []int) (padded, mask *tensor.Tensor) {
	padded = ToPadded(x, padding, outputSize)
	sh := padded.Shape()
	if lens, ok := x.rowLengths(sh); ok {
		n, rows := sh[0], sh[1]
		pos := on(x.values, tensor.Arange(0, float64(rows), 1, tensor.Int64)).View(1, rows)
		m := pos.Lt(on(x.values, tensor.FromSlice(lens, n, 1)))
		view := make([]int, len(sh))
		for d := range view {
			view[d] = 1
		}
		view[0], view[1] = n, rows
		return padded, m.View(view...).Expand(sh...)
	}
	return padded, ToPadded(To(Unary(tensor.OnesLike, x), tensor.Bool), tensor.Scalar(false), sh)
}

// rowLengths returns the components' sizes in their first dim when that
// is the only dim in which they differ from the padded shape sh.
func (t *Tensor) rowLengths(sh []int) ([]int64, bool) {
	if t.ndim < 1 {
		return nil, false
	}
	lens := make([]int64, t.Len())
	for i := range lens {
		s := t.sizes[i*t.ndim : (i+1)*t.ndim]
		for d := 1; d < t.ndim; d++ {
			if int(s[d]) != sh[d+1] {
				return nil, false
			}
		}
		lens[i] = s[0]
	}
	return lens, true
}

// CuSeqlens returns the cumulative lengths of the components' first dim,
// [0, l0, l0+l1, ...], an int64 or int32 (dt) tensor of n+1 elements: the
// row offsets of the components in the packed buffer seen as [rows,
// trailing...] (varlen attention kernels' cu_seqlens). Components of no
// dims, or another dt, are a value error.
func (t *Tensor) CuSeqlens(dt tensor.DType) *tensor.Tensor {
	if t.ndim < 1 || (dt != tensor.Int64 && dt != tensor.Int32) {
		panic(errs.New(errs.Value, "cu_seqlens", "cu_seqlens takes components of at least one dim and an int32 or int64 dtype, got %d dims and %v", t.ndim, dt))
	}
	cu := make([]int64, t.Len()+1)
	for i := range t.Len() {
		cu[i+1] = cu[i] + t.sizes[i*t.ndim]
	}
	return tensor.FromSlice(cu, len(cu)).To(dt)
}

// FromCuSeqlens returns the nested tensor whose component i is rows
// cuSeqlens[i] up to cuSeqlens[i+1] of values (a contiguous [rows,
// trailing...] tensor), without a copy: the inverse of packing with
// [Tensor.CuSeqlens]. cuSeqlens is int32 or int64, starts at 0, never
// decreases and ends at values' rows; else a value error.
func FromCuSeqlens(values, cuSeqlens *tensor.Tensor) *Tensor {
	const name = "from_cu_seqlens"
	if values.Dim() < 1 || !values.IsContiguous() || cuSeqlens.Dim() != 1 || cuSeqlens.NumEl() < 1 ||
		(cuSeqlens.DType() != tensor.Int64 && cuSeqlens.DType() != tensor.Int32) {
		panic(errs.New(errs.Value, name, "from_cu_seqlens takes a contiguous tensor of at least one dim and a 1-D int32 or int64 tensor, got %v and %v %v", values.Shape(), cuSeqlens.DType(), cuSeqlens.Shape()))
	}
	cu := cuSeqlens.To(tensor.Int64).Int64s()
	sh := values.Shape()
	if cu[0] != 0 || cu[len(cu)-1] != int64(sh[0]) {
		panic(errs.New(errs.Value, name, "cu_seqlens must run from 0 to the %d rows, got %v", sh[0], cu))
	}
	inner := 1
	for _, s := range sh[1:] {
		inner *= s
	}
	sizes, offsets := make([][]int, len(cu)-1), make([]int, len(cu)-1)
	for i := range sizes {
		if cu[i+1] < cu[i] {
			panic(errs.New(errs.Value, name, "cu_seqlens must not decrease, got %d after %d", cu[i+1], cu[i]))
		}
		sizes[i] = append([]int{int(cu[i+1] - cu[i])}, sh[1:]...)
		offsets[i] = int(cu[i]) * inner
	}
	return Wrap(values.Reshape(values.NumEl()), sizes, offsets)
}
