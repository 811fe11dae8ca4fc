package iter

import (
	"math"
)

// maxIndex is the largest index or byte offset a 32-bit indexed kernel can
// address; tests lower it with [SetMaxIndexForTesting].
var maxIndex = math.MaxInt32

// SetMaxIndexForTesting sets the limit that [Plan.CanUse32BitIndexing]
// checks (math.MaxInt32 normally), so that tests can split small plans, and
// returns a function that restores it. It is not safe to call concurrently
// with other uses of the package.
func SetMaxIndexForTesting(n int) (restore func()) {
	old := maxIndex
	maxIndex = n
	return func() { maxIndex = old }
}

// CanUse32BitIndexing reports whether the number of elements, and every
// operand's largest byte offset from its data pointer (plus one), fit in a
// signed 32-bit integer (PyTorch's can_use_32bit_indexing).
func (p *Plan) CanUse32BitIndexing() bool {
	switch n := p.NumEl(); {
	case n == 0:
		return true // nothing is indexed (and splitting would move pointers past storage)
	case n > maxIndex:
		return false
	}
	for k := range p.ops {
		off := 1
		for d, s := range p.shape {
			off += (s - 1) * p.ops[k].Strides[d]
		}
		if off > maxIndex {
			return false
		}
	}
	return true
}

// With32BitIndexing splits the plan into sub-plans that each satisfy
// [Plan.CanUse32BitIndexing] and that together cover every element exactly
// once, by halving the dim of largest byte extent until they fit
// (PyTorch's with_32bit_indexing). A plan that fits is returned alone.
// Splitting a reduction on a reduced dim sets [Plan.Accumulate] and
// [Plan.IsFinalOutput] on the halves.
func (p *Plan) With32BitIndexing() []*Plan {
	var out []*Plan
	stack := []*Plan{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := -1
		if !q.CanUse32BitIndexing() {
			d = q.DimToSplit()
		}
		if d < 0 {
			out = append(out, q)
			continue
		}
		lo, hi := q.Split(d)
		stack = append(stack, hi, lo)
	}
	return out
}

// DimToSplit returns the plan dim of size at least 2 over which some
// operand spans the most bytes ((size-1)·|stride|), or -1 if every dim has
// size below 2. Ties go to the outer dim.
func (p *Plan) DimToSplit() int {
	best, dim := -1, -1
	for d := len(p.shape) - 1; d >= 0; d-- {
		s := p.shape[d]
		if s < 2 {
			continue
		}
		for k := range p.ops {
			st := p.ops[k].Strides[d]
			if st < 0 {
				st = -st
			}
			if e := (s - 1) * st; e > best {
				best, dim = e, d
			}
		}
	}
	return dim
}

// Split returns the two halves of the plan along dim d (size at least 2):
// lo covers indices [0, size/2) of the dim and hi the rest. If d is reduced
// (Note [Reductions]), both halves write the same outputs: lo is not final
// and hi accumulates (PyTorch's split).
func (p *Plan) Split(d int) (lo, hi *Plan) {
	size := p.shape[d]
	overlaps := p.IsDimReduced(d)
	loSize := size / 2
	lo = p.Narrow(d, 0, loSize)
	hi = p.Narrow(d, loSize, size-loSize)
	lo.notFinal = lo.notFinal || overlaps
	hi.accumulate = hi.accumulate || overlaps
	return lo, hi
}

// Narrow returns a plan restricted to indices [start, start+size) of plan
// dim d (size at least 1): operand offsets move to the start, and [Plan.ViewOffsets] records it. A dim narrowed to size 1 is
// coalesced away, except in reductions.
func (p *Plan) Narrow(d, start, size int) *Plan {
	q := p.clone()
	q.shape[d] = size
	q.viewOffsets[d] += start
	for k := range q.ops {
		q.ops[k].Offset += q.ops[k].Strides[d] * start
	}
	if size == 1 && !q.isReduction {
		q.coalesceDims()
	}
	q.setLoopStrides()
	return q
}
