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

// The sorts run on row plans along their dim (Note [Sort plans] in package
// kernel); unique, bincount and histc are built from them and from the
// gather and mask ops.

// lift views a 0-dim tensor as 1-D of one element.
func lift(v *raw.View) *raw.View { return asRank1(v) }

// runSortPlan runs the sort op kop along dim of the row plan over ins,
// writing outs (Note [Sort plans]); full is the plan's shape before the
// squash.
func runSortPlan(name string, kop *optable.Op, outs, ins []*raw.View, full []int, dim int, compute dtype.DType, args *kernel.Args) error {
	cfg := iter.NewConfig().Op(name).StaticShapeSquash(full, dim).StaticDType(compute).CheckMemOverlap(false).ResizeOutputs(false)
	for _, o := range outs {
		cfg.AddOutput(lift(o))
	}
	for _, v := range ins {
		cfg.AddInput(lift(v))
	}
	p, be, err := planOn(name, cfg)
	if err != nil || be == nil {
		return err
	}
	a := *args
	a.Dim = dim
	return errs.WithOp(be.Sort(kop, p, &a), name)
}

// sortDType refuses the dtypes kop has no kernel for, as PyTorch does.
func sortDType(name string, kop *optable.Op, v *raw.View) error {
	if !kop.Accept(v.DType) {
		return errs.New(errs.DType, name, "%q not implemented for '%s'", kop.KernelName(Device(v).String()), v.DType)
	}
	return nil
}

// sortOutputs allocates the values (v's dtype) and int64 indices of a
// sort op of shape sizes.
func sortOutputs(name string, v *raw.View, sizes []int) (*raw.View, *raw.View, error) {
	vals, err := empty(name, v.DType, sizes, v)
	if err != nil {
		return nil, nil, err
	}
	idx, err := empty(name, dtype.Int64, sizes, v)
	return vals, idx, err
}

// Sort is torch.sort: v sorted along dim (ascending, or descending) and
// the int64 indices that sort it. The sort is stable (equal elements keep
// their order, descending too); NaN sorts above +Inf.
func Sort(v *raw.View, dim int, descending bool) (*raw.View, *raw.View, error) {
	const name = "sort"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, nil, errs.WithOp(err, name)
	}
	vals, idx, err := sortOutputs(name, v, v.Shape)
	if err != nil {
		return nil, nil, err
	}
	args := kernel.DefaultArgs
	args.Descending, args.Stable = descending, true
	err = runSortPlan(name, optable.SortOp, []*raw.View{vals, idx}, []*raw.View{v}, lift(v).Shape, d, v.DType, &args)
	return vals, idx, err
}

// TopK is torch.topk: the k largest (or smallest) elements along dim in
// sorted order and their indices; 0 ≤ k ≤ the dim's size.
func TopK(v *raw.View, k, dim int, largest bool) (*raw.View, *raw.View, error) {
	const name = "topk"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, nil, errs.WithOp(err, name)
	}
	n := lift(v).Shape[d]
	if k < 0 || k > n {
		return nil, nil, errs.New(errs.Index, name, "selected index k out of range")
	}
	if v.Dim() == 0 {
		return zeroDimSelect(name, v)
	}
	if err := sortDType(name, optable.TopK, v); err != nil {
		return nil, nil, err
	}
	sizes := append([]int{}, v.Shape...)
	if len(sizes) > 0 {
		sizes[d] = k
	}
	vals, idx, err := sortOutputs(name, v, sizes)
	if err != nil {
		return nil, nil, err
	}
	args := kernel.DefaultArgs
	args.Descending, args.K = largest, k
	err = runSortPlan(name, optable.TopK, []*raw.View{vals, idx}, []*raw.View{v}, lift(v).Shape, d, v.DType, &args)
	return vals, idx, err
}

// zeroDimSelect is topk's and kthvalue's answer for a 0-dim v: v itself
// and index 0, which PyTorch gives before it looks at the dtype (a bool
// v too, which its kernels do not take).
func zeroDimSelect(name string, v *raw.View) (*raw.View, *raw.View, error) {
	vals, idx, err := sortOutputs(name, v, nil)
	if err != nil {
		return nil, nil, err
	}
	if _, err := CopyInto(name, vals, v, false); err != nil {
		return nil, nil, err
	}
	if _, err := Fill(idx, Int(0)); err != nil {
		return nil, nil, err
	}
	return vals, idx, nil
}

// selectOne runs a sort op that picks one element per row along dim
// (kthvalue, median, nanmedian): values and indices, the dim kept with
// size 1 or removed.
func selectOne(name string, kop *optable.Op, v *raw.View, d int, keepdim bool, args *kernel.Args) (*raw.View, *raw.View, error) {
	kept := append([]int{}, lift(v).Shape...)
	kept[d] = 1
	vals, idx, err := sortOutputs(name, v, kept)
	if err != nil {
		return nil, nil, err
	}
	if err := runSortPlan(name, kop, []*raw.View{vals, idx}, []*raw.View{v}, lift(v).Shape, d, v.DType, args); err != nil {
		return nil, nil, err
	}
	if v.Dim() == 0 {
		return vals.WithLayout([]int{}, []int{}, 0), idx.WithLayout([]int{}, []int{}, 0), nil
	}
	if !keepdim {
		if vals, err = Squeeze(vals, d); err != nil {
			return nil, nil, err
		}
		if idx, err = Squeeze(idx, d); err != nil {
			return nil, nil, err
		}
	}
	return vals, idx, nil
}

// medianOfNone is PyTorch 1.13's median of no elements of dtype d: a
// float NaN converted to d as its x86 build converts it (the conversion
// itself is undefined in C++), whatever the machine: NaN for a float, true
// for bool, the lowest int32 and int64 (CVTTSS2SI's "integer
// indefinite"), and 0 for the narrower integers, which take the low bits
// of that int32.
func medianOfNone(d dtype.DType) Scalar {
	switch d {
	case dtype.Bool:
		return Bool(true)
	case dtype.Int32:
		return Int(math.MinInt32)
	case dtype.Int64:
		return Int(math.MinInt64)
	}
	if d.IsFloat() {
		return Float(math.NaN())
	}
	return Int(0)
}

// KthValue is torch.kthvalue: the k-th smallest element along dim (k from
// 1) and its index.
func KthValue(v *raw.View, k, dim int, keepdim bool) (*raw.View, *raw.View, error) {
	const name = "kthvalue"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, nil, errs.WithOp(err, name)
	}
	n := lift(v).Shape[d]
	if n == 0 {
		return nil, nil, errs.New(errs.Index, name, "kthvalue(): Expected reduction dim %d to have non-zero size.", d)
	}
	if k < 1 || k > n {
		return nil, nil, errs.New(errs.Index, name, "kthvalue(): selected number k out of range for dimension %d", d)
	}
	if v.Dim() == 0 {
		return zeroDimSelect(name, v)
	}
	if err := sortDType(name, optable.KthValue, v); err != nil {
		return nil, nil, err
	}
	args := kernel.DefaultArgs
	args.K = k
	return selectOne(name, optable.KthValue, v, d, keepdim, &args)
}

// Median is torch.median along dim (nan: torch.nanmedian): the lower
// median and its index; a row with a NaN gives its first NaN (nanmedian:
// the median of the row's numbers, NaN if it has none).
func Median(v *raw.View, dim int, keepdim, nan bool) (*raw.View, *raw.View, error) {
	name, kop := "median", optable.Median
	if nan {
		name, kop = "nanmedian", optable.NanMedian
	}
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, nil, errs.WithOp(err, name)
	}
	if err := sortDType(name, kop, v); err != nil {
		return nil, nil, err
	}
	if lift(v).Shape[d] == 0 {
		return nil, nil, errs.New(errs.Index, name, "median(): Expected reduction dim %d to have non-zero size.", d)
	}
	return selectOne(name, kop, v, d, keepdim, &kernel.DefaultArgs)
}

// MedianAll is torch.median (nan: torch.nanmedian) of all of v: a 0-dim
// tensor. Without elements it is NaN converted to v's dtype, before any
// dtype check, as PyTorch 1.13 returns a float NaN cast to it (medianOfNone).
func MedianAll(v *raw.View, nan bool) (*raw.View, error) {
	name, kop := "median", optable.Median
	if nan {
		name, kop = "nanmedian", optable.NanMedian
	}
	if v.NumEl() == 0 {
		out, err := empty(name, v.DType, []int{}, v)
		if err != nil {
			return nil, err
		}
		_, err = Fill(out, medianOfNone(v.DType))
		return out, err
	}
	if err := sortDType(name, kop, v); err != nil {
		return nil, err
	}
	flat, err := Reshape(v, []int{-1})
	if err != nil {
		return nil, err
	}
	vals, _, err := selectOne(name, kop, flat, 0, false, &kernel.DefaultArgs)
	return vals, err
}
