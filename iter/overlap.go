package iter

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Note [Memory overlap]
//
// PyTorch (MemoryOverlap.cpp) refuses two kinds of aliasing before an op
// writes anything, and this package follows it exactly:
//
//   - An output with internal overlap: one whose layout is not
//     non-overlapping-and-dense and that has stride 0 on a dim of size > 1
//     (an expanded tensor). Other overlapping layouts (as_strided tricks)
//     are "too hard" to decide cheaply and are allowed, as in PyTorch.
//   - An output that partly overlaps an input. PyTorch decides this only
//     when both views are non-overlapping-and-dense (they then cover the
//     byte ranges [start, start+numel·itemsize) exactly): on the same
//     storage, the same range with the same strides is a full overlap (an
//     in-place op, allowed), any other intersection is partial (an error).
//     When either view is not dense the answer is "too hard" and allowed.
//     The same *raw.View as output and input is always a full overlap, and
//     views without elements never overlap.
//
// The messages are PyTorch's; the error kind is errs.Overlap.

const (
	msgInternalOverlap = "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
	msgPartialOverlap  = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
)

// MemOverlap says whether a view's elements overlap each other.
type MemOverlap uint8

// The answers of [InternalOverlap].
const (
	OverlapNo      MemOverlap = iota // no two elements share memory
	OverlapYes                       // some elements share memory (stride 0 on a dim of size > 1)
	OverlapTooHard                   // maybe: too expensive to decide
)

// OverlapStatus says how two views' memory relates.
type OverlapStatus uint8

// The answers of [GetOverlapStatus].
const (
	StatusNo      OverlapStatus = iota // disjoint
	StatusFull                         // the same elements, in the same layout
	StatusPartial                      // some memory shared, but not as the same layout
	StatusTooHard                      // maybe: too expensive to decide
)

// InternalOverlap reports whether v's elements overlap each other (PyTorch's
// has_internal_overlap; see Note [Memory overlap]).
func InternalOverlap(v *raw.View) MemOverlap {
	if shape.IsNonOverlappingAndDense(v.Shape, v.Strides) {
		return OverlapNo
	}
	for i, s := range v.Strides {
		if s == 0 && v.Shape[i] > 1 {
			return OverlapYes
		}
	}
	return OverlapTooHard
}

// GetOverlapStatus reports how the memory of a and b relates (PyTorch's
// get_overlap_status; see Note [Memory overlap]).
func GetOverlapStatus(a, b *raw.View) OverlapStatus {
	if a == b {
		return StatusFull
	}
	na, nb := shape.NumEl(a.Shape), shape.NumEl(b.Shape)
	if na == 0 || nb == 0 {
		return StatusNo
	}
	if !shape.IsNonOverlappingAndDense(a.Shape, a.Strides) || !shape.IsNonOverlappingAndDense(b.Shape, b.Strides) {
		return StatusTooHard
	}
	if a.Storage != nil && device.SameMemory(a.Storage, b.Storage) {
		aBegin, bBegin := a.ByteOffset(), b.ByteOffset()
		aEnd, bEnd := aBegin+na*a.DType.Size(), bBegin+nb*b.DType.Size()
		if aBegin == bBegin && aEnd == bEnd {
			if shape.Equal(a.Strides, b.Strides) {
				return StatusFull
			}
			return StatusPartial
		}
		if aBegin < bEnd && bBegin < aEnd {
			return StatusPartial
		}
	}
	return StatusNo
}

// CheckNoInternalOverlap returns an errs.Overlap error, raised by op, if
// the elements of the written-to view out overlap each other (PyTorch's
// assert_no_internal_overlap).
func CheckNoInternalOverlap(op string, out *raw.View) error {
	if InternalOverlap(out) == OverlapYes {
		return errs.New(errs.Overlap, op, msgInternalOverlap)
	}
	return nil
}

// CheckNoPartialOverlap returns an errs.Overlap error, raised by op, if the
// written-to view out partly overlaps in (PyTorch's
// assert_no_partial_overlap). A full overlap is allowed.
func CheckNoPartialOverlap(op string, out, in *raw.View) error {
	if GetOverlapStatus(out, in) == StatusPartial {
		return errs.New(errs.Overlap, op, msgPartialOverlap)
	}
	return nil
}

// CheckNoOverlap returns an errs.Overlap error, raised by op, if the
// written-to view out overlaps in partly or fully (PyTorch's
// assert_no_overlap, for ops such as cat that cannot work in place).
func CheckNoOverlap(op string, out, in *raw.View) error {
	if s := GetOverlapStatus(out, in); s == StatusPartial || s == StatusFull {
		return errs.New(errs.Overlap, op, msgPartialOverlap)
	}
	return nil
}

// checkOverlaps runs PyTorch's compute_mem_overlaps: each output against
// itself, then against every input that is not the same view.
func (c *Config) checkOverlaps() error {
	for i := 0; i < c.nOut; i++ {
		out := c.output(i).view
		if out == nil {
			continue
		}
		if err := CheckNoInternalOverlap(c.opName, out); err != nil {
			return err
		}
		for j := 0; j < c.nIn; j++ {
			in := c.input(j)
			// Views of different storages never overlap: skip the
			// density work (the answer is the same).
			if in != out && in.Storage == out.Storage {
				if err := CheckNoPartialOverlap(c.opName, out, in); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
