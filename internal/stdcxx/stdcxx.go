// Package stdcxx reproduces, on the host, the orders in which GNU
// libstdc++ (GCC 12, the C++ library PyTorch 1.13's CPU kernels are built
// with) leaves elements where a kernel lets that order show: the iteration
// order of an std::unordered_set and the arrangement std::sort makes under
// a comparison that is not a strict weak order (NaN's <).
//
// Note [Orders of libstdc++]
// PyTorch's unique collects the distinct elements of a tensor in an
// unordered_set and sorts them with std::sort. Where every element is
// ordered the result is simply ascending; where some is NaN, each NaN is a
// distinct element (it equals nothing), std::sort's comparisons with it are
// all false, and where the NaNs end up depends on the set's iteration order
// and on the exact steps of introsort. The same holds for unique along a
// dim, whose std::sort compares slices and skips NaN columns. Following the
// containers' and algorithms' code step by step is what reproduces those
// results; nothing here is faster or better than Go's own sort.
//
// package kernel holds a second copy of introsort, nth_element and the
// heap (Note [topk's tie order]), specialised to integer keys: topk's
// comparison is a strict weak order that keys can express, and its
// backends run it per row, where a call through a less function per
// comparison would cost. The comparisons here (NaN's <, slices compared
// column by column) have no such keys.
package stdcxx

import "math/bits"

// hashSeed is libstdc++'s default seed of _Hash_bytes (std::_Hash_impl).
const hashSeed = 0xc70f6907

// HashBytes is libstdc++'s _Hash_bytes with its default seed: the 64-bit
// Murmur hash std::hash uses for the bytes of a float or a double.
func HashBytes(p []byte) uint64 {
	const mul = 0xc6a4a793<<32 + 0x5bd1e995
	shiftMix := func(v uint64) uint64 { return v ^ v>>47 }
	hash := hashSeed ^ uint64(len(p))*mul
	aligned := len(p) &^ 7
	for i := 0; i < aligned; i += 8 {
		var data uint64
		for k := 7; k >= 0; k-- {
			data = data<<8 | uint64(p[i+k])
		}
		hash ^= shiftMix(data*mul) * mul
		hash *= mul
	}
	if rest := len(p) & 7; rest != 0 {
		var data uint64
		for k := rest - 1; k >= 0; k-- {
			data = data<<8 | uint64(p[aligned+k])
		}
		hash ^= data
		hash *= mul
	}
	hash = shiftMix(hash) * mul
	return shiftMix(hash)
}

// HashFloat64 is std::hash<double> of the double with these bits: 0 for
// either zero, else the hash of its eight bytes (little-endian).
func HashFloat64(b uint64) uint64 {
	if b<<1 == 0 {
		return 0
	}
	var p [8]byte
	for i := range p {
		p[i] = byte(b >> (8 * i))
	}
	return HashBytes(p[:])
}

// HashFloat32 is std::hash<float> of the float with these bits: 0 for
// either zero, else the hash of its four bytes (little-endian).
func HashFloat32(b uint32) uint64 {
	if b<<1 == 0 {
		return 0
	}
	return HashBytes([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24)})
}

// HashSet follows the nodes of an std::unordered_set with unique keys and
// a maximum load factor of 1, filled by inserting keys one at a time (as
// its range constructor does): one singly linked list of nodes, each
// bucket pointing at the node before its first, a new node placed first in
// its bucket, and the table rehashed to libstdc++'s next prime as it grows.
// It holds no keys: the caller keeps them by node and says which node
// equals a key.
type HashSet struct {
	next       []int    // next[0] follows the list's head; next[k] follows node k; -1 ends it
	codes      []uint64 // codes[k] is node k's hash code
	buckets    []int    // the node before each bucket's first node (0: the head), -1 if empty
	nextResize uint64   // the element count past which the table grows
}

// NewHashSet returns an empty set of one bucket, as a default-constructed
// unordered_set is.
func NewHashSet() *HashSet {
	return &HashSet{next: []int{-1}, codes: []uint64{0}, buckets: []int{-1}}
}

// Len returns the number of nodes.
func (h *HashSet) Len() int { return len(h.next) - 1 }

// Insert looks for a node equal to a key of hash code among the nodes of
// the key's bucket, asking same(node), and adds a node for the key where
// there is none. It returns the key's node (numbered 1, 2, … in order of
// insertion) and whether it was added.
func (h *HashSet) Insert(code uint64, same func(node int) bool) (node int, added bool) {
	bkt := int(code % uint64(len(h.buckets)))
	if prev := h.buckets[bkt]; prev >= 0 {
		for p := h.next[prev]; ; {
			if same(p) {
				return p, false
			}
			q := h.next[p]
			if q < 0 || h.bucket(q) != bkt {
				break
			}
			p = q
		}
	}
	if grow, n := h.needRehash(1); grow {
		h.rehash(n)
		bkt = int(code % uint64(len(h.buckets)))
	}
	node = len(h.next)
	h.next = append(h.next, -1)
	h.codes = append(h.codes, code)
	if prev := h.buckets[bkt]; prev >= 0 {
		h.next[node] = h.next[prev]
		h.next[prev] = node
	} else {
		h.next[node] = h.next[0]
		h.next[0] = node
		if after := h.next[node]; after >= 0 {
			h.buckets[h.bucket(after)] = node
		}
		h.buckets[bkt] = 0
	}
	return node, true
}

// Nodes returns the nodes in the set's iteration order.
func (h *HashSet) Nodes() []int {
	order := make([]int, 0, h.Len())
	for p := h.next[0]; p >= 0; p = h.next[p] {
		order = append(order, p)
	}
	return order
}

func (h *HashSet) bucket(node int) int { return int(h.codes[node] % uint64(len(h.buckets))) }

// needRehash is _Prime_rehash_policy::_M_need_rehash for adding inserts
// elements to the set's current ones.
func (h *HashSet) needRehash(inserts int) (bool, int) {
	want := uint64(h.Len() + inserts)
	if want <= h.nextResize {
		return false, 0
	}
	minBuckets := want
	if h.nextResize == 0 && minBuckets < 11 {
		// the first insert into an unallocated table asks for 11 buckets
		minBuckets = 11
	}
	if n := uint64(len(h.buckets)); minBuckets >= n {
		return true, int(h.nextBucketCount(max(minBuckets+1, 2*n)))
	}
	h.nextResize = uint64(len(h.buckets))
	return false, 0
}

// fastBuckets is _M_next_bkt's table of the bucket counts for small hints.
var fastBuckets = [...]uint64{2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13}

// nextBucketCount is _Prime_rehash_policy::_M_next_bkt: the prime bucket
// count for at least n buckets, setting the size of the next growth.
func (h *HashSet) nextBucketCount(n uint64) uint64 {
	if n < uint64(len(fastBuckets)) {
		h.nextResize = fastBuckets[n]
		return fastBuckets[n]
	}
	last := len(primes) - 1
	i := 6
	for lo, hi := 6, last; ; {
		if lo >= hi {
			i = lo
			break
		}
		mid := int(uint(lo+hi) >> 1)
		if primes[mid] < n {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if i == last {
		h.nextResize = ^uint64(0)
	} else {
		h.nextResize = primes[i]
	}
	return primes[i]
}

// rehash is _M_rehash_aux for unique keys: it walks the list once, moving
// each node to the front of the list where its new bucket is empty, else
// after its bucket's first node.
func (h *HashSet) rehash(n int) {
	buckets := make([]int, n)
	for i := range buckets {
		buckets[i] = -1
	}
	p := h.next[0]
	h.next[0] = -1
	beginBucket := 0
	for p >= 0 {
		next := h.next[p]
		bkt := int(h.codes[p] % uint64(n))
		if buckets[bkt] < 0 {
			h.next[p] = h.next[0]
			h.next[0] = p
			buckets[bkt] = 0
			if h.next[p] >= 0 {
				buckets[beginBucket] = p
			}
			beginBucket = bkt
		} else {
			h.next[p] = h.next[buckets[bkt]]
			h.next[buckets[bkt]] = p
		}
		p = next
	}
	h.buckets = buckets
}

// onHeapSort, when set (by tests), is called as introsort turns to the
// heap sort.
var onHeapSort func()

// threshold is std::sort's _S_threshold: ranges this short are left to
// the final insertion sort.
const threshold = 16

// Sort is libstdc++'s std::sort of s under less: introsort (median of
// three pivots, heap sort past 2·⌊log2 n⌋ levels) and a final insertion
// sort, step by step. Where libstdc++ would read outside the range under a
// comparison that is not a strict weak order, Sort stops at its edge.
func Sort[T any](s []T, less func(a, b T) bool) {
	if len(s) < 2 {
		return
	}
	introsortLoop(s, 0, len(s), 2*(bits.Len(uint(len(s)))-1), less)
	if len(s) > threshold {
		insertionSort(s[:threshold], less)
		for i := threshold; i < len(s); i++ {
			linearInsert(s, i, less)
		}
	} else {
		insertionSort(s, less)
	}
}

func introsortLoop[T any](s []T, first, last, depth int, less func(a, b T) bool) {
	for last-first > threshold {
		if depth == 0 {
			if onHeapSort != nil {
				onHeapSort()
			}
			heapSort(s[first:last], less)
			return
		}
		depth--
		cut := partitionPivot(s, first, last, less)
		introsortLoop(s, cut, last, depth, less)
		last = cut
	}
}

// partitionPivot moves the median of s[first+1], the middle and the last
// element to s[first] and partitions the rest around it.
func partitionPivot[T any](s []T, first, last int, less func(a, b T) bool) int {
	a, b, c := first+1, first+(last-first)/2, last-1
	var median int
	switch {
	case less(s[a], s[b]):
		switch {
		case less(s[b], s[c]):
			median = b
		case less(s[a], s[c]):
			median = c
		default:
			median = a
		}
	case less(s[a], s[c]):
		median = a
	case less(s[b], s[c]):
		median = c
	default:
		median = b
	}
	s[first], s[median] = s[median], s[first]
	pivot, lo, hi := first, first+1, last
	for {
		for lo < last && less(s[lo], s[pivot]) {
			lo++
		}
		hi--
		for hi > pivot && less(s[pivot], s[hi]) {
			hi--
		}
		if lo >= hi {
			return lo
		}
		s[lo], s[hi] = s[hi], s[lo]
		lo++
	}
}

// insertionSort is __insertion_sort: an element less than the first goes
// straight to the front, any other moves back past the larger ones.
func insertionSort[T any](s []T, less func(a, b T) bool) {
	for i := 1; i < len(s); i++ {
		if less(s[i], s[0]) {
			v := s[i]
			copy(s[1:i+1], s[:i])
			s[0] = v
		} else {
			linearInsert(s, i, less)
		}
	}
}

// linearInsert is __unguarded_linear_insert: s[i] moves back while it is
// less than the element before it.
func linearInsert[T any](s []T, i int, less func(a, b T) bool) {
	v := s[i]
	for i > 0 && less(v, s[i-1]) {
		s[i] = s[i-1]
		i--
	}
	s[i] = v
}

// heapSort is __partial_sort over the whole range: __make_heap, then
// __sort_heap.
func heapSort[T any](s []T, less func(a, b T) bool) {
	n := len(s)
	if n >= 2 {
		for parent := (n - 2) / 2; ; parent-- {
			adjustHeap(s, parent, n, s[parent], less)
			if parent == 0 {
				break
			}
		}
	}
	for last := n - 1; last > 0; last-- {
		v := s[last]
		s[last] = s[0]
		adjustHeap(s, 0, last, v, less)
	}
}

// adjustHeap is __adjust_heap: the hole at hole sinks to a leaf along the
// larger children, and v rises from there (__push_heap).
func adjustHeap[T any](s []T, hole, n int, v T, less func(a, b T) bool) {
	top, child := hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if less(s[child], s[child-1]) {
			child--
		}
		s[hole] = s[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		s[hole] = s[child-1]
		hole = child - 1
	}
	for parent := (hole - 1) / 2; hole > top && less(s[parent], v); parent = (hole - 1) / 2 {
		s[hole] = s[parent]
		hole = parent
	}
	s[hole] = v
}
