package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
)

// Note [Short rows as columns]
//
// A reduction over contiguous rows shorter than minInnerLen, [R,
// 10].argmax(1), runs as an outer one (Note [Reduction strategies]): the
// rows are its columns, and each of the row's n positions is folded into
// the tile's states by one call of cols reading every row's element j, a
// load per element at a stride of n elements. For float32 loops without
// conversion, foldColumns first turns blocks of columnsBlock rows into n
// contiguous columns (vec.ColumnsF32: at AVX-512, 16 rows' n vectors
// permuted into n columns of 16, a VPERMPS per vector holding part of a
// column), then folds the columns as an outer reduction of contiguous
// rows does: the register kernels (colsRows) in one call where the op has
// them, else cols on each column. Every state sees the same elements in
// the same order through the same steps as before: the same bits
// (TestShortRowsAsColumns), but for which NaN a product or a sum keeps
// where two meet (0·Inf's NaN and a NaN of the input): the order of the
// operands, which the compiler picks in the generated Go loops, and which
// differs under -race.
//
// Only where vec has the kernel (AVX-512): a copy element by element
// would add to the loads it saves. Rows of up to columnsMaxLen elements:
// the permutes a block of 16 rows
// takes grow as the square of the row's length (m=4: 22 cycles a block,
// 10: 156, 15: 414, in the L2 cache), and past 10 the sums were slower
// than in place. ArgMax and ArgMin (Max and Min) keep the rows in place:
// their colsRows copies the interleaved states in and out around each
// call, and a call per block of a few rows cost more than it saved
// (argmax of [2^23, 2] over dim 1 14.6 → 21.5 ms).
//
// Measured on the 2-core Zen 5 VM, Reduce on preallocated outputs (p50 of
// 3000 calls, alternated in one process): [16384, 4] over dim 1 Sum 20.9
// → 13.1 µs, Amax 26.1 → 11.1; [16384, 10] 41.3 → 34.8 and 58.1 → 28.9.
// On [2^24/m, m] (64 MiB; p50 of 10 runs of 5 calls): m = 2 Sum 12.3 →
// 10.5 ms, Amax 13.4 → 7.4, Prod 13.9 → 10.1; m = 4 8.4 → 6.6, 9.9 →
// 4.6, 9.7 → 5.4; m = 8 7.3 → 6.5, 9.8 → 4.4, 7.5 → 4.8. What is left
// there is per output, not per element: each tile's states made, projected
// and copied out.

// columnsBlock is the number of rows foldColumns turns into columns at
// once; it takes rows of at most columnsMaxLen elements (a variable for
// tests).
const columnsBlock = 256

var columnsMaxLen = 10

// shortRows reports whether the tiles of r, whose columns are cs bytes
// apart, are short float32 rows, one after the other, that foldColumns
// folds (Note [Short rows as columns]).
func (r *reducer) shortRows(cs int) bool {
	if r.lt != dtype.Float32 || r.convert || r.f.index || len(r.rd) != 1 {
		return false
	}
	n := r.rd[0].size
	return r.rd[0].in == r.inES && cs == n*r.inES && n <= columnsMaxLen && vec.ColumnsKernel(n)
}

// foldColumns folds the reduced positions [b, e) of m short rows, cs bytes
// apart from base, into their m states at st (Note [Short rows as
// columns]).
func (f *tileFold) foldColumns(st, base unsafe.Pointer, cs, m, b, e int) {
	r := f.r
	n := r.rd[0].size
	if f.colBuf == nil {
		f.colBuf = getStates(n * columnsBlock / 2)
	}
	cols := unsafe.Slice((*float32)(ptr(*f.colBuf)), n*columnsBlock)
	for k := 0; k < m; k += columnsBlock {
		rows := min(columnsBlock, m-k)
		vec.ColumnsF32(cols, unsafe.Slice((*float32)(unsafe.Add(base, k*cs)), rows*n), n, rows, rows)
		sk := unsafe.Add(st, k*r.f.size)
		if r.f.colsRows != nil {
			r.f.colsRows(sk, unsafe.Pointer(&cols[b*rows]), rows*4, rows, e-b, b)
			continue
		}
		for j := b; j < e; j++ {
			r.f.cols(sk, unsafe.Pointer(&cols[j*rows]), 4, rows, j, &r.c)
		}
	}
}
