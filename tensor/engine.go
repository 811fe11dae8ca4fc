package tensor

import (
	"container/heap"
	"slices"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
)

// BackwardOptions are the options of [Backward].
type BackwardOptions struct {
	// RetainGraph keeps the graph's saved tensors, so that backward can run
	// through it again; without it the nodes are freed as they run.
	RetainGraph bool
	// CreateGraph records the backward pass itself, so that the gradients
	// it accumulates can be differentiated again (it implies RetainGraph).
	CreateGraph bool
}

// GradOptions are the options of [Grad].
type GradOptions struct {
	RetainGraph bool // as in BackwardOptions
	CreateGraph bool // as in BackwardOptions
	// AllowUnused returns nil for an input the outputs do not depend on,
	// instead of an autograd error.
	AllowUnused bool
}

// Backward computes the gradient of t with respect to the leaves that
// require grad and accumulates it into their [Tensor.Grad]. A t of one
// element needs no seed (its gradient is 1); otherwise seed, of t's shape,
// is the gradient of t. The graph is freed as it runs.
func (t *Tensor) Backward(seed ...*Tensor) {
	if len(seed) > 1 {
		panic(errs.New(errs.Value, "backward", "backward takes at most one seed, got %d", len(seed)))
	}
	Backward([]*Tensor{t}, seed, BackwardOptions{})
}

// Backward computes the gradients of outputs, seeded with seeds (one per
// output, or none: then every output must have one element and its seed is
// 1; a nil seed also means 1), and accumulates them into the leaves that
// require grad (PyTorch's torch.autograd.backward).
func Backward(outputs, seeds []*Tensor, o BackwardOptions) {
	e := newEngine(o.CreateGraph, o.RetainGraph || o.CreateGraph)
	e.start(outputs, seeds)
	e.run()
}

// Grad returns the gradients of outputs with respect to inputs, seeded as
// in [Backward], without accumulating anything into Grad (PyTorch's
// torch.autograd.grad). With CreateGraph the results have a graph of their
// own and can be differentiated again.
func Grad(outputs, inputs, seeds []*Tensor, o GradOptions) []*Tensor {
	e := newEngine(o.CreateGraph, o.RetainGraph || o.CreateGraph)
	e.capture = map[edge]int{}
	for k, t := range inputs {
		if t == nil || !t.RequiresGrad() {
			panic(errs.New(errs.Autograd, "grad", "One of the differentiated Tensors does not require grad"))
		}
		e.capture[edgeOf(t)] = k
	}
	e.results = make([]*Tensor, len(inputs))
	e.start(outputs, seeds)
	e.run()
	for _, g := range e.results {
		if g == nil && !o.AllowUnused {
			panic(errs.New(errs.Autograd, "grad", "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."))
		}
	}
	return e.results
}

// engine is one backward pass.
type engine struct {
	create, retain bool
	roots          []edge
	deps           map[*node]int       // edges from nodes yet to run
	bufs           map[*node][]*Tensor // gradients received, per output
	ready          nodeHeap
	// claimed are the storages of gradients someone else holds (seeds,
	// gradients kept in Grad): a gradient on one is copied before a leaf
	// keeps it, so that accumulating in place never writes into another's.
	claimed map[*device.Storage]bool
	// For Grad: the edges whose gradients are returned, by result index;
	// exec marks the nodes that lead to one (the others need not run).
	capture map[edge]int
	results []*Tensor
	exec    map[*node]bool
}

func newEngine(create, retain bool) *engine {
	return &engine{create: create, retain: retain, deps: map[*node]int{}, bufs: map[*node][]*Tensor{},
		claimed: map[*device.Storage]bool{}}
}

// start checks the outputs and seeds and puts the seeds into the roots'
// buffers.
func (e *engine) start(outputs, seeds []*Tensor) {
	if len(seeds) != 0 && len(seeds) != len(outputs) {
		panic(errs.New(errs.Value, "backward", "got %d seeds for %d outputs", len(seeds), len(outputs)))
	}
	for i, out := range outputs {
		if out == nil {
			panic(errs.New(errs.Value, "backward", "output %d is nil", i))
		}
		if !out.RequiresGrad() {
			panic(errs.New(errs.Autograd, "backward", "element %d of tensors does not require grad and does not have a grad_fn", i))
		}
		var seed *Tensor
		if len(seeds) > 0 {
			seed = seeds[i]
		}
		switch {
		case seed == nil && out.NumEl() != 1:
			panic(errs.New(errs.Autograd, "backward", "grad can be implicitly created only for scalar outputs"))
		case seed == nil:
			seed = OnesLike(out)
		case !slices.Equal(seed.v.Shape, out.v.Shape):
			panic(errs.New(errs.Autograd, "backward", "Mismatch in shape: grad_output[%d] has a shape of %v and output[%d] has a shape of %v.",
				i, seed.v.Shape, i, out.v.Shape))
		default:
			e.claimed[seed.v.Storage] = true
			if seed.DType() != out.DType() {
				seed = seed.To(out.DType())
			}
		}
		r := edgeOf(out)
		e.roots = append(e.roots, r)
		e.add(r, seed)
	}
	e.countDeps()
}

// countDeps counts, for every node the roots reach, the edges into it; for
// Grad it also marks the nodes that lead to a captured edge.
func (e *engine) countDeps() {
	seen := map[*node]bool{}
	var order []*node // post-order: a node after everything it leads to
	var visit func(n *node)
	visit = func(n *node) {
		seen[n] = true
		for _, ed := range n.next {
			if ed.n == nil {
				continue
			}
			e.deps[ed.n]++
			if !seen[ed.n] {
				visit(ed.n)
			}
		}
		order = append(order, n)
	}
	for _, r := range e.roots {
		if !seen[r.n] {
			visit(r.n)
		}
	}
	if e.capture != nil {
		e.exec = map[*node]bool{}
		for _, n := range order {
			for _, ed := range n.next {
				if ed.n == nil {
					continue
				}
				if _, ok := e.capture[ed]; ok || e.exec[ed.n] {
					e.exec[n] = true
				}
			}
		}
	}
	for _, r := range e.roots {
		if e.deps[r.n] == 0 && !slices.Contains(e.ready, r.n) {
			heap.Push(&e.ready, r.n)
		}
	}
}

// run runs the ready nodes, latest first, until none is left.
func (e *engine) run() {
	if e.create {
		e.loop()
		return
	}
	NoGrad(e.loop)
}

func (e *engine) loop() {
	for e.ready.Len() > 0 {
		n := heap.Pop(&e.ready).(*node)
		grads := e.bufs[n]
		delete(e.bufs, n)
		e.runNode(n, grads)
	}
}

// runNode runs node n on the gradients of its outputs and passes the
// gradients of its inputs on.
func (e *engine) runNode(n *node, grads []*Tensor) {
	if n.leaf != nil {
		e.accumulate(n, grads[0])
		return
	}
	for _, t := range n.watched {
		out := t.ag.output
		if grads[out] == nil {
			continue
		}
		grads[out] = runHooks(t, grads[out])
		if t.ag.retain && e.capture == nil {
			e.keep(t, grads[out])
		}
	}
	if e.capture != nil {
		for out, g := range grads {
			if k, ok := e.capture[edge{n, out}]; ok {
				e.results[k] = e.result(g)
			}
		}
		if !e.exec[n] {
			return
		}
	}
	if n.released {
		panic(errs.New(errs.Autograd, "backward", "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward."))
	}
	n.checkSaved()
	ins := n.apply(n, grads)
	if !e.retain {
		n.release()
	}
	for i, g := range ins {
		ed := n.next[i]
		if ed.n == nil || g == nil {
			continue
		}
		e.add(ed, fit(n, i, g))
		if e.deps[ed.n]--; e.deps[ed.n] == 0 {
			heap.Push(&e.ready, ed.n)
		}
	}
}

// fit makes gradient g of input i of n fit that input: summed over the
// dims broadcasting stretched (sumTo) and cast to its dtype.
func fit(n *node, i int, g *Tensor) *Tensor {
	m := n.in[i]
	if !slices.Equal(g.v.Shape, m.shape) {
		if !broadcastsTo(m.shape, g.v.Shape) {
			panic(errs.New(errs.Autograd, "backward", "Function %s returned an invalid gradient at index %d - got %v but expected shape compatible with %v",
				n.name, i, g.v.Shape, m.shape))
		}
		g = sumTo(g, m.shape)
	}
	if g.DType() != m.dtype {
		g = g.To(m.dtype)
	}
	return g
}

// add adds gradient g into the buffer of edge ed.
func (e *engine) add(ed edge, g *Tensor) {
	buf := e.bufs[ed.n]
	if buf == nil {
		buf = make([]*Tensor, ed.n.outputs())
		e.bufs[ed.n] = buf
	}
	if buf[ed.out] == nil {
		buf[ed.out] = g
	} else {
		buf[ed.out] = buf[ed.out].Add(g)
	}
}

// outputs returns how many outputs n has.
func (n *node) outputs() int {
	if n.leaf != nil {
		return 1
	}
	return n.nOut
}

// accumulate runs a leaf's accumulation node: hooks, then the gradient
// into the leaf's Grad (or into Grad's results).
func (e *engine) accumulate(n *node, g *Tensor) {
	leaf := n.leaf
	g = runHooks(leaf, g)
	if e.capture != nil {
		if k, ok := e.capture[edge{n, 0}]; ok {
			e.results[k] = e.result(g)
		}
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	e.keep(leaf, g)
}

// keep adds g into t.Grad: it becomes Grad if there is none (copied
// unless nobody else holds it), is added in place into a Grad of its own
// otherwise, and out of place when the pass creates a graph (PyTorch's
// AccumulateGrad).
func (e *engine) keep(t *Tensor, g *Tensor) {
	old := t.ag.grad
	switch {
	case old == nil && e.create:
		t.ag.grad = g
	case old == nil:
		t.ag.grad = e.result(g)
	case e.create || old.RequiresGrad() || !old.v.IsNonOverlappingAndDense():
		t.ag.grad = old.Add(g)
	default:
		old.AddInPlace(g)
	}
}

// result returns g for keeping: detached without CreateGraph, copied
// when it is not dense or its storage is held elsewhere.
func (e *engine) result(g *Tensor) *Tensor {
	if e.create {
		return g
	}
	if e.claimed[g.v.Storage] || !g.v.IsNonOverlappingAndDense() {
		g = g.Clone()
	}
	e.claimed[g.v.Storage] = true
	return g.Detach()
}

// runHooks runs t's hooks on its gradient g.
func runHooks(t *Tensor, g *Tensor) *Tensor {
	for _, h := range t.ag.hooks {
		if r := h.fn(g); r != nil {
			g = r
		}
	}
	return g
}

// broadcastsTo reports whether shape broadcasts to target.
func broadcastsTo(shape, target []int) bool {
	lead := len(target) - len(shape)
	if lead < 0 {
		return false
	}
	for d, s := range shape {
		if s != 1 && s != target[lead+d] {
			return false
		}
	}
	return true
}

// sumTo sums g over the dims that broadcasting added or stretched to make
// it from shape: the one place backward undoes broadcasting (Note
// [Autograd]). A stretched dim of stride 0 (an expanded gradient, such as
// a sum's) holds one value n times, so it is taken once and multiplied by n
// rather than summed; a stretched dim of size 0 is summed, to zeros.
func sumTo(g *Tensor, shape []int) *Tensor {
	lead := g.Dim() - len(shape)
	var dims []int
	copies := 1
	for d := range g.Dim() {
		if d >= lead && (shape[d-lead] != 1 || g.v.Shape[d] == 1) {
			continue
		}
		if g.v.Strides[d] == 0 && g.v.Shape[d] > 0 {
			copies *= g.v.Shape[d]
			g = g.Narrow(d, 0, min(1, g.v.Shape[d]))
		} else {
			dims = append(dims, d)
		}
	}
	if len(dims) > 0 {
		g = g.Sum(Over(dims...).KeepDim())
	}
	if copies != 1 {
		g = g.Mul(Scalar(copies))
	}
	return g.Reshape(shape...)
}

// nodeHeap orders ready nodes latest first (PyTorch's sequence numbers).
type nodeHeap []*node

func (h nodeHeap) Len() int           { return len(h) }
func (h nodeHeap) Less(i, j int) bool { return h[i].seq > h[j].seq }
func (h nodeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)        { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}
