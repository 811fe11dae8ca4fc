package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// SegmentReduce returns the [len(offsets)−1, inner] matrix whose row b is
// reduction o (Sum, Mean, Amax or Amin) of rows [offsets[b], offsets[b+1])
// of the matrix x [rows, inner], column by column (Note [Segment
// reductions] in package kernel). Offsets must start at 0, never decrease
// and end at x's rows (else a value error); x must be of a float dtype
// (else a dtype error); Amax and Amin refuse an empty segment with
// PyTorch's index error.
func SegmentReduce(o *optable.Op, x *raw.View, offsets []int64) (*raw.View, error) {
	name := o.Name
	if x.Dim() != 2 {
		return nil, errs.New(errs.Value, name, "a segment reduction takes a matrix, got %d dims", x.Dim())
	}
	if !x.DType.IsFloat() {
		return nil, errs.New(errs.DType, name, "segment reduction not implemented for '%s'", x.DType)
	}
	if len(offsets) == 0 || offsets[0] != 0 || offsets[len(offsets)-1] != int64(x.Shape[0]) {
		return nil, errs.New(errs.Value, name, "segment offsets must run from 0 to the %d rows", x.Shape[0])
	}
	for b := 1; b < len(offsets); b++ {
		switch {
		case offsets[b] < offsets[b-1]:
			return nil, errs.New(errs.Value, name, "segment offsets must not decrease, got %d after %d", offsets[b], offsets[b-1])
		case offsets[b] == offsets[b-1] && (o == optable.Amax || o == optable.Amin):
			return nil, errs.New(errs.Index, name, "%s(): Expected reduction dim 0 to have non-zero size.", name)
		}
	}
	out, err := empty(name, x.DType, []int{len(offsets) - 1, x.Shape[1]}, x)
	if err != nil || out.NumEl() == 0 {
		return out, err
	}
	be, err := backendOf(name, x)
	if err != nil {
		return nil, err
	}
	sr, ok := be.(kernel.SegmentReducer)
	if !ok {
		return nil, errs.New(errs.Value, name, "the %s backend has no segment reductions", be.Name())
	}
	m := func(v *raw.View) kernel.Matrix {
		return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, RowStride: v.Strides[0], ColStride: v.Strides[1]}
	}
	return out, sr.SegmentReduce(o, &kernel.Segments{DType: x.DType, Inner: x.Shape[1], Offsets: offsets, In: m(x), Out: m(out)})
}

// SegmentPad returns the [(len(offsets)−1)·rows, inner] matrix whose rows
// b·rows up to b·rows + its length are segment b of x [n, inner] (rows
// offsets[b] up to offsets[b+1]) and whose other rows are filled with the
// element value, a one-element view of x's dtype (Note [Segment padding]
// in package kernel). Offsets must start at 0, never decrease and end at
// x's rows, and no segment may be longer than rows: else a value error.
func SegmentPad(x *raw.View, offsets []int64, rows int, value *raw.View) (*raw.View, error) {
	const name = "to_padded_tensor"
	if x.Dim() != 2 || value.NumEl() != 1 || value.DType != x.DType {
		return nil, errs.New(errs.Value, name, "segment padding takes a matrix and one element of its dtype")
	}
	if len(offsets) == 0 || offsets[0] != 0 || offsets[len(offsets)-1] != int64(x.Shape[0]) {
		return nil, errs.New(errs.Value, name, "segment offsets must run from 0 to the %d rows", x.Shape[0])
	}
	for b := 1; b < len(offsets); b++ {
		if n := offsets[b] - offsets[b-1]; n < 0 || n > int64(rows) {
			return nil, errs.New(errs.Value, name, "segment %d has %d rows, outside [0, %d]", b-1, n, rows)
		}
	}
	out, err := empty(name, x.DType, []int{(len(offsets) - 1) * rows, x.Shape[1]}, x)
	if err != nil || out.NumEl() == 0 {
		return out, err
	}
	be, err := backendOf(name, x, value)
	if err != nil {
		return nil, err
	}
	sp, ok := be.(kernel.SegmentPadder)
	if !ok {
		return nil, errs.New(errs.Value, name, "the %s backend has no segment padding", be.Name())
	}
	// the element's bytes, brought to the host (the value may lie on a device)
	es := x.DType.Size()
	host := device.Alloc(es)
	if err := be.Transfer(host, 0, value.Storage, value.Offset*es, es); err != nil {
		return nil, errs.New(errs.Value, name, "%v", err)
	}
	val := host.Bytes()
	m := func(v *raw.View) kernel.Matrix {
		return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, RowStride: v.Strides[0], ColStride: v.Strides[1]}
	}
	return out, sp.SegmentPad(&kernel.Padding{
		Segments: kernel.Segments{DType: x.DType, Inner: x.Shape[1], Offsets: offsets, In: m(x), Out: m(out)},
		Rows:     rows, Value: val})
}
