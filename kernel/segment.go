package kernel

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
)

// Note [Segment reductions]
//
// A segment reduction reduces consecutive runs of rows of a matrix: the
// reductions over the ragged dim of a nested tensor, whose packed buffer
// is a [rows, Inner] matrix and whose components are runs of its rows. In
// is that matrix (Matrix.BatchStride unused), Out is [len(Offsets)−1,
// Inner], and row b of Out is the reduction of rows [Offsets[b],
// Offsets[b+1]) of In, column by column. Offsets starts at 0, never
// decreases and ends at In's number of rows; the op layer checks them.
// The op is optable.Sum, Mean, Amax or Amin (as the dense reductions:
// NaN propagates through Amax and Amin; a float32 sum accumulates in
// float64, float16 and bfloat16 in float32 or wider, rounded once). Over
// an empty segment Sum writes 0 and Mean NaN; Amax and Amin have no value
// there, and the op layer refuses such segments. Out and In have dtype
// DType, a float dtype (a backend refuses others with an errs.DType
// error); Out must not overlap In. Segments write
// disjoint rows, so a backend runs them in any order, in parallel.

// Segments describes a segment reduction (Note [Segment reductions]).
type Segments struct {
	DType   dtype.DType
	Inner   int     // the number of columns
	Offsets []int64 // segment b is rows [Offsets[b], Offsets[b+1]) of In
	In, Out Matrix
}

// SegmentReducer is the optional [Backend] method that runs segment
// reductions (Note [Segment reductions]): optional so that a backend
// without it still satisfies Backend; the op layer refuses segment
// reductions on such a backend's device.
type SegmentReducer interface {
	// SegmentReduce runs op over the segments of s.
	SegmentReduce(op *optable.Op, s *Segments) error
}

// Note [Segment padding]
//
// Segment padding is to_padded_tensor of a nested tensor ragged in its
// first dim only: segment b of In (rows [Offsets[b], Offsets[b+1])) goes
// to rows [b·Rows, b·Rows + its length) of Out, a [(len(Offsets)−1)·Rows,
// Inner] matrix, and the rest of those Rows rows is filled with Value (the
// bytes of one element of DType, any dtype). Each element of Out is
// written once, its previous contents ignored; no segment is longer than
// Rows (the op layer checks). Elements are moved, not converted.

// Padding describes a segment padding (Note [Segment padding]).
type Padding struct {
	Segments
	Rows  int
	Value []byte
}

// SegmentPadder is the optional [Backend] method that runs segment
// paddings (Note [Segment padding]); the op layer refuses them on a
// backend without it.
type SegmentPadder interface {
	// SegmentPad writes the padded form of p.In into p.Out.
	SegmentPad(p *Padding) error
}
