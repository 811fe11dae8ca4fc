package ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

var _ kernel.SegmentReducer = (*Backend)(nil)

// SegmentReduce implements [kernel.SegmentReducer]: each output element
// folds its column of the segment in row order, in float64, and is
// rounded once to the dtype.
func (*Backend) SegmentReduce(op *optable.Op, s *kernel.Segments) error {
	if !s.DType.IsFloat() {
		return errs.New(errs.DType, op.Name, "segment reduction not implemented for '%s'", s.DType)
	}
	if op != optable.Sum && op != optable.Mean && op != optable.Amax && op != optable.Amin {
		return errs.New(errs.Value, op.Name, "no segment reduction for %s", op.Name)
	}
	es := s.DType.Size()
	at := func(m kernel.Matrix, r, c int) unsafe.Pointer {
		return unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride+c*m.ColStride)*es)
	}
	get := func(p unsafe.Pointer) float64 { return load(p, s.DType).f }
	for b := 0; b+1 < len(s.Offsets); b++ {
		lo, hi := int(s.Offsets[b]), int(s.Offsets[b+1])
		for c := range s.Inner {
			var acc float64
			switch op {
			case optable.Amax:
				acc = math.Inf(-1)
			case optable.Amin:
				acc = math.Inf(1)
			}
			for r := lo; r < hi; r++ {
				v := get(at(s.In, r, c))
				switch op {
				case optable.Sum, optable.Mean:
					acc += v
				case optable.Amax:
					if v > acc || v != v {
						acc = v
					}
				case optable.Amin:
					if v < acc || v != v {
						acc = v
					}
				}
				if acc != acc && (op == optable.Amax || op == optable.Amin) {
					break
				}
			}
			if op == optable.Mean {
				acc /= float64(hi - lo) // 0/0 is NaN over an empty segment
			}
			store(at(s.Out, b, c), s.DType, value{f: acc}, true)
		}
	}
	return nil
}

var _ kernel.SegmentPadder = (*Backend)(nil)

// SegmentPad implements [kernel.SegmentPadder] element by element.
func (*Backend) SegmentPad(p *kernel.Padding) error {
	es := p.DType.Size()
	at := func(m kernel.Matrix, r, c int) []byte {
		return unsafe.Slice((*byte)(unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride+c*m.ColStride)*es)), es)
	}
	for b := 0; b+1 < len(p.Offsets); b++ {
		lo, hi := int(p.Offsets[b]), int(p.Offsets[b+1])
		for r := range p.Rows {
			for c := range p.Inner {
				if lo+r < hi {
					copy(at(p.Out, b*p.Rows+r, c), at(p.In, lo+r, c))
				} else {
					copy(at(p.Out, b*p.Rows+r, c), p.Value)
				}
			}
		}
	}
	return nil
}
