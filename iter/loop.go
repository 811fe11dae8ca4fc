package iter

import "unsafe"

// ForEach runs loop over every element of the plan.
func (p *Plan) ForEach(loop Loop2D) { p.SerialForEach(loop, 0, p.NumEl()) }

// SerialForEach runs loop over the linear range [begin, end) of the plan's
// elements (in plan order, fastest dim first), on the calling goroutine.
func (p *Plan) SerialForEach(loop Loop2D, begin, end int) {
	if begin >= end {
		return
	}
	nt := len(p.ops)
	data := make([]unsafe.Pointer, nt)
	strides := make([]int, 2*nt)
	if len(p.shape) == 0 {
		for k := range p.ops {
			data[k] = unsafe.Add(p.ops[k].Storage.Pointer(), p.ops[k].Offset)
		}
		loop(data, strides, 1, 1)
		return
	}
	size0 := p.shape[0]
	for k := range p.ops {
		strides[k] = p.ops[k].Strides[0]
	}
	idx := make([]int, len(p.shape))
	for lin := begin; lin < end; {
		// decompose lin
		r := lin
		for d := range p.shape {
			idx[d] = r % p.shape[d]
			r /= p.shape[d]
		}
		n := min(size0-idx[0], end-lin)
		for k := range p.ops {
			off := p.ops[k].Offset
			for d, i := range idx {
				off += i * p.ops[k].Strides[d]
			}
			data[k] = unsafe.Add(p.ops[k].Storage.Pointer(), off)
		}
		loop(data, strides, n, 1)
		lin += n
	}
}
