//go:build amd64 && !purego

package vec

import "unsafe"

//go:generate go run -C ../../../../asm . -part gather -out ../backend/cpu/internal/vec/zz_gather_amd64.s -stubs ../backend/cpu/internal/vec/zz_gather_stubs_amd64.go -pkg vec

// GatherPrefetch reports whether the Gather primitives prefetch (run in
// assembly). Their assembly uses no vector instruction, but follows the
// levels of Note [Kernel levels] like every primitive, so that the generic
// level tests the twins.
var GatherPrefetch = useAVX2

// Gather8 sets out[t] = self[idx[t]] for the 8-bit elements of self, in
// increasing t, up to the first index outside [0, len(self)), and returns
// how many elements it moved (len(idx) when every index is in range); out
// must hold len(idx) elements. With GatherPrefetch it also prefetches
// nextSelf[nextIdx[t]] for every t < len(nextIdx), the elements the
// caller will gather next (Note [Gather prefetch] in package backend/cpu):
// a prefetch never faults, so nextIdx may hold indices out of range. Its
// exact loop is gather8Go's.
func Gather8(out, self []uint8, idx []int64, nextSelf []uint8, nextIdx []int64) int {
	if !useAVX2 {
		return gather8Go(out, self, idx, nextSelf, nextIdx)
	}
	out = out[:len(idx)]
	return gather8Asm(out, self, idx, nextSelf, nextIdx)
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
	if !useAVX2 {
		return gather16Go(out, self, idx, nextSelf, nextIdx)
	}
	out = out[:len(idx)]
	return gather16Asm(out, self, idx, nextSelf, nextIdx)
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
	if !useAVX2 {
		return gather32Go(out, self, idx, nextSelf, nextIdx)
	}
	out = out[:len(idx)]
	return gather32Asm(out, self, idx, nextSelf, nextIdx)
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
	if !useAVX2 {
		return gather64Go(out, self, idx, nextSelf, nextIdx)
	}
	out = out[:len(idx)]
	return gather64Asm(out, self, idx, nextSelf, nextIdx)
}

// Prefetch asks for the cache lines of b ahead of their use, with a
// PREFETCHT0 for each line from b[0]'s to b[len(b)-1]'s, where
// GatherPrefetch; it reads and changes nothing, and never faults.
func Prefetch(b []byte) {
	if useAVX2 {
		prefetchAsm(b)
	}
}

// Transpose32 sets dst[i·ds + j] = src[j·ss + i] for i < rows and j <
// cols: the cols×rows block of 4-byte elements of src (row stride ss
// elements) transposed into the rows×cols block of dst (row stride ds),
// the tiles of Note [Tiles for crossed operands] in package backend/cpu.
// Rows must not overlap (ds ≥ cols, ss ≥ rows). Its exact loop is
// transpose32Go's; with AVX2 it moves 8×8 blocks in vectors.
func Transpose32(dst, src []uint32, ds, ss, rows, cols int) {
	transposeBounds(dst, src, ds, ss, rows, cols)
	if !useAVX2 || rows < 8 || cols < 8 {
		transpose32Go(dst, src, ds, ss, rows, cols)
		return
	}
	r8, c8 := rows&^7, cols&^7
	transpose32AVX2((*byte)(unsafe.Pointer(&dst[0])), (*byte)(unsafe.Pointer(&src[0])), 4*ds, 4*ss, r8, c8)
	if r8 < rows {
		// the last rows%8 rows of dst, every column
		transpose32Go(dst[r8*ds:], src[r8:], ds, ss, rows-r8, cols)
	}
	if c8 < cols {
		// the last cols%8 columns of the first r8 rows
		transpose32Go(dst[c8:], src[c8*ss:], ds, ss, r8, cols-c8)
	}
}
