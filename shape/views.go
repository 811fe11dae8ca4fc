package shape

import (
	"slices"

	"github.com/goten-ml/goten/errs"
)

// The view ops below compute the layout of a view of l: the result shares
// l's storage, so only sizes, strides and the offset change. Dims may be
// negative (counting from the end) and are wrapped by [WrapDim]; a dim out
// of range is an index error.

// Permute returns l with its dims reordered: dim i of the result is dim
// dims[i] of l. dims must name every dim of l once: a wrong length or a
// repeated dim is a value error, a dim out of range an index error.
func Permute(l Layout, dims []int) (Layout, error) {
	n := l.Dim()
	if len(dims) != n {
		return Layout{}, errs.New(errs.Value, "permute", "number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", n, len(dims))
	}
	seen := make([]bool, n)
	out := Layout{Sizes: make([]int, n), Strides: make([]int, n), Offset: l.Offset}
	for i, d := range dims {
		w, err := wrapDim("permute", d, n)
		if err != nil {
			return Layout{}, err
		}
		if seen[w] {
			return Layout{}, errs.New(errs.Value, "permute", "duplicate dims are not allowed: %s", Format(dims))
		}
		seen[w] = true
		out.Sizes[i], out.Strides[i] = l.Sizes[w], l.Strides[w]
	}
	return out, nil
}

// Transpose returns l with dims d0 and d1 swapped. A 0-dim l accepts 0 and
// -1 and is returned unchanged.
func Transpose(l Layout, d0, d1 int) (Layout, error) {
	n := l.Dim()
	a, err := wrapDim("transpose", d0, n)
	if err != nil {
		return Layout{}, err
	}
	b, err := wrapDim("transpose", d1, n)
	if err != nil {
		return Layout{}, err
	}
	out := l.Clone()
	if a != b {
		out.Sizes[a], out.Sizes[b] = out.Sizes[b], out.Sizes[a]
		out.Strides[a], out.Strides[b] = out.Strides[b], out.Strides[a]
	}
	return out, nil
}

// T returns the transpose of a layout of at most 2 dims (0-dim and 1-dim
// layouts are returned unchanged); more dims are a shape error.
func T(l Layout) (Layout, error) {
	if l.Dim() > 2 {
		return Layout{}, errs.New(errs.Shape, "t", "expects a tensor with <= 2 dimensions, but self is %dD", l.Dim())
	}
	if l.Dim() < 2 {
		return l.Clone(), nil
	}
	return Transpose(l, 0, 1)
}

// Expand returns l broadcast to sizes (PyTorch's expand): sizes has at
// least l's dims, aligned at the end; -1 keeps l's size; a size-1 dim of l
// may take any size and gets stride 0; new leading dims are allowed (stride
// 0 when their size is not 1). Too few sizes or a size of l that is not 1
// and differs from its target is a shape error; -1 for a new leading dim or
// a size below -1 is a value error.
func Expand(l Layout, sizes []int) (Layout, error) {
	n, m := l.Dim(), len(sizes)
	if m < n {
		return Layout{}, errs.New(errs.Shape, "expand", "the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", m, n)
	}
	out := Layout{Sizes: make([]int, m), Strides: make([]int, m), Offset: l.Offset}
	for i := m - 1; i >= 0; i-- {
		d := n - m + i // the dim of l aligned with i, or < 0
		size, stride := 1, 0
		if d >= 0 {
			size, stride = l.Sizes[d], l.Strides[d]
		} else if i+1 < m {
			stride = out.Sizes[i+1] * out.Strides[i+1]
		}
		target := sizes[i]
		if target == -1 {
			if d < 0 {
				return Layout{}, errs.New(errs.Value, "expand", "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)
			}
			target = size
		}
		if target < 0 {
			return Layout{}, errs.New(errs.Value, "expand", "the expanded size %d at dimension %d must be non-negative (or -1). Target sizes: %s", target, i, Format(sizes))
		}
		if size != target {
			if size != 1 {
				return Layout{}, errs.New(errs.Shape, "expand", "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", target, size, i, Format(sizes), Format(l.Sizes))
			}
			size, stride = target, 0
		}
		out.Sizes[i], out.Strides[i] = size, stride
	}
	return out, nil
}

// ExpandAs is [Expand] to another tensor's sizes.
func ExpandAs(l Layout, other []int) (Layout, error) {
	out, err := Expand(l, other)
	if e, ok := err.(*errs.Error); ok {
		c := *e
		c.Op = "expand_as"
		return Layout{}, &c
	}
	return out, err
}

// Narrow returns the elements start..start+length-1 of l along dim. A
// negative start counts from the end. A 0-dim l or a range beyond the size
// is an index error; a negative length a value error.
func Narrow(l Layout, dim, start, length int) (Layout, error) {
	if l.Dim() == 0 {
		return Layout{}, errs.New(errs.Index, "narrow", "narrow() cannot be applied to a 0-dim tensor.")
	}
	if length < 0 {
		return Layout{}, errs.New(errs.Value, "narrow", "length must be non-negative.")
	}
	d, err := wrapDim("narrow", dim, l.Dim())
	if err != nil {
		return Layout{}, err
	}
	size := l.Sizes[d]
	if start != size { // start == size is an empty narrow at the end
		if start, err = WrapDim(start, size); err != nil {
			return Layout{}, withOp("narrow", err)
		}
	}
	if start+length > size {
		return Layout{}, errs.New(errs.Index, "narrow", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size)
	}
	out := l.Clone()
	out.Sizes[d] = length
	out.Offset += start * l.Strides[d]
	return out, nil
}

// Select returns l indexed at index along dim, which is removed. A negative
// index counts from the end. A 0-dim l or an index out of range is an index
// error.
func Select(l Layout, dim, index int) (Layout, error) {
	if l.Dim() == 0 {
		return Layout{}, errs.New(errs.Index, "select", "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim("select", dim, l.Dim())
	if err != nil {
		return Layout{}, err
	}
	size := l.Sizes[d]
	if index < -size || index >= size {
		return Layout{}, errs.New(errs.Index, "select", "index %d out of range for tensor of size %s at dimension %d", index, Format(l.Sizes), d)
	}
	if index < 0 {
		index += size
	}
	return Layout{
		Sizes:   slices.Delete(dup(l.Sizes), d, d+1),
		Strides: slices.Delete(dup(l.Strides), d, d+1),
		Offset:  l.Offset + index*l.Strides[d],
	}, nil
}

// Slice returns l sliced along dim as Python's a[..., start:end:step, ...]
// slices it (ATen's slice.Tensor): nil start and end mean the edges, a
// negative one counts from the end, both clamp to [0, size]. A 0-dim l or
// a dim out of range is an index error, a step below 1 a value error.
func Slice(l Layout, dim int, start, end *int, step int) (Layout, error) {
	if l.Dim() == 0 {
		return Layout{}, errs.New(errs.Index, "slice", "slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim("slice", dim, l.Dim())
	if err != nil {
		return Layout{}, err
	}
	if step <= 0 {
		return Layout{}, errs.New(errs.Value, "slice", "slice step must be positive")
	}
	size := l.Sizes[d]
	lo, hi := 0, size
	if start != nil {
		lo = *start
	}
	if end != nil {
		hi = *end
	}
	if lo < 0 {
		lo += size
	}
	if hi < 0 {
		hi += size
	}
	lo = min(max(lo, 0), size)
	hi = min(max(hi, lo), size)
	out := l.Clone()
	out.Offset += lo * l.Strides[d]
	out.Sizes[d] = (hi - lo + step - 1) / step
	out.Strides[d] *= step
	return out, nil
}

// Squeeze returns l without its size-1 dims when no dims are given, else
// without those of dims whose size is 1 (PyTorch 2.0's squeeze(dims): a
// listed dim of another size stays). A dim out of range is an index error,
// a dim listed twice a value error; a 0-dim l accepts 0 and -1 (once).
func Squeeze(l Layout, dims ...int) (Layout, error) {
	out := Layout{Sizes: []int{}, Strides: []int{}, Offset: l.Offset}
	if len(dims) == 0 {
		for i, s := range l.Sizes {
			if s != 1 {
				out.Sizes = append(out.Sizes, s)
				out.Strides = append(out.Strides, l.Strides[i])
			}
		}
		return out, nil
	}
	seen := make([]bool, max(l.Dim(), 1))
	for _, dim := range dims {
		d, err := wrapDim("squeeze", dim, l.Dim())
		if err != nil {
			return Layout{}, err
		}
		if seen[d] {
			return Layout{}, errs.New(errs.Value, "squeeze", "dim %d appears multiple times in the list of dims", d)
		}
		seen[d] = true
	}
	for i, s := range l.Sizes {
		if !seen[i] || s != 1 {
			out.Sizes = append(out.Sizes, s)
			out.Strides = append(out.Strides, l.Strides[i])
		}
	}
	return out, nil
}

// Unsqueeze returns l with a size-1 dim inserted at dim, in [-ndim-1, ndim]
// (else an index error). Its stride is size·stride of the dim it precedes
// (1 at the end), so a contiguous layout stays contiguous.
func Unsqueeze(l Layout, dim int) (Layout, error) {
	d, err := wrapDim("unsqueeze", dim, l.Dim()+1)
	if err != nil {
		return Layout{}, err
	}
	stride := 1
	if d < l.Dim() {
		stride = l.Sizes[d] * l.Strides[d]
	}
	return Layout{
		Sizes:   slices.Insert(dup(l.Sizes), d, 1),
		Strides: slices.Insert(dup(l.Strides), d, stride),
		Offset:  l.Offset,
	}, nil
}

// Flatten returns l with dims start..end merged into one, as [Reshape]
// does: needCopy reports that no view exists and the result is the layout
// of a contiguous copy. A 0-dim l gives sizes [1]; start == end returns l
// unchanged. Dims out of range are an index error, start after end a value
// error.
func Flatten(l Layout, start, end int) (out Layout, needCopy bool, err error) {
	s, err := wrapDim("flatten", start, l.Dim())
	if err != nil {
		return Layout{}, false, err
	}
	e, err := wrapDim("flatten", end, l.Dim())
	if err != nil {
		return Layout{}, false, err
	}
	if s > e {
		return Layout{}, false, errs.New(errs.Value, "flatten", "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if l.Dim() == 0 {
		return reshape("flatten", l, []int{1})
	}
	if s == e {
		return l.Clone(), false, nil
	}
	sizes := make([]int, 0, l.Dim()-(e-s))
	sizes = append(sizes, l.Sizes[:s]...)
	sizes = append(sizes, NumEl(l.Sizes[s:e+1]))
	sizes = append(sizes, l.Sizes[e+1:]...)
	return reshape("flatten", l, sizes)
}

// Unflatten returns l with dim split into sizes (one of which may be -1).
// Empty sizes or two -1s are a value error, sizes whose product is not the
// dim's size a shape error. The result is always a view.
func Unflatten(l Layout, dim int, sizes []int) (Layout, error) {
	d, err := wrapDim("unflatten", dim, l.Dim())
	if err != nil {
		return Layout{}, err
	}
	if len(sizes) == 0 {
		return Layout{}, errs.New(errs.Value, "unflatten", "sizes must be non-empty")
	}
	if l.Dim() == 0 {
		// a 0-dim tensor wraps dim 0 but has no size to split
		return Layout{}, errs.New(errs.Index, "unflatten", "dimension specified as 0 but tensor has no dimensions")
	}
	inner, err := inferSize("unflatten", sizes, l.Sizes[d])
	if err != nil {
		if e := err.(*errs.Error); e.Kind == errs.Shape {
			return Layout{}, errs.New(errs.Shape, "unflatten", "Provided sizes %s don't multiply up to the size of dim %d (%d) in the input tensor", Format(sizes), d, l.Sizes[d])
		}
		return Layout{}, err
	}
	newSizes := slices.Concat(l.Sizes[:d], inner, l.Sizes[d+1:])
	st, ok := viewStrides(l.Sizes, l.Strides, newSizes)
	if !ok { // splitting a dim always has a view
		panic("shape: unflatten has no view of " + l.String())
	}
	return Layout{Sizes: newSizes, Strides: st, Offset: l.Offset}, nil
}

// Movedim returns l with dims src[i] moved to positions dst[i]; the other
// dims keep their order (PyTorch's movedim). src and dst of different
// lengths or with a repeated dim are a value error, a dim out of range an
// index error.
func Movedim(l Layout, src, dst []int) (Layout, error) {
	if len(src) != len(dst) {
		return Layout{}, errs.New(errs.Value, "movedim", "Invalid source or destination dims: source (%s dims) should contain the same number of dims as destination (%s dims)", Format(src), Format(dst))
	}
	n := l.Dim()
	ws, wd := make([]int, len(src)), make([]int, len(dst))
	for i := range src {
		var err error
		if ws[i], err = wrapDim("movedim", src[i], n); err != nil {
			return Layout{}, err
		}
	}
	for i := range dst {
		var err error
		if wd[i], err = wrapDim("movedim", dst[i], n); err != nil {
			return Layout{}, err
		}
	}
	if hasDup(ws) {
		return Layout{}, errs.New(errs.Value, "movedim", "repeated dim in `source` (%s)", Format(src))
	}
	if hasDup(wd) {
		return Layout{}, errs.New(errs.Value, "movedim", "repeated dim in `destination` (%s)", Format(dst))
	}
	if n == 0 {
		return l.Clone(), nil
	}
	// order[j] is the dim of l that lands at position j.
	order := make([]int, n)
	for i := range order {
		order[i] = -1
	}
	moved := make([]bool, n)
	for i := range ws {
		order[wd[i]] = ws[i]
		moved[ws[i]] = true
	}
	next := 0 // the next unmoved dim of l, in order
	for j := range order {
		if order[j] >= 0 {
			continue
		}
		for moved[next] {
			next++
		}
		order[j] = next
		next++
	}
	return Permute(l, order)
}

func hasDup(dims []int) bool {
	s := slices.Clone(dims)
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return true
		}
	}
	return false
}

// AsStrided returns the layout with sizes, strides and offset over the
// storage of l (offset nil keeps l's offset), whose storage holds
// storageNumel elements. Lengths that differ or a negative stride or offset
// are a value error; a layout reaching beyond the storage is an index
// error (a layout without elements fits any storage).
func AsStrided(l Layout, sizes, strides []int, offset *int, storageNumel int) (Layout, error) {
	off := l.Offset
	if offset != nil {
		off = *offset
	}
	if len(sizes) != len(strides) {
		return Layout{}, errs.New(errs.Value, "as_strided", "mismatch in length of strides and shape: sizes %s, strides %s", Format(sizes), Format(strides))
	}
	for _, s := range strides {
		if s < 0 {
			return Layout{}, errs.New(errs.Value, "as_strided", "Negative strides are not supported at the moment, got strides: %s", Format(strides))
		}
	}
	for _, s := range sizes {
		if s < 0 {
			return Layout{}, errs.New(errs.Value, "as_strided", "sizes must be non-negative, got sizes: %s", Format(sizes))
		}
	}
	if off < 0 {
		return Layout{}, errs.New(errs.Value, "as_strided", "invalid storage offset %d", off)
	}
	if need := Extent(sizes, strides); need > 0 && off+need > storageNumel {
		return Layout{}, errs.New(errs.Index, "as_strided", "setStorage: sizes %s, strides %s, storage offset %d requiring a storage size of %d elements are out of bounds for storage of %d elements", Format(sizes), Format(strides), off, off+need, storageNumel)
	}
	return Layout{Sizes: dup(sizes), Strides: dup(strides), Offset: off}, nil
}

// Extent returns the number of storage elements a layout with these sizes
// and non-negative strides spans from its offset: 1 + Σ (size-1)·stride,
// or 0 when it has no elements.
func Extent(sizes, strides []int) int {
	n := 1
	for i, s := range sizes {
		if s == 0 {
			return 0
		}
		n += (s - 1) * strides[i]
	}
	return n
}
