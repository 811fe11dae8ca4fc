package iter

import (
	"github.com/goten-ml/goten/internal/parallel"
)

// ForEach runs loop over every element of the plan, in parallel when the
// plan has at least [GrainSize] elements (see [Plan.ForEachGrain]).
func (p *Plan) ForEach(loop Loop2D) { p.ForEachGrain(loop, GrainSize) }

// ForEachGrain runs loop over every element of the plan. Below grain
// elements it runs on the calling goroutine ([Plan.SerialForEach]);
// otherwise it splits the range into chunks of at least grain elements,
// fixed by the plan and grain only, and runs them on the worker pool. No two
// chunks write the same output element (Note [Parallel reductions]); chunks
// of a plan with a crossed operand are bands of whole rows (Note [Crossed
// operands]).
func (p *Plan) ForEachGrain(loop Loop2D, grain int) {
	n := p.NumEl()
	if n == 0 {
		return
	}
	if n < grain {
		p.SerialForEach(loop, 0, n)
		return
	}
	unit := p.writeUnit()
	if r := p.bandRows(); r > 1 && (unit == 1 || unit == p.shape[0]) {
		unit = p.shape[0] * r // a multiple of the write unit
	}
	outer := (n + unit - 1) / unit
	if outer <= 1 {
		p.SerialForEach(loop, 0, n)
		return
	}
	g := max(1, (grain+unit-1)/unit)
	parallel.For(outer, g, func(b, e int) { p.SerialForEach(loop, b*unit, min(e*unit, n)) })
}

// Note [Crossed operands]
//
// An operand is crossed when it is contiguous along plan dim 1 but far apart
// along dim 0: the transposed input of AddTo(out, m.T(), n), the source of
// x.Permute(0, 2, 3, 1).Contiguous(). The plan's dim 0 follows the output, so
// a walk row by row reads such an operand one element per cache line, and
// with power-of-two strides those lines share a few cache sets and are
// evicted before the next row wants their neighbours: every element costs a
// line from memory (an add of a transposed 4096×4096 float32 matrix ran
// over ten times slower than a contiguous one).
//
// The cure is to read the operand by tiles along dim 1 into a buffer and run
// the row loops on the buffer. The iterator does not do that itself: a tile
// handed to a Loop2D as a smaller 2-D call still reads one element per line
// per row, so only a copy through a buffer helps, and buffers of the
// operand's dtype, their size and the loop run on them are the backend's
// (backend/cpu, Note [Tiles for crossed operands]). The iterator's part is
// to hand each Loop2D call enough rows for tiles: ForEach splits a plan with
// a crossed operand only at multiples of bandRows whole rows (bandBytes of
// the operand's dim 1), so that every call covers whole rows and, but at the
// end of dim 1, a band of them. It is a choice of chunk boundaries, fixed by
// the plan; the walk, and what a loop sees, are otherwise unchanged.

// crossedMinStride is the smallest dim 0 byte stride for which an operand
// contiguous along dim 1 counts as crossed: below it, a row's elements share
// cache lines anyway.
const crossedMinStride = 64

// bandBytes is how many bytes of a crossed operand's dim 1 a band of rows
// covers (eight cache lines: 128 rows of float32).
const bandBytes = 512

// Crossed reports whether operand k is crossed (Note [Crossed operands]):
// contiguous along plan dim 1, with a dim 0 stride of at least 64 bytes,
// and both dims of size above 1.
func (p *Plan) Crossed(k int) bool {
	if len(p.shape) < 2 || p.shape[0] < 2 || p.shape[1] < 2 {
		return false
	}
	st, es := p.ops[k].Strides, p.ops[k].DType.Size()
	return st[1] == es && st[0] >= crossedMinStride
}

// bandRows returns the rows of dim 1 that a parallel chunk of a plan with a
// crossed operand is a multiple of, or 0 if no operand is crossed.
func (p *Plan) bandRows() int {
	r := 0
	for k := range p.ops {
		if p.Crossed(k) {
			r = max(r, bandBytes/p.ops[k].DType.Size())
		}
	}
	if r == 0 {
		return 0
	}
	return min(r, p.shape[1])
}

// Note [Parallel reductions]
//
// A chunk of a parallel walk must not write an output element that another
// chunk writes. That happens when an output has stride 0 on a dim of size
// > 1: a reduction's reduced dims, or an expanded output written with the
// overlap checks off. Let k be one past the last plan dim where some output
// has stride 0 (and size > 1); the first k dims then hold every element that
// shares an output element, so ForEach splits the range only at multiples
// of unit = shape[0]·…·shape[k-1]. Reductions put their reduced dims first
// (Note [Reductions]), so they parallelise over their output elements; a
// full reduction (unit = NumEl) runs serially — kernels that want to split
// one sum across workers must combine partial results themselves.

// writeUnit returns the unit of Note [Parallel reductions].
func (p *Plan) writeUnit() int {
	k := 0
	for d, s := range p.shape {
		if s <= 1 {
			continue
		}
		for i := 0; i < p.nOutputs; i++ {
			if p.ops[i].Strides[d] == 0 {
				k = d + 1
				break
			}
		}
	}
	unit := 1
	for _, s := range p.shape[:k] {
		unit *= s
	}
	return unit
}

// SerialForEach runs loop over the linear range [begin, end) of the plan's
// elements (in plan order, dim 0 fastest), on the calling goroutine, in
// 2-D steps (see [DimCounter]): the rest of a row, then whole rows, then
// the start of a last row. It requires 0 <= begin <= end <= NumEl. A plan
// of one dim or none costs one loop call and no allocation.
func (p *Plan) SerialForEach(loop Loop2D, begin, end int) {
	if begin >= end {
		return
	}
	var offs []int
	if p.busy.CompareAndSwap(false, true) {
		offs = p.scratch
		defer p.busy.Store(false)
	} else {
		offs = make([]int, len(p.ops))
	}
	if len(p.shape) <= 1 {
		for k := range offs {
			offs[k] = p.ops[k].Offset
			if begin != 0 {
				offs[k] += begin * p.ops[k].Strides[0]
			}
		}
		loop(offs, p.strides, end-begin, 1)
		return
	}
	c := NewDimCounter(p.shape, begin, end)
	for !c.Done() {
		idx := c.Values()
		for k := range offs {
			off := p.ops[k].Offset
			for d, i := range idx {
				off += i * p.ops[k].Strides[d]
			}
			offs[k] = off
		}
		s0, s1 := c.Max2DStep()
		loop(offs, p.strides, s0, s1)
		c.Increment(s0, s1)
	}
}

// DimCounter walks a linear range [begin, end) of a shape (dim 0 fastest)
// in 2-D steps: the rest of the current row of dim 0, then as many whole
// rows as fit in the current run of dim 1, then the start of a last row.
// It handles ranges that start or end mid-row, as parallel chunks do. The
// zero value is an empty counter; a DimCounter may be copied.
type DimCounter struct {
	shape       []int
	offset, end int
	small       [8]int
	big         []int
}

// NewDimCounter returns a counter at linear index begin of shape (dim 0
// fastest), to stop at end.
func NewDimCounter(shape []int, begin, end int) DimCounter {
	c := DimCounter{shape: shape, offset: begin, end: end}
	if len(shape) > len(c.small) {
		c.big = make([]int, len(shape))
	}
	v := c.Values()
	r := begin
	for d, s := range shape {
		if s > 0 {
			v[d] = r % s
			r /= s
		}
	}
	return c
}

// Values returns the multi-index of the current position (dim 0 first).
// It is valid until the next Increment.
func (c *DimCounter) Values() []int {
	if c.big != nil {
		return c.big
	}
	return c.small[:len(c.shape)]
}

// Offset returns the current linear index.
func (c *DimCounter) Offset() int { return c.offset }

// Done reports whether the whole range has been walked.
func (c *DimCounter) Done() bool { return c.offset >= c.end }

// Max2DStep returns the largest 2-D step from the current position: size0
// elements of dim 0 (the rest of the row, at most what is left), and size1
// rows — above 1 only from the start of a row, and only whole rows within
// the current run of dim 1.
func (c *DimCounter) Max2DStep() (size0, size1 int) {
	left := c.end - c.offset
	if len(c.shape) == 0 {
		return left, 1
	}
	v := c.Values()
	size0 = min(c.shape[0]-v[0], left)
	size1 = 1
	if size0 == c.shape[0] && len(c.shape) >= 2 {
		size1 = min(c.shape[1]-v[1], left/c.shape[0])
	}
	return size0, size1
}

// Increment advances by a step returned by Max2DStep.
func (c *DimCounter) Increment(size0, size1 int) {
	c.offset += size0 * size1
	v := c.Values()
	overflow, i := size0, 0
	if size1 != 1 {
		overflow, i = size1, 1
	}
	for ; i < len(v) && overflow > 0; i++ {
		x := v[i] + overflow
		overflow = 0
		if x >= c.shape[i] {
			overflow = 1
			x -= c.shape[i]
		}
		v[i] = x
	}
}
