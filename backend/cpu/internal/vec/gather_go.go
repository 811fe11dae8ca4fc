package vec

// The pure-Go twins of the gather primitives (asm/gather.go). A twin
// ignores nextSelf and nextIdx: the assembly only prefetches through them,
// which changes no result.

// gatherGo sets out[t] = self[idx[t]] in increasing t, up to the first
// index outside [0, len(self)), and returns how many elements it moved
// (len(idx) when every index is in range).
func gatherGo[W uint8 | uint16 | uint32 | uint64](out, self []W, idx []int64) int {
	out = out[:len(idx)]
	for t, j := range idx {
		if uint64(j) >= uint64(len(self)) {
			return t
		}
		out[t] = self[j]
	}
	return len(idx)
}

// gather8Go is Gather8's exact loop: gatherGo's.
func gather8Go(out, self []uint8, idx []int64, _ []uint8, _ []int64) int {
	return gatherGo(out, self, idx)
}

// gather16Go is Gather16's exact loop: gatherGo's.
func gather16Go(out, self []uint16, idx []int64, _ []uint16, _ []int64) int {
	return gatherGo(out, self, idx)
}

// gather32Go is Gather32's exact loop: gatherGo's.
func gather32Go(out, self []uint32, idx []int64, _ []uint32, _ []int64) int {
	return gatherGo(out, self, idx)
}

// gather64Go is Gather64's exact loop: gatherGo's.
func gather64Go(out, self []uint64, idx []int64, _ []uint64, _ []int64) int {
	return gatherGo(out, self, idx)
}

// transpose32Go is Transpose32's loop: dst[i·ds + j] = src[j·ss + i].
func transpose32Go(dst, src []uint32, ds, ss, rows, cols int) {
	for j := 0; j < cols; j++ {
		s := src[j*ss : j*ss+rows]
		for i, x := range s {
			dst[i*ds+j] = x
		}
	}
}

// transposeBounds panics unless dst and src hold the blocks that
// Transpose32 reads and writes.
func transposeBounds(dst, src []uint32, ds, ss, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	if ds < cols || ss < rows {
		panic("vec: Transpose32 with overlapping rows")
	}
	_, _ = dst[(rows-1)*ds+cols-1], src[(cols-1)*ss+rows-1]
}
