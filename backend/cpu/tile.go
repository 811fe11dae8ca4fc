package cpu

import (
	"sync"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
)

// Note [Tiles for crossed operands]
//
// A crossed operand (Note [Crossed operands] in package iter: contiguous
// along plan dim 1, far apart along dim 0) makes a row-by-row walk read one
// element per cache line. Within a Loop2D call of n1 rows of n0 elements,
// the backend walks such a call in tiles of tileRowBytes/size rows by as
// many columns as fill tileBytes: it gathers each crossed input's tile into
// a row-major buffer, reading along dim 1 (runs of 512 contiguous bytes:
// every line it loads is used whole; 4-byte elements in blocks of 8×8
// through vector registers, vec.Transpose32, others eight columns at a
// time), while the lines of every operand's next tile are prefetched
// (vec.Prefetch, by the runs each is contiguous along); then it runs the
// call's usual 2-D loop (the typed rows, the buffered casts, or the copy
// rows) on the tile, with the buffer in place of the operand; a crossed
// output (none today: the output decides the plan's order) gets a buffer
// too, scattered back along dim 1. The other operands are read in place,
// in row segments of the tile's width. 128×128 float32 tiles came out best
// for the transposed 4096×4096 add and copy and for the [64]^4
// permute-and-copy (4-5× faster than the row-by-row walk); narrower tiles
// starve the other operands' row segments, shorter ones the crossed
// operand's runs.
//
// A copy between operands of one dtype whose output rows are at most
// directMaxRowBytes apart gathers each tile straight into the output,
// without the buffer and the copy rows after it. Farther apart, the
// output's rows of a tile share a few cache sets (16 KiB apart, all one
// set), and the 8×8 blocks, which write half a line of each, lose them
// before the next block completes them: copying a transposed float32
// [2^24/w, w] into a contiguous one, alternated in one process, took
// 4.55 ms direct against 5.51 buffered for rows of 256 bytes, 5.86
// against 6.06 for 1 KiB, 7.66 against 5.55 for 2 KiB and 10.1-10.5
// against 5.6-5.7 for 4 and 16 KiB.
//
// The prefetches replaced a touch of one byte of every line of the
// crossed operand's next tile (loads, which hold up the loop until their
// lines arrive), and the vector blocks a scalar loop of eight columns.
// Measured in one process on the 2-core Zen 5 VM (p50 of 100 calls, two
// runs, the builds alternated): the add of a transposed [4096, 4096]
// float32 16.7-17.0 → 8.8-8.9 ms, its copy into a [4096, 4096] 8.2-8.3 →
// 5.7-5.75, and [64]^4 .Permute(0, 2, 3, 1).Contiguous() 7.7-7.9 →
// 4.4-4.45. The vector blocks alone left the add where it was; not
// storing its tiles' rows with non-temporal stores (Note [Streaming
// stores]: an SFENCE per row of 512 bytes) took it to 11.8 ms, and the
// prefetches to 8.8.

// This lives in the backend, not in the iterator, because it is about
// buffers: they hold raw elements of the operand's dtype, come from a pool
// (one set per Loop2D call, like Note [Buffered casts]'s), and the loop run
// on them is the backend's. The iterator's part is to hand each call a band
// of whole rows. Operands that are not crossed are untouched, and every
// element is still computed once from the same inputs by the same loop, so
// results are bit-identical to the row-by-row walk.

const (
	// tileBytes is the size of one crossed operand's tile buffer, and
	// tileRowBytes how many bytes of its dim 1 a tile covers (the tile's
	// rows; iter's bandBytes, so that a band is one row of tiles).
	tileBytes    = 64 << 10
	tileRowBytes = 512
	// directMaxRowBytes is the farthest apart, in bytes, that the output
	// rows of a copy's tiles may be for the tiles to go straight into
	// the output.
	directMaxRowBytes = 1024
)

// tileBuf is one operand's tile buffer, 8-byte aligned.
type tileBuf [tileBytes / 8]uint64

// tileState is the scratch of one tiled call: the buffers of its crossed
// operands, and the data pointers and strides handed to the loop (here, so
// that they need not escape).
type tileState struct {
	buf [4]*tileBuf
	td  [4]unsafe.Pointer
	ts  [8]int
}

var (
	statePool = sync.Pool{New: func() any { return new(tileState) }}
	bufPool64 = sync.Pool{New: func() any { return new(tileBuf) }}
)

// tiled runs loop over n1 rows of n0 elements (the operands' addresses in
// data, strides as in [iter.Loop2D], nops operands of esz bytes each) in tiles, gathering the
// operands in mask (bit k: operand k, outputs first; only operand 0 may be
// an output) through buffers as Note [Tiles for crossed operands] says. A
// nil loop is a copy of operand 1, crossed, into operand 0 of the same
// element size, contiguous along dim 0: each tile is gathered straight
// into the output.
func tiled(loop func(data [4]unsafe.Pointer, strides []int, n0, n1 int), mask uint8, nops int, esz *[4]int,
	data [4]unsafe.Pointer, strides []int, n0, n1 int) {
	minEs, maxEs := 8, 1
	for k := 0; k < nops; k++ {
		if mask&(1<<k) != 0 {
			minEs, maxEs = min(minEs, esz[k]), max(maxEs, esz[k])
		}
	}
	rows := min(n1, tileRowBytes/minEs)
	cols := min(n0, max(1, tileBytes/maxEs/rows))
	st := statePool.Get().(*tileState)
	td, ts := &st.td, &st.ts
	for k := 0; k < nops; k++ {
		if mask&(1<<k) != 0 && loop != nil {
			st.buf[k] = bufPool64.Get().(*tileBuf)
			ts[k] = esz[k]
		} else {
			ts[k], ts[nops+k] = strides[k], strides[nops+k]
		}
	}
	for r0 := 0; r0 < n1; r0 += rows {
		nr := min(rows, n1-r0)
		for c0 := 0; c0 < n0; c0 += cols {
			nc := min(cols, n0-c0)
			// the next tile (to the right, else below), whose lines the
			// prefetches put on their way while this one is worked on
			r1, c1 := r0, c0+cols
			if c1 >= n0 {
				r1, c1 = r0+rows, 0
			}
			for k := 0; k < nops; k++ {
				s0, s1 := strides[k], strides[nops+k]
				if r1 < n1 {
					prefetchTile(unsafe.Add(data[k], r1*s1+c1*s0), s0, s1, esz[k], min(cols, n0-c1), min(rows, n1-r1))
				}
				at := unsafe.Add(data[k], r0*s1+c0*s0)
				switch {
				case mask&(1<<k) == 0:
					td[k] = at
				case loop == nil:
					gather(esz[k], unsafe.Add(data[0], r0*strides[nops]+c0*strides[0]), at, s0, s1, strides[nops], nc, nr)
				case k == 0:
					td[k], ts[nops+k] = unsafe.Pointer(&st.buf[k][0]), nc*esz[k] // an output: scattered below
				default:
					buf := unsafe.Pointer(&st.buf[k][0])
					td[k], ts[nops+k] = buf, nc*esz[k]
					gather(esz[k], buf, at, s0, s1, nc*esz[k], nc, nr)
				}
			}
			if loop == nil {
				continue
			}
			loop(*td, ts[:2*nops], nc, nr)
			if mask&1 != 0 {
				scatter(esz[0], unsafe.Add(data[0], r0*strides[nops]+c0*strides[0]), unsafe.Pointer(&st.buf[0][0]), strides[0], strides[nops], nc, nr)
			}
		}
	}
	for k := 0; k < nops; k++ {
		if b := st.buf[k]; b != nil {
			bufPool64.Put(b)
			st.buf[k] = nil
		}
	}
	st.td = [4]unsafe.Pointer{}
	statePool.Put(st)
}

// prefetchTile prefetches the cols×rows tile of es-byte elements at p
// (element (i, j) at p + j·s0 + i·s1) by its contiguous runs: along dim 1
// for a crossed operand, along dim 0 for the others; a tile contiguous
// along neither is left to the hardware.
func prefetchTile(p unsafe.Pointer, s0, s1, es, cols, rows int) {
	switch {
	case s1 == es:
		for j := 0; j < cols; j++ {
			vec.Prefetch(unsafe.Slice((*byte)(unsafe.Add(p, j*s0)), rows*es))
		}
	case s0 == es:
		for i := 0; i < rows; i++ {
			vec.Prefetch(unsafe.Slice((*byte)(unsafe.Add(p, i*s1)), cols*es))
		}
	}
}

// touch loads a byte of every cache line of the cols runs of n bytes at p,
// p+s0, ..., and returns their sum: the loads bring the lines in order,
// and the loop waits for them (Note [Gather rows]; the tiles of Note
// [Tiles for crossed operands] prefetch instead, without waiting).
func touch(p unsafe.Pointer, s0, cols, n int) uint8 {
	var x uint8
	for j := 0; j < cols; j++ {
		q := unsafe.Add(p, j*s0)
		for b := 0; b < n; b += 64 {
			x += *(*uint8)(unsafe.Add(q, b))
		}
	}
	return x
}

// gather copies the cols×rows block of es-byte elements at src (element (i,
// j) at src + j·s0 + i·s1) into dst row-major, rows ds bytes apart:
// element (i, j) to dst + i·ds + j·es.
func gather(es int, dst, src unsafe.Pointer, s0, s1, ds, cols, rows int) {
	if es == 4 && s1 == 4 && s0%4 == 0 && s0 >= 4*rows && ds%4 == 0 && ds >= 4*cols {
		vec.Transpose32(unsafe.Slice((*uint32)(dst), (rows-1)*ds/4+cols), unsafe.Slice((*uint32)(src), (cols-1)*s0/4+rows), ds/4, s0/4, rows, cols)
		return
	}
	switch es {
	case 1:
		gatherT[uint8](dst, src, s0, s1, ds, cols, rows)
	case 2:
		gatherT[uint16](dst, src, s0, s1, ds, cols, rows)
	case 4:
		gatherT[uint32](dst, src, s0, s1, ds, cols, rows)
	default:
		gatherT[uint64](dst, src, s0, s1, ds, cols, rows)
	}
}

// scatter is gather's inverse: it copies dst[i·cols + j] to element (i, j)
// at out + j·s0 + i·s1.
func scatter(es int, out, src unsafe.Pointer, s0, s1, cols, rows int) {
	switch es {
	case 1:
		scatterT[uint8](out, src, s0, s1, cols, rows)
	case 2:
		scatterT[uint16](out, src, s0, s1, cols, rows)
	case 4:
		scatterT[uint32](out, src, s0, s1, cols, rows)
	default:
		scatterT[uint64](out, src, s0, s1, cols, rows)
	}
}

func gatherT[T uint8 | uint16 | uint32 | uint64](dst, src unsafe.Pointer, s0, s1, rs, cols, rows int) {
	var z T
	es := int(unsafe.Sizeof(z))
	j := 0
	// Eight columns at a time: eight lines in flight, and eight adjacent
	// elements written per row.
	for ; j+8 <= cols; j += 8 {
		p := unsafe.Add(src, j*s0)
		d := unsafe.Add(dst, j*es)
		for i := 0; i < rows; i++ {
			o := unsafe.Add(p, i*s1)
			q := (*[8]T)(unsafe.Add(d, i*rs))
			q[0] = *(*T)(o)
			q[1] = *(*T)(unsafe.Add(o, s0))
			q[2] = *(*T)(unsafe.Add(o, 2*s0))
			q[3] = *(*T)(unsafe.Add(o, 3*s0))
			q[4] = *(*T)(unsafe.Add(o, 4*s0))
			q[5] = *(*T)(unsafe.Add(o, 5*s0))
			q[6] = *(*T)(unsafe.Add(o, 6*s0))
			q[7] = *(*T)(unsafe.Add(o, 7*s0))
		}
	}
	for ; j < cols; j++ {
		p := unsafe.Add(src, j*s0)
		d := unsafe.Add(dst, j*es)
		for i := 0; i < rows; i++ {
			*(*T)(unsafe.Add(d, i*rs)) = *(*T)(unsafe.Add(p, i*s1))
		}
	}
}

func scatterT[T uint8 | uint16 | uint32 | uint64](out, src unsafe.Pointer, s0, s1, cols, rows int) {
	b := unsafe.Slice((*T)(src), cols*rows)
	for j := 0; j < cols; j++ {
		p := unsafe.Add(out, j*s0)
		for i := 0; i < rows; i++ {
			*(*T)(unsafe.Add(p, i*s1)) = b[i*cols+j]
		}
	}
}
