package kernel

import "math/bits"

// Note [topk's tie order]
//
// Which of several equal elements topk returns, and in which order, is not
// a property of the values but of PyTorch's algorithm, as for kthvalue
// (Note [kthvalue's tie order]). PyTorch 1.13's CPU kernel
// (topk_impl_loop, ATen's TopKImpl.h) copies each row into (value,
// position) pairs and runs the C++ standard library on them, with the
// comparison "better": greater for the largest k, smaller for the
// smallest, NaN better (largest) or worse (smallest) than every number,
// NaNs equal one another and -0 equal to +0:
//
//   - when k·64 ≤ n, std::partial_sort of the first k: a binary heap of
//     the first k pairs whose top is the worst, each later pair that is
//     better than the top replacing it, then a heap sort;
//   - otherwise std::nth_element at k-1 (introselect), then std::sort of
//     the first k-1 pairs (introsort), the pair at k-1 staying where the
//     selection left it.
//
// Neither is stable. The functions below are those algorithms step for
// step as GCC's libstdc++ (the library Debian's PyTorch is built with)
// writes them, moves included, so that the backends return PyTorch's
// indices on ties: TopKOrder for a row held whole, and MakeHeap,
// ReplaceTop and SortHeap for a backend that streams a row through the
// heap of partial_sort, skipping the elements that cannot enter it. They
// work on Ranked pairs, whose keys order the elements, so that a
// comparison is one integer compare: a backend turns "better" into a
// smaller key (Note [Radix sort]'s keys in package backend/cpu, the ranks
// of the values in package backend/ref). A row without ties has one
// answer whatever the algorithm, which lets a backend take a faster path
// there (Note [Top-k ties] in package backend/cpu).

// Ranked is an element of a row under selection: Key orders it (a
// smaller key is better, equal keys are equal elements) and Pos is its
// position in the row.
type Ranked struct {
	Key uint64
	Pos int
}

// sortThreshold is libstdc++'s _S_threshold: introsort leaves runs of at
// most this many elements to its final insertion sort.
const sortThreshold = 16

// TopKHeap reports whether PyTorch's topk takes k of n elements through
// a heap (partial_sort) rather than a selection (Note [topk's tie
// order]).
func TopKHeap(k, n int) bool { return k <= n/64 } // k·64 ≤ n, without overflow

// TopKOrder permutes row so that row[:k] holds PyTorch 1.13's topk of it
// in PyTorch's order (Note [topk's tie order]), 0 ≤ k ≤ len(row).
func TopKOrder(row []Ranked, k int) {
	if k == 0 {
		return
	}
	if TopKHeap(k, len(row)) {
		heapSelect(row, k)
		SortHeap(row[:k])
		return
	}
	nthElement(row, k-1)
	introSort(row[:k-1])
}

// MakeHeap arranges h as libstdc++'s std::make_heap does: a binary heap
// whose top h[0] has the largest key.
func MakeHeap(h []Ranked) {
	n := len(h)
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		adjustHeap(h, parent, n, h[parent])
		if parent == 0 {
			return
		}
	}
}

// ReplaceTop puts v in the place of the heap's top and restores the heap,
// as std::__pop_heap does when heap selection takes a better element.
func ReplaceTop(h []Ranked, v Ranked) {
	adjustHeap(h, 0, len(h), v)
}

// SortHeap sorts heap h best first, as std::sort_heap does.
func SortHeap(h []Ranked) {
	for last := len(h) - 1; last > 0; last-- {
		v := h[last]
		h[last] = h[0]
		adjustHeap(h[:last], 0, last, v)
	}
}

// heapSelect is std::__heap_select(row, row+k, row+len(row)): the heap of
// the first k, then every later element better than its top in its place.
func heapSelect(row []Ranked, k int) {
	h := row[:k]
	MakeHeap(h)
	for i := k; i < len(row); i++ {
		if row[i].Key < h[0].Key {
			v := row[i]
			row[i] = h[0]
			ReplaceTop(h, v)
		}
	}
}

// adjustHeap is std::__adjust_heap: it moves the hole at hole down to a
// leaf along the larger children, then pushes v up from there.
func adjustHeap(h []Ranked, hole, n int, v Ranked) {
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if h[child].Key < h[child-1].Key {
			child--
		}
		h[hole] = h[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		h[hole] = h[child-1]
		hole = child - 1
	}
	// std::__push_heap
	parent := (hole - 1) / 2
	for hole > top && h[parent].Key < v.Key {
		h[hole] = h[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	h[hole] = v
}

// log2 is std::__lg: ⌊log₂ n⌋ for n > 0.
func log2(n int) int { return bits.Len(uint(n)) - 1 }

// nthElement is std::nth_element(row, row+nth, row+len(row)): introselect
// with a depth limit of 2·⌊log₂ n⌋ partitions.
func nthElement(row []Ranked, nth int) {
	if len(row) == 0 || nth == len(row) {
		return
	}
	first, last := 0, len(row)
	depth := 2 * log2(len(row))
	for last-first > 3 {
		if depth == 0 {
			heapSelect(row[first:last], nth+1-first)
			row[first], row[nth] = row[nth], row[first]
			return
		}
		depth--
		cut := first + partitionPivot(row[first:last])
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	insertionSort(row[first:last])
}

// introSort is std::sort: introsort down to runs of sortThreshold, then
// one insertion sort over the whole.
func introSort(row []Ranked) {
	if len(row) == 0 {
		return
	}
	introSortLoop(row, 2*log2(len(row)))
	if len(row) > sortThreshold {
		insertionSort(row[:sortThreshold])
		for i := sortThreshold; i < len(row); i++ {
			linearInsert(row, i)
		}
		return
	}
	insertionSort(row)
}

// introSortLoop is std::__introsort_loop: it partitions, recurses into the
// upper part and loops on the lower one, and heap sorts a part that runs
// out of depth.
func introSortLoop(row []Ranked, depth int) {
	for len(row) > sortThreshold {
		if depth == 0 {
			heapSelect(row, len(row))
			SortHeap(row)
			return
		}
		depth--
		cut := partitionPivot(row)
		introSortLoop(row[cut:], depth)
		row = row[:cut]
	}
}

// partitionPivot is std::__unguarded_partition_pivot: the median of
// row[1], the middle and the last element moved to row[0], then an
// unguarded Hoare partition of row[1:] around it. It returns the cut.
func partitionPivot(row []Ranked) int {
	n := len(row)
	moveMedianToFirst(row, 1, n/2, n-1)
	lo, hi := 1, n
	for {
		for row[lo].Key < row[0].Key {
			lo++
		}
		hi--
		for row[0].Key < row[hi].Key {
			hi--
		}
		if lo >= hi {
			return lo
		}
		row[lo], row[hi] = row[hi], row[lo]
		lo++
	}
}

// moveMedianToFirst is std::__move_median_to_first: it swaps the median
// of row[a], row[b] and row[c] into row[0].
func moveMedianToFirst(row []Ranked, a, b, c int) {
	pick := b
	switch {
	case row[a].Key < row[b].Key:
		switch {
		case row[b].Key < row[c].Key:
			pick = b
		case row[a].Key < row[c].Key:
			pick = c
		default:
			pick = a
		}
	case row[a].Key < row[c].Key:
		pick = a
	case row[b].Key < row[c].Key:
		pick = c
	}
	row[0], row[pick] = row[pick], row[0]
}

// insertionSort is std::__insertion_sort.
func insertionSort(row []Ranked) {
	for i := 1; i < len(row); i++ {
		if row[i].Key < row[0].Key {
			v := row[i]
			copy(row[1:i+1], row[:i])
			row[0] = v
			continue
		}
		linearInsert(row, i)
	}
}

// linearInsert is std::__unguarded_linear_insert: row[i] moved down past
// the elements it is better than (one of them stops it).
func linearInsert(row []Ranked, i int) {
	v := row[i]
	for v.Key < row[i-1].Key {
		row[i] = row[i-1]
		i--
	}
	row[i] = v
}
