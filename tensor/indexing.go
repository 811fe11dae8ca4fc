package tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Item is one item of an index, as Python's t[item, ...] takes them: make
// one with [Pos], [Span], [From], [Until], [Idx], or use [Whole], [NewAxis]
// and [Ellipsis].
type Item struct{ it op.Item }

// Pos is the index item i: the position i of one dim (negative from the
// end), which removes the dim.
func Pos(i int) Item { return Item{op.Item{Kind: op.ItemInt, I: i}} }

// Span is the index item start:stop of one dim (negative bounds count from
// the end; both clamp to the dim, as Python's slices do).
func Span(start, stop int) Item {
	return Item{op.Item{Kind: op.ItemSlice, Start: start, Stop: stop, HasStart: true, HasStop: true, Step: 1}}
}

// From is the index item start: of one dim.
func From(start int) Item {
	return Item{op.Item{Kind: op.ItemSlice, Start: start, HasStart: true, Step: 1}}
}

// Until is the index item :stop of one dim.
func Until(stop int) Item {
	return Item{op.Item{Kind: op.ItemSlice, Stop: stop, HasStop: true, Step: 1}}
}

// Idx is an advanced index item: an int64 tensor of positions (negative
// from the end) of one dim, or a bool mask over as many dims as it has,
// standing for the coordinates of its true elements. A 0-dim tensor of
// any integer dtype but uint8 acts as [Pos] (as in Python's indexing).
func Idx(t *Tensor) Item { return Item{op.Item{Kind: op.ItemTensor, T: t.view()}} }

// The index items without arguments.
var (
	Whole    = Item{op.Item{Kind: op.ItemSlice, Step: 1}} // ":", a whole dim
	NewAxis  = Item{op.Item{Kind: op.ItemNone}}           // None, a new dim of size 1
	Ellipsis = Item{op.Item{Kind: op.ItemEllipsis}}       // "...", as many whole dims as the others leave
)

// By returns the slice item it with step k (start:stop:k); k must be
// positive (else Index panics with a value error). Items other than
// slices are returned unchanged.
func (it Item) By(k int) Item {
	if it.it.Kind == op.ItemSlice {
		it.it.Step = k
	}
	return it
}

func items(its []Item) []op.Item {
	r := make([]op.Item, len(its))
	for i, it := range its {
		r[i] = it.it
	}
	return r
}

// Index returns t[items...] with PyTorch's indexing rules: integers
// ([Pos]) select and remove their dim, slices ([Span], [From], [Until],
// [Whole]) keep start:stop:step, [NewAxis] inserts a dim of size 1 and
// [Ellipsis] stands for the dims the other items leave; dims left over
// at the end are taken whole. These alone give a view of t. Index tensors
// ([Idx]) are advanced indices: they broadcast together to a shape B,
// which replaces the dims they index if those are consecutive, and comes
// first otherwise; the result is then a new tensor. More items than dims
// is an index error, a position or index element out of range an index
// error, an index tensor of another dtype than int64 or bool a dtype
// error, and a mask whose sizes differ from the dims it covers a shape
// error.
func (t *Tensor) Index(its ...Item) *Tensor {
	v, err := op.Index(t.view(), items(its))
	must(err)
	if v.Storage == t.v.Storage { // basic indexing only: a view
		return narrowed("IndexBackward0", t, t.viewOf(v, nil), func(z *Tensor) *Tensor { return z.Index(its...) })
	}
	sh := t.Shape()
	return recordNew("IndexBackward0", []*Tensor{t}, wrap(v), func(_ *node, g *Tensor) []*Tensor {
		return []*Tensor{IndexPut(fullOn(g, Scalar(0), g.DType(), sh), subscript(its), g, true)}
	})
}

// putItems returns its as index_put_ reads them ([op.PutItems]): with
// only tensors, and more than one, its 0-dim masks select nothing and
// take no dim.
func putItems(its []Item) []Item {
	kept := op.PutItems(items(its))
	if len(kept) == len(its) {
		return its
	}
	r := make([]Item, len(kept))
	for i, it := range kept {
		r[i] = Item{it}
	}
	return r
}

// subscript returns its as a Python subscript for IndexPut: with only
// tensors, an Ellipsis after them, which selects nothing more, makes
// IndexPut read 0-dim integer tensors of any dtype as integers, as the
// subscript does, where index_put_ itself takes int64 ones only.
func subscript(its []Item) []Item {
	for _, it := range its {
		if it.it.Kind != op.ItemTensor {
			return its
		}
	}
	return append(its[:len(its):len(its)], Ellipsis)
}

// IndexPut returns a copy of t with values written at t[items...] (see
// [Tensor.Index]); with accumulate they are added, duplicates adding up.
// values has t's dtype (else a dtype error) and broadcasts to the shape
// of t[items...] (else a shape error) — except, as in PyTorch, one value
// written (not accumulated) through one mask, which is masked_fill: the
// value is converted to t's dtype. With only tensors as items it is
// PyTorch's index_put_, which takes integer index tensors of int64 only,
// 0-dim ones included (a subscript reads a 0-dim integer tensor of any
// dtype as an integer; add [Ellipsis] for that), and among several items
// drops 0-dim masks, which select nothing and take no dim (a subscript
// makes them a new dim of size 1 or 0).
func IndexPut(t *Tensor, its []Item, values *Tensor, accumulate bool) *Tensor {
	return t.Clone().IndexPutInPlace(its, values, accumulate)
}

// IndexPutInPlace writes values into t[items...] as [IndexPut] does, and
// returns t. An expanded t (elements sharing memory) is written as PyTorch
// 1.13 writes it: where elements share memory the last write in the
// iterator's order stays, or with accumulate every value adds in (Note
// [Writes into expanded tensors] in package op).
func (t *Tensor) IndexPutInPlace(its []Item, values *Tensor, accumulate bool) *Tensor {
	rec := beginWrite("index_put_", t, values)
	_, err := op.IndexPut(t.view(), items(its), values.view(), accumulate)
	must(err)
	return endWrite(rec, "IndexPutBackward0", t, []*Tensor{values}, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		switch {
		case n.needs(0) && accumulate:
			out[0] = g
		case n.needs(0):
			out[0] = IndexPut(g, its, zero(g), false)
		}
		if n.needs(1) {
			out[1] = g.Index(putItems(its)...)
		}
		return out
	})
}

// IndexSelect returns the slices of t along dim at the positions of index
// (1-D or one element, int64 or int32; no negative positions), in order,
// duplicates allowed: t's shape with dim's size len(index).
func IndexSelect(t *Tensor, dim int, index *Tensor) *Tensor {
	sh := t.Shape()
	return recordNew("IndexSelectBackward0", []*Tensor{t}, newResult(op.IndexSelect(t.view(), dim, index.view())),
		func(_ *node, g *Tensor) []*Tensor {
			return []*Tensor{IndexAdd(fullOn(g, Scalar(0), g.DType(), sh), dim, index.Reshape(-1), g)}
		})
}

// IndexSelect returns [IndexSelect] of t.
func (t *Tensor) IndexSelect(dim int, index *Tensor) *Tensor { return IndexSelect(t, dim, index) }

// Embedding returns the rows of weight [n, d] at the int64 positions of
// indices (any shape): indices' shape followed by d
// (torch.nn.functional.embedding).
func Embedding(indices, weight *Tensor) *Tensor {
	if weight.Dim() != 2 {
		panic(errs.New(errs.Shape, "embedding", "'weight' must be 2-D"))
	}
	rows := IndexSelect(weight, 0, indices.Reshape(-1))
	return rows.Reshape(append(indices.Shape(), weight.Size(1))...)
}

// Gather returns out[i][j][k] = t[index[i][j][k]][j][k] for dim 0
// (likewise along the other dims), of index's shape. index is int64 with
// t's number of dims and sizes no larger than t's but along dim.
func Gather(t *Tensor, dim int, index *Tensor) *Tensor {
	sh := t.Shape()
	return recordNew("GatherBackward0", []*Tensor{t}, newResult(op.Gather(t.view(), dim, index.view())),
		func(_ *node, g *Tensor) []*Tensor {
			return []*Tensor{ScatterAdd(fullOn(g, Scalar(0), g.DType(), sh), dim, index, g)}
		})
}

// Gather returns [Gather] of t.
func (t *Tensor) Gather(dim int, index *Tensor) *Tensor { return Gather(t, dim, index) }

// Reduction is how scatter_reduce combines the values sent to one
// element (and [Scatter]'s optional reduce: ReduceSum or ReduceProd).
type Reduction uint8

// The reductions of [ScatterReduce].
const (
	ReduceSum  Reduction = Reduction(op.ReduceSum)
	ReduceProd Reduction = Reduction(op.ReduceProd)
	ReduceMean Reduction = Reduction(op.ReduceMean)
	ReduceAmax Reduction = Reduction(op.ReduceAmax)
	ReduceAmin Reduction = Reduction(op.ReduceAmin)
)

// Scatter returns a copy of t with src written along dim at the positions
// of index: out[index[i][j][k]][j][k] = src[i][j][k] for dim 0. src is a
// tensor of t's dtype (its leading part of index's shape is used) or a
// [Scalar] (written wherever index points). The optional reduce, ReduceSum
// or ReduceProd, combines each value with the element instead (PyTorch's
// reduce "add" and "multiply").
func Scatter(t *Tensor, dim int, index, src *Tensor, reduce ...Reduction) *Tensor {
	return scatter(t, dim, index, src, false, reduce, len(reduce) > 0)
}

// ScatterInPlace is [Scatter] into t; it returns t.
func (t *Tensor) ScatterInPlace(dim int, index, src *Tensor, reduce ...Reduction) *Tensor {
	return scatter(t, dim, index, src, true, reduce, len(reduce) > 0)
}

// scatter is scatter(_) with reduce, or scatter_add(_) (reduce ReduceSum,
// byReduce false): PyTorch 1.13 has a derivative for scatter_add but none
// for scatter's reduce= form, even "add".
func scatter(t *Tensor, dim int, index, src *Tensor, inPlace bool, reduce []Reduction, byReduce bool) *Tensor {
	name := "scatter"
	if inPlace {
		name = "scatter_"
	}
	kop := optable.Scatter
	switch {
	case len(reduce) > 1:
		panic(errs.New(errs.Value, name, "scatter takes at most one reduce, got %d", len(reduce)))
	case len(reduce) == 1 && reduce[0] == ReduceSum:
		kop = optable.ScatterAdd
	case len(reduce) == 1 && reduce[0] == ReduceProd:
		kop = optable.ScatterMul
	case len(reduce) == 1:
		panic(errs.New(errs.Value, name, "reduce argument must be either add or multiply."))
	}
	tv, iv, sv := t.in(name), index.in(name), src.in(name)
	var rec bool
	if inPlace {
		rec = beginWrite(name, t, src)
	}
	var r *raw.View
	var err error
	if sv.Wrapped {
		r, err = op.ScatterValue(name, kop, tv, dim, iv, op.ScalarOf(sv), inPlace)
	} else {
		r, err = op.Scatter(name, kop, tv, dim, iv, sv, inPlace)
	}
	must(err)
	grad := scatterGrad(kop, dim, index, src)
	if byReduce {
		grad = notImplementedAten("scatter")
	}
	if inPlace {
		return endWrite(rec, "ScatterBackward0", t, []*Tensor{src}, grad)
	}
	return recordNew("ScatterBackward0", []*Tensor{t, src}, wrap(r), grad)
}

// scatterGrad is the backward of scatter (kop Scatter) and scatter_add
// (ScatterAdd) of src along dim at index: the overwritten elements get no
// gradient; src gets the gradient read back at its positions.
func scatterGrad(kop *optable.Op, dim int, index, src *Tensor) gradFn {
	if kop != optable.Scatter && kop != optable.ScatterAdd {
		return notDifferentiable("scatter")
	}
	return func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		switch {
		case n.needs(0) && kop == optable.ScatterAdd:
			out[0] = g
		case n.needs(0):
			out[0] = Scatter(g, dim, index, Scalar(0))
		}
		if n.needs(1) {
			out[1] = padTo(g.Gather(dim, index), src.Shape())
		}
		return out
	}
}

// padTo returns g, a gradient of the leading part of a tensor of shape sh
// (no larger on any dim), as a gradient of the whole: zeros elsewhere.
func padTo(g *Tensor, sh []int) *Tensor {
	if g.Dim() != len(sh) || slices.Equal(g.v.Shape, sh) {
		return g
	}
	gs := g.Shape()
	return scatterView(g, sh, func(z *Tensor) *Tensor {
		for d, n := range gs {
			z = z.Narrow(d, 0, n)
		}
		return z
	})
}

// ScatterAdd returns a copy of t with src added along dim at the positions
// of index (duplicates add up).
func ScatterAdd(t *Tensor, dim int, index, src *Tensor) *Tensor {
	return scatter(t, dim, index, src, false, []Reduction{ReduceSum}, false)
}

// ScatterAddInPlace is [ScatterAdd] into t; it returns t.
func (t *Tensor) ScatterAddInPlace(dim int, index, src *Tensor) *Tensor {
	return scatter(t, dim, index, src, true, []Reduction{ReduceSum}, false)
}

// ScatterReduce returns a copy of t where each element that index targets
// along dim becomes the reduction r of the src values sent to it, and of
// its own value when includeSelf; the others keep theirs. ReduceMean
// rounds down for integers; ReduceAmax and ReduceAmin propagate NaN. Its
// gradients are PyTorch's (scatterReduceGrad).
func ScatterReduce(t *Tensor, dim int, index, src *Tensor, r Reduction, includeSelf bool) *Tensor {
	res := newResult(op.ScatterReduce(t.view(), dim, index.view(), src.view(), op.ScatterReduceMode(r), includeSelf, false))
	return recordNew("ScatterReduceBackward0", []*Tensor{t, src}, res, scatterReduceGrad(t, dim, index, src, r, includeSelf, res))
}

// ScatterReduceInPlace is [ScatterReduce] into t; it returns t.
func (t *Tensor) ScatterReduceInPlace(dim int, index, src *Tensor, r Reduction, includeSelf bool) *Tensor {
	rec := beginWrite("scatter_reduce_", t, src)
	var old *Tensor
	if rec && t.DType().IsFloat() {
		old = t.Clone() // the backward reads t's values before the write
	}
	_, err := op.ScatterReduce(t.view(), dim, index.view(), src.view(), op.ScatterReduceMode(r), includeSelf, true)
	must(err)
	if old == nil {
		return endWrite(rec, "ScatterReduceBackward0", t, []*Tensor{src}, nil)
	}
	return endWrite(rec, "ScatterReduceBackward0", t, []*Tensor{src}, scatterReduceGrad(old, dim, index, src, r, includeSelf, nil))
}

// scatterReduceGrad is PyTorch 1.13's scatter_reduce_backward: the
// gradients of self and src of result = self.scatter_reduce(dim, index,
// src, r, includeSelf), from g, the gradient of result.
//
//   - sum: g for self, g gathered at index for src;
//   - prod: g·result/self and g·result/src, where a zero is replaced by 1
//     in the divisor and in the product recomputed without it (a src that
//     is the only zero sent to its element gets g times the product of
//     the others);
//   - mean: g divided by the number of values reduced into each element;
//   - amax, amin: g split evenly between the values (of self and of src)
//     equal to the result;
//
// and with includeSelf false the targeted elements of self get none. A
// nil result (the in-place op, whose output is self's storage) is
// recomputed from self and src, so that it is differentiable again.
func scatterReduceGrad(self *Tensor, dim int, index, src *Tensor, r Reduction, includeSelf bool, result *Tensor) gradFn {
	return func(n *node, g *Tensor) []*Tensor {
		result := result
		if result == nil && (r == ReduceProd || r == ReduceAmax || r == ReduceAmin) {
			result = ScatterReduce(self, dim, index, src, r, includeSelf)
		}
		// the part of src that scatter reads: index's shape
		s := src
		if index.Dim() == src.Dim() && index.Dim() > 0 {
			for d, k := range index.v.Shape {
				s = s.Narrow(d, 0, k)
			}
		}
		var gSelf, gSrc *Tensor
		dt := self.DType()
		switch r {
		case ReduceSum:
			gSelf, gSrc = g, g.Gather(dim, index)
		case ReduceProd:
			one := Scalar(1)
			maskedSelf := MaskedFill(self, self.Eq(Scalar(0)), one)
			gSelf = g.Mul(ScatterReduce(maskedSelf, dim, index, s, ReduceProd, includeSelf)).Div(maskedSelf)
			srcZero := s.Eq(Scalar(0))
			zeros := ZerosLike(self)
			nZeros := ScatterAdd(zeros, dim, index, srcZero.To(dt)).Gather(dim, index)
			single := srcZero.LogicalAnd(nZeros.Eq(Scalar(1)))
			without := ScatterReduce(self, dim, index, MaskedFill(s, single, one), ReduceProd, includeSelf)
			gSrc = Where(single, g.Mul(without).Gather(dim, index),
				g.Mul(result).Gather(dim, index).Div(MaskedFill(s, srcZero, one)))
		case ReduceMean:
			cnt := ZerosLike(g)
			if includeSelf {
				cnt = OnesLike(g)
			}
			cnt = ScatterAdd(cnt, dim, index, OnesLike(s))
			cnt = Where(cnt.Eq(Scalar(0)), Scalar(1), cnt)
			gSelf = g.Div(cnt)
			gSrc = g.Gather(dim, index).Div(cnt.Gather(dim, index))
		case ReduceAmax, ReduceAmin:
			value := result.Gather(dim, index)
			selfIs := self.Eq(result).To(dt)
			srcIs := s.Eq(value).To(dt)
			shared := g.Div(ScatterAdd(selfIs, dim, index, srcIs))
			gSelf = selfIs.Mul(shared)
			gSrc = srcIs.Mul(shared.Gather(dim, index))
		default:
			panic(errs.New(errs.Value, "scatter_reduce", "reduce argument must be either sum, prod, mean, amax or amin"))
		}
		out := make([]*Tensor, 2)
		if n.needs(0) {
			if !includeSelf {
				gSelf = Scatter(gSelf, dim, index, Scalar(0))
			}
			out[0] = gSelf
		}
		if n.needs(1) {
			out[1] = padTo(gSrc, src.Shape())
		}
		return out
	}
}

// alphaOf reads index_add's optional alpha (1 when absent).
func alphaOf(name string, alpha []*Tensor) op.Scalar {
	switch len(alpha) {
	case 0:
		return op.Int(1)
	case 1:
		return number(name, "alpha", alpha[0])
	}
	panic(errs.New(errs.Value, name, "%s takes at most one alpha, got %d", name, len(alpha)))
}

// IndexAdd returns a copy of t where, for each j, the slice at index[j]
// along dim gets alpha·source's slice j added (duplicates add up). index
// is 1-D int64 or int32 without negative positions; source has t's dtype
// and t's sizes but len(index) along dim. alpha, a [Scalar], is 1 when
// absent and must not be a float for an integer t.
func IndexAdd(t *Tensor, dim int, index, source *Tensor, alpha ...*Tensor) *Tensor {
	return t.Clone().IndexAddInPlace(dim, index, source, alpha...)
}

// IndexAddInPlace is [IndexAdd] into t; it returns t.
func (t *Tensor) IndexAddInPlace(dim int, index, source *Tensor, alpha ...*Tensor) *Tensor {
	rec := beginWrite("index_add_", t, source)
	_, err := op.IndexAdd(t.view(), dim, index.view(), source.view(), alphaOf("index_add_", alpha))
	must(err)
	return endWrite(rec, "IndexAddBackward0", t, []*Tensor{source}, func(n *node, g *Tensor) []*Tensor {
		out := []*Tensor{g, nil}
		if n.needs(1) {
			gs := g.IndexSelect(dim, index.Reshape(-1))
			if len(alpha) == 1 {
				gs = gs.Mul(alpha[0])
			}
			out[1] = gs.Reshape(source.Shape()...)
		}
		return out
	})
}

// IndexCopy returns a copy of t where, for each j, the slice at index[j]
// along dim is source's slice j. index is 1-D int64 without duplicates or
// negative positions.
func IndexCopy(t *Tensor, dim int, index, source *Tensor) *Tensor {
	return t.Clone().IndexCopyInPlace(dim, index, source)
}

// IndexCopyInPlace is [IndexCopy] into t; it returns t.
func (t *Tensor) IndexCopyInPlace(dim int, index, source *Tensor) *Tensor {
	rec := beginWrite("index_copy_", t, source)
	_, err := op.IndexCopy(t.view(), dim, index.view(), source.view())
	must(err)
	return endWrite(rec, "IndexCopyBackward0", t, []*Tensor{source}, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		if n.needs(0) {
			out[0] = IndexFill(g, dim, index, zero(g))
		}
		if n.needs(1) {
			out[1] = g.IndexSelect(dim, index.Reshape(-1)).Reshape(source.Shape()...)
		}
		return out
	})
}

// IndexFill returns a copy of t whose slices along dim at the positions of
// index (1-D int64, negative from the end) are value: a [Scalar] or a
// 0-dim tensor, converted to t's dtype.
func IndexFill(t *Tensor, dim int, index, value *Tensor) *Tensor {
	return t.Clone().IndexFillInPlace(dim, index, value)
}

// IndexFillInPlace is [IndexFill] into t; it returns t.
func (t *Tensor) IndexFillInPlace(dim int, index, value *Tensor) *Tensor {
	rec := beginWrite("index_fill_", t, value)
	_, err := op.IndexFill(t.view(), dim, index.view(), fillValue("index_fill_", value))
	must(err)
	return endWrite(rec, "IndexFillBackward0", t, []*Tensor{value}, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		if n.needs(0) {
			out[0] = IndexFill(g, dim, index, zero(g))
		}
		if n.needs(1) {
			// index_fill's positions may be negative, index_select's not
			i := index.Reshape(-1)
			i = Where(i.Lt(Scalar(0)), i.Add(Scalar(int64(g.Size(dim)))), i)
			out[1] = g.IndexSelect(dim, i).Sum()
		}
		return out
	})
}

// fillValue reads a fill value: a [Scalar] or a 0-dim tensor.
func fillValue(name string, value *Tensor) op.Scalar {
	if value == nil {
		panic(errs.New(errs.Value, name, "the value is nil"))
	}
	if value.Dim() != 0 {
		panic(errs.New(errs.Shape, name, "%s only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", name, value.Dim()))
	}
	return op.ScalarOf(value.hostView())
}

// MaskedFill returns t with value where the bool mask is true: t and mask
// broadcast together (the result may be larger than t). value is a
// [Scalar] or a 0-dim tensor, converted to t's dtype. A mask of another
// dtype is read as PyTorch 1.13 reads it: element by element, its first
// byte, which must be 0 or 1 (else a value error), so that a float 1.0 is
// false (Note [Masks of other dtypes] in package op).
func MaskedFill(t, mask, value *Tensor) *Tensor {
	return recordNew("MaskedFillBackward0", []*Tensor{t, value}, newResult(op.MaskedFill(t.view(), mask.view(), fillView(value), false)),
		maskedFillGrad(mask))
}

// maskedFillGrad is masked_fill's backward: the filled elements' gradient
// goes to the value. PyTorch computes the value's with masked_select,
// which refuses a mask neither bool nor uint8 (that masked_fill took):
// a dtype error, raised before any gradient is returned.
func maskedFillGrad(mask *Tensor) gradFn {
	return func(n *node, g *Tensor) []*Tensor {
		if n.needs(1) {
			selectableMask(mask)
		}
		mask := boolOf(mask)
		out := make([]*Tensor, 2)
		if n.needs(0) {
			out[0] = MaskedFill(g, mask, zero(g))
		}
		if n.needs(1) {
			out[1] = Where(mask, g, Scalar(0)).Sum()
		}
		return out
	}
}

// MaskedFillInPlace is [MaskedFill] into t, the mask broadcast to t's
// shape; it returns t.
func (t *Tensor) MaskedFillInPlace(mask, value *Tensor) *Tensor {
	rec := beginWrite("masked_fill_", t, value)
	_, err := op.MaskedFill(t.view(), mask.view(), fillView(value), true)
	must(err)
	return endWrite(rec, "MaskedFillBackward0", t, []*Tensor{value}, maskedFillGrad(mask))
}

// selectableMask panics with masked_select's dtype error unless mask is
// bool or uint8: the gradients PyTorch computes with masked_select refuse
// the other masks that masked_fill and masked_scatter took.
func selectableMask(mask *Tensor) {
	if d := mask.DType(); d != Bool && d != Uint8 {
		panic(errs.New(errs.DType, "masked_select", "masked_select: expected BoolTensor or ByteTensor for mask"))
	}
}

// boolOf returns a mask the op accepted as the bool mask it read (Note
// [Masks of other dtypes] in package op).
func boolOf(mask *Tensor) *Tensor {
	if mask.DType() == Bool {
		return mask
	}
	return newResult(op.BoolMask("masked_fill", mask.view()))
}

func fillView(value *Tensor) *raw.View {
	if value == nil {
		panic(errs.New(errs.Value, "masked_fill", "the value is nil"))
	}
	return value.hostView()
}

// MaskedSelect returns the elements of t where the bool mask is true, t
// and mask broadcast together, in row-major order, as a new 1-D tensor.
// A uint8 mask of 0s and 1s is taken as bool (PyTorch 1.13's deprecated
// byte mask; another value is a value error); a mask of another dtype is
// a dtype error.
func MaskedSelect(t, mask *Tensor) *Tensor {
	r := newResult(op.MaskedSelect(t.view(), mask.view()))
	return recordNew("MaskedSelectBackward0", []*Tensor{t}, r, func(_ *node, g *Tensor) []*Tensor {
		// PyTorch's masked_select_backward: zeros laid out like the
		// broadcast input (preserve format), masked_scatter_ into them,
		// which takes g in their memory order
		sh, err := shape.Broadcast(t.v.Shape, mask.v.Shape)
		must(err)
		e, err := op.Expand(t.v, sh)
		must(err)
		z, err := op.EmptyLike(e, g.DType())
		must(err)
		_, err = op.Fill(z, op.Int(0))
		must(err)
		return []*Tensor{wrap(z).MaskedScatterInPlace(mask, g)}
	})
}

// MaskedScatter returns a copy of t (broadcast with the bool mask) whose
// elements where mask is true receive source's elements in row-major
// order. source has t's dtype and at least as many elements as the mask
// selects (else a shape error). A mask of another dtype is taken as in
// [MaskedFill].
func MaskedScatter(t, mask, source *Tensor) *Tensor {
	v, m := t.view(), mask.view()
	sh, err := shape.Broadcast(m.Shape, v.Shape) // PyTorch's expand_outplace(mask, self): its message names the mask first
	must(errs.WithOp(err, "masked_scatter"))
	base := t.Expand(sh...).Contiguous()
	if base.SharesStorage(t) {
		base = base.Clone()
	}
	return base.MaskedScatterInPlace(mask, source)
}

// MaskedScatterInPlace is [MaskedScatter] into t, the mask broadcast to
// t's shape; it returns t.
func (t *Tensor) MaskedScatterInPlace(mask, source *Tensor) *Tensor {
	rec := beginWrite("masked_scatter_", t, source)
	_, err := op.MaskedScatter(t.view(), mask.view(), source.view())
	must(err)
	return endWrite(rec, "MaskedScatterBackward0", t, []*Tensor{source}, func(n *node, g *Tensor) []*Tensor {
		if n.needs(1) {
			selectableMask(mask)
		}
		mask := boolOf(mask)
		out := make([]*Tensor, 2)
		if n.needs(0) {
			out[0] = MaskedFill(g, mask, zero(g))
		}
		if n.needs(1) {
			// the selected gradients, in order, then zeros for the source
			// elements that were not used
			sel := MaskedSelect(g, mask)
			if k := source.NumEl() - sel.NumEl(); k > 0 {
				sel = Cat([]*Tensor{sel, fullOn(g, Scalar(0), g.DType(), []int{k})}, 0)
			}
			out[1] = sel.Reshape(source.Shape()...)
		}
		return out
	})
}

// Nonzero returns the int64 coordinates [n, t.Dim()] of t's n nonzero
// elements in row-major order (NaN is nonzero, -0 is zero; a 0-dim t
// gives [1, 0] or [0, 0]).
func Nonzero(t *Tensor) *Tensor { return newResult(op.Nonzero(t.view())) }

// Take returns t read as 1-D in row-major order (whatever its layout) at
// the positions of index (int64, any shape: the result's; negative from
// the end).
func Take(t, index *Tensor) *Tensor {
	sh := t.Shape()
	return recordNew("TakeBackward0", []*Tensor{t}, newResult(op.Take(t.view(), index.view())), func(_ *node, g *Tensor) []*Tensor {
		return []*Tensor{Put(fullOn(g, Scalar(0), g.DType(), sh), index, g, true)}
	})
}

// Put returns a copy of t, read as 1-D in row-major order, with source's
// elements written at the positions of index (int64, negative from the
// end), or added with accumulate (duplicates adding up). source has t's
// dtype and as many elements as index.
func Put(t, index, source *Tensor, accumulate bool) *Tensor {
	return t.Clone().PutInPlace(index, source, accumulate)
}

// PutInPlace is [Put] into t; it returns t.
func (t *Tensor) PutInPlace(index, source *Tensor, accumulate bool) *Tensor {
	rec := beginWrite("put_", t, source)
	_, err := op.Put(t.view(), index.view(), source.view(), accumulate)
	must(err)
	return endWrite(rec, "PutBackward0", t, []*Tensor{source}, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		switch {
		case n.needs(0) && accumulate:
			out[0] = g
		case n.needs(0):
			out[0] = Put(g, index, fullOn(g, Scalar(0), g.DType(), index.Shape()), false)
		}
		if n.needs(1) {
			out[1] = Take(g, index).Reshape(source.Shape()...)
		}
		return out
	})
}
