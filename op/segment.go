package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// SegmentReduce returns the [len(offsets)−1, inner] matrix whose row b is
// reduction o (Sum, Mean, Amax or Amin) of rows [offsets[b], offsets[b+1])
// of the matrix x [rows, inner], column by column (Note [Segment
// reductions] in package kernel). Offsets must start at 0, never decrease
// and end at x's rows (else a value error); x must be float32 or float64
// (else a dtype error); Amax and Amin refuse an empty segment with
// PyTorch's index error.
func SegmentReduce(o *optable.Op, x *raw.View, offsets []int64) (*raw.View, error) {
	name := o.Name
	if x.Dim() != 2 {
		return nil, errs.New(errs.Value, name, "a segment reduction takes a matrix, got %d dims", x.Dim())
	}
	if x.DType != dtype.Float32 && x.DType != dtype.Float64 {
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
