package shape

import (
	"github.com/goten-ml/goten/errs"
)

// Split returns the layouts of l cut along dim into pieces of size
// elements, the last one smaller when size does not divide the dim; a size
// larger than the dim gives one piece, and a dim of size 0 gives one empty
// piece. A 0-dim l or a dim out of range is an index error; a negative
// size, or 0 on a dim that is not empty, a value error.
func Split(l Layout, size, dim int) ([]Layout, error) {
	if l.Dim() == 0 {
		return nil, errs.New(errs.Index, "split", "split expects at least a 1-dimensional tensor")
	}
	if size < 0 {
		return nil, errs.New(errs.Value, "split", "split expects split_size be non-negative, but got split_size=%d", size)
	}
	d, err := wrapDim("split", dim, l.Dim())
	if err != nil {
		return nil, err
	}
	n := l.Sizes[d]
	if size == 0 && n != 0 {
		return nil, errs.New(errs.Value, "split", "split_size can only be 0 if dimension size is 0, but got dimension size of %d", n)
	}
	pieces := SplitPieces(n, size)
	out := make([]Layout, pieces)
	for i := range out {
		length := min(size, n-i*size)
		out[i] = piece(l, d, i*size, length)
	}
	return out, nil
}

// SplitSizes returns the layouts of l cut along dim into pieces of the
// given sizes, which must sum to the dim's size (else a shape error). A
// 0-dim l or a dim out of range is an index error, a negative size a value
// error.
func SplitSizes(l Layout, sizes []int, dim int) ([]Layout, error) {
	if l.Dim() == 0 {
		return nil, errs.New(errs.Index, "split_with_sizes", "split expects at least a 1-dimensional tensor")
	}
	d, err := wrapDim("split_with_sizes", dim, l.Dim())
	if err != nil {
		return nil, err
	}
	sum, ok := 0, true
	for _, s := range sizes {
		if s < 0 {
			return nil, errs.New(errs.Value, "split_with_sizes", "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", Format(sizes))
		}
		var fits bool
		sum, fits = AddOK(sum, s) // Note [Checked sizes]
		ok = ok && fits
	}
	if !ok || sum != l.Sizes[d] {
		return nil, errs.New(errs.Shape, "split_with_sizes", "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", l.Sizes[d], d, Format(sizes))
	}
	out := make([]Layout, len(sizes))
	start := 0
	for i, s := range sizes {
		out[i] = piece(l, d, start, s)
		start += s
	}
	return out, nil
}

// Chunk returns the layouts of l cut along dim into pieces of
// ceil(size/chunks) elements, so possibly fewer than chunks pieces; a dim
// of size 0 gives chunks empty pieces. A 0-dim l or a dim out of range is
// an index error, chunks ≤ 0 a value error.
func Chunk(l Layout, chunks, dim int) ([]Layout, error) {
	if l.Dim() == 0 {
		return nil, errs.New(errs.Index, "chunk", "chunk expects at least a 1-dimensional tensor")
	}
	if chunks <= 0 {
		return nil, errs.New(errs.Value, "chunk", "chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	d, err := wrapDim("chunk", dim, l.Dim())
	if err != nil {
		return nil, err
	}
	n := l.Sizes[d]
	if n == 0 {
		out := make([]Layout, chunks) // callers bound chunks (ChunkPieces)
		for i := range out {
			out[i] = piece(l, d, 0, 0)
		}
		return out, nil
	}
	return Split(l, chunkSize(n, chunks), d)
}

// chunkSize is the size of Chunk's pieces: ceil(n/chunks), for n > 0.
func chunkSize(n, chunks int) int { return (n-1)/chunks + 1 } // n+chunks-1 may overflow

// SplitPieces returns the number of pieces [Split] cuts a dim of size n
// into with pieces of size elements: one when size is not positive or
// n is 0. A caller that could not hold them all refuses first: a size-1
// split of an expanded dim of 2^40 elements is a valid request.
func SplitPieces(n, size int) int {
	if size <= 0 || n <= 0 {
		return 1
	}
	return (n-1)/size + 1
}

// ChunkPieces returns the number of pieces [Chunk] cuts a dim of size n
// into (chunks > 0): chunks for a dim of size 0.
func ChunkPieces(n, chunks int) int {
	if n <= 0 {
		return chunks
	}
	return SplitPieces(n, chunkSize(n, chunks))
}

// piece is Narrow(l, d, start, length) for arguments already checked.
func piece(l Layout, d, start, length int) Layout {
	out := l.Clone()
	out.Sizes[d] = length
	out.Offset += start * l.Strides[d]
	return out
}

// CatShape returns the shape of the concatenation along dim of tensors of
// the given shapes (PyTorch 1.13's cat): 1-dim shapes [0] are skipped (for
// dim wrapping too; all skipped gives [0]); the others must have the same
// number of dims and equal sizes except at dim (else a shape error). No
// shapes is a value error, a 0-dim shape a shape error, a dim out of range
// an index error.
func CatShape(shapes [][]int, dim int) ([]int, error) {
	if len(shapes) == 0 {
		return nil, errs.New(errs.Value, "cat", "expected a non-empty list of Tensors")
	}
	for i, s := range shapes {
		if len(s) == 0 {
			return nil, errs.New(errs.Shape, "cat", "zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
	}
	skip := func(s []int) bool { return len(s) == 1 && s[0] == 0 }
	ref := -1
	for i, s := range shapes {
		if !skip(s) {
			ref = i
			break
		}
	}
	if ref < 0 {
		return []int{0}, nil
	}
	d, err := wrapDim("cat", dim, len(shapes[ref]))
	if err != nil {
		return nil, err
	}
	out := dup(shapes[ref])
	out[d] = 0
	for i, s := range shapes {
		if skip(s) {
			continue
		}
		if len(s) != len(out) {
			return nil, errs.New(errs.Shape, "cat", "Tensors must have same number of dimensions: got %d and %d", len(out), len(s))
		}
		for k := range s {
			if k != d && s[k] != out[k] {
				return nil, errs.New(errs.Shape, "cat", "Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.", d, out[k], s[k], i)
			}
		}
		var ok bool
		if out[d], ok = AddOK(out[d], s[d]); !ok { // Note [Checked sizes]
			return nil, errs.New(errs.Shape, "cat", "the sizes of the tensors at dimension %d sum past the largest int", d)
		}
	}
	return out, nil
}

// StackShape returns the shape of the stack along a new dim of tensors of
// the given shapes, which must all be equal (else a shape error). dim is
// in [-ndim-1, ndim] (else an index error); no shapes is a value error.
func StackShape(shapes [][]int, dim int) ([]int, error) {
	if len(shapes) == 0 {
		return nil, errs.New(errs.Value, "stack", "stack expects a non-empty TensorList")
	}
	first := shapes[0]
	d, err := wrapDim("stack", dim, len(first)+1)
	if err != nil {
		return nil, err
	}
	for i, s := range shapes[1:] {
		if !Equal(s, first) {
			return nil, errs.New(errs.Shape, "stack", "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", Format(first), Format(s), i+1)
		}
	}
	out := make([]int, 0, len(first)+1)
	out = append(out, first[:d]...)
	out = append(out, len(shapes))
	return append(out, first[d:]...), nil
}
