package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Note [Narrow columns]
//
// An outer reduction of contiguous rows of m ≤ 16 columns, [R,
// m].amax(0), keeps a vector of 16 lanes for m states: the float32
// register kernels (Note [Rows in registers]) run one masked vector down
// the rows, each row a step of the chain from one state to the next,
// fold8 adds eight rows of m floats a pass, and the other dtypes' folds
// take a call of cols per row of m elements. Read as rows of w = lcm(m, 16)·k
// columns instead (k the least making w at least 64, four vectors), the
// same memory is [R/g, w] with g = w/m rows of the input to a row of the
// view, and column j of the view holds column j mod m of the input, rows
// g·i + j/m. The view's reduction runs as any outer one (its states in
// r.keep rather than written), then the g lanes of each column are folded
// together, and the last R mod g rows after them, into m states; only
// those are written. A batch of such slabs, [B, R, m].sum(1), is a view
// with a second kept dim, the slabs' lanes kept slab after slab; every
// result is made and checked before the first is written. Each lane sees
// its elements in order, so:
//   - ArgMax, ArgMin, Max and Min take each lane's state, its index turned
//     back into a row of the input, and fold them in the order of those
//     rows: a lane's state holds its first extreme (first NaN), so the
//     first of these in row order is the input's, the same result as one
//     fold down the column.
//   - Amax and Amin fold the lanes in lane order. Their float fold keeps
//     the last NaN and, between equal zeros, the first; where a result is
//     NaN the lanes cannot tell which, and runNarrow declines (before
//     writing anything) and runOuter reduces the input as before, its
//     second read of the input. A zero result is the column's first zero,
//     found by reading down the column from its first row (firstZero, up
//     to firstZeroRows rows before it declines; a ReLU's output has one
//     in its first rows, and declining read the input twice for every
//     column of zeros and negatives).
//   - Sum, NanSum, Mean and Prod combine the lanes' states in lane order:
//     float roundings move, the result is as accurate (TestNarrowColumns)
//     and as independent of the thread count as before; integers' are
//     the same.
// bfloat16 and float16 inputs take the view too, so that their sums keep
// the bits of the same sums of the inputs converted to float32 first
// (TestHalfSums).
//
// Measured on the 2-core Zen 5 VM, [2^24/m, m] float32 over dim 0 (p50 of
// 30 calls, the builds run one after the other; PyTorch beside them):
// m = 2 sum 2.24 → 0.64 ms, Amax 7.8 → 0.76, ArgMax 19.4 → 0.90 (PyTorch
// 3.6, 53, 7.3); m = 4 1.50 → 0.55, 4.9 → 0.75, 10.6 → 1.01 (2.6, 55,
// 8.0); m = 8 1.08 → 0.56, 3.2 → 0.79, 6.4 → 0.88; m = 10 1.03 → 0.61,
// 3.1 → 0.76, 5.5 → 0.82; m = 16 0.77 → 0.55, 1.07 → 0.72, 2.7 → 0.84.
// 0.55 ms is 122 GB/s, the machine's memory speed in that run. float64
// [2^21, 4] over dim 0: sum 19.3 → 2.4 ms, Amax 17.6 → 4.6, ArgMax 16.2 →
// 5.3; int32 [2^22, 4]: sum 41 → 9.9, Amax 56 → 8.4, ArgMax 17 → 7.4.
// Batches, float32 over dim 1: [64, 65536, 3] sum 1.34 → 0.70 ms, Amax
// 5.07 → 0.71, ArgMax 11.1 → 1.16; [1024, 4096, 3] 1.83 → 1.64, 5.24 →
// 1.57, 11.3 → 3.64 (Reduce on preallocated outputs, alternated in one
// process). At GOTEN_CPU=avx2, where the register kernels are Go loops over rows
// of w (vec's twins), float32 [2^22, 4]: sum 9.1 → 1.85 ms, Amax 54 →
// 1.7, ArgMax 8.4 → 5.6 (with argAccRowsF32Go's loop per op).

// narrowKind is how runNarrow folds an op's lanes together.
type narrowKind uint8

const (
	narrowNone    narrowKind = iota
	narrowOrdered            // fold the lanes in lane order (sums, products)
	narrowChecked            // fold in lane order, a zero result the column's first, declined on a NaN (Amax, Amin)
	narrowIndexed            // fold in the order of the states' indices (ArgMax, ArgMin, Max, Min)
)

// narrowKindOf is the narrowKind of op.
func narrowKindOf(op *optable.Op) narrowKind {
	switch op {
	case optable.Sum, optable.NanSum, optable.Mean, optable.Prod:
		return narrowOrdered
	case optable.Amax, optable.Amin:
		return narrowChecked
	case optable.ArgMax, optable.ArgMin, optable.Max, optable.Min:
		return narrowIndexed
	}
	return narrowNone
}

const (
	narrowMinWidth = 64  // the view's rows have at least this many columns (four vectors)
	narrowMaxArg   = 128 // widest view of an indexed op (the arg kernels' block)
	narrowMaxWidth = 256 // widest view of the others (the register kernels' block)
)

// narrowMinRows is the fewest rows of a view (a variable for tests).
var narrowMinRows = 16

// narrowWidth is the width of the view of rows of m columns (Note [Narrow
// columns]), or 0 where none fits kind.
func narrowWidth(m int, kind narrowKind) int {
	w := m
	for w%16 != 0 {
		w += m
	}
	for w < narrowMinWidth {
		w *= 2
	}
	if kind == narrowIndexed && w > narrowMaxArg || w > narrowMaxWidth {
		return 0
	}
	return w
}

// runNarrow reduces an outer reduction of contiguous rows of at most 16
// columns, in one slab or a batch of them, through a view of wider rows
// (Note [Narrow columns]); it returns false, having written nothing,
// where it does not apply.
func (r *reducer) runNarrow(op *optable.Op) bool {
	kind := narrowKindOf(op)
	if kind == narrowNone || len(r.rd) != 1 || len(r.kd) == 0 || len(r.kd) > 2 {
		return false
	}
	// the columns: the kept dim of unit stride; the other, if any, a batch
	// of slabs of rows
	ci := 0
	if r.kd[0].in != r.inES {
		ci = len(r.kd) - 1
	}
	col, red, batch := r.kd[ci], r.rd[0], redDim{size: 1}
	if len(r.kd) == 2 {
		batch = r.kd[1-ci]
	}
	m := col.size
	if m > 16 || col.in != r.inES || red.in != m*r.inES {
		return false
	}
	w := narrowWidth(m, kind)
	if w == 0 || red.size/(w/m) < narrowMinRows {
		return false
	}
	if kind == narrowChecked && r.lt.IsFloat() && r.f.size != r.lt.Size() || kind == narrowIndexed && r.f.size != argStateSize {
		return false // states of another layout than the folds' of elem
	}
	g := w / m
	rows := red.size / g
	view := *r
	view.kd = append(view.kdBuf[:0], redDim{size: w, in: r.inES})
	if batch.size > 1 {
		view.kd = append(view.kd, redDim{size: batch.size, in: batch.in})
	}
	view.rd = append(view.rdBuf[:0], redDim{size: rows, in: w * r.inES})
	view.R, view.K = rows, w*batch.size
	// the lanes' states, slab after slab, then the results', then a slab's
	// last rows'
	lanesWords, outWords := r.words(w*batch.size), r.words(m*batch.size)
	buf := getStates(lanesWords + outWords + r.words(m))
	defer statesPool.Put(buf)
	lanes, outs, last := ptr(*buf), ptr((*buf)[lanesWords:]), ptr((*buf)[lanesWords+outWords:])
	view.keep = lanes
	view.runOuter()

	size := r.f.size
	state := func(base unsafe.Pointer, j int) unsafe.Pointer { return unsafe.Add(base, j*size) }
	work := getWork()
	defer work.put()
	for b := 0; b < batch.size; b++ {
		in, lanes := unsafe.Add(r.in, b*batch.in), state(lanes, b*w)
		// the last R mod g rows, with their own indices
		tail := rows*g < red.size
		if tail {
			r.f.init(last, m)
			for i := rows * g; i < red.size; i++ {
				r.colsConv(last, unsafe.Add(in, i*red.in), col.in, m, i, work)
			}
		}
		if kind == narrowIndexed {
			// a lane's index counts the view's rows: back to the input's
			for j := 0; j < w; j++ {
				i := argIndex(state(lanes, j))
				*i = *i*int64(g) + int64(j/m)
			}
		}
		for c := 0; c < m; c++ {
			var from [narrowMinWidth + 1]unsafe.Pointer // column c's lanes (g < narrowMinWidth), then its last rows
			n := 0
			for k := 0; k < g; k++ {
				from[n] = state(lanes, c+k*m)
				n++
			}
			if tail {
				from[n] = state(last, c)
				n++
			}
			if kind == narrowIndexed {
				byIndex(from[:n])
			}
			dst := state(outs, b*m+c)
			copy(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(from[0]), size))
			for _, src := range from[1:n] {
				r.f.combine(dst, src, 1, &r.c)
			}
			if kind == narrowChecked && nanOrZero(dst, r.lt) && !r.firstZero(dst, unsafe.Add(in, c*r.inES), red) {
				return false
			}
		}
	}
	for b := 0; b < batch.size; b++ {
		var o [2]unsafe.Pointer
		for k := 0; k < r.nout; k++ {
			o[k] = unsafe.Add(r.out[k], b*batch.out[k])
		}
		r.write(state(outs, b*m), m, o, col.out, work)
	}
	return true
}

// argStateSize and argIndexAt are the size of an elem.Arg state whose
// index follows a value of 8 bytes, and the index's offset: the layout
// runNarrow reads (states of smaller values have it too where int64 is
// aligned to 8 bytes; on 386 they are smaller, and declined).
const (
	argStateSize = int(unsafe.Sizeof(elem.Arg[float64]{}))
	argIndexAt   = unsafe.Offsetof(elem.Arg[float64]{}.I)
)

// argIndex is the index of the elem.Arg state at st.
func argIndex(st unsafe.Pointer) *int64 { return (*int64)(unsafe.Add(st, argIndexAt)) }

// byIndex sorts elem.Arg states by their indices (insertion: a column's
// few lanes).
func byIndex(sts []unsafe.Pointer) {
	for i := 1; i < len(sts); i++ {
		for k := i; k > 0 && *argIndex(sts[k]) < *argIndex(sts[k-1]); k-- {
			sts[k], sts[k-1] = sts[k-1], sts[k]
		}
	}
}

// firstZero sets the state at dst, a zero, to the first zero of the
// column at col (the zero a fold down the column keeps), for inputs of the
// loop dtype, float32 or float64, where one is among its first
// firstZeroRows rows; it reports false, having set nothing, otherwise (a
// NaN state among them).
func (r *reducer) firstZero(dst, col unsafe.Pointer, red redDim) bool {
	if r.convert {
		return false
	}
	rows := min(red.size, firstZeroRows)
	switch r.lt {
	case dtype.Float32:
		return firstZeroOf[float32](dst, col, rows, red.in)
	case dtype.Float64:
		return firstZeroOf[float64](dst, col, rows, red.in)
	}
	return false
}

// firstZeroOf is firstZero over rows elements of T, stride bytes apart.
func firstZeroOf[T float32 | float64](dst, col unsafe.Pointer, rows, stride int) bool {
	if *(*T)(dst) != 0 {
		return false
	}
	for i := 0; i < rows; i++ {
		if v := *(*T)(unsafe.Add(col, i*stride)); v == 0 {
			*(*T)(dst) = v
			return true
		}
	}
	return false
}

// firstZeroRows bounds firstZero's read down a column: past it, reading
// the input again with runOuter costs less than the rest of the column
// read a line per element.
const firstZeroRows = 1024

// nanOrZero reports whether the state at st, a value of the loop dtype
// lt, is a NaN or a zero (never for dtypes other than float32 and
// float64).
func nanOrZero(st unsafe.Pointer, lt dtype.DType) bool {
	switch lt {
	case dtype.Float32:
		return nanOrZeroOf[float32](st)
	case dtype.Float64:
		return nanOrZeroOf[float64](st)
	}
	return false
}

// nanOrZeroOf is nanOrZero of a T.
func nanOrZeroOf[T float32 | float64](st unsafe.Pointer) bool {
	v := *(*T)(st)
	return v != v || v == 0
}
