//go:build !amd64 || purego

package vec

// GatherPrefetch reports whether the Gather primitives prefetch (run in
// assembly).
const GatherPrefetch = false

// Gather8 sets out[t] = self[idx[t]] for the 8-bit elements of self, in
// increasing t, up to the first index outside [0, len(self)), and returns
// how many elements it moved (len(idx) when every index is in range); out
// must hold len(idx) elements. With GatherPrefetch it also prefetches
// nextSelf[nextIdx[t]] for every t < len(nextIdx), the elements the
// caller will gather next (Note [Gather prefetch] in package backend/cpu):
// a prefetch never faults, so nextIdx may hold indices out of range. Its
// exact loop is gather8Go's.
func Gather8(out, self []uint8, idx []int64, nextSelf []uint8, nextIdx []int64) int {
	return gather8Go(out, self, idx, nextSelf, nextIdx)
}

// Gather16 sets out[t] = self[idx[t]] for the 16-bit elements of self, in
// increasing t, up to the first index outside [0, len(self)), and returns
// how many elements it moved (len(idx) when every index is in range); out
// must hold len(idx) elements. With GatherPrefetch it also prefetches
// nextSelf[nextIdx[t]] for every t < len(nextIdx), the elements the
// caller will gather next (Note [Gather prefetch] in package backend/cpu):
// a prefetch never faults, so nextIdx may hold indices out of range. Its
// exact loop is gather16Go's.
func Gather16(out, self []uint16, idx []int64, nextSelf []uint16, nextIdx []int64) int {
	return gather16Go(out, self, idx, nextSelf, nextIdx)
}

// Gather32 sets out[t] = self[idx[t]] for the 32-bit elements of self, in
// increasing t, up to the first index outside [0, len(self)), and returns
// how many elements it moved (len(idx) when every index is in range); out
// must hold len(idx) elements. With GatherPrefetch it also prefetches
// nextSelf[nextIdx[t]] for every t < len(nextIdx), the elements the
// caller will gather next (Note [Gather prefetch] in package backend/cpu):
// a prefetch never faults, so nextIdx may hold indices out of range. Its
// exact loop is gather32Go's.
func Gather32(out, self []uint32, idx []int64, nextSelf []uint32, nextIdx []int64) int {
	return gather32Go(out, self, idx, nextSelf, nextIdx)
}

// Gather64 sets out[t] = self[idx[t]] for the 64-bit elements of self, in
// increasing t, up to the first index outside [0, len(self)), and returns
// how many elements it moved (len(idx) when every index is in range); out
// must hold len(idx) elements. With GatherPrefetch it also prefetches
// nextSelf[nextIdx[t]] for every t < len(nextIdx), the elements the
// caller will gather next (Note [Gather prefetch] in package backend/cpu):
// a prefetch never faults, so nextIdx may hold indices out of range. Its
// exact loop is gather64Go's.
func Gather64(out, self []uint64, idx []int64, nextSelf []uint64, nextIdx []int64) int {
	return gather64Go(out, self, idx, nextSelf, nextIdx)
}

// Prefetch asks for the cache lines of b ahead of their use where
// GatherPrefetch; without assembly it does nothing.
func Prefetch(b []byte) {}

// Transpose32 sets dst[i·ds + j] = src[j·ss + i] for i < rows and j <
// cols: the cols×rows block of 4-byte elements of src (row stride ss
// elements) transposed into the rows×cols block of dst (row stride ds).
// Rows must not overlap (ds ≥ cols, ss ≥ rows).
func Transpose32(dst, src []uint32, ds, ss, rows, cols int) {
	transposeBounds(dst, src, ds, ss, rows, cols)
	transpose32Go(dst, src, ds, ss, rows, cols)
}
