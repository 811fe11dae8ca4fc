package kerneltest

import (
	"fmt"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The segment reduction cases (Note [Segment reductions] in package
// kernel): Sum, Mean, Amax and Amin × float32 and float64 × segmentations
// (one segment, empty ones for Sum and Mean, many of one row, uneven runs)
// × input layouts (row-major, padded rows, columns apart: a transposed
// input), the output's guard bands checked byte by byte. Values are fold
// values with NaN, ±Inf and ±0 mixed in, so NaN propagation is checked
// too. A backend without kernel.SegmentReducer skips them.

var segmentOps = []*optable.Op{optable.Sum, optable.Mean, optable.Amax, optable.Amin}

// segmentations are lists of segment lengths; those with an empty segment
// run for Sum and Mean only.
var segmentations = [][]int{{5}, {1, 1, 1}, {3, 0, 4, 1}, {2, 3, 0}, {0}, {7, 2, 9, 1, 6}, {40, 3, 25}}

// segments adds the segment reduction cases.
func (s *suite) segments() {
	for _, op := range segmentOps {
		for _, d := range []dtype.DType{dtype.Float32, dtype.Float64} {
			for _, lens := range segmentations {
				empty := false
				for _, n := range lens {
					empty = empty || n == 0
				}
				if empty && (op == optable.Amax || op == optable.Amin) {
					continue
				}
				for _, inner := range []int{1, 5, 37} {
					for _, layout := range []string{"rowmajor", "padded", "transposed"} {
						path := []string{"segment", op.Name, d.String(), fmt.Sprintf("lens%v-inner%d", lens, inner), layout}
						s.add(func() error { return s.runSegment(op, d, lens, inner, layout, path) }, path...)
					}
				}
			}
		}
	}
}

// runSegment runs one segment reduction case.
func (s *suite) runSegment(op *optable.Op, d dtype.DType, lens []int, inner int, layout string, path []string) error {
	if _, ok := s.b.(kernel.SegmentReducer); !ok {
		return skipped("the backend has no segment reductions")
	}
	offsets := []int64{0}
	for _, n := range lens {
		offsets = append(offsets, offsets[len(offsets)-1]+int64(n))
	}
	rows := int(offsets[len(lens)])
	var in spec
	switch layout {
	case "rowmajor":
		in = strided([]int{rows, inner}, []int{inner, 1}, 3, 2)
	case "padded":
		in = strided([]int{rows, inner}, []int{inner + 2, 1}, 1, 3)
	default:
		in = strided([]int{rows, inner}, []int{1, max(rows, 1)}, 2, 2)
	}
	r := rng(path...)
	ts := []*tensor{
		newTensor(d, in).fill(func() value { return specialValue(r, d) }),
		newTensor(d, strided([]int{len(lens), inner}, []int{inner + 1, 1}, 2, 2)).garbage(),
	}
	matrix := func(v *raw.View) kernel.Matrix {
		return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, RowStride: v.Strides[0], ColStride: v.Strides[1]}
	}
	run := func(be kernel.Backend, vs []*raw.View) error {
		return be.(kernel.SegmentReducer).SegmentReduce(op, &kernel.Segments{DType: d, Inner: inner, Offsets: offsets, In: matrix(vs[0]), Out: matrix(vs[1])})
	}
	return s.same(ts, []int{1}, foldTolerance(d), run, nil)
}

// padLayouts lay out a padding case's input and output: the output dense
// or with gaps between its rows.
var padLayouts = []struct{ in, out string }{
	{"rowmajor", "dense"}, {"padded", "dense"}, {"transposed", "dense"}, {"rowmajor", "gaps"},
}

// paddings adds the segment padding cases (Note [Segment padding] in
// package kernel): every dtype × segmentations × row counts (the longest
// segment's, and more) × inner sizes × layouts.
func (s *suite) paddings() {
	for _, d := range dtype.All {
		for _, lens := range segmentations {
			most := 0
			for _, n := range lens {
				most = max(most, n)
			}
			for _, rows := range []int{most, most + 2} {
				for _, inner := range []int{1, 5} {
					for _, l := range padLayouts {
						path := []string{"segment-pad", d.String(), fmt.Sprintf("lens%v-rows%d-inner%d", lens, rows, inner), l.in + "-" + l.out}
						s.add(func() error { return s.runPadding(d, lens, rows, inner, l.in, l.out, path) }, path...)
					}
				}
			}
		}
	}
}

// runPadding runs one segment padding case.
func (s *suite) runPadding(d dtype.DType, lens []int, rows, inner int, inLayout, outLayout string, path []string) error {
	if _, ok := s.b.(kernel.SegmentPadder); !ok {
		return skipped("the backend has no segment padding")
	}
	offsets := []int64{0}
	for _, n := range lens {
		offsets = append(offsets, offsets[len(offsets)-1]+int64(n))
	}
	total := int(offsets[len(lens)])
	var in spec
	switch inLayout {
	case "rowmajor":
		in = strided([]int{total, inner}, []int{inner, 1}, 3, 2)
	case "padded":
		in = strided([]int{total, inner}, []int{inner + 2, 1}, 1, 3)
	default:
		in = strided([]int{total, inner}, []int{1, max(total, 1)}, 2, 2)
	}
	outRows := len(lens) * rows
	out := strided([]int{outRows, inner}, []int{inner, 1}, 2, 2)
	if outLayout == "gaps" {
		out = strided([]int{outRows, inner}, []int{inner + 1, 1}, 2, 2)
	}
	r := rng(path...)
	ts := []*tensor{
		newTensor(d, in).fill(func() value { return anyValue(r, d, true) }),
		newTensor(d, out).garbage(),
	}
	val := one(d, anyValue(r, d, true)).Bytes()
	matrix := func(v *raw.View) kernel.Matrix {
		return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, RowStride: v.Strides[0], ColStride: v.Strides[1]}
	}
	run := func(be kernel.Backend, vs []*raw.View) error {
		return be.(kernel.SegmentPadder).SegmentPad(&kernel.Padding{
			Segments: kernel.Segments{DType: d, Inner: inner, Offsets: offsets, In: matrix(vs[0]), Out: matrix(vs[1])},
			Rows:     rows, Value: val})
	}
	return s.same(ts, []int{1}, exact, run, nil)
}
