package ref

import (
	"math"
	"sort"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// The index, gather, mask, sort and random kernels, one element at a time
// in plan order (Notes [Index plans], [Gather plans], [Mask plans], [Sort
// plans] and [Random streams] in package kernel). Indices are all checked
// before anything is written; a combine evaluates the table's element
// function of the Combine op, as Pointwise does.

func outOfBounds(op *optable.Op, i int64, dim, size int) error {
	return errs.New(errs.Index, op.Name, "index %d is out of bounds for dimension %d with size %d", i, dim, size)
}

// combine returns dst's new value when v is written over old: v itself,
// or the Combine op's element function of (old, v) rounded to compute.
func combine(op *optable.Op, old, v value, compute dtype.DType, args *kernel.Args) (value, bool, error) {
	c := op.Combine
	if c == nil {
		return v, compute.IsFloat(), nil
	}
	x := [3]value{old, v}
	r, isFloat, ok := evals[c.Code](&x, compute, args)
	if !ok {
		return value{}, false, errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), compute)
	}
	if isFloat {
		r = castTo(r, true, compute)
	}
	return r, isFloat, nil
}

// Index runs an index op over an index plan.
func (*Backend) Index(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	nidx := p.NumOperands() - 2
	if op.Kind != optable.Index || p.NumOutputs() != 1 || nidx < 0 || nidx != len(args.IndexSizes) || nidx != len(args.IndexStrides) {
		return errs.New(errs.Value, op.Name, "%s: not an index plan", op.Name)
	}
	compute := p.CommonDType()
	dt := p.Operand(0).DType
	if p.Operand(1).DType != dt {
		return errs.New(errs.DType, op.Name, "index operands of dtypes %s and %s", dt, p.Operand(1).DType)
	}
	// the byte offset each plan position adds to the indexed operand, all
	// checked first
	var deltas []int
	var failed error
	forEachIndex(p.Shape(), all, func(idx []int) {
		delta := 0
		for k := 0; k < nidx; k++ {
			i := *(*int64)(at(p, 2+k, idx))
			size := args.IndexSizes[k]
			if i < -int64(size) || i >= int64(size) || args.NoWrap && i < 0 {
				if failed == nil {
					failed = outOfBounds(op, i, indexDim(args, k), size)
				}
				return
			}
			if i < 0 {
				i += int64(size)
			}
			delta += int(i) * args.IndexStrides[k]
		}
		deltas = append(deltas, delta)
	})
	if failed != nil {
		return failed
	}
	n := 0
	forEachIndex(p.Shape(), all, func(idx []int) {
		delta := deltas[n]
		n++
		if failed != nil {
			return
		}
		if !op.Put {
			copyElem(at(p, 0, idx), unsafe.Add(at(p, 1, idx), delta), dt)
			return
		}
		dst := unsafe.Add(at(p, 0, idx), delta)
		r, isFloat, err := combine(op, castTo(load(dst, dt), dt.IsFloat(), compute), castTo(load(at(p, 1, idx), dt), dt.IsFloat(), compute), compute, args)
		if err != nil {
			failed = err
			return
		}
		store(dst, dt, r, isFloat)
	})
	return failed
}

func indexDim(args *kernel.Args, k int) int {
	if k < len(args.IndexDims) {
		return args.IndexDims[k]
	}
	return k
}

// copyElem copies one element of dtype d.
func copyElem(dst, src unsafe.Pointer, d dtype.DType) {
	copy(unsafe.Slice((*byte)(dst), d.Size()), unsafe.Slice((*byte)(src), d.Size()))
}

// rowAt returns the address of element t along args.Dim of operand k, from
// the row's start at plan position idx.
func rowAt(p *iter.Plan, k int, idx []int, dim, t int) unsafe.Pointer {
	o := p.Operand(k)
	return unsafe.Add(at(p, k, idx), t*o.View.Strides[dim]*o.DType.Size())
}

// Gather runs a gather op along args.Dim of a gather plan.
func (*Backend) Gather(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Gather || p.NumOutputs() != 1 || p.NumOperands() != 3 {
		return errs.New(errs.Value, op.Name, "%s: not a gather plan", op.Name)
	}
	dim := args.Dim
	for k := 0; k < 3; k++ {
		if dim < 0 || dim >= p.Operand(k).View.Dim() {
			return errs.New(errs.Index, op.Name, "dim %d out of range for operand %d", dim, k)
		}
	}
	compute := p.CommonDType()
	dt := p.Operand(0).DType
	if p.Operand(2).DType != dt || p.Operand(1).DType != dtype.Int64 {
		return errs.New(errs.DType, op.Name, "gather operands of dtypes %s, %s, %s", dt, p.Operand(1).DType, p.Operand(2).DType)
	}
	indexed := 2
	if op.Put {
		indexed = 0
	}
	n := p.Operand(1).View.Shape[dim]
	size := p.Operand(indexed).View.Shape[dim]
	var failed error
	forEachIndex(p.Shape(), all, func(idx []int) {
		for t := 0; t < n && failed == nil; t++ {
			if j := *(*int64)(rowAt(p, 1, idx, dim, t)); j < 0 || j >= int64(size) {
				failed = outOfBounds(op, j, dim, size)
			}
		}
	})
	if failed != nil {
		return failed
	}
	forEachIndex(p.Shape(), all, func(idx []int) {
		for t := 0; t < n && failed == nil; t++ {
			j := int(*(*int64)(rowAt(p, 1, idx, dim, t)))
			if !op.Put {
				copyElem(rowAt(p, 0, idx, dim, t), rowAt(p, 2, idx, dim, j), dt)
				continue
			}
			dst := rowAt(p, 0, idx, dim, j)
			r, isFloat, err := combine(op, castTo(load(dst, dt), dt.IsFloat(), compute),
				castTo(load(rowAt(p, 2, idx, dim, t), dt), dt.IsFloat(), compute), compute, &kernel.DefaultArgs)
			if err != nil {
				failed = err
				return
			}
			store(dst, dt, r, isFloat)
		}
	})
	return failed
}

// packedAt returns the address of element (k, m) of the packed operand
// kop of a mask plan.
func packedAt(p *iter.Plan, args *kernel.Args, kop, k, m int) unsafe.Pointer {
	o := p.Operand(kop)
	off := k * args.Packed[0]
	if m > 0 {
		off += m * args.Packed[1]
	}
	return unsafe.Add(o.Storage.Pointer(), o.Offset+off*o.DType.Size())
}

// Mask runs a mask op over a mask plan, in row-major order.
func (*Backend) Mask(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Mask || p.NumOutputs() != 1 || p.NumOperands() != op.Arity+1 || len(args.Packed) == 0 {
		return errs.New(errs.Value, op.Name, "%s: not a mask plan", op.Name)
	}
	dt := p.Operand(0).DType
	k := 0
	switch op {
	case optable.MaskedSelect, optable.MaskedScatter:
		if p.Operand(1).DType != dt || p.Operand(2).DType != dtype.Bool {
			return errs.New(errs.DType, op.Name, "mask operands of dtypes %s, %s, %s", dt, p.Operand(1).DType, p.Operand(2).DType)
		}
		limit := args.PackedLen
		n := 0
		forEachIndex(p.Shape(), all, func(idx []int) {
			if *(*bool)(at(p, 2, idx)) {
				n++
			}
		})
		if n > limit {
			return errs.New(errs.Shape, op.Name, "the mask selects %d elements, the packed operand holds %d", n, limit)
		}
		forEachIndex(p.Shape(), all, func(idx []int) {
			if *(*bool)(at(p, 2, idx)) {
				if op == optable.MaskedSelect {
					copyElem(packedAt(p, args, 0, k, 0), at(p, 1, idx), dt)
				} else {
					copyElem(at(p, 0, idx), packedAt(p, args, 1, k, 0), dt)
				}
				k++
			}
		})
		return nil
	case optable.Nonzero:
		x := p.Operand(1)
		if dt != dtype.Int64 {
			return errs.New(errs.DType, op.Name, "nonzero writes int64, not %s", dt)
		}
		sh := x.View.Shape
		limit := args.PackedLen
		coords := make([]int, len(sh))
		var failed error
		forEachIndex(p.Shape(), all, func(idx []int) {
			v := load(at(p, 1, idx), x.DType)
			if (v.f != 0 || math.IsNaN(v.f) || v.i != 0) && failed == nil {
				if k >= limit || len(coords) > 1 && len(args.Packed) < 2 {
					failed = errs.New(errs.Shape, op.Name, "more nonzero elements than the %d rows of the output", limit)
					return
				}
				for m, c := range coords {
					*(*int64)(packedAt(p, args, 0, k, m)) = int64(c)
				}
				k++
			}
			// the next row-major coordinates
			for d := len(sh) - 1; d >= 0; d-- {
				if coords[d]++; coords[d] < sh[d] {
					break
				}
				coords[d] = 0
			}
		})
		return failed
	}
	return errs.New(errs.Value, op.Name, "%s has no mask kernel", op.Name)
}

// less orders two values of dtype d as the sorts do: ascending, NaN above
// everything (NaNs equal), -0 equal to +0.
func less(a, b value, d dtype.DType) bool {
	if !d.IsFloat() {
		return a.i < b.i
	}
	switch {
	case math.IsNaN(a.f):
		return false
	case math.IsNaN(b.f):
		return true
	}
	return a.f < b.f
}

// Sort runs a sort op along args.Dim of a row plan.
func (*Backend) Sort(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	nout := op.Outputs
	if op.Kind != optable.Sort || p.NumOutputs() != nout || p.NumOperands() != nout+op.Arity {
		return errs.New(errs.Value, op.Name, "%s: not a sort plan", op.Name)
	}
	dim := args.Dim
	for k := 0; k < p.NumOperands(); k++ {
		if dim < 0 || dim >= p.Operand(k).View.Dim() {
			return errs.New(errs.Index, op.Name, "dim %d out of range for operand %d", dim, k)
		}
	}
	d := p.CommonDType()
	if !op.Accept(d) {
		return errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), d)
	}
	if op == optable.SearchSorted {
		return searchSorted(p, args)
	}
	in := p.Operand(nout)
	if in.DType != d || p.Operand(0).DType != d || p.Operand(1).DType != dtype.Int64 {
		return errs.New(errs.DType, op.Name, "sort operands of dtypes %s, %s, %s", p.Operand(0).DType, p.Operand(1).DType, in.DType)
	}
	n := in.View.Shape[dim]
	m := p.Operand(0).View.Shape[dim]
	var failed error
	forEachIndex(p.Shape(), all, func(idx []int) {
		row := make([]item, n)
		for t := range row {
			row[t] = item{load(rowAt(p, nout, idx, dim, t), d), int64(t)}
		}
		sort.SliceStable(row, func(a, b int) bool {
			if args.Descending && op != optable.KthValue && op != optable.Median && op != optable.NanMedian {
				return less(row[b].v, row[a].v, d)
			}
			return less(row[a].v, row[b].v, d)
		})
		var pick []item
		switch op {
		case optable.SortOp:
			if m > n {
				failed = errs.New(errs.Index, op.Name, "selected index k out of range")
				return
			}
			pick = row[:m]
		case optable.TopK:
			if m > n {
				failed = errs.New(errs.Index, op.Name, "selected index k out of range")
				return
			}
			// PyTorch's selection on the row in its own order, not the
			// sort's, each element keyed by the rank of its value in the
			// sort, best first (Note [topk's tie order])
			ranked := make([]kernel.Ranked, n)
			rank := uint64(0)
			for j, it := range row {
				if j > 0 && (less(row[j-1].v, it.v, d) || less(it.v, row[j-1].v, d)) {
					rank++
				}
				ranked[it.idx] = kernel.Ranked{Key: rank, Pos: int(it.idx)}
			}
			kernel.TopKOrder(ranked, m)
			for j, r := range ranked[:m] {
				row[j] = item{load(rowAt(p, nout, idx, dim, r.Pos), d), int64(r.Pos)}
			}
			pick = row[:m]
		case optable.KthValue:
			if args.K < 1 || args.K > n {
				failed = errs.New(errs.Index, op.Name, "selected number k out of range")
				return
			}
			// PyTorch's selection on the row in its own order, not the
			// sort's (Note [kthvalue's tie order])
			for t := range row {
				row[t] = item{load(rowAt(p, nout, idx, dim, t), d), int64(t)}
			}
			kernel.QuickSelect(n, args.K-1, func(i, j int) bool { return less(row[j].v, row[i].v, d) },
				func(i, j int) { row[i], row[j] = row[j], row[i] })
			pick = row[args.K-1 : args.K]
		case optable.Median, optable.NanMedian:
			if n == 0 {
				failed = errs.New(errs.Index, op.Name, "median of an empty row")
				return
			}
			nums := n
			for nums > 0 && d.IsFloat() && math.IsNaN(row[nums-1].v.f) {
				nums--
			}
			switch {
			case nums < n && (op == optable.Median || nums == 0):
				pick = row[nums : nums+1] // the first NaN: the sort is stable
			default:
				pick = row[(nums-1)/2 : (nums-1)/2+1]
			}
		}
		for t, it := range pick {
			store(rowAt(p, 0, idx, dim, t), d, it.v, d.IsFloat())
			store(rowAt(p, 1, idx, dim, t), dtype.Int64, intValue(it.idx), false)
		}
	})
	return failed
}

// searchSorted runs SearchSorted: for each value of a row, the bisection
// of Note [Sort plans] over the sequence's row.
func searchSorted(p *iter.Plan, args *kernel.Args) error {
	dim := args.Dim
	d := p.CommonDType()
	out := p.Operand(0).DType
	if p.Operand(1).DType != d || p.Operand(2).DType != d || (out != dtype.Int64 && out != dtype.Int32) {
		return errs.New(errs.DType, "searchsorted", "searchsorted operands of dtypes %s, %s, %s", out, p.Operand(1).DType, p.Operand(2).DType)
	}
	m := p.Operand(1).View.Shape[dim]
	nv := p.Operand(2).View.Shape[dim]
	forEachIndex(p.Shape(), all, func(idx []int) {
		for t := 0; t < nv; t++ {
			v := load(rowAt(p, 2, idx, dim, t), d)
			lo, hi := 0, m
			for lo < hi {
				mid := lo + (hi-lo)/2
				s := load(rowAt(p, 1, idx, dim, mid), d)
				var past bool // the insertion point lies past mid
				if d.IsFloat() {
					past = !(s.f >= v.f)
					if args.Right {
						past = !(s.f > v.f)
					}
				} else {
					past = !(s.i >= v.i)
					if args.Right {
						past = !(s.i > v.i)
					}
				}
				if past {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			store(rowAt(p, 0, idx, dim, t), out, intValue(int64(lo)), false)
		}
	})
	return nil
}

// Random fills operand 0 of a random plan, element i of the row-major
// order from Philox counter Offset + i.
func (*Backend) Random(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Random || p.NumOutputs() != 1 || p.NumOperands() != op.Arity+1 {
		return errs.New(errs.Value, op.Name, "%s: not a random plan", op.Name)
	}
	dt := p.Operand(0).DType
	if !op.Accept(dt) {
		return errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), dt)
	}
	if op == optable.Bernoulli && p.Operand(1).DType != dtype.Float64 {
		return errs.New(errs.DType, op.Name, "bernoulli probabilities of dtype %s", p.Operand(1).DType)
	}
	if op == optable.RandInt && args.HighI <= args.LowI {
		return errs.New(errs.Value, op.Name, "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", args.LowI, args.HighI)
	}
	i := uint64(0)
	forEachIndex(p.Shape(), all, func(idx []int) {
		w := elem.Philox(args.Seed, args.Offset+i)
		i++
		ptr := at(p, 0, idx)
		switch op {
		case optable.Uniform:
			store(ptr, dt, floatValue(elem.UniformOf(w, dt.Digits(), args.Low, args.High)), true)
		case optable.Normal:
			store(ptr, dt, floatValue(elem.NormalOf(w, args.Low, args.High)), true)
		case optable.Bernoulli:
			var b int64
			if elem.BernoulliOf(w, *(*float64)(at(p, 1, idx))) {
				b = 1
			}
			store(ptr, dt, intValue(b), false)
		case optable.RandInt:
			store(ptr, dt, intValue(elem.RandIntOf(w, args.LowI, args.HighI)), false)
		}
	})
	return nil
}
