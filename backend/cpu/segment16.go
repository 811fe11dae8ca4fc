package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Segment reductions of 16-bit floats]
//
// A float16 or bfloat16 segment reduction folds in float32 (and its sums
// in float64, as float32's), as the dense reductions of those dtypes
// accumulate in float32: each input row is converted to a float32 row
// (the vector conversions of the buffered casts; a strided row gathered
// first), folded by the float32 kernels, and the result row rounded once
// to the dtype, to nearest even. A sum's float64 total is rounded to
// float32 before the 16-bit dtype, a double rounding that can differ from
// one direct rounding only on exact ties of the 16-bit dtype, which a sum
// of float32-exact inputs rarely hits (the conformance kit allows 2 ulps).

// half16 is one worker's scratch for 16-bit segments: a float32 row of
// inputs, a float32 row of results, and a 16-bit row for gathers and
// stores.
type half16 struct {
	toF32   func(dst []float32, src []uint16)
	fromF32 func(dst []uint16, src []float32)
	x, o    []float32
	bits    []uint16
}

func newHalf16(d dtype.DType, inner int) *half16 {
	h := &half16{toF32: vec.F16ToF32, fromF32: vec.F32ToF16,
		x: make([]float32, inner), o: make([]float32, inner), bits: make([]uint16, inner)}
	if d == dtype.BFloat16 {
		h.toF32, h.fromF32 = vec.BF16ToF32, vec.F32ToBF16
	}
	return h
}

// load converts row r of m into h.x.
func (h *half16) load(m kernel.Matrix, r int) {
	n := len(h.x)
	src := h.bits
	if m.ColStride == 1 || n == 1 {
		src = unsafe.Slice((*uint16)(unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride)*2)), n)
	} else {
		for c := range n {
			src[c] = *(*uint16)(unsafe.Add(m.Storage.Pointer(), (m.Offset+r*m.RowStride+c*m.ColStride)*2))
		}
	}
	h.toF32(h.x, src)
}

// segment reduces segment seg of s into its row of Out; st is the float64
// scratch of sums.
func (h *half16) segment(op *optable.Op, s *kernel.Segments, seg int, st []float64) {
	lo, hi := int(s.Offsets[seg]), int(s.Offsets[seg+1])
	switch op {
	case optable.Sum, optable.Mean:
		clear(st)
		for r := lo; r < hi; r++ {
			h.load(s.In, r)
			vec.AccF32F64(st, h.x)
		}
		div := 1.0
		if op == optable.Mean {
			div = float64(hi - lo)
		}
		for c, v := range st {
			h.o[c] = float32(v / div)
		}
	default:
		init, fold := float32(math.Inf(1)), vec.MinAccF32
		if op == optable.Amax {
			init, fold = float32(math.Inf(-1)), vec.MaxAccF32
		}
		for c := range h.o {
			h.o[c] = init
		}
		for r := lo; r < hi; r++ {
			h.load(s.In, r)
			fold(h.o, h.x)
		}
	}
	h.fromF32(h.bits, h.o)
	out := s.Out
	for c, v := range h.bits {
		*(*uint16)(unsafe.Add(out.Storage.Pointer(), (out.Offset+seg*out.RowStride+c*out.ColStride)*2)) = v
	}
}
