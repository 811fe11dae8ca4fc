package kerneltest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// Note [Host images]
//
// Every operand of a case is a tensor: a strided view over a storage of its
// own, whose whole contents (the view's elements and the bytes around
// them) are first built in host memory. Each backend of the comparison —
// the one under test and the reference — gets its own copy, allocated by
// its Allocator and filled by its Transfer, and the outputs come back the
// same way. The backend under test never sees host memory it did not
// allocate, so a device backend runs the kit as it is; and since both runs
// start from the same bytes, an output's storage must come back equal to
// the reference's outside the view's elements (guard bands, padding, the
// garbage of a reduction's output are all left as they were) and close to
// it inside.

// spec is the layout of one operand: its shape and element strides over a
// storage of size elements, from element offset.
type spec struct {
	shape, strides []int
	offset, size   int
}

// dense is a contiguous row-major spec of shape sh.
func dense(sh ...int) spec {
	st := make([]int, len(sh))
	n := 1
	for i := len(sh) - 1; i >= 0; i-- {
		st[i] = n
		n *= sh[i]
	}
	return spec{shape: sh, strides: st, size: n}
}

// strided is the spec of shape sh with element strides st from offset off,
// over a storage just large enough, plus pad elements.
func strided(sh, st []int, off, pad int) spec {
	last := off
	for i, s := range sh {
		if s == 0 {
			return spec{shape: sh, strides: st, offset: off, size: off + pad}
		}
		last += (s - 1) * st[i]
	}
	return spec{shape: sh, strides: st, offset: off, size: last + 1 + pad}
}

// numel returns the number of elements of the spec's view.
func (s spec) numel() int {
	n := 1
	for _, d := range s.shape {
		n *= d
	}
	return n
}

// tensor is one operand of a case (Note [Host images]).
type tensor struct {
	dt   dtype.DType
	spec spec
	host *device.Storage
}

// newTensor returns a tensor of dtype dt laid out by sp, its host storage
// zeroed.
func newTensor(dt dtype.DType, sp spec) *tensor {
	return &tensor{dt: dt, spec: sp, host: device.Alloc(sp.size * dt.Size())}
}

// fill sets every element of the storage, in the view or not, to gen's
// values: inputs never hold bytes that are not a value of their dtype.
func (t *tensor) fill(gen func() value) *tensor {
	for i := 0; i < t.spec.size; i++ {
		gen().store(t.host, t.dt, i)
	}
	return t
}

// fillView sets the view's elements to gen's values, leaving the rest.
func (t *tensor) fillView(gen func() value) *tensor {
	eachIndex(t.spec, func(_ []int, off int) { gen().store(t.host, t.dt, off) })
	return t
}

// garbage fills the storage with 0xff bytes, NaN in every float dtype: an
// output's old contents, which a backend must neither read nor keep.
func (t *tensor) garbage() *tensor {
	b := t.host.Bytes()
	for i := range b {
		b[i] = 0xff
	}
	return t
}

// view returns the tensor's view over storage st.
func (t *tensor) view(st *device.Storage) *raw.View {
	return &raw.View{Storage: st, DType: t.dt, Shape: t.spec.shape, Strides: t.spec.strides, Offset: t.spec.offset}
}

// offsetAt returns the storage element offset of the element at index idx
// of the broadcast shape (aligned at the last dim; size-1 dims read index
// 0).
func (t *tensor) offsetAt(idx []int) int {
	off := t.spec.offset
	lead := len(idx) - len(t.spec.shape)
	for d, s := range t.spec.shape {
		if s > 1 {
			off += idx[lead+d] * t.spec.strides[d]
		}
	}
	return off
}

// eachIndex calls fn with every index of sp's view, row-major, and its
// storage element offset.
func eachIndex(sp spec, fn func(idx []int, off int)) {
	if sp.numel() == 0 {
		return
	}
	idx := make([]int, len(sp.shape))
	off := sp.offset
	for {
		fn(idx, off)
		d := len(idx) - 1
		for ; d >= 0; d-- {
			idx[d]++
			off += sp.strides[d]
			if idx[d] < sp.shape[d] {
				break
			}
			off -= idx[d] * sp.strides[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// placed is a case's tensors on one backend's device.
type placed struct {
	be    kernel.Backend
	st    []*device.Storage
	views []*raw.View
}

// place copies each tensor's host image to backend be's device.
func place(be kernel.Backend, ts []*tensor) (*placed, error) {
	p := &placed{be: be}
	for _, t := range ts {
		n := t.host.Len()
		st, err := be.Allocator().Alloc(n, false)
		if err != nil {
			return nil, fmt.Errorf("allocating %d bytes on %s: %w", n, be.Name(), err)
		}
		if err := be.Transfer(st, 0, t.host, 0, n); err != nil {
			return nil, fmt.Errorf("transfer of %d bytes to %s: %w", n, be.Name(), err)
		}
		p.st = append(p.st, st)
		p.views = append(p.views, t.view(st))
	}
	return p, nil
}

// fetch brings tensor k's storage back to host memory.
func (p *placed) fetch(k int) (*device.Storage, error) {
	n := p.st[k].Len()
	h := device.Alloc(n)
	if err := p.be.Transfer(h, 0, p.st[k], 0, n); err != nil {
		return nil, fmt.Errorf("transfer of %d bytes from %s: %w", n, p.be.Name(), err)
	}
	return h, nil
}

// runner runs a case's kernel on backend be over views vs of its tensors.
type runner func(be kernel.Backend, vs []*raw.View) error

// elementwise gives the inputs of an elementwise kernel at an output index:
// the first n tensors of a case, broadcast to the output's shape.
type elementwise struct {
	ts []*tensor
	n  int
}

// describe formats the inputs at idx.
func (e *elementwise) describe(idx []int) string {
	parts := make([]string, e.n)
	for k, t := range e.ts[:e.n] {
		parts[k] = formatElem(t.host, t.dt, t.offsetAt(idx))
	}
	return "inputs (" + strings.Join(parts, ", ") + ")"
}

// magnitude returns the largest magnitude of the finite inputs at idx.
func (e *elementwise) magnitude(idx []int) float64 {
	m := 0.0
	for _, t := range e.ts[:e.n] {
		if x := math.Abs(raw.LoadFloat64(t.host, t.dt, t.offsetAt(idx))); !math.IsInf(x, 0) && x > m {
			m = x
		}
	}
	return m
}

// compare runs the case on the reference (refRun) and on the backend under
// test (run), each over its own copy of ts, and compares the outputs
// (tensors outs) within tol. ins, when not nil, gives the inputs of each
// output element, for messages and tolerance.scale.
func (s *suite) compare(ts []*tensor, outs []int, tol tolerance, refRun, run runner, ins *elementwise) error {
	want, err := place(s.ref, ts)
	if err != nil {
		return kitErr("%v", err)
	}
	if err := refRun(s.ref, want.views); err != nil {
		return kitErr("the reference backend failed: %v", err)
	}
	got, err := place(s.b, ts)
	if err != nil {
		return err
	}
	if err := run(s.b, got.views); err != nil {
		return err
	}
	var errs []string
	for _, k := range outs {
		g, err := got.fetch(k)
		if err != nil {
			return err
		}
		w, err := want.fetch(k)
		if err != nil {
			return kitErr("%v", err)
		}
		if msg := ts[k].diff(g, w, tol, ins); msg != "" {
			if len(outs) > 1 {
				msg = fmt.Sprintf("output %d: %s", k, msg)
			}
			errs = append(errs, msg)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// same is [suite.compare] with one runner for both backends.
func (s *suite) same(ts []*tensor, outs []int, tol tolerance, run runner, ins *elementwise) error {
	return s.compare(ts, outs, tol, run, run, ins)
}

// diff compares got, the storage of output t as the backend left it, with
// want, the reference's: the view's elements within tol, every other byte
// exactly. It returns a description of the first differences, or "".
func (t *tensor) diff(got, want *device.Storage, tol tolerance, ins *elementwise) string {
	es := t.dt.Size()
	inView := make([]bool, t.spec.size)
	bad, first := 0, ""
	eachIndex(t.spec, func(idx []int, off int) {
		inView[off] = true
		if sameElem(got, want, t.dt, off, tol, 0) ||
			tol.scale > 0 && ins != nil && sameElem(got, want, t.dt, off, tol, ins.magnitude(idx)) {
			return
		}
		if bad++; bad == 1 {
			first = fmt.Sprintf("element %v: got %s, want %s", idx, formatElem(got, t.dt, off), formatElem(want, t.dt, off))
			if ins != nil {
				first += " for " + ins.describe(idx)
			}
		}
	})
	if bad > 0 {
		if bad > 1 {
			first += fmt.Sprintf(" (%d of %d elements differ)", bad, t.spec.numel())
		}
		return first
	}
	g, w := got.Bytes(), want.Bytes()
	for i := range g {
		if !inView[i/es] && g[i] != w[i] {
			return fmt.Sprintf("wrote byte %d of the storage (element offset %d), outside the output's elements: %#02x, was %#02x", i, i/es, g[i], w[i])
		}
	}
	return ""
}

// tolerance says how close a float result must be to the reference's:
// within ulps units in the last place of dtype in (the output's dtype when
// Invalid), or within abs + rel·|want| + scale·m, m the largest magnitude
// of the element's finite inputs. Integers and bools are always compared
// exactly; NaN matches NaN, and infinities match only themselves.
type tolerance struct {
	ulps            uint64
	in              dtype.DType
	rel, abs, scale float64
}

// exact is the tolerance of results a backend must reproduce bit for bit
// (conversions).
var exact = tolerance{}

// coarser returns the float dtype of a and b with the fewer significand
// bits (Invalid if neither is a float): a result computed in one and
// written in the other is no more precise than it.
func coarser(a, b dtype.DType) dtype.DType {
	bits := func(d dtype.DType) int {
		switch d {
		case dtype.BFloat16:
			return 8
		case dtype.Float16:
			return 11
		case dtype.Float32:
			return 24
		}
		return 53
	}
	switch {
	case !a.IsFloat():
		if b.IsFloat() {
			return b
		}
		return dtype.Invalid
	case !b.IsFloat() || bits(a) <= bits(b):
		return a
	}
	return b
}

// sameElem compares element off of two storages of dtype d, whose inputs'
// largest magnitude is mag.
func sameElem(got, want *device.Storage, d dtype.DType, off int, tol tolerance, mag float64) bool {
	if !d.IsFloat() {
		if d == dtype.Bool {
			// the byte itself: a bool must be 0 or 1
			return got.Bytes()[off] == want.Bytes()[off]
		}
		return raw.LoadInt64(got, d, off) == raw.LoadInt64(want, d, off)
	}
	g, w := raw.LoadFloat64(got, d, off), raw.LoadFloat64(want, d, off)
	switch {
	case math.IsNaN(g) || math.IsNaN(w):
		return math.IsNaN(g) && math.IsNaN(w)
	case math.IsInf(g, 0) || math.IsInf(w, 0):
		return g == w
	}
	in := tol.in
	if !in.IsFloat() {
		in = d
	}
	if in.IsReduced() && d != in && !representable(g, in) {
		return false // computed in a 16-bit float, the result is one of its values
	}
	a, b := ordinal(g, in), ordinal(w, in)
	if a < b {
		a, b = b, a
	}
	if uint64(a)-uint64(b) <= tol.ulps {
		return true
	}
	// (not for exact results, where -0 and +0 differ)
	bound := tol.abs + tol.rel*math.Abs(w) + tol.scale*mag
	return bound > 0 && math.Abs(g-w) <= bound
}

// representable reports whether x is a value of the 16-bit float dtype d.
func representable(x float64, d dtype.DType) bool {
	switch d {
	case dtype.Float16:
		return float64(dtype.HalfFromFloat32(float32(x)).Float32()) == x
	case dtype.BFloat16:
		return float64(dtype.BF16FromFloat32(float32(x)).Float32()) == x
	}
	return true
}

// ordinal returns the position of x among the values of float dtype d in
// increasing order (x a value of d): consecutive values differ by 1, and
// -0 lies just below +0.
func ordinal(x float64, d dtype.DType) int64 {
	var b uint64
	var bits uint
	switch d {
	case dtype.Float64:
		b, bits = math.Float64bits(x), 64
	case dtype.Float32:
		b, bits = uint64(math.Float32bits(float32(x))), 32
	case dtype.Float16:
		b, bits = uint64(dtype.HalfFromFloat32(float32(x))), 16
	case dtype.BFloat16:
		b, bits = uint64(dtype.BF16FromFloat32(float32(x))), 16
	}
	sign := uint64(1) << (bits - 1)
	if b&sign != 0 {
		return -int64(b&^sign) - 1
	}
	return int64(b)
}

// formatElem formats element off of a host storage of dtype d.
func formatElem(st *device.Storage, d dtype.DType, off int) string {
	switch {
	case d == dtype.Bool:
		b := st.Bytes()[off]
		if b > 1 {
			return fmt.Sprintf("bool byte %#02x", b)
		}
		return strconv.FormatBool(b == 1)
	case d.IsInt():
		return strconv.FormatInt(raw.LoadInt64(st, d, off), 10)
	case d == dtype.Float64:
		return strconv.FormatFloat(raw.LoadFloat64(st, d, off), 'g', -1, 64)
	}
	return strconv.FormatFloat(raw.LoadFloat64(st, d, off), 'g', -1, 32)
}
