package tensor_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/tensor"
)

// FuzzBadInput runs short programs of calls to the public API with bad
// input mixed in — sizes near and past overflow, negative and huge dims,
// random strides and offsets for as_strided, invalid dtypes and devices,
// nil operands — over tensors whose storages lie between guard bands
// (device.GuardedAllocator). The invariant: every call gives a typed
// *Error that is not internal, or a correct result; nothing is written
// outside a call's outputs (guard bands intact, every other byte of every
// live storage unchanged, and nothing at all changed by a call that
// fails); every view a call returns lies inside its storage.
//
// Correct results are checked where an independent answer is cheap:
// elements of views against the storage element their layout names,
// reshapes and copies against the input's elements, fills, and add and sum
// on dtypes where small integers are exact. Compute calls run only on
// operands of at most maxWork elements, and the memory limit is lowered
// to badInputMemory: an expanded view of 2^62 elements is a valid view,
// but summing it would run for years.
func FuzzBadInput(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		{1, 0, 200, 201, 1, 2, 1, 2, 3},             // views with huge sizes
		{1, 9, 5, 200, 210, 220, 7, 7, 1, 1, 1},     // as_strided
		{0, 3, 200, 201, 202, 0, 1, 250, 251, 9, 9}, // factories near overflow
		{9, 0, 9, 1, 9, 2, 9, 3, 9, 4, 9, 5, 9, 6},  // nil operands, invalid dtypes
		{2, 0, 1, 3, 1, 1, 4, 0, 5, 1, 6, 0, 7, 0},  // compute
		{1, 1, 230, 4, 2, 0, 1, 3, 0, 4, 1, 2, 0, 1},
	} {
		f.Add(seed)
	}
	prev := device.SetMemoryLimit(badInputMemory)
	f.Cleanup(func() { device.SetMemoryLimit(prev) })
	f.Fuzz(func(t *testing.T, data []byte) {
		p := &prog{t: t, data: data, ga: device.NewGuardedAllocator()}
		p.pool = append(p.pool, p.base(), p.base())
		for step := 0; step < maxSteps && len(p.data) > 0; step++ {
			actions[p.intn(len(actions))](p)
			if err := p.ga.Check(); err != nil {
				t.Fatalf("step %d (%s): %v", step, p.last, err)
			}
		}
	})
}

const (
	maxSteps       = 12
	maxPool        = 8
	maxWork        = 1 << 12  // elements an operand of a compute call may have
	badInputMemory = 16 << 20 // the memory limit while fuzzing, in bytes
	maxSnapshot    = 1 << 16  // bytes of a storage a program keeps in its pool
)

// prog is one program: its remaining input, the guarded allocator of its
// storages, and the pool of tensors its calls draw operands from.
type prog struct {
	t    *testing.T
	data []byte
	ga   *device.GuardedAllocator
	pool []*tensor.Tensor
	last string // the call running, for messages
}

func (p *prog) byte() int {
	if len(p.data) == 0 {
		return 0
	}
	b := p.data[0]
	p.data = p.data[1:]
	return int(b)
}

func (p *prog) intn(n int) int { return p.byte() % n }

// huge are the sizes, dims and offsets near the edges of an int (with
// 64-bit ints: 2^31, 2^32, 2^32+1, 2^40, 2^59 … 2^62+1, then near MaxInt).
var huge = []int{-1, -2, math.MinInt, 1 << 20, math.MaxInt>>32 + 1, math.MaxInt>>31 + 1, math.MaxInt>>31 + 2,
	math.MaxInt>>23 + 1, math.MaxInt>>4 + 1, math.MaxInt>>3 + 1, math.MaxInt>>2 + 1, math.MaxInt>>1 + 1, math.MaxInt>>1 + 2,
	math.MaxInt / 8, math.MaxInt/8 + 1, math.MaxInt/2 + 1, math.MaxInt - 1, math.MaxInt}

// num returns a size, dim or index: mostly small, sometimes negative or
// near overflow.
func (p *prog) num() int {
	b := p.byte()
	if b < 200 {
		return b % 6
	}
	if b < 210 {
		return -(b % 4)
	}
	return huge[b%len(huge)]
}

func (p *prog) nums(max int) []int {
	s := make([]int, p.intn(max+1))
	for i := range s {
		s[i] = p.num()
	}
	return s
}

// dtype returns a dtype: one of the ten mostly, sometimes an invalid one.
func (p *prog) dtype() tensor.DType {
	b := p.byte()
	if b < 240 {
		return dtype.All[b%len(dtype.All)]
	}
	return []tensor.DType{0, 11, 99, 255}[b%4]
}

// tensor returns a tensor of the pool, or rarely nil.
func (p *prog) tensor() *tensor.Tensor {
	b := p.byte()
	if b >= 250 {
		return nil
	}
	return p.pool[b%len(p.pool)]
}

// small reports whether every operand is a tensor of at most maxWork
// elements: compute calls run only then.
func small(ts ...*tensor.Tensor) bool {
	for _, t := range ts {
		if t != nil && t.NumEl() > maxWork {
			return false
		}
	}
	return true
}

// base returns a tensor of small random sizes over a guarded storage:
// dims permuted in memory and strided, at an offset, its elements small
// integers (exact in every dtype).
func (p *prog) base() *tensor.Tensor {
	dt := dtype.All[p.intn(len(dtype.All))]
	n := p.intn(4)
	sizes, strides := make([]int, n), make([]int, n)
	for i := range sizes {
		sizes[i] = p.intn(5)
	}
	span := 1
	for _, d := range permutation(n, p.byte()) {
		strides[d] = span * (1 + p.intn(2))
		span = strides[d] * max(sizes[d], 1)
	}
	off := p.intn(3)
	st, err := p.ga.Alloc((span+off)*dt.Size(), false)
	if err != nil {
		p.t.Fatal(err)
	}
	v := &raw.View{Storage: st, DType: dt, Shape: sizes, Strides: strides, Offset: off}
	for i := 0; i < span+off; i++ {
		x := float64(p.intn(9)) - 2
		if dt == dtype.Uint8 {
			x = math.Abs(x)
		}
		v.SetFloat64(i, x)
	}
	return tensor.FromRaw(v)
}

func permutation(n, seed int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := seed % (i + 1)
		seed = seed*31 + 7
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// keep adds t to the pool (replacing a random tensor when full) if its
// storage is small enough to snapshot.
func (p *prog) keep(t *tensor.Tensor) {
	if t == nil || t.Raw().Storage.Len() > maxSnapshot {
		return
	}
	p.checkBounds(t)
	if len(p.pool) < maxPool {
		p.pool = append(p.pool, t)
		return
	}
	p.pool[p.intn(maxPool)] = t
}

// checkBounds fails if t's layout reaches outside its storage, computed
// exactly.
func (p *prog) checkBounds(t *tensor.Tensor) {
	v := t.Raw()
	if v.NumEl() == 0 {
		return
	}
	end := big.NewInt(int64(v.Offset))
	for i, s := range v.Shape {
		if v.Strides[i] < 0 {
			p.t.Fatalf("%s: negative stride in %v", p.last, v.Strides)
		}
		end.Add(end, new(big.Int).Mul(big.NewInt(int64(s-1)), big.NewInt(int64(v.Strides[i]))))
	}
	if n := v.Storage.Len() / v.DType.Size(); v.Offset < 0 || end.Cmp(big.NewInt(int64(n))) >= 0 {
		p.t.Fatalf("%s: a view of sizes %v strides %v offset %d reaches element %v of a storage of %d",
			p.last, v.Shape, v.Strides, v.Offset, end, n)
	}
}

// snapshot is a copy of the bytes of every storage of the pool.
type snapshot map[*device.Storage][]byte

func (p *prog) snapshot() snapshot {
	s := snapshot{}
	for _, t := range p.pool {
		st := t.Raw().Storage
		if _, ok := s[st]; !ok {
			s[st] = bytes.Clone(st.Bytes())
		}
	}
	return s
}

// call runs f as the call name and checks the invariant: a typed error
// that is not internal, or success; nothing written to the pool's
// storages but the elements of outs (nothing at all when f fails). It
// reports whether f succeeded.
func (p *prog) call(name string, outs []*tensor.Tensor, f func()) bool {
	p.last = name
	before := p.snapshot()
	err := tensor.Try(f)
	if err != nil {
		var e *tensor.Error
		if !errors.As(err, &e) || e.Kind == tensor.InternalError || e.Op == "" {
			p.t.Fatalf("%s: %v (%T)\n%s", name, err, err, stackOf(e))
		}
		outs = nil // a failing call writes nothing
	}
	written := map[*device.Storage]map[int]bool{}
	for _, o := range outs {
		if o == nil || o.Raw() == nil {
			continue
		}
		v := o.Raw()
		m := written[v.Storage]
		if m == nil {
			m = map[int]bool{}
			written[v.Storage] = m
		}
		es := v.DType.Size()
		v.ElementOffsets(func(off int) {
			for b := 0; b < es; b++ {
				m[off*es+b] = true
			}
		})
	}
	for st, old := range before {
		now := st.Bytes()
		if len(now) != len(old) {
			if written[st] == nil { // an out= tensor may resize its storage
				p.t.Fatalf("%s (error %v): a storage of %d bytes now has %d", name, err, len(old), len(now))
			}
			now = now[:min(len(now), len(old))]
		}
		for i := range now {
			if now[i] != old[i] && !written[st][i] {
				p.t.Fatalf("%s (error %v): byte %d of a %d-byte storage changed outside the outputs", name, err, i, len(old))
			}
		}
	}
	return err == nil
}

func stackOf(e *tensor.Error) string {
	if e == nil {
		return ""
	}
	return string(e.Stack)
}

// elemAt returns element idx of t read from its storage by its layout.
func elemAt(t *tensor.Tensor, idx []int) float64 {
	v := t.Raw()
	off := v.Offset
	for d, i := range idx {
		off += i * v.Strides[d]
	}
	return v.Float64At(off)
}

// randomIndex returns a multi-index inside sizes drawn from the input.
func (p *prog) randomIndex(sizes []int) []int {
	idx := make([]int, len(sizes))
	for d, s := range sizes {
		idx[d] = (p.byte()<<8 | p.byte()) % s
	}
	return idx
}

// smallInts reports whether xs are integers of at most 2^10 in magnitude:
// sums of up to maxWork of them are exact in float32.
func smallInts(xs []float64) bool {
	for _, x := range xs {
		if x != math.Trunc(x) || math.Abs(x) > 1<<10 {
			return false
		}
	}
	return true
}

// sameValue compares two elements, NaN equal to NaN.
func sameValue(a, b float64) bool { return a == b || a != a && b != b }

// checkView checks view r of t made by a view op: inside its storage, the
// same storage as t, and at a few indices the element that want maps the
// index to (want nil: no element check).
func (p *prog) checkView(t, r *tensor.Tensor, want func(idx []int) []int) {
	p.checkBounds(r)
	if r.NumEl() > 0 && r.Raw().Storage != t.Raw().Storage {
		p.t.Fatalf("%s: a view on another storage", p.last)
	}
	if want == nil || r.NumEl() == 0 {
		return
	}
	for k := 0; k < 4; k++ {
		idx := p.randomIndex(r.Raw().Shape)
		src := want(idx)
		if got, w := elemAt(r, idx), elemAt(t, src); !sameValue(got, w) {
			p.t.Fatalf("%s: element %v is %v, want element %v of the input, %v", p.last, idx, got, src, w)
		}
		// At walks the same layout from the API
		if got := r.At(idx...); !sameValue(got, elemAt(r, idx)) {
			p.t.Fatalf("%s: At%v = %v, want %v", p.last, idx, got, elemAt(r, idx))
		}
	}
}

// checkSameElements checks that r holds t's elements in row-major order.
func (p *prog) checkSameElements(t, r *tensor.Tensor) {
	if !small(t) {
		return
	}
	a, b := t.Float64s(), r.Float64s()
	if len(a) != len(b) {
		p.t.Fatalf("%s: %d elements, want %d", p.last, len(b), len(a))
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			p.t.Fatalf("%s: element %d is %v, want %v", p.last, i, b[i], a[i])
		}
	}
}

// actions are the kinds of call a program makes.
var actions = []func(p *prog){
	(*prog).factory,
	(*prog).view,
	(*prog).view,
	(*prog).asStrided,
	(*prog).pointwise,
	(*prog).reduce,
	(*prog).copyFill,
	(*prog).catStack,
	(*prog).matmul,
	(*prog).access,
	(*prog).nilAndInvalid,
	(*prog).backward,
}

// backward differentiates sum(x·x) (or a view op before it) for a float
// copy x of a pool tensor that requires grad: its gradient is 2x.
func (p *prog) backward() {
	t := p.tensor()
	if t == nil || !small(t) || !t.DType().IsFloat() {
		return
	}
	k, d := p.intn(3), p.num()
	var x, g *tensor.Tensor
	if !p.call("backward", nil, func() {
		x = t.Clone().SetRequiresGrad(true)
		y := x
		switch k {
		case 1:
			y = x.Unsqueeze(d).Squeeze()
		case 2:
			y = x.Flatten(0, -1).Reshape(x.Shape()...)
		}
		y.Mul(y).Sum().Backward()
		g = x.Grad()
	}) {
		return
	}
	if g == nil {
		if x.NumEl() > 0 {
			p.t.Fatalf("backward: no gradient for x of shape %v", x.Shape())
		}
		return
	}
	if d := t.DType(); d != tensor.Float32 && d != tensor.Float64 {
		return
	}
	xs, gs := x.Float64s(), g.Float64s()
	for i := range xs {
		if gs[i] != 2*xs[i] && smallInts(xs) {
			p.t.Fatalf("backward: gradient element %d is %v, want 2·%v", i, gs[i], xs[i])
		}
	}
}

func (p *prog) factory() {
	dt, sizes := p.dtype(), p.nums(4)
	var r *tensor.Tensor
	switch k := p.intn(7); k {
	case 0:
		p.call("zeros", nil, func() { r = tensor.Zeros(dt, sizes...) })
		p.checkFilled(r, 0)
	case 1:
		p.call("ones", nil, func() { r = tensor.Ones(dt, sizes...) })
		p.checkFilled(r, 1)
	case 2:
		p.call("empty", nil, func() { r = tensor.Empty(dt, sizes...) })
	case 3:
		start, end, step := float64(p.num()), float64(p.num()), float64(p.num())
		if p.intn(4) == 0 {
			step = []float64{math.NaN(), math.Inf(1), 1e-300, 1e18}[p.intn(4)]
		}
		p.call("arange", nil, func() { r = tensor.Arange(start, end, step, dt) })
	case 4:
		steps := p.num()
		p.call("linspace", nil, func() { r = tensor.Linspace(0, 1, steps, dt) })
	case 5:
		p.call("rand", nil, func() { r = tensor.NewGenerator(uint64(p.byte())).Rand(dt, sizes...) })
	case 6:
		p.call("full", nil, func() { r = tensor.Full(tensor.Scalar(2), dt, sizes...) })
		p.checkFilled(r, 2)
	}
	p.keep(r)
}

// checkFilled checks that every element of a new tensor r is x (as its
// dtype holds x: true for a bool).
func (p *prog) checkFilled(r *tensor.Tensor, x float64) {
	if r == nil || !small(r) {
		return
	}
	if r.DType() == tensor.Bool {
		x = min(x, 1)
	}
	for i, y := range r.Float64s() {
		if y != x {
			p.t.Fatalf("%s: element %d is %v, want %v", p.last, i, y, x)
		}
	}
}

func (p *prog) view() {
	t := p.tensor()
	if t == nil {
		t = p.pool[0]
	}
	d, a, b := p.num(), p.num(), p.num()
	sizes := p.nums(4)
	var r *tensor.Tensor
	var want func([]int) []int // the input index of a result index
	ndim := t.Dim()
	wrap := func(d, n int) int { // the dim d of n, once checked by the op
		if n == 0 {
			n = 1
		}
		return (d%n + n) % n
	}
	switch p.intn(12) {
	case 0:
		if p.call("reshape", nil, func() { r = t.Reshape(sizes...) }) {
			p.checkSameElements(t, r)
			if r.SharesStorage(t) {
				p.checkBounds(r)
			}
		}
		p.keep(r)
		return
	case 1:
		if p.call("view", nil, func() { r = t.View(sizes...) }) {
			p.checkView(t, r, nil)
			p.checkSameElements(t, r)
		}
	case 2:
		if p.call("expand", nil, func() { r = t.Expand(sizes...) }) {
			want = func(idx []int) []int {
				src := append([]int{}, idx[len(idx)-ndim:]...)
				for i := range src {
					if t.Size(i) == 1 {
						src[i] = 0
					}
				}
				return src
			}
		}
	case 3:
		if p.call("narrow", nil, func() { r = t.Narrow(d, a, b) }) {
			dd := wrap(d, ndim)
			start := a
			if start < 0 {
				start += t.Size(dd)
			}
			want = func(idx []int) []int {
				src := append([]int{}, idx...)
				src[dd] += start
				return src
			}
		}
	case 4:
		if p.call("select", nil, func() { r = t.Select(d, a) }) {
			dd := wrap(d, ndim)
			i := a
			if i < 0 {
				i += t.Size(dd)
			}
			want = func(idx []int) []int {
				src := append(append(append([]int{}, idx[:dd]...), i), idx[dd:]...)
				return src
			}
		}
	case 5:
		step := []int{1, 2, 3, math.MaxInt, math.MaxInt>>1 + 1, 0, -1}[p.intn(7)]
		if p.call("slice", nil, func() { r = t.Slice(d, a, b, step) }) {
			dd := wrap(d, ndim)
			lo := a
			if lo < 0 {
				lo += t.Size(dd)
			}
			lo = min(max(lo, 0), t.Size(dd))
			want = func(idx []int) []int {
				src := append([]int{}, idx...)
				src[dd] = lo + idx[dd]*step
				return src
			}
		}
	case 6:
		dims := p.nums(4)
		if p.call("permute", nil, func() { r = t.Permute(dims...) }) {
			want = func(idx []int) []int {
				src := make([]int, ndim)
				for i, dd := range dims {
					src[wrap(dd, ndim)] = idx[i]
				}
				return src
			}
		}
	case 7:
		if p.call("transpose", nil, func() { r = t.Transpose(d, a) }) {
			want = func(idx []int) []int {
				src := append([]int{}, idx...)
				if ndim > 0 {
					x, y := wrap(d, ndim), wrap(a, ndim)
					src[x], src[y] = src[y], src[x]
				}
				return src
			}
		}
	case 8:
		if p.call("unsqueeze", nil, func() { r = t.Unsqueeze(d) }) {
			dd := wrap(d, ndim+1)
			want = func(idx []int) []int { return append(append([]int{}, idx[:dd]...), idx[dd+1:]...) }
		}
	case 9:
		if p.call("flatten", nil, func() { r = t.Flatten(d, a) }) {
			p.checkSameElements(t, r)
		}
		p.keep(r)
		return
	case 10:
		if p.call("unflatten", nil, func() { r = t.Unflatten(d, sizes...) }) {
			p.checkView(t, r, nil)
			p.checkSameElements(t, r)
		}
	case 11:
		var rs []*tensor.Tensor
		switch p.intn(3) {
		case 0:
			p.call("split", nil, func() { rs = t.Split(a, d) })
		case 1:
			p.call("split_with_sizes", nil, func() { rs = t.SplitSizes(sizes, d) })
		case 2:
			p.call("chunk", nil, func() { rs = t.Chunk(a, d) })
		}
		for _, x := range rs {
			p.checkView(t, x, nil)
		}
		if len(rs) > 0 {
			p.keep(rs[p.intn(len(rs))])
		}
		return
	}
	if r != nil {
		p.checkView(t, r, want)
		p.keep(r)
	}
}

func (p *prog) asStrided() {
	t := p.tensor()
	if t == nil {
		t = p.pool[0]
	}
	sizes, strides := p.nums(3), p.nums(3)
	if p.intn(2) == 0 && len(strides) > len(sizes) {
		strides = strides[:len(sizes)]
	}
	off := p.num()
	var r *tensor.Tensor
	useOff := p.intn(2) == 0
	if !p.call("as_strided", nil, func() {
		if useOff {
			r = t.AsStridedAt(sizes, strides, off)
		} else {
			r = t.AsStrided(sizes, strides)
		}
	}) {
		return
	}
	p.checkBounds(r)
	if r.NumEl() > 0 {
		idx := p.randomIndex(r.Shape())
		o := r.Offset()
		for d, i := range idx {
			o += i * strides[d]
		}
		if got, want := r.At(idx...), r.Raw().Float64At(o); !sameValue(got, want) {
			p.t.Fatalf("as_strided: At%v = %v, want storage element %d, %v", idx, got, o, want)
		}
	}
	p.keep(r)
}

func (p *prog) pointwise() {
	a, b := p.tensor(), p.tensor()
	if !small(a, b) {
		return
	}
	var r *tensor.Tensor
	switch k := p.intn(9); k {
	case 0:
		if p.call("add", nil, func() { r = a.Add(b) }) {
			p.checkAdd(a, b, r)
		}
	case 1:
		p.call("mul", nil, func() { r = tensor.Mul(a, b) })
	case 2:
		p.call("floor_divide", nil, func() { r = tensor.FloorDivide(a, b) })
	case 3:
		p.call("remainder", nil, func() { r = tensor.Remainder(a, b) })
	case 4:
		p.call("pow", nil, func() { r = tensor.Pow(a, b) })
	case 5:
		p.call("where", nil, func() { r = tensor.Where(tensor.Lt(a, b), a, b) })
	case 6: // out=: only dst's elements may change
		dst := p.tensor()
		if !small(dst) {
			return
		}
		p.call("add out=", []*tensor.Tensor{dst}, func() { tensor.AddTo(dst, a, b) })
	case 7:
		p.call("mul_", []*tensor.Tensor{a}, func() { a.MulInPlace(b) })
	case 8:
		p.call("exp", nil, func() { r = tensor.Exp(a) })
	}
	p.keep(r)
}

// checkAdd checks r = a + b on dtypes where the sums of small integers are
// exact, against the broadcast elements of a and b.
func (p *prog) checkAdd(a, b, r *tensor.Tensor) {
	exact := func(d tensor.DType) bool {
		return d == tensor.Float32 || d == tensor.Float64 || d == tensor.Int32 || d == tensor.Int64
	}
	if !exact(a.DType()) || !exact(b.DType()) || !exact(r.DType()) || r.NumEl() > maxWork {
		return
	}
	x, y, z := a.ExpandAs(r).Float64s(), b.ExpandAs(r).Float64s(), r.Float64s()
	if !smallInts(x) || !smallInts(y) {
		return
	}
	for i := range z {
		if z[i] != x[i]+y[i] {
			p.t.Fatalf("add: element %d is %v, want %v + %v", i, z[i], x[i], y[i])
		}
	}
}

func (p *prog) reduce() {
	t := p.tensor()
	if !small(t) {
		return
	}
	dims := p.nums(3)
	o := tensor.Over(dims...)
	if p.intn(2) == 0 {
		o = o.KeepDim()
	}
	if p.intn(4) == 0 {
		o = o.As(p.dtype())
	}
	var r *tensor.Tensor
	switch p.intn(7) {
	case 0:
		if p.call("sum", nil, func() { r = t.Sum() }) {
			d := t.DType()
			if d == tensor.Float32 || d == tensor.Float64 || d == tensor.Int32 || d == tensor.Int64 {
				want := 0.0
				for _, x := range t.Float64s() {
					want += x
				}
				if got := r.Item(); got != want && smallInts(t.Float64s()) {
					p.t.Fatalf("sum: %v, want %v", got, want)
				}
			}
		}
	case 1:
		p.call("sum dims", nil, func() { r = t.Sum(o) })
	case 2:
		p.call("max", nil, func() { r, _ = t.Max(o) })
	case 3:
		p.call("argmax", nil, func() { r = t.ArgMax(o) })
	case 4:
		p.call("cumsum", nil, func() { r = t.CumSum(o) })
	case 5:
		p.call("softmax", nil, func() { r = t.Softmax(o) })
	case 6:
		p.call("std", nil, func() { r = t.Std(o) })
	}
	p.keep(r)
}

func (p *prog) copyFill() {
	t := p.tensor()
	if !small(t) {
		return
	}
	var r *tensor.Tensor
	switch p.intn(7) {
	case 0:
		if p.call("fill_", []*tensor.Tensor{t}, func() { t.Fill(tensor.Scalar(1)) }) {
			p.checkFilled(t, 1)
		}
	case 1:
		if p.call("zero_", []*tensor.Tensor{t}, func() { t.Zero() }) {
			p.checkFilled(t, 0)
		}
	case 2:
		src := p.tensor()
		if small(src) {
			p.call("copy_", []*tensor.Tensor{t}, func() { t.CopyFrom(src) })
		}
	case 3:
		if p.call("contiguous", nil, func() { r = t.Contiguous() }) {
			p.checkSameElements(t, r)
		}
	case 4:
		if p.call("clone", nil, func() { r = t.Clone() }) {
			p.checkSameElements(t, r)
		}
	case 5:
		dt := p.dtype()
		p.call("to", nil, func() { r = t.To(dt) })
	case 6:
		idx := p.nums(4)
		p.call("set", []*tensor.Tensor{t}, func() { t.Set(tensor.Scalar(3), idx...) })
	}
	p.keep(r)
}

func (p *prog) catStack() {
	ts := make([]*tensor.Tensor, p.intn(4))
	for i := range ts {
		ts[i] = p.tensor()
	}
	if !small(ts...) {
		return
	}
	d := p.num()
	var r *tensor.Tensor
	switch p.intn(3) {
	case 0:
		p.call("cat", nil, func() { r = tensor.Cat(ts, d) })
	case 1:
		p.call("stack", nil, func() { r = tensor.Stack(ts, d) })
	case 2:
		dst := p.tensor()
		if small(dst) {
			p.call("cat out=", []*tensor.Tensor{dst}, func() { tensor.CatTo(dst, ts, d) })
		}
	}
	p.keep(r)
}

func (p *prog) matmul() {
	a, b, c := p.tensor(), p.tensor(), p.tensor()
	if !small(a, b, c) {
		return
	}
	var r *tensor.Tensor
	switch p.intn(8) {
	case 6: // out=: only dst's elements may change
		dst := p.tensor()
		if small(dst) {
			p.call("matmul out=", []*tensor.Tensor{dst}, func() { tensor.MatmulTo(dst, a, b) })
		}
	case 7:
		dst, shape := p.tensor(), p.nums(2)
		if small(dst) {
			p.call("layer_norm out=", []*tensor.Tensor{dst}, func() { tensor.LayerNormTo(dst, a, shape, b, c, 1e-5) })
		}
	case 0:
		p.call("matmul", nil, func() { r = tensor.Matmul(a, b) })
	case 1:
		p.call("mm", nil, func() { r = tensor.Mm(a, b) })
	case 2:
		p.call("bmm", nil, func() { r = tensor.Bmm(a, b) })
	case 3:
		p.call("linear", nil, func() { r = tensor.Linear(a, b, c) })
	case 4:
		p.call("addmm", nil, func() { r = tensor.Addmm(c, a, b, tensor.Scalar(2), nil) })
	case 5:
		shape := p.nums(2)
		p.call("layer_norm", nil, func() { r = tensor.LayerNorm(a, shape, b, c, 1e-5) })
	}
	p.keep(r)
}

func (p *prog) access() {
	t := p.tensor()
	idx := p.nums(4)
	switch p.intn(5) {
	case 0:
		p.call("at", nil, func() { t.At(idx...) })
	case 1:
		p.call("item", nil, func() { t.Item() })
	case 2:
		if small(t) {
			p.call("string", nil, func() { _ = fmt.Sprintf("%v %+.2f", t, t) })
		}
	case 3:
		if small(t) {
			p.call("float64s", nil, func() { t.Float64s() })
		}
	case 4:
		d := tensor.Device{Kind: device.Kind(p.intn(6)), Index: p.num()}
		if small(t) {
			p.call("to device", nil, func() { t.ToDevice(d) })
		}
	}
}

func (p *prog) nilAndInvalid() {
	t := p.pool[p.intn(len(p.pool))]
	var nilT *tensor.Tensor
	dt := []tensor.DType{0, 11, 99, 255}[p.intn(4)]
	calls := []func(){
		func() { t.Add(nil) },
		func() { nilT.Add(t) },
		func() { tensor.Cat([]*tensor.Tensor{t, nil}, 0) },
		func() { tensor.Stack([]*tensor.Tensor{nil, t}, 0) },
		func() { nilT.Reshape(-1) },
		func() { nilT.Sum() },
		func() { t.CopyFrom(nilT) },
		func() { tensor.Zeros(dt, 2) },
		func() { t.To(dt) },
		func() { t.Sum(tensor.Over().As(max(dt, 11))) }, // As(0) is no dtype=
		func() { tensor.Matmul(nilT, t) },
		func() { t.ExpandAs(nil) },
		func() { tensor.AddTo(new(tensor.Tensor), t, t) },
		func() { new(tensor.Tensor).Shape() },
		func() { tensor.Where(nil, t, t) },
		func() { tensor.Full(nil, tensor.Float32, 2) },
		func() { nilT.MulInPlace(t) },
		func() { t.MulInPlace(nil) },
		func() { tensor.SumTo(nil, t) },
		func() { tensor.SumTo(new(tensor.Tensor), t) },
		func() { nilT.Backward() },
		func() { nilT.Detach() },
		func() { nilT.SetRequiresGrad(true) },
		func() { tensor.ZerosLike(nil) },
		func() { nilT.Grad() },
		func() { tensor.MatmulTo(nil, t, t) },
		func() { tensor.LayerNormTo(nilT, t, nil, nil, nil, 1e-5) },
	}
	i := p.intn(len(calls))
	if p.call(fmt.Sprintf("nil or invalid call %d", i), nil, calls[i]) {
		p.t.Fatalf("nil or invalid call %d succeeded", i)
	}
}
