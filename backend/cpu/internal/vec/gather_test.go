package vec

import (
	"fmt"
	"math"
	"testing"
)

// The gather primitives against an independent loop: every length from 0
// to 40 and a long one, indices out of range (too large, negative) at each
// position of an unrolled group, and prefetch chunks shorter and longer
// than the gathered one holding wild indices, which must change nothing.

// gatherCheck runs gather (Gather<bits> on W) on one case and checks what
// it returns and what it wrote: the elements before the first bad index,
// and nothing at or after it.
func gatherCheck[W uint8 | uint16 | uint32 | uint64](t *testing.T, name string, gather func(out, self []W, idx []int64, ns []W, ni []int64) int, self []W, idx []int64, ns []W, ni []int64) {
	t.Helper()
	const sentinel = 0x5a
	out := make([]W, len(idx)+1)
	for i := range out {
		out[i] = sentinel
	}
	want := len(idx)
	for k, j := range idx {
		if j < 0 || j >= int64(len(self)) {
			want = k
			break
		}
	}
	if got := gather(out[:len(idx)], self, idx, ns, ni); got != want {
		t.Fatalf("%s: returned %d, want %d", name, got, want)
	}
	for k := range out {
		w := W(sentinel)
		if k < want {
			w = self[idx[k]]
		}
		if out[k] != w {
			t.Fatalf("%s: out[%d] = %#x, want %#x", name, k, out[k], w)
		}
	}
}

func testGather[W uint8 | uint16 | uint32 | uint64](t *testing.T, bits int, gather func(out, self []W, idx []int64, ns []W, ni []int64) int) {
	self := make([]W, 300)
	for i := range self {
		self[i] = W(rng.Uint64())
	}
	wild := []int64{math.MaxInt64, math.MinInt64, -1, 1 << 40, 299, 0}
	for _, n := range append([]int{1000}, func() []int {
		var ns []int
		for n := 0; n <= 40; n++ {
			ns = append(ns, n)
		}
		return ns
	}()...) {
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(rng.Intn(len(self)))
		}
		for _, pn := range []int{0, n / 2, n, n + 7} {
			ni := make([]int64, pn)
			for i := range ni {
				ni[i] = wild[rng.Intn(len(wild))]
				if rng.Intn(2) == 0 {
					ni[i] = int64(rng.Intn(len(self)))
				}
			}
			name := fmt.Sprintf("Gather%d/n=%d/next=%d", bits, n, pn)
			gatherCheck(t, name, gather, self, idx, self, ni)
			for bad := range min(n, 9) {
				for _, b := range []int64{int64(len(self)), -1, math.MinInt64} {
					k := n - 1 - bad
					if bad%2 == 0 {
						k = bad
					}
					old := idx[k]
					idx[k] = b
					gatherCheck(t, fmt.Sprintf("%s/idx[%d]=%d", name, k, b), gather, self, idx, self, ni)
					idx[k] = old
				}
			}
		}
	}
	gatherCheck(t, fmt.Sprintf("Gather%d/empty self", bits), gather, nil, []int64{0}, nil, nil)
}

func TestGather(t *testing.T) {
	testGather(t, 8, Gather8)
	testGather(t, 16, Gather16)
	testGather(t, 32, Gather32)
	testGather(t, 64, Gather64)
	testGather(t, 8, gather8Go)
	testGather(t, 64, gather64Go)
}

// TestPrefetch runs Prefetch on slices of every alignment and length
// around a cache line, the empty one and one ending a page's worth of
// bytes: it must leave every byte as it was (and not fault).
func TestPrefetch(t *testing.T) {
	b := make([]byte, 4096+192)
	for i := range b {
		b[i] = byte(7*i + 3)
	}
	Prefetch(nil)
	for off := 0; off < 130; off++ {
		for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 4096} {
			Prefetch(b[off : off+n])
		}
	}
	Prefetch(b[len(b)-1:])
	for i, x := range b {
		if x != byte(7*i+3) {
			t.Fatalf("byte %d changed to %#x", i, x)
		}
	}
}

// TestTranspose32 checks Transpose32 against an independent loop on every
// size from 0 to 19 each way, and a large block, with row strides wider
// than the block; elements outside the block must stay as they were.
func TestTranspose32(t *testing.T) {
	sizes := []int{}
	for n := 0; n < 20; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 67)
	for _, rows := range sizes {
		for _, cols := range sizes {
			for _, pad := range []int{0, 3} {
				ds, ss := cols+pad, rows+2*pad
				src := make([]uint32, max(1, cols*ss))
				for k := range src {
					src[k] = uint32(k)*2654435761 + 1
				}
				dst := make([]uint32, max(1, rows*ds))
				for k := range dst {
					dst[k] = 0xdeadbeef
				}
				if rows > 0 && cols > 0 {
					Transpose32(dst, src, ds, ss, rows, cols)
				}
				for i := 0; i < rows; i++ {
					for j := 0; j < ds; j++ {
						want := uint32(0xdeadbeef)
						if j < cols {
							want = src[j*ss+i]
						}
						if got := dst[i*ds+j]; got != want {
							t.Fatalf("%dx%d pad %d: dst[%d][%d] = %#x, want %#x", rows, cols, pad, i, j, got, want)
						}
					}
				}
			}
		}
	}
}
