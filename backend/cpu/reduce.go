package cpu

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Note [Reduction strategies]
//
// Reduce is one generic kernel: it takes a reduction as its pieces (init,
// accumulate, combine, project: the op's optable.Fold, Note [Scalar
// meaning] in package optable) and chooses how
// to walk the plan (PyTorch's binary_kernel_reduce_vec and parallel_reduce):
//
//   - full: one output. The reduced elements are split into chunks fixed by
//     their number alone (parallel.Chunks), each folded into its own state
//     on a worker, and the chunk states combined in chunk order, so the
//     result does not depend on the number of workers.
//   - inner: the reduced dim the plan puts first is contiguous in the input
//     (and long enough). Each output folds its rows with the op's row
//     function (vectorised where it matters; float32 sums, products and
//     2-norms fold a group of outputs in one call, Note [Rows in one
//     call]); workers take ranges of outputs.
//   - outer: otherwise. A tile of up to outerWidth outputs along the kept dim
//     where the input is densest keeps its states in one buffer, and every
//     reduced position adds a row of the input to them at once with the
//     op's cols function (vectorised across outputs; float32 sums add eight
//     rows per pass, Note [Outer streams]); workers take tiles, and when there are too few tiles
//     the reduced positions are split too, each chunk into its own states,
//     combined in chunk order. Tiles span whole rows where they can, so
//     memory is read in order.
//
// Every output is computed by one worker in a fixed order, so results are
// reproducible. Inputs of another dtype than the loop's are converted in
// chunks of bufLen elements (Note [Buffered casts]); results go through a
// small buffer and are converted to the outputs' dtypes.
//
// Note [Cascade sums]
//
// float32 sums (Sum, NanSum, Mean; float16 and bfloat16 too, which
// compute in float32) are a cascade of two precisions: the vectorised row
// sum takes 256 elements at a time as 16 vectors of 16 lanes, adds them
// lane by lane pairwise in float32 (four levels, so at most four roundings
// per element), and adds each lane's sum into a float64 lane
// (vec.SumF32F64; Note [Sixteen lanes] in internal/vec; long rows, and
// groups of rows, are read as four streams, Note [Four streams]); an outer
// reduction adds eight rows pairwise in float32 (vec.SumRows8F32,
// vec.AccRows8F32: rows j, j+q, ..., j+7q of a chunk of 8q rows, Note
// [Outer streams]), adds eight such passes in a float32 block (64 rows,
// at most ten roundings per element), and the block to its float64
// states; the chunk's last rows one by one. bfloat16 and float16 rows are
// converted as they are read (vec.SumBF16F64, vec.SumF16F64), with no buffer. The float32
// levels keep most of the work in float32 vectors, at the speed of memory
// like PyTorch's float32 cascade; the float64 levels keep the accuracy:
// the sum of 2^24 float32 values comes within an ulp of the exact sum,
// where PyTorch's cascade can be a few ulps off (TestSumAccuracy). The
// order of every addition is fixed by the data's length alone, so a
// result does not depend on the machine or the thread count.
// float64 sums have no wider type: like PyTorch's cascade_sum they fold
// their elements in blocks — innerBlock elements of a row, or outerBlock
// rows of an outer reduction — each into a fresh state, and combine the
// block states pairwise, like a binary counter (level k holds the
// combination of 2^k blocks), so the error grows with log(n) instead of n;
// within a block the row functions keep several partial sums. Norm
// (but float32's 2-norm, whose squares go into float64 lanes like the
// float32 sum, Note [Rows in one call]) and Var/Std (float64 Welford
// states) cascade the same way.
//
// Note [Outer streams]
//
// An outer float32 sum reads eight rows at once, and which eight matters
// to the memory system, not to the accuracy: any eight rows are added
// pairwise in float32. Eight consecutive rows make eight streams that end
// after one row (16 KiB in M.sum(0) of [4096, 4096]) and start again at
// the next eight, or, for short rows, one stream read out of order
// (T3.sum(1), rows of 1 KiB); the hardware prefetchers follow neither
// well. fold8 takes rows j, j+q, ..., j+7q of a chunk of 8q rows instead:
// eight streams, each running through a q-th of the chunk in order.
// Measured in one process, interleaved, one thread, on this Zen 5: M.sum(0)
// 2.53 → 2.37 ms with the spread rows; T3.sum(1) 3.44 → 2.56 ms.
//
// Each pass's sums go into a float32 block, and the block into the
// float64 states every rows8Passes passes: a float64 state per pass was
// as many bytes of state read and written as a quarter of the input, and
// the pass ran 10-15% slower than with the float32 block (an eighth of
// the input). The kernels prefetch nothing: with the float32 block, each
// row prefetched 1 KiB ahead was 5-10% slower. Measured on the chunks of
// M.sum(0), variants interleaved 60 times in one process: one thread
// 1.54 → 1.38 ms (p10), two 1.03 → 0.92 ms (a plain sum of the same 64
// MiB: 1.18 and 0.93). The grouping is
// fixed by the chunk, which is fixed by the shape (runOuter), so results
// still do not depend on the thread count.
//
// The block is what keeps M.sum(0) behind a plain sum. It does not stay
// in L1 from one pass to the next: between two passes over a column,
// eight rows of 16 KiB go through the cache, so each pass reads its block
// from L2. Measured on the 2-core Zen 5 VM with two goroutines, each
// folding two of M.sum(0)'s four chunks (p10 of 90 calls, variants
// alternated in one process, several runs): the fold took 10-20% longer
// than one plain read of the same 64 MiB in four streams. The same adds
// with their sums kept in registers and no block ran as fast as a plain
// eight-stream read (which is 0-6% behind four streams). With the block's
// load but no store, they ran as slowly as the real kernel. What would
// keep the block in L1 costs more than it saves:
//   - Passes over column blocks of a page (4 KiB of each row, stride 16
//     KiB): 10% slower. Halves: 4% slower.
//   - Two passes per call (16 rows, half the block loads, 16 streams):
//     15% slower.
//   - Prefetching the block 1 or 4 KiB ahead, or the rows with
//     PREFETCHNTA: no measurable change.
//
// A float32 loop over bfloat16 or float16 rows takes the same path with
// kernels that convert the eight rows as they read them (the op's
// cols8BF16 and cols8F16): the same bits as the rows converted to float32
// first. Before, each row went through a conversion buffer and was added
// into the float64 states alone: 2048×768 bfloat16 summed over dim 0 took
// 0.85-0.90 ms, now 0.24-0.30 (Zen 3, two threads, another process
// holding a core; float32 of the same shape 0.21-0.26).

// Note [Rows in registers]
//
// An outer float32 Amax, Amin, Prod, ArgMax or ArgMin (and Max, Min with a
// dim) over contiguous columns folds each run of reduced positions (a run
// along the innermost reduced dim) with one call of its colsRows function
// (vec.MaxAccRowsF32, MinAccRowsF32, MulAccRowsF32, ArgMaxAccRowsF32,
// ArgMinAccRowsF32), not one call of cols per row. At AVX-512 the kernel
// keeps a block of 256 columns in sixteen ZMM registers from the run's
// first row to its last (and the last fewer than 256 in one more block of
// as many vectors, its last under a mask), so the states are loaded and
// stored once a block instead of once a row, and a row costs no call. Each element sees the rows in the same
// order, through the same steps, as the calls per row (VMAXPS(x, d), then
// x where x is NaN; d·x for the product): the same bits, NaN payloads and
// zeros' signs included (TestMaxAccRowsF32). Below AVX-512 the function
// calls MaxAccF32 per row, without the reducer's call chain. Measured in
// one process on the 2-core Zen 5 VM, the builds alternated (p50 of 90
// calls): T3.amax(1) of [64, 1024, 256] 1.66-1.69 → 1.31-1.33 ms,
// M.amax(0) of [4096, 4096] 2.06-2.19 → 1.56-1.60, [256, 65536] over dim 0
// 2.84-2.90 → 2.19-2.22, and [2^20, 16] over dim 0, whose rows of 64 bytes
// each cost a call, 8.7-8.8 → 2.35. The arg kernels keep 128 columns'
// values in eight ZMM registers and their int64 indices in sixteen; an
// element replaces its state under one compare, NLE_US (x > v or
// unordered) masked by the lanes whose value is ordered, so that the first
// NaN stays. Their states, interleaved elem.Arg pairs, are copied to
// separate values and indices around each call. ArgMax over dim 0 took the
// generated scalar loop before: [4096, 4096] 8.4-8.6 → 2.0 ms, [2^20, 16]
// 12.2-12.3 → 3.4-3.5 (PyTorch 52 and 15). Rows narrower than a vector
// took a call of the Go twin per row before the masked block: [2^22, 4]
// over dim 0, Amax 49 → 5.1 ms, Prod 50 → 4.6 (PyTorch 53 and 15). Its
// ArgMax (12 → 10.9 ms; PyTorch 5.5) is held by the chain from one row's
// state to the next: with one vector, nothing hides the two compares' and
// the masked move's latency (Note [Narrow columns] reads such rows as
// wider ones).
//
// The last block was first cut into blocks of one vector, each read down
// every row: [2^24/48, 48].amax(0) took three passes over the rows,
// 2.8-3.0 ms, ArgMax 4.4-4.7; in one block of three vectors 1.5-1.8 and
// 1.7-1.9, runs minutes apart (the machine's memory slower in the second).
//
// An outer float32 sum over one reduced dim whose tiles are at most
// cols8RunMaxWidth columns runs fold8 over a chunk in one call too
// (cols8Run: vec.SumRows8RunF32): the same passes of eight spread rows,
// the float32 block and the float64 states of up to 64 columns in ZMM
// registers through all of them, then the chunk's last rows one by one,
// as before; the same bits. A pass over narrow rows was a call for a few
// hundred bytes. Alternated in one process, sum(0) of [2^24/w, w]
// float32 (p50 of 45 calls, two runs): w = 16 1.97-1.99 → 0.97-1.01 ms,
// 64 1.47-1.48 → 0.79-0.81, 128 1.15 → 0.80, 256 1.13-1.14 → 0.85-0.92,
// 384 1.08 → 0.83; but 512 0.86 → 1.20, 1024 0.81-0.87 → 1.68-1.70 and
// 4096 0.89-0.90 → 1.54-1.59, where the kernel's blocks of 64 columns
// read each row in eight or more passes down the chunk.

// Note [Few long chunks]
//
// When an outer reduction has fewer tiles than outerMinTiles (M.sum(0) of
// [4096, 4096] has one), its reduced positions are split into chunks of
// rows, each folded into states of its own and the states combined in
// chunk order; the chunks are fixed by the shape, so the bits do not
// depend on the thread count. Fewer, longer chunks read memory faster:
// each is one long run of rows for fold8's streams, and there are fewer
// states to combine. Measured on the 2-core Zen 5 VM, the same process
// alternating the splits 10 times (µs at p50, two runs): M.sum(0)
// 8 chunks 818-855, 4 776-796, 2 749-763; [512, 4096] 73, 66, 64;
// [2048, 768] bfloat16 63, 46, 44; [16384, 1024] 779, 783, 796. But a
// chunk is also what a late helper (Note [Spinning workers] in package
// internal/parallel) leaves to the caller: with helpers that parked after
// 50 µs, M.sum(0) in 2 chunks took 0.93-1.8 ms, in 8 chunks 0.86-1.0.
// outerMaxSplit is 4, between the two.
// A machine with more workers than chunks splits each chunk's columns
// among them as well, in blocks of at least outerMinSubWidth columns that
// are multiples of 64, so that every column is added in the same order and
// in the same place of the vector loops as when one task holds the whole
// chunk: the same bits, for any number of threads (TestOuterSplitAnyProcs).
// Two workers are not enough to split: splitting M.sum(0)'s chunks into
// halves of 2048 columns made it slower (2 chunks: 637-682 µs whole,
// 673-749 in halves).

// Note [Rows in one call]
//
// An inner float32 sum (Sum, Mean), product or 2-norm over contiguous
// rows folds each group of outputs with one call of the op's rows
// function (vec.SumRowsF32F64, vec.ProdRowsF32, vec.SumSqRowsF32F64),
// whose assembly loops over the rows, instead of a call of row per
// output. Each row's result is the same as the call per row gives, so the
// bits do not change. Streaming from memory, the call per row was slower
// than the loop, by more than the calls' instructions: on this Zen 5,
// [4096, 4096] float32 over dim 1, variants interleaved in one process,
// one thread 1310-1342 → 1148-1168 µs (p10, three runs), two threads
// 930-938 → 876-884 µs; rows of 1024 elements lost 17-19% against one
// long sum, rows of 16384 2-4%, and in the L2 cache the calls cost
// nothing measurable (327 against 329 µs for 64 MiB read 256 KiB at a
// time). Why a call boundary costs memory throughput is not established;
// a kernel that ends with VZEROUPPER per row inside the loop was as fast
// as the loop without, so it is not that instruction. The product gained
// less (0-5% at the 10th percentile on one thread, in a noisier state),
// and the max of a row (vec.MaxF32) 2%, too little for a rows function
// then. Amax and Amin of float32 rows have one since, for another reason:
// on inputs of at least fourStreamsBytes the rows functions of the sum,
// 2-norm, product, max and min (rowsFour) read four rows at a time, four streams
// (Note [Four streams] in internal/vec), where one call per row reads
// one; on the Zen 3 machines, [4096, 4096] over dim 1 in groups of 64
// rows on two threads, interleaved 60 times in one process, the sum took
// 10-16% less time at p10 and p50 and the max 15-27%.
// The float32 2-norm had been a cascade (a row in blocks of innerBlock
// elements, combined pairwise), which its squares, exact and added in
// float64 lanes, do not need: without it and with its rows function,
// M.norm(dim=1) on one thread went from 1.32-1.35 times the row sum's
// time to 1.06-1.08.
//
// Sums and means of bfloat16 and float16 rows in a float32 loop have
// rows functions too (vec.SumRowsBF16F64, SumRowsF16F64), reading the
// 16-bit elements as their row functions do: 2048×768 bfloat16 over dim
// 1 (rows of 1.5 KiB, in cache) took 0.25-0.29 ms with a call per row,
// 0.15 ms in one call (Zen 3, two threads, another process holding a
// core).

// fourStreamsBytes is the size of input from which a reduction reads
// four streams at once where its op has functions for it (Note [Four
// streams] in internal/vec; the same bits either way): below it the input
// is likely in a cache, where one stream was faster. On the Zen 3 machine,
// row sums and maxima of [m, 4096] float32 on one thread, four streams
// against one: 4 MiB in the L3 cache 11% slower, 16 MiB 30-55% faster,
// 64 MiB 10-30% faster; slices of 256 KiB in the L2 cache up to 20%
// slower. A variable, so that tests can take every input as large.
var fourStreamsBytes = 16 << 20

// fourRowsMinBytes is the shortest row, in bytes, whose rows functions
// read four rows at once on a large input (Note [Runs of four streams]).
// A variable, so that tests can take every row as long.
var fourRowsMinBytes = 256

// Note [Runs of four streams]
//
// The rows functions that read four rows at once on a large input (Note
// [Four streams] in internal/vec) read rows j, j+q, j+2q and j+3q of the
// rows they are given: four streams of q rows each. Given a group of
// innerGroup rows, short rows made short streams (16 KiB for rows of 256
// bytes), which the prefetchers follow less well than one stream (streams
// of 4 KiB were slower than one). So runInner gives them the groups of a
// run in one call, up to innerRunRows rows of one parallel chunk, and
// writes the states a group at a time; rows shorter than
// fourRowsMinBytes, where four streams lost even so, read one stream.
// Measured on the 2-core Zen 5 VM, two threads, 64 MiB of float32 over
// dim 1, alternated 15 times in one process (ms, median of the p50s),
// four streams a group (one for rows of 16) against runs: the sum of rows
// of 64 elements 1.41 against 1.19, 128 1.21 against 0.96, 256 1.13
// against 1.08; Amax of rows of 64 1.72 against 1.40, 256 1.28 against
// 1.10; rows of 1024 and more take a parallel chunk a group and did not
// change. Rows of 16 elements read as four streams a group took 3.02 ms
// against 2.30 as one, as runs of four streams 2.28 against 2.20 on two
// threads and 3.96 against 3.51 on one (the four-row kernels' stack
// accumulators cost more per row than the streams gain); the 2-norm of
// rows of 16, 3.30 against 2.97 on two.

const (
	innerBlock       = 1024    // elements per cascade block of a row
	outerBlock       = 16      // rows per cascade block of an outer reduction
	outerWidth       = 8192    // outputs per tile of an outer reduction (bufLen when converting)
	outerMinTiles    = 4       // fewer tiles than this: the reduced positions are split too
	outerMaxSplit    = 4       // into at most this many chunks (Note [Few long chunks])
	outerMinSubWidth = 512     // columns of a chunk's share when workers outnumber chunks
	innerGroup       = 256     // outputs per group written at once (at most bufLen)
	innerRunRows     = 4096    // rows of a run of groups read in one call (Note [Runs of four streams])
	innerTask        = 1 << 18 // input elements per group of an inner reduction (fewer outputs when rows are long)
	minInnerLen      = 16      // a contiguous reduced dim shorter than this is reduced as outer
	fullChunks       = 64      // a full reduction is split into about this many chunks (at least GrainSize elements each)
	rows8Passes      = 8       // passes of eight rows an outer float32 sum adds in float32 (Note [Outer streams])
	cols8RunMaxWidth = 256     // widest tile whose fold8 runs in one call (Note [Rows in registers])
)

// Reduce runs the reduction op over a reduction plan (Note [Reduction
// plans] in package kernel): operands 0 (and 1 for max and min) the outputs
// with stride 0 on the reduced dims, the last the input. See Note
// [Reduction strategies].
func (*Backend) Reduce(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if args == nil {
		args = &kernel.DefaultArgs
	}
	if op.Kind != optable.Reduction {
		return errs.New(errs.Value, op.Name, "%s is not a reduction", op.Name)
	}
	nout := op.Outputs
	if p.NumOutputs() != nout || p.NumOperands() != nout+1 {
		return errs.New(errs.Value, op.Name, "expected %d outputs and 1 input, got %d operands", nout, p.NumOperands())
	}
	if torchOrderSum(op, p) {
		return nil
	}
	compute := p.CommonDType()
	lt := kernel.LoopDType(compute)
	var f *redFuncs
	if lt.Valid() {
		f = &redTable[op.Code][lt]
	}
	if f == nil || f.init == nil {
		return notImplemented(op, compute)
	}
	for k := 0; k <= nout; k++ {
		if !p.Operand(k).DType.Valid() {
			return notImplemented(op, p.Operand(k).DType)
		}
	}
	r := reducerPool.Get().(*reducer)
	defer r.release()
	*r = reducer{f: f, lt: lt, nout: nout}
	r.c.Correction, r.c.P = args.Correction, args.P
	if compute.IsReduced() {
		r.c.RoundTo = compute
	}
	in := p.Operand(nout)
	r.in = addr(p, nout)
	r.conv, r.convert = chain(in.DType, compute, lt)
	if r.convert && (compute == in.DType || compute == lt) {
		// converted straight to the loop dtype: a row function that reads
		// the input's dtype itself saves the buffer
		switch in.DType {
		case dtype.BFloat16:
			r.row16, r.cols8, r.rows = f.rowBF16, f.cols8BF16, f.rowsBF16
		case dtype.Float16:
			r.row16, r.cols8, r.rows = f.rowF16, f.cols8F16, f.rowsF16
		}
	}
	if !r.convert {
		r.cols8, r.rows = f.cols8, f.rows
	}
	r.es, r.inES = in.DType.Size(), in.DType.Size()
	if r.convert {
		r.es = lt.Size()
	}
	for k := 0; k < nout; k++ {
		o := p.Operand(k)
		r.out[k] = addr(p, k)
		from := f.out
		if f.index && k == 1 {
			from = dtype.Int64
		}
		// A float16 or bfloat16 reduction folds in float32 but its result
		// is a float16 or bfloat16 value, whatever dtype it is written in.
		via := o.DType
		if compute.IsReduced() && from.IsFloat() {
			via = compute
		}
		r.cast[k], r.convOut[k] = chain(from, via, o.DType)
		r.outES[k] = from.Size()
	}
	r.geometry(p)
	if r.K == 0 {
		return nil
	}
	r.row = f.row
	if r.R*r.K*in.DType.Size() >= fourStreamsBytes {
		// the same bits, read faster from memory (Note [Four streams])
		if f.rowFour != nil {
			r.row = f.rowFour
		}
		switch {
		case r.R*r.inES < fourRowsMinBytes:
			// short rows (Note [Runs of four streams])
		case !r.convert && f.rowsFour != nil:
			r.rows, r.four = f.rowsFour, true
		case r.convert && in.DType == dtype.BFloat16 && f.rowsBF16Four != nil:
			r.rows, r.four = f.rowsBF16Four, true
		case r.convert && in.DType == dtype.Float16 && f.rowsF16Four != nil:
			r.rows, r.four = f.rowsF16Four, true
		}
		switch {
		case r.row16 != nil && in.DType == dtype.BFloat16 && f.rowBF16Four != nil:
			r.row16 = f.rowBF16Four
		case r.row16 != nil && in.DType == dtype.Float16 && f.rowF16Four != nil:
			r.row16 = f.rowF16Four
		}
	}
	r.c.N = r.R
	switch {
	case r.K == 1 && r.R > 0:
		r.full()
	case len(r.kd) == 0 || r.R == 0 || len(r.rd) > 0 && r.rd[0].in == in.DType.Size() && r.rd[0].size >= minInnerLen:
		r.runInner()
	default:
		if !r.runNarrow(op) {
			r.runOuter()
		}
	}
	return nil
}

// reducerPool holds reducers between calls: a reducer is a few hundred
// bytes, a small reduction's largest allocation (Note [Per-op overhead] in
// package op).
var reducerPool = sync.Pool{New: func() any { return new(reducer) }}

// release clears r, which keeps no operand alive, and hands it back.
func (r *reducer) release() {
	*r = reducer{}
	reducerPool.Put(r)
}

// redDim is a plan dim of a reduction: its size, the input's byte stride,
// the outputs' byte strides.
type redDim struct {
	size, in int
	out      [2]int
}

// reducer is the state of one Reduce call, shared read-only by its workers.
type reducer struct {
	f       *redFuncs
	c       elem.Ctx
	lt      dtype.DType
	nout    int
	in      unsafe.Pointer
	conv    conv // input → loop dtype
	convert bool
	row16   func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)                    // f.rowBF16 or f.rowF16 for this input (or their Four forms), or nil
	cols8   func(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool) // f.cols8, or f.cols8BF16 or f.cols8F16 for this input, or nil
	inES    int                                                                         // byte size of an input element
	row     func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)                    // f.row or f.rowFour
	rows    func(st, in unsafe.Pointer, rs, n, m int)                                   // f.rows or f.rowsFour, or f.rowsBF16 or f.rowsF16 (or their Four forms) for this input, or nil
	es      int                                                                         // byte size of an element as the row functions read it
	out     [2]unsafe.Pointer
	cast    [2]conv // result → output dtype, if convOut
	convOut [2]bool
	outES   [2]int         // byte size of a result
	rd, kd  []redDim       // reduced and kept dims, fastest first (size-1 dims left out)
	R, K    int            // number of reduced positions, of outputs
	four    bool           // rows is a Four form, reading four rows at once (Note [Runs of four streams])
	keep    unsafe.Pointer // where runOuter leaves its tiles' states, unwritten, when not nil (Note [Narrow columns])
	// the usual few dims and a small reduction's states, held here rather
	// than allocated (Note [Per-op overhead] in package op)
	rdBuf, kdBuf [4]redDim
	small        [8]uint64
}

func (r *reducer) geometry(p *iter.Plan) {
	shape := p.Shape()
	r.R, r.K = 1, 1
	r.rd, r.kd = r.rdBuf[:0], r.kdBuf[:0]
	inSt := p.Operand(r.nout).Strides
	for d, s := range shape {
		if s == 1 {
			continue
		}
		dim := redDim{size: s, in: inSt[d]}
		for k := 0; k < r.nout; k++ {
			dim.out[k] = p.Operand(k).Strides[d]
		}
		if dim.out[0] == 0 {
			r.rd = append(r.rd, dim)
			r.R *= s
		} else {
			r.kd = append(r.kd, dim)
			r.K *= s
		}
	}
}

// words returns the number of uint64 that hold n states.
func (r *reducer) words(n int) int { return (n*r.f.size + 7) / 8 }

func ptr(b []uint64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// rowConv folds n elements at in (byte stride is) into st, converting
// them to the loop dtype first if needed.
func (r *reducer) rowConv(st, in unsafe.Pointer, is, n, idx int, w *redWork) {
	if !r.convert {
		r.row(st, in, is, n, idx, &r.c)
		return
	}
	if r.row16 != nil && is == 2 {
		r.row16(st, in, is, n, idx, &r.c)
		return
	}
	ls := r.lt.Size()
	for off := 0; off < n; off += bufLen {
		m := min(bufLen, n-off)
		r.conv.run(w.buf(), unsafe.Add(in, off*is), ls, is, m, w.stage())
		r.row(st, w.buf(), ls, m, idx+off, &r.c)
	}
}

// colsConv folds element k of the row at in into state k, k < n (n ≤ bufLen).
func (r *reducer) colsConv(st, in unsafe.Pointer, is, n, idx int, w *redWork) {
	if !r.convert {
		r.f.cols(st, in, is, n, idx, &r.c)
		return
	}
	ls := r.lt.Size()
	r.conv.run(w.buf(), in, ls, is, n, w.stage())
	r.f.cols(st, w.buf(), ls, n, idx, &r.c)
}

// redWork is the scratch of one worker: conversion buffers, and the
// cascade of foldRange with its block buffer, reused row after row so
// that a reduction allocates per worker, not per output.
type redWork struct {
	bufs *chunkBufs
	q    cascade
	blk  []uint64
}

func (w *redWork) buf() unsafe.Pointer   { return unsafe.Pointer(&w.bufs[0][0]) }
func (w *redWork) stage() unsafe.Pointer { return unsafe.Pointer(&w.bufs[4][0]) }
func (w *redWork) res() unsafe.Pointer   { return unsafe.Pointer(&w.bufs[1][0]) }
func (w *redWork) resi() unsafe.Pointer  { return unsafe.Pointer(&w.bufs[2][0]) }

func getWork() *redWork { return &redWork{bufs: bufPool.Get().(*chunkBufs)} }

// states returns n words for a group's states: the pooled buffer no
// other step of a reduction uses where they fit, so that a call of a
// parallel loop's function (one per chunk) allocates nothing; a fresh
// slice otherwise. Fresh states per chunk were 64 allocations per
// M.sum(1) of [4096, 4096] on two goroutines, and the spans the heap grew
// for them page-faulted.
func (w *redWork) states(n int) []uint64 {
	if n <= bufLen {
		return w.bufs[3][:n]
	}
	return make([]uint64, n)
}
func (w *redWork) put() { bufPool.Put(w.bufs) }

// cascade combines block states pairwise (Note [Cascade sums]): level k
// holds n states that combine 2^k blocks.
type cascade struct {
	r    *reducer
	n    int // states per level (at most capN)
	capN int // states a level buffer holds (n when 0)
	lev  [][]uint64
	used uint64
}

// push adds a block (n states, which it takes) and returns a buffer for the
// next block.
func (q *cascade) push(blk []uint64) []uint64 {
	if spare := q.add(blk); spare != nil {
		return spare
	}
	return make([]uint64, q.r.words(max(q.n, q.capN)))
}

// add adds a block (n states, which it takes and may write) and returns
// the buffer its level held before, if any (push's next block; blocks
// that live elsewhere ignore it).
func (q *cascade) add(blk []uint64) (spare []uint64) {
	k := 0
	for ; q.used&(1<<k) != 0; k++ {
		q.r.f.combine(ptr(q.lev[k]), ptr(blk), q.n, &q.r.c)
		blk, q.lev[k] = q.lev[k], blk
		q.used &^= 1 << k
	}
	if k == len(q.lev) {
		q.lev = append(q.lev, nil)
	}
	q.lev[k], spare = blk, q.lev[k]
	q.used |= 1 << k
	return spare
}

// final combines every level, oldest first, into dst.
func (q *cascade) final(dst unsafe.Pointer) {
	for k := len(q.lev) - 1; k >= 0; k-- {
		if q.used&(1<<k) != 0 {
			q.r.f.combine(dst, ptr(q.lev[k]), q.n, &q.r.c)
		}
	}
	q.used = 0
}

// foldRange folds the reduced positions [b, e) (row-major over r.rd with
// rd[0] fastest) of the input at base into the state st.
func (r *reducer) foldRange(st, base unsafe.Pointer, b, e int, w *redWork) {
	if b >= e {
		return
	}
	if len(r.rd) == 0 {
		r.rowConv(st, base, 0, 1, 0, w)
		return
	}
	q := &w.q
	blk := w.blk
	cnt := 0
	if r.f.cascade {
		q.r, q.n, q.capN = r, 1, 0
		if blk == nil {
			blk = make([]uint64, r.words(1))
		}
		r.f.init(ptr(blk), 1)
	}
	var idxBuf [8]int
	idx := idxBuf[:0]
	if len(r.rd) > len(idxBuf) {
		idx = make([]int, 0, len(r.rd))
	}
	idx = idx[:len(r.rd)]
	rem := b
	off := 0
	for d, dim := range r.rd {
		idx[d] = rem % dim.size
		rem /= dim.size
		off += idx[d] * dim.in
	}
	d0 := r.rd[0]
	for pos := b; pos < e; {
		n := min(d0.size-idx[0], e-pos)
		p := unsafe.Add(base, off)
		if !r.f.cascade {
			r.rowConv(st, p, d0.in, n, idx[0], w)
		} else {
			for j := 0; j < n; {
				m := min(n-j, innerBlock-cnt)
				r.rowConv(ptr(blk), unsafe.Add(p, j*d0.in), d0.in, m, idx[0]+j, w)
				j += m
				cnt += m
				if cnt == innerBlock {
					blk = q.push(blk)
					r.f.init(ptr(blk), 1)
					cnt = 0
				}
			}
		}
		pos += n
		// advance the odometer by n along dim 0
		off += (n - 1) * d0.in
		idx[0] += n - 1
		for d := 0; d < len(r.rd); d++ {
			idx[d]++
			off += r.rd[d].in
			if idx[d] < r.rd[d].size {
				break
			}
			off -= idx[d] * r.rd[d].in
			idx[d] = 0
		}
	}
	if r.f.cascade {
		if cnt > 0 {
			blk = q.push(blk)
		}
		q.final(st)
		w.blk = blk
	}
}

// write projects n states and writes the results to the outputs at o0 (and
// o1), byte strides os0 (os1). n ≤ bufLen.
func (r *reducer) write(st unsafe.Pointer, n int, o [2]unsafe.Pointer, os [2]int, w *redWork) {
	res, resi := w.res(), w.resi()
	r.f.project(res, resi, st, n, &r.c)
	src := [2]unsafe.Pointer{res, resi}
	for k := 0; k < r.nout; k++ {
		if r.convOut[k] {
			r.cast[k].run(o[k], src[k], os[k], r.outES[k], n, w.stage())
		} else {
			copyStrided(o[k], src[k], os[k], r.outES[k], n)
		}
	}
}

// copyStrided copies n elements of es bytes from contiguous src to dst
// (byte stride ds).
func copyStrided(dst, src unsafe.Pointer, ds, es, n int) {
	if ds == es {
		copy(unsafe.Slice((*byte)(dst), n*es), unsafe.Slice((*byte)(src), n*es))
		return
	}
	for k := 0; k < n; k++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, k*ds)), es), unsafe.Slice((*byte)(unsafe.Add(src, k*es)), es))
	}
}

// full reduces everything into one output (Note [Reduction strategies]).
func (r *reducer) full() {
	grain := max(iter.GrainSize, (r.R+fullChunks-1)/fullChunks)
	size, count := parallel.Chunks(r.R, grain)
	nw := r.words(1)
	if count == 1 && 2*nw <= len(r.small) {
		// One chunk (Note [Per-op overhead] in package op): the steps below
		// on the reducer's own words, without the parallel loop's closure;
		// a cascade of one block is one combine.
		part, st := r.small[:nw], r.small[nw:2*nw]
		r.f.init(ptr(part), 1)
		w := getWork()
		r.foldRange(ptr(part), r.in, 0, r.R, w)
		r.f.init(ptr(st), 1)
		r.f.combine(ptr(st), ptr(part), 1, &r.c)
		r.write(ptr(st), 1, r.out, [2]int{}, w)
		w.put()
		return
	}
	parts := make([]uint64, count*nw)
	part := func(k int) []uint64 { return parts[k*nw : (k+1)*nw] }
	r.f.init(ptr(parts), count)
	for k := 1; k < count; k++ { // one state per chunk, each on its own words
		r.f.init(ptr(part(k)), 1)
	}
	parallel.For(r.R, grain, func(b, e int) {
		w := getWork()
		r.foldRange(ptr(part(b/size)), r.in, b, e, w)
		w.put()
	})
	// combine in chunk order: pairwise for cascading ops
	st := make([]uint64, nw)
	r.f.init(ptr(st), 1)
	if r.f.cascade {
		q := cascade{r: r, n: 1}
		for k := 0; k < count; k++ {
			q.push(part(k))
		}
		q.final(ptr(st))
	} else {
		for k := 0; k < count; k++ {
			r.f.combine(ptr(st), ptr(part(k)), 1, &r.c)
		}
	}
	w := getWork()
	r.write(ptr(st), 1, r.out, [2]int{}, w)
	w.put()
}

// keptOffsets returns the input's and outputs' byte offsets of the kept
// position pos (row-major over dims, dims[0] fastest).
func keptOffsets(dims []redDim, pos int) (in int, out [2]int) {
	for _, d := range dims {
		i := pos % d.size
		pos /= d.size
		in += i * d.in
		out[0] += i * d.out[0]
		out[1] += i * d.out[1]
	}
	return in, out
}

// runInner reduces each output over its rows (Note [Reduction strategies]).
func (r *reducer) runInner() {
	k0 := redDim{size: 1}
	var rest []redDim
	if len(r.kd) > 0 {
		k0, rest = r.kd[0], r.kd[1:]
	}
	// groups of outputs written at once, of about innerTask elements of
	// input each, so that workers share the tail of the work finely
	group := min(innerGroup, max(1, innerTask/max(1, r.R)))
	groups := (k0.size + group - 1) / group
	n := (r.K / k0.size) * groups
	grain := max(1, iter.GrainSize/max(1, r.R*min(k0.size, group)))
	simple := len(r.rd) == 1 && !r.f.cascade && !r.convert
	// contiguous rows, the group in one call (Note [Rows in one call]);
	// r.rows reads the input's dtype (and cascades each row itself)
	oneCall := len(r.rd) == 1 && r.rows != nil && r.rd[0].in == r.inES && k0.in >= 0
	runGroups := 1
	if oneCall && r.four {
		runGroups = max(1, innerRunRows/group)
	}
	parallel.For(n, grain, func(b, e int) {
		w := getWork()
		groupStates := w.states(r.words(group))
		var runStates *[]uint64
		for t := b; t < e; {
			g, pos := t%groups, t/groups
			inOff, outOff := keptOffsets(rest, pos)
			j0 := g * group
			// the groups of a run in one call (Note [Runs of four
			// streams]), else one group
			run := min(runGroups, e-t, groups-g)
			m := min(run*group, k0.size-j0)
			st := groupStates
			if run > 1 {
				if runStates == nil {
					runStates = getStates(r.words(runGroups * group))
				}
				st = *runStates
			}
			r.f.init(ptr(st), m)
			switch {
			case r.R == 0: // the value over no elements
			case oneCall:
				r.rows(ptr(st), unsafe.Add(r.in, inOff+j0*k0.in), k0.in, r.R, m)
			case simple:
				// one contiguous reduced dim, no blocks: a row call per output
				for j := 0; j < m; j++ {
					r.row(unsafe.Add(ptr(st), j*r.f.size), unsafe.Add(r.in, inOff+(j0+j)*k0.in), r.rd[0].in, r.R, 0, &r.c)
				}
			default:
				for j := 0; j < m; j++ {
					r.foldRange(unsafe.Add(ptr(st), j*r.f.size), unsafe.Add(r.in, inOff+(j0+j)*k0.in), 0, r.R, w)
				}
			}
			for off := 0; off < m; off += group {
				var o [2]unsafe.Pointer
				for k := 0; k < r.nout; k++ {
					o[k] = unsafe.Add(r.out[k], outOff[k]+(j0+off)*k0.out[k])
				}
				r.write(unsafe.Add(ptr(st), off*r.f.size), min(group, m-off), o, k0.out, w)
			}
			t += run
		}
		if runStates != nil {
			statesPool.Put(runStates)
		}
		w.put()
	})
}

// runOuter reduces tiles of outputs at once, adding whole rows of the
// input to their states (Note [Reduction strategies]). A tile spans the
// whole column dim when it fits (outerWidth), so rows are read
// contiguously; when there are too few tiles to share among workers, the
// reduced positions are split too (into chunks fixed by the sizes alone),
// each chunk folded into its own states, and the chunks' states combined
// in order.
func (r *reducer) runOuter() {
	// the column dim: the kept dim where the input is densest
	c := 0
	for i, d := range r.kd {
		if max(d.in, -d.in) < max(r.kd[c].in, -r.kd[c].in) {
			c = i
		}
	}
	col := r.kd[c]
	rest := make([]redDim, 0, len(r.kd)-1)
	rest = append(rest, r.kd[:c]...)
	rest = append(rest, r.kd[c+1:]...)
	width := min(outerWidth, col.size)
	if r.convert {
		width = min(bufLen, col.size)
	}
	blocks := (col.size + width - 1) / width
	tiles := (r.K / col.size) * blocks
	// tile t: its input base, output offsets and width
	tile := func(t int) (base unsafe.Pointer, o [2]unsafe.Pointer, m int) {
		bl, pos := t%blocks, t/blocks
		inOff, outOff := keptOffsets(rest, pos)
		j0 := bl * width
		for k := 0; k < r.nout; k++ {
			o[k] = unsafe.Add(r.out[k], outOff[k]+j0*col.out[k])
		}
		return unsafe.Add(r.in, inOff+j0*col.in), o, min(width, col.size-j0)
	}
	writeTile := func(t int, st unsafe.Pointer, o [2]unsafe.Pointer, m int, w *redWork) {
		if r.keep != nil {
			n := m * r.f.size
			copy(unsafe.Slice((*byte)(unsafe.Add(r.keep, t*width*r.f.size)), n), unsafe.Slice((*byte)(st), n))
			return
		}
		for j := 0; j < m; j += bufLen {
			var oj [2]unsafe.Pointer
			for k := 0; k < r.nout; k++ {
				oj[k] = unsafe.Add(o[k], j*col.out[k])
			}
			r.write(unsafe.Add(st, j*r.f.size), min(bufLen, m-j), oj, col.out, w)
		}
	}
	rsize, rcount := r.R, 1
	if tiles < outerMinTiles {
		rsize, rcount = parallel.Chunks(r.R, max(outerBlock, (r.R+outerMaxSplit-1)/outerMaxSplit, iter.GrainSize/width))
	}
	if rcount <= 1 {
		grain := max(1, iter.GrainSize/max(1, r.R*width))
		parallel.For(tiles, grain, func(b, e int) {
			w := getWork()
			f := r.newTileFold(width, true)
			for t := b; t < e; t++ {
				base, o, m := tile(t)
				f.fold(ptr(f.st), base, col.in, m, 0, r.R, w)
				writeTile(t, ptr(f.st), o, m, w)
			}
			f.release()
			w.put()
		})
		return
	}
	words := r.words(width)
	// the chunks' states, and the combined states last (Note [Reused
	// states])
	buf := getStates((tiles*rcount + 1) * words)
	parts := *buf
	// more workers than chunks: each chunk's columns are split among
	// them too, which leaves the bits alone (Note [Few long chunks])
	sub := 1
	if tasks, procs := tiles*rcount, runtime.GOMAXPROCS(0); tasks < procs {
		sub = min((procs+tasks-1)/tasks, max(1, width/outerMinSubWidth))
	}
	subWidth := ((width+sub-1)/sub + 63) &^ 63 // keeps each column's place in the vector loops
	parallel.For(tiles*rcount*sub, 1, func(b, e int) {
		w := getWork()
		f := r.newTileFold(width, false)
		for task := b; task < e; task++ {
			t, rc, sb := task/(rcount*sub), task/sub%rcount, task%sub
			base, _, m := tile(t)
			j0 := sb * subWidth
			if j0 >= m {
				continue
			}
			st := unsafe.Add(ptr(parts[(t*rcount+rc)*words:]), j0*r.f.size)
			f.fold(st, unsafe.Add(base, j0*col.in), col.in, min(subWidth, m-j0), rc*rsize, min(r.R, (rc+1)*rsize), w)
		}
		f.release()
		w.put()
	})
	w := getWork()
	st := parts[tiles*rcount*words:]
	for t := 0; t < tiles; t++ {
		_, o, m := tile(t)
		q := cascade{r: r, n: m}
		for rc := 0; rc < rcount; rc++ {
			q.add(parts[(t*rcount+rc)*words : (t*rcount+rc+1)*words])
		}
		r.f.init(ptr(st), m)
		q.final(ptr(st))
		writeTile(t, ptr(st), o, m, w)
	}
	w.put()
	statesPool.Put(buf)
}

// Note [Reused states]
// An outer reduction's states (a tile of up to outerWidth outputs, and
// one per chunk when the reduced positions are split) come from a pool
// and go back to it: fresh ones are fresh pages, which the first pass
// faults in and misses on. sum(0) of a [4096, 4096] float32 input with
// its eight chunks' states made afresh took 1.10–1.27 ms on two threads,
// against 0.72–0.80 for the same folds into states kept from call to call
// (interleaved, in one process; 1.5 ms with only the chunks' states
// fresh).
var statesPool = sync.Pool{New: func() any { return new([]uint64) }}

// getStates returns a pooled buffer of at least n words (of unspecified
// contents); put it back in statesPool when done.
func getStates(n int) *[]uint64 {
	b := statesPool.Get().(*[]uint64)
	if cap(*b) < n {
		*b = make([]uint64, n)
	}
	*b = (*b)[:n]
	return b
}

// tileFold folds reduced positions into a tile of states, with the
// cascade's buffers (Note [Cascade sums]).
type tileFold struct {
	r                     *reducer
	st                    []uint64
	blk                   []uint64 // the cascade's block, or fold8's float32 block
	q                     cascade
	stBuf, blkBuf, colBuf *[]uint64 // from statesPool (colBuf: foldColumns' columns)
}

// newTileFold returns a fold of tiles of up to width outputs, with states
// of its own (f.st) if own; release returns its buffers to statesPool
// (Note [Reused states]).
func (r *reducer) newTileFold(width int, own bool) *tileFold {
	f := &tileFold{r: r}
	if own {
		f.stBuf = getStates(r.words(width))
		f.st = *f.stBuf
	}
	switch {
	case r.f.cascade:
		f.q = cascade{r: r, capN: width}
		f.blkBuf = getStates(r.words(width))
		f.blk = *f.blkBuf
	case r.cols8 != nil:
		f.blkBuf = getStates((width + 1) / 2)
		f.blk = *f.blkBuf
	}
	return f
}

// release returns f's pooled buffers.
func (f *tileFold) release() {
	for _, b := range []*[]uint64{f.stBuf, f.blkBuf, f.colBuf} {
		if b != nil {
			statesPool.Put(b)
		}
	}
	f.stBuf, f.blkBuf, f.colBuf = nil, nil, nil
}

// fold sets the m states at st to the fold of the reduced positions [b, e)
// of the tile whose input starts at base (column byte stride cs).
func (f *tileFold) fold(st, base unsafe.Pointer, cs, m, b, e int, w *redWork) {
	r := f.r
	r.f.init(st, m)
	if !r.f.cascade && r.cols8 != nil && cs == r.inES {
		r.fold8(st, ptr(f.blk), base, cs, m, b, e, w)
		return
	}
	if !r.f.cascade && r.f.colsRows != nil && !r.convert && cs == r.inES {
		// Note [Rows in registers]
		step := r.runStep()
		r.eachRun(b, e, func(off, i0, n int) {
			r.f.colsRows(st, unsafe.Add(base, off), step, m, n, i0)
		})
		return
	}
	if !r.f.cascade && r.shortRows(cs) {
		f.foldColumns(st, base, cs, m, b, e)
		return
	}
	if !r.f.cascade {
		r.eachReduced(b, e, func(off, i0 int) {
			r.colsConv(st, unsafe.Add(base, off), cs, m, i0, w)
		})
		return
	}
	f.q.n = m
	r.f.init(ptr(f.blk), m)
	cnt := 0
	r.eachReduced(b, e, func(off, i0 int) {
		r.colsConv(ptr(f.blk), unsafe.Add(base, off), cs, m, i0, w)
		if cnt++; cnt == outerBlock {
			f.blk = f.q.push(f.blk)
			r.f.init(ptr(f.blk), m)
			cnt = 0
		}
	})
	if cnt > 0 {
		f.blk = f.q.push(f.blk)
	}
	f.q.final(st)
}

// fold8 folds the reduced positions [b, e) into the m states at st eight
// rows at a time, the rows of a pass spread over the range (Note [Outer
// streams]): with q = (e-b)/8, pass j adds the rows b+j, b+j+q, ...,
// b+j+7q, into the block blk, which goes into the states every
// rows8Passes passes and after the last; the last (e-b) mod 8 rows follow
// one at a time.
func (r *reducer) fold8(st, blk, base unsafe.Pointer, cs, m, b, e int, w *redWork) {
	if rs := r.runStep(); r.f.cols8Run != nil && !r.convert && len(r.rd) == 1 && m <= cols8RunMaxWidth && f32RowsApart(rs, m) {
		// Note [Rows in registers]
		r.f.cols8Run(st, blk, unsafe.Add(base, b*rs), rs, m, e-b)
		return
	}
	q := (e - b) / 8
	if q > 0 {
		var rows [8]unsafe.Pointer
		var od [8]odometer
		var idx []int
		if len(r.rd) > 1 {
			idx = make([]int, 8*len(r.rd))
		}
		for k := range od {
			od[k].start(r.rd, b+k*q, idx[min(len(idx), k*len(r.rd)):min(len(idx), (k+1)*len(r.rd))])
		}
		for j := 0; j < q; j++ {
			for k := range od {
				rows[k] = unsafe.Add(base, od[k].off)
				od[k].next()
			}
			r.cols8(st, blk, &rows, m, j%rows8Passes == 0, j%rows8Passes == rows8Passes-1 || j == q-1)
		}
	}
	r.eachReduced(b+8*q, e, func(off, i0 int) {
		r.colsConv(st, unsafe.Add(base, off), cs, m, i0, w)
	})
}

// odometer walks the reduced positions in order (rd[0] fastest), keeping
// the input byte offset of the current one.
type odometer struct {
	rd  []redDim
	idx []int // position along each dim; nil with one dim
	off int
}

// start sets o to position pos; idx holds len(rd) ints when len(rd) > 1.
func (o *odometer) start(rd []redDim, pos int, idx []int) {
	*o = odometer{rd: rd}
	if len(rd) == 1 {
		o.off = pos * rd[0].in
		return
	}
	o.idx = idx
	for d, dim := range rd {
		o.idx[d] = pos % dim.size
		pos /= dim.size
		o.off += o.idx[d] * dim.in
	}
}

// next moves o to the next position.
func (o *odometer) next() {
	if o.idx == nil {
		o.off += o.rd[0].in
		return
	}
	for d, dim := range o.rd {
		o.off += dim.in
		if o.idx[d]++; o.idx[d] < dim.size {
			return
		}
		o.off -= o.idx[d] * dim.in
		o.idx[d] = 0
	}
}

// eachReduced calls fn with the input byte offset and the index along
// rd[0] of the reduced positions [b, e), in order.
func (r *reducer) eachReduced(b, e int, fn func(off, i0 int)) {
	step := r.runStep()
	r.eachRun(b, e, func(off, i0, n int) {
		for i := 0; i < n; i++ {
			fn(off+i*step, i0+i)
		}
	})
}

// runStep is the input byte stride of eachRun's runs: rd[0]'s (0 with no
// reduced dim, whose one run is one position).
func (r *reducer) runStep() int {
	if len(r.rd) == 0 {
		return 0
	}
	return r.rd[0].in
}

// eachRun calls fn on the reduced positions [b, e) in order, a run along
// rd[0] at a time: n positions, the first at input byte offset off and
// index i0 along rd[0], the others rd[0].in bytes apart.
func (r *reducer) eachRun(b, e int, fn func(off, i0, n int)) {
	if b >= e {
		return
	}
	if len(r.rd) == 0 {
		fn(0, 0, 1)
		return
	}
	idx := make([]int, len(r.rd))
	off, rem := 0, b
	for d, dim := range r.rd {
		idx[d] = rem % dim.size
		rem /= dim.size
		off += idx[d] * dim.in
	}
	d0 := r.rd[0]
	for pos := b; pos < e; {
		n := min(d0.size-idx[0], e-pos)
		fn(off, idx[0], n)
		pos += n
		off += (n - 1) * d0.in
		idx[0] += n - 1
		for d := 0; d < len(r.rd); d++ {
			idx[d]++
			off += r.rd[d].in
			if idx[d] < r.rd[d].size {
				break
			}
			off -= idx[d] * r.rd[d].in
			idx[d] = 0
		}
	}
}
