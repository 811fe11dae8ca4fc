package ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Reduce gathers, for every output element, the input elements reduced
// into it (in plan order, so in increasing index along the reduced dim),
// and folds the list with the op's fold.
func (*Backend) Reduce(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if args == nil {
		args = &kernel.DefaultArgs
	}
	fold := reductions[op.Code]
	if op.Kind != optable.Reduction || fold == nil {
		return errs.New(errs.Value, op.Name, "%s is not a reduction with a kernel", op.Name)
	}
	nout := op.Outputs
	if p.NumOutputs() != nout || p.NumOperands() != nout+1 {
		return errs.New(errs.Value, op.Name, "expected %d outputs and 1 input", nout)
	}
	compute := p.CommonDType()
	src := p.Operand(nout).DType
	shape := p.Shape()
	// the reduced dim whose index the index ops report
	rdim := -1
	for d := range shape {
		if p.Operand(0).Strides[d] == 0 && shape[d] > 1 {
			rdim = d
		}
	}
	kept := func(d int) bool { return p.Operand(0).Strides[d] != 0 }
	lists := map[uintptr][]item{}
	// every output element, even of an empty reduction
	forEachIndex(shape, kept, func(idx []int) {
		lists[uintptr(at(p, 0, idx))] = []item{}
	})
	forEachIndex(shape, all, func(idx []int) {
		key := uintptr(at(p, 0, idx))
		v := castTo(load(at(p, nout, idx), src), src.IsFloat(), compute)
		var i int64
		if rdim >= 0 {
			i = int64(idx[rdim])
		}
		lists[key] = append(lists[key], item{v, i})
	})
	c := elem.Ctx{Correction: args.Correction, P: args.P}
	if compute.IsReduced() {
		c.RoundTo = compute
	}
	var failed error
	forEachIndex(shape, kept, func(idx []int) {
		key := uintptr(at(p, 0, idx))
		l, ok := lists[key]
		if !ok {
			return // an output element that several plan positions share, done
		}
		delete(lists, key)
		c.N = len(l)
		r, ri, isFloat, ok := fold(l, compute, &c)
		if !ok {
			failed = errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), compute)
			return
		}
		if isFloat {
			r = castTo(r, true, compute)
		}
		store(at(p, 0, idx), p.Operand(0).DType, r, isFloat)
		if nout == 2 {
			store(at(p, 1, idx), p.Operand(1).DType, intValue(ri), false)
		}
	})
	return failed
}

// Scan runs a scan or row op one row at a time: the row gathered and
// converted to the compute dtype, scanned by the op's fold (or, for a row
// op, computed in float64 by the formula its table entry states), and
// written back.
func (*Backend) Scan(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if args == nil {
		args = &kernel.DefaultArgs
	}
	if op.Kind != optable.Scan && op.Kind != optable.Row {
		return errs.New(errs.Value, op.Name, "%s is not a scan or row op", op.Name)
	}
	nout := op.Outputs
	compute := p.CommonDType()
	args = args.ForCompute(op, compute)
	if !op.Accept(compute) {
		return errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), compute)
	}
	dim := args.Dim
	n := p.Operand(nout).View.Shape[dim]
	// element j of operand k's row that starts at plan index idx
	elemAt := func(k int, idx []int, j int) unsafe.Pointer {
		o := p.Operand(k)
		return unsafe.Add(at(p, k, idx), j*o.View.Strides[dim]*o.DType.Size())
	}
	read := func(k int, idx []int) []item {
		d := p.Operand(k).DType
		row := make([]item, n)
		for j := range row {
			row[j] = item{castTo(load(elemAt(k, idx, j), d), d.IsFloat(), compute), int64(j)}
		}
		return row
	}
	var failed error
	forEachIndex(p.Shape(), all, func(idx []int) {
		var ys []value
		var is []int64
		isFloat, ok := true, true
		x := read(nout, idx)
		if op.Kind == optable.Scan {
			ys, is, isFloat, ok = scans[op.Code](x, compute)
		} else {
			var w, b []item
			k := nout + 1
			if args.HasWeight {
				w = read(k, idx)
				k++
			}
			if args.HasBias {
				b = read(k, idx)
			}
			ys, ok = rowOp(op, x, w, b, args)
		}
		if !ok {
			failed = errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), compute)
			return
		}
		for j, y := range ys {
			if isFloat {
				y = castTo(y, true, compute)
			}
			store(elemAt(0, idx, j), p.Operand(0).DType, y, isFloat)
			if nout == 2 {
				store(elemAt(1, idx, j), p.Operand(1).DType, intValue(is[j]), false)
			}
		}
	})
	return failed
}

// fillMoment fills y with mean or rstd, or both, as m asks (Args.Moment).
func fillMoment(y []value, mean, rstd float64, m kernel.Moment) []value {
	v := mean
	if m != kernel.MomentMean {
		v = rstd
	}
	for j := range y {
		y[j] = floatValue(v)
	}
	if m == kernel.MomentBoth && len(y) > 0 {
		y[0] = floatValue(mean)
	}
	return y
}

// rowOp computes a row op over x in float64: softmax, log_softmax (its
// sum and log rounded to args.LogSumRound when valid: Note [bfloat16
// log_softmax] in package op), or layer_norm with optional weight w and
// bias b (epsilon args.Eps).
func rowOp(op *optable.Op, x, w, b []item, args *kernel.Args) ([]value, bool) {
	eps := args.Eps
	n := float64(len(x))
	y := make([]value, len(x))
	switch op {
	case optable.Softmax, optable.LogSoftmax:
		m := math.Inf(-1)
		for _, v := range x {
			if math.IsNaN(v.v.f) || v.v.f > m {
				m = v.v.f
			}
			if math.IsNaN(m) {
				break
			}
		}
		var s float64
		for _, v := range x {
			s += math.Exp(v.v.f - m)
		}
		ls := elem.LogSum(s, args.LogSumRound)
		for j, v := range x {
			if op == optable.Softmax {
				y[j] = floatValue(math.Exp(v.v.f-m) / s)
			} else {
				y[j] = floatValue(v.v.f - m - ls)
			}
		}
	case optable.LayerNorm:
		if args.BF16Steps && args.Moment != kernel.MomentNone {
			mean, rstd := elem.LayerNormMomentsBF16(float32s(x), eps, nil)
			return fillMoment(y, float64(mean), float64(rstd), args.Moment), true
		}
		if args.BF16Steps {
			ys := make([]float32, len(x))
			elem.LayerNormRowBF16(ys, float32s(x), float32s(w), float32s(b), eps, nil)
			for j, r := range ys {
				y[j] = floatValue(float64(r))
			}
			break
		}
		var mean, m2 float64
		for _, v := range x {
			mean += v.v.f
		}
		mean /= n
		for _, v := range x {
			m2 += (v.v.f - mean) * (v.v.f - mean)
		}
		rstd := 1 / math.Sqrt(m2/n+eps)
		if args.Moment != kernel.MomentNone {
			return fillMoment(y, mean, rstd, args.Moment), true
		}
		for j, v := range x {
			r := (v.v.f - mean) * rstd
			if w != nil {
				r *= w[j].v.f
			}
			if b != nil {
				r += b[j].v.f
			}
			y[j] = floatValue(r)
		}
	default:
		return nil, false
	}
	return y, true
}

// float32s returns the values of items as float32 (nil for none).
func float32s(items []item) []float32 {
	if items == nil {
		return nil
	}
	r := make([]float32, len(items))
	for j, v := range items {
		r[j] = float32(v.v.f)
	}
	return r
}
