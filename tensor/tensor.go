package tensor

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// DType is an element type; see package dtype for the promotion rules.
type DType = dtype.DType

// The ten dtypes.
const (
	Bool     = dtype.Bool
	Uint8    = dtype.Uint8
	Int8     = dtype.Int8
	Int16    = dtype.Int16
	Int32    = dtype.Int32
	Int64    = dtype.Int64
	Float16  = dtype.Float16
	BFloat16 = dtype.BFloat16
	Float32  = dtype.Float32
	Float64  = dtype.Float64
)

// Tensor is a strided view of a storage, with its autograd metadata. Views
// share their base's storage: writes through one are seen by the others.
// A Tensor is safe for concurrent reads; concurrent writes to overlapping
// memory are a data race, as with Go slices.
type Tensor struct {
	v  *raw.View
	ag *autograd // nil unless t takes part in autograd (Note [Autograd])
	// base is the tensor this one is a view of (its root: never a view
	// itself), nil for a tensor that owns its storage.
	base *Tensor
}

// wrap returns a Tensor for a view.
func wrap(v *raw.View) *Tensor { return &Tensor{v: v} }

// view returns t's view, or nil for a nil tensor: ops report a nil operand
// as a value error.
func (t *Tensor) view() *raw.View {
	if t == nil {
		return nil
	}
	return t.v
}

// hostView returns t's view in host memory, where Go code may read its
// elements: t's own, or a copy on the CPU for other devices.
func (t *Tensor) hostView() *raw.View {
	if t.v.Storage.Device().IsHost() {
		return t.v
	}
	return t.ToDevice(CPU).v
}

// DType returns the element type.
func (t *Tensor) DType() DType { return t.v.DType }

// Shape returns a copy of the sizes.
func (t *Tensor) Shape() []int { return append([]int{}, t.v.Shape...) }

// Strides returns a copy of the strides, in elements.
func (t *Tensor) Strides() []int { return append([]int{}, t.v.Strides...) }

// Offset returns the storage offset of element 0, in elements.
func (t *Tensor) Offset() int { return t.v.Offset }

// Dim returns the number of dims.
func (t *Tensor) Dim() int { return t.v.Dim() }

// NumEl returns the number of elements.
func (t *Tensor) NumEl() int { return t.v.NumEl() }

// Size returns the size of dim (negative dims count from the end).
func (t *Tensor) Size(dim int) int {
	d, err := shape.WrapDim(dim, t.Dim())
	must(errs.WithOp(err, "size"))
	return t.v.Shape[d]
}

// IsContiguous reports whether the tensor is row-major contiguous.
func (t *Tensor) IsContiguous() bool { return t.v.IsContiguous() }

// SharesStorage reports whether t and u are views of the same storage.
func (t *Tensor) SharesStorage(u *Tensor) bool { return t.v.Storage == u.v.Storage }

// IsScalar reports whether t is a wrapped Go scalar (see [Scalar]).
func (t *Tensor) IsScalar() bool { return t.v.Wrapped }

// Element lists the Go types that hold tensor elements.
type Element interface {
	bool | uint8 | int8 | int16 | int32 | int64 | dtype.Half | dtype.BF16 | float32 | float64
}

// DTypeOf returns the dtype whose elements are Go values of type T.
func DTypeOf[T Element]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case uint8:
		return Uint8
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case dtype.Half:
		return Float16
	case dtype.BF16:
		return BFloat16
	case float32:
		return Float32
	}
	return Float64
}

// FromSlice returns a new contiguous tensor holding a copy of data with the
// given shape (a 1-D tensor when no shape is given). It panics with a shape
// error if the shape does not hold len(data) elements.
func FromSlice[T Element](data []T, shape ...int) *Tensor {
	if shape == nil {
		shape = []int{len(data)}
	}
	n := 1
	for _, s := range shape {
		if s < 0 {
			panic(errs.New(errs.Value, "from_slice", "negative size %d in shape %v", s, shape))
		}
		n *= s
	}
	if n != len(data) {
		panic(errs.New(errs.Shape, "from_slice", "shape %v holds %d elements, got %d", shape, n, len(data)))
	}
	v := raw.New(DTypeOf[T](), shape)
	copy(device.Slice[T](v.Storage, 0, n), data)
	return wrap(v)
}

// ZeroDim returns a new 0-dim tensor holding x (PyTorch's torch.tensor(x)).
// Unlike [Scalar], it takes part in type promotion as a tensor.
func ZeroDim[T Element](x T) *Tensor { return FromSlice([]T{x}, []int{}...) }

// ToSlice returns a copy of t's elements in row-major order. T must match
// t's dtype (else a dtype error); use [Tensor.To] first to convert.
func ToSlice[T Element](t *Tensor) []T {
	if DTypeOf[T]() != t.DType() {
		panic(errs.New(errs.DType, "to_slice", "tensor of dtype %s read as %s", t.DType(), DTypeOf[T]()))
	}
	v := t.hostView()
	out := make([]T, 0, t.NumEl())
	all := device.Slice[T](v.Storage, 0, v.Storage.Len()/v.DType.Size())
	v.ElementOffsets(func(off int) { out = append(out, all[off]) })
	return out
}

// Float64s returns t's elements in row-major order converted to float64.
func (t *Tensor) Float64s() []float64 {
	v := t.hostView()
	out := make([]float64, 0, t.NumEl())
	v.ElementOffsets(func(off int) { out = append(out, v.Float64At(off)) })
	return out
}

// Int64s returns t's elements in row-major order converted to int64
// (floats truncate toward zero).
func (t *Tensor) Int64s() []int64 {
	v := t.hostView()
	out := make([]int64, 0, t.NumEl())
	v.ElementOffsets(func(off int) { out = append(out, v.Int64At(off)) })
	return out
}

// single returns the storage offset of the one element of t, in the view
// of t that Go may read.
func (t *Tensor) single(name string) (*raw.View, int) {
	if t.NumEl() != 1 {
		panic(errs.New(errs.Value, name, "a Tensor with %d elements cannot be converted to a scalar", t.NumEl()))
	}
	v := t.hostView()
	var off int
	v.ElementOffsets(func(o int) { off = o })
	return v, off
}

// Item returns the single element of a one-element tensor as a float64.
func (t *Tensor) Item() float64 {
	v, off := t.single("item")
	return v.Float64At(off)
}

// ItemInt returns the single element of a one-element tensor as an int64.
func (t *Tensor) ItemInt() int64 {
	v, off := t.single("item")
	return v.Int64At(off)
}

// elementAt returns the 0-dim view of t's element at idx (negative indices
// count from the end); a wrong number of indices or one out of range is an
// index error raised by op.
func (t *Tensor) elementAt(opName string, idx []int) *raw.View {
	if len(idx) != t.Dim() {
		panic(errs.New(errs.Index, opName, "expected %d indices, got %d", t.Dim(), len(idx)))
	}
	off := t.v.Offset
	for d, i := range idx {
		s := t.v.Shape[d]
		if i < -s || i >= s {
			panic(errs.New(errs.Index, opName, "index %d is out of bounds for dimension %d with size %d", i, d, s))
		}
		if i < 0 {
			i += s
		}
		off += i * t.v.Strides[d]
	}
	return t.v.WithLayout([]int{}, []int{}, off)
}

// At returns the element of t at idx (negative indices count from the
// end) as a float64.
func (t *Tensor) At(idx ...int) float64 { return wrap(t.elementAt("at", idx)).Item() }

// Set writes value — a [Scalar], or any one-element tensor — converted to
// t's dtype, into the element of t at idx (negative indices count from the
// end), and returns t.
func (t *Tensor) Set(value *Tensor, idx ...int) *Tensor {
	e := t.elementAt("set", idx)
	if value == nil || value.NumEl() != 1 {
		panic(errs.New(errs.Value, "set", "the value must be a single number"))
	}
	if t.ag != nil || value.RequiresGrad() {
		// autograd follows the write as a copy into a view of t
		t.viewOf(e, nil).CopyFrom(value.Reshape())
		return t
	}
	src, err := op.Reshape(value.v, []int{})
	must(err)
	_, err = op.CopyInto("set", e, src, false)
	must(err)
	written(t)
	return t
}

// Number lists the Go types [Scalar] accepts.
type Number interface {
	int | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | float32 | float64 | bool
}

// Scalar wraps a Go number as a 0-dim operand that ranks below every tensor
// in type promotion, as PyTorch's Python scalars do: an integer counts as
// int64 and a float as float32 unless a tensor of their category is present.
// So an int32 tensor plus Scalar(0.5) is float32, and a uint8 tensor plus
// Scalar(3) stays uint8. It is the one way to pass a Go number to an op:
// an operand, a clamp bound, a fill value, alpha.
func Scalar[T Number](x T) *Tensor { return wrap(numOf(x).Wrap()) }

func numOf[T Number](x T) op.Scalar {
	switch v := any(x).(type) {
	case bool:
		return op.Bool(v)
	case float32:
		return op.Float(float64(v))
	case float64:
		return op.Float(v)
	case int:
		return op.Int(int64(v))
	case int8:
		return op.Int(int64(v))
	case int16:
		return op.Int(int64(v))
	case int32:
		return op.Int(int64(v))
	case int64:
		return op.Int(v)
	case uint8:
		return op.Int(int64(v))
	case uint16:
		return op.Int(int64(v))
	case uint32:
		return op.Int(int64(v))
	}
	panic("unreachable")
}

// Device names the device a tensor's memory lives on; see package device.
type Device = device.Device

// CPU is the host's CPU, where tensors are made unless moved.
var CPU = Device{Kind: device.CPU}

// Device returns the device t lives on.
func (t *Tensor) Device() Device { return t.v.Storage.Device() }

// ToDevice returns t on device d: t itself if it is there already, else a
// copy (with t's strides when t is non-overlapping and dense, contiguous
// otherwise). A device without a backend (its package not imported) is a
// value error.
func (t *Tensor) ToDevice(d Device) *Tensor {
	be, err := kernel.For(d)
	if err != nil {
		panic(errs.New(errs.Value, "to", "%v", err))
	}
	v, err := op.ToDevice(t.v, be.Allocator())
	must(err)
	if v == t.v {
		return t
	}
	return wrap(v)
}
