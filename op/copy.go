package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// CopyInto writes src (broadcast to dst's shape, converted to dst's dtype)
// into dst: PyTorch's copy_. With checkOverlap, a dst that overlaps src
// partly, or has overlapping elements itself, is an overlap error.
func CopyInto(name string, dst, src *raw.View, checkOverlap bool) (*raw.View, error) {
	if dst == nil || src == nil {
		return nil, errs.New(errs.Value, name, "copy of a nil tensor")
	}
	if dst.Storage == src.Storage && dst.Offset == src.Offset && dst.DType == src.DType &&
		shape.Equal(dst.Shape, src.Shape) && shape.Equal(dst.Strides, src.Strides) {
		return dst, nil // copying a view onto itself changes nothing
	}
	if dd, sd := dst.Storage.Device(), src.Storage.Device(); dd != sd && !(sd.Kind == device.CPU && src.Dim() == 0) {
		return copyAcross(name, dst, src)
	}
	p, err := iter.NewConfig().Op(name).AddOutput(dst).AddInput(src).
		CheckAllSameDType(false).ResizeOutputs(false).CheckMemOverlap(checkOverlap).Build()
	if err != nil {
		return nil, err
	}
	if p.NumEl() > 0 {
		var be kernel.Backend
		if be, err = backendOn(name, p.Device()); err == nil {
			err = be.Copy(p)
		}
	}
	p.Release() // Note [Per-op overhead]
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// copyAcross is copy_ between two devices: src made contiguous on its own
// device, its bytes moved into a buffer on dst's device by the transfer of
// the kernel contract, and copied from there into dst (broadcast and
// converted there).
func copyAcross(name string, dst, src *raw.View) (*raw.View, error) {
	if err := iter.NewConfig().Op(name).AddOutput(dst).ResizeOutputs(false).AddInput(src).CheckShapes(); err != nil {
		return nil, err
	}
	c, err := Contiguous(src)
	if err != nil {
		return nil, err
	}
	tmp, err := raw.NewOn(dst.Storage.Allocator(), c.DType, c.Shape, nil, false)
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	mover := dst // the backend of the device that is not the host's CPU moves the bytes
	if dst.Storage.Device().Kind == device.CPU {
		mover = c
	}
	be, err := backendOf(name, mover)
	if err != nil {
		return nil, err
	}
	if err := be.Transfer(tmp.Storage, 0, c.Storage, c.ByteOffset(), c.NumEl()*c.DType.Size()); err != nil {
		return nil, errs.New(errs.Value, name, "%v", err)
	}
	return CopyInto(name, dst, tmp, false)
}

// ToDevice returns a copy of v on the device of allocator a: v's own
// strides when v is non-overlapping and dense, else contiguous; v itself
// when it is there already.
func ToDevice(v *raw.View, a device.Allocator) (*raw.View, error) {
	if v.Storage.Device() == a.Device() {
		return v, nil
	}
	out, err := denseLike(v, v.DType, a)
	if err != nil {
		return nil, err
	}
	return CopyInto("to", out, v, false)
}

// denseLike allocates an uninitialised view like v with dtype d, with
// allocator a, laid out as PyTorch's empty_like with preserve_format: v's
// own strides when v is non-overlapping and dense, else dense strides in
// the order of v's (shape.DenseLike).
func denseLike(v *raw.View, d dtype.DType, a device.Allocator) (*raw.View, error) {
	var strides []int
	if !v.IsContiguous() {
		strides = shape.DenseLike(v.Shape, v.Strides)
	}
	out, err := raw.NewOn(a, d, v.Shape, strides, false)
	if err != nil {
		return nil, errs.WithOp(err, "empty_like")
	}
	return out, nil
}

// EmptyLike returns an uninitialised view of v's shape and dtype d on v's
// device, laid out as PyTorch's empty_like with preserve_format (see
// [Clone]).
func EmptyLike(v *raw.View, d dtype.DType) (*raw.View, error) {
	return denseLike(v, d, v.Storage.Allocator())
}

// Clone returns a copy of v, with v's strides when v is non-overlapping and
// dense, else dense strides in the order of v's (PyTorch's preserve
// format).
func Clone(v *raw.View) (*raw.View, error) {
	out, err := denseLike(v, v.DType, v.Storage.Allocator())
	if err != nil {
		return nil, err
	}
	return CopyInto("clone", out, v, false)
}

// To returns v converted to dtype d: v itself when it already has dtype d.
func To(v *raw.View, d dtype.DType) (*raw.View, error) {
	if v.DType == d {
		return v, nil
	}
	out, err := denseLike(v, d, v.Storage.Allocator())
	if err != nil {
		return nil, err
	}
	return CopyInto("to", out, v, false)
}

// Contiguous returns v itself if it is contiguous, else a row-major copy.
func Contiguous(v *raw.View) (*raw.View, error) {
	if v.IsContiguous() {
		return v, nil
	}
	out, err := empty("contiguous", v.DType, v.Shape, v)
	if err != nil {
		return nil, err
	}
	return CopyInto("contiguous", out, v, false)
}

// Fill sets every element of v to s (allowed on expanded views: every
// write of an element writes the same value). A number that v's dtype
// cannot hold is a value error (Note [Checked scalars]).
func Fill(v *raw.View, s Scalar) (*raw.View, error) {
	if !v.DType.Valid() {
		return nil, errs.New(errs.DType, "fill_", "invalid dtype")
	}
	if err := s.Check("fill_", v.DType); err != nil {
		return nil, err
	}
	return CopyInto("fill_", v, s.ViewAs(v.DType), false)
}
