package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// CopyInto writes src (broadcast to dst's shape, converted to dst's dtype)
// into dst: PyTorch's copy_. With checkOverlap, a dst that overlaps src
// partly, or has overlapping elements itself, is an overlap error.
func CopyInto(name string, dst, src *raw.View, checkOverlap bool) (*raw.View, error) {
	if dst.Storage == src.Storage && dst.Offset == src.Offset && dst.DType == src.DType &&
		shape.Equal(dst.Shape, src.Shape) && shape.Equal(dst.Strides, src.Strides) {
		return dst, nil // copying a view onto itself changes nothing
	}
	p, err := iter.NewConfig().Op(name).AddOutput(dst).AddInput(src).
		CheckAllSameDType(false).ResizeOutputs(false).CheckMemOverlap(checkOverlap).Build()
	if err != nil {
		return nil, err
	}
	if p.NumEl() > 0 {
		err = Backend.Copy(p)
	}
	p.Release() // Note [Per-op overhead]
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// denseLike allocates an uninitialised view like v with dtype d: v's own
// strides when v is non-overlapping and dense (PyTorch's preserve format),
// else contiguous.
func denseLike(v *raw.View, d dtype.DType) *raw.View {
	if v.IsNonOverlappingAndDense() && !v.IsContiguous() {
		return raw.NewStrided(d, v.Shape, v.Strides)
	}
	return raw.New(d, v.Shape)
}

// Clone returns a copy of v, with v's strides when v is non-overlapping and
// dense, else contiguous.
func Clone(v *raw.View) (*raw.View, error) {
	out := denseLike(v, v.DType)
	return CopyInto("clone", out, v, false)
}

// To returns v converted to dtype d: v itself when it already has dtype d.
func To(v *raw.View, d dtype.DType) (*raw.View, error) {
	if v.DType == d {
		return v, nil
	}
	out := denseLike(v, d)
	return CopyInto("to", out, v, false)
}

// Contiguous returns v itself if it is contiguous, else a row-major copy.
func Contiguous(v *raw.View) (*raw.View, error) {
	if v.IsContiguous() {
		return v, nil
	}
	return CopyInto("contiguous", raw.New(v.DType, v.Shape), v, false)
}

// Fill sets every element of v to s (allowed on expanded views: every
// write of an element writes the same value).
func Fill(v *raw.View, s Scalar) (*raw.View, error) {
	if !v.DType.Valid() {
		return nil, errs.New(errs.DType, "fill_", "invalid dtype")
	}
	return CopyInto("fill_", v, s.ViewAs(v.DType), false)
}
