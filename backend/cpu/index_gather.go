package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
)

// Note [Gather prefetch]
//
// A gather whose index reaches only part of each self row (gather_dim1:
// 512 indices into rows of 4096 float32 fall in 46 of the row's 256 cache
// lines, in clusters) loses most of its time to misses that the hardware
// prefetchers cannot foresee, and touching the whole row first (Note
// [Gather rows]) reads the 210 lines it does not need. The prefetching
// primitives (vec.Gather8 ... Gather64) move one chunk of a row while
// issuing a PREFETCHT0 for every element of the next chunk, of this row or
// the next row of the block: exactly the lines the next chunk will read,
// all in flight while this one is moved. On one core, gather_dim1 took
// 1.2–1.3 ms so against 2.2 ms with the touches and 4 ms with neither;
// with indices uniform over the row (most lines read) touching first was
// still faster (2.25 ms against 2.5 ms), so a block whose first row
// reaches at least 3/4 of its lines keeps the touches (dense).
//
// A prefetch is one more load and one more memory operation per element,
// and each chunk a call, which cost where self is in cache anyway or the
// hardware prefetchers follow it: the primitives run only when self is at
// least gatherPrefetchMinBytes, its rows at least gatherPrefetchMinSelfRow
// bytes (rows of 64 float32 with 32 indices each, read nearly in order,
// were 5–25% slower with the prefetches, rows of 256 10–20% faster) and rows of
// indices at least gatherPrefetchMinRow long; the others keep the loops of
// Note [Gather rows]. The prefetches change no result.

// The thresholds of Note [Gather prefetch]. The tests lower them to run
// the path on small cases.
var (
	// gatherPrefetchMinBytes is the smallest self that a gather prefetches
	// from: beyond the 1 MiB L2 of a core.
	gatherPrefetchMinBytes = 4 << 20
	// gatherPrefetchMinSelfRow is the smallest self row, in bytes.
	gatherPrefetchMinSelfRow = 1024
	// gatherPrefetchMinRow is the shortest row of indices.
	gatherPrefetchMinRow = 32
)

// prefetchable reports whether a gather with contiguous rows and self of
// selfBytes bytes prefetches (Note [Gather prefetch]).
func (c *gatherCall) prefetchable(selfBytes int) bool {
	return gatherPrefetch && vec.GatherPrefetch && selfBytes >= gatherPrefetchMinBytes && c.size*c.es >= gatherPrefetchMinSelfRow && c.n >= gatherPrefetchMinRow
}

// gatherPrefetch enables the prefetching path; the package's benchmarks
// turn it off to time the touches of Note [Gather rows] beside it.
var gatherPrefetch = true

// gatherChunkLen is the most elements one call of a prefetching primitive
// moves: a long row is moved in chunks of this many, each prefetching the
// next.
const gatherChunkLen = 512

// gatherChunk is a run of a gather row: n elements from index into out,
// reading the self row at self.
type gatherChunk struct {
	out, index, self unsafe.Pointer
	n                int
}

// dense reports whether the row of indices at the start of a block (byte
// offsets offs) reaches at least 3/4 of its self row's cache lines, among
// its first 4096 indices (Note [Gather prefetch]).
func (c *gatherCall) dense(offs []int) bool {
	rowLines := (c.size*c.es + 63) / 64
	ix := unsafe.Slice((*int64)(unsafe.Add(c.base[1], offs[1])), min(c.n, 4096))
	var seen [64]uint64
	count := 0
	for _, j := range ix {
		line := uint64(j) * uint64(c.es) / 64 % 4096
		w, b := line/64, uint64(1)<<(line%64)
		if seen[w]&b == 0 {
			seen[w] |= b
			count++
		}
	}
	return 4*count >= 3*min(rowLines, 4096)
}

// prefetchLoop is the Loop2D of Note [Gather prefetch]: it moves the
// chunks of its rows in order, each prefetching the next.
func (c *gatherCall) prefetchLoop(offs, strides []int, n0, n1 int) {
	var pending gatherChunk
	c.rows(offs, strides, n0, n1, func(p [3]unsafe.Pointer) {
		for t := 0; t < c.n; t += gatherChunkLen {
			next := gatherChunk{unsafe.Add(p[0], t*c.es), unsafe.Add(p[1], t*8), p[2], min(gatherChunkLen, c.n-t)}
			if pending.n > 0 && !c.moveChunk(pending, next) {
				return
			}
			pending = next
		}
	})
	if pending.n > 0 && !c.errs.bad.Load() {
		c.moveChunk(pending, gatherChunk{})
	}
}

// moveChunk moves chunk a, prefetching what chunk b will read, and
// reports false after reporting an index out of range.
func (c *gatherCall) moveChunk(a, b gatherChunk) bool {
	idx := unsafe.Slice((*int64)(a.index), a.n)
	var moved int
	switch c.es {
	case 1:
		moved = gatherChunkOf(vec.Gather8, c.size, a, b)
	case 2:
		moved = gatherChunkOf(vec.Gather16, c.size, a, b)
	case 4:
		moved = gatherChunkOf(vec.Gather32, c.size, a, b)
	default:
		moved = gatherChunkOf(vec.Gather64, c.size, a, b)
	}
	if moved < a.n {
		c.fail(idx[moved])
		return false
	}
	return true
}

// gatherChunkOf runs the primitive gather on chunk a (self rows of size
// elements), prefetching for chunk b (none when b is empty).
func gatherChunkOf[W uint8 | uint16 | uint32 | uint64](gather func(out, self []W, idx []int64, nextSelf []W, nextIdx []int64) int, size int, a, b gatherChunk) int {
	var nself []W
	if b.n > 0 {
		nself = unsafe.Slice((*W)(b.self), size)
	}
	return gather(unsafe.Slice((*W)(a.out), a.n), unsafe.Slice((*W)(a.self), size), unsafe.Slice((*int64)(a.index), a.n), nself, unsafe.Slice((*int64)(b.index), b.n))
}
