package op

import (
	"math"
	"strconv"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// SearchSorted is torch.searchsorted: for each value, where it would be
// inserted in the sorted sequence along its last dim (the first position
// s with v ≤ seq[s], or v < seq[s] with right), as int64 (or int32). A
// 1-D sequence serves values of any shape; an N-D one needs values with
// its leading dims. sorter, when given, is the permutation (int64, the
// sequence's shape) that sorts an unsorted sequence along its last dim.
// values may be a wrapped scalar (a 0-dim result).
func SearchSorted(seq, values *raw.View, right, outInt32 bool, sorter *raw.View) (*raw.View, error) {
	const name = "searchsorted"
	if seq.Dim() == 0 {
		return nil, errs.New(errs.Value, name, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
	}
	if seq.Dim() > 1 {
		if values.Dim() == 0 {
			return nil, errs.New(errs.Value, name, "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d) and input value's dim(0) numel(1)", seq.Dim())
		}
		if seq.Dim() != values.Dim() || !shape.Equal(seq.Shape[:seq.Dim()-1], values.Shape[:values.Dim()-1]) {
			return nil, errs.New(errs.Shape, name, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s",
				shape.Format(seq.Shape), shape.Format(values.Shape))
		}
	}
	if sorter != nil {
		if sorter.DType != dtype.Int64 {
			return nil, errs.New(errs.DType, name, "torch.searchsorted(): sorter must be a tensor of long dtype but got %s", TorchName(sorter.DType))
		}
		if !shape.Equal(sorter.Shape, seq.Shape) {
			return nil, errs.New(errs.Shape, name, "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s and got sorter tensor %s",
				shape.Format(seq.Shape), shape.Format(sorter.Shape))
		}
	}
	var st dtype.ResultState
	st.Update(seq.DType, seq.Dim(), false)
	st.Update(values.DType, values.Dim(), values.Wrapped)
	c := st.Result()
	if !optable.SearchSorted.Accept(c) {
		return nil, errs.New(errs.DType, name, "%q not implemented for '%s'", optable.SearchSorted.KernelName(Device(seq).String()), c)
	}
	outDT := dtype.Int64
	if outInt32 {
		outDT = dtype.Int32
	}
	out, err := empty(name, outDT, values.Shape, seq)
	if err != nil {
		return nil, err
	}
	if values.NumEl() == 0 {
		return out, nil
	}
	if sorter != nil {
		if seq, err = Gather(seq, -1, sorter); err != nil {
			if e, ok := err.(*errs.Error); ok && e.Kind == errs.Index {
				// PyTorch 1.13 reads out of the sequence; later versions
				// check the sorter with this message
				return nil, errs.New(errs.Index, name, "torch.searchsorted(): sorter index out of range")
			}
			return nil, err
		}
	}
	if seq, err = To(seq, c); err != nil {
		return nil, err
	}
	if values.Wrapped {
		values = ScalarOf(values).ViewAs(c)
		if values.Storage.Device() != seq.Storage.Device() {
			if values, err = ToDevice(values, seq.Storage.Allocator()); err != nil {
				return nil, err
			}
		}
	} else if values, err = To(values, c); err != nil {
		return nil, err
	}
	vals := lift(values)
	full := vals.Shape
	last := len(full) - 1
	m := seq.Shape[seq.Dim()-1]
	if seq.Dim() == 1 {
		sizes := append(append([]int{}, full[:last]...), m)
		strides := make([]int, len(sizes))
		strides[last] = seq.Strides[0]
		seq = seq.WithLayout(sizes, strides, seq.Offset)
	}
	args := kernel.DefaultArgs
	args.Right = right
	err = runSortPlan(name, optable.SearchSorted, []*raw.View{out}, []*raw.View{seq, vals}, full, last, c, &args)
	return out, err
}

// Bincount is torch.bincount: the number of occurrences of each value 0 …
// max(max(x)+1, minlength)-1 of the 1-D non-negative integer x (int64),
// or with weights (x's length) the sums of the weights: float32 for
// float32 weights, float64 for the others.
func Bincount(x, weights *raw.View, minlength int) (*raw.View, error) {
	const name = "bincount"
	if !x.DType.IsInt() {
		return nil, errs.New(errs.DType, name, "\"bincount_%s\" not implemented for '%s'", Device(x), TorchName(x.DType))
	}
	if x.Dim() != 1 {
		return nil, errs.New(errs.Value, name, "bincount only supports 1-d non-negative integral inputs.")
	}
	if minlength < 0 {
		return nil, errs.New(errs.Value, name, "minlength should be >= 0")
	}
	if weights != nil && (weights.Dim() != 1 || weights.Shape[0] != x.Shape[0]) {
		return nil, errs.New(errs.Shape, name, "weights should be 1-d and have the same length as input")
	}
	outDT := dtype.Int64
	if weights != nil && x.NumEl() > 0 { // PyTorch counts an empty input in int64 even with weights
		outDT = dtype.Float64
		if weights.DType == dtype.Float32 {
			outDT = dtype.Float32
		}
	}
	n := minlength
	var idx *raw.View
	if x.NumEl() > 0 {
		var err error
		if idx, err = To(x, dtype.Int64); err != nil {
			return nil, err
		}
		lo, hi, err := indexBounds(idx)
		if err != nil {
			return nil, err
		}
		if lo < 0 {
			return nil, errs.New(errs.Value, name, "bincount only supports 1-d non-negative integral inputs.")
		}
		n = max(n, int(hi)+1)
	}
	out, err := empty(name, outDT, []int{n}, x)
	if err != nil {
		return nil, err
	}
	if _, err := Fill(out, Int(0)); err != nil {
		return nil, err
	}
	if idx == nil {
		return out, nil
	}
	src := Int(1).ViewAs(outDT)
	if weights != nil {
		if src, err = To(weights, outDT); err != nil {
			return nil, err
		}
	}
	_, err = Scatter(name, optable.ScatterAdd, out, 0, idx, src, true)
	return out, err
}

// Histc is torch.histc: a histogram of x's elements (float32, float64 or
// bfloat16) in bins equal bins over [lo, hi], of x's dtype. lo = hi uses the smallest and
// largest elements instead (equal ones: that value ∓ 1); a range that is
// not finite then, or not increasing, is a value error. The bins are
// PyTorch 1.13's (Note [Histogram bins]).
func Histc(x *raw.View, bins int, lo, hi float64) (*raw.View, error) {
	const name = "histc"
	// PyTorch 1.13's order: the bins, the range (from the elements'
	// extrema, which any dtype but float16 has), then its linspace's
	// and its histogram kernel's dtypes (float32, float64, bfloat16)
	if bins <= 0 {
		return nil, errs.New(errs.Value, name, "torch.histogram(): bins must be > 0, but got %d for dimension 0", bins)
	}
	hasKernel := x.DType == dtype.Float32 || x.DType == dtype.Float64 || x.DType == dtype.BFloat16
	refuse := func(kern string) error {
		return errs.New(errs.DType, name, "\"%s_%s\" not implemented for '%s'", kern, Device(x), TorchName(x.DType))
	}
	if lo == hi && x.NumEl() > 0 && !hasKernel {
		if x.DType == dtype.Float16 {
			return nil, refuse("aminmax")
		}
		// integer extrema are finite, and equal ones widen by 1: the
		// range holds, and the kernel refuses the dtype
		lo, hi = 0, 1
	}
	if lo == hi && x.NumEl() > 0 {
		r, err := Reduce(optable.Amin, x, nil, false, dtype.Invalid, nil, nil)
		if err != nil {
			return nil, err
		}
		lo = readFloat64(r[0])
		if r, err = Reduce(optable.Amax, x, nil, false, dtype.Invalid, nil, nil); err != nil {
			return nil, err
		}
		hi = readFloat64(r[0])
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return nil, errs.New(errs.Value, name, "torch.histc: range of [%s, %s] is not finite", cFloat(lo), cFloat(hi))
	}
	if lo >= hi {
		return nil, errs.New(errs.Value, name, "torch.histc: max must be larger than min")
	}
	switch {
	case x.DType == dtype.Bool:
		return nil, refuse("linspace")
	case !hasKernel:
		return nil, refuse("histogram")
	}
	// one more bin, which takes the elements left out
	counts, err := empty(name, x.DType, []int{bins + 1}, x)
	if err != nil {
		return nil, err
	}
	if _, err := Fill(counts, Int(0)); err != nil {
		return nil, err
	}
	out, err := Narrow(counts, 0, 0, bins)
	if err != nil || x.NumEl() == 0 {
		return out, err
	}
	flat, err := Reshape(x, []int{-1})
	if err != nil {
		return nil, err
	}
	pos, err := histcBins(flat, bins, lo, hi)
	if err != nil {
		return nil, err
	}
	if _, err := Scatter(name, optable.ScatterAdd, counts, 0, pos, Int(1).ViewAs(x.DType), true); err != nil {
		return nil, err
	}
	return out, nil
}

// Note [Histogram bins]
//
// PyTorch 1.13's histc takes its edges from linspace(lo, hi, bins+1) in
// x's dtype (Note [PyTorch's linspace]), whose last element need not be
// hi, and maps each element x that is not below the first edge L nor
// above the last edge R to bin (x - L)/(R - L)·bins, computed in x's
// dtype (in this order: the product first would round differently at the
// edges), converted to an integer; bin bins is the last bin. A NaN
// element is neither below nor above, and neither is any element when
// the edges are NaN (an (R - L) that overflows the dtype makes linspace's
// step infinite); the bin of a NaN, or of an infinite quotient, converts
// to the smallest int64 on x86 (undefined in C++), and PyTorch's index
// into its histogram, that times the element size, wraps around to bin 0.
// A bin beyond bins, which a bfloat16 bins above 256 rounded up to the
// next bfloat16 gives at hi, is written past the histogram: that element
// is not counted. histcBins does the same, bit for bit: checked against
// PyTorch on thousands of random ranges, with elements on every edge,
// elements of ±3.4e38 and ±1e308 whose differences overflow, NaN and ±Inf.

// histcBins returns the bin of each element of the 1-D flat (int64; bins
// for an element left out) (Note [Histogram bins]).
func histcBins(flat *raw.View, bins int, lo, hi float64) (*raw.View, error) {
	edges := Linspace(lo, hi, bins+1, flat.DType)
	l, r := edges[0], edges[bins]
	ar := linspaceArith(flat.DType)
	below, err := Pointwise(optable.Lt, nil, false, nil, flat, Float(l).Wrap())
	if err != nil {
		return nil, err
	}
	above, err := Pointwise(optable.Gt, nil, false, nil, flat, Float(r).Wrap())
	if err != nil {
		return nil, err
	}
	out, err := Pointwise(optable.LogicalOr, nil, false, nil, below, above)
	if err != nil {
		return nil, err
	}
	t, err := Pointwise(optable.Sub, nil, false, nil, flat, Float(l).Wrap())
	if err != nil {
		return nil, err
	}
	if t, err = Pointwise(optable.Div, nil, false, nil, t, Float(ar.op(r-l)).Wrap()); err != nil {
		return nil, err
	}
	if t, err = Pointwise(optable.Mul, nil, false, nil, t, Float(ar.integer(bins)).Wrap()); err != nil {
		return nil, err
	}
	// a quotient that is not finite is bin 0, and bins the last bin;
	// beyond bins (a bfloat16 bins rounded up) PyTorch writes past its
	// histogram, so the element is left out
	finite, err := Pointwise(optable.IsFinite, nil, false, nil, t)
	if err != nil {
		return nil, err
	}
	if t, err = Pointwise(optable.Where, nil, false, nil, finite, t, Float(0).ViewAs(t.DType)); err != nil {
		return nil, err
	}
	pos, err := To(t, dtype.Int64)
	if err != nil {
		return nil, err
	}
	last, err := Pointwise(optable.Eq, nil, false, nil, pos, Int(int64(bins)).Wrap())
	if err != nil {
		return nil, err
	}
	if pos, err = Pointwise(optable.Where, nil, false, nil, last, Int(int64(bins-1)).ViewAs(dtype.Int64), pos); err != nil {
		return nil, err
	}
	beyond, err := Pointwise(optable.Gt, nil, false, nil, pos, Int(int64(bins)).Wrap())
	if err != nil {
		return nil, err
	}
	if out, err = Pointwise(optable.LogicalOr, nil, false, nil, out, beyond); err != nil {
		return nil, err
	}
	return Pointwise(optable.Where, nil, false, nil, out, Int(int64(bins)).ViewAs(dtype.Int64), pos)
}

// cFloat formats x as C++'s ostream does by default (six significant
// digits; inf, nan with their signs).
func cFloat(x float64) string {
	switch {
	case math.IsNaN(x) && math.Signbit(x):
		return "-nan"
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// readFloat64 reads the one element of v as a float64.
func readFloat64(v *raw.View) float64 {
	s, err := readScalar(v)
	if err != nil {
		return 0
	}
	return s.F
}

// Unique is torch.unique (sorted): the distinct elements of v in ascending
// order (1-D), the inverse (int64 of v's shape: each element's position in
// that list) and the counts (int64). With a dim (hasDim), the distinct
// slices along dim in lexicographic order, the inverse and counts of
// length size(dim).
func Unique(v *raw.View, hasDim bool, dim int) (uniq, inverse, counts *raw.View, err error) {
	name := "unique"
	if hasDim {
		name = "unique_dim"
	}
	if v.DType == dtype.Float16 {
		return nil, nil, nil, errs.New(errs.DType, name, "%q not implemented for 'Half'", name)
	}
	var rows *raw.View // [n, r]: the items to make unique, one per row
	var rest []int     // the shape of one item
	d := 0
	if hasDim {
		if d, err = shape.WrapDim(dim, v.Dim()); err != nil {
			return nil, nil, nil, errs.WithOp(err, name)
		}
		if v.Dim() == 0 {
			return nil, nil, nil, errs.New(errs.Index, name, "unique_dim(): dimension out of range for a 0-dim tensor")
		}
		moved, err := Movedim(v, []int{d}, []int{0})
		if err != nil {
			return nil, nil, nil, err
		}
		rest = moved.Shape[1:]
		c, err := Contiguous(moved)
		if err != nil {
			return nil, nil, nil, err
		}
		rows = c.WithLayout([]int{moved.Shape[0], shape.NumEl(rest)}, []int{shape.NumEl(rest), 1}, c.Offset)
	} else {
		flat, err := Reshape(v, []int{-1, 1})
		if err != nil {
			return nil, nil, nil, err
		}
		rows = flat
	}
	n, r := rows.Shape[0], rows.Shape[1]
	// Note [Unique of bfloat16]: PyTorch 1.13 collects the distinct
	// elements of a bfloat16 tensor (without dim) in a hash set of their
	// bits, so -0 and +0 are two elements, +0 sorted first. The sign of
	// zero then is one more key, sorted before the values.
	signed := !hasDim && v.DType == dtype.BFloat16
	// Note [Unique with NaN]: where NaN (or, along a dim, -0) leaves the
	// order to PyTorch's containers, the rows take the order it makes;
	// elsewhere a stable sort of the rows, column by column from the last
	var order []int
	nanFree := true // whether the inverse and counts of NaNs are theirs
	if v.DType.IsFloat() && n > 0 && r > 0 {
		// the host copy only where some element breaks the order
		broken, err := orderBroken(rows, hasDim)
		if err != nil {
			return nil, nil, nil, err
		}
		var h *hostFloats
		if broken {
			if h, err = readHostFloats(rows); err != nil {
				return nil, nil, nil, err
			}
		}
		switch {
		case !broken:
		case hasDim:
			order = uniqueDimOrder(h, n, r)
		default:
			order, nanFree = uniqueSetOrder(h), false
		}
	}
	var perm *raw.View
	if order != nil {
		perm, err = indexTensor(order, v)
	} else {
		perm, err = arange(name, n, v)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	sortBy := func(col *raw.View) error {
		key, err := IndexSelect(col, 0, perm)
		if err != nil {
			return err
		}
		_, order, err := Sort(key, 0, false)
		if err != nil {
			return err
		}
		perm, err = IndexSelect(perm, 0, order)
		return err
	}
	var signs *raw.View
	if signed {
		col, _ := Select(rows, 1, 0)
		if signs, err = Pointwise(optable.Signbit, nil, false, nil, col); err != nil {
			return nil, nil, nil, err
		}
		if order == nil {
			if err := sortBy(signs); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	for c := r - 1; c >= 0 && order == nil; c-- {
		col, err := Select(rows, 1, c)
		if err != nil {
			return nil, nil, nil, err
		}
		if err := sortBy(col); err != nil {
			return nil, nil, nil, err
		}
	}
	sorted, err := IndexSelect(rows, 0, perm)
	if err != nil {
		return nil, nil, nil, err
	}
	// first: whether each sorted row differs from the one before
	first, err := empty(name, dtype.Bool, []int{n}, v)
	if err != nil {
		return nil, nil, nil, err
	}
	if n > 0 {
		if _, err := Fill(first, Bool(true)); err != nil {
			return nil, nil, nil, err
		}
	}
	if n > 1 && r > 0 {
		a, _ := Narrow(sorted, 0, 1, n-1)
		b, _ := Narrow(sorted, 0, 0, n-1)
		ne, err := Pointwise(optable.Ne, nil, false, nil, a, b)
		if err != nil {
			return nil, nil, nil, err
		}
		dst, _ := Narrow(first, 0, 1, n-1)
		if _, err := Reduce(optable.Any, ne, []int{1}, false, dtype.Invalid, []*raw.View{dst}, nil); err != nil {
			return nil, nil, nil, err
		}
		if signed {
			s, err := IndexSelect(signs, 0, perm)
			if err != nil {
				return nil, nil, nil, err
			}
			a, _ := Narrow(s, 0, 1, n-1)
			b, _ := Narrow(s, 0, 0, n-1)
			flip, err := Pointwise(optable.Ne, nil, false, nil, a, b)
			if err != nil {
				return nil, nil, nil, err
			}
			if _, err := Pointwise(optable.LogicalOr, dst, false, nil, dst, flip); err != nil {
				return nil, nil, nil, err
			}
		}
	} else if n > 1 {
		dst, _ := Narrow(first, 0, 1, n-1)
		if _, err := Fill(dst, Bool(false)); err != nil {
			return nil, nil, nil, err
		}
	}
	starts, err := Nonzero(first) // [u, 1]: where each distinct row starts
	if err != nil {
		return nil, nil, nil, err
	}
	starts, _ = Select(starts, 1, 0)
	u := starts.Shape[0]
	if uniq, err = IndexSelect(sorted, 0, starts); err != nil {
		return nil, nil, nil, err
	}
	if hasDim {
		c, err := Contiguous(uniq)
		if err != nil {
			return nil, nil, nil, err
		}
		sizes := append([]int{u}, rest...)
		uniq = c.WithLayout(sizes, shape.Contiguous(sizes), c.Offset)
		if uniq, err = Movedim(uniq, []int{0}, []int{d}); err != nil {
			return nil, nil, nil, err
		}
		if uniq, err = Contiguous(uniq); err != nil {
			return nil, nil, nil, err
		}
	} else {
		uniq = uniq.WithLayout([]int{u}, []int{uniq.Strides[0]}, uniq.Offset)
	}
	// counts: the distances between the starts (and n)
	ends, err := empty(name, dtype.Int64, []int{u}, v)
	if err != nil {
		return nil, nil, nil, err
	}
	if u > 0 {
		if u > 1 {
			next, _ := Narrow(starts, 0, 1, u-1)
			head, _ := Narrow(ends, 0, 0, u-1)
			if _, err := CopyInto(name, head, next, false); err != nil {
				return nil, nil, nil, err
			}
		}
		tail, _ := Narrow(ends, 0, u-1, 1)
		if _, err := Fill(tail, Int(int64(n))); err != nil {
			return nil, nil, nil, err
		}
	}
	if counts, err = Pointwise(optable.Sub, nil, false, nil, ends, starts); err != nil {
		return nil, nil, nil, err
	}
	// inverse: each sorted row's group number, sent back to its position
	group, err := Scan(optable.CumSum, first, 0, dtype.Int64, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	g, err := Pointwise(optable.Sub, nil, false, nil, group[0], Int(1).Wrap())
	if err != nil {
		return nil, nil, nil, err
	}
	inv, err := empty(name, dtype.Int64, []int{n}, v)
	if err != nil {
		return nil, nil, nil, err
	}
	if n > 0 {
		if _, err := Scatter(name, optable.Scatter, inv, 0, perm, g, true); err != nil {
			return nil, nil, nil, err
		}
	}
	if hasDim {
		inverse = inv
	} else {
		inverse = inv.WithLayout(append([]int{}, v.Shape...), shape.Contiguous(v.Shape), inv.Offset)
	}
	if !nanFree {
		if counts, err = zeroWhereNaN(uniq, counts); err != nil {
			return nil, nil, nil, err
		}
		if inverse, err = zeroWhereNaN(v, inverse); err != nil {
			return nil, nil, nil, err
		}
	}
	return uniq, inverse, counts, nil
}

// zeroWhereNaN returns x (int64) with 0 where the element of like at the
// same position is NaN: PyTorch's unique reads a NaN's inverse and count
// from hash maps in which it finds nothing (Note [Unique with NaN]).
func zeroWhereNaN(like, x *raw.View) (*raw.View, error) {
	nan, err := Pointwise(optable.IsNan, nil, false, nil, like)
	if err != nil {
		return nil, err
	}
	return Pointwise(optable.Where, nil, false, nil, nan, Int(0).ViewAs(dtype.Int64), x)
}

// arange returns the int64 tensor [0, n) on the device of vs.
func arange(name string, n int, vs ...*raw.View) (*raw.View, error) {
	host := raw.New(dtype.Int64, []int{n})
	for i := 0; i < n; i++ {
		host.SetInt64(i, int64(i))
	}
	return onDeviceOf(host, vs...)
}

// onDeviceOf returns host, a view built on the host, on the device of vs.
func onDeviceOf(host *raw.View, vs ...*raw.View) (*raw.View, error) {
	if d, _ := home(vs); d != nil && d.Storage.Device() != host.Storage.Device() {
		return ToDevice(host, d.Storage.Allocator())
	}
	return host, nil
}
