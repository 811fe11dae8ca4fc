package nested

import (
	"fmt"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/tensor"
)

// Tensor is a nested (ragged) tensor: a list of components of one dtype
// and one number of dims, whose sizes may differ, stored in one values
// buffer (a 1-D [tensor.Tensor]) and described by int64 metadata: the
// nested sizes and nested strides (one row of ndim per component) and the
// storage offsets (one per component, in elements from the buffer's first
// element). See Note [Packed nested tensors].
//
// A Tensor is immutable: ops return new ones, and views ([Tensor.Transpose])
// share the buffer. Autograd follows the buffer: a nested leaf is a buffer
// that requires grad, and its gradient is a nested tensor of the same
// structure over the buffer's gradient.
type Tensor struct {
	values  *tensor.Tensor
	ndim    int
	sizes   []int64 // n×ndim, row-major
	strides []int64 // n×ndim, row-major
	offsets []int64 // n
}

// Note [Packed nested tensors]
//
// A nested tensor is packed when its components are contiguous (row-major
// strides), laid one after the other in order from the buffer's first
// element, and fill it. Then the buffer is exactly the concatenation of the
// flattened components, and an op that acts on each element alone (every
// pointwise op, casts, clone, the *_like factories) is the dense op run once
// over the buffer (PyTorch's map_nt), where the components are whole vector
// runs (Note [Components as rows]). When, moreover, every component has
// the same trailing sizes, the buffer is a dense [rows, trailing...] tensor
// and ops over those trailing dims (softmax and reductions over the last dim,
// layer_norm, linear, matmul by a dense matrix) are one dense call over it.
// Products of two nested tensors and attention are grouped products over
// the buffers (Note [Grouped products of components]), reductions over the
// ragged dim segment reductions (Note [Reductions over the ragged dim]).
// Anything else (a transposed view under a pointwise op, ...) runs per
// component through views of the buffer, and the results are packed again
// with one copy.

// Len returns the number of components.
func (t *Tensor) Len() int { return len(t.offsets) }

// Dim returns the nested tensor's number of dims: one more than a component's.
func (t *Tensor) Dim() int { return t.ndim + 1 }

// DType returns the components' dtype.
func (t *Tensor) DType() tensor.DType { return t.values.DType() }

// Values returns the values buffer (1-D), shared, not copied.
func (t *Tensor) Values() *tensor.Tensor { return t.values }

// Shape returns the shape of component i.
func (t *Tensor) Shape(i int) []int { return ints(t.sizes[i*t.ndim : (i+1)*t.ndim]) }

func (t *Tensor) stride(i int) []int { return ints(t.strides[i*t.ndim : (i+1)*t.ndim]) }

func ints(xs []int64) []int {
	r := make([]int, len(xs))
	for k, x := range xs {
		r[k] = int(x)
	}
	return r
}

// Component returns component i, a view of the buffer (autograd follows
// it into the buffer). It panics with an index error when i is out of range.
func (t *Tensor) Component(i int) *tensor.Tensor {
	if i < 0 || i >= t.Len() {
		panic(errs.New(errs.Index, "unbind", "index %d is out of bounds for a nested tensor of %d components", i, t.Len()))
	}
	return t.values.AsStridedAt(t.Shape(i), t.stride(i), t.values.Offset()+int(t.offsets[i]))
}

// Unbind returns the components in order, as views of the buffer (see
// Note [Unbinding nested tensors]).
func (t *Tensor) Unbind() []*tensor.Tensor {
	if t.Len() == 0 || !t.IsPacked() {
		cs := make([]*tensor.Tensor, t.Len())
		for i := range cs {
			cs[i] = t.Component(i)
		}
		return cs
	}
	n := make([]int, t.Len())
	for i := range n {
		n[i] = int(numel(t.sizes[i*t.ndim : (i+1)*t.ndim]))
	}
	cs := t.values.SplitSizes(n, 0)
	for i, c := range cs {
		cs[i] = c.View(t.Shape(i)...)
	}
	return cs
}

// Note [Unbinding nested tensors]
//
// The per-component ops read the components of a packed tensor as the
// parts of one split of the buffer: one autograd node, whose backward
// concatenates the parts' gradients into the buffer's. Separate views
// (as_strided, narrow) would record a node each, whose backward scatters
// into a zero gradient of the whole buffer: n components would cost n
// times the buffer. A tensor that is not packed (a transposed view) still
// takes that path.

// contiguousStrides returns the row-major strides of sizes (a size 0
// counted as 1, as PyTorch's nested strides).
func contiguousStrides(sizes []int64) []int64 {
	st := make([]int64, len(sizes))
	acc := int64(1)
	for d := len(sizes) - 1; d >= 0; d-- {
		st[d] = acc
		acc *= max(sizes[d], 1)
	}
	return st
}

func numel(sizes []int64) int64 {
	n := int64(1)
	for _, s := range sizes {
		n *= s
	}
	return n
}

// Note [Components as rows]
// Some elementwise ops compute otherwise in the vector body of a row of
// PyTorch's loops than in its scalar tail (Note [Vector bodies] in package
// optable), and a nested op is the dense op on each component, whose last
// n mod step elements are its tail. One call over the packed buffer takes
// the buffer as one row instead, so its split matches the components'
// only where every component holds a whole number of steps. So the
// elementwise ops run over the buffer only where every component holds a
// multiple of vectorRun elements (the longest step, bfloat16's 32, which
// every shorter step divides), and per component elsewhere. For the ops
// without a vector body both give the same values; the per-component
// calls cost a dense call's overhead each. This package's own copies,
// conversions, fills and clamp, which have none, run over the buffer of
// any packed tensor (unaryAnyRun): To of 64 float32 components of 63 to
// 1260 elements to bfloat16 took 1.1-1.3 ms as a call per component, 0.2-0.27 ms
// over the buffer (Zen 3, under load).

// vectorRun is the longest step of PyTorch 1.13's vectorized loops, in
// elements (Note [Components as rows]).
const vectorRun = 32

// rowsAligned reports whether every component of t holds a multiple of
// vectorRun elements (Note [Components as rows]).
func (t *Tensor) rowsAligned() bool {
	for i := range t.offsets {
		if numel(t.sizes[i*t.ndim:(i+1)*t.ndim])%vectorRun != 0 {
			return false
		}
	}
	return true
}

// IsPacked reports whether t is packed (Note [Packed nested tensors]).
func (t *Tensor) IsPacked() bool {
	if !t.values.IsContiguous() || t.values.Dim() != 1 {
		return false
	}
	off := int64(0)
	for i := range t.offsets {
		sz := t.sizes[i*t.ndim : (i+1)*t.ndim]
		if t.offsets[i] != off {
			return false
		}
		st := contiguousStrides(sz)
		for d, s := range t.strides[i*t.ndim : (i+1)*t.ndim] {
			if sz[d] > 1 && s != st[d] {
				return false
			}
		}
		off += numel(sz)
	}
	return off == int64(t.values.NumEl())
}

// trailing returns the sizes of the last k dims shared by every component,
// and whether they are shared (true for no components).
func (t *Tensor) trailing(k int) ([]int, bool) {
	if k > t.ndim {
		return nil, false
	}
	var tr []int64
	for i := range t.offsets {
		sz := t.sizes[(i+1)*t.ndim-k : (i+1)*t.ndim]
		if tr == nil {
			tr = sz
			continue
		}
		for d := range sz {
			if sz[d] != tr[d] {
				return nil, false
			}
		}
	}
	return ints(tr), true
}

// rows returns the packed buffer as a dense [rows, trailing...] tensor when
// t is packed and its components share their last k sizes, which are all
// non-zero (else the rows are not determined by the buffer); ok is false
// otherwise.
func (t *Tensor) rows(k int) (*tensor.Tensor, []int, bool) {
	if t.Len() == 0 || !t.IsPacked() {
		return nil, nil, false
	}
	tr, ok := t.trailing(k)
	if !ok {
		return nil, nil, false
	}
	for _, s := range tr {
		if s == 0 {
			return nil, nil, false
		}
	}
	return t.values.View(append([]int{-1}, tr...)...), tr, true
}

// withTrailing returns t's component sizes with the last k dims replaced by tr.
func (t *Tensor) withTrailing(k int, tr []int) [][]int {
	out := make([][]int, t.Len())
	for i := range out {
		sh := t.Shape(i)
		out[i] = append(sh[:len(sh)-k:len(sh)-k], tr...)
	}
	return out
}

// Wrap returns the nested tensor of contiguous components of these sizes
// stored in values (a contiguous 1-D tensor) at these element offsets,
// without a copy (PyTorch's wrap_buffer). Every component must lie inside
// the buffer and all must have the same number of dims, else it panics
// with a value error.
func Wrap(values *tensor.Tensor, sizes [][]int, offsets []int) *Tensor {
	if values.Dim() != 1 || !values.IsContiguous() {
		panic(errs.New(errs.Value, "nested_tensor", "the values buffer must be a contiguous 1-D tensor, got shape %v strides %v", values.Shape(), values.Strides()))
	}
	if len(sizes) != len(offsets) {
		panic(errs.New(errs.Value, "nested_tensor", "%d component sizes but %d offsets", len(sizes), len(offsets)))
	}
	t := &Tensor{values: values, offsets: make([]int64, len(offsets))}
	if len(sizes) > 0 {
		t.ndim = len(sizes[0])
	}
	for i, sh := range sizes {
		if len(sh) != t.ndim {
			panic(errs.New(errs.Value, "nested_tensor", "All Tensors given to nested_tensor must have the same dimension. Found dimension %d for Tensor at index %d and dimension %d for Tensor at index 0.", len(sh), i, t.ndim))
		}
		sz := make([]int64, len(sh))
		for d, s := range sh {
			if s < 0 {
				panic(errs.New(errs.Value, "nested_tensor", "negative size %d in component %d", s, i))
			}
			sz[d] = int64(s)
		}
		n := numel(sz)
		if offsets[i] < 0 || int64(offsets[i])+n > int64(values.NumEl()) {
			panic(errs.New(errs.Value, "nested_tensor", "component %d of %d elements at offset %d does not fit a buffer of %d", i, n, offsets[i], values.NumEl()))
		}
		t.sizes = append(t.sizes, sz...)
		t.strides = append(t.strides, contiguousStrides(sz)...)
		t.offsets[i] = int64(offsets[i])
	}
	return t
}

// ViewOf returns the nested tensor whose component i is the view of values
// (a contiguous 1-D tensor) with sizes[i] and strides[i] (in elements, not
// negative) at element offset offsets[i], without a copy (PyTorch's
// _nested_view_from_buffer): components may be strided, overlap or leave
// elements of the buffer out. Every component must lie inside the buffer
// and all must have the same number of dims, else it panics with a value
// error. Pointwise ops run on such components as the dense ops run on
// their views (Note [Packed nested tensors]).
func ViewOf(values *tensor.Tensor, sizes, strides [][]int, offsets []int) *Tensor {
	if values.Dim() != 1 || !values.IsContiguous() {
		panic(errs.New(errs.Value, "nested_tensor", "the values buffer must be a contiguous 1-D tensor, got shape %v strides %v", values.Shape(), values.Strides()))
	}
	if len(sizes) != len(offsets) || len(sizes) != len(strides) {
		panic(errs.New(errs.Value, "nested_tensor", "%d component sizes, %d strides and %d offsets", len(sizes), len(strides), len(offsets)))
	}
	t := &Tensor{values: values, offsets: make([]int64, len(offsets))}
	if len(sizes) > 0 {
		t.ndim = len(sizes[0])
	}
	for i, sh := range sizes {
		if len(sh) != t.ndim || len(strides[i]) != t.ndim {
			panic(errs.New(errs.Value, "nested_tensor", "All Tensors given to nested_tensor must have the same dimension. Found dimension %d for Tensor at index %d and dimension %d for Tensor at index 0.", len(sh), i, t.ndim))
		}
		last, empty := int64(offsets[i]), false // the component's last element
		for d, s := range sh {
			st := strides[i][d]
			if s < 0 || st < 0 {
				panic(errs.New(errs.Value, "nested_tensor", "component %d has size %d and stride %d", i, s, st))
			}
			empty = empty || s == 0
			last += int64(s-1) * int64(st)
			t.sizes = append(t.sizes, int64(s))
			t.strides = append(t.strides, int64(st))
		}
		if offsets[i] < 0 || !empty && last >= int64(values.NumEl()) {
			panic(errs.New(errs.Value, "nested_tensor", "component %d at offset %d reaches element %d of a buffer of %d", i, offsets[i], last, values.NumEl()))
		}
		t.offsets[i] = int64(offsets[i])
	}
	return t
}

// packedSizes wraps values as packed components of these sizes.
func packedSizes(values *tensor.Tensor, sizes [][]int) *Tensor {
	offsets := make([]int, len(sizes))
	off := 0
	for i, sh := range sizes {
		offsets[i] = off
		n := 1
		for _, s := range sh {
			n *= s
		}
		off += n
	}
	if off != values.NumEl() {
		panic(fmt.Sprintf("nested: %d packed elements in a buffer of %d", off, values.NumEl()))
	}
	return Wrap(values, sizes, offsets)
}

// Pack returns the packed nested tensor of these components: their
// elements copied once into one new buffer. Autograd follows the copy
// (the components' gradients are slices of the buffer's); [New] is the
// constructor that cuts that link. Components of different numbers of
// dims are a value error; an empty list needs the dtype dt.
func Pack(cs []*tensor.Tensor, dt tensor.DType) *Tensor {
	sizes := make([][]int, len(cs))
	for i, c := range cs {
		if c.Dim() != cs[0].Dim() {
			panic(errs.New(errs.Value, "nested_tensor", "All Tensors given to nested_tensor must have the same dimension. Found dimension %d for Tensor at index %d and dimension %d for Tensor at index 0.", c.Dim(), i, cs[0].Dim()))
		}
		sizes[i] = c.Shape()
	}
	if len(cs) == 0 {
		return Wrap(tensor.Empty(dt, 0), nil, nil)
	}
	if tensor.IsGradEnabled() && anyRequiresGrad(cs) || !oneDType(cs) {
		flat := make([]*tensor.Tensor, len(cs))
		for i, c := range cs {
			flat[i] = c.Reshape(c.NumEl())
		}
		return packedSizes(tensor.Cat(flat, 0), sizes) // Cat promotes different dtypes
	}
	// No autograd: copy each component once into its place (Reshape
	// would copy a strided component a first time for Cat).
	total := 0
	for _, c := range cs {
		total += c.NumEl()
	}
	buf := on(cs[0], tensor.Empty(cs[0].DType(), total))
	off := 0
	for _, c := range cs {
		buf.Narrow(0, off, c.NumEl()).View(c.Shape()...).CopyFrom(c)
		off += c.NumEl()
	}
	return packedSizes(buf, sizes)
}

// on returns t on like's device: the constructors of package tensor
// allocate on the default device.
func on(like, t *tensor.Tensor) *tensor.Tensor { return t.ToDevice(like.Device()) }

// packOn is [Pack] whose empty result lies on like's device.
func packOn(like *tensor.Tensor, cs []*tensor.Tensor, dt tensor.DType) *Tensor {
	if len(cs) == 0 {
		return Wrap(on(like, tensor.Empty(dt, 0)), nil, nil)
	}
	return Pack(cs, dt)
}

func oneDType(ts []*tensor.Tensor) bool {
	for _, t := range ts {
		if t.DType() != ts[0].DType() {
			return false
		}
	}
	return true
}

func anyRequiresGrad(ts []*tensor.Tensor) bool {
	for _, t := range ts {
		if t.RequiresGrad() {
			return true
		}
	}
	return false
}

// New returns the nested tensor of copies of ts (PyTorch's
// torch.nested.nested_tensor): one buffer, no autograd link to ts.
//
// Tensors of different numbers of dims are a value error, of different
// dtypes a dtype error: the first tensor unlike ts[0] raises its own,
// the number of dims checked first.
func New(ts []*tensor.Tensor, dt tensor.DType) *Tensor {
	for i, c := range ts {
		if c.Dim() != ts[0].Dim() {
			break // Pack raises the error of the number of dims
		}
		if c.DType() != ts[0].DType() {
			panic(errs.New(errs.DType, "nested_tensor", "nested_tensor components must have the same dtype: %v at index %d and %v at index 0", c.DType(), i, ts[0].DType()))
		}
	}
	var t *Tensor
	tensor.NoGrad(func() { t = Pack(ts, dt) })
	return t
}

// like returns the nested tensor of t's structure over another buffer of
// the same number of elements, laid out as t's.
func (t *Tensor) like(values *tensor.Tensor) *Tensor {
	return &Tensor{values: values, ndim: t.ndim, sizes: t.sizes, strides: t.strides, offsets: t.offsets}
}

// metadata returns rows of int64 as an [n, k] tensor.
func metadata(xs []int64, n, k int) *tensor.Tensor {
	return tensor.FromSlice(append([]int64{}, xs...), n, k)
}

// Sizes returns the nested sizes: an int64 [n, ndim] tensor whose row i is
// the shape of component i.
func (t *Tensor) Sizes() *tensor.Tensor { return metadata(t.sizes, t.Len(), t.ndim) }

// Strides returns the nested strides: an int64 [n, ndim] tensor whose row i
// holds the strides of component i, in elements.
func (t *Tensor) Strides() *tensor.Tensor { return metadata(t.strides, t.Len(), t.ndim) }

// Offsets returns the storage offsets: an int64 [n] tensor, the element
// offset of each component from the buffer's first element.
func (t *Tensor) Offsets() *tensor.Tensor {
	return tensor.FromSlice(append([]int64{}, t.offsets...), t.Len())
}

// String describes the structure, not the elements.
func (t *Tensor) String() string {
	s := fmt.Sprintf("nested(%v, [", t.DType())
	for i := range t.offsets {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprint(t.Shape(i))
	}
	return s + "])"
}
