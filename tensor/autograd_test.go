package tensor_test

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goten-ml/goten/optable"
	. "github.com/goten-ml/goten/tensor"
)

// values returns t's elements as float64 (any layout).
func values(t *Tensor) []float64 { return t.Contiguous().Float64s() }

// near reports whether got and want agree within 1e-12 relative.
func near(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
			return false
		}
	}
	return true
}

// autogradError runs f and returns its *Error of kind autograd, failing the
// test if f raises none or another.
func autogradError(t *testing.T, f func()) *Error {
	t.Helper()
	err := Try(f)
	var e *Error
	if !errors.As(err, &e) || e.Kind != AutogradError {
		t.Fatalf("got %v, want an autograd error", err)
	}
	return e
}

func leaf(xs ...float64) *Tensor { return FromSlice(xs, len(xs)).SetRequiresGrad(true) }

// TestEveryFloatOpDifferentiable holds the table to its promise: every op
// that can give a float result declares a derivative.
func TestEveryFloatOpDifferentiable(t *testing.T) {
	for _, d := range optable.Ops[1:] {
		var float bool
		switch d.Kind {
		case optable.Pointwise:
			float = !d.OutBool && d.Accept(Float64)
		case optable.Reduction:
			if d.Internal {
				continue // picked by norm, which records as norm
			}
			r := Float64
			if d.Result != nil {
				r, _ = d.Result(Float64)
			}
			float = r.IsFloat() && d.Grad == nil
			float = float || (r.IsFloat() && d.Grad != nil)
		case optable.Index, optable.Gather, optable.Mask, optable.Sort, optable.Random:
			// positions as well as values: their derivatives are recorded by
			// the API beside the forward code (Note [Derivatives of index
			// ops], checked by TestIndexGradients); random fills have none
			continue
		default:
			float = true
		}
		if float && d.Grad == nil {
			t.Errorf("%s gives float results but declares no derivative", d.Go)
		}
	}
}

// TestBroadcastGradient is the seed's example: A [3] + B [1]; B's
// gradient is summed over the broadcast dim.
func TestBroadcastGradient(t *testing.T) {
	a, b := leaf(1, 2, 3), leaf(0.5)
	a.Add(b).Sum().Backward()
	if !near(values(a.Grad()), []float64{1, 1, 1}) || !near(values(b.Grad()), []float64{3}) {
		t.Errorf("grads %v %v, want [1 1 1] [3]", values(a.Grad()), values(b.Grad()))
	}
	if b.Grad().Dim() != 1 {
		t.Errorf("b's gradient has shape %v, want [1]", b.Grad().Shape())
	}
}

// TestAccumulation: gradients add up across backward calls, and a tensor
// used twice gets the sum of both uses.
func TestAccumulation(t *testing.T) {
	x := leaf(1, 2)
	y := x.Mul(x).Sum() // 2x
	y.Backward()
	x.Mul(Scalar(3)).Sum().Backward() // + 3
	if !near(values(x.Grad()), []float64{5, 7}) {
		t.Errorf("accumulated grad %v, want [5 7]", values(x.Grad()))
	}
	x.SetGrad(nil)
	if x.Grad() != nil {
		t.Error("SetGrad(nil) left a gradient")
	}
}

// TestBackwardErrors: PyTorch's refusals, as autograd errors.
func TestBackwardErrors(t *testing.T) {
	x := leaf(1, 2)
	e := autogradError(t, func() { x.Exp().Backward() })
	if e.Msg != "grad can be implicitly created only for scalar outputs" {
		t.Errorf("message %q", e.Msg)
	}
	e = autogradError(t, func() { FromSlice([]float64{1}).Sum().Backward() })
	if e.Msg != "element 0 of tensors does not require grad and does not have a grad_fn" {
		t.Errorf("message %q", e.Msg)
	}
	e = autogradError(t, func() { x.Exp().Backward(FromSlice([]float64{1, 2, 3})) })
	if !strings.HasPrefix(e.Msg, "Mismatch in shape") {
		t.Errorf("message %q", e.Msg)
	}
	before := values(x)
	e = autogradError(t, func() { x.AddInPlace(Scalar(1)) })
	if e.Msg != "a leaf Variable that requires grad is being used in an in-place operation." || !slices.Equal(values(x), before) {
		t.Errorf("in-place on a leaf: %q, x %v", e.Msg, values(x))
	}
	autogradError(t, func() { x.Narrow(0, 0, 1).MulInPlace(Scalar(2)) })
	autogradError(t, func() { AddTo(Zeros(Float64, 2), x, x) })
	autogradError(t, func() { FromSlice([]int32{1}).SetRequiresGrad(true) })
	autogradError(t, func() { x.Exp().SetRequiresGrad(false) })
	autogradError(t, func() { FromSlice([]float64{1}).RetainGrad() })
	// twice through a freed graph
	y := x.Exp().Sum()
	y.Backward()
	e = autogradError(t, func() { y.Backward() })
	if !strings.HasPrefix(e.Msg, "Trying to backward through the graph a second time") {
		t.Errorf("message %q", e.Msg)
	}
}

// TestRetainGraph: a retained graph runs twice, accumulating twice.
func TestRetainGraph(t *testing.T) {
	x := leaf(1, 2)
	y := x.Exp().Sum()
	Backward([]*Tensor{y}, nil, BackwardOptions{RetainGraph: true})
	y.Backward()
	want := []float64{2 * math.E, 2 * math.Exp(2)}
	if !near(values(x.Grad()), want) {
		t.Errorf("grad %v, want %v", values(x.Grad()), want)
	}
}

// TestVersionCounter: a saved tensor modified in place is detected with
// PyTorch's message instead of giving a wrong gradient.
func TestVersionCounter(t *testing.T) {
	x := leaf(1, 2)
	y := x.Mul(Scalar(2))
	z := y.Exp() // saves its result
	z.MulInPlace(Scalar(3))
	e := autogradError(t, func() { z.Sum().Backward() })
	if !strings.Contains(e.Msg, "modified by an inplace operation") {
		t.Errorf("message %q", e.Msg)
	}
	// a write through another view of the same storage counts too
	a := leaf(1, 2, 3)
	b := a.Mul(Scalar(1))
	c := b.Sin() // saves b
	b.Detach().Narrow(0, 0, 1).Fill(Scalar(0))
	autogradError(t, func() { c.Sum().Backward() })
}

// TestInPlaceNonLeaf: an in-place op on a non-leaf records, reading the
// overwritten value where its derivative needs it.
func TestInPlaceNonLeaf(t *testing.T) {
	x := leaf(1, -2, 3)
	y := x.Mul(Scalar(2))
	y.AbsInPlace() // d|y|/dy reads y before the write
	y.Sum().Backward()
	if !near(values(x.Grad()), []float64{2, -2, 2}) {
		t.Errorf("grad %v, want [2 -2 2]", values(x.Grad()))
	}
	if y.GradFn() != "abs" {
		t.Errorf("grad_fn %q", y.GradFn())
	}
	// a leaf that does not require grad takes a history from its input
	w := leaf(4, 5)
	acc := Zeros(Float64, 2)
	acc.AddInPlace(w.Mul(w))
	acc.Sum().Backward()
	if !near(values(w.Grad()), []float64{8, 10}) || acc.IsLeaf() {
		t.Errorf("grad %v, want [8 10]", values(w.Grad()))
	}
}

// TestInPlaceView: an in-place write into a view changes its base's
// history (Note [In-place writes into views]).
func TestInPlaceView(t *testing.T) {
	x := leaf(1, 2, 3, 4)
	w := leaf(10)
	b := x.Mul(Scalar(1))
	v := b.Narrow(0, 1, 2)
	v.MulInPlace(w) // b = [x0, 10x1, 10x2, x3]
	b.Mul(FromSlice([]float64{1, 2, 3, 4})).Sum().Backward()
	if !near(values(x.Grad()), []float64{1, 20, 30, 4}) {
		t.Errorf("x grad %v, want [1 20 30 4]", values(x.Grad()))
	}
	if !near(values(w.Grad()), []float64{2*2 + 3*3}) {
		t.Errorf("w grad %v, want [13]", values(w.Grad()))
	}
	// a base that required nothing, written through a view with a value
	// that requires grad; then Set of one element
	z := Zeros(Float64, 3)
	z.Narrow(0, 0, 2).CopyFrom(w.Expand(2))
	z.Set(w.Mul(Scalar(5)), 2)
	z.Sum().Backward()
	if !near(values(w.Grad()), []float64{13 + 2 + 5}) {
		t.Errorf("w grad %v, want [20]", values(w.Grad()))
	}
}

// TestHooksAndRetain: hooks see and replace gradients; a retained
// non-leaf keeps its gradient.
func TestHooksAndRetain(t *testing.T) {
	x := leaf(1, 2)
	var seen []float64
	remove := x.RegisterHook(func(g *Tensor) *Tensor {
		seen = values(g)
		return g.Mul(Scalar(10))
	})
	y := x.Mul(Scalar(3))
	y.RetainGrad()
	y.RegisterHook(func(g *Tensor) *Tensor { return g.Add(Scalar(1)) })
	y.Sum().Backward()
	if !near(seen, []float64{6, 6}) || !near(values(x.Grad()), []float64{60, 60}) {
		t.Errorf("hook saw %v, grad %v; want [6 6], [60 60]", seen, values(x.Grad()))
	}
	if !near(values(y.Grad()), []float64{2, 2}) {
		t.Errorf("retained grad %v, want [2 2]", values(y.Grad()))
	}
	remove()
	x.SetGrad(nil)
	x.Mul(Scalar(3)).Sum().Backward()
	if !near(values(x.Grad()), []float64{3, 3}) {
		t.Errorf("grad after removing the hook %v, want [3 3]", values(x.Grad()))
	}
}

// TestGradFunctional: Grad returns gradients without accumulating, and
// with CreateGraph they differentiate again (d²/dx² x³ = 6x).
func TestGradFunctional(t *testing.T) {
	x := leaf(1, 2)
	y := x.Pow(Scalar(3)).Sum()
	g := Grad([]*Tensor{y}, []*Tensor{x}, nil, GradOptions{CreateGraph: true})[0]
	if !near(values(g), []float64{3, 12}) || x.Grad() != nil {
		t.Fatalf("grad %v (x.Grad %v), want [3 12] and nothing accumulated", values(g), x.Grad())
	}
	g.Sum().Backward()
	if !near(values(x.Grad()), []float64{6, 12}) {
		t.Errorf("second derivative %v, want [6 12]", values(x.Grad()))
	}
	// unused inputs
	u := leaf(1)
	autogradError(t, func() { Grad([]*Tensor{x.Sum()}, []*Tensor{u}, nil, GradOptions{}) })
	if r := Grad([]*Tensor{x.Sum()}, []*Tensor{u}, nil, GradOptions{AllowUnused: true}); r[0] != nil {
		t.Errorf("unused input got %v", r[0])
	}
	// a non-leaf input
	h := x.Mul(Scalar(2))
	if r := Grad([]*Tensor{h.Square().Sum()}, []*Tensor{h}, nil, GradOptions{}); !near(values(r[0]), []float64{4, 8}) {
		t.Errorf("grad wrt a non-leaf %v, want [4 8]", values(r[0]))
	}
}

// TestDetachAndNoGrad: detached tensors and no-grad scopes record nothing.
func TestDetachAndNoGrad(t *testing.T) {
	x := leaf(1, 2)
	if x.Detach().RequiresGrad() || !x.Detach().SharesStorage(x) {
		t.Error("Detach requires grad or copies")
	}
	var y *Tensor
	NoGrad(func() {
		if IsGradEnabled() {
			t.Error("grad enabled inside NoGrad")
		}
		y = x.Exp()
		x.AddInPlace(Scalar(1)) // allowed: nothing records
	})
	if y.RequiresGrad() || !IsGradEnabled() {
		t.Errorf("result of a no-grad op requires grad (%v), or grad stayed off", y.RequiresGrad())
	}
	if !near(values(x), []float64{2, 3}) {
		t.Errorf("x %v after the no-grad update", values(x))
	}
}

// TestNoGradGoroutines holds Note [Grad mode per goroutine]: goroutines in
// no-grad scopes and goroutines recording run at once, and each records
// exactly as its own mode says (run under -race).
func TestNoGradGoroutines(t *testing.T) {
	x := leaf(1, 2, 3)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if i%2 == 0 {
					NoGrad(func() {
						if x.Mul(Scalar(2)).RequiresGrad() {
							errs <- "recorded inside NoGrad"
						}
						runtime.Gosched()
						// a goroutine started inside the scope records
						done := make(chan bool)
						go func() { done <- x.Exp().RequiresGrad() }()
						if !<-done {
							errs <- "a goroutine started in a scope did not record"
						}
					})
				} else if !x.Mul(Scalar(2)).RequiresGrad() {
					errs <- "did not record outside NoGrad"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
		break
	}
}

// TestFlatHeap: a loop of 10 000 training steps keeps a flat heap: the
// graph and its saved tensors are freed after each backward.
func TestFlatHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("10 000 steps")
	}
	g := NewGenerator(1)
	w := g.Randn(Float32, 16, 8).SetRequiresGrad(true)
	b := Zeros(Float32, 8).SetRequiresGrad(true)
	x := g.Randn(Float32, 4, 16)
	step := func() {
		w.SetGrad(nil)
		b.SetGrad(nil)
		Linear(x, w.T(), b).Relu().Square().Mean().Backward()
		NoGrad(func() {
			w.SubInPlace(w.Grad().Mul(Scalar(1e-3)))
			b.SubInPlace(b.Grad().Mul(Scalar(1e-3)))
		})
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 1000 {
		step()
	}
	before := heap()
	for range 10000 {
		step()
	}
	after := heap()
	if after > before+256<<10 {
		t.Errorf("heap grew from %d to %d bytes over 10 000 steps", before, after)
	}
}
