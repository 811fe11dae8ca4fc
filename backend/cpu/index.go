package cpu

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Index kernels]
//
// Index and Gather move elements whose positions an index tensor gives
// (Notes [Index plans] and [Gather plans] in package kernel). Moving is
// copying bytes, so their loops are typed by element size only (1, 2, 4
// or 8 bytes), never by dtype. Writes that merge with the old value (the
// ops' Combine: scatter_add, index_put with accumulate, ...) run the
// generated pointwise loop of the Combine op itself, with the destination
// as its output and first input, so the table's scalar meaning and its
// SIMD rows serve them; float16 and bfloat16 go through float32 in chunk
// buffers, as Pointwise's buffered casts do.
//
// The fast path is a row of the plan along which every index operand has
// stride 0 (index_select, x[i] over the leading dim, embedding, index_add
// over dim 0): the offset is computed once and the row moves as one
// memmove, or one call of the combine loop. Otherwise each element reads
// its indices.
//
// Put ops check every index before writing (a parallel pass over the index
// operands), so a failing call leaves its destination as it was; reads
// check as they go, their output being new.

// firstErr keeps the first error that workers report.
type firstErr struct {
	mu  sync.Mutex
	err error
	bad atomic.Bool
}

func (f *firstErr) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	f.bad.Store(true)
}

func (f *firstErr) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// combiner runs a Combine op's loop over rows of dst and src of dtype dt:
// dst[i] = c(dst[i], src[i]).
type combiner struct {
	fn       loopFn
	args     *kernel.Args
	dt, lt   dtype.DType
	toLoop   castFn // dt → lt (nil: dt is the loop dtype)
	fromLoop castFn
	// addRow, when set, is the Combine add's contiguous row for float32 or
	// float64, called without the loop's layout switches (Note [Put
	// partitions]); the loop would call the same vec primitive.
	addRow func(dst, src unsafe.Pointer, n int)
}

// addRowOf returns the contiguous row of add with the given alpha as addVec
// runs it: dst = dst + src when alpha (in T) is 1, else vec's axpy.
func addRowOf[T float](v *arith[T], alphaF float64) func(dst, src unsafe.Pointer, n int) {
	alpha := T(alphaF)
	if alpha == 1 {
		return func(dst, src unsafe.Pointer, n int) {
			d := unsafe.Slice((*T)(dst), n)
			v.add(d, d, unsafe.Slice((*T)(src), n))
		}
	}
	return func(dst, src unsafe.Pointer, n int) {
		d := unsafe.Slice((*T)(dst), n)
		v.axpy(d, d, unsafe.Slice((*T)(src), n), alpha)
	}
}

func newCombiner(op *optable.Op, dt dtype.DType, args *kernel.Args) (*combiner, error) {
	c := op.Combine
	if c == nil {
		return nil, nil
	}
	lt := kernel.LoopDType(dt)
	fn := pointwiseLoops[c.Code][lt]
	if fn == nil {
		return nil, notImplemented(op, dt)
	}
	cb := &combiner{fn: fn, args: args, dt: dt, lt: lt}
	if lt != dt {
		cb.toLoop, cb.fromLoop = casts[dt][lt], casts[lt][dt]
	}
	if c == optable.Add && lt == dt && args != nil {
		// what pointwiseLoops[Add] (simdAddF32, simdAddF64: addVec) runs
		switch dt {
		case dtype.Float32:
			cb.addRow = addRowOf(&vecF32, args.AlphaF)
		case dtype.Float64:
			cb.addRow = addRowOf(&vecF64, args.AlphaF)
		}
	}
	return cb, nil
}

// row combines n elements: dst at byte stride ds, src at ss.
func (c *combiner) row(dst, src unsafe.Pointer, ds, ss, n int) {
	if c.addRow != nil && ds == c.dt.Size() && ss == ds {
		c.addRow(dst, src, n)
		return
	}
	if c.toLoop == nil {
		c.fn([4]unsafe.Pointer{dst, dst, src}, [4]int{ds, ds, ss}, n, c.args)
		return
	}
	if ds == 0 && n > 1 {
		// one destination for the whole row (an index constant along it):
		// each element is added in turn and rounded to dt, as PyTorch's
		// kernel does, where converting the row would give every element
		// its own copy of the destination
		for i := 0; i < n; i++ {
			c.row(dst, unsafe.Add(src, i*ss), 0, ss, 1)
		}
		return
	}
	bufs := bufPool.Get().(*chunkBufs)
	a, b := unsafe.Pointer(&bufs[0][0]), unsafe.Pointer(&bufs[1][0])
	es := c.lt.Size()
	for off := 0; off < n; off += bufLen {
		m := min(bufLen, n-off)
		d, s := unsafe.Add(dst, off*ds), unsafe.Add(src, off*ss)
		c.toLoop(a, d, es, ds, m)
		c.toLoop(b, s, es, ss, m)
		c.fn([4]unsafe.Pointer{a, a, b}, [4]int{es, es, es}, m, c.args)
		c.fromLoop(d, a, ds, es, m)
	}
	bufPool.Put(bufs)
}

// moveFn copies n elements from src (byte stride ss) to dst (byte stride
// ds): one per element size.
type moveFn func(dst, src unsafe.Pointer, ds, ss, n int)

func move[W uint8 | uint16 | uint32 | uint64](dst, src unsafe.Pointer, ds, ss, n int) {
	es := int(unsafe.Sizeof(W(0)))
	if ds == es && ss == es {
		copy(unsafe.Slice((*W)(dst), n), unsafe.Slice((*W)(src), n))
		return
	}
	for i := 0; i < n; i++ {
		*(*W)(unsafe.Add(dst, i*ds)) = *(*W)(unsafe.Add(src, i*ss))
	}
}

func moverOf(es int) moveFn {
	switch es {
	case 1:
		return move[uint8]
	case 2:
		return move[uint16]
	case 4:
		return move[uint32]
	}
	return move[uint64]
}

// indexCall is the state of one Index call, shared read-only by its
// workers (but for errs).
type indexCall struct {
	op      *optable.Op
	nidx    int
	sizes   []int
	strides []int
	dims    []int
	noWrap  bool
	es      int
	move    moveFn
	comb    *combiner
	base    []unsafe.Pointer
	errs    firstErr
}

func (c *indexCall) fail(i int64, k int) {
	dim := k
	if k < len(c.dims) {
		dim = c.dims[k]
	}
	c.errs.set(errs.New(errs.Index, c.op.Name, "index %d is out of bounds for dimension %d with size %d", i, dim, c.sizes[k]))
}

// delta returns the byte offset that the indices at byte offsets offs[2:]
// (plus i·s0 each) give, and false after reporting an index out of range.
func (c *indexCall) delta(offs, strides []int, i int) (int, bool) {
	d := 0
	for k := 0; k < c.nidx; k++ {
		v := *(*int64)(unsafe.Add(c.base[2+k], offs[2+k]+i*strides[2+k]))
		size := int64(c.sizes[k])
		if v < -size || v >= size || c.noWrap && v < 0 {
			c.fail(v, k)
			return 0, false
		}
		if v < 0 {
			v += size
		}
		d += int(v) * c.strides[k]
	}
	return d, true
}

// check is the Loop2D that checks every index of its range.
func (c *indexCall) check(offs, strides []int, n0, n1 int) {
	nops := c.nidx + 2
	for j := 0; j < n1 && !c.errs.bad.Load(); j++ {
		for k := 0; k < c.nidx; k++ {
			p := unsafe.Add(c.base[2+k], offs[2+k]+j*strides[nops+2+k])
			s0 := strides[2+k]
			size := int64(c.sizes[k])
			for i := 0; i < n0; i++ {
				if v := *(*int64)(unsafe.Add(p, i*s0)); v < -size || v >= size || c.noWrap && v < 0 {
					c.fail(v, k)
					return
				}
				if s0 == 0 {
					break
				}
			}
		}
	}
}

// loop is the Loop2D that moves (or combines) the elements of its range.
func (c *indexCall) loop(offs, strides []int, n0, n1 int) {
	c.part(offs, strides, n0, n1, math.MinInt64, math.MaxInt64)
}

// putPart is one worker's share of a put whose writes collide (Note [Put
// partitions]): the elements whose first index lies in [lo, hi).
type putPart struct {
	c      *indexCall
	lo, hi int64
}

func (q *putPart) loop(offs, strides []int, n0, n1 int) { q.c.part(offs, strides, n0, n1, q.lo, q.hi) }

// first returns the first index at row offsets offs (plus i·s0), wrapped
// to [0, size): the put's indices are checked before it writes.
func (c *indexCall) first(offs, strides []int, i int) int64 {
	v := *(*int64)(unsafe.Add(c.base[2], offs[2]+i*strides[2]))
	if v < 0 {
		v += int64(c.sizes[0])
	}
	return v
}

// part moves (or combines) the elements of its range whose first index
// lies in [lo, hi); reads, and puts without partitions, pass the whole
// int64 range.
func (c *indexCall) part(offs, strides []int, n0, n1 int, lo, hi int64) {
	nops := c.nidx + 2
	all := lo == math.MinInt64 && hi == math.MaxInt64
	constant := true // every index has stride 0 along the rows
	for k := 0; k < c.nidx; k++ {
		if strides[2+k] != 0 {
			constant = false
		}
	}
	if c.op.Put && c.nidx == 1 && constant && strides[0] == c.es && strides[1] == c.es {
		c.putRows(offs, strides, n0, n1, lo, hi)
		return
	}
	var rowArr [8]int
	row := rowArr[:0]
	if nops > len(rowArr) {
		row = make([]int, nops)
	}
	row = row[:nops]
	for j := 0; j < n1; j++ {
		if c.errs.bad.Load() {
			return
		}
		for k := range row {
			row[k] = offs[k] + j*strides[nops+k]
		}
		out, in := unsafe.Add(c.base[0], row[0]), unsafe.Add(c.base[1], row[1])
		if constant {
			if !all {
				if v := c.first(row, strides, 0); v < lo || v >= hi {
					continue
				}
			}
			d, ok := c.delta(row, strides, 0)
			if !ok {
				return
			}
			switch {
			case !c.op.Put:
				c.move(out, unsafe.Add(in, d), strides[0], strides[1], n0)
			case c.comb != nil:
				c.comb.row(unsafe.Add(out, d), in, strides[0], strides[1], n0)
			default:
				c.move(unsafe.Add(out, d), in, strides[0], strides[1], n0)
			}
			continue
		}
		for i := 0; i < n0; i++ {
			if !all {
				if v := c.first(row, strides, i); v < lo || v >= hi {
					continue
				}
			}
			d, ok := c.delta(row, strides, i)
			if !ok {
				return
			}
			o, s := unsafe.Add(out, i*strides[0]), unsafe.Add(in, i*strides[1])
			switch {
			case !c.op.Put:
				c.move(o, unsafe.Add(s, d), 0, 0, 1)
			case c.comb != nil:
				c.comb.row(unsafe.Add(o, d), s, 0, 0, 1)
			default:
				c.move(unsafe.Add(o, d), s, 0, 0, 1)
			}
		}
	}
}

// Index runs an index op over an index plan (Note [Index kernels]).
func (*Backend) Index(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	nidx := p.NumOperands() - 2
	if op.Kind != optable.Index || p.NumOutputs() != 1 || nidx < 0 || nidx != len(args.IndexSizes) || nidx != len(args.IndexStrides) {
		return errs.New(errs.Value, op.Name, "%s: not an index plan", op.Name)
	}
	dt := p.Operand(0).DType
	if !dt.Valid() || p.Operand(1).DType != dt {
		return errs.New(errs.DType, op.Name, "index operands of dtypes %s and %s", dt, p.Operand(1).DType)
	}
	for k := 2; k < p.NumOperands(); k++ {
		if p.Operand(k).DType != dtype.Int64 {
			return errs.New(errs.DType, op.Name, "index tensors must be int64, got %s", p.Operand(k).DType)
		}
	}
	comb, err := newCombiner(op, dt, args)
	if err != nil {
		return err
	}
	if p.NumEl() == 0 {
		return nil
	}
	c := &indexCall{op: op, nidx: nidx, sizes: args.IndexSizes, strides: args.IndexStrides, dims: args.IndexDims, noWrap: args.NoWrap,
		es: dt.Size(), move: moverOf(dt.Size()), comb: comb, base: make([]unsafe.Pointer, p.NumOperands())}
	for k := range c.base {
		c.base[k] = p.Operand(k).Storage.Pointer()
	}
	if op.Put {
		p.ForEach(c.check)
		if err := c.errs.get(); err != nil {
			return err
		}
	}
	if op.Put && nidx > 0 && c.strides[0] != 0 && p.NumEl() >= 2*iter.GrainSize && collides(p) {
		// Note [Put partitions]
		size := int64(c.sizes[0])
		nw := int64(min(runtime.GOMAXPROCS(0), maxPutParts))
		if putParts > 0 {
			nw = int64(putParts)
		}
		nw = min(nw, size)
		if nw >= 2 {
			parallel.For(int(nw), 1, func(b, e int) {
				for w := int64(b); w < int64(e); w++ {
					q := &putPart{c: c, lo: size * w / nw, hi: size * (w + 1) / nw}
					p.SerialForEach(q.loop, 0, p.NumEl())
				}
			})
			return c.errs.get()
		}
	}
	p.ForEach(c.loop)
	return c.errs.get()
}

// putRows is part for a put of contiguous rows through one index that is
// constant along them (index_add_ and index_copy_ of rows, among others),
// with the prefetches of Note [Put rows]; the indices are checked before.
func (c *indexCall) putRows(offs, strides []int, n0, n1 int, lo, hi int64) {
	size, st, rowBytes := int64(c.sizes[0]), c.strides[0], n0*c.es
	out, in, ix := unsafe.Add(c.base[0], offs[0]), unsafe.Add(c.base[1], offs[1]), unsafe.Add(c.base[2], offs[2])
	os, is, xs := strides[3], strides[4], strides[5]
	target := func(j int) (unsafe.Pointer, bool) {
		v := *(*int64)(unsafe.Add(ix, j*xs))
		if v < 0 {
			v += size
		}
		return unsafe.Add(out, j*os+int(v)*st), v >= lo && v < hi
	}
	ahead := 0
	if vec.GatherPrefetch && rowBytes <= putPrefetchMaxRow && int(size)*max(st, -st) >= putPrefetchMinBytes {
		ahead = putPrefetchRows
	}
	for j := 0; j < n1; j++ {
		if ahead > 0 && j+ahead < n1 {
			if p, mine := target(j + ahead); mine {
				vec.Prefetch(unsafe.Slice((*byte)(p), rowBytes))
			}
		}
		dst, mine := target(j)
		if !mine {
			continue
		}
		if src := unsafe.Add(in, j*is); c.comb != nil {
			c.comb.row(dst, src, c.es, c.es, n0)
		} else {
			c.move(dst, src, c.es, c.es, n0)
		}
	}
}

// The bounds of Note [Put rows]'s prefetches.
var (
	// putPrefetchRows is how many rows ahead a put prefetches its
	// destination; 0 turns the prefetches off (the package's benchmarks
	// time the plain loop with it).
	putPrefetchRows = 8
	// putPrefetchMinBytes is the smallest destination a put prefetches
	// into: beyond a core's L2.
	putPrefetchMinBytes = 4 << 20
)

// putPrefetchMaxRow is the longest row, in bytes, that a put prefetches
// (Note [Put rows]).
const putPrefetchMaxRow = 1024

// maxPutParts bounds the workers of a partitioned put: each walks every
// index, and the hardware prefetchers stream the source rows it skips too
// (two partitions cost 1.45× the CPU time of one on index_add_dim0), so
// many partitions would multiply that traffic.
const maxPutParts = 8

// putParts, when positive, is the number of partitions of a put instead of
// GOMAXPROCS: the tests' way to run many partitions on few cores.
var putParts int

// Note [Put partitions]
//
// A put's plan has the destination restrided with stride 0 along the
// indexed dims, so ForEach, which never splits where two chunks could write
// one element, runs it on one goroutine (index_add over dim 0: 2^18 rows of
// 64 floats into 65536). The put is still parallel by destination: each of
// W workers walks the whole plan in plan order but moves only the elements
// whose first index (wrapped) lies in its share [size·w/W, size·(w+1)/W) of
// that dim. Two elements that write one destination element have the same
// indices, so they fall to the same worker, which meets them in the serial
// order: every destination element sees the same updates in the same order
// as on one goroutine, and the result (accumulated floats, or the last of
// duplicate plain writes) does not depend on W, which may therefore follow
// GOMAXPROCS. Each worker rereads the index operands (8 bytes per row of
// the index_add above) and skips what is not its own; a skewed index only
// makes one worker do the serial work. The indices are all checked before
// (Note [Index kernels]), so the skipped rows hide no error. A destination
// whose first indexed dim has stride 0 (expanded: Note [Writes into
// expanded tensors] in package op) is the exception: there different
// first indices write one element, so such a put runs unpartitioned.
//
// Rows of that index_add are short (64 floats), so the call chain of the
// Combine's generated loop (addVec, vecBinary, binaryLayout: layout
// switches around vec.AddF32) cost more than the add itself; a float32 or
// float64 add with contiguous rows calls the same vec primitive directly
// (combiner.addRow), so its results are the loop's bit for bit.

// Note [Put rows]
//
// A put of whole contiguous rows through one index (index_add_ over dim
// 0: 2^18 rows of 64 float32 into [65536, 64]) writes rows of the
// destination in the index's order, which no prefetcher can guess; part's
// general loop (each row's offsets from every operand's strides, the
// index read and wrapped twice) cost a fifth of its time besides. putRows
// reads the index once per row and, where the destination is larger than
// a core's L2 and its rows short, issues a PREFETCHT0 for each line of the
// row putPrefetchRows rows ahead (vec.Prefetch), if that row is this
// worker's (Note [Put partitions]): its misses are then in flight while
// the rows before it are added. Measured in one process on the 2-core
// Zen 5 VM, index_add_dim0 went from 18.5-18.9 ms to 14.2-15.2 with the
// loop alone and 9.6-10.3 with the prefetches (8 rows ahead; 16 was the
// same, 2 and 4 slower); cmd/bench, binaries alternated: 18.6-27.1 ms to
// 10.3-12.6, PyTorch 20.3-28.9. Alternated in one process over rows of
// 16, 64, 256 and 1024 float32 (64 MiB of source into 16 MiB, p50 of 45
// calls, two runs), the prefetches took 26-47% off rows of 16 and 64
// elements on one worker and 9-38% on two partitions; rows of 256 took
// 19-27% less on one worker and the same on two; rows of 1024 (4 KiB), which
// the hardware prefetchers follow, went ±4%. The prefetches change no
// result.

// collides reports whether ForEach would run the whole plan on one
// goroutine because its outermost dim of size above 1 has output stride 0.
func collides(p *iter.Plan) bool {
	sh, st := p.Shape(), p.Operand(0).Strides
	for d := len(sh) - 1; d >= 0; d-- {
		if sh[d] > 1 {
			return st[d] == 0
		}
	}
	return false
}

// gatherCall is the state of one Gather call.
type gatherCall struct {
	op       *optable.Op
	dim      int
	n, size  int    // the index's length along the dim; the indexed operand's
	st       [3]int // byte strides along the dim
	move     moveFn
	comb     *combiner
	base     [3]unsafe.Pointer
	indexed  int
	errs     firstErr
	es       int
	checkRow bool
	// touchSelf: read each self row in line order before gathering from
	// it (Note [Gather rows])
	touchSelf bool
	// prefetch: gather contiguous rows with the prefetching primitives
	// where their indices are sparse (Note [Gather prefetch])
	prefetch bool
}

// touchSink keeps the touches' loads alive.
var touchSink atomic.Uint32

// gatherFast enables the paths of Note [Gather rows]; the package's
// benchmarks turn it off to time the plain row loop beside them.
var gatherFast = true

func (c *gatherCall) fail(j int64) {
	c.errs.set(errs.New(errs.Index, c.op.Name, "index %d is out of bounds for dimension %d with size %d", j, c.dim, c.size))
}

// rows runs fn on the start of each row of a Loop2D range.
func (c *gatherCall) rows(offs, strides []int, n0, n1 int, fn func(p [3]unsafe.Pointer)) {
	for j := 0; j < n1; j++ {
		for i := 0; i < n0; i++ {
			if c.errs.bad.Load() {
				return
			}
			var p [3]unsafe.Pointer
			for k := range p {
				p[k] = unsafe.Add(c.base[k], offs[k]+i*strides[k]+j*strides[3+k])
			}
			fn(p)
		}
	}
}

func (c *gatherCall) check(offs, strides []int, n0, n1 int) {
	c.rows(offs, strides, n0, n1, func(p [3]unsafe.Pointer) {
		size := int64(c.size)
		for t := 0; t < c.n; t++ {
			if j := *(*int64)(unsafe.Add(p[1], t*c.st[1])); j < 0 || j >= size {
				c.fail(j)
				return
			}
		}
	})
}

func (c *gatherCall) loop(offs, strides []int, n0, n1 int) {
	if c.prefetch && !(c.touchSelf && c.dense(offs)) {
		c.prefetchLoop(offs, strides, n0, n1)
		return
	}
	var sink uint8
	c.rows(offs, strides, n0, n1, func(p [3]unsafe.Pointer) { c.row(p, &sink) })
	if c.touchSelf {
		touchSink.Add(uint32(sink)) // once a block: the workers share touchSink's line
	}
}

// row moves or combines one row; the touches of a gather row add into
// *sink.
func (c *gatherCall) row(p [3]unsafe.Pointer, sink *uint8) {
	if !c.op.Put {
		if c.touchSelf {
			*sink += touch(p[2], 0, 1, c.size*c.es)
		}
		switch c.es {
		case 1:
			gatherRow[uint8](c, p[0], p[1], p[2])
		case 2:
			gatherRow[uint16](c, p[0], p[1], p[2])
		case 4:
			gatherRow[uint32](c, p[0], p[1], p[2])
		default:
			gatherRow[uint64](c, p[0], p[1], p[2])
		}
		return
	}
	for t := 0; t < c.n; t++ {
		j := *(*int64)(unsafe.Add(p[1], t*c.st[1]))
		dst, src := unsafe.Add(p[0], int(j)*c.st[0]), unsafe.Add(p[2], t*c.st[2])
		if c.comb != nil {
			c.comb.row(dst, src, 0, 0, 1)
		} else {
			c.move(dst, src, 0, 0, 1)
		}
	}
}

// Note [Gather rows]
//
// A gather row (out[t] = self[index[t]] along the dim) reads self at
// positions no prefetcher can guess: gather_dim1 (4096 rows, 512 indices
// into each 16 KiB row of self) touches most lines of every row, each
// first met at a random place, so each line cost a miss in the order the
// indices asked for it. When the row's indices are at least one per cache
// line of the self row (n·64 ≥ row bytes), self is contiguous along the dim
// and the row is at least 4 KiB, the row is first touched in line order (a
// byte of each line, as the tiles of Note [Tiles for crossed operands] do):
// the stream prefetcher then brings the row at memory speed and the
// gather finds it in L1/L2. Rows whose output, index and self are all
// contiguous along the dim run a slice loop (one compare per element, no
// stride products). The CPU time of gather_dim1 fell from 4–8 ms to
// 2.7–3.4 ms in one process on a loaded machine; interleaving the touches
// of the next row with the gather of this one was slower than touching
// first. Rows of a large self whose indices reach only some of its lines
// prefetch those lines instead (Note [Gather prefetch]).

// gatherRow is Gather's row for elements of type W.
func gatherRow[W uint8 | uint16 | uint32 | uint64](c *gatherCall, out, index, self unsafe.Pointer) {
	size := int64(c.size)
	so, si, ss := c.st[0], c.st[1], c.st[2]
	if es := int(unsafe.Sizeof(W(0))); so == es && si == 8 && ss == es && gatherFast {
		o := unsafe.Slice((*W)(out), c.n)
		ix := unsafe.Slice((*int64)(index), c.n)
		sv := unsafe.Slice((*W)(self), c.size)
		o = o[:len(ix)]
		for t, j := range ix {
			if uint64(j) >= uint64(len(sv)) {
				c.fail(j)
				return
			}
			o[t] = sv[j]
		}
		return
	}
	for t := 0; t < c.n; t++ {
		j := *(*int64)(unsafe.Add(index, t*si))
		if uint64(j) >= uint64(size) {
			c.fail(j)
			return
		}
		*(*W)(unsafe.Add(out, t*so)) = *(*W)(unsafe.Add(self, int(j)*ss))
	}
}

// Gather runs a gather op along args.Dim of a gather plan (Note [Index
// kernels]).
func (*Backend) Gather(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Gather || p.NumOutputs() != 1 || p.NumOperands() != 3 {
		return errs.New(errs.Value, op.Name, "%s: not a gather plan", op.Name)
	}
	dim := args.Dim
	for k := 0; k < 3; k++ {
		if dim < 0 || dim >= p.Operand(k).View.Dim() {
			return errs.New(errs.Index, op.Name, "dim %d out of range for operand %d", dim, k)
		}
	}
	dt := p.Operand(0).DType
	if !dt.Valid() || p.Operand(2).DType != dt || p.Operand(1).DType != dtype.Int64 {
		return errs.New(errs.DType, op.Name, "gather operands of dtypes %s, %s, %s", dt, p.Operand(1).DType, p.Operand(2).DType)
	}
	comb, err := newCombiner(op, dt, &kernel.DefaultArgs)
	if err != nil {
		return err
	}
	c := &gatherCall{op: op, dim: dim, move: moverOf(dt.Size()), comb: comb, es: dt.Size()}
	c.indexed = 2
	if op.Put {
		c.indexed = 0
	}
	c.n = p.Operand(1).View.Shape[dim]
	c.size = p.Operand(c.indexed).View.Shape[dim]
	for k := 0; k < 3; k++ {
		o := p.Operand(k)
		c.st[k] = o.View.Strides[dim] * o.DType.Size()
		c.base[k] = o.Storage.Pointer()
	}
	if p.NumEl() == 0 || c.n == 0 {
		return nil
	}
	contiguous := gatherFast && !op.Put && c.st[0] == c.es && c.st[1] == 8 && c.st[2] == c.es
	c.touchSelf = contiguous && c.n*64 >= c.size*c.es && c.size*c.es >= 4096
	c.prefetch = contiguous && c.prefetchable(p.Operand(2).View.NumEl()*c.es)
	grain := max(1, iter.GrainSize/c.n)
	if op.Put {
		p.ForEachGrain(c.check, grain)
		if err := c.errs.get(); err != nil {
			return err
		}
	}
	p.ForEachGrain(c.loop, grain)
	return c.errs.get()
}
