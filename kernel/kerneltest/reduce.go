package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The reduction cases: every reduction of the table that has folds
// (norm's kernels NormZero … NormP each with an order p it is picked for,
// var and std with corrections 0 and 1) × every compute dtype. A dtype the
// reference refuses must be refused; every other one reduces inputs of
// several shapes over one dim, several, all, none, a dim of size 1 and an
// empty dim (for ops that have a value over no elements), with the input
// contiguous, permuted, strided or broadcast and the output strided in a
// larger storage, and with inputs and outputs of other dtypes (Note [Mixed
// dtypes]). Outputs start as garbage (NaN), which a backend must ignore
// (Note [Reduction plans] in package kernel). In normal mode larger inputs
// reach the parallel strategies a backend may have: a full reduction in
// chunks, many outputs across workers, and an outer reduction split along
// its reduced dim. hugeReductions reduce more than 2^31 elements.

// reductions adds the reduction cases.
func (s *suite) reductions() {
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Reduction || len(op.Folds) == 0 {
			continue
		}
		for _, a := range reduceArgs(op) {
			for _, d := range dtype.All {
				path := []string{"reduce", a.name, d.String()}
				base := rcase{op: op, args: a.args, d: d, in: d, out: reduceResult(op, d), gen: foldValue}
				probe := func(be kernel.Backend) error { return probeReduce(be, base) }
				if s.runs(probe(s.ref), path, probe) {
					s.reduceMatrix(base, path)
				}
			}
		}
	}
	s.hugeReductions()
}

// reduceArgs returns the arguments op runs with, named: the orders p for
// which a picking op (norm) chooses op, corrections 0 and 1 for the folds
// that project a variance, else none.
func reduceArgs(op *optable.Op) []namedArgs {
	var r []namedArgs
	for _, picker := range optable.Ops[1:] {
		if picker.Pick == nil {
			continue
		}
		for _, p := range []float64{0, 1, 2, 3, 0.5, -1.5, math.Inf(1), math.Inf(-1)} {
			if picker.Pick(p) == op {
				a := kernel.DefaultArgs
				a.P = p
				r = append(r, namedArgs{fmt.Sprintf("%s(p=%v)", op.Go, p), a})
			}
		}
	}
	if len(r) > 0 {
		return r
	}
	for _, f := range op.Folds {
		if strings.Contains(f.Project, "Variance") {
			for _, c := range []float64{0, 1} {
				a := kernel.DefaultArgs
				a.Correction = c
				r = append(r, namedArgs{fmt.Sprintf("%s(correction=%v)", op.Go, c), a})
			}
			return r
		}
	}
	return []namedArgs{{op.Go, kernel.DefaultArgs}}
}

// reduceResult is the dtype of op's values when it computes in d: the
// result dtype for the ops computed in their input's dtype (argmax's
// int64, all's bool), else d.
func reduceResult(op *optable.Op, d dtype.DType) dtype.DType {
	if op.InInput && op.Result != nil {
		if r, err := op.Result(d); err == nil {
			return r
		}
	}
	return d
}

// reportsIndex reports whether op reports an index along its reduced dim,
// which it needs to be a single one.
func reportsIndex(op *optable.Op) bool {
	if op.Outputs == 2 {
		return true
	}
	for _, f := range op.Folds {
		if strings.Contains(f.Project, "$s.I") {
			return true
		}
	}
	return false
}

// rcase is one reduction case: op computed in d over an input of dtype in
// and shape shape, reducing dims into outputs of dtype out (and int64
// indices), laid out by layout.
type rcase struct {
	op      *optable.Op
	args    kernel.Args
	d       dtype.DType
	in, out dtype.DType
	shape   []int
	dims    []int
	layout  string
	gen     func(r *rand.Rand, d dtype.DType) value
}

// reduceShape is an input shape and the sets of dims reduced over it.
type reduceShape struct {
	shape []int
	dims  [][]int
}

// cube is reduced over every set of its dims; it also carries the cases
// of special values and mixed dtypes.
var cube = reduceShape{[]int{3, 4, 5}, [][]int{{}, {0}, {1}, {2}, {0, 2}, {0, 1, 2}}}

// reduceShapes are the inputs of every reduction: 0-d, a dim of size 1,
// empty dims, several dims, none, rows long enough for SIMD and cascades,
// and outer dims.
var reduceShapes = []reduceShape{
	{nil, [][]int{{}}},
	{[]int{1}, [][]int{{0}}},
	{[]int{0, 3}, [][]int{{0}, {1}}},
	{[]int{3, 0}, [][]int{{0}}},
	cube,
	{[]int{3, 1, 5}, [][]int{{1}}},
	{[]int{5, 67}, [][]int{{1}, {0}, {0, 1}}},
	{[]int{70, 3}, [][]int{{0}, {1}}},
	{[]int{2, 1100}, [][]int{{1}, {0, 1}}},
}

// bigReduceShapes reach a backend's parallel strategies (normal mode, with
// contiguous inputs): an outer reduction split along its reduced dim, many
// outputs over short rows, a full reduction in chunks.
var bigReduceShapes = []reduceShape{
	{[]int{520, 64}, [][]int{{0}}},
	{[]int{2400, 16}, [][]int{{1}}},
	{[]int{2*iter.GrainSize + 5}, [][]int{{0}}},
}

// reduceLayouts lay out the input and outputs of a reduction.
var reduceLayouts = []string{"contiguous", "permuted", "strided", "broadcast", "strided-out"}

// reduceMatrix adds the cases of base (op and compute dtype) under path.
func (s *suite) reduceMatrix(base rcase, path []string) {
	index := reportsIndex(base.op)
	add := func(c rcase, name string) {
		p := append(append([]string{}, path...), name)
		s.add(func() error { return s.runReduce(c, p) }, p...)
	}
	each := func(shapes []reduceShape, layouts []string, fn func(c rcase, name string)) {
		for _, sh := range shapes {
			for _, dims := range sh.dims {
				reduced, empty := 0, false
				for _, d := range dims {
					if sh.shape[d] > 1 {
						reduced++
					}
					empty = empty || sh.shape[d] == 0
				}
				if index && reduced > 1 || base.op.NoIdentity && empty {
					continue // the op layer never runs these
				}
				for _, l := range layouts {
					c := base
					c.shape, c.dims, c.layout = sh.shape, dims, l
					fn(c, fmt.Sprintf("%s-r%s-%s", shapeName(sh.shape), dimsName(dims), l))
				}
			}
		}
	}
	each(reduceShapes, reduceLayouts, add)
	if !s.short {
		each(bigReduceShapes, []string{"contiguous"}, add)
	}
	if base.d.IsFloat() {
		each([]reduceShape{cube}, []string{"contiguous"}, func(c rcase, name string) {
			c.gen = specialValue
			add(c, "specials-"+name)
		})
	}
	// mixed dtypes (Note [Mixed dtypes]), on the cube
	var lower, outs []dtype.DType
	for _, e := range dtype.All {
		if e != base.d && dtype.Promote(e, base.d) == base.d {
			lower = append(lower, e)
		}
		if e != base.out && dtype.CanCast(base.out, e) {
			outs = append(outs, e)
		}
	}
	pick := func(cands []dtype.DType) dtype.DType { return cands[(int(base.op.Code)+int(base.d))%len(cands)] }
	mixed := []reduceShape{cube}
	if len(lower) > 0 {
		each(mixed, []string{"contiguous", "permuted"}, func(c rcase, name string) {
			c.in = pick(lower)
			add(c, "in-"+c.in.String()+"-"+name)
		})
	}
	if len(outs) > 0 {
		each(mixed, []string{"contiguous", "strided-out"}, func(c rcase, name string) {
			c.out = pick(outs)
			add(c, "out-"+c.out.String()+"-"+name)
		})
	}
}

// shapeName names a shape in case paths: "3x4x5", "0d".
func shapeName(sh []int) string {
	if len(sh) == 0 {
		return "0d"
	}
	parts := make([]string, len(sh))
	for i, s := range sh {
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, "x")
}

// dimsName names a set of dims: "0,2", "none".
func dimsName(dims []int) string {
	if len(dims) == 0 {
		return "none"
	}
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ",")
}

// contiguousStrides returns the row-major strides of sh.
func contiguousStrides(sh []int) []int { return dense(sh...).strides }

// inputSpec lays out an input of shape sh: contiguous, permuted or
// transposed (dims in reverse memory order), strided (every other element,
// from offset 3) or broadcast (stride 0 on dim 0).
func inputSpec(sh []int, layout string) spec {
	st := contiguousStrides(sh)
	switch layout {
	case "permuted", "transposed":
		rev := make([]int, len(sh))
		for i := range sh {
			rev[i] = sh[len(sh)-1-i]
		}
		rs := contiguousStrides(rev)
		for i := range st {
			st[i] = rs[len(sh)-1-i]
		}
		return strided(sh, st, 0, 0)
	case "strided":
		for i := range st {
			st[i] *= 2
		}
		return strided(sh, st, 3, 1)
	case "broadcast":
		if len(st) > 0 {
			st[0] = 0
		}
		return strided(sh, st, 0, 0)
	}
	return dense(sh...)
}

// runReduce runs case c, whose values are drawn from path.
func (s *suite) runReduce(c rcase, path []string) error {
	ts := reduceTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error {
		p, err := reducePlan(c, vs)
		if err != nil {
			return kitErr("building the plan: %v", err)
		}
		return be.Reduce(c.op, p, &c.args)
	}
	outs := []int{1}
	if c.op.Outputs == 2 {
		outs = append(outs, 2)
	}
	return s.same(ts, outs, foldTolerance(coarser(c.d, c.out)), run, nil)
}

// reduceTensors builds the input (tensor 0) and the outputs of c: the
// input's shape with size 1 on the reduced dims, full of garbage.
func reduceTensors(c rcase, path []string) []*tensor {
	r := rng(path...)
	keep := append([]int{}, c.shape...)
	for _, d := range c.dims {
		keep[d] = 1
	}
	outSpec := dense(keep...)
	if c.layout == "strided-out" {
		st := contiguousStrides(keep)
		for i := range st {
			st[i] *= 2
		}
		outSpec = strided(keep, st, 1, 1)
	}
	gen := c.gen
	if gen == nil {
		gen = foldValue
	}
	ts := []*tensor{
		newTensor(c.in, inputSpec(c.shape, c.layout)).fill(func() value { return gen(r, c.in) }),
		newTensor(c.out, outSpec).garbage(),
	}
	if c.op.Outputs == 2 {
		ts = append(ts, newTensor(dtype.Int64, outSpec).garbage())
	}
	return ts
}

// reducePlan builds the reduction plan of c over views vs (input first), as
// the op layer does.
func reducePlan(c rcase, vs []*raw.View) (*iter.Plan, error) {
	cfg := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(c.d)
	for _, v := range vs[1:] {
		cfg.AddOutput(v)
	}
	return cfg.AddInput(vs[0]).Build()
}

// foldTolerance is the tolerance of reductions, scans and row ops whose
// results are no more precise than dtype d: a few ulps of d, or a relative
// error that grows with the length of a fold where a
// backend accumulates in another order or in a narrower type than the
// reference (float32 products, SIMD sums and exponentials), with as much
// absolute error near zero, where a mean is subtracted.
func foldTolerance(d dtype.DType) tolerance {
	switch d {
	case dtype.Float64:
		return tolerance{ulps: 4, in: d, rel: 1e-12, abs: 1e-12}
	case dtype.Float32:
		return tolerance{ulps: 4, in: d, rel: 2e-5, abs: 2e-5}
	}
	return tolerance{ulps: 2, in: d, abs: 2e-5}
}

// probeReduce runs c's op computed in c.d on backend be over one element.
func probeReduce(be kernel.Backend, c rcase) error {
	c.shape, c.dims, c.layout = []int{1}, []int{0}, "contiguous"
	p, err := place(be, reduceTensors(c, []string{"probe"}))
	if err != nil {
		return err
	}
	plan, err := reducePlan(c, p.views)
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	return be.Reduce(c.op, plan, &c.args)
}

// hugeLen is the length of the huge reductions: more elements than a
// 32-bit index reaches. A variable, so that the package builds where an
// int cannot hold it (such platforms skip these cases).
var hugeLen int64 = 1<<31 + 7

// hugeReductions add reductions of more than 2^31 elements that need no
// memory: an input expanded from one element (stride 0). The reference
// would take minutes, so the expected value is the count times the
// element: the sum of float64 1.5 (exact) and of int64 3, and the count of
// a true bool. A pass over 2^31 elements takes a second or two, over a
// minute under the race detector, which finds nothing there that the
// smaller full reductions (split in the same chunks) do not: they run in
// normal mode without it.
func (s *suite) hugeReductions() {
	for _, c := range []struct {
		op   *optable.Op
		in   dtype.DType
		out  dtype.DType
		x    value
		want value
	}{
		{optable.Sum, dtype.Float64, dtype.Float64, fv(1.5), fv(1.5 * float64(hugeLen))},
		{optable.Sum, dtype.Int64, dtype.Int64, iv(3), iv(3 * hugeLen)},
		{optable.CountNonzero, dtype.Bool, dtype.Int64, iv(1), iv(hugeLen)},
	} {
		path := []string{"reduce", "huge", c.op.Go + "-" + c.in.String()}
		s.add(func() error {
			switch {
			case s.short:
				return skipped("a pass over 2^31 elements: normal mode only")
			case raceEnabled:
				return skipped("a pass over 2^31 elements: not under the race detector")
			case hugeLen > math.MaxInt:
				return skipped("more elements than an int holds on this platform")
			}
			return s.runHuge(c.op, c.in, c.out, c.x, c.want)
		}, path...)
	}
}

// runHuge reduces x expanded to hugeLen elements with op computed in the
// input's dtype, into an output of dtype out, and compares with want.
func (s *suite) runHuge(op *optable.Op, in, out dtype.DType, x, want value) error {
	ts := []*tensor{
		newTensor(in, strided([]int{int(hugeLen)}, []int{0}, 0, 0)).fill(func() value { return x }),
		newTensor(out, dense(1)).garbage(),
	}
	p, err := place(s.b, ts)
	if err != nil {
		return err
	}
	plan, err := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).StaticDType(in).
		AddOutput(p.views[1]).AddInput(p.views[0]).Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	if err := s.b.Reduce(op, plan, nil); err != nil {
		return err
	}
	got, err := p.fetch(1)
	if err != nil {
		return err
	}
	w := one(out, want)
	if !sameElem(got, w, out, 0, exact, 0) {
		return fmt.Errorf("%s of %d elements: got %s, want %s", op.Go, hugeLen, formatElem(got, out, 0), formatElem(w, out, 0))
	}
	return nil
}
