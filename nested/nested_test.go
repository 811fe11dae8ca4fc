package nested_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// ragged returns float64 components of these shapes with distinct values.
func ragged(g *tensor.Generator, shapes ...[]int) []*tensor.Tensor {
	cs := make([]*tensor.Tensor, len(shapes))
	for i, sh := range shapes {
		cs[i] = g.Randn(tensor.Float64, sh...)
	}
	return cs
}

func near(t *testing.T, what string, got, want *tensor.Tensor) {
	t.Helper()
	if got.DType() != want.DType() || !slices.Equal(got.Shape(), want.Shape()) {
		t.Fatalf("%s: got %v %v, want %v %v", what, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	g, w := got.Float64s(), want.Float64s()
	for k := range g {
		if d := math.Abs(g[k] - w[k]); d > 1e-12+1e-10*math.Abs(w[k]) && !(math.IsNaN(g[k]) && math.IsNaN(w[k])) {
			t.Fatalf("%s: element %d: got %v, want %v", what, k, g[k], w[k])
		}
	}
}

// sameAsDense checks that the components of got are f of the components
// of cs: the dense API applied one component at a time is the reference.
func sameAsDense(t *testing.T, what string, got *nested.Tensor, cs []*tensor.Tensor, f func(c *tensor.Tensor) *tensor.Tensor) {
	t.Helper()
	if got.Len() != len(cs) {
		t.Fatalf("%s: %d components, want %d", what, got.Len(), len(cs))
	}
	for i, c := range cs {
		near(t, what, got.Component(i), f(c))
	}
}

func errKind(f func()) tensor.ErrorKind {
	var e *tensor.Error
	if err := tensor.Try(f); errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func TestMetadata(t *testing.T) {
	g := tensor.NewGenerator(1)
	cs := ragged(g, []int{2, 3}, []int{0, 3}, []int{4, 3})
	x := nested.New(cs, tensor.Float64)
	if got := x.Sizes().Int64s(); !slices.Equal(got, []int64{2, 3, 0, 3, 4, 3}) {
		t.Errorf("sizes %v", got)
	}
	if got := x.Strides().Int64s(); !slices.Equal(got, []int64{3, 1, 3, 1, 3, 1}) {
		t.Errorf("strides %v", got)
	}
	if got := x.Offsets().Int64s(); !slices.Equal(got, []int64{0, 6, 6}) {
		t.Errorf("offsets %v", got)
	}
	if !x.IsPacked() || x.Values().NumEl() != 18 || x.Dim() != 3 {
		t.Errorf("packed %v, %d values, dim %d", x.IsPacked(), x.Values().NumEl(), x.Dim())
	}
	if got := x.PaddedShape(); !slices.Equal(got, []int{3, 4, 3}) {
		t.Errorf("padded shape %v", got)
	}
	// a size 0 counts as 1 in the strides of the dims before it
	y := nested.New([]*tensor.Tensor{tensor.Zeros(tensor.Float32, 2, 0, 3)}, tensor.Float32)
	if got := y.Strides().Int64s(); !slices.Equal(got, []int64{3, 3, 1}) {
		t.Errorf("strides with a size 0: %v", got)
	}
}

func TestNewCopiesAndUnbindViews(t *testing.T) {
	g := tensor.NewGenerator(2)
	cs := ragged(g, []int{3}, []int{1}, []int{2})
	want := cs[0].Float64s()
	x := nested.New(cs, tensor.Float64)
	cs[0].Fill(tensor.Scalar(7.0))
	us := x.Unbind()
	if !slices.Equal(us[0].Float64s(), want) {
		t.Errorf("New did not copy: component 0 is %v, want %v", us[0].Float64s(), want)
	}
	for i, u := range us {
		if !u.SharesStorage(x.Values()) {
			t.Errorf("component %d is not a view of the buffer", i)
		}
	}
	if k := errKind(func() {
		nested.New([]*tensor.Tensor{tensor.Zeros(tensor.Float32, 2), tensor.Zeros(tensor.Float32, 2, 2)}, tensor.Float32)
	}); k != tensor.ValueError {
		t.Errorf("components of different dims: kind %v, want value", k)
	}
	if k := errKind(func() {
		nested.New([]*tensor.Tensor{tensor.Zeros(tensor.Float32, 2), tensor.Zeros(tensor.Float64, 2)}, tensor.Float32)
	}); k != tensor.DTypeError {
		t.Errorf("components of different dtypes: kind %v, want dtype", k)
	}
}

func TestWrapShares(t *testing.T) {
	buf := tensor.FromSlice([]float32{0, 1, 2, 3, 4, 5, 6, 7}, 8)
	x := nested.Wrap(buf, [][]int{{2, 2}, {1, 2}}, []int{4, 0})
	if x.IsPacked() {
		t.Error("components out of order reported packed")
	}
	c0 := x.Component(0)
	if !c0.SharesStorage(buf) || !slices.Equal(c0.Float64s(), []float64{4, 5, 6, 7}) {
		t.Errorf("component 0: %v", c0.Float64s())
	}
	buf.Fill(tensor.Scalar(1))
	if got := x.Component(1).Float64s(); !slices.Equal(got, []float64{1, 1}) {
		t.Errorf("Wrap copied: component 1 is %v after writing the buffer", got)
	}
	if k := errKind(func() { nested.Wrap(buf, [][]int{{3, 3}}, []int{0}) }); k != tensor.ValueError {
		t.Errorf("a component past the buffer: kind %v", k)
	}
}

// TestViewOf checks nested tensors of strided views of one buffer: the
// components read the buffer through their strides and offsets, a
// pointwise op runs on each as the dense op on its view (fmod by a
// subnormal: the C value on a stepped view, NaN in the vector body of a
// contiguous one, Note [SLEEF's fmod] in optable/elem), the metadata are
// the views', and components reaching past the buffer or with negative
// strides are value errors.
func TestViewOf(t *testing.T) {
	buf := tensor.Full(tensor.Scalar(1.0), tensor.Float64, 60)
	x := nested.ViewOf(buf, [][]int{{20, 1}, {3, 2}}, [][]int{{2, 1}, {1, 3}}, []int{0, 41})
	if x.IsPacked() {
		t.Error("strided components reported packed")
	}
	if got := x.Component(1).Shape(); !slices.Equal(got, []int{3, 2}) || !x.Component(1).SharesStorage(buf) {
		t.Errorf("component 1: shape %v", got)
	}
	if got := x.Strides().Int64s(); !slices.Equal(got, []int64{2, 1, 1, 3}) {
		t.Errorf("strides %v", got)
	}
	b := tensor.ZeroDim(1e-310)
	got := nested.BinaryDense(tensor.Fmod, x, b)
	for i := range 2 {
		want := tensor.Fmod(x.Component(i), b).Float64s()
		for k, v := range got.Component(i).Float64s() {
			if math.Float64bits(v) != math.Float64bits(want[k]) && !(v != v && want[k] != want[k]) {
				t.Fatalf("component %d [%d]: %v, the dense op on the view %v", i, k, v, want[k])
			}
		}
	}
	if v := got.Component(0).Float64s()[0]; math.IsNaN(v) {
		t.Errorf("fmod(1, 1e-310) on a stepped view: NaN, want the C value")
	}
	for name, f := range map[string]func(){
		"past the buffer":   func() { nested.ViewOf(buf, [][]int{{31, 1}}, [][]int{{2, 1}}, []int{0}) },
		"a negative stride": func() { nested.ViewOf(buf, [][]int{{2, 1}}, [][]int{{-1, 1}}, []int{5}) },
	} {
		if k := errKind(f); k != tensor.ValueError {
			t.Errorf("%s: kind %v, want a value error", name, k)
		}
	}
}

func TestPointwise(t *testing.T) {
	g := tensor.NewGenerator(3)
	shapes := [][]int{{2, 3}, {1, 3}, {4, 3}}
	a, b := ragged(g, shapes...), ragged(g, shapes...)
	na, nb := nested.New(a, tensor.Float64), nested.New(b, tensor.Float64)
	sameAsDense(t, "exp", nested.Unary(tensor.Exp, na), a, tensor.Exp)
	r := nested.Binary("mul", tensor.Mul, na, nb)
	for i := range a {
		near(t, "mul", r.Component(i), tensor.Mul(a[i], b[i]))
	}
	bias := g.Randn(tensor.Float64, 3)
	sameAsDense(t, "x+bias", nested.BinaryDense(func(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Add(x, y) }, na, bias), a,
		func(c *tensor.Tensor) *tensor.Tensor { return tensor.Add(c, bias) })
	sameAsDense(t, "bias-x", nested.DenseBinary(func(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Sub(x, y) }, bias, na), a,
		func(c *tensor.Tensor) *tensor.Tensor { return tensor.Sub(bias, c) })
	col := g.Randn(tensor.Float64, 4, 1) // broadcasts against one component only
	if k := errKind(func() { nested.BinaryDense(tensor.Mul, na, col) }); k != tensor.ShapeError {
		t.Errorf("a dense operand that fits one component: kind %v, want shape", k)
	}
	// a scalar keeps its wrapped-number promotion: int components stay int
	ints := nested.New([]*tensor.Tensor{tensor.FromSlice([]int32{1, 2}, 2), tensor.FromSlice([]int32{3}, 1)}, tensor.Int32)
	if got := nested.BinaryDense(tensor.Mul, ints, tensor.Scalar(int64(3))); got.DType() != tensor.Int32 ||
		!slices.Equal(got.Values().Int64s(), []int64{3, 6, 9}) {
		t.Errorf("int32 × 3: %v %v", got.DType(), got.Values().Int64s())
	}
	// a non-packed operand (a transposed view) goes per component
	tr := nested.Transpose(na, 1, 2)
	if tr.IsPacked() || !tr.Values().SharesStorage(na.Values()) {
		t.Errorf("transpose: packed %v, shares %v", tr.IsPacked(), tr.Values().SharesStorage(na.Values()))
	}
	sameAsDense(t, "sin of a transpose", nested.Unary(tensor.Sin, tr), a,
		func(c *tensor.Tensor) *tensor.Tensor { return tensor.Sin(c.Transpose(0, 1)) })
	if !nested.Clone(tr).IsPacked() {
		t.Error("clone of a transpose is not packed")
	}
	other := nested.New(ragged(g, []int{2, 3}, []int{2, 3}, []int{4, 3}), tensor.Float64)
	if k := errKind(func() { nested.Binary("add", tensor.Mul, na, other) }); k != tensor.ShapeError {
		t.Errorf("different component shapes: kind %v", k)
	}
	if k := errKind(func() { nested.Binary("add", tensor.Mul, na, nested.New(a[:2], tensor.Float64)) }); k != tensor.ShapeError {
		t.Errorf("different counts: kind %v", k)
	}
}

func TestAlongDims(t *testing.T) {
	g := tensor.NewGenerator(4)
	shapes := [][]int{{2, 3}, {5, 3}, {1, 3}}
	a := ragged(g, shapes...)
	x := nested.New(a, tensor.Float64)
	for _, dim := range []int{1, 2, -1} {
		d := map[int]int{1: 0, 2: 1, -1: 1}[dim]
		sameAsDense(t, "softmax", nested.Softmax(x, dim), a, func(c *tensor.Tensor) *tensor.Tensor { return c.Softmax(tensor.Over(d)) })
		sameAsDense(t, "log_softmax", nested.LogSoftmax(x, dim), a, func(c *tensor.Tensor) *tensor.Tensor { return c.LogSoftmax(tensor.Over(d)) })
		for _, keep := range []bool{false, true} {
			o := tensor.Over(d)
			if keep {
				o = o.KeepDim()
			}
			sameAsDense(t, "sum", nested.Reduce("sum", tensor.Sum, x, dim, keep), a, func(c *tensor.Tensor) *tensor.Tensor { return c.Sum(o) })
			sameAsDense(t, "amax", nested.Reduce("amax", tensor.Amax, x, dim, keep), a, func(c *tensor.Tensor) *tensor.Tensor { return c.Amax(o) })
		}
	}
	if k := errKind(func() { nested.Softmax(x, 0) }); k != tensor.ValueError {
		t.Errorf("softmax over dim 0: kind %v", k)
	}
	if k := errKind(func() { nested.Softmax(x, 3) }); k != tensor.IndexError {
		t.Errorf("softmax over dim 3: kind %v", k)
	}
	w, bias := g.Randn(tensor.Float64, 3), g.Randn(tensor.Float64, 3)
	sameAsDense(t, "layer_norm", nested.LayerNorm(x, []int{3}, w, bias, 1e-5), a,
		func(c *tensor.Tensor) *tensor.Tensor { return tensor.LayerNorm(c, []int{3}, w, bias, 1e-5) })
	lw, lb := g.Randn(tensor.Float64, 4, 3), g.Randn(tensor.Float64, 4)
	sameAsDense(t, "linear", nested.Linear(x, lw, lb), a, func(c *tensor.Tensor) *tensor.Tensor { return tensor.Linear(c, lw, lb) })
	m := g.Randn(tensor.Float64, 3, 2)
	sameAsDense(t, "matmul", nested.MatmulDense(x, m), a, func(c *tensor.Tensor) *tensor.Tensor { return tensor.Matmul(c, m) })
}

func TestPadded(t *testing.T) {
	x := nested.New([]*tensor.Tensor{
		tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2),
		tensor.FromSlice([]float32{5, 6, 7}, 1, 3),
	}, tensor.Float32)
	p := nested.ToPadded(x, tensor.Scalar(-1.0), nil)
	want := []float64{1, 2, -1, 3, 4, -1, 5, 6, 7, -1, -1, -1}
	if !slices.Equal(p.Shape(), []int{2, 2, 3}) || !slices.Equal(p.Float64s(), want) {
		t.Fatalf("padded %v %v", p.Shape(), p.Float64s())
	}
	big := nested.ToPadded(x, tensor.Scalar(0.0), []int{2, 2, 4})
	if !slices.Equal(big.Shape(), []int{2, 2, 4}) || big.At(1, 0, 2) != 7 || big.At(1, 1, 3) != 0 {
		t.Errorf("output_size: %v", big.Float64s())
	}
	if k := errKind(func() { nested.ToPadded(x, tensor.Scalar(0.0), []int{3, 2, 4}) }); k != tensor.ShapeError {
		t.Errorf("output_size[0] other than the count: kind %v", k)
	}
	if k := errKind(func() { nested.ToPadded(x, tensor.Scalar(0.0), []int{2, 1, 3}) }); k != tensor.ShapeError {
		t.Errorf("output_size too small: kind %v", k)
	}
	back := nested.FromPadded(p, x.Sizes())
	for i := range x.Len() {
		near(t, "from_padded", back.Component(i), x.Component(i))
	}
}

func TestGradIntoBuffer(t *testing.T) {
	g := tensor.NewGenerator(5)
	a := ragged(g, []int{2, 3}, []int{4, 3})
	seeds := ragged(g, []int{2, 4}, []int{4, 4})
	w := g.Randn(tensor.Float64, 4, 3)
	f := func(x, w *tensor.Tensor) *tensor.Tensor {
		return tensor.Linear(tensor.Sin(x), w, nil).Softmax(tensor.Over(0))
	}

	// the reference: dense autograd, one component at a time
	wd := w.Clone().SetRequiresGrad(true)
	var outs []*tensor.Tensor
	for i := range a {
		a[i] = a[i].Clone().SetRequiresGrad(true)
		outs = append(outs, f(a[i], wd))
	}
	tensor.Backward(outs, seeds, tensor.BackwardOptions{})

	x := nested.New(a, tensor.Float64).SetRequiresGrad(true)
	wn := w.Clone().SetRequiresGrad(true)
	y := nested.Softmax(nested.Linear(nested.Unary(tensor.Sin, x), wn, nil), 1) // over the ragged dim
	nested.Backward(y, nested.New(seeds, tensor.Float64))
	gx := x.Grad()
	if gx == nil {
		t.Fatal("no gradient in the nested leaf")
	}
	for i := range a {
		near(t, "grad of x", gx.Component(i), a[i].Grad())
	}
	near(t, "grad of w", wn.Grad(), wd.Grad())
}

func TestAttention(t *testing.T) {
	g := tensor.NewGenerator(6)
	shapes := [][]int{{3, 4}, {1, 4}, {5, 4}}
	q, k, v := ragged(g, shapes...), ragged(g, shapes...), ragged(g, shapes...)
	nq, nk, nv := nested.New(q, tensor.Float64), nested.New(k, tensor.Float64), nested.New(v, tensor.Float64)
	got := nested.Attention(nq, nk, nv, true)
	for i := range q {
		// softmax(q·kᵀ/2) with the keys after each query masked out, by hand
		s := tensor.Mul(tensor.Matmul(q[i], k[i].T()), tensor.Scalar(0.5))
		n := s.Size(0)
		for r := range n {
			for c := r + 1; c < n; c++ {
				s.Set(tensor.Scalar(math.Inf(-1)), r, c)
			}
		}
		near(t, "causal attention", got.Component(i), tensor.Matmul(s.Softmax(tensor.Over(-1)), v[i]))
	}
}

func TestEmbedding(t *testing.T) {
	w := tensor.FromSlice([]float32{0, 1, 10, 11, 20, 21}, 3, 2)
	idx := nested.New([]*tensor.Tensor{tensor.FromSlice([]int64{2, 0}, 2), tensor.FromSlice([]int64{1}, 1)}, tensor.Int64)
	e := nested.Embedding(idx, w)
	if got := e.Values().Float64s(); !slices.Equal(got, []float64{20, 21, 0, 1, 10, 11}) || !slices.Equal(e.Shape(1), []int{1, 2}) {
		t.Errorf("embedding %v, component 1 %v", got, e.Shape(1))
	}
	bad := nested.New([]*tensor.Tensor{tensor.FromSlice([]int64{3}, 1)}, tensor.Int64)
	if k := errKind(func() { nested.Embedding(bad, w) }); k != tensor.IndexError {
		t.Errorf("index 3 of 3 rows: kind %v", k)
	}
	neg := nested.New([]*tensor.Tensor{tensor.FromSlice([]int64{0, -1}, 2)}, tensor.Int64)
	if k := errKind(func() { nested.Embedding(neg, w) }); k != tensor.IndexError {
		t.Errorf("index -1 (PyTorch's embedding refuses it): kind %v", k)
	}
	// a repeated index adds both rows' gradients into the weight's
	wg := w.To(tensor.Float64).SetRequiresGrad(true)
	rep := nested.New([]*tensor.Tensor{tensor.FromSlice([]int32{1, 1}, 2), tensor.FromSlice([]int32{2}, 1)}, tensor.Int32)
	nested.Embedding(rep, wg).Values().Sum().Backward(nil)
	if got := wg.Grad().Float64s(); !slices.Equal(got, []float64{0, 0, 2, 2, 1, 1}) {
		t.Errorf("embedding grad %v", got)
	}
}

// TestOneCallWhenPacked checks Note [Packed nested tensors]: over packed
// operands whose components are whole vector runs an elementwise op is one
// dense call, whatever the number of components; over a view, or over
// components of other lengths (Note [Components as rows]), it is one call
// per component.
func TestOneCallWhenPacked(t *testing.T) {
	g := tensor.NewGenerator(7)
	aligned := nested.New(ragged(g, []int{2, 16}, []int{4, 16}, []int{6, 16}), tensor.Float64)
	calls := 0
	count := func(x, y *tensor.Tensor) *tensor.Tensor { calls++; return tensor.Mul(x, y) }
	nested.Binary("mul", count, aligned, aligned)
	nested.BinaryDense(count, aligned, g.Randn(tensor.Float64, 16))
	nested.DenseBinary(count, tensor.Scalar(2.0), aligned)
	nested.Unary(func(x *tensor.Tensor) *tensor.Tensor { return count(x, x) }, aligned)
	if calls != 4 {
		t.Errorf("%d dense calls for 4 ops over packed operands", calls)
	}
	a := nested.New(ragged(g, []int{2, 3}, []int{1, 3}, []int{4, 3}, []int{2, 3}), tensor.Float64)
	calls = 0
	nested.Binary("mul", count, a, a)
	nested.DenseBinary(count, tensor.Scalar(2.0), a)
	if calls != 8 {
		t.Errorf("%d dense calls for 2 ops over 4 components of 3 to 12 elements, want 8", calls)
	}
	calls = 0
	nested.Binary("mul", count, nested.Transpose(a, 1, 2), nested.Transpose(a, 1, 2))
	if calls != a.Len() {
		t.Errorf("%d dense calls over a view of %d components", calls, a.Len())
	}
}

// FuzzPack checks the offsets and views of a packed nested tensor against
// the components it was built from, for any sizes.
func FuzzPack(f *testing.F) {
	f.Add([]byte{2, 3, 0, 1, 4})
	f.Fuzz(func(t *testing.T, sizes []byte) {
		if len(sizes) > 12 {
			return
		}
		cs := make([]*tensor.Tensor, len(sizes)/2)
		want := []int64{}
		off := int64(0)
		for i := range cs {
			r, c := int(sizes[2*i]%5), int(sizes[2*i+1]%4)
			cs[i] = tensor.Arange(float64(off), float64(off+int64(r*c)), 1, tensor.Float32).Reshape(r, c)
			want = append(want, off)
			off += int64(r * c)
		}
		x := nested.New(cs, tensor.Float32)
		if !slices.Equal(x.Offsets().Int64s(), want) || !x.IsPacked() {
			t.Fatalf("offsets %v, want %v; packed %v", x.Offsets().Int64s(), want, x.IsPacked())
		}
		for i, c := range x.Unbind() {
			if !slices.Equal(c.Shape(), cs[i].Shape()) || !slices.Equal(c.Float64s(), cs[i].Float64s()) {
				t.Fatalf("component %d: %v %v, want %v %v", i, c.Shape(), c.Float64s(), cs[i].Shape(), cs[i].Float64s())
			}
		}
		back := nested.FromPadded(nested.ToPadded(x, tensor.Scalar(-1.0), nil), x.Sizes())
		if !slices.Equal(back.Values().Float64s(), x.Values().Float64s()) {
			t.Fatalf("to_padded then from_padded: %v, want %v", back.Values().Float64s(), x.Values().Float64s())
		}
	})
}

// Under autograd ToPadded takes another path (Note [Padding under
// autograd]): same values, and the gradient of each component is its
// corner of the padded gradient.
func TestPaddedGrad(t *testing.T) {
	g := tensor.NewGenerator(8)
	a := ragged(g, []int{2, 3}, []int{1, 4})
	x := nested.New(a, tensor.Float64)
	want := nested.ToPadded(x, tensor.Scalar(-2.0), []int{2, 3, 5})
	x.SetRequiresGrad(true)
	got := nested.ToPadded(x, tensor.Scalar(-2.0), []int{2, 3, 5})
	near(t, "padded under autograd", got, want)
	seed := g.Randn(tensor.Float64, 2, 3, 5)
	got.Backward(seed)
	near(t, "grad of component 0", x.Grad().Component(0), seed.Select(0, 0).Narrow(0, 0, 2).Narrow(1, 0, 3))
	near(t, "grad of component 1", x.Grad().Component(1), seed.Select(0, 1).Narrow(0, 0, 1).Narrow(1, 0, 4))
}

func TestUnaryRefusesShapeChanges(t *testing.T) {
	x := nested.New([]*tensor.Tensor{tensor.Zeros(tensor.Float32, 2, 2)}, tensor.Float32)
	sum := func(c *tensor.Tensor) *tensor.Tensor { return c.Sum() }
	if k := errKind(func() { nested.Unary(sum, x) }); k != tensor.ValueError {
		t.Errorf("a reducing function given to Unary: kind %v, want value", k)
	}
	if got := nested.Map(x, sum); got.Len() != 1 || got.Dim() != 1 {
		t.Errorf("Map of a reduction: %v", got)
	}
}

// Pack copies strided components once, without autograd, and keeps the
// values.
func TestPackStrided(t *testing.T) {
	g := tensor.NewGenerator(9)
	a := g.Randn(tensor.Float64, 4, 3)
	cs := []*tensor.Tensor{a.T(), a.Narrow(0, 1, 2)}
	x := nested.Pack(cs, tensor.Float64)
	for i, c := range x.Unbind() {
		near(t, "packed strided component", c, cs[i])
	}
	if !x.IsPacked() || x.Values().SharesStorage(a) {
		t.Errorf("packed %v, shares the input %v", x.IsPacked(), x.Values().SharesStorage(a))
	}
}

// TestNestedTensorAndFromPaddedChecks: the case runner's nested_tensor
// checks each tensor's number of dims before its dtype; from_padded reads
// sizes of integer dtypes, needs one row per padded component, and names
// the component whose sizes exceed the padded ones, float sizes included,
// before it refuses float sizes; negative sizes slice as Python's do (seeds
// 199, 211, 311, 403).
func TestNestedTensorAndFromPaddedChecks(t *testing.T) {
	a, b, c := tensor.Zeros(tensor.Float32, 2, 3), tensor.Zeros(tensor.Int64, 2, 3), tensor.Zeros(tensor.Bool, 3)
	if k := errKind(func() { nested.New([]*tensor.Tensor{a, b, c}, tensor.Float32) }); k != tensor.DTypeError {
		t.Errorf("dtype at index 1, dims at 2: error kind %v, want a dtype error", k)
	}
	if k := errKind(func() { nested.New([]*tensor.Tensor{a, c, b}, tensor.Float32) }); k != tensor.ValueError {
		t.Errorf("dims at index 1, dtype at 2: error kind %v, want a value error", k)
	}
	padded := tensor.Arange(0, 12, 1, tensor.Float32).Reshape(2, 3, 2)
	for _, d := range []tensor.DType{tensor.Uint8, tensor.Int32, tensor.Int64} {
		nt := nested.FromPadded(padded, tensor.FromSlice([]int64{2, 1, 3, 2}, 2, 2).To(d))
		if got := tensor.ToSlice[float32](nt.Component(1).Contiguous()); !slices.Equal(got, []float32{6, 7, 8, 9, 10, 11}) {
			t.Errorf("%v sizes: component 1 %v", d, got)
		}
	}
	if k := errKind(func() { nested.FromPadded(padded, tensor.FromSlice([]int64{2, 1}, 1, 2)) }); k != tensor.ShapeError {
		t.Errorf("one row of sizes for two components: error kind %v, want a shape error", k)
	}
	if k := errKind(func() { nested.FromPadded(padded, tensor.FromSlice([]uint8{3, 1, 4, 2}, 2, 2)) }); k != tensor.ShapeError {
		t.Errorf("sizes over the padded ones: error kind %v, want a shape error", k)
	}
	if k := errKind(func() { nested.FromPadded(padded, tensor.FromSlice([]float64{2, 1, 3, 2.5}, 2, 2).To(tensor.BFloat16)) }); k != tensor.ShapeError {
		t.Errorf("a float size of 2.5 over a padded 2: error kind %v, want a shape error", k)
	}
	if k := errKind(func() { nested.FromPadded(padded, tensor.FromSlice([]float64{2, 1, 3, 2}, 2, 2)) }); k != tensor.DTypeError {
		t.Errorf("float sizes that fit: error kind %v, want a dtype error", k)
	}
	// negative sizes slice as Python's [:-k] (seed 403)
	nt := nested.FromPadded(padded, tensor.FromSlice([]int64{-1, -1, -5, 2}, 2, 2))
	if a, b := nt.Component(0).Shape(), nt.Component(1).Shape(); !slices.Equal(a, []int{2, 1}) || !slices.Equal(b, []int{0, 2}) {
		t.Errorf("sizes [[-1, -1], [-5, 2]] of a [2, 3, 2] padded: components of shapes %v and %v, want [2 1] and [0 2]", a, b)
	}
	if got := tensor.ToSlice[float32](nt.Component(0).Contiguous()); !slices.Equal(got, []float32{0, 2}) {
		t.Errorf("sizes [-1, -1]: component 0 holds %v, want [0 2]", got)
	}
}

// TestComponentsAsRows checks Note [Components as rows]: an op whose
// vector body computes otherwise than its scalar tail (sinh beyond ln of
// float32's largest value, Note [SLEEF's sinh and cosh] in optable/elem)
// gives each component what the dense op gives it alone, the components
// of 12, 20 and 6 elements split into body and tail each by itself.
func TestComponentsAsRows(t *testing.T) {
	comps := []*tensor.Tensor{
		tensor.Full(tensor.Scalar(89.0), tensor.Float32, 4, 3),
		tensor.Full(tensor.Scalar(-89.0), tensor.Float32, 5, 4),
		tensor.Full(tensor.Scalar(89.0), tensor.Float32, 2, 3),
	}
	x := nested.New(comps, tensor.Float32)
	y := nested.Unary(tensor.Sinh, x)
	for i, c := range comps {
		got, want := y.Component(i).Float64s(), tensor.Sinh(c).Float64s()
		if !slices.Equal(got, want) {
			t.Errorf("component %d: %v, its dense sinh %v", i, got, want)
		}
	}
	if got := y.Component(1).Float64s(); !math.IsInf(got[0], -1) || math.IsInf(got[19], 0) {
		t.Errorf("component 1 (20 elements): %v, want -Inf in its first 16 and finite after", got)
	}
}

// TestSmallBatchedProductsArePlain: 3-D components whose products PyTorch's
// bmm runs in its plain loop (tensor.BmmPlain) are multiplied as the dense
// ops multiply them, bit for bit, in Matmul and in Attention (whose groups
// mark them Plain). Seed 619 found causal attention over [4, 6, 4]
// components NaN where the reference's equal scores (1.25e200 each, plain
// loop) gave +Inf: the packed product had rounded one score up.
func TestSmallBatchedProductsArePlain(t *testing.T) {
	g := tensor.NewGenerator(11)
	shapes := [][]int{{2, 3, 4}, {2, 5, 4}, {2, 1, 4}, {1, 12, 4}}
	a, b := ragged(g, shapes...), ragged(g, shapes...)
	for i := range a { // values far apart in size, so that roundings show
		a[i] = a[i].Mul(tensor.FromSlice([]float64{1e8, 1, 1e-8, 3}, 4))
	}
	x, y := nested.New(a, tensor.Float64), nested.New(b, tensor.Float64)
	bits := func(what string, got, want *tensor.Tensor) {
		t.Helper()
		g, w := got.Float64s(), want.Float64s()
		for k := range w {
			if math.Float64bits(g[k]) != math.Float64bits(w[k]) && !(g[k] != g[k] && w[k] != w[k]) {
				t.Fatalf("%s: element %d: %v, the dense op %v", what, k, g[k], w[k])
			}
		}
	}
	prod := nested.Matmul(x, nested.Transpose(y, -2, -1))
	att := nested.Attention(x, y, y, true)
	for i := range a {
		bits("matmul", prod.Component(i), tensor.Matmul(a[i], b[i].Transpose(-2, -1)))
		// softmax(q·kᵀ/√d + causal mask)·v, the dense ops one by one
		l := a[i].Size(1)
		above := make([]bool, l*l)
		for r := range l {
			for c := r + 1; c < l; c++ {
				above[r*l+c] = true
			}
		}
		scores := tensor.Div(tensor.Matmul(a[i], b[i].Transpose(-2, -1)), tensor.Scalar(2.0))
		masked := tensor.MaskedFill(scores, tensor.FromSlice(above, l, l), tensor.Scalar(math.Inf(-1)))
		bits("attention", att.Component(i), tensor.Matmul(masked.Softmax(tensor.Over(-1)), b[i]))
	}
}

// TestAnyRunOps: the ops whose kernels compute alike in and out of a
// vector body run over the buffer of a packed tensor whose components
// are not whole vector runs (Note [Components as rows]), with the values
// of the dense op on each component.
func TestAnyRunOps(t *testing.T) {
	g := tensor.NewGenerator(11)
	x := nested.New(ragged(g, []int{2, 3}, []int{1, 5}, []int{4, 3}), tensor.Float32)
	lo, hi := tensor.Scalar(-0.5), tensor.Scalar(0.5)
	for _, c := range []struct {
		name  string
		got   *nested.Tensor
		dense func(*tensor.Tensor) *tensor.Tensor
	}{
		{"to", nested.To(x, tensor.BFloat16), func(c *tensor.Tensor) *tensor.Tensor { return c.To(tensor.BFloat16) }},
		{"clone", nested.Clone(x), (*tensor.Tensor).Clone},
		{"clamp", nested.Clamp(x, lo, hi), func(c *tensor.Tensor) *tensor.Tensor { return tensor.Clamp(c, lo, hi) }},
		{"full_like", nested.FullLike(x, tensor.Scalar(3.0)), func(c *tensor.Tensor) *tensor.Tensor { return tensor.FullLike(c, tensor.Scalar(3.0)) }},
		{"ones_like", nested.OnesLike(x), tensor.OnesLike},
	} {
		if !c.got.IsPacked() || c.got.Len() != x.Len() {
			t.Fatalf("%s: packed %v, %d components", c.name, c.got.IsPacked(), c.got.Len())
		}
		for i, comp := range x.Unbind() {
			want := c.dense(comp)
			if got := c.got.Component(i); !slices.Equal(got.Shape(), want.Shape()) || got.DType() != want.DType() ||
				!slices.Equal(got.Float64s(), want.Float64s()) {
				t.Errorf("%s: component %d %v %v, want %v %v", c.name, i, got.Shape(), got.Float64s(), want.Shape(), want.Float64s())
			}
		}
	}
}
