package tensor

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
)

// Note [Autograd]
//
// Reverse-mode differentiation as PyTorch does it. An op whose inputs
// require grad records a node: the function from the gradients of its
// outputs to those of its inputs, the edges to the nodes that made its
// inputs, the inputs' shapes and dtypes, and the tensors its backward needs
// (saved with their storage's version, Note [Version counters]). A leaf
// that requires grad is reached through its accumulation node, which adds
// what arrives into the leaf's Grad. Derivatives of the op table's ops are
// declared in the table next to each op (optable.Op.Grad) and generated
// into zz_grad.go; those of the hand-written ops (views, matrix products,
// casts, copies, cat) stand next to their forward definitions. Backward
// functions are written with ordinary, differentiable tensor ops, so that a
// backward run with CreateGraph records a graph of its own (second
// derivatives). The engine (engine.go) runs the nodes in dependency order
// and makes every gradient fit its input: a gradient of the broadcast shape
// is summed back to the input's (sumTo, the one place broadcasting is
// undone), and cast to its dtype.
//
// Note [Version counters]
//
// A tensor saved for backward and then overwritten would give a wrong
// gradient silently. Every storage counts the writes made into it through
// the API (device.Storage.Version; out=, in-place ops, copies, fills and
// Set bump it), so all views of a storage share one counter, as in
// PyTorch. A node remembers the version of each tensor it saves, and the
// engine refuses to run it if a version moved, with PyTorch's message.

// autograd is a tensor's autograd state; nil for the common tensor that
// neither requires grad nor was made by a recorded op.
type autograd struct {
	requiresGrad bool  // a leaf that requires grad
	node         *node // the node that made the tensor (nil: a leaf)
	output       int   // which output of node it is
	grad         *Tensor
	retain       bool                 // a non-leaf whose gradient is kept in grad
	hooks        []*hook              // run on the gradient before it is used
	acc          atomic.Pointer[node] // a leaf's accumulation node
}

// hook is a function registered on a tensor's gradient.
type hook struct {
	fn func(grad *Tensor) *Tensor
}

// RequiresGrad reports whether gradients flow to t: a leaf marked with
// [Tensor.SetRequiresGrad], or the result of a recorded op.
func (t *Tensor) RequiresGrad() bool {
	t.in("requires_grad")
	return t.ag != nil && (t.ag.requiresGrad || t.ag.node != nil)
}

// SetRequiresGrad marks the leaf t as requiring grad (or not) and returns
// t: ops on it record for backward, and backward accumulates its gradient
// into [Tensor.Grad]. Only float tensors can require grad, and only a leaf
// changes its flag (PyTorch's requires_grad_).
func (t *Tensor) SetRequiresGrad(on bool) *Tensor {
	t.in("requires_grad_")
	if !t.IsLeaf() {
		panic(errs.New(errs.Autograd, "requires_grad_", "you can only change requires_grad flags of leaf variables."))
	}
	if on && !t.DType().IsFloat() {
		panic(errs.New(errs.Autograd, "requires_grad_", "only Tensors of floating point dtype can require gradients"))
	}
	if t.ag == nil {
		if !on {
			return t
		}
		t.ag = &autograd{}
	}
	t.ag.requiresGrad = on
	return t
}

// IsLeaf reports whether t was made by no recorded op: a tensor that
// requires no grad, or one the user marked with SetRequiresGrad.
func (t *Tensor) IsLeaf() bool {
	t.in("is_leaf")
	return t.ag == nil || t.ag.node == nil
}

// Grad returns the gradient accumulated into t by backward passes: into a
// leaf that requires grad, or a non-leaf after [Tensor.RetainGrad]; nil
// before any.
func (t *Tensor) Grad() *Tensor {
	t.in("grad")
	if t.ag == nil {
		return nil
	}
	return t.ag.grad
}

// SetGrad replaces t's gradient with g (nil clears it, as optimizers'
// set-to-none does) and returns t. g must have t's shape and dtype.
func (t *Tensor) SetGrad(g *Tensor) *Tensor {
	t.in("grad")
	if g != nil && (g.DType() != t.DType() || !slices.Equal(g.v.Shape, t.v.Shape)) {
		panic(errs.New(errs.Autograd, "grad", "assigned grad has data of a different type or size: %s %v, the tensor is %s %v",
			g.DType(), g.v.Shape, t.DType(), t.v.Shape))
	}
	if t.ag == nil {
		if g == nil {
			return t
		}
		t.ag = &autograd{}
	}
	t.ag.grad = g
	return t
}

// GradFn returns the name of the backward function of the op that made t
// (PyTorch's grad_fn, e.g. "MulBackward0"), or "" for a leaf.
func (t *Tensor) GradFn() string {
	if t.IsLeaf() {
		return ""
	}
	return t.ag.node.name
}

// Detach returns a tensor sharing t's storage and layout that requires no
// grad and has no history: writes through either are seen by the other
// (and counted by the version counter they share).
func (t *Tensor) Detach() *Tensor { return wrap(t.in("detach").Clone()) }

// RetainGrad makes a backward pass keep the gradient of the non-leaf t in
// [Tensor.Grad] (a leaf keeps its own anyway).
func (t *Tensor) RetainGrad() {
	if !t.RequiresGrad() {
		panic(errs.New(errs.Autograd, "retain_grad", "can't retain_grad on Tensor that has requires_grad=False"))
	}
	if t.IsLeaf() {
		return
	}
	if !t.ag.retain {
		t.ag.retain = true
		t.ag.node.watch(t)
	}
}

// RegisterHook registers fn to run on t's gradient each time backward
// computes it, before it is accumulated or passed on; a non-nil result
// replaces the gradient. It returns a function that removes the hook.
func (t *Tensor) RegisterHook(fn func(grad *Tensor) *Tensor) (remove func()) {
	if !t.RequiresGrad() {
		panic(errs.New(errs.Autograd, "register_hook", "cannot register a hook on a tensor that doesn't require gradient"))
	}
	h := &hook{fn: fn}
	t.ag.hooks = append(t.ag.hooks, h)
	if !t.IsLeaf() {
		t.ag.node.watch(t)
	}
	return func() {
		t.ag.hooks = slices.DeleteFunc(t.ag.hooks, func(x *hook) bool { return x == h })
	}
}

// node is one recorded op in the graph.
type node struct {
	name string
	seq  uint64 // creation order: the engine runs later nodes first
	// next holds, per input, where its gradient goes (node nil: the input
	// needs none); in its shape and dtype, which the gradient must have.
	next []edge
	in   []inputMeta
	// apply computes the inputs' gradients from the outputs' (nil for an
	// output that received none).
	apply func(n *node, grads []*Tensor) []*Tensor
	nOut  int
	saved []savedTensor
	// watched are the outputs with hooks or a retained gradient.
	watched []*Tensor
	// released: backward ran without RetainGraph and freed the node.
	released bool

	// leaf, for an accumulation node: the leaf it adds into.
	leaf *Tensor
	mu   sync.Mutex // serialises accumulation into leaf
}

// edge leads to output out of node n.
type edge struct {
	n   *node
	out int
}

// inputMeta is what a gradient must match: the input's shape and dtype.
type inputMeta struct {
	shape []int
	dtype DType
}

// savedTensor is a tensor a backward function reads, with the version of
// its storage when it was saved.
type savedTensor struct {
	t       *Tensor
	version uint64
}

// nodeSeq numbers nodes in creation order.
var nodeSeq atomic.Uint64

// needs reports whether input i of the node wants a gradient.
func (n *node) needs(i int) bool { return n.next[i].n != nil }

// watch adds t, an output of n with a hook or a retained gradient.
func (n *node) watch(t *Tensor) {
	if !slices.Contains(n.watched, t) {
		n.watched = append(n.watched, t)
	}
}

// requiresGrad reports whether any of ts requires grad.
func anyRequiresGrad(ts []*Tensor) bool {
	for _, t := range ts {
		if t != nil && t.ag != nil && (t.ag.requiresGrad || t.ag.node != nil) {
			return true
		}
	}
	return false
}

// recording reports whether an op over ins records: grad mode is on in this
// goroutine and some input requires grad.
func recording(ins ...*Tensor) bool { return anyRequiresGrad(ins) && IsGradEnabled() }

// edgeOf returns where t's gradient goes: the output of the node that made
// it, or a leaf's accumulation node; no node if t requires no grad.
func edgeOf(t *Tensor) edge {
	switch {
	case t == nil || t.ag == nil:
		return edge{}
	case t.ag.node != nil:
		return edge{t.ag.node, t.ag.output}
	case t.ag.requiresGrad:
		if n := t.ag.acc.Load(); n != nil {
			return edge{n, 0}
		}
		n := &node{name: "AccumulateGrad", seq: nodeSeq.Add(1), leaf: t}
		if !t.ag.acc.CompareAndSwap(nil, n) {
			n = t.ag.acc.Load()
		}
		return edge{n, 0}
	}
	return edge{}
}

// record makes outs the outputs of a new node named name over inputs ins,
// whose gradients apply computes, saving the tensors listed in saved. A nil
// out is an output that takes no part in autograd (indices). The caller
// checked recording(ins...).
func record(name string, ins, outs []*Tensor, apply func(n *node, grads []*Tensor) []*Tensor, saved ...*Tensor) *node {
	n := &node{name: name, seq: nodeSeq.Add(1), apply: apply, nOut: len(outs),
		next: make([]edge, len(ins)), in: make([]inputMeta, len(ins))}
	for i, t := range ins {
		n.next[i] = edgeOf(t)
		if n.next[i].n != nil {
			n.in[i] = inputMeta{shape: t.v.Shape, dtype: t.DType()}
		}
	}
	for i, t := range outs {
		if t == nil {
			continue
		}
		if t.ag == nil {
			t.ag = &autograd{}
		}
		t.ag.node, t.ag.output = n, i
	}
	n.saved = make([]savedTensor, 0, len(saved))
	for _, t := range saved {
		if t != nil {
			n.saved = append(n.saved, savedTensor{t, t.v.Storage.Version()})
		}
	}
	return n
}

// checkSaved reports a saved tensor overwritten since it was saved.
func (n *node) checkSaved() {
	for _, s := range n.saved {
		if v := s.t.v.Storage.Version(); v != s.version {
			what := "a leaf"
			if !s.t.IsLeaf() {
				what = fmt.Sprintf("output %d of %s", s.t.ag.output, s.t.ag.node.name)
			}
			panic(errs.New(errs.Autograd, "backward",
				"one of the variables needed for gradient computation has been modified by an inplace operation: [%s %v], which is %s, is at version %d; expected version %d instead",
				s.t.DType(), s.t.v.Shape, what, v, s.version))
		}
	}
}

// release frees what the node holds for backward.
func (n *node) release() {
	n.released, n.apply, n.saved = true, nil, nil
}

// written records a write into each of ts through the API (Note [Version
// counters]).
func written(ts ...*Tensor) {
	for _, t := range ts {
		if t != nil {
			t.v.Storage.BumpVersion()
		}
	}
}

// checkOut refuses out= into dst when autograd would need to record:
// PyTorch does not differentiate through out= arguments.
func checkOut(name string, dst *Tensor, ins ...*Tensor) {
	if (dst.RequiresGrad() || anyRequiresGrad(ins)) && IsGradEnabled() {
		panic(errs.New(errs.Autograd, name,
			"%s(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.", name))
	}
}

// checkInPlace refuses an in-place write into t that autograd cannot
// follow: into a leaf that requires grad, or a view of one (PyTorch's
// messages). It runs before anything is written.
func checkInPlace(name string, t *Tensor) {
	if t.ag == nil && t.base == nil || !IsGradEnabled() {
		return
	}
	if t.ag != nil && t.ag.requiresGrad && t.ag.node == nil {
		panic(errs.New(errs.Autograd, name, "a leaf Variable that requires grad is being used in an in-place operation."))
	}
	if b := t.base; b != nil && b.IsLeaf() && b.RequiresGrad() {
		panic(errs.New(errs.Autograd, name, "a view of a leaf Variable that requires grad is being used in an in-place operation."))
	}
}

// Note [In-place writes into views]
//
// An in-place op on a view v of a base b (say v := b.Narrow(0, 0, 2);
// v.MulInPlace(w)) changes b too, so b's history must change (PyTorch's
// CopySlices). The op records its node n as usual; then b gets a new node
// whose inputs are b's old history and n's other inputs: its backward
// takes b's gradient, lets n turn the part that lies in v into the
// gradient of v's old value, writes that back into the same part, and
// passes the rest on unchanged. v's own history becomes a view of b's new
// one (its gradient goes into v's part of a zero gradient of b). Other
// views of b made before the write keep their old history. The backward
// is made of differentiable ops (a copy, a view, an in-place write into
// it), so a second derivative goes through it; for that, an in-place op
// whose derivative reads the receiver's old value saves a clone of it
// with its history (PyTorch's original_self), not a detached one.

// checkViewInPlace checks, before an in-place op that records writes into
// the view t, that its base can take the new history: the view's layout
// relative to its base is only meaningful over a dense base.
func checkViewInPlace(name string, t *Tensor) {
	if b := t.base; b != nil && !b.v.IsNonOverlappingAndDense() {
		panic(errs.New(errs.Autograd, name, "an in-place operation that records into a view of a tensor with overlapping or sparse strides is not supported"))
	}
}

// rebase gives t's base the history of an in-place write into t recorded
// as node n, when t is a view (Note [In-place writes into views]).
func rebase(t *Tensor, n *node) {
	b := t.base
	if b == nil {
		return
	}
	geom, rel := t.v.Clone(), t.v.Offset-b.v.Offset
	shape, strides, dt := b.Shape(), b.Strides(), b.DType()
	alloc := b.v.Storage.Allocator()
	like := func() *Tensor {
		v, err := raw.NewOn(alloc, dt, shape, strides, true)
		must(err)
		return wrap(v)
	}
	part := func(z *Tensor) *Tensor { return z.AsStridedAt(geom.Shape, geom.Strides, z.v.Offset+rel) }
	cs := &node{name: "CopySlices", seq: nodeSeq.Add(1), nOut: 1,
		next: append([]edge{edgeOf(b)}, n.next[1:]...),
		in:   append([]inputMeta{{shape: shape, dtype: dt}}, n.in[1:]...)}
	cs.apply = func(_ *node, gs []*Tensor) []*Tensor {
		res := like().CopyFrom(gs[0])
		p := part(res)
		n.checkSaved()
		grads := n.apply(n, []*Tensor{p.Clone()})
		if len(grads) > 0 && grads[0] != nil {
			p.CopyFrom(fit(n, 0, grads[0]))
		} else {
			p.Zero()
		}
		out := make([]*Tensor, len(cs.next))
		out[0] = res
		for i := 1; i < len(out) && i < len(grads); i++ {
			out[i] = grads[i]
		}
		return out
	}
	if b.ag == nil {
		b.ag = &autograd{}
	}
	b.ag.node, b.ag.output = cs, 0
	t.ag.node = nil
	record("AsStridedBackward0", []*Tensor{b}, []*Tensor{t}, func(_ *node, gs []*Tensor) []*Tensor {
		z := like()
		part(z).CopyFrom(gs[0])
		return []*Tensor{z}
	})
}
