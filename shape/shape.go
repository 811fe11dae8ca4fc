// Package shape is pure shape algebra: element counts, contiguous strides,
// broadcasting, dim wrapping and the stride rules of views. It knows nothing
// of dtypes or memory.
//
// # Views
//
// A [Layout] is sizes, strides and a storage offset, in elements. The view
// ops ([View], [Reshape], [Permute], [Transpose], [T], [Expand], [Narrow],
// [Select], [Slice], [Squeeze], [Unsqueeze], [Flatten], [Unflatten],
// [Movedim], [AsStrided], [Split], [SplitSizes], [Chunk]) compute the
// layout of their result over the same storage, as PyTorch 1.13 does
// (strides included); [Reshape] and [Flatten] report when a copy is needed
// instead. [CatShape] and [StackShape] check and compute the shapes of cat
// and stack. Results never alias their arguments' slices.
//
// # Errors
//
// Bad arguments return an *errs.Error naming the op, with PyTorch's
// wording: a dim or index out of range is errs.Index (dims wrap by
// [WrapDim]), sizes that do not fit errs.Shape, a view that the layout
// cannot express errs.View, any other invalid argument errs.Value.
package shape

// NumEl returns the product of sizes (1 for no dims).
func NumEl(sizes []int) int {
	n := 1
	for _, s := range sizes {
		n *= s
	}
	return n
}

// Contiguous returns row-major strides for sizes (a size 0 counts as 1).
func Contiguous(sizes []int) []int {
	st := make([]int, len(sizes))
	ContiguousInto(sizes, st)
	return st
}

// ContiguousInto writes the row-major strides of sizes into strides (a
// size 0 counts as 1).
func ContiguousInto(sizes, strides []int) {
	acc := 1
	for i := len(sizes) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= max(sizes[i], 1)
	}
}

// IsContiguous reports whether strides are row-major for sizes, ignoring
// the strides of size-1 dims (c10's is_contiguous); a layout with no
// elements is contiguous.
func IsContiguous(sizes, strides []int) bool {
	if NumEl(sizes) == 0 {
		return true
	}
	expected := 1
	for i := len(sizes) - 1; i >= 0; i-- {
		if sizes[i] == 1 {
			continue
		}
		if strides[i] != expected {
			return false
		}
		expected *= sizes[i]
	}
	return true
}

// maxSortDims is the number of dims IsNonOverlappingAndDense sorts on the
// stack (it runs on every op's plan).
const maxSortDims = 8

// IsNonOverlappingAndDense reports whether the layout covers a block of
// NumEl(sizes) elements exactly once, in some order of dims (c10's
// is_non_overlapping_and_dense); a layout with no elements does.
func IsNonOverlappingAndDense(sizes, strides []int) bool {
	n := len(sizes)
	if n == 0 || NumEl(sizes) == 0 {
		return true
	}
	if n == 1 {
		return sizes[0] < 2 || strides[0] == 1
	}
	var buf [maxSortDims]int
	perm := buf[:0]
	if n > maxSortDims {
		perm = make([]int, 0, n)
	}
	// dims of size >= 2 sorted by stride (insertion sort: n is small)
	for d := 0; d < n; d++ {
		if sizes[d] < 2 {
			continue
		}
		perm = append(perm, d)
		for j := len(perm) - 1; j > 0 && strides[perm[j]] < strides[perm[j-1]]; j-- {
			perm[j], perm[j-1] = perm[j-1], perm[j]
		}
	}
	expected := 1
	for _, d := range perm {
		if strides[d] != expected {
			return false
		}
		expected *= sizes[d]
	}
	return true
}

// Equal reports whether two shapes are the same.
func Equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
