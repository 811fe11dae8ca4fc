package tensor

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// ReduceOpt configures a reduction: the dims to reduce (all when none;
// negative dims count from the end; a repeated dim is a value error),
// whether to keep them with size 1, and the dtype= to compute in (the
// input is read converted to it, and the result has it).
type ReduceOpt struct {
	Dims    []int
	KeepDim bool
	DType   DType // dtype.Invalid: the op's default rule
}

func reduce(r *optable.Op, t *Tensor, o ReduceOpt, dst *Tensor, args *kernel.Args) *Tensor {
	if dst == nil {
		v, err := op.Reduce(r, t.v, o.Dims, o.KeepDim, o.DType, nil, args)
		must(err)
		return wrap(v[0])
	}
	_, err := op.Reduce(r, t.v, o.Dims, o.KeepDim, o.DType, []*raw.View{dst.v}, args)
	must(err)
	return dst
}

// Sum returns the sum over all elements (0-dim); bool and integer tensors
// give int64. Float sums are pairwise (cascade) sums.
func (t *Tensor) Sum() *Tensor { return reduce(optable.Sum, t, ReduceOpt{}, nil, nil) }

// SumOpt returns the sum over o.Dims.
func (t *Tensor) SumOpt(o ReduceOpt) *Tensor { return reduce(optable.Sum, t, o, nil, nil) }

// SumTo writes the sum over o.Dims into dst (whose dtype is the result
// dtype unless o.DType is given) and returns dst.
func SumTo(dst, t *Tensor, o ReduceOpt) *Tensor { return reduce(optable.Sum, t, o, dst, nil) }

// NanSum returns the sum over o.Dims counting NaN as 0.
func (t *Tensor) NanSum(o ReduceOpt) *Tensor { return reduce(optable.NanSum, t, o, nil, nil) }

// Prod returns the product of all elements; bool and integer tensors give int64.
func (t *Tensor) Prod() *Tensor { return reduce(optable.Prod, t, ReduceOpt{}, nil, nil) }

// ProdOpt returns the product over o.Dims.
func (t *Tensor) ProdOpt(o ReduceOpt) *Tensor { return reduce(optable.Prod, t, o, nil, nil) }

// Mean returns the mean over o.Dims. Integer and bool tensors need a float
// o.DType (else a dtype error); over no elements it is NaN.
func (t *Tensor) Mean(o ReduceOpt) *Tensor { return reduce(optable.Mean, t, o, nil, nil) }

// Amax returns the maximum over o.Dims (NaN propagates) in t's dtype; a
// reduced dim of size 0 is an index error.
func (t *Tensor) Amax(o ReduceOpt) *Tensor { return reduce(optable.Amax, t, o, nil, nil) }

// AmaxTo writes the maximum over o.Dims into dst (of t's dtype) and returns dst.
func AmaxTo(dst, t *Tensor, o ReduceOpt) *Tensor { return reduce(optable.Amax, t, o, dst, nil) }

// Amin returns the minimum over o.Dims (NaN propagates).
func (t *Tensor) Amin(o ReduceOpt) *Tensor { return reduce(optable.Amin, t, o, nil, nil) }

// AminTo writes the minimum over o.Dims into dst (of t's dtype) and returns dst.
func AminTo(dst, t *Tensor, o ReduceOpt) *Tensor { return reduce(optable.Amin, t, o, dst, nil) }

// Max returns the maximum of all elements (0-dim; NaN propagates); an
// empty tensor is an index error.
func (t *Tensor) Max() *Tensor { return reduce(optable.Amax, t, ReduceOpt{}, nil, nil) }

// Min returns the minimum of all elements (0-dim; NaN propagates).
func (t *Tensor) Min() *Tensor { return reduce(optable.Amin, t, ReduceOpt{}, nil, nil) }

func withIndices(r *optable.Op, t *Tensor, dim int, keepdim bool) (values, indices *Tensor) {
	v, err := op.Reduce(r, t.v, []int{dim}, keepdim, dtype.Invalid, nil, nil)
	must(err)
	return wrap(v[0]), wrap(v[1])
}

// MaxDim returns the maximum along dim and its int64 index (the first
// occurrence; a NaN is the maximum, and its index is returned).
func (t *Tensor) MaxDim(dim int, keepdim bool) (values, indices *Tensor) {
	return withIndices(optable.Max, t, dim, keepdim)
}

// MinDim returns the minimum along dim and its int64 index (the first occurrence; NaN wins).
func (t *Tensor) MinDim(dim int, keepdim bool) (values, indices *Tensor) {
	return withIndices(optable.Min, t, dim, keepdim)
}

func flat(r *optable.Op, t *Tensor) *Tensor {
	v, err := op.ReduceFlat(r, t.v, nil)
	must(err)
	return wrap(v[0])
}

// ArgMax returns the int64 index of the first maximum of the flattened
// tensor (0-dim; a NaN's index if there is one).
func (t *Tensor) ArgMax() *Tensor { return flat(optable.ArgMax, t) }

// ArgMaxDim returns the int64 indices of the first maximum along dim.
func (t *Tensor) ArgMaxDim(dim int, keepdim bool) *Tensor {
	return reduce(optable.ArgMax, t, ReduceOpt{Dims: []int{dim}, KeepDim: keepdim}, nil, nil)
}

// ArgMin returns the int64 index of the first minimum of the flattened tensor.
func (t *Tensor) ArgMin() *Tensor { return flat(optable.ArgMin, t) }

// ArgMinDim returns the int64 indices of the first minimum along dim.
func (t *Tensor) ArgMinDim(dim int, keepdim bool) *Tensor {
	return reduce(optable.ArgMin, t, ReduceOpt{Dims: []int{dim}, KeepDim: keepdim}, nil, nil)
}

// Var returns the variance over o.Dims with divisor max(n - correction, 0)
// (correction 1 is the unbiased estimate, 0 the biased one); a zero divisor
// gives +Inf, or NaN for 0/0. Float tensors only (else a dtype error).
func (t *Tensor) Var(o ReduceOpt, correction int) *Tensor {
	return reduce(optable.Var, t, o, nil, op.ReduceArgs(float64(correction), 0))
}

// Std returns the standard deviation over o.Dims: the square root of [Tensor.Var].
func (t *Tensor) Std(o ReduceOpt, correction int) *Tensor {
	return reduce(optable.Std, t, o, nil, op.ReduceArgs(float64(correction), 0))
}

// Norm returns the vector p-norm over o.Dims: (Σ|x|^p)^(1/p); p = +Inf
// and -Inf give max|x| and min|x|, p = 0 the number of nonzeros (the
// Frobenius norm is p = 2). Float tensors only; o.DType converts first.
func (t *Tensor) Norm(p float64, o ReduceOpt) *Tensor {
	return reduce(optable.Norm, t, o, nil, op.ReduceArgs(0, p))
}

// LogSumExp returns log Σ e^x over o.Dims, computed stably; integer tensors
// give float32.
func (t *Tensor) LogSumExp(o ReduceOpt) *Tensor { return reduce(optable.LogSumExp, t, o, nil, nil) }

// All reports whether every element over o.Dims is nonzero (bool; uint8
// for uint8 tensors).
func (t *Tensor) All(o ReduceOpt) *Tensor { return reduce(optable.All, t, o, nil, nil) }

// Any reports whether some element over o.Dims is nonzero (bool; uint8 for uint8 tensors).
func (t *Tensor) Any(o ReduceOpt) *Tensor { return reduce(optable.Any, t, o, nil, nil) }

// CountNonzero returns the int64 number of nonzero elements over dims (all
// when none).
func (t *Tensor) CountNonzero(dims ...int) *Tensor {
	return reduce(optable.CountNonzero, t, ReduceOpt{Dims: dims}, nil, nil)
}
