package cpu

import (
	"sync"
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// loopFn is a generated 1-D pointwise loop over n elements: p holds the
// output pointer then the inputs', s their byte strides.
type loopFn func(p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args)

// castFn converts n elements from src (byte stride ss) to dst (byte stride
// ds). ss may be 0 (a broadcast source).
type castFn func(dst, src unsafe.Pointer, ds, ss, n int)

// Backend is the CPU backend. Its zero value is ready to use.
type Backend struct{}

var _ kernel.Backend = (*Backend)(nil)

// New returns the CPU backend.
func New() *Backend { return &Backend{} }

// The CPU backend runs every op on CPU tensors (Note [Backend per device]
// in package kernel).
func init() { kernel.Register(device.CPU, New()) }

// Name returns "cpu".
func (*Backend) Name() string { return "cpu" }

// Allocator returns the CPU's allocator (device.CPUAllocator).
func (*Backend) Allocator() device.Allocator { return device.CPUAllocator }

// Transfer copies between host storages ([kernel.HostTransfer]).
func (*Backend) Transfer(dst *device.Storage, dstOff int, src *device.Storage, srcOff, nbytes int) error {
	return kernel.HostTransfer(dst, dstOff, src, srcOff, nbytes)
}

// pointwiseLoops and streamLoops are the dispatch tables of Pointwise
// [op code][loop dtype], filled by zz_pointwise.go: the loops, and their
// streaming variants where an op has SIMD kernels (Note [Streaming
// stores]); nil where an op has no loop for a dtype.
var (
	pointwiseLoops = make([][dtype.Count]loopFn, optable.NumCodes())
	streamLoops    = make([][dtype.Count]loopFn, optable.NumCodes())
)

// notImplemented is PyTorch's error for an op without a kernel for d.
func notImplemented(op *optable.Op, d dtype.DType) error {
	return errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("cpu"), d)
}

// Pointwise runs the elementwise op over p: operand 0 is the output,
// operands 1.. its inputs. The loop is chosen by the loop dtype of p's
// common dtype; operands of other dtypes are converted through buffered
// casts. args nil means [kernel.DefaultArgs].
func (*Backend) Pointwise(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	op = op.KernelOp()
	if op.Kind != optable.Pointwise {
		return errs.New(errs.Value, op.Name, "%s is not a pointwise op", op.Name)
	}
	nops := op.Arity + 1
	if p.NumOperands() != nops || p.NumOutputs() != 1 {
		return errs.New(errs.Value, op.Name, "expected 1 output and %d inputs, got %d operands", op.Arity, p.NumOperands())
	}
	compute := p.CommonDType()
	lt := kernel.LoopDType(compute)
	var fn loopFn
	if lt.Valid() {
		fn = pointwiseLoops[op.Code][lt]
	}
	if fn == nil {
		return notImplemented(op, compute)
	}
	if sf := storageLoop(op.Code, compute, p); sf != nil {
		fn, lt = sf, compute // Note [Storage-dtype loops]
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	// what the loop reads and writes, and the dtype values pass through
	var want, via [4]dtype.DType
	for k := 0; k < nops; k++ {
		want[k], via[k] = lt, compute
		if k > 0 && op.OpMathScalar(k-1, compute) && p.Operand(k).DType == lt {
			via[k] = lt // Note [Scalars in opmath] in package optable
		}
	}
	if op.OutBool {
		want[0], via[0] = dtype.Bool, dtype.Bool
	}
	if op.CondBool {
		want[1], via[1] = dtype.Bool, dtype.Bool
	}
	var c call
	cast := false
	for k := 0; k < nops; k++ {
		d := p.Operand(k).DType
		if !d.Valid() {
			return notImplemented(op, d)
		}
		var ok bool
		if k == 0 {
			c.conv[0], ok = chain(want[0], via[0], d)
		} else {
			c.conv[k], ok = chain(d, via[k], want[k])
		}
		if ok {
			cast = true
			c.size[k] = want[k].Size()
		}
	}
	n := p.NumEl()
	if n == 0 {
		return nil
	}
	args = args.ForCompute(op, compute)
	if op.VectorBody.Has(compute) {
		c.vstep = vectorStep(compute)
		va := *args
		va.VectorBody = true
		c.vargs = &va
	}
	if !cast && n < iter.GrainSize && p.Ndim() <= 1 && c.vstep == 0 {
		// One row: the loop itself, without a walk (Note [Per-op overhead]
		// in package op).
		var ptr [4]unsafe.Pointer
		var st [4]int
		ls := p.LoopStrides()
		for k := 0; k < nops; k++ {
			ptr[k], st[k] = addr(p, k), ls[k]
		}
		fn(ptr, st, n, args)
		return nil
	}
	c.crossed = crossedMask(p, &c.esz)
	if !cast && c.crossed == 0 {
		fn = streamLoop(op, lt, p, fn) // Note [Streaming stores]
	}
	c.fn, c.nops, c.args = fn, nops, args
	if !cast && nops == 3 && c.vstep == 0 {
		c.rowsFn = rowLoops[op.Code][lt] // Note [Rows with a scalar each]
	}
	c.setBase(p)
	if !cast && n < iter.GrainSize {
		p.SerialForEach(c.directRows, 0, n) // c stays on the stack
		return nil
	}
	h := getCall()
	h.fn, h.nops, h.args, h.conv, h.size, h.rowsFn = c.fn, c.nops, c.args, c.conv, c.size, c.rowsFn
	h.crossed, h.esz, h.base = c.crossed, c.esz, c.base
	h.vstep, h.vargs = c.vstep, c.vargs
	if cast {
		p.ForEach(h.buffered)
	} else {
		p.ForEach(h.direct)
	}
	h.put()
	return nil
}

// call is the state of one Pointwise or Copy call: on the caller's stack
// for a serial walk, else from a pool with its Loop2D method values bound
// once, so that a call allocates nothing. Workers of a parallel ForEach
// share it read-only.
type call struct {
	fn loopFn
	// rowsFn, if not nil, runs whole blocks of rows of some layouts
	// (Note [Rows with a scalar each]).
	rowsFn rowsFn
	nops   int
	args   *kernel.Args
	conv   [4]conv // first nil: the operand is used in place
	size   [4]int  // loop-dtype element size of each converted operand
	cast   castFn  // Copy
	// sameType: a Copy between operands of one dtype, whose crossed
	// tiles go straight into the output (tiled with a nil loop)
	sameType bool
	// crossed has bit k set for the crossed operands (Note [Tiles for
	// crossed operands]); esz holds every operand's element size.
	crossed uint8
	esz     [4]int
	// base holds each operand's storage address: the walk hands loops
	// byte offsets into the storages (iter.Loop2D).
	base [4]unsafe.Pointer

	// vstep, when not 0, is the step of PyTorch's vectorized loop for an
	// op whose vector body computes otherwise, run with vargs (Note
	// [Vector bodies] in package optable).
	vstep int
	vargs *kernel.Args

	direct, buffered, copy iter.Loop2D // c.directRows, c.bufferedRows, c.copyRows
}

// vectorStep is the number of elements of compute dtype d that PyTorch
// 1.13's vectorized CPU loops take a step: two AVX2 vectors, its default
// capability on AVX-512 machines too. It has no float16 kernels with a
// vector body.
func vectorStep(d dtype.DType) int {
	switch d {
	case dtype.Float32:
		return 16
	case dtype.Float64:
		return 8
	case dtype.BFloat16:
		return 32
	}
	return 0
}

// vectorBody returns how many of the n elements of a row with byte
// strides st (of the operands themselves, in their own dtypes) PyTorch's
// loop computes in its vector body: n - n mod vstep where every operand
// is contiguous, or all but one input that is a broadcast scalar
// (VectorizedLoop2d's is_contiguous and is_contiguous_scalar), else none.
func (c *call) vectorBody(st []int, n int) int {
	if c.vstep == 0 || st[0] != c.esz[0] {
		return 0
	}
	scalars := 0
	for k := 1; k < c.nops; k++ {
		switch st[k] {
		case c.esz[k]:
		case 0:
			scalars++
		default:
			return 0
		}
	}
	if scalars > 1 {
		return 0
	}
	return n - n%c.vstep
}

// split runs the loop over n elements at ptr with loop strides st, the
// first body of them (none when body <= 0) as PyTorch's vector body.
func (c *call) split(ptr [4]unsafe.Pointer, st [4]int, n, body int) {
	if body > 0 {
		c.fn(ptr, st, min(body, n), c.vargs)
		if body >= n {
			return
		}
		for k := 0; k < c.nops; k++ {
			ptr[k] = unsafe.Add(ptr[k], body*st[k])
		}
		n -= body
	}
	c.fn(ptr, st, n, c.args)
}

// addr returns the address of operand k's first element in plan p: its
// storage's address plus its byte offset. Host pointers are computed only
// here and in setBase, inside the CPU backend. An operand with no
// elements may have an offset at or past its storage's end (the diagonal
// of a [2, 0] matrix): it gets the storage's own address, which nothing
// reads, since a pointer past an allocation is invalid in Go.
func addr(p *iter.Plan, k int) unsafe.Pointer {
	o := p.Operand(k)
	if o.Offset >= o.Storage.Len() {
		return o.Storage.Pointer()
	}
	return unsafe.Add(o.Storage.Pointer(), o.Offset)
}

// setBase records the storage address of each operand of p.
func (c *call) setBase(p *iter.Plan) {
	for k := 0; k < p.NumOperands(); k++ {
		c.base[k] = p.Operand(k).Storage.Pointer()
	}
}

// at returns the operands' addresses at the byte offsets a walk handed
// over.
func (c *call) at(offs []int) (ptr [4]unsafe.Pointer) {
	for k := 0; k < c.nops; k++ {
		ptr[k] = unsafe.Add(c.base[k], offs[k])
	}
	return ptr
}

func (c *call) directRows(offs, strides []int, n0, n1 int) { c.rows(c.at(offs), strides, n0, n1) }

func (c *call) bufferedRows(offs, strides []int, n0, n1 int) { c.loop2D(c.at(offs), strides, n0, n1) }

func (c *call) copyRows(offs, strides []int, n0, n1 int) { c.copyPtrs(c.at(offs), strides, n0, n1) }

// crossedMask returns the mask of p's crossed operands and sets their
// element sizes in esz.
func crossedMask(p *iter.Plan, esz *[4]int) uint8 {
	var m uint8
	for k := 0; k < p.NumOperands(); k++ {
		esz[k] = p.Operand(k).DType.Size()
		if p.Crossed(k) {
			m |= 1 << k
		}
	}
	return m
}

var callPool = sync.Pool{New: func() any {
	c := new(call)
	c.direct, c.buffered, c.copy = c.directRows, c.bufferedRows, c.copyRows
	return c
}}

func getCall() *call { return callPool.Get().(*call) }

func (c *call) put() {
	c.fn, c.args, c.cast, c.rowsFn = nil, nil, nil, nil
	c.vstep, c.vargs = 0, nil
	c.conv, c.size, c.base = [4]conv{}, [4]int{}, [4]unsafe.Pointer{}
	c.crossed, c.sameType = 0, false
	callPool.Put(c)
}

// rows runs the loop over n1 rows of n0 elements, by tiles if an operand
// is crossed.
func (c *call) rows(data [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if c.crossed != 0 && n0 > 1 && n1 > 1 {
		tiled(c.plainRows, c.crossed, c.nops, &c.esz, data, strides, n0, n1)
		return
	}
	c.plainRows(data, strides, n0, n1)
}

// plainRows runs the loop over n1 rows of n0 elements, row by row.
func (c *call) plainRows(ptr [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if n0 <= 0 || n1 <= 0 {
		return
	}
	if c.rowsFn != nil && n1 > 1 && c.rowsFn(ptr, strides, n0, n1, c.args) {
		return
	}
	nops := c.nops
	var st [4]int
	copy(st[:nops], strides)
	body := c.vectorBody(strides, n0)
	for j := 1; ; j++ {
		if c.vstep == 0 {
			c.fn(ptr, st, n0, c.args)
		} else {
			c.split(ptr, st, n0, body)
		}
		if j == n1 {
			return
		}
		for k := 0; k < nops; k++ {
			ptr[k] = unsafe.Add(ptr[k], strides[nops+k])
		}
	}
}

// Note [Buffered casts]
// An operand whose dtype is not the loop's is converted in chunks of
// bufLen elements into scratch buffers of the loop dtype (numpy's buffered
// nditer): each input chunk is converted in, the typed loop runs on the
// buffers, and the output chunk is converted back. A broadcast input
// (stride 0) is converted once per row and stays a scalar for the loop's
// fast path. The buffers come from a pool, one set per Loop2D call, so
// concurrent workers never share one and nothing is allocated per row.
// The same conversion loops serve Copy (zz_cast.go).

const bufLen = 256

// chunkBufs holds one buffer per operand and a staging buffer (the last)
// for two-step conversions; 8-byte aligned, so any dtype fits.
type chunkBufs [5][bufLen]uint64

var bufPool = sync.Pool{New: func() any { return new(chunkBufs) }}

// conv converts between an operand and its buffer: one cast, or two
// through a staging buffer of mid-byte elements (see chain).
type conv struct {
	first, second castFn
	mid           int
}

// chain returns the conversion from dtype from to dtype to through the
// dtype via, and whether one is needed. Values pass through via when it
// is a 16-bit float (the compute dtype of a float16/bfloat16 op): PyTorch
// rounds inputs to the common dtype before computing in float32, and rounds
// results to it before casting them to an out= of another dtype.
func chain(from, via, to dtype.DType) (conv, bool) {
	switch {
	case from == to && via == to:
		return conv{}, false
	case via == to || via == from:
		return conv{first: casts[from][to]}, true
	}
	return conv{first: casts[from][via], second: casts[via][to], mid: via.Size()}, true
}

func (c *conv) run(dst, src unsafe.Pointer, ds, ss, n int, stage unsafe.Pointer) {
	if c.second == nil {
		c.first(dst, src, ds, ss, n)
		return
	}
	c.first(stage, src, c.mid, ss, n)
	c.second(dst, stage, ds, c.mid, n)
}

// loop2D is the buffered Loop2D (Note [Buffered casts]), by tiles if an
// operand is crossed.
func (b *call) loop2D(data [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if b.crossed != 0 && n0 > 1 && n1 > 1 {
		tiled(b.plainLoop2D, b.crossed, b.nops, &b.esz, data, strides, n0, n1)
		return
	}
	b.plainLoop2D(data, strides, n0, n1)
}

func (b *call) plainLoop2D(ptr [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if n0 <= 0 || n1 <= 0 {
		return
	}
	bufs := bufPool.Get().(*chunkBufs)
	for j := 1; ; j++ {
		b.row(bufs, ptr, strides, n0)
		if j == n1 {
			break
		}
		for k := 0; k < b.nops; k++ {
			ptr[k] = unsafe.Add(ptr[k], strides[b.nops+k])
		}
	}
	bufPool.Put(bufs)
}

func (b *call) row(bufs *chunkBufs, ptr [4]unsafe.Pointer, strides []int, n int) {
	var q [4]unsafe.Pointer
	var qs [4]int
	stage := unsafe.Pointer(&bufs[4][0])
	body := b.vectorBody(strides, n) // bufLen is a multiple of every step
	for off := 0; off < n; off += bufLen {
		m := min(bufLen, n-off)
		for k := 0; k < b.nops; k++ {
			st := strides[k]
			at := unsafe.Add(ptr[k], off*st)
			c := &b.conv[k]
			if c.first == nil {
				q[k], qs[k] = at, st
				continue
			}
			buf := unsafe.Pointer(&bufs[k][0])
			q[k] = buf
			switch {
			case k == 0:
				qs[0] = b.size[0]
			case st == 0:
				qs[k] = 0
				if off == 0 {
					c.run(buf, at, b.size[k], 0, 1, stage)
				}
			default:
				qs[k] = b.size[k]
				c.run(buf, at, b.size[k], st, m, stage)
			}
		}
		if b.vstep == 0 {
			b.fn(q, qs, m, b.args)
		} else {
			b.split(q, qs, m, body-off)
		}
		if c := &b.conv[0]; c.first != nil {
			c.run(unsafe.Add(ptr[0], off*strides[0]), q[0], strides[0], b.size[0], m, stage)
		}
	}
}

// Copy writes operand 1 into operand 0, converting between their dtypes
// (Note [Conversions]). Same dtypes over contiguous rows are a memmove.
func (*Backend) Copy(p *iter.Plan) error {
	if p.NumOperands() != 2 || p.NumOutputs() != 1 {
		return errs.New(errs.Value, "copy_", "expected 1 output and 1 input, got %d operands", p.NumOperands())
	}
	dst, src := p.Operand(0).DType, p.Operand(1).DType
	if !dst.Valid() || !src.Valid() {
		return errs.New(errs.DType, "copy_", "cannot copy %s to %s", src, dst)
	}
	n := p.NumEl()
	if n == 0 {
		return nil
	}
	cast := casts[src][dst]
	if n < iter.GrainSize && p.Ndim() <= 1 {
		// One row: the cast itself, without a walk.
		ls := p.LoopStrides()
		cast(addr(p, 0), addr(p, 1), ls[0], ls[1], n)
		return nil
	}
	c := getCall()
	c.cast, c.nops, c.sameType = cast, 2, dst == src
	c.crossed = crossedMask(p, &c.esz)
	c.setBase(p)
	p.ForEach(c.copy)
	c.put()
	return nil
}

// copyPtrs is Copy's loop, by tiles if an operand is crossed.
func (c *call) copyPtrs(data [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if c.crossed != 0 && n0 > 1 && n1 > 1 {
		loop := c.plainCopyRows
		if c.crossed == 2 && c.sameType && strides[0] == c.esz[0] && strides[2] <= directMaxRowBytes {
			loop = nil // Note [Tiles for crossed operands]
		}
		tiled(loop, c.crossed, 2, &c.esz, data, strides, n0, n1)
		return
	}
	c.plainCopyRows(data, strides, n0, n1)
}

func (c *call) plainCopyRows(data [4]unsafe.Pointer, strides []int, n0, n1 int) {
	if n0 <= 0 || n1 <= 0 {
		return
	}
	d, s := data[0], data[1]
	for j := 1; ; j++ {
		c.cast(d, s, strides[0], strides[1], n0)
		if j == n1 {
			return
		}
		d, s = unsafe.Add(d, strides[2]), unsafe.Add(s, strides[3])
	}
}

// Note [Conversions]
// Copy and the buffered casts share one conversion per (src, dst) pair,
// PyTorch's static_cast rules: float → integer truncates toward zero
// (narrow integers through int64, so out-of-range values wrap); → bool is
// x != 0, so NaN is true and -0.0 false; bool → number is 0 or 1; float32
// → float16/bfloat16 rounds to nearest even, and float64 and integers go
// through float32 first as PyTorch does; float16/bfloat16 → anything goes
// through float32, which holds them exactly.
