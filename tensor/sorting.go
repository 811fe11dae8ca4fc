package tensor

import (
	"math"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
)

// The sorts order elements ascending with NaN above +Inf (NaNs equal one
// another) and -0 equal to +0, and break ties by position: equal elements
// keep their order, in descending sorts too (PyTorch's stable=True). Each
// works along one dim (negative from the end; a 0-dim tensor has dim 0)
// and runs its rows in parallel.

// Sort returns t sorted along dim (ascending, or descending) and the
// int64 indices that sort it. The sort is stable.
func Sort(t *Tensor, dim int, descending bool) (values, indices *Tensor) {
	v, i, err := op.Sort(t.view(), dim, descending)
	must(err)
	return recordSelected("SortBackward0", t, wrap(v), wrap(i), dim, true), wrap(i)
}

// Sort returns [Sort] of t.
func (t *Tensor) Sort(dim int, descending bool) (values, indices *Tensor) {
	return Sort(t, dim, descending)
}

// Argsort returns the int64 indices that sort t along dim (see [Sort]).
func Argsort(t *Tensor, dim int, descending bool) *Tensor {
	_, i := Sort(t, dim, descending)
	return i
}

// Msort returns t sorted along dim 0.
func Msort(t *Tensor) *Tensor {
	v, _ := Sort(t, 0, false)
	return v
}

// TopK returns the k largest elements of t along dim (the k smallest when
// largest is false), in sorted order, and their int64 indices. Which of
// several equal elements are taken, and in which order, is PyTorch's
// (Note [topk's tie order] in package kernel). k must lie in [0,
// size(dim)] (else an index error).
func TopK(t *Tensor, k, dim int, largest bool) (values, indices *Tensor) {
	v, i, err := op.TopK(t.view(), k, dim, largest)
	must(err)
	return recordSelected("TopkBackward0", t, wrap(v), wrap(i), dim, true), wrap(i)
}

// KthValue returns the k-th smallest element of t along dim (k from 1)
// and its index, dim kept with size 1 when keepdim. Of several equal
// elements, the index is the one PyTorch 1.13's selection returns (Note
// [kthvalue's tie order] in package kernel). k outside [1, size(dim)] is
// an index error.
func KthValue(t *Tensor, k, dim int, keepdim bool) (values, indices *Tensor) {
	v, i, err := op.KthValue(t.view(), k, dim, keepdim)
	must(err)
	return recordSelected("KthvalueBackward0", t, wrap(v), wrap(i), dim, keepdim), wrap(i)
}

// Median returns the lower median of all of t's elements (element
// ⌊(n-1)/2⌋ of the sorted values) as a 0-dim tensor: NaN if an element is
// NaN. Without elements it is NaN converted to t's dtype, as in PyTorch
// 1.13: NaN for a float, true for bool, the lowest int32 and int64, 0 for
// the narrower integers.
func Median(t *Tensor) *Tensor {
	r := newResult(op.MedianAll(t.view(), false))
	return recordNew("MedianBackward0", []*Tensor{t}, r, evenlyDistributed(t, r))
}

// evenlyDistributed is the backward of a median of all of t whose value
// is r: PyTorch's evenly_distribute_backward, g split evenly between the
// elements equal to r (the NaNs when r is NaN).
func evenlyDistributed(t, r *Tensor) gradFn {
	return func(_ *node, g *Tensor) []*Tensor {
		var mask *Tensor
		if math.IsNaN(r.Item()) {
			mask = t.IsNan()
		} else {
			mask = t.Eq(r)
		}
		share := g.Div(mask.To(g.DType()).Sum())
		return []*Tensor{Where(mask, share, Scalar(0)).To(t.DType())}
	}
}

// MedianDim returns the lower median of t along dim and its index (a row
// with a NaN gives its first NaN), dim kept with size 1 when keepdim. A
// dim of size 0 is an index error.
func MedianDim(t *Tensor, dim int, keepdim bool) (values, indices *Tensor) {
	v, i, err := op.Median(t.view(), dim, keepdim, false)
	must(err)
	return recordSelected("MedianBackward1", t, wrap(v), wrap(i), dim, keepdim), wrap(i)
}

// NanMedian is [Median] of the elements that are not NaN (NaN if all are).
func NanMedian(t *Tensor) *Tensor {
	r := newResult(op.MedianAll(t.view(), true))
	return recordNew("NanmedianBackward0", []*Tensor{t}, r, evenlyDistributed(t, r))
}

// NanMedianDim is [MedianDim] of the elements that are not NaN.
func NanMedianDim(t *Tensor, dim int, keepdim bool) (values, indices *Tensor) {
	v, i, err := op.Median(t.view(), dim, keepdim, true)
	must(err)
	return recordSelected("NanmedianBackward1", t, wrap(v), wrap(i), dim, keepdim), wrap(i)
}

// Unique returns the distinct elements of t in ascending order (1-D),
// the inverse (int64 of t's shape: the position of each element in that
// list) and the counts (int64) of each.
func Unique(t *Tensor) (values, inverse, counts *Tensor) {
	u, i, c, err := op.Unique(t.view(), false, 0)
	must(err)
	return recordNew("UniqueBackward0", []*Tensor{t}, wrap(u), notDifferentiable("_unique2")), wrap(i), wrap(c)
}

// UniqueDim returns the distinct slices of t along dim in lexicographic
// order, the inverse (int64, one per slice of t) and the counts.
func UniqueDim(t *Tensor, dim int) (values, inverse, counts *Tensor) {
	u, i, c, err := op.Unique(t.view(), true, dim)
	must(err)
	return recordNew("UniqueDimBackward0", []*Tensor{t}, wrap(u), notDifferentiable("unique_dim")), wrap(i), wrap(c)
}

// SearchOptions are the optional arguments of [SearchSorted].
type SearchOptions struct {
	// Right finds the first position whose element is greater than the
	// value, instead of greater or equal (PyTorch's right=True).
	Right bool
	// Int32 makes the result int32 instead of int64.
	Int32 bool
	// Sorter is the permutation (int64, the sequence's shape) that sorts
	// an unsorted sequence along its last dim. An element out of [0, the
	// last dim's size) is an index error where values has elements
	// (PyTorch 1.13 reads out of the sequence, later versions refuse it).
	Sorter *Tensor
}

// SearchSorted returns, for each of values, where it would be inserted in
// the sorted sequence seq along its last dim to keep it sorted: the first
// position whose element is ≥ the value (> with Right), or the length if
// none. A 1-D seq serves values of any shape; an N-D one needs values with
// its leading dims (else a shape error). values may be a [Scalar] (a 0-dim
// result). seq and values compute in their promoted dtype.
func SearchSorted(seq, values *Tensor, o ...SearchOptions) *Tensor {
	var opt SearchOptions
	switch len(o) {
	case 0:
	case 1:
		opt = o[0]
	default:
		panic(errs.New(errs.Value, "searchsorted", "searchsorted takes at most one SearchOptions, got %d", len(o)))
	}
	return newResult(op.SearchSorted(seq.view(), values.view(), opt.Right, opt.Int32, opt.Sorter.view()))
}

// Bincount returns the number of occurrences of each value 0 … max(max+1,
// minlength)-1 of the 1-D non-negative integer t (int64), or with weights
// (nil for none; t's length) the sums of their weights: float32 for
// float32 weights, else float64. A negative element is a value error, a
// float t a dtype error.
func Bincount(t, weights *Tensor, minlength int) *Tensor {
	return recordNew("BincountBackward0", []*Tensor{weights}, newResult(op.Bincount(t.view(), weights.view(), minlength)), notImplementedAten("bincount"))
}

// Histc returns a histogram of the float t's elements in bins equal bins
// over [lo, hi], of t's dtype: x counts in bin ⌊(x-lo)/(hi-lo)·bins⌋,
// computed in t's dtype, hi in the last bin; elements outside [lo, hi]
// are left out. lo = hi uses t's smallest and largest elements instead; a
// range that is then not finite, or with lo > hi, is a value error. The
// bins are PyTorch 1.13's to the bit, quirks included (Note [Histogram
// bins] in package op): its edges are those of [Linspace](lo, hi, bins+1)
// in t's dtype, whose last can fall just short of hi, and a NaN counts in
// bin 0. As in PyTorch 1.13, the result does not require grad.
func Histc(t *Tensor, bins int, lo, hi float64) *Tensor {
	return newResult(op.Histc(t.view(), bins, lo, hi))
}

// recordSelected records values, taken along dim of t at indices (dim
// kept with size 1 unless keepdim was false), for backward: each value's
// gradient goes back where it came from (Note [Derivatives of index ops]).
func recordSelected(name string, t, values, indices *Tensor, dim int, keepdim bool) *Tensor {
	sh := t.Shape()
	return recordNew(name, []*Tensor{t}, values, func(_ *node, g *Tensor) []*Tensor {
		idx := indices
		if len(sh) > 0 && !keepdim {
			d := wrapDim(dim, len(sh))
			g, idx = g.Unsqueeze(d), idx.Unsqueeze(d)
		}
		return []*Tensor{sortedGrad(g, idx, dim, sh)}
	})
}
