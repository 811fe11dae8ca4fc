package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

var _ kernel.SegmentReducer = (*Backend)(nil)

// SegmentReduce implements [kernel.SegmentReducer]: one pass over the
// input, parallel over segments, each folding its rows into a row of
// states with the vector kernels of the column reductions (float32 sums
// into float64 states, as the dense sums; float16 and bfloat16 rows
// converted to float32 first, Note [Segment reductions of 16-bit floats]).
func (*Backend) SegmentReduce(op *optable.Op, s *kernel.Segments) error {
	if !s.DType.IsFloat() {
		return errs.New(errs.DType, op.Name, "segment reduction not implemented for '%s'", s.DType)
	}
	if op != optable.Sum && op != optable.Mean && op != optable.Amax && op != optable.Amin {
		return errs.New(errs.Value, op.Name, "no segment reduction for %s", op.Name)
	}
	n := len(s.Offsets) - 1
	if n <= 0 || s.Inner == 0 {
		return nil
	}
	// a grain of segments whose rows make some 32K elements, at least one
	grain := max(1, 32768/max(1, s.Inner*int(s.Offsets[n])/n))
	parallel.For(n, grain, func(b, e int) {
		var st []float64
		if op == optable.Sum || op == optable.Mean {
			st = make([]float64, s.Inner)
		}
		var h *half16
		if s.DType.IsReduced() {
			h = newHalf16(s.DType, s.Inner)
		}
		for seg := b; seg < e; seg++ {
			if h != nil {
				h.segment(op, s, seg, st)
				continue
			}
			if s.DType == dtype.Float32 {
				segmentOf(op, s, seg, st, vec.AccF32F64, vec.MaxAccF32, vec.MinAccF32)
			} else {
				segmentOf(op, s, seg, st, func(st, x []float64) { vec.AddF64(st, st, x) }, nil, nil)
			}
		}
	})
	return nil
}

// row returns row r of m as n elements of T: nil when its columns are
// not contiguous.
func row[T float32 | float64](m kernel.Matrix, r, n int) []T {
	if m.ColStride != 1 && n > 1 {
		return nil
	}
	var z T
	p := unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride)*int(unsafe.Sizeof(z)))
	return unsafe.Slice((*T)(p), n)
}

// elemAt returns a pointer to element (r, c) of m.
func elemAt[T float32 | float64](m kernel.Matrix, r, c int) *T {
	var z T
	return (*T)(unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride+c*m.ColStride)*int(unsafe.Sizeof(z))))
}

// segmentOf reduces segment seg of a float32 or float64 reduction; st is
// scratch for sums (float64 whatever T is). accRow adds a contiguous row
// into st; maxAcc and minAcc, when not nil, fold a contiguous row into a
// contiguous output row.
func segmentOf[T float32 | float64](op *optable.Op, s *kernel.Segments, seg int, st []float64,
	accRow func(st []float64, x []T), maxAcc, minAcc func(o, x []T)) {
	lo, hi := int(s.Offsets[seg]), int(s.Offsets[seg+1])
	in, out := s.In, s.Out
	switch op {
	case optable.Sum, optable.Mean:
		clear(st)
		for r := lo; r < hi; r++ {
			if x := row[T](in, r, s.Inner); x != nil {
				accRow(st, x)
				continue
			}
			for c := range st {
				st[c] += float64(*elemAt[T](in, r, c))
			}
		}
		div := 1.0
		if op == optable.Mean {
			div = float64(hi - lo)
		}
		for c, v := range st {
			*elemAt[T](out, seg, c) = T(v / div)
		}
	default:
		isMax := op == optable.Amax
		init, fold := T(math.Inf(1)), minAcc
		if isMax {
			init, fold = T(math.Inf(-1)), maxAcc
		}
		for c := range s.Inner {
			*elemAt[T](out, seg, c) = init
		}
		o := row[T](out, seg, s.Inner)
		for r := lo; r < hi; r++ {
			if x := row[T](in, r, s.Inner); fold != nil && o != nil && x != nil {
				fold(o, x)
				continue
			}
			for c := range s.Inner {
				foldExtreme(isMax, elemAt[T](out, seg, c), *elemAt[T](in, r, c))
			}
		}
	}
}

// foldExtreme folds v into the Amax (or Amin) state *st; NaN propagates.
func foldExtreme[T float32 | float64](isMax bool, st *T, v T) {
	if isMax && v > *st || !isMax && v < *st || v != v {
		*st = v
	}
}

var _ kernel.SegmentPadder = (*Backend)(nil)

// SegmentPad implements [kernel.SegmentPadder]: one pass, parallel over
// segments; a segment of contiguous rows into contiguous rows of Out is
// one memmove, and its padding one fill by doubling copies of Value.
func (*Backend) SegmentPad(p *kernel.Padding) error {
	n := len(p.Offsets) - 1
	if n <= 0 || p.Rows == 0 || p.Inner == 0 {
		return nil
	}
	es := p.DType.Size()
	bytesAt := func(m kernel.Matrix, r, c, count int) []byte {
		if count == 0 {
			return nil // an empty segment may start past the last row: no address of it
		}
		return unsafe.Slice((*byte)(unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride+c*m.ColStride)*es)), count*es)
	}
	dense := func(m kernel.Matrix) bool { return (m.ColStride == 1 || p.Inner == 1) && m.RowStride == p.Inner }
	inDense, outDense := dense(p.In), dense(p.Out)
	grain := max(1, 65536/(p.Rows*p.Inner))
	parallel.For(n, grain, func(b, e int) {
		for seg := b; seg < e; seg++ {
			lo, hi := int(p.Offsets[seg]), int(p.Offsets[seg+1])
			first := seg * p.Rows
			if outDense {
				if inDense {
					copy(bytesAt(p.Out, first, 0, (hi-lo)*p.Inner), bytesAt(p.In, lo, 0, (hi-lo)*p.Inner))
				} else {
					for r := lo; r < hi; r++ {
						for c := range p.Inner {
							copy(bytesAt(p.Out, first+r-lo, c, 1), bytesAt(p.In, r, c, 1))
						}
					}
				}
				if pad := (p.Rows - (hi - lo)) * p.Inner; pad > 0 {
					fillBytes(bytesAt(p.Out, first+hi-lo, 0, pad), p.Value)
				}
				continue
			}
			for r := range p.Rows {
				for c := range p.Inner {
					if lo+r < hi {
						copy(bytesAt(p.Out, first+r, c, 1), bytesAt(p.In, lo+r, c, 1))
					} else {
						copy(bytesAt(p.Out, first+r, c, 1), p.Value)
					}
				}
			}
		}
	})
	return nil
}

// fillBytes fills dst with copies of the element v (len(dst) a multiple of
// len(v)): one element, then copies of what is written, doubling.
func fillBytes(dst, v []byte) {
	k := copy(dst, v)
	for k < len(dst) {
		k += copy(dst[k:], dst[:min(k, 1<<16)])
	}
}
