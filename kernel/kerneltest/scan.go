package kerneltest

import (
	"fmt"
	"math/rand/v2"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The scan and row cases: every op of kind Scan or Row × every compute
// dtype (refused where the reference refuses) × every dim of inputs of
// several shapes (rows of length 1, empty rows and row sets, rows long
// enough for SIMD, outer dims, groups of rows scanned together) ×
// layouts, on row plans (Note [Row plans] in package kernel): contiguous,
// transposed (input and outputs in reverse memory order), strided (every
// other element of larger storages, guard bands in the outputs'), and
// broadcast (the input's dim 0 of stride 0). layer_norm runs without and
// with weight and bias, rows of the weight's shape broadcast over the
// others; cummax and cummin write their int64 indices. Specials (NaN,
// ±Inf) reach the rows' slow paths, mixed dtypes the row conversions, and
// in normal mode larger inputs the parallel split over rows and a
// backend's scan across columns.

// scans adds the scan and row op cases.
func (s *suite) scans() {
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Scan && op.Kind != optable.Row {
			continue
		}
		for _, a := range scanArgs(op) {
			for _, d := range dtype.All {
				path := []string{"scan", a.name, d.String()}
				base := scase{op: op, args: a.args, d: d, in: d, out: d, gen: foldValue}
				probe := func(be kernel.Backend) error { return probeScan(be, base) }
				if s.runs(probe(s.ref), path, probe) {
					s.scanMatrix(base, path)
				}
			}
		}
	}
}

// scanArgs returns the arguments op runs with, named: layer_norm without
// and with its weight and bias operands (kernel.Args.HasWeight, HasBias),
// and its rows' statistics (kernel.Args.Moment).
// Every op gets an eps, which only layer_norm reads.
func scanArgs(op *optable.Op) []namedArgs {
	a := kernel.DefaultArgs
	a.Eps = 1e-5
	if op != optable.LayerNorm {
		return []namedArgs{{op.Go, a}}
	}
	var r []namedArgs
	for _, v := range []struct {
		name   string
		w, b   bool
		moment kernel.Moment
	}{{"", false, false, kernel.MomentNone}, {"(weight)", true, false, kernel.MomentNone}, {"(bias)", false, true, kernel.MomentNone},
		{"(weight,bias)", true, true, kernel.MomentNone}, {"(mean)", false, false, kernel.MomentMean}, {"(rstd)", false, false, kernel.MomentRstd},
		{"(mean,rstd)", false, false, kernel.MomentBoth}} {
		a.HasWeight, a.HasBias, a.Moment = v.w, v.b, v.moment
		r = append(r, namedArgs{op.Go + v.name, a})
	}
	return r
}

// scase is one scan case: op computed in d along dim of an input of dtype
// in and shape shape, into outputs of dtype out (and int64 indices).
type scase struct {
	op      *optable.Op
	args    kernel.Args
	d       dtype.DType
	in, out dtype.DType
	shape   []int
	dim     int
	layout  string
	gen     func(r *rand.Rand, d dtype.DType) value
}

// scanShapes are the inputs of every scan, along each of their dims.
var scanShapes = [][]int{{1}, {7}, {3, 5}, rows, {70, 9}, {2, 3, 4}, {3, 1100}, {0, 3}, {3, 0}, {19, 66}}

// rows also carries the cases of special values and mixed dtypes.
var rows = []int{9, 70}

// scanLayouts lay out a scan's input and outputs.
var scanLayouts = []string{"contiguous", "transposed", "strided", "broadcast"}

// scanMatrix adds the cases of base (op, arguments and compute dtype)
// under path.
func (s *suite) scanMatrix(base scase, path []string) {
	add := func(c scase, name string) {
		p := append(append([]string{}, path...), name)
		s.add(func() error { return s.runScan(c, p) }, p...)
	}
	each := func(shapes [][]int, layouts []string, fn func(c scase, name string)) {
		for _, sh := range shapes {
			for dim := range sh {
				for _, l := range layouts {
					c := base
					c.shape, c.dim, c.layout = sh, dim, l
					fn(c, fmt.Sprintf("%s-dim%d-%s", shapeName(sh), dim, l))
				}
			}
		}
	}
	each(scanShapes, scanLayouts, add)
	if !s.short {
		each([][]int{{40, 2100}}, []string{"contiguous"}, add)
	}
	if base.d.IsFloat() {
		each([][]int{rows}, []string{"contiguous"}, func(c scase, name string) {
			c.gen = specialValue
			add(c, "specials-"+name)
		})
	}
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
	mixed := [][]int{rows}
	if len(lower) > 0 {
		each(mixed, []string{"contiguous", "strided"}, func(c scase, name string) {
			c.in = pick(lower)
			add(c, "in-"+c.in.String()+"-"+name)
		})
	}
	if len(outs) > 0 {
		each(mixed, []string{"contiguous", "strided"}, func(c scase, name string) {
			c.out = pick(outs)
			add(c, "out-"+c.out.String()+"-"+name)
		})
	}
}

// outputSpec lays out a scan's output of shape sh: as its input, but
// dense where the input is broadcast (outputs never are).
func outputSpec(sh []int, layout string) spec {
	if layout == "broadcast" {
		return dense(sh...)
	}
	return inputSpec(sh, layout)
}

// rowSpec is a row along dim broadcast over the other dims of sh: the
// layout of layer_norm's weight and bias.
func rowSpec(sh []int, dim int) spec {
	st := make([]int, len(sh))
	st[dim] = 1
	return strided(sh, st, 0, 0)
}

// scanTensors builds the input (tensor 0), layer_norm's weight and bias,
// then the outputs of c; it returns them and the outputs' indices.
func scanTensors(c scase, path []string) ([]*tensor, []int) {
	r := rng(path...)
	ts := []*tensor{newTensor(c.in, inputSpec(c.shape, c.layout)).fill(func() value { return c.gen(r, c.in) })}
	for _, has := range []bool{c.args.HasWeight, c.args.HasBias} {
		if has {
			ts = append(ts, newTensor(c.d, rowSpec(c.shape, c.dim)).fill(func() value { return c.gen(r, c.d) }))
		}
	}
	outs := []int{len(ts)}
	ts = append(ts, newTensor(c.out, outputSpec(c.shape, c.layout)).garbage())
	if c.op.Outputs == 2 {
		outs = append(outs, len(ts))
		ts = append(ts, newTensor(dtype.Int64, outputSpec(c.shape, c.layout)).garbage())
	}
	return ts, outs
}

// scanPlan builds the row plan of c over views vs (inputs first, then the
// outputs at outs), as the op layer does.
func scanPlan(c scase, vs []*raw.View, outs []int) (*iter.Plan, *kernel.Args, error) {
	cfg := iter.NewConfig().StaticShapeSquash(c.shape, c.dim).StaticDType(c.d).CheckMemOverlap(false)
	for _, k := range outs {
		cfg.AddOutput(vs[k])
	}
	for _, v := range vs[:outs[0]] {
		cfg.AddInput(v)
	}
	p, err := cfg.Build()
	args := c.args
	args.Dim = c.dim
	return p, &args, err
}

// runScan runs case c, whose values are drawn from path.
func (s *suite) runScan(c scase, path []string) error {
	ts, outs := scanTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error {
		p, args, err := scanPlan(c, vs, outs)
		if err != nil {
			return kitErr("building the plan: %v", err)
		}
		return be.Scan(c.op, p, args)
	}
	return s.same(ts, outs, foldTolerance(coarser(c.d, c.out)), run, nil)
}

// probeScan runs c's op computed in c.d on backend be over one element.
func probeScan(be kernel.Backend, c scase) error {
	c.shape, c.dim, c.layout = []int{1}, 0, "contiguous"
	ts, outs := scanTensors(c, []string{"probe"})
	p, err := place(be, ts)
	if err != nil {
		return err
	}
	plan, args, err := scanPlan(c, p.views, outs)
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	return be.Scan(c.op, plan, args)
}
