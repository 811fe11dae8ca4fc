package tensor

import (
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
)

// To returns t converted to dt (t itself when it already has dt): floats
// to integers truncate toward zero, anything to bool is x != 0, and
// float16/bfloat16 round to nearest even.
func (t *Tensor) To(dt DType) *Tensor {
	if !dt.Valid() {
		panic(errs.New(errs.Value, "to", "invalid dtype %s", dt))
	}
	v, err := op.To(t.in("to"), dt)
	must(err)
	if v == t.v {
		return t
	}
	return wrap(v)
}

// CopyFrom writes src, broadcast to t's shape and converted to t's dtype,
// into t (PyTorch's copy_) and returns t.
func (t *Tensor) CopyFrom(src *Tensor) *Tensor {
	_, err := op.CopyInto("copy_", t.in("copy_"), src.in("copy_"), true)
	must(err)
	return t
}

// Fill sets every element of t to value — a [Scalar], or any one-element
// tensor — converted to t's dtype, and returns t. An expanded t is fine:
// every write of an element writes the same value.
func (t *Tensor) Fill(value *Tensor) *Tensor {
	_, err := op.Fill(t.in("fill_"), number("fill_", "value", value))
	must(err)
	return t
}

// Zero sets every element of t to 0 and returns t.
func (t *Tensor) Zero() *Tensor {
	_, err := op.Fill(t.in("zero_"), op.Int(0))
	must(err)
	return t
}

// Contiguous returns t itself if it is contiguous, else a row-major copy.
func (t *Tensor) Contiguous() *Tensor {
	v, err := op.Contiguous(t.in("contiguous"))
	must(err)
	if v == t.v {
		return t
	}
	return wrap(v)
}

// Clone returns a copy of t that keeps t's strides when t is
// non-overlapping and dense, and is contiguous otherwise.
func (t *Tensor) Clone() *Tensor {
	v, err := op.Clone(t.in("clone"))
	must(err)
	return wrap(v)
}
