package kernel

// Note [kthvalue's tie order]
//
// Which of several equal elements kthvalue returns the index of is not a
// property of the values but of PyTorch's algorithm: its CPU kernel runs
// quick_select_template (ATen's SortingUtils.h) on a copy of the row and
// of its positions, and returns the position that lands at k-1. The
// backends run the same selection so that the indices agree with PyTorch
// 1.13 on ties: a median-of-three pivot moved to L, a Hoare partition
// around it, then the side holding k. Comparisons are "greater, NaN above
// everything" (NaNs equal one another, -0 equals +0).

// QuickSelect is PyTorch 1.13's quick_select_template over n elements:
// it permutes them (through swap) until the element at k is the one a
// sort would put there, leaving the others partitioned around it
// (Note [kthvalue's tie order]). gt reports whether element i compares
// greater than element j; swap exchanges two elements.
func QuickSelect(n, k int, gt func(i, j int) bool, swap func(i, j int)) {
	l, r := 0, n-1
	for {
		if r <= l {
			return
		}
		if r == l+1 {
			if gt(l, r) {
				swap(l, r)
			}
			return
		}
		p := l + (r-l)/2
		swap(p, l+1)
		if gt(l+1, r) {
			swap(l+1, r)
		}
		if gt(l, r) {
			swap(l, r)
		}
		if gt(l+1, l) {
			swap(l+1, l)
		}
		// the pivot stays at l while i and j move within (l, r]
		i, j := l+1, r
		for {
			for i++; gt(l, i); i++ {
			}
			for j--; gt(j, l); j-- {
			}
			if j < i {
				break
			}
			swap(i, j)
		}
		swap(l, j)
		if j <= k {
			l = i
		}
		if j >= k {
			r = j - 1
		}
	}
}
