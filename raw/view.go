// Package raw defines the strided view: the layout of a tensor over a
// storage, without autograd or ops. Every layer above the kernels speaks in
// views; the iterator turns them into plans.
package raw

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/shape"
)

// View is a strided view of a storage: element idx lives at element
// Offset + Σ idx[k]·Strides[k] of Storage, in units of DType's size.
// Strides may be 0 (broadcast) and may overlap.
type View struct {
	Storage *device.Storage
	DType   dtype.DType
	Shape   []int
	Strides []int // in elements
	Offset  int   // in elements
	// Wrapped marks a Go scalar wrapped as a 0-dim view: it ranks below
	// tensors in type promotion (PyTorch's wrapped numbers).
	Wrapped bool
}

// New allocates a zeroed contiguous view of the given dtype and shape in
// CPU memory. It panics with NewOn's error.
func New(dt dtype.DType, sizes []int) *View {
	v, err := NewOn(device.CPUAllocator, dt, sizes, nil, true)
	if err != nil {
		panic(err)
	}
	return v
}

// NewOn allocates a view of the given dtype and shape with allocator a:
// dense with the given strides (row-major when nil; see
// [shape.DenseLike]), zeroed if zero is set, else of unspecified contents.
// Its errors are *errs.Error without an op: an invalid dtype is a value
// error, sizes that are negative or whose storage overflows an int are
// checked by [shape.Bytes], and an allocation the allocator refuses (over
// the memory limit of package device) is a memory error.
func NewOn(a device.Allocator, dt dtype.DType, sizes, strides []int, zero bool) (*View, error) {
	if !dt.Valid() {
		return nil, errs.New(errs.Value, "", "invalid dtype %s", dt)
	}
	nbytes, err := shape.Bytes("", sizes, dt.Size())
	if err != nil {
		return nil, err
	}
	st, err := a.Alloc(nbytes, zero)
	if err != nil {
		return nil, errs.Alloc("", err)
	}
	if strides == nil {
		strides = shape.Contiguous(sizes)
	} else {
		strides = append([]int{}, strides...)
	}
	return &View{Storage: st, DType: dt, Shape: append([]int{}, sizes...), Strides: strides}, nil
}

// Resize gives v the shape sizes with the given strides (row-major when nil)
// as PyTorch's resize_ does for an output: v keeps its storage and offset,
// and the storage grows in place if the new extent does not fit
// ([device.Storage.Grow]). strides must lay out a dense tensor. Sizes
// that are negative or whose storage overflows an int are a shape or value
// error, as in [NewOn], and leave v as it was; so does a storage that
// cannot grow (a memory error).
func (v *View) Resize(sizes, strides []int) error {
	n, err := shape.CheckSizes("", sizes)
	if err != nil {
		return err
	}
	need, ok := shape.AddOK(v.Offset, n)
	if ok {
		need, ok = shape.MulOK(need, v.DType.Size())
	}
	if !ok {
		return errs.New(errs.Shape, "", "Storage size calculation overflowed with sizes=%s", shape.Format(sizes))
	}
	if err := v.Storage.Grow(need); err != nil {
		return errs.Alloc("", err)
	}
	if strides == nil {
		strides = shape.Contiguous(sizes)
	}
	v.Shape, v.Strides = sizes, strides
	return nil
}

// Dim returns the number of dims.
func (v *View) Dim() int { return len(v.Shape) }

// NumEl returns the number of elements.
func (v *View) NumEl() int { return shape.NumEl(v.Shape) }

// ByteOffset returns the byte offset of element 0 in the storage.
func (v *View) ByteOffset() int { return v.Offset * v.DType.Size() }

// IsContiguous reports whether v is row-major contiguous (strides of size-1
// dims are ignored, as PyTorch does).
func (v *View) IsContiguous() bool { return shape.IsContiguous(v.Shape, v.Strides) }

// IsNonOverlappingAndDense reports whether v's elements fill a contiguous
// block of memory exactly once, in some order of dims.
func (v *View) IsNonOverlappingAndDense() bool {
	return shape.IsNonOverlappingAndDense(v.Shape, v.Strides)
}

// WithLayout returns a view of the same storage and dtype with another layout.
func (v *View) WithLayout(sizes, strides []int, offset int) *View {
	return &View{Storage: v.Storage, DType: v.DType, Shape: sizes, Strides: strides, Offset: offset}
}

// Clone returns a shallow copy of the view header (same storage).
func (v *View) Clone() *View {
	c := *v
	c.Shape = append([]int{}, v.Shape...)
	c.Strides = append([]int{}, v.Strides...)
	return &c
}
