//go:build amd64 && !purego

package vec

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
