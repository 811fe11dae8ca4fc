package nested

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/tensor"
)

// UnaryFunc is a dense elementwise op of one tensor, such as [tensor.Exp]
// or a closure over [tensor.Tensor.Clamp]: its result has its input's shape.
type UnaryFunc func(x *tensor.Tensor) *tensor.Tensor

// BinaryFunc is a dense elementwise op of two tensors that broadcast, such
// as [tensor.Mul].
type BinaryFunc func(a, b *tensor.Tensor) *tensor.Tensor

// Map returns the nested tensor whose component i is f(component i of x),
// packed into one new buffer. f may change shapes and dtypes; its results
// must have one number of dims. It is the per-component baseline every op
// falls back to (PyTorch's map_nested_tensor).
func Map(x *Tensor, f UnaryFunc) *Tensor {
	cs := x.Unbind()
	rs := make([]*tensor.Tensor, x.Len())
	for i := range rs {
		rs[i] = f(cs[i])
	}
	return packOn(x.values, rs, x.DType())
}

// Unary returns f applied to every element of x, where f is an elementwise
// op (see [UnaryFunc]): one call over the values buffer when x is packed
// (Note [Packed nested tensors]) and its components are whole vector runs
// (Note [Components as rows]), else per component. Errors are f's; a
// function that changes a shape is a value error.
func Unary(f UnaryFunc, x *Tensor) *Tensor {
	if x.IsPacked() && x.rowsAligned() {
		return x.like(elementwise(f(x.values), x.values))
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor {
		r := f(c)
		if !slices.Equal(r.Shape(), c.Shape()) {
			panic(errs.New(errs.Value, "nested", "an elementwise function changed a component's shape %v to %v", c.Shape(), r.Shape()))
		}
		return r
	})
}

// unaryAnyRun is [Unary] for the ops this package runs whose kernels
// compute alike in and out of a vector body (copies, conversions, fills,
// clamp; Note [Components as rows]): one call over the buffer whenever x
// is packed, whatever its components hold.
func unaryAnyRun(f UnaryFunc, x *Tensor) *Tensor {
	if x.IsPacked() {
		return x.like(elementwise(f(x.values), x.values))
	}
	return Unary(f, x)
}

// elementwise returns r, the result of an elementwise function over the
// buffer buf, after checking that it kept buf's shape (a function that
// does not is a value error, not a silently wrong structure).
func elementwise(r, buf *tensor.Tensor) *tensor.Tensor {
	if r.Dim() != 1 || r.NumEl() != buf.NumEl() {
		panic(errs.New(errs.Value, "nested", "an elementwise function changed the buffer's shape %v to %v", buf.Shape(), r.Shape()))
	}
	return r
}

// checkPair panics with a shape error unless a and b have the same
// number of components and the same component shapes (nested operands do
// not broadcast against each other).
func checkPair(name string, a, b *Tensor) {
	if a.Len() != b.Len() {
		panic(errs.New(errs.Shape, name, "nested tensors with different numbers of components: %d and %d", a.Len(), b.Len()))
	}
	if a.ndim != b.ndim {
		panic(errs.New(errs.Shape, name, "nested tensors with different component shapes: %d and %d dims", a.ndim, b.ndim))
	}
	for k := range a.sizes {
		if a.sizes[k] != b.sizes[k] {
			i := k / max(a.ndim, 1)
			panic(errs.New(errs.Shape, name, "nested tensors with different component shapes: component %d is %v and %v", i, a.Shape(i), b.Shape(i)))
		}
	}
}

// Binary returns f(a, b) of two nested tensors of one structure, component
// by component (name is the op's, for errors): one call over the two
// buffers when both are packed and the components are whole vector runs
// (Note [Components as rows]), else per component. Different numbers of
// components or different component shapes are a shape error.
func Binary(name string, f BinaryFunc, a, b *Tensor) *Tensor {
	checkPair(name, a, b)
	if a.IsPacked() && b.IsPacked() && a.rowsAligned() {
		return a.like(elementwise(f(a.values, b.values), a.values))
	}
	as, bs := a.Unbind(), b.Unbind()
	rs := make([]*tensor.Tensor, a.Len())
	for i := range rs {
		rs[i] = f(as[i], bs[i])
	}
	return packOn(a.values, rs, a.DType())
}

// BinaryDense returns f(component, d) for every component of a, where d
// is a dense tensor or a [tensor.Scalar] that broadcasts against each
// component (a bias [D], say). See [DenseBinary] for d on the left.
func BinaryDense(f BinaryFunc, a *Tensor, d *tensor.Tensor) *Tensor {
	return withDense(a, d, f, false)
}

// DenseBinary returns f(d, component) for every component of b; see
// [BinaryDense].
func DenseBinary(f BinaryFunc, d *tensor.Tensor, b *Tensor) *Tensor {
	return withDense(b, d, f, true)
}

// withDense runs f between x's components and a dense d. It runs once over
// the buffer when x is packed, its components are whole vector runs (Note
// [Components as rows]) and d varies only along trailing dims that every
// component shares (or d is a scalar): the buffer viewed as rows then
// broadcasts against d as each component would. Otherwise per component,
// so errors and result shapes are exactly the dense op's.
func withDense(x *Tensor, d *tensor.Tensor, f BinaryFunc, left bool) *Tensor {
	apply := func(c *tensor.Tensor) *tensor.Tensor {
		if left {
			return f(d, c)
		}
		return f(c, d)
	}
	if dd, k, ok := trailingOperand(x, d); ok {
		if rows, _, ok := x.rows(k); ok && x.IsPacked() && x.rowsAligned() {
			r := apply2(f, left, rows, dd)
			return x.like(r.Reshape(r.NumEl()))
		}
	}
	return Map(x, apply)
}

func apply2(f BinaryFunc, left bool, x, d *tensor.Tensor) *tensor.Tensor {
	if left {
		return f(d, x)
	}
	return f(x, d)
}

// trailingOperand returns d viewed over its last k dims when its other
// dims have size 1 and it has no more dims than x's components, so that
// rows of x's buffer broadcast against it as the components do; a scalar
// or one element keeps a dim of its own kind (wrapped, 0-dim or [1]) for
// type promotion.
func trailingOperand(x *Tensor, d *tensor.Tensor) (*tensor.Tensor, int, bool) {
	if d.IsScalar() || d.Dim() == 0 {
		return d, 0, x.Len() > 0
	}
	if d.Dim() > x.ndim || x.Len() == 0 {
		return nil, 0, false
	}
	sh := d.Shape()
	lead := 0
	for lead < len(sh) && sh[lead] == 1 {
		lead++
	}
	k := len(sh) - lead
	if k == 0 {
		return d.Reshape(1), 0, true
	}
	tr, ok := x.trailing(k)
	if !ok {
		return nil, 0, false
	}
	for j, s := range sh[lead:] {
		if s != 1 && s != tr[j] {
			return nil, 0, false // the per-component op raises the broadcast error
		}
	}
	return d.Reshape(sh[lead:]...), k, true
}

// compDim translates a nested dim (name's argument) to a component dim:
// nested dim 0 is a value error, a dim out of range an index error.
func (t *Tensor) compDim(name string, dim int) int {
	nd := t.ndim + 1
	d := dim
	if d < 0 {
		d += nd
	}
	if d < 0 || d >= nd {
		panic(errs.New(errs.Index, name, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -nd, nd-1, dim))
	}
	if d == 0 {
		panic(errs.New(errs.Value, name, "cannot apply across nested dimension 0"))
	}
	return d - 1
}

// alongDim runs f(component, d) for an op that keeps shapes (softmax): one
// call over the buffer's rows when d is the last dim and the last sizes
// agree, else per component.
func alongDim(name string, x *Tensor, dim int, f func(c *tensor.Tensor, d int) *tensor.Tensor) *Tensor {
	d := x.compDim(name, dim)
	if d == 0 && (name == "softmax" || name == "log_softmax") {
		if r := raggedSoftmax(x, name == "log_softmax"); r != nil {
			return r
		}
	}
	if d == x.ndim-1 {
		if rows, _, ok := x.rows(1); ok {
			r := f(rows, -1)
			return x.like(r.Reshape(r.NumEl()))
		}
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor { return f(c, d) })
}

// Softmax returns the softmax of each component along nested dim dim (the
// ragged dim 1, the last dim, ...); see [tensor.Softmax].
func Softmax(x *Tensor, dim int) *Tensor {
	return alongDim("softmax", x, dim, func(c *tensor.Tensor, d int) *tensor.Tensor { return c.Softmax(tensor.Over(d)) })
}

// LogSoftmax returns the log-softmax of each component along nested dim
// dim; see [tensor.LogSoftmax].
func LogSoftmax(x *Tensor, dim int) *Tensor {
	return alongDim("log_softmax", x, dim, func(c *tensor.Tensor, d int) *tensor.Tensor { return c.LogSoftmax(tensor.Over(d)) })
}

// ReduceFunc is a dense reduction such as [tensor.Sum].
type ReduceFunc func(t *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor

// Reduce returns the reduction f (name is its op's name) of each component
// along nested dim dim, keeping it with size 1 when keepDim: over the last
// dim one call over the buffer's rows, over the ragged dim (component dim
// 0) a segment reduction for sum, mean, amax and amin (Note [Reductions
// over the ragged dim]), over other dims per component.
func Reduce(name string, f ReduceFunc, x *Tensor, dim int, keepDim bool) *Tensor {
	d := x.compDim(name, dim)
	o := tensor.Over(d)
	if keepDim {
		o = o.KeepDim()
	}
	if d == 0 {
		if r := raggedReduce(name, x, keepDim); r != nil {
			return r
		}
	}
	if d == x.ndim-1 {
		if rows, _, ok := x.rows(1); ok {
			ro := tensor.Over(-1)
			var tr []int
			if keepDim {
				ro, tr = ro.KeepDim(), []int{1}
			}
			r := f(rows, ro)
			return packedSizes(r.Reshape(r.NumEl()), x.withTrailing(1, tr))
		}
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor { return f(c, o) })
}

// LayerNorm returns [tensor.LayerNorm] of each component over its trailing
// dims normalizedShape: one call over the buffer when the components are
// packed and share those trailing sizes.
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *tensor.Tensor, eps float64) *Tensor {
	k := len(normalizedShape)
	if rows, tr, ok := x.rows(k); ok && k > 0 && slices.Equal(tr, normalizedShape) {
		r := tensor.LayerNorm(rows, normalizedShape, weight, bias, eps)
		return x.like(r.Reshape(r.NumEl()))
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor {
		return tensor.LayerNorm(c, normalizedShape, weight, bias, eps)
	})
}

// Linear returns [tensor.Linear] of each component (x·wᵀ + bias over the
// last dim): one GEMM over the packed buffer's rows when the last sizes
// agree with w's, else per component.
func Linear(x *Tensor, w, bias *tensor.Tensor) *Tensor {
	if rows, tr, ok := x.rows(1); ok && w.Dim() == 2 && w.Size(1) == tr[0] {
		r := tensor.Linear(rows, w, bias)
		return packedSizes(r.Reshape(r.NumEl()), x.withTrailing(1, []int{r.Size(-1)}))
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor { return tensor.Linear(c, w, bias) })
}

// MatmulDense returns [tensor.Matmul](component, w) for each component: one
// GEMM over the packed buffer's rows when w is a matrix whose rows match the
// components' last size, else per component.
func MatmulDense(x *Tensor, w *tensor.Tensor) *Tensor {
	if rows, tr, ok := x.rows(1); ok && w.Dim() == 2 && w.Size(0) == tr[0] {
		r := tensor.Matmul(rows, w)
		return packedSizes(r.Reshape(r.NumEl()), x.withTrailing(1, []int{w.Size(1)}))
	}
	return Map(x, func(c *tensor.Tensor) *tensor.Tensor { return tensor.Matmul(c, w) })
}

// pairs returns f(a_i, b_i) packed, after checking the counts.
func pairs(name string, a, b *Tensor, f BinaryFunc) *Tensor {
	if a.Len() != b.Len() {
		panic(errs.New(errs.Shape, name, "nested tensors with different numbers of components: %d and %d", a.Len(), b.Len()))
	}
	as, bs := a.Unbind(), b.Unbind()
	rs := make([]*tensor.Tensor, a.Len())
	for i := range rs {
		rs[i] = f(as[i], bs[i])
	}
	return packOn(a.values, rs, a.DType())
}

// Transpose returns the view of x whose components have their dims d0 and
// d1 (nested dims, translated) swapped; it shares x's buffer.
func Transpose(x *Tensor, d0, d1 int) *Tensor {
	a, b := x.compDim("transpose", d0), x.compDim("transpose", d1)
	r := &Tensor{values: x.values, ndim: x.ndim, offsets: x.offsets,
		sizes: append([]int64{}, x.sizes...), strides: append([]int64{}, x.strides...)}
	for i := range x.offsets {
		o := i * x.ndim
		r.sizes[o+a], r.sizes[o+b] = r.sizes[o+b], r.sizes[o+a]
		r.strides[o+a], r.strides[o+b] = r.strides[o+b], r.strides[o+a]
	}
	return r
}

// Embedding returns the rows of weight (2-D) picked by the int64 indices
// of idx: component i has shape idx_i's + [weight's row size]
// (torch.nn.functional.embedding). An index outside [0, rows) is an index
// error.
//
// The rows are gathered by one index_select over the packed indices (per
// component when idx is not packed); its backward adds each row's
// gradient into the weight's.
func Embedding(idx *Tensor, weight *tensor.Tensor) *Tensor {
	if idx.DType() != tensor.Int64 && idx.DType() != tensor.Int32 {
		panic(errs.New(errs.DType, "embedding", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %v instead", idx.DType()))
	}
	if weight.Dim() != 2 {
		panic(errs.New(errs.Value, "embedding", "'weight' must be 2-D"))
	}
	gather := func(c *tensor.Tensor) *tensor.Tensor {
		ids := c.Reshape(c.NumEl()).To(tensor.Int64)
		if ids.NumEl() > 0 && (ids.Amin().Item() < 0 || ids.Amax().Item() >= float64(weight.Size(0))) {
			panic(errs.New(errs.Index, "embedding", "index out of range in self"))
		}
		return weight.IndexSelect(0, ids).Reshape(append(c.Shape(), weight.Size(1))...)
	}
	if idx.IsPacked() && idx.values.NumEl() > 0 {
		r := gather(idx.values)
		return packedSizes(r.Reshape(r.NumEl()), idx.withTrailing(0, []int{weight.Size(1)}))
	}
	return packOn(weight, mapSlice(idx, gather), weight.DType())
}

func mapSlice(x *Tensor, f UnaryFunc) []*tensor.Tensor {
	cs := x.Unbind()
	rs := make([]*tensor.Tensor, x.Len())
	for i := range rs {
		rs[i] = f(cs[i])
	}
	return rs
}

// To returns x converted to dt (x itself when it has dt already).
func To(x *Tensor, dt tensor.DType) *Tensor {
	if x.DType() == dt {
		return x
	}
	return unaryAnyRun(func(c *tensor.Tensor) *tensor.Tensor { return c.To(dt) }, x)
}

// Clone returns a packed copy of x.
func Clone(x *Tensor) *Tensor { return unaryAnyRun((*tensor.Tensor).Clone, x) }

// ZerosLike returns a packed nested tensor of x's sizes and dtype filled with 0.
func ZerosLike(x *Tensor) *Tensor { return unaryAnyRun(tensor.ZerosLike, x) }

// OnesLike returns a packed nested tensor of x's sizes and dtype filled with 1.
func OnesLike(x *Tensor) *Tensor { return unaryAnyRun(tensor.OnesLike, x) }

// FullLike returns a packed nested tensor of x's sizes and dtype filled with value.
func FullLike(x *Tensor, value *tensor.Tensor) *Tensor {
	return unaryAnyRun(func(c *tensor.Tensor) *tensor.Tensor { return tensor.FullLike(c, value) }, x)
}

// Clamp returns x clamped to [lo, hi] (either may be nil); see [tensor.Clamp].
func Clamp(x *Tensor, lo, hi *tensor.Tensor) *Tensor {
	return unaryAnyRun(func(c *tensor.Tensor) *tensor.Tensor { return tensor.Clamp(c, lo, hi) }, x)
}

// Where returns, per element, x where cond is true, else y: cond, x and y
// are nested tensors of one structure; see [tensor.Where].
func Where(cond, x, y *Tensor) *Tensor {
	checkPair("where", cond, x)
	checkPair("where", cond, y)
	if cond.IsPacked() && x.IsPacked() && y.IsPacked() {
		return x.like(tensor.Where(cond.values, x.values, y.values))
	}
	cs, xs, ys := cond.Unbind(), x.Unbind(), y.Unbind()
	rs := make([]*tensor.Tensor, x.Len())
	for i := range rs {
		rs[i] = tensor.Where(cs[i], xs[i], ys[i])
	}
	return packOn(x.values, rs, x.DType())
}
