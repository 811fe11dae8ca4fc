package kerneltest

import (
	"fmt"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The pointwise cases: every pointwise op of the table that has a kernel
// of its own (Impl nil) × every compute dtype. A dtype the reference
// backend refuses must be refused; for every other one the op runs in
// each layout of Note [Layouts] with inputs of the compute dtype, with
// the scalar arguments the op reads, with operands of other dtypes (Note
// [Mixed dtypes]), and on plans split into 32-bit indexable pieces (Note
// [Split plans]).

// pointwise adds the pointwise cases.
func (s *suite) pointwise() {
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Pointwise || op.Impl != nil {
			continue
		}
		for _, d := range dtype.All {
			path := []string{"pointwise", op.Go, d.String()}
			probe := func(be kernel.Backend) error { return probePointwise(be, op, d) }
			if s.runs(probe(s.ref), path, probe) {
				s.pointwiseMatrix(op, d, path)
			}
		}
	}
}

// pcase is one pointwise case: op computed in dtype d, over inputs of
// dtypes ins into an output of dtype out, laid out by l.
type pcase struct {
	op   *optable.Op
	d    dtype.DType
	out  dtype.DType
	ins  []dtype.DType
	args *kernel.Args
	l    layout
}

// plainCase is op computed in d with inputs of dtype d (a bool condition)
// and its result dtype as the output's.
func plainCase(op *optable.Op, d dtype.DType, l layout) pcase {
	ins := make([]dtype.DType, op.Arity)
	for k := range ins {
		ins[k] = d
	}
	if op.CondBool {
		ins[0] = dtype.Bool
	}
	return pcase{op: op, d: d, out: resultDType(op, d), ins: ins, args: &kernel.DefaultArgs, l: l}
}

// resultDType is the dtype op writes when it computes in d.
func resultDType(op *optable.Op, d dtype.DType) dtype.DType {
	if op.OutBool {
		return dtype.Bool
	}
	return d
}

// inPlace returns c with its receiver input of the output's dtype, as an
// in-place op's receiver is, when c's layout is in place, and whether the
// op layer can run it so: the receiver takes part in type promotion, so
// its dtype never promotes the compute dtype to another.
func (c pcase) inPlace() (pcase, bool) {
	if !c.l.inPlace {
		return c, true
	}
	c.ins = append([]dtype.DType{}, c.ins...)
	c.ins[c.op.Receiver] = c.out
	return c, dtype.Promote(c.out, c.d) == c.d
}

// pointwiseMatrix adds the cases of op computed in d (under path).
func (s *suite) pointwiseMatrix(op *optable.Op, d dtype.DType, path []string) {
	addCase := func(c pcase, name string) {
		c, ok := c.inPlace()
		if !ok {
			return
		}
		p := append(append([]string{}, path...), name)
		s.add(func() error { return s.runPointwise(c, p) }, p...)
	}
	ls := s.elementwiseLayouts(op.Arity)
	for _, l := range ls {
		addCase(plainCase(op, d, l), l.name)
	}
	// scalar arguments, on the layouts whose loops differ by them
	var argLayouts []layout
	for _, l := range ls {
		if l.name == "contiguous" || l.name == "sliced" || strings.HasPrefix(l.name, "scalar") {
			argLayouts = append(argLayouts, l)
		}
	}
	for _, a := range scalarArgs(op) {
		for _, l := range argLayouts {
			c := plainCase(op, d, l)
			c.args = &a.args
			addCase(c, a.name+"-"+l.name)
		}
	}
	for _, m := range mixes(op, d) {
		for _, l := range ls {
			if m.layouts(l.name) {
				c := plainCase(op, d, l)
				c.ins, c.out = m.ins, m.out
				addCase(c, m.name+"-"+l.name)
			}
		}
	}
	// split plans, on layouts with offsets, transposes and guard bands
	for _, name := range []string{"sliced", "row0", "long-strided", "crossed-sliced"} {
		c := plainCase(op, d, layoutNamed(ls, name))
		p := append(append([]string{}, path...), "split32-"+name)
		s.add(func() error { return s.runSplit(c, p) }, p...)
	}
}

// namedArgs is a set of scalar arguments and its name in case paths.
type namedArgs struct {
	name string
	args kernel.Args
}

// scalarArgs returns the scalar arguments op reads, by its declaration:
// the multiplier of ops with an Alpha (2, -0.5 and 0; the integer loops
// read AlphaI, -3 for -0.5 so that they see a negative one too), and
// logit's eps.
func scalarArgs(op *optable.Op) []namedArgs {
	var r []namedArgs
	if op.Alpha != "" {
		for _, a := range []struct {
			f float64
			i int64
		}{{2, 2}, {-0.5, -3}, {0, 0}} {
			args := kernel.DefaultArgs
			args.AlphaF, args.AlphaI = a.f, a.i
			r = append(r, namedArgs{fmt.Sprintf("%s=%v", op.Alpha, a.f), args})
		}
	}
	if op.Options == "Eps" {
		args := kernel.DefaultArgs
		args.Eps, args.EpsHi, args.HasEps = 0.25, 0.75, true
		r = append(r, namedArgs{"eps=0.25", args})
	}
	return r
}

// Note [Mixed dtypes]
//
// A backend reads inputs converted to the compute dtype and writes its
// result converted to the output's dtype (kernel's Pointwise plans). The
// mixes give each op operands of other dtypes, of the kinds the op layer
// produces:
//
//   - in: every input of a dtype that promotes to the compute dtype
//     (int32 inputs of a float32 add; bool into int8), a where condition
//     of uint8;
//   - out: an output of another dtype the result may be cast to
//     (dtype.CanCast: float32 into float16, bool into float64);
//   - 0d: the last input 0-d of another dtype of the compute dtype's
//     category, which PyTorch's type promotion lets a dimensioned operand
//     override (a float32 scalar times a bfloat16 tensor computes in
//     bfloat16, so the scalar is rounded to it).
//
// Each mix cycles through its candidate dtypes by op and dtype, so that
// across the table every pair is seen without running them all.

// mix is one assignment of operand dtypes and the layouts it runs on.
type mix struct {
	name    string
	ins     []dtype.DType
	out     dtype.DType
	layouts func(name string) bool
}

// mixes returns the mixes of Note [Mixed dtypes] for op computed in d.
func mixes(op *optable.Op, d dtype.DType) []mix {
	base := plainCase(op, d, layout{})
	pick := func(cands []dtype.DType, k int) dtype.DType {
		return cands[(int(op.Code)+int(d)+k)%len(cands)]
	}
	// the layouts of the buffered paths: one row, strided, broadcast,
	// crossed, in place; and for the inputs' conversions, across workers
	buffered := func(name string) bool {
		switch {
		case name == "contiguous" || name == "sliced" || name == "crossed" || name == "in-place":
			return true
		}
		return strings.HasPrefix(name, "scalar")
	}
	bufferedLong := func(name string) bool { return name == "long" || buffered(name) }
	var ms []mix
	var lower, other []dtype.DType
	for _, e := range dtype.All {
		if e != d && dtype.Promote(e, d) == d {
			lower = append(lower, e)
		}
		if e != d && e.Category() == d.Category() && d != dtype.Bool {
			other = append(other, e)
		}
	}
	if len(lower) > 0 || op.CondBool {
		ins := append([]dtype.DType{}, base.ins...)
		for k := range ins {
			switch {
			case op.CondBool && k == 0:
				ins[k] = dtype.Uint8
			case len(lower) > 0:
				ins[k] = pick(lower, k)
			}
		}
		names := make([]string, len(ins))
		for k, e := range ins {
			names[k] = e.String()
		}
		ms = append(ms, mix{name: "in-" + strings.Join(names, ","), ins: ins, out: base.out, layouts: bufferedLong})
	}
	var outs []dtype.DType
	for _, e := range dtype.All {
		if e != base.out && dtype.CanCast(base.out, e) {
			outs = append(outs, e)
		}
	}
	if len(outs) > 0 {
		o := pick(outs, 0)
		ms = append(ms, mix{name: "out-" + o.String(), ins: base.ins, out: o, layouts: buffered})
	}
	if last := op.Arity - 1; len(other) > 0 && !(op.CondBool && last == 0) {
		ins := append([]dtype.DType{}, base.ins...)
		ins[last] = pick(other, 0)
		scalar := fmt.Sprintf("scalar%d", last)
		ms = append(ms, mix{name: "0d-" + ins[last].String(), ins: ins, out: base.out,
			layouts: func(name string) bool { return name == scalar }})
	}
	return ms
}

// pointwiseTensors builds the tensors of case c from path's values: the
// inputs, then the output unless it is the receiver. It returns them and
// the output's index.
func pointwiseTensors(c pcase, path []string) ([]*tensor, int) {
	r := rng(path...)
	outSpec, inSpecs := c.l.build(c.op.Arity)
	ts := make([]*tensor, 0, c.op.Arity+1)
	for k, sp := range inSpecs {
		if c.l.inPlace && k == c.op.Receiver {
			sp = outSpec
		}
		ts = append(ts, newTensor(c.ins[k], sp).fill(func() value { return pointwiseValue(r, c.op, k, c.d, c.ins[k]) }))
	}
	if c.l.inPlace {
		return ts, c.op.Receiver
	}
	return append(ts, newTensor(c.out, outSpec).garbage()), c.op.Arity
}

// pointwisePlan builds the plan of c over views vs (inputs first, output at
// out), as the op layer does: the compute dtype fixed, the output given.
func pointwisePlan(c pcase, vs []*raw.View, out int) (*iter.Plan, error) {
	cfg := iter.NewConfig().StaticDType(c.d).AddOutput(vs[out]).CastCommonDTypeToOutputs(true).ResizeOutputs(false)
	for _, v := range vs[:c.op.Arity] {
		cfg.AddInput(v)
	}
	return cfg.Build()
}

// pointwiseTolerance is the tolerance of case c: a few ulps of the coarser
// of its compute and output dtypes (float32 SIMD kernels of exp, tanh,
// sigmoid and gelu are within 4 of the reference, computed in float64),
// one of a 16-bit float, which may differ by a double rounding; a few
// float64 ulps of 1 near zero, the reference's own rounding where its
// float64 formula cancels (gelu's tail, where a float32 SIMD kernel is
// more accurate); and for an op of three inputs computed in a float32
// loop, a few float32 ulps of the inputs' magnitude, since it rounds an
// intermediate in float32 where the reference does not (addcdiv's
// a + value·b/c with a ≈ -value·b/c).
func pointwiseTolerance(c pcase) tolerance {
	tol := tolerance{ulps: 4, in: coarser(c.d, c.out), abs: 4 * 0x1p-52}
	if tol.in.IsReduced() {
		tol.ulps = 1
	}
	if c.op.Arity > 2 && kernel.LoopDType(c.d) == dtype.Float32 {
		tol.scale = 4 * 0x1p-23
	}
	return tol
}

// runner returns the runner of case c whose output is tensor out.
func (c pcase) runner(out int) runner {
	return func(be kernel.Backend, vs []*raw.View) error {
		p, err := pointwisePlan(c, vs, out)
		if err != nil {
			return kitErr("building the plan: %v", err)
		}
		return be.Pointwise(c.op, p, c.args)
	}
}

// runPointwise runs case c, whose values are drawn from path.
func (s *suite) runPointwise(c pcase, path []string) error {
	ts, out := pointwiseTensors(c, path)
	return s.same(ts, []int{out}, pointwiseTolerance(c), c.runner(out), &elementwise{ts, c.op.Arity})
}

// probePointwise runs op computed in d on backend be over one element.
func probePointwise(be kernel.Backend, op *optable.Op, d dtype.DType) error {
	c := plainCase(op, d, layout{build: all(dense(1), same(dense(1)))})
	ts, out := pointwiseTensors(c, []string{"probe"})
	p, err := place(be, ts)
	if err != nil {
		return err
	}
	plan, err := pointwisePlan(c, p.views, out)
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	return be.Pointwise(op, plan, nil)
}

// Note [Split plans]
//
// A backend that indexes with 32-bit integers splits a large plan with
// Plan.With32BitIndexing and runs each piece: sub-plans whose operands
// start at byte offsets into the same storages, of any shape the halving
// leaves. The split32 cases lower the iterator's limit
// (iter.SetMaxIndexForTesting) so that small plans split into several
// pieces, run the backend on every piece, and compare the whole output
// with the reference run on the unsplit plan. The limit is global to package iter, so these cases must
// not run in parallel with others. They run on every op and dtype, on
// layouts with offsets, transposes and guard bands.

// runSplit runs case c on the pieces of its plan (Note [Split plans]).
func (s *suite) runSplit(c pcase, path []string) error {
	ts, out := pointwiseTensors(c, path)
	pieces := func(be kernel.Backend, vs []*raw.View) error {
		p, err := pointwisePlan(c, vs, out)
		if err != nil {
			return kitErr("building the plan: %v", err)
		}
		// pieces of at most a quarter of the elements, and as many bytes
		restore := iter.SetMaxIndexForTesting(max(2, p.NumEl()/4))
		defer restore()
		ps := p.With32BitIndexing()
		if len(ps) < 2 {
			return kitErr("the plan of shape %v was not split", p.Shape())
		}
		for i, q := range ps {
			if err := be.Pointwise(c.op, q, c.args); err != nil {
				return fmt.Errorf("piece %d of %d: %w", i, len(ps), err)
			}
		}
		return nil
	}
	return s.compare(ts, []int{out}, pointwiseTolerance(c), c.runner(out), pieces, &elementwise{ts, c.op.Arity})
}
