package kerneltest

import (
	"errors"
	"fmt"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The index and gather cases (Notes [Index plans] and [Gather plans] in
// package kernel): every op of kinds Index and Gather × every dtype
// (refused where the reference refuses) × index shapes that reach a
// backend's paths: one index tensor on an inner dim (a position per
// element), one on the outer dim (whole rows at one position, the
// index_select and embedding path), two consecutive broadcast ones, two
// apart (their dims first), 0-dim ones, empty ones and, in normal mode, a
// long one split across workers; the indexed operand contiguous,
// transposed or strided in a larger storage, negative positions where the
// plan allows them. Gather plans run along every dim of several shapes,
// with index lengths shorter and longer than the dim. Values are moved
// exactly; the combining ops (index_put with accumulate, scatter_add, ...)
// draw small values whose sums and products are exact, with duplicate
// positions that combine in the plan's order. An index out of range must
// be an errs.Index error, after which a writing op's destination is
// unchanged.

// refuses checks that the reference and then the backend under test fail
// with an error of kind k and leave the tensors at outs as they were.
func (s *suite) refuses(ts []*tensor, outs []int, k errs.Kind, run runner) error {
	if err := refusesOn(s.ref, ts, outs, k, run); err != nil {
		return kitErr("the reference: %v", err)
	}
	return refusesOn(s.b, ts, outs, k, run)
}

func refusesOn(be kernel.Backend, ts []*tensor, outs []int, k errs.Kind, run runner) error {
	got, err := place(be, ts)
	if err != nil {
		return err
	}
	err = run(be, got.views)
	var e *errs.Error
	switch {
	case err == nil:
		return fmt.Errorf("ran it, want an error of kind %s", k)
	case errors.As(err, new(*kitError)):
		return err
	case !errors.As(err, &e) || e.Kind != k:
		return fmt.Errorf("error %v, want kind %s", err, k)
	}
	for _, o := range outs {
		g, err := got.fetch(o)
		if err != nil {
			return err
		}
		if string(g.Bytes()) != string(ts[o].host.Bytes()) {
			return fmt.Errorf("the failing call changed tensor %d", o)
		}
	}
	return nil
}

// icase is one index case: op over a source of shape src (laid out by
// layout) with index tensors of shapes idx on dims dims.
type icase struct {
	op     *optable.Op
	d      dtype.DType
	src    []int
	dims   []int
	idx    [][]int
	layout string
	noWrap bool
	alpha  float64
	bad    bool // one position out of range
}

// indexShapes are the index cases' layouts of indices.
var indexShapes = []struct {
	name string
	src  []int
	dims []int
	idx  [][]int
}{
	{"inner", []int{4, 5, 6}, []int{1}, [][]int{{7}}},
	{"rows", []int{6, 70}, []int{0}, [][]int{{9}}},
	{"consecutive", []int{5, 6, 7}, []int{1, 2}, [][]int{{3, 1}, {4}}},
	{"apart", []int{5, 6, 7}, []int{0, 2}, [][]int{{8}, {8}}},
	{"0d-index", []int{4, 5}, []int{0}, [][]int{{}}},
	{"empty", []int{4, 5}, []int{1}, [][]int{{0}}},
}

// indexes adds the index cases.
func (s *suite) indexes() {
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Index {
			continue
		}
		for _, d := range dtype.All {
			path := []string{"index", op.Go, d.String()}
			base := icase{op: op, d: d, alpha: 1}
			probe := func(be kernel.Backend) error {
				c := base
				c.src, c.dims, c.idx, c.layout = []int{2}, []int{0}, [][]int{{1}}, "contiguous"
				ts, _ := indexTensors(c, []string{"probe"})
				p, err := place(be, ts)
				if err != nil {
					return err
				}
				return runIndexCase(be, c, p.views)
			}
			if !s.runs(probe(s.ref), path, probe) {
				continue
			}
			cases := indexShapes
			long := 40000
			if s.short || raceEnabled {
				long = 3000
			}
			cases = append(cases, struct {
				name string
				src  []int
				dims []int
				idx  [][]int
			}{"long", []int{3, 50}, []int{1}, [][]int{{long}}})
			for _, sh := range cases {
				for _, l := range []string{"contiguous", "transposed", "strided"} {
					c := base
					c.src, c.dims, c.idx, c.layout = sh.src, sh.dims, sh.idx, l
					name := sh.name + "-" + l
					p := append(append([]string{}, path...), name)
					s.add(func() error { return s.runIndex(c, p) }, p...)
					if sh.name == "inner" {
						c.noWrap = true
						p := append(append([]string{}, path...), name+"-nowrap")
						s.add(func() error { return s.runIndex(c, p) }, p...)
						c.noWrap = false
						c.bad = true
						p = append(append([]string{}, path...), name+"-out-of-range")
						s.add(func() error { return s.runIndex(c, p) }, p...)
					}
				}
			}
			if op.Combine != nil {
				c := base
				c.src, c.dims, c.idx, c.layout, c.alpha = []int{6, 70}, []int{0}, [][]int{{9}}, "contiguous", 2
				p := append(append([]string{}, path...), "rows-alpha2")
				s.add(func() error { return s.runIndex(c, p) }, p...)
			}
		}
	}
}

// indexResult returns the shape of the advanced index of c, where B's dims
// start in it, and B.
func indexResult(c icase) (sizes []int, bAt int, b []int) {
	for _, sh := range c.idx {
		b = broadcastShape(b, sh)
	}
	consecutive := true
	for k := 1; k < len(c.dims); k++ {
		if c.dims[k] != c.dims[k-1]+1 {
			consecutive = false
		}
	}
	if consecutive {
		first, last := c.dims[0], c.dims[len(c.dims)-1]
		sizes = append(append(append(sizes, c.src[:first]...), b...), c.src[last+1:]...)
		return sizes, first, b
	}
	sizes = append(sizes, b...)
	for d, n := range c.src {
		if !contains(c.dims, d) {
			sizes = append(sizes, n)
		}
	}
	return sizes, 0, b
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// broadcastShape is the broadcast of shapes a and b (which must broadcast).
func broadcastShape(a, b []int) []int {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range out {
		sa, sb := 1, 1
		if k := len(a) - n + i; k >= 0 {
			sa = a[k]
		}
		if k := len(b) - n + i; k >= 0 {
			sb = b[k]
		}
		out[i] = max(sa, sb)
		if sa == 0 || sb == 0 {
			out[i] = 0
		}
	}
	return out
}

// indexTensors builds c's tensors: the indexed operand (0), the other
// data operand (1: Get's output, or the Put ops' values), then the index
// tensors. It returns them and the outputs' indices.
func indexTensors(c icase, path []string) ([]*tensor, []int) {
	r := rng(path...)
	gen := func() value { return anyValue(r, c.d, true) }
	if c.op.Combine != nil {
		gen = func() value { return foldValue(r, c.d) }
	}
	res, _, _ := indexResult(c)
	indexed := newTensor(c.d, inputSpec(c.src, c.layout)).fill(gen)
	other := newTensor(c.d, inputSpec(res, c.layout))
	if c.op.Put {
		other.fill(gen)
	} else {
		other.garbage()
	}
	ts := []*tensor{indexed, other}
	for k, sh := range c.idx {
		size := int64(c.src[c.dims[k]])
		lo := -size
		if c.noWrap {
			lo = 0
		}
		t := newTensor(dtype.Int64, dense(sh...)).fill(func() value { return iv(lo + r.Int64N(size-lo)) })
		if c.bad && k == 0 && t.spec.numel() > 0 {
			iv(size).store(t.host, dtype.Int64, t.spec.offset+t.spec.numel()/2)
		}
		ts = append(ts, t)
	}
	if c.op.Put {
		return ts, []int{0}
	}
	return ts, []int{1}
}

// runIndexCase builds c's plan over views vs as the op layer does and runs
// it on be.
func runIndexCase(be kernel.Backend, c icase, vs []*raw.View) error {
	res, bAt, b := indexResult(c)
	v := vs[0]
	strides := make([]int, 0, len(res))
	if isConsecutive(c.dims) {
		first, last := c.dims[0], c.dims[len(c.dims)-1]
		strides = append(strides, v.Strides[:first]...)
		strides = append(strides, make([]int, len(b))...)
		strides = append(strides, v.Strides[last+1:]...)
	} else {
		strides = append(strides, make([]int, len(b))...)
		for d := range c.src {
			if !contains(c.dims, d) {
				strides = append(strides, v.Strides[d])
			}
		}
	}
	restrided := v.WithLayout(res, strides, v.Offset)
	args := kernel.DefaultArgs
	args.NoWrap = c.noWrap
	args.AlphaF, args.AlphaI = c.alpha, int64(c.alpha)
	cfg := iter.NewConfig().StaticDType(c.d).CheckMemOverlap(false).ResizeOutputs(false)
	if c.op.Put {
		cfg.AddOutput(restrided).AddInput(vs[1])
	} else {
		cfg.AddOutput(vs[1]).AddInput(restrided)
	}
	for k, d := range c.dims {
		t := vs[2+k]
		st := make([]int, len(res))
		// the index's strides on B's dims, broadcast
		off := bAt + len(b) - t.Dim()
		for j := range t.Shape {
			if t.Shape[j] != 1 {
				st[off+j] = t.Strides[j]
			}
		}
		cfg.AddInput(t.WithLayout(res, st, t.Offset))
		args.IndexSizes = append(args.IndexSizes, c.src[d])
		args.IndexStrides = append(args.IndexStrides, v.Strides[d]*c.d.Size())
		args.IndexDims = append(args.IndexDims, d)
	}
	p, err := cfg.Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	return be.Index(c.op, p, &args)
}

func isConsecutive(dims []int) bool {
	for k := 1; k < len(dims); k++ {
		if dims[k] != dims[k-1]+1 {
			return false
		}
	}
	return true
}

// runIndex runs case c, whose values are drawn from path.
func (s *suite) runIndex(c icase, path []string) error {
	ts, outs := indexTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error { return runIndexCase(be, c, vs) }
	if c.bad {
		if !c.op.Put {
			outs = nil // a new output: its contents after an error are free
		}
		return s.refuses(ts, outs, errs.Index, run)
	}
	tol := exact
	if c.op.Combine != nil {
		tol = foldTolerance(c.d)
	}
	return s.same(ts, outs, tol, run, nil)
}

// gcase is one gather case: op along dim of an indexed operand of shape
// self with an index of shape index.
type gcase struct {
	op          *optable.Op
	d           dtype.DType
	self, index []int
	dim         int
	layout      string
	bad         bool
}

// gatherShapes are the gather cases' operands: self's shape, then the
// index's, which is no larger but along the dims.
var gatherShapes = [][2][]int{
	{{7}, {12}},
	{{5, 6}, {5, 4}},
	{{5, 6}, {3, 6}},
	{{3, 4, 5}, {2, 4, 3}},
	{{4, 3}, {0, 3}},
}

// gathers adds the gather cases.
func (s *suite) gathers() {
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Gather {
			continue
		}
		for _, d := range dtype.All {
			path := []string{"gather", op.Go, d.String()}
			base := gcase{op: op, d: d}
			probe := func(be kernel.Backend) error {
				c := base
				c.self, c.index, c.dim, c.layout = []int{2}, []int{1}, 0, "contiguous"
				ts, _ := gatherTensors(c, []string{"probe"})
				p, err := place(be, ts)
				if err != nil {
					return err
				}
				return runGatherCase(be, c, p.views)
			}
			if !s.runs(probe(s.ref), path, probe) {
				continue
			}
			shapes := gatherShapes
			if !s.short && !raceEnabled {
				shapes = append(shapes, [2][]int{{3, 500}, {3, 40000}}, [2][]int{{40000, 2}, {40000, 2}})
			}
			for _, sh := range shapes {
				for dim := range sh[1] {
					if !gatherFits(sh[0], sh[1], dim) {
						continue
					}
					for _, l := range []string{"contiguous", "transposed", "strided"} {
						c := base
						c.self, c.index, c.dim, c.layout = sh[0], sh[1], dim, l
						name := fmt.Sprintf("%s-on-%s-dim%d-%s", shapeName(sh[1]), shapeName(sh[0]), dim, l)
						p := append(append([]string{}, path...), name)
						s.add(func() error { return s.runGather(c, p) }, p...)
					}
				}
			}
			c := base
			c.self, c.index, c.dim, c.layout, c.bad = []int{5, 6}, []int{5, 4}, 1, "strided", true
			p := append(append([]string{}, path...), "out-of-range")
			s.add(func() error { return s.runGather(c, p) }, p...)
		}
	}
}

// gatherFits reports whether an index of shape index may run along dim
// of self: no longer than self on the other dims (PyTorch's check, made by
// the op layer before any plan).
func gatherFits(self, index []int, dim int) bool {
	for k := range index {
		if k != dim && index[k] > self[k] {
			return false
		}
	}
	return true
}

// gatherTensors builds c's tensors: the written operand (0), the index
// (1), the read one (2); it returns them and the output's index.
func gatherTensors(c gcase, path []string) ([]*tensor, []int) {
	r := rng(path...)
	gen := func() value { return anyValue(r, c.d, true) }
	if c.op.Combine != nil {
		gen = func() value { return foldValue(r, c.d) }
	}
	n := int64(c.self[c.dim])
	index := newTensor(dtype.Int64, inputSpec(c.index, c.layout)).fill(func() value { return iv(r.Int64N(n)) })
	if c.bad {
		var offs []int
		eachIndex(index.spec, func(_ []int, off int) { offs = append(offs, off) })
		iv(n).store(index.host, dtype.Int64, offs[0])
		iv(-1).store(index.host, dtype.Int64, offs[len(offs)-1])
	}
	self := newTensor(c.d, inputSpec(c.self, c.layout)).fill(gen)
	if !c.op.Put {
		out := newTensor(c.d, outputSpec(c.index, c.layout)).garbage()
		return []*tensor{out, index, self}, []int{0}
	}
	src := newTensor(c.d, inputSpec(c.index, c.layout)).fill(gen)
	return []*tensor{self, index, src}, []int{0}
}

// runGatherCase builds c's gather plan over views vs as the op layer does
// and runs it on be.
func runGatherCase(be kernel.Backend, c gcase, vs []*raw.View) error {
	along := func(v *raw.View) *raw.View {
		sizes := append([]int{}, c.index...)
		sizes[c.dim] = v.Shape[c.dim]
		return v.WithLayout(sizes, v.Strides, v.Offset)
	}
	written, read := vs[0], vs[2]
	if c.op.Put {
		written = along(written)
	} else {
		read = along(read)
	}
	p, err := iter.NewConfig().StaticShapeSquash(c.index, c.dim).StaticDType(c.d).CheckMemOverlap(false).
		ResizeOutputs(false).AddOutput(written).AddInput(vs[1]).AddInput(read).Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	args := kernel.DefaultArgs
	args.Dim = c.dim
	return be.Gather(c.op, p, &args)
}

// runGather runs case c, whose values are drawn from path.
func (s *suite) runGather(c gcase, path []string) error {
	ts, outs := gatherTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error { return runGatherCase(be, c, vs) }
	if c.bad {
		if !c.op.Put {
			outs = nil // a new output: its contents after an error are free
		}
		return s.refuses(ts, outs, errs.Index, run)
	}
	tol := exact
	if c.op.Combine != nil {
		tol = foldTolerance(c.d)
	}
	return s.same(ts, outs, tol, run, nil)
}
