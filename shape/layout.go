package shape

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goten-ml/goten/errs"
)

// Layout is a strided layout: element idx of the tensor lives at element
// Offset + Σ idx[k]·Strides[k] of its storage. Sizes and Strides have one
// entry per dim; strides are in elements and may be 0 (expanded). Every
// function of this package that takes a Layout returns new slices and never
// aliases or modifies its argument's.
type Layout struct {
	Sizes, Strides []int
	Offset         int
}

// Dense returns the contiguous row-major layout of sizes at offset 0.
func Dense(sizes []int) Layout {
	return Layout{Sizes: dup(sizes), Strides: Contiguous(sizes)}
}

// Dim returns the number of dims.
func (l Layout) Dim() int { return len(l.Sizes) }

// NumEl returns the number of elements.
func (l Layout) NumEl() int { return NumEl(l.Sizes) }

// IsContiguous reports whether l is row-major contiguous (see [IsContiguous]).
func (l Layout) IsContiguous() bool { return IsContiguous(l.Sizes, l.Strides) }

// Clone returns a copy of l that shares no slices with it.
func (l Layout) Clone() Layout {
	return Layout{Sizes: dup(l.Sizes), Strides: dup(l.Strides), Offset: l.Offset}
}

// String formats l as "sizes [2, 3] strides [3, 1] offset 0".
func (l Layout) String() string {
	return fmt.Sprintf("sizes %s strides %s offset %d", Format(l.Sizes), Format(l.Strides), l.Offset)
}

// Format writes sizes the way PyTorch prints them in messages: "[2, 3]".
func Format(sizes []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range sizes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, s)
	}
	b.WriteByte(']')
	return b.String()
}

// InferSize returns sizes with its one -1 replaced by the size that makes
// the element count numel (PyTorch's infer_size). It fails with a value
// error for two -1s, for a size below -1, and for a -1 among sizes whose
// product is 0 (the -1 is ambiguous); with a shape error when the count
// cannot be numel.
func InferSize(sizes []int, numel int) ([]int, error) {
	return inferSize("view", sizes, numel)
}

func inferSize(op string, sizes []int, numel int) ([]int, error) {
	out := dup(sizes)
	infer := -1
	prod := 1
	overflow := false // of the product of the sizes, -1 left out (Note [Checked sizes])
	for i, s := range sizes {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, errs.New(errs.Value, op, "only one dimension can be inferred")
			}
			infer = i
		case s >= 0:
			var ok bool
			prod, ok = MulOK(prod, s)
			overflow = overflow || !ok
		default:
			return nil, errs.New(errs.Value, op, "invalid shape dimension %d", s)
		}
	}
	if overflow {
		if slices.Contains(sizes, 0) {
			prod = 0
		} else {
			return nil, errs.New(errs.Shape, op, "shape '%s' is invalid for input of size %d", Format(sizes), numel)
		}
	}
	if numel == prod || (infer >= 0 && prod > 0 && numel%prod == 0) {
		if infer >= 0 {
			if prod == 0 {
				return nil, errs.New(errs.Value, op, "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", Format(sizes))
			}
			out[infer] = numel / prod
		}
		if numel == 0 {
			// the view of no elements gets contiguous strides: they must fit
			if _, err := CheckSizes(op, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, errs.New(errs.Shape, op, "shape '%s' is invalid for input of size %d", Format(sizes), numel)
}

// Note [Computing view strides]
//
// A view reinterprets a layout with new sizes without moving any element,
// so it exists only when every dim of the new shape can be given a stride.
// Split the old dims into chunks of dims that are contiguous with respect
// to each other (stride[d] == size[d+1]·stride[d+1], size-1 dims ignored):
// within a chunk the elements form one arithmetic progression, so the new
// dims that cover exactly the chunk's element count take strides that are
// multiples of the chunk's innermost stride. A new dim that would straddle
// two chunks has no stride: the view does not exist. This is PyTorch's
// computeStride (aten/src/ATen/TensorUtils.cpp), including its rules for
// the corner cases: a 0-dim input gives strides of 1, and an input without
// elements keeps its strides when the sizes do not change and gets
// contiguous strides otherwise.

// viewStrides returns the strides of the view of (sizes, strides) with
// newSizes (which has the same element count), or false when there is none.
// See Note [Computing view strides].
func viewStrides(sizes, strides, newSizes []int) ([]int, bool) {
	if len(sizes) == 0 {
		out := make([]int, len(newSizes))
		for i := range out {
			out[i] = 1
		}
		return out, true
	}
	numel := NumEl(sizes)
	if numel == 0 {
		if Equal(sizes, newSizes) {
			return dup(strides), true
		}
		return Contiguous(newSizes), true
	}
	out := make([]int, len(newSizes))
	vd := len(newSizes) - 1
	base := strides[len(strides)-1] // stride of the innermost dim of the chunk
	chunkNumel, viewNumel := 1, 1
	for d := len(sizes) - 1; d >= 0; d-- {
		chunkNumel *= sizes[d]
		if d > 0 && (sizes[d-1] == 1 || strides[d-1] == chunkNumel*base) {
			continue // dim d-1 continues the chunk
		}
		for vd >= 0 && (viewNumel < chunkNumel || newSizes[vd] == 1) {
			out[vd] = viewNumel * base
			viewNumel *= newSizes[vd]
			vd--
		}
		if viewNumel != chunkNumel {
			return nil, false
		}
		if d > 0 {
			base = strides[d-1]
			chunkNumel, viewNumel = 1, 1
		}
	}
	if vd != -1 {
		return nil, false
	}
	return out, true
}

// View returns the layout of l viewed with sizes (one of which may be -1,
// inferred from the element count) at l's offset. It fails with a value or
// shape error as [InferSize] does, and with a view error when no strides
// express the new shape over l's layout; see Note [Computing view strides].
func View(l Layout, sizes []int) (Layout, error) {
	newSizes, err := inferSize("view", sizes, l.NumEl())
	if err != nil {
		return Layout{}, err
	}
	st, ok := viewStrides(l.Sizes, l.Strides, newSizes)
	if !ok {
		return Layout{}, errs.New(errs.View, "view", "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
	}
	return Layout{Sizes: newSizes, Strides: st, Offset: l.Offset}, nil
}

// Reshape returns the layout of l reshaped to sizes (one may be -1). When a
// view exists it returns the view's layout and needCopy false; otherwise it
// returns needCopy true and the contiguous layout (offset 0) of the copy
// that the caller must make. It fails as [InferSize] does.
func Reshape(l Layout, sizes []int) (out Layout, needCopy bool, err error) {
	return reshape("reshape", l, sizes)
}

func reshape(op string, l Layout, sizes []int) (Layout, bool, error) {
	newSizes, err := inferSize(op, sizes, l.NumEl())
	if err != nil {
		return Layout{}, false, err
	}
	if st, ok := viewStrides(l.Sizes, l.Strides, newSizes); ok {
		return Layout{Sizes: newSizes, Strides: st, Offset: l.Offset}, false, nil
	}
	return Layout{Sizes: newSizes, Strides: Contiguous(newSizes)}, true, nil
}

// DenseLike returns the strides of a new dense tensor of sizes that keeps
// the memory order of strides (PyTorch's empty_like with preserve_format,
// which clone uses): strides themselves when they are non-overlapping and
// dense, else dense strides whose dims are ordered as strides order them
// (dims with stride 0 keep their place; equal strides put the smaller size
// innermost).
func DenseLike(sizes, strides []int) []int {
	if IsNonOverlappingAndDense(sizes, strides) {
		return dup(strides)
	}
	n := len(sizes)
	if n == 0 {
		return []int{}
	}
	if n == 1 {
		return []int{1}
	}
	// perm[0] is the innermost dim; start from row-major order.
	perm := make([]int, n)
	for i := range perm {
		perm[i] = n - 1 - i
	}
	// cmp > 0 when dim a goes outside dim b, < 0 inside, 0 when ambiguous
	// (stride 0), as TensorIterator orders its dims.
	cmp := func(a, b int) int {
		sa, sb := strides[a], strides[b]
		switch {
		case sa == 0 || sb == 0:
			return 0
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		case sizes[a] > sizes[b]:
			return 1
		}
		return 0
	}
	for i := 1; i < n; i++ {
		d1 := i
		for j := 1; j <= i; j++ {
			d0 := i - j
			c := cmp(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	out := make([]int, n)
	acc := 1
	for _, d := range perm {
		out[d] = acc
		if sizes[d] > 1 {
			acc *= sizes[d]
		}
	}
	return out
}

// dup returns a copy of s (never nil).
func dup(s []int) []int {
	return append(make([]int, 0, len(s)), s...)
}

// wrapDim is [WrapDim] with the op's name in the error.
func wrapDim(op string, dim, ndim int) (int, error) {
	d, err := WrapDim(dim, ndim)
	if err != nil {
		return 0, withOp(op, err)
	}
	return d, nil
}

func withOp(op string, err error) error { return errs.WithOp(err, op) }
