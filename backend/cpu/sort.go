package cpu

import (
	"math"
	"sync"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Radix sort]
//
// Sort ops (Note [Sort plans] in package kernel) turn each element into a
// uint64 key whose unsigned order is the sort's order: integers with their
// sign bit flipped, floats by the usual transform (negative values have
// every bit flipped, others only the sign bit), -0 read as +0 and every
// NaN as the largest key; descending order complements the keys. A row is
// then sorted by a stable least-significant-digit radix sort on bytes of
// the key, carrying the elements' int32 positions: one pass counts all
// eight byte histograms, and a byte that is the same in every key (the
// high bytes of 32-bit keys, the exponent of a narrow range) costs no
// pass. A float32 row of 4096 elements takes four passes over 48 KiB,
// which stay in the core's cache. Rows of at most 32 elements use an
// insertion sort. Values are written by reading the input again at the
// sorted positions, so -0 and NaN payloads come out as they went in.
//
// topk takes PyTorch's choice among equal elements (Note [topk's tie
// order] in package kernel). Where PyTorch uses a heap of the k best
// (kernel.TopKHeap), so does topk, filled while the row is read: most
// elements lose one comparison with the heap's worst and are gone, so the
// row costs about one read. Otherwise it radix sorts the row and, where
// the first k keys have a tie, runs PyTorch's selection on the row (Note
// [Top-k ties]).

// keyFn returns the sort key of the element at p.
type keyFn func(p unsafe.Pointer) uint64

func keyOf(d dtype.DType) keyFn {
	switch d {
	case dtype.Bool, dtype.Uint8:
		return func(p unsafe.Pointer) uint64 { return uint64(*(*uint8)(p)) }
	case dtype.Int8:
		return func(p unsafe.Pointer) uint64 { return uint64(uint8(*(*int8)(p)) ^ 0x80) }
	case dtype.Int16:
		return func(p unsafe.Pointer) uint64 { return uint64(uint16(*(*int16)(p)) ^ 0x8000) }
	case dtype.Int32:
		return func(p unsafe.Pointer) uint64 { return uint64(uint32(*(*int32)(p)) ^ 0x80000000) }
	case dtype.Int64:
		return func(p unsafe.Pointer) uint64 { return uint64(*(*int64)(p)) ^ 1<<63 }
	case dtype.Float16:
		return func(p unsafe.Pointer) uint64 { return halfKey(*(*uint16)(p), 0x7c00) }
	case dtype.BFloat16:
		return func(p unsafe.Pointer) uint64 { return halfKey(*(*uint16)(p), 0x7f80) }
	case dtype.Float32:
		return func(p unsafe.Pointer) uint64 { return f32Key(*(*uint32)(p)) }
	}
	return func(p unsafe.Pointer) uint64 { return f64Key(*(*uint64)(p)) }
}

func halfKey(b uint16, inf uint16) uint64 {
	switch {
	case b&0x7fff > inf:
		return 0xffff
	case b == 0x8000:
		b = 0
	}
	if b&0x8000 != 0 {
		return uint64(^b)
	}
	return uint64(b | 0x8000)
}

func f32Key(b uint32) uint64 {
	switch {
	case b&0x7fffffff > 0x7f800000:
		return math.MaxUint32
	case b == 0x80000000:
		b = 0
	}
	if b&0x80000000 != 0 {
		return uint64(^b)
	}
	return uint64(b | 0x80000000)
}

func f64Key(b uint64) uint64 {
	switch {
	case b&(1<<63-1) > 0x7ff0000000000000:
		return math.MaxUint64
	case b == 1<<63:
		b = 0
	}
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// maxKey is the key of NaN for dtype d (the largest key of a float).
func maxKey(d dtype.DType) uint64 {
	switch d {
	case dtype.Float16, dtype.BFloat16:
		return 0xffff
	case dtype.Float32:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// sortScratch holds one worker's row buffers.
type sortScratch struct {
	keys, keys2 []uint64
	pos, pos2   []int32
	ranked      []kernel.Ranked // topk's heap, or a tied row (Note [Top-k ties])
}

var sortPool = sync.Pool{New: func() any { return new(sortScratch) }}

func (s *sortScratch) grow(n int) {
	if cap(s.keys) < n {
		s.keys, s.keys2 = make([]uint64, n), make([]uint64, n)
		s.pos, s.pos2 = make([]int32, n), make([]int32, n)
	}
	s.keys, s.keys2, s.pos, s.pos2 = s.keys[:n], s.keys2[:n], s.pos[:n], s.pos2[:n]
}

// radixSort sorts keys (and pos along) stably; it returns the sorted
// slices, which are s's buffers in either order.
func (s *sortScratch) radixSort() ([]uint64, []int32) {
	keys, pos := s.keys, s.pos
	n := len(keys)
	if n <= 32 {
		for i := 1; i < n; i++ {
			k, p := keys[i], pos[i]
			j := i
			for ; j > 0 && keys[j-1] > k; j-- {
				keys[j], pos[j] = keys[j-1], pos[j-1]
			}
			keys[j], pos[j] = k, p
		}
		return keys, pos
	}
	var hist [8][256]int
	for _, k := range keys {
		for b := 0; b < 8; b++ {
			hist[b][byte(k>>(8*b))]++
		}
	}
	k2, p2 := s.keys2, s.pos2
	for b := 0; b < 8; b++ {
		h := &hist[b]
		if h[byte(keys[0]>>(8*b))] == n {
			continue // the same byte in every key
		}
		sum := 0
		for i := range h {
			h[i], sum = sum, sum+h[i]
		}
		shift := 8 * b
		for i, k := range keys {
			d := byte(k >> shift)
			at := h[d]
			h[d]++
			k2[at], p2[at] = k, pos[i]
		}
		keys, k2 = k2, keys
		pos, p2 = p2, pos
	}
	return keys, pos
}

// sortCall is the state of one Sort call.
type sortCall struct {
	op     *optable.Op
	args   *kernel.Args
	nout   int
	n      int // the input row's length
	m      int // the output rows' length
	key    keyFn
	nan    uint64 // the NaN key, for a float dtype
	hasNaN bool
	f32    bool // the dtype is float32 (topK's inline keys)
	es     int
	move   moveFn
	st     [3]int // byte strides along the dim
	base   [3]unsafe.Pointer
	errs   firstErr
}

// loop runs each row of a Loop2D range.
func (c *sortCall) loop(offs, strides []int, n0, n1 int) {
	nops := c.nout + 1
	s := sortPool.Get().(*sortScratch)
	defer sortPool.Put(s)
	for j := 0; j < n1; j++ {
		for i := 0; i < n0; i++ {
			var p [3]unsafe.Pointer
			for k := 0; k < nops; k++ {
				p[k] = unsafe.Add(c.base[k], offs[k]+i*strides[k]+j*strides[nops+k])
			}
			c.row(s, p)
		}
	}
}

// row sorts (or selects from) one row.
func (c *sortCall) row(s *sortScratch, p [3]unsafe.Pointer) {
	in, sin := p[2], c.st[2]
	desc := c.args.Descending && (c.op == optable.SortOp || c.op == optable.TopK)
	var flip uint64
	if desc {
		flip = ^uint64(0)
	}
	if c.op == optable.TopK && kernel.TopKHeap(c.m, c.n) {
		c.topKHeap(s, p, flip)
		return
	}
	s.grow(c.n)
	for t := 0; t < c.n; t++ {
		s.keys[t] = c.key(unsafe.Add(in, t*sin)) ^ flip
		s.pos[t] = int32(t)
	}
	if c.op == optable.KthValue { // PyTorch's selection: Note [kthvalue's tie order]
		keys, pos := s.keys[:c.n], s.pos[:c.n]
		kernel.QuickSelect(c.n, c.args.K-1, func(i, j int) bool { return keys[i] > keys[j] },
			func(i, j int) { keys[i], keys[j], pos[i], pos[j] = keys[j], keys[i], pos[j], pos[i] })
		c.write(p, pos[c.args.K-1:c.args.K])
		return
	}
	keys, pos := s.radixSort()
	switch c.op {
	case optable.TopK:
		if tiedAt(keys, c.m) {
			c.topKTied(s, p, flip)
			return
		}
		c.write(p, pos[:c.m])
	case optable.SortOp:
		c.write(p, pos[:c.m])
	case optable.Median, optable.NanMedian:
		nums := c.n
		for c.hasNaN && nums > 0 && keys[nums-1] == c.nan {
			nums--
		}
		if nums < c.n && (c.op == optable.Median || nums == 0) {
			c.write(p, pos[nums:nums+1]) // the first NaN: the sort is stable
			return
		}
		h := (nums - 1) / 2
		c.write(p, pos[h:h+1])
	}
}

// write writes the values at positions pos of the input row, and the
// positions, to the output rows.
func (c *sortCall) write(p [3]unsafe.Pointer, pos []int32) {
	vo, io, in := p[0], p[1], p[2]
	for t, q := range pos {
		c.move(unsafe.Add(vo, t*c.st[0]), unsafe.Add(in, int(q)*c.st[2]), 0, 0, 1)
		*(*int64)(unsafe.Add(io, t*c.st[1])) = int64(q)
	}
}

// topKHeap writes the row's k best elements as PyTorch's heap selection
// picks and orders them (Note [topk's tie order] in package kernel),
// reading the row once.
func (c *sortCall) topKHeap(s *sortScratch, p [3]unsafe.Pointer, flip uint64) {
	k, n := c.m, c.n
	in, sin := p[2], c.st[2]
	keyAt := func(t int) kernel.Ranked { return kernel.Ranked{Key: c.key(unsafe.Add(in, t*sin)) ^ flip, Pos: t} }
	heap := s.rankedRow(k)
	for t := range heap {
		heap[t] = keyAt(t)
	}
	kernel.MakeHeap(heap)
	if c.f32 {
		topKF32(heap, n, in, sin, flip)
	} else {
		for t := k; t < n; t++ {
			if e := keyAt(t); e.Key < heap[0].Key {
				kernel.ReplaceTop(heap, e)
			}
		}
	}
	kernel.SortHeap(heap)
	c.writeRanked(s, p, heap)
}

// Note [Top-k thresholds]
//
// While the heap's worst key is not NaN's, whether a float32 element
// enters the heap is one float compare with the worst value th: for the
// largest k the element is rejected iff x <= th (false for a NaN x, which
// does go in), for the smallest k iff !(x < th) (true for a NaN x, the
// largest key); -0 and +0 compare equal as their keys do. Runs of rejected
// elements are skipped four compares at a time without computing keys;
// the first element not rejected goes through the key path, so the heap
// takes the elements heap selection takes, in the same order.

// topKF32 runs heap selection over elements len(heap) to n of the float32
// row at in (byte stride sin), the heap holding the first len(heap), keys
// complemented by flip.
func topKF32(heap []kernel.Ranked, n int, in unsafe.Pointer, sin int, flip uint64) {
	at := func(t int) float32 { return *(*float32)(unsafe.Add(in, t*sin)) }
	for t := len(heap); t < n; t++ {
		if heap[0].Key^flip != math.MaxUint32 {
			th := at(heap[0].Pos)
			if flip != 0 {
				for t+4 <= n && at(t) <= th && at(t+1) <= th && at(t+2) <= th && at(t+3) <= th {
					t += 4
				}
				for t < n && at(t) <= th {
					t++
				}
			} else {
				for t+4 <= n && !(at(t) < th) && !(at(t+1) < th) && !(at(t+2) < th) && !(at(t+3) < th) {
					t += 4
				}
				for t < n && !(at(t) < th) {
					t++
				}
			}
			if t == n {
				break
			}
		}
		key := f32Key(*(*uint32)(unsafe.Add(in, t*sin))) ^ flip
		if key < heap[0].Key {
			kernel.ReplaceTop(heap, kernel.Ranked{Key: key, Pos: t})
		}
	}
}

// Note [Top-k ties]
//
// Without ties the k best elements of a row and their order are the same
// whatever the algorithm. So where PyTorch selects from the whole row
// (not kernel.TopKHeap), topk radix sorts it, stably, and takes the first
// k, unless two of them have equal keys or the k-th key equals the next:
// then it runs PyTorch's selection (kernel.TopKOrder) on the row.

// tiedAt reports whether the first k of the sorted keys hold two equal
// keys or the k-th equals the next (Note [Top-k ties]).
func tiedAt(keys []uint64, k int) bool {
	for j := 1; j <= k && j < len(keys); j++ {
		if keys[j] == keys[j-1] {
			return true
		}
	}
	return false
}

// topKTied writes the row's k best elements as PyTorch's selection picks
// and orders them (Note [Top-k ties]).
func (c *sortCall) topKTied(s *sortScratch, p [3]unsafe.Pointer, flip uint64) {
	in, sin := p[2], c.st[2]
	row := s.rankedRow(c.n)
	for t := range row {
		row[t] = kernel.Ranked{Key: c.key(unsafe.Add(in, t*sin)) ^ flip, Pos: t}
	}
	kernel.TopKOrder(row, c.m)
	c.writeRanked(s, p, row[:c.m])
}

// rankedRow returns s's topk buffer of n pairs.
func (s *sortScratch) rankedRow(n int) []kernel.Ranked {
	if cap(s.ranked) < n {
		s.ranked = make([]kernel.Ranked, n)
	}
	return s.ranked[:n]
}

// writeRanked writes the elements at the positions of sel, and the
// positions, to the output rows.
func (c *sortCall) writeRanked(s *sortScratch, p [3]unsafe.Pointer, sel []kernel.Ranked) {
	s.grow(len(sel)) // s's keys and positions are spent
	for t, e := range sel {
		s.pos[t] = int32(e.Pos)
	}
	c.write(p, s.pos)
}

// Sort runs a sort op along args.Dim of a row plan (Note [Radix sort]).
func (*Backend) Sort(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	nout := op.Outputs
	if op.Kind != optable.Sort || p.NumOutputs() != nout || p.NumOperands() != nout+op.Arity {
		return errs.New(errs.Value, op.Name, "%s: not a sort plan", op.Name)
	}
	dim := args.Dim
	for k := 0; k < p.NumOperands(); k++ {
		if dim < 0 || dim >= p.Operand(k).View.Dim() {
			return errs.New(errs.Index, op.Name, "dim %d out of range for operand %d", dim, k)
		}
	}
	d := p.CommonDType()
	if !d.Valid() || !op.Accept(d) {
		return notImplemented(op, d)
	}
	if op == optable.SearchSorted {
		return searchSorted(p, args)
	}
	in := p.Operand(nout)
	if in.DType != d || p.Operand(0).DType != d || p.Operand(1).DType != dtype.Int64 {
		return errs.New(errs.DType, op.Name, "sort operands of dtypes %s, %s, %s", p.Operand(0).DType, p.Operand(1).DType, in.DType)
	}
	c := &sortCall{op: op, args: args, nout: nout, key: keyOf(d), es: d.Size(), move: moverOf(d.Size()), hasNaN: d.IsFloat(), f32: d == dtype.Float32}
	if d.IsFloat() {
		c.nan = maxKey(d)
	}
	c.n = in.View.Shape[dim]
	c.m = p.Operand(0).View.Shape[dim]
	for k := 0; k < 3; k++ {
		o := p.Operand(k)
		c.st[k] = o.View.Strides[dim] * o.DType.Size()
		c.base[k] = o.Storage.Pointer()
	}
	switch op {
	case optable.SortOp, optable.TopK:
		if c.m > c.n {
			return errs.New(errs.Index, op.Name, "selected index k out of range")
		}
	case optable.KthValue:
		if args.K < 1 || args.K > c.n || c.m != 1 {
			return errs.New(errs.Index, op.Name, "selected number k out of range")
		}
	case optable.Median, optable.NanMedian:
		if c.n == 0 && p.NumEl() > 0 {
			return errs.New(errs.Index, op.Name, "median of an empty row")
		}
	}
	if p.NumEl() == 0 || c.m == 0 {
		return nil
	}
	if int64(c.n) >= 1<<31 {
		return errs.New(errs.Value, op.Name, "rows of %d elements are too long to sort", c.n)
	}
	p.ForEachGrain(c.loop, max(1, iter.GrainSize/max(c.n, 1)))
	return c.errs.get()
}

// searchSorted runs SearchSorted: the bisection of Note [Sort plans] for
// each value, in float64 (which holds every float and the integers the
// cases compare exactly) or int64.
func searchSorted(p *iter.Plan, args *kernel.Args) error {
	dim := args.Dim
	d := p.CommonDType()
	out := p.Operand(0).DType
	if p.Operand(1).DType != d || p.Operand(2).DType != d || (out != dtype.Int64 && out != dtype.Int32) {
		return errs.New(errs.DType, "searchsorted", "searchsorted operands of dtypes %s, %s, %s", out, p.Operand(1).DType, p.Operand(2).DType)
	}
	var st [3]int
	var base [3]unsafe.Pointer
	for k := 0; k < 3; k++ {
		o := p.Operand(k)
		st[k] = o.View.Strides[dim] * o.DType.Size()
		base[k] = o.Storage.Pointer()
	}
	m, nv := p.Operand(1).View.Shape[dim], p.Operand(2).View.Shape[dim]
	if p.NumEl() == 0 || nv == 0 {
		return nil
	}
	isFloat, right := d.IsFloat(), args.Right
	loadF := floatLoader(d)
	p.ForEachGrain(func(offs, strides []int, n0, n1 int) {
		for j := 0; j < n1; j++ {
			for i := 0; i < n0; i++ {
				var q [3]unsafe.Pointer
				for k := range q {
					if k == 1 && m == 0 {
						// an empty sequence is never read (every value goes
						// to 0), and its offset may lie past its storage's
						// end: no address for checkptr to refuse
						continue
					}
					q[k] = unsafe.Add(base[k], offs[k]+i*strides[k]+j*strides[3+k])
				}
				for t := 0; t < nv; t++ {
					vp := unsafe.Add(q[2], t*st[2])
					lo, hi := 0, m
					if isFloat {
						v := loadF(vp)
						for lo < hi {
							mid := lo + (hi-lo)/2
							s := loadF(unsafe.Add(q[1], mid*st[1]))
							if !(s >= v) || right && !(s > v) {
								lo = mid + 1
							} else {
								hi = mid
							}
						}
					} else {
						v := loadInt(vp, d)
						for lo < hi {
							mid := lo + (hi-lo)/2
							s := loadInt(unsafe.Add(q[1], mid*st[1]), d)
							if s < v || right && s <= v {
								lo = mid + 1
							} else {
								hi = mid
							}
						}
					}
					op := unsafe.Add(q[0], t*st[0])
					if out == dtype.Int32 {
						*(*int32)(op) = int32(lo)
					} else {
						*(*int64)(op) = int64(lo)
					}
				}
			}
		}
	}, max(1, iter.GrainSize/max(nv*8, 1)))
	return nil
}

// floatLoader reads an element of float dtype d as a float64 (exactly).
func floatLoader(d dtype.DType) func(p unsafe.Pointer) float64 {
	switch d {
	case dtype.Float16:
		return func(p unsafe.Pointer) float64 { return float64((*(*dtype.Half)(p)).Float32()) }
	case dtype.BFloat16:
		return func(p unsafe.Pointer) float64 { return float64((*(*dtype.BF16)(p)).Float32()) }
	case dtype.Float32:
		return func(p unsafe.Pointer) float64 { return float64(*(*float32)(p)) }
	}
	return func(p unsafe.Pointer) float64 { return *(*float64)(p) }
}

// loadInt reads an element of integer (or bool) dtype d as an int64.
func loadInt(p unsafe.Pointer, d dtype.DType) int64 {
	switch d {
	case dtype.Bool, dtype.Uint8:
		return int64(*(*uint8)(p))
	case dtype.Int8:
		return int64(*(*int8)(p))
	case dtype.Int16:
		return int64(*(*int16)(p))
	case dtype.Int32:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}
