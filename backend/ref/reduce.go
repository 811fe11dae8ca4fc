package ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
)

// elem is one input element of a reduction: its value read in the compute
// dtype, and its index along the reduced dim.
type elem struct {
	v   value
	idx int64
}

// Reduce gathers, for every output element, the input elements reduced
// into it (in plan order, so in increasing index along the reduced dim),
// and applies the op's formula to the list in float64 or int64.
func (*Backend) Reduce(code kernel.Code, p *iter.Plan, args *kernel.Args) error {
	if !kernel.IsReduction(code) {
		return errs.New(errs.Value, "ref", "code %d is not a reduction", code)
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	nout := kernel.NumOutputs(code)
	if p.NumOutputs() != nout || p.NumOperands() != nout+1 {
		return errs.New(errs.Value, "ref", "expected %d outputs and 1 input", nout)
	}
	compute := p.CommonDType()
	src := p.Operand(nout).DType
	shape := p.Shape()
	nd := len(shape)
	// the reduced dim whose index the index ops report
	rdim := -1
	for d := 0; d < nd; d++ {
		if p.Operand(0).Strides[d] == 0 && shape[d] > 1 {
			rdim = d
		}
	}
	lists := map[uintptr][]elem{}
	ptrOf := func(k int, idx []int) unsafe.Pointer {
		o := p.Operand(k)
		off := 0
		for d, i := range idx {
			off += i * o.Strides[d]
		}
		return unsafe.Add(p.DataPtr(k), off)
	}
	// every output element, even of an empty reduction
	forEachIndex(shape, func(d int) bool { return p.Operand(0).Strides[d] != 0 }, func(idx []int) {
		key := uintptr(ptrOf(0, idx))
		if _, ok := lists[key]; !ok {
			lists[key] = []elem{}
		}
	})
	forEachIndex(shape, func(int) bool { return true }, func(idx []int) {
		key := uintptr(ptrOf(0, idx))
		v := castTo(load(ptrOf(nout, idx), src), src.IsFloat(), compute)
		var i int64
		if rdim >= 0 {
			i = int64(idx[rdim])
		}
		lists[key] = append(lists[key], elem{v, i})
	})
	var failed error
	// compute each output element once
	forEachIndex(shape, func(d int) bool { return p.Operand(0).Strides[d] != 0 }, func(idx []int) {
		key := uintptr(ptrOf(0, idx))
		l, ok := lists[key]
		if !ok {
			return
		}
		delete(lists, key)
		r, ri, isFloat, err := reduceList(code, l, compute, args)
		if err != nil {
			failed = err
			return
		}
		out := p.Operand(0).DType
		switch code {
		case kernel.ArgMax, kernel.ArgMin:
			store(ptrOf(0, idx), out, value{float64(ri), ri}, false)
		default:
			store(ptrOf(0, idx), out, r, isFloat)
		}
		if nout == 2 {
			store(ptrOf(1, idx), p.Operand(1).DType, value{float64(ri), ri}, false)
		}
	})
	return failed
}

// forEachIndex calls fn with every multi-index of shape, dim 0 fastest;
// dims where walk is false stay at 0.
func forEachIndex(shape []int, walk func(d int) bool, fn func(idx []int)) {
	for d, s := range shape {
		if s == 0 && walk(d) {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		fn(idx)
		d := 0
		for ; d < len(shape); d++ {
			if !walk(d) {
				continue
			}
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d == len(shape) {
			return
		}
	}
}

// reduceList applies a reduction to its elements: the result (float or
// int per isFloat) and, for the index ops, the index.
func reduceList(code kernel.Code, l []elem, compute dtype.DType, args *kernel.Args) (r value, idx int64, isFloat bool, err error) {
	isFloat = compute.IsFloat()
	n := float64(len(l))
	switch code {
	case kernel.Sum, kernel.NanSum, kernel.Mean:
		for _, e := range l {
			if code == kernel.NanSum && math.IsNaN(e.v.f) {
				continue
			}
			r.f += e.v.f
			r.i += e.v.i
		}
		if code == kernel.Mean {
			s := r.f
			if compute.IsReduced() {
				s = roundTo(value{f: s}, compute).f
			}
			r.f = s / n
		}
	case kernel.Prod:
		r = value{1, 1}
		for _, e := range l {
			r.f *= e.v.f
			r.i *= e.v.i
		}
	case kernel.Amax, kernel.Amin, kernel.Max, kernel.Min, kernel.ArgMax, kernel.ArgMin:
		if len(l) == 0 {
			return r, 0, isFloat, errs.New(errs.Index, "ref", "reduction over no elements")
		}
		isMax := code == kernel.Amax || code == kernel.Max || code == kernel.ArgMax
		best := l[0]
		for _, e := range l[1:] {
			if isFloat {
				if math.IsNaN(best.v.f) {
					break
				}
				if math.IsNaN(e.v.f) || isMax && e.v.f > best.v.f || !isMax && e.v.f < best.v.f {
					best = e
				}
			} else if isMax && e.v.i > best.v.i || !isMax && e.v.i < best.v.i {
				best = e
			}
		}
		r, idx = best.v, best.idx
	case kernel.Var, kernel.Std:
		var mean float64
		for _, e := range l {
			mean += e.v.f
		}
		mean /= n
		var m2 float64
		for _, e := range l {
			m2 += (e.v.f - mean) * (e.v.f - mean)
		}
		if len(l) == 0 {
			m2 = 0
		}
		r.f = m2 / math.Max(n-args.Correction, 0)
		if code == kernel.Std {
			r.f = math.Sqrt(r.f)
		}
	case kernel.Norm:
		pp := args.P
		switch {
		case math.IsInf(pp, 1):
			for _, e := range l {
				r.f = maxNaN(r.f, math.Abs(e.v.f))
			}
		case math.IsInf(pp, -1):
			r.f = math.Inf(1)
			for _, e := range l {
				r.f = -maxNaN(-r.f, -math.Abs(e.v.f))
			}
		case pp == 0:
			for _, e := range l {
				if e.v.f != 0 {
					r.f++
				}
			}
		default:
			for _, e := range l {
				r.f += math.Pow(math.Abs(e.v.f), pp)
			}
			r.f = math.Pow(r.f, 1/pp)
		}
	case kernel.LogSumExp:
		m := math.Inf(-1)
		for _, e := range l {
			m = maxNaN(m, e.v.f)
		}
		shift := m
		if math.IsInf(m, 0) {
			shift = 0
		}
		var s float64
		for _, e := range l {
			s += math.Exp(e.v.f - shift)
		}
		r.f = math.Log(s) + shift
	case kernel.All, kernel.Any:
		all, any := true, false
		for _, e := range l {
			nz := e.v.i != 0
			if isFloat {
				nz = e.v.f != 0 || math.IsNaN(e.v.f)
			}
			all, any = all && nz, any || nz
		}
		b := all
		if code == kernel.Any {
			b = any
		}
		return value{b2f(b), b2i(b)}, 0, false, nil
	case kernel.CountNonzero:
		var c int64
		for _, e := range l {
			if isFloat && (e.v.f != 0 || math.IsNaN(e.v.f)) || !isFloat && e.v.i != 0 {
				c++
			}
		}
		return value{float64(c), c}, 0, false, nil
	default:
		return r, 0, isFloat, errs.New(errs.Value, "ref", "unknown reduction %d", code)
	}
	if isFloat {
		r = roundTo(r, compute)
	}
	return r, idx, isFloat, nil
}

// Scan runs a scan or row op one row at a time, in float64 or int64.
func (*Backend) Scan(code kernel.Code, p *iter.Plan, args *kernel.Args) error {
	if !kernel.IsScan(code) {
		return errs.New(errs.Value, "ref", "code %d is not a scan", code)
	}
	nout := kernel.NumOutputs(code)
	compute := p.CommonDType()
	isFloat := compute.IsFloat()
	dim := args.Dim
	ops := make([]*iter.Operand, p.NumOperands())
	for k := range ops {
		ops[k] = p.Operand(k)
	}
	in := ops[nout]
	n := in.View.Shape[dim]
	read := func(o *iter.Operand, base unsafe.Pointer, j int) value {
		v := load(unsafe.Add(base, j*o.View.Strides[dim]*o.DType.Size()), o.DType)
		return castTo(v, o.DType.IsFloat(), compute)
	}
	var failed error
	walk(p, func(ptrs []unsafe.Pointer) {
		x := make([]value, n)
		for j := range x {
			x[j] = read(in, ptrs[nout], j)
		}
		y := make([]value, n)
		yi := make([]int64, n)
		switch code {
		case kernel.CumSum, kernel.CumProd:
			acc := value{0, 0}
			if code == kernel.CumProd {
				acc = value{1, 1}
			}
			for j := range x {
				if code == kernel.CumSum {
					acc.f += x[j].f
					acc.i += x[j].i
				} else {
					acc.f *= x[j].f
					acc.i *= x[j].i
				}
				y[j] = acc
			}
		case kernel.CumMax, kernel.CumMin:
			for j := range x {
				if j == 0 {
					y[j], yi[j] = x[j], 0
					continue
				}
				best, bi := y[j-1], yi[j-1]
				var take bool
				if isFloat {
					take = !math.IsNaN(best.f) && (math.IsNaN(x[j].f) || code == kernel.CumMax && x[j].f >= best.f || code == kernel.CumMin && x[j].f <= best.f)
				} else {
					take = code == kernel.CumMax && x[j].i >= best.i || code == kernel.CumMin && x[j].i <= best.i
				}
				if take {
					best, bi = x[j], int64(j)
				}
				y[j], yi[j] = best, bi
			}
		case kernel.LogCumSumExp:
			acc := math.Inf(-1)
			for j := range x {
				acc = logAddExp(acc, x[j].f)
				y[j].f = acc
			}
		case kernel.Softmax, kernel.LogSoftmax:
			m := math.Inf(-1)
			for _, v := range x {
				m = maxNaN(m, v.f)
			}
			var s float64
			for _, v := range x {
				s += math.Exp(v.f - m)
			}
			for j, v := range x {
				if code == kernel.Softmax {
					y[j].f = math.Exp(v.f-m) / s
				} else {
					y[j].f = v.f - m - math.Log(s)
				}
			}
		case kernel.LayerNorm:
			var mean, m2 float64
			for _, v := range x {
				mean += v.f
			}
			mean /= float64(n)
			for _, v := range x {
				m2 += (v.f - mean) * (v.f - mean)
			}
			rstd := 1 / math.Sqrt(m2/float64(n)+args.Eps)
			k := nout + 1
			for j, v := range x {
				y[j].f = (v.f - mean) * rstd
				if args.HasWeight {
					y[j].f *= read(ops[k], ptrs[k], j).f
				}
				if args.HasBias {
					kb := k
					if args.HasWeight {
						kb++
					}
					y[j].f += read(ops[kb], ptrs[kb], j).f
				}
			}
		default:
			failed = errs.New(errs.Value, "ref", "unknown scan %d", code)
			return
		}
		o := ops[0]
		for j := range y {
			r := y[j]
			if isFloat {
				r = roundTo(r, compute)
			}
			store(unsafe.Add(ptrs[0], j*o.View.Strides[dim]*o.DType.Size()), o.DType, r, isFloat)
			if nout == 2 {
				o1 := ops[1]
				store(unsafe.Add(ptrs[1], j*o1.View.Strides[dim]*o1.DType.Size()), o1.DType, value{float64(yi[j]), yi[j]}, false)
			}
		}
	})
	return failed
}

func logAddExp(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	m := math.Max(a, b)
	if math.IsInf(m, 0) {
		return m
	}
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}
