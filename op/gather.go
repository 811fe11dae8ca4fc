package op

import (
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// gather, scatter and their reductions run along one dim on gather plans
// (Note [Gather plans] in package kernel): the index's shape with the dim
// squashed, the kernel walking the dim itself, as PyTorch's scatter_gather
// kernels do.

// alongIndex returns v restrided to the index's sizes, but along dim,
// where it keeps its own size, with its own strides.
func alongIndex(v *raw.View, index []int, dim int) *raw.View {
	sizes := append([]int{}, index...)
	sizes[dim] = v.Shape[dim]
	return v.WithLayout(sizes, v.Strides, v.Offset)
}

// runGatherPlan runs the gather op kop along dim over the index's shape:
// written is operand 0, read operand 2 (Note [Gather plans]).
func runGatherPlan(name string, kop *optable.Op, dim int, written, index, read *raw.View) error {
	cfg := iter.NewConfig().Op(name).StaticShapeSquash(index.Shape, dim).StaticDType(written.DType).
		CheckMemOverlap(false).ResizeOutputs(false).AddOutput(written).AddInput(index).AddInput(read)
	p, be, err := planOn(name, cfg)
	if err != nil || be == nil || index.NumEl() == 0 {
		return err
	}
	args := kernel.DefaultArgs
	args.Dim = dim
	return errs.WithOp(be.Gather(kop, p, &args), name)
}

// nonemptyDim is PyTorch's ensure_nonempty_dim: a 0-dim tensor counts as
// 1-D.
func nonemptyDim(v *raw.View) int { return max(v.Dim(), 1) }

// Gather is torch.gather: out[i][j][k] = v[index[i][j][k]][j][k] for dim
// 0 (likewise for the other dims), of index's shape.
func Gather(v *raw.View, dim int, index *raw.View) (*raw.View, error) {
	const name = "gather"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if index.NumEl() == 0 {
		// PyTorch checks neither the dtype nor the shape of an empty index
		return empty(name, v.DType, index.Shape, v, index)
	}
	if index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "gather(): Expected dtype int64 for index")
	}
	if nonemptyDim(index) != nonemptyDim(v) {
		return nil, errs.New(errs.Shape, name, "Index tensor must have the same number of dimensions as input tensor")
	}
	self, idx := asRank1(v), asRank1(index)
	if idx.NumEl() > 0 {
		for k := range idx.Shape {
			if k != d && idx.Shape[k] > self.Shape[k] {
				return nil, errs.New(errs.Shape, name, "Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d",
					k, shape.Format(index.Shape), shape.Format(v.Shape), d)
			}
		}
	}
	out, err := empty(name, v.DType, idx.Shape, v, index)
	if err != nil {
		return nil, err
	}
	if err := runGatherPlan(name, optable.GatherOp, d, out, idx, alongIndex(self, idx.Shape, d)); err != nil {
		return nil, err
	}
	return out.WithLayout(append([]int{}, index.Shape...), shape.Contiguous(index.Shape), out.Offset), nil
}

// scatterArgs are the checked operands of a scatter: the dim, and self,
// index and src seen as gather plan operands.
type scatterArgs struct {
	d             int
	self, idx, sr *raw.View
	none          bool // an empty index: nothing to check or write
}

// checkScatter runs scatter's checks (PyTorch's scatter_gather_dtype_check
// and scatter_shape_check): src is a tensor of v's dtype, or a 0-dim one
// with an index of dims (a value, expanded).
func checkScatter(name string, v *raw.View, dim int, index, src *raw.View) (*scatterArgs, error) {
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if index.NumEl() > 0 && index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "scatter(): Expected dtype int64 for index")
	}
	if src.DType != v.DType {
		return nil, errs.New(errs.DType, name, "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	if index.NumEl() == 0 {
		// PyTorch's scatter_shape_check skips an empty index
		return &scatterArgs{d: d, none: true}, nil
	}
	if nonemptyDim(index) != nonemptyDim(v) {
		return nil, errs.New(errs.Shape, name, "Index tensor must have the same number of dimensions as self tensor")
	}
	isValue := src.Dim() == 0 && index.Dim() > 0
	if !isValue && nonemptyDim(src) != nonemptyDim(index) {
		return nil, errs.New(errs.Shape, name, "Index tensor must have the same number of dimensions as src tensor")
	}
	a := &scatterArgs{d: d, self: asRank1(v), idx: asRank1(index)}
	if isValue {
		a.sr = src.WithLayout(a.idx.Shape, make([]int, a.idx.Dim()), src.Offset)
	} else {
		a.sr = asRank1(src)
	}
	if a.idx.NumEl() > 0 {
		for k := range a.idx.Shape {
			if a.idx.Shape[k] > a.sr.Shape[k] || k != d && a.idx.Shape[k] > a.self.Shape[k] {
				return nil, errs.New(errs.Shape, name, "Expected index %s to be smaller than self %s apart from dimension %d and to be smaller size than src %s",
					shape.Format(index.Shape), shape.Format(v.Shape), d, shape.Format(src.Shape))
			}
		}
	}
	a.sr = a.sr.WithLayout(a.idx.Shape, a.sr.Strides, a.sr.Offset)
	return a, nil
}

// run writes the checked scatter into out (v or a copy of it) with kop.
func (a *scatterArgs) run(name string, kop *optable.Op, out *raw.View) error {
	if a.none {
		return nil
	}
	s := a.sr
	if s.Storage.Device() != out.Storage.Device() { // a value made on the CPU
		h, err := ToDevice(s.WithLayout([]int{}, []int{}, s.Offset), out.Storage.Allocator())
		if err != nil {
			return err
		}
		s = h.WithLayout(a.idx.Shape, make([]int, a.idx.Dim()), h.Offset)
	}
	return runGatherPlan(name, kop, a.d, alongIndex(asRank1(out), a.idx.Shape, a.d), a.idx, s)
}

// target returns where a scatter writes: v itself (inPlace, after the
// overlap checks) or a copy of it.
func scatterTarget(name string, v, index, src *raw.View, inPlace bool) (*raw.View, error) {
	if !inPlace {
		return Clone(v)
	}
	if err := checkWritable(name, v); err != nil {
		return nil, err
	}
	for _, o := range []*raw.View{index, src} {
		if err := iter.CheckNoOverlap(name, v, o); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// Scatter writes src (a tensor of v's dtype, or a 0-dim one expanded: a
// value) into v along dim at the positions of index, merged by kop's
// Combine (optable.Scatter: replaced; ScatterAdd, ScatterMul, ScatterAmax,
// ScatterAmin). inPlace writes into v and returns it; otherwise it works
// on a copy of v and returns that. name is the op's name in errors.
func Scatter(name string, kop *optable.Op, v *raw.View, dim int, index, src *raw.View, inPlace bool) (*raw.View, error) {
	return scatter(name, kop, v, dim, index, src, nil, inPlace)
}

// ScatterValue is [Scatter] of a Go number. The number is checked against
// v's dtype where PyTorch's kernel converts it: after the checks of
// index and the overlaps (an empty index checks nothing more), and after
// index's bounds.
func ScatterValue(name string, kop *optable.Op, v *raw.View, dim int, index *raw.View, value Scalar, inPlace bool) (*raw.View, error) {
	return scatter(name, kop, v, dim, index, value.ViewAs(v.DType), &value, inPlace)
}

// scatter is Scatter, of src, or of value (src then holds it converted).
func scatter(name string, kop *optable.Op, v *raw.View, dim int, index, src *raw.View, value *Scalar, inPlace bool) (*raw.View, error) {
	a, err := checkScatter(name, v, dim, index, src)
	if err != nil {
		return nil, err
	}
	out, err := scatterTarget(name, v, index, src, inPlace)
	if err != nil {
		return nil, err
	}
	if value != nil && !a.none {
		if err := value.Check(name, v.DType); err != nil {
			n := a.self.Shape[a.d]
			bad, out, e := indexOutside(index, 0, int64(n))
			switch {
			case e != nil:
				return nil, e
			case out:
				return nil, errs.New(errs.Index, name, "index %d is out of bounds for dimension %d with size %d", bad, a.d, n)
			}
			return nil, err
		}
	}
	return out, a.run(name, kop, out)
}

// ScatterReduceMode is the reduce argument of scatter_reduce.
type ScatterReduceMode uint8

// The reductions of scatter_reduce.
const (
	ReduceSum ScatterReduceMode = iota
	ReduceProd
	ReduceMean
	ReduceAmax
	ReduceAmin
)

// ScatterReduce is Tensor.scatter_reduce(_): each element of v that index
// targets along dim becomes the reduction of the src values sent to it,
// and of its own value when includeSelf; the others keep theirs. mean
// divides by the number of values reduced (rounding down for integers);
// amax and amin propagate NaN. As PyTorch, it first sets the targeted
// elements to the reduction's identity when it excludes self, and divides
// by the counts (a scatter_add of ones) for the mean.
func ScatterReduce(v *raw.View, dim int, index, src *raw.View, mode ScatterReduceMode, includeSelf, inPlace bool) (*raw.View, error) {
	name := "scatter_reduce"
	if inPlace {
		name = "scatter_reduce_"
	}
	kops := [...]*optable.Op{ReduceSum: optable.ScatterAdd, ReduceProd: optable.ScatterMul, ReduceMean: optable.ScatterAdd,
		ReduceAmax: optable.ScatterAmax, ReduceAmin: optable.ScatterAmin}
	if int(mode) >= len(kops) {
		return nil, errs.New(errs.Value, name, "reduce argument must be either sum, prod, mean, amax or amin")
	}
	a, err := checkScatter(name, v, dim, index, src)
	if err != nil {
		return nil, err
	}
	out, err := scatterTarget(name, v, index, src, inPlace)
	if err != nil {
		return nil, err
	}
	if !includeSelf {
		// the same index: an index out of range fails here, before any write
		init, err := checkScatter(name, v, dim, index, identityOf(mode, v.DType).ViewAs(v.DType))
		if err != nil {
			return nil, err
		}
		if err := init.run(name, optable.Scatter, out); err != nil {
			return nil, err
		}
	}
	if err := a.run(name, kops[mode], out); err != nil {
		return nil, err
	}
	if mode != ReduceMean {
		return out, nil
	}
	count, err := empty(name, v.DType, v.Shape, v)
	if err != nil {
		return nil, err
	}
	start := Int(0)
	if includeSelf {
		start = Int(1)
	}
	if _, err := Fill(count, start); err != nil {
		return nil, err
	}
	if _, err := Scatter(name, optable.ScatterAdd, count, dim, index, Int(1).ViewAs(v.DType), true); err != nil {
		return nil, err
	}
	// untargeted elements divide by 1
	zero, err := Pointwise(optable.Eq, nil, false, nil, count, Int(0).Wrap())
	if err != nil {
		return nil, err
	}
	if _, err := Pointwise(optable.Where, count, false, nil, zero, Int(1).ViewAs(v.DType), count); err != nil {
		return nil, err
	}
	div := optable.Div
	if !v.DType.IsFloat() {
		div = optable.DivFloor
	}
	_, err = Pointwise(div, out, false, nil, out, count)
	return out, err
}

// identityOf is the value scatter_reduce starts an element from when it
// excludes self: 0 for sums and means, 1 for products, the lowest and
// highest values for amax and amin.
func identityOf(mode ScatterReduceMode, d dtype.DType) Scalar {
	switch mode {
	case ReduceProd:
		return Int(1)
	case ReduceAmax, ReduceAmin:
		sign := 1.0
		if mode == ReduceAmax {
			sign = -1
		}
		if d.IsFloat() {
			return Float(math.Inf(int(sign)))
		}
		l := &scalarLimits[d]
		if mode == ReduceAmax {
			return Int(l.ilo)
		}
		return Int(l.ihi)
	}
	return Int(0)
}
