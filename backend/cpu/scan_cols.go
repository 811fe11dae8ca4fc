package cpu

import (
	"math"
	"sync"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
)

// Note [Row ops over an outer dim]
//
// softmax(M, 0) walks rows that run down the columns of M: each element of
// a row is a whole matrix row away from the next. Gathering such a row
// reads one element per cache line (and, with power-of-two strides, lines
// that share a few cache sets), so the gather path ran softmax over dim 0
// of a 4096×4096 matrix at 12× PyTorch's time. When the plan's fastest dim
// is contiguous for every operand, rowColsWidth neighbouring rows are
// computed together instead, as PyTorch's vectorised outer softmax does:
// each step t of the rows is a contiguous run x[t, j:j+w], so every pass is
// a vectorised elementwise op between that run and a w-wide accumulator
// (the running max; the sums of the exponentials, in float64 for float32).
// The block of w columns (w·rows·4 bytes per operand, 4 MiB at w = 256 and
// 4096 rows) is read three times; the later passes find it in the caches.
// The arithmetic is the contiguous rows' (softmaxRowF32's): e^(x-max) in
// the loop dtype, scaled by 1/sum; specials need no fallback, since the
// elementwise ops carry NaN and infinities through as the scalar loops do
// (an infinite or NaN max gives NaN, as in PyTorch).

// rowColsWidth is the number of neighbouring rows computed together.
const rowColsWidth = 256

// rowColsMin is the fewest neighbouring rows worth the path: below it the
// per-step calls cost more than gathering the rows one by one.
const rowColsMin = 8

// rowColsFn computes a row op over w neighbouring rows of n elements:
// element t of row j of x is at x + t·xs + j·es (likewise y). scratch holds
// at least 4·w float64s.
type rowColsFn func(y, x unsafe.Pointer, ys, xs, n, w int, scratch []float64)

// rowColsTable is rowTable's outer-dim path [op code][loop dtype]; nil
// where an op has none.
var rowColsTable = make([][dtype.Count]rowColsFn, optable.NumCodes())

func init() {
	rowColsTable[optable.Softmax.Code] = [dtype.Count]rowColsFn{dtype.Float32: softmaxColsF32, dtype.Float64: softmaxColsF64}
	rowColsTable[optable.LogSoftmax.Code] = [dtype.Count]rowColsFn{dtype.Float32: logSoftmaxColsF32, dtype.Float64: logSoftmaxColsF64}
}

// runAt returns the w elements of step t of a block at p with byte stride st.
func runAt[T float](p unsafe.Pointer, t, st, w int) []T {
	return unsafe.Slice((*T)(unsafe.Add(p, t*st)), w)
}

// f32Scratch returns two float32 slices of w and one float64 slice of w
// from scratch.
func f32Scratch(scratch []float64, w int) (a, b []float32, s []float64) {
	f := unsafe.Slice((*float32)(unsafe.Pointer(&scratch[0])), 2*w)
	return f[:w], f[w:], scratch[w : 2*w]
}

// colsMaxF32 sets m to the max of the n steps of a block, NaN where a row
// has one.
func colsMaxF32(m []float32, x unsafe.Pointer, xs, n, w int) {
	copy(m, runAt[float32](x, 0, xs, w))
	for t := 1; t < n; t++ {
		vec.MaximumF32(m, m, runAt[float32](x, t, xs, w))
	}
}

func softmaxColsF32(y, x unsafe.Pointer, ys, xs, n, w int, scratch []float64) {
	m, sum, s := f32Scratch(scratch, w)
	colsMaxF32(m, x, xs, n, w)
	clear(s)
	for t := 0; t < n; t++ {
		yt := runAt[float32](y, t, ys, w)
		vec.SubF32(yt, runAt[float32](x, t, xs, w), m)
		vec.ExpF32(yt, yt)
		vec.AccF32F64(s, yt)
	}
	// a division, not a product by 1/sum: PyTorch's kernel over a dim
	// other than the last divides (Note [bfloat16 log_softmax] in
	// package op)
	for j := range sum {
		sum[j] = float32(s[j])
	}
	for t := 0; t < n; t++ {
		yt := runAt[float32](y, t, ys, w)
		vec.DivF32(yt, yt, sum)
	}
}

func logSoftmaxColsF32(y, x unsafe.Pointer, ys, xs, n, w int, scratch []float64) {
	m, e, s := f32Scratch(scratch, w)
	colsMaxF32(m, x, xs, n, w)
	clear(s)
	for t := 0; t < n; t++ {
		vec.SubF32(e, runAt[float32](x, t, xs, w), m)
		vec.ExpF32(e, e)
		vec.AccF32F64(s, e)
	}
	ls := e
	for j := range ls {
		ls[j] = float32(math.Log(s[j]))
	}
	// (x - max) - log(sum), in that order (see logSoftmaxRowF32)
	for t := 0; t < n; t++ {
		yt := runAt[float32](y, t, ys, w)
		vec.SubF32(yt, runAt[float32](x, t, xs, w), m)
		vec.SubF32(yt, yt, ls)
	}
}

// colsMaxF64 is colsMaxF32 for float64.
func colsMaxF64(m []float64, x unsafe.Pointer, xs, n, w int) {
	copy(m, runAt[float64](x, 0, xs, w))
	for t := 1; t < n; t++ {
		vec.MaximumF64(m, m, runAt[float64](x, t, xs, w))
	}
}

func softmaxColsF64(y, x unsafe.Pointer, ys, xs, n, w int, scratch []float64) {
	m, s := scratch[:w], scratch[w:2*w]
	colsMaxF64(m, x, xs, n, w)
	clear(s)
	for t := 0; t < n; t++ {
		yt := runAt[float64](y, t, ys, w)
		vec.SubF64(yt, runAt[float64](x, t, xs, w), m)
		vec.ExpF64(yt, yt)
		vec.AddF64(s, s, yt)
	}
	for t := 0; t < n; t++ { // a division (see softmaxColsF32)
		yt := runAt[float64](y, t, ys, w)
		vec.DivF64(yt, yt, s)
	}
}

func logSoftmaxColsF64(y, x unsafe.Pointer, ys, xs, n, w int, scratch []float64) {
	m, s, e := scratch[:w], scratch[w:2*w], scratch[2*w:3*w]
	colsMaxF64(m, x, xs, n, w)
	clear(s)
	for t := 0; t < n; t++ {
		vec.SubF64(e, runAt[float64](x, t, xs, w), m)
		vec.ExpF64(e, e)
		vec.AddF64(s, s, e)
	}
	for j := range s {
		s[j] = math.Log(s[j])
	}
	for t := 0; t < n; t++ {
		yt := runAt[float64](y, t, ys, w)
		vec.SubF64(yt, runAt[float64](x, t, xs, w), m)
		vec.SubF64(yt, yt, s)
	}
}

// Note [Converted outer rows]
// A row op whose operands need converting to the loop dtype (softmax of
// bfloat16 or float16 computes in float32) takes the outer-dim path too:
// each block of colsWidth neighbouring rows is converted, one contiguous
// run per step, into a loop-dtype block, computed there in place, and
// converted back into the output. The arithmetic is the unconverted
// path's, between the same conversions the gather path makes, and the
// runs are vectorised conversions where the gather path converted one
// strided element at a time (softmax over dim 0 of a 2048×770 bfloat16
// ran 4× slower than PyTorch that way). The block holds at most
// colsBlockBytes, so that it stays in the caches between the passes:
// colsWidth shrinks for long rows, and rows too long for rowColsMin of them
// take the gather path.

// colsBlockBytes bounds the loop-dtype block of Note [Converted outer
// rows].
var colsBlockBytes = 2 << 20

// colsBlocks recycles the blocks of Note [Converted outer rows], which
// are too large to allocate afresh for every call.
var colsBlocks sync.Pool

// getColsBlock returns a block of at least words words from colsBlocks.
func getColsBlock(words int) []uint64 {
	if b, ok := colsBlocks.Get().(*[]uint64); ok && len(*b) >= words {
		return *b
	}
	return make([]uint64, words)
}

// rowColsBlock runs the outer-dim path over n0 neighbouring rows; block,
// when not nil, is the loop-dtype block of Note [Converted outer rows]
// after a staging buffer of bufLen words.
func (s *scanner) rowColsBlock(ptrs [4]unsafe.Pointer, n0 int, scratch []float64, block []uint64) {
	in := s.nout
	for c0 := 0; c0 < n0; c0 += s.colsWidth {
		w := min(s.colsWidth, n0-c0)
		y, x := unsafe.Add(ptrs[0], c0*s.esz[0]), unsafe.Add(ptrs[in], c0*s.esz[in])
		if block == nil {
			s.rowCols(y, x, s.dimSt[0], s.dimSt[in], s.n, w, scratch)
			continue
		}
		stage, b, bs := ptr(block), ptr(block[bufLen:]), w*s.es
		for t := 0; t < s.n; t++ {
			s.convertRun(in, unsafe.Add(b, t*bs), unsafe.Add(x, t*s.dimSt[in]), s.es, s.esz[in], w, stage)
		}
		s.rowCols(b, b, bs, bs, s.n, w, scratch)
		for t := 0; t < s.n; t++ {
			s.convertRun(0, unsafe.Add(y, t*s.dimSt[0]), unsafe.Add(b, t*bs), s.esz[0], s.es, w, stage)
		}
	}
}

// convertRun moves m elements between operand k and a loop-dtype buffer
// (byte strides ds and ss), converting them where operand k needs it.
func (s *scanner) convertRun(k int, dst, src unsafe.Pointer, ds, ss, m int, stage unsafe.Pointer) {
	if s.cvt[k] {
		s.conv[k].run(dst, src, ds, ss, m, stage)
		return
	}
	copyStrided2(dst, src, ds, ss, s.es, m)
}
