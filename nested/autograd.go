package nested

import "github.com/goten-ml/goten/tensor"

// SetRequiresGrad makes t's values buffer a leaf that requires grad (or
// not) and returns t; every component then is a leaf of the nested
// tensor's gradient.
func (t *Tensor) SetRequiresGrad(on bool) *Tensor {
	t.values.SetRequiresGrad(on)
	return t
}

// RequiresGrad reports whether gradients flow into t's buffer.
func (t *Tensor) RequiresGrad() bool { return t.values.RequiresGrad() }

// Grad returns the gradient accumulated into t's buffer with t's
// structure, or nil when none was.
func (t *Tensor) Grad() *Tensor {
	g := t.values.Grad()
	if g == nil {
		return nil
	}
	return t.like(g)
}

// Backward back-propagates from t seeded with seed, a nested tensor of
// t's structure, and accumulates the gradients into the leaves: over the
// buffers in one call when both are packed, else component by component.
// Different structures are a shape error.
func Backward(t, seed *Tensor) {
	checkPair("backward", t, seed)
	if t.IsPacked() && seed.IsPacked() {
		tensor.Backward([]*tensor.Tensor{t.values}, []*tensor.Tensor{seed.values}, tensor.BackwardOptions{})
		return
	}
	tensor.Backward(t.Unbind(), seed.Unbind(), tensor.BackwardOptions{})
}
