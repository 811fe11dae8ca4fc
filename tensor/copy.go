package tensor

import (
	"github.com/goten-ml/goten/op"
)

// To returns t converted to dt (t itself when it already has dt): floats
// to integers truncate toward zero, anything to bool is x != 0, and
// float16/bfloat16 round to nearest even.
func (t *Tensor) To(dt DType) *Tensor {
	v, err := op.To(t.v, dt)
	must(err)
	if v == t.v {
		return t
	}
	r := wrap(v)
	if dt.IsFloat() && recording(t) {
		record("ToCopyBackward0", []*Tensor{t}, []*Tensor{r}, passGrad) // cast back by the engine
	}
	return r
}

// passGrad is the backward of an op whose input's gradient is its
// output's (copies and casts; the engine casts it to the input's dtype).
func passGrad(_ *node, gs []*Tensor) []*Tensor { return gs[:1] }

// overwrite records, after an op wrote into t in place without reading it
// (copy_, fill_, zero_), t's new history: the old value gets a zero
// gradient, srcs (copy_'s source) the gradient of what they became.
func overwrite(name string, t *Tensor, srcs ...*Tensor) {
	if t.ag == nil && !anyRequiresGrad(srcs) || !IsGradEnabled() {
		return
	}
	ins := append([]*Tensor{t}, srcs...)
	if !anyRequiresGrad(ins) {
		return
	}
	n := record(name, ins, []*Tensor{t}, func(n *node, gs []*Tensor) []*Tensor {
		out := make([]*Tensor, len(ins))
		if n.needs(0) {
			out[0] = ZerosLike(gs[0])
		}
		for i := 1; i < len(ins); i++ {
			out[i] = gs[0]
		}
		return out
	})
	rebase(t, n)
}

// CopyFrom writes src, broadcast to t's shape and converted to t's dtype,
// into t (PyTorch's copy_) and returns t.
func (t *Tensor) CopyFrom(src *Tensor) *Tensor {
	t.beforeOverwrite("copy_", src)
	_, err := op.CopyInto("copy_", t.v, src.v, true)
	must(err)
	written(t)
	overwrite("CopyBackwards", t, src)
	return t
}

// beforeOverwrite checks that autograd can follow an in-place write into
// t that srcs take part in.
func (t *Tensor) beforeOverwrite(name string, srcs ...*Tensor) {
	checkInPlace(name, t)
	if (t.RequiresGrad() || anyRequiresGrad(srcs)) && IsGradEnabled() {
		checkViewInPlace(name, t)
	}
}

// Fill sets every element of t to value — a [Scalar], or any one-element
// tensor — converted to t's dtype, and returns t. An expanded t is fine:
// every write of an element writes the same value.
func (t *Tensor) Fill(value *Tensor) *Tensor {
	t.beforeOverwrite("fill_")
	_, err := op.Fill(t.v, number("fill_", "value", value))
	must(err)
	written(t)
	overwrite("FillBackward0", t)
	return t
}

// Zero sets every element of t to 0 and returns t.
func (t *Tensor) Zero() *Tensor {
	t.beforeOverwrite("zero_")
	_, err := op.Fill(t.v, op.Int(0))
	must(err)
	written(t)
	overwrite("ZeroBackward0", t)
	return t
}

// Contiguous returns t itself if it is contiguous, else a row-major copy.
func (t *Tensor) Contiguous() *Tensor {
	v, err := op.Contiguous(t.v)
	must(err)
	if v == t.v {
		return t
	}
	r := wrap(v)
	if recording(t) {
		record("CloneBackward0", []*Tensor{t}, []*Tensor{r}, passGrad)
	}
	return r
}

// Clone returns a copy of t that keeps t's strides when t is
// non-overlapping and dense, and is contiguous otherwise.
func (t *Tensor) Clone() *Tensor {
	v, err := op.Clone(t.v)
	must(err)
	r := wrap(v)
	if recording(t) {
		record("CloneBackward0", []*Tensor{t}, []*Tensor{r}, passGrad)
	}
	return r
}
