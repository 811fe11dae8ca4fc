package op

import (
	"fmt"
	"slices"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Note [Advanced indexing]
//
// x[items] runs as in PyTorch (its applySlicing, then index): integers,
// slices, None and the ellipsis make a view of x first, leaving the
// advanced indices — int64 tensors, and bool masks turned into the int64
// coordinates of their true elements (nonzero) — each on a dim of that
// view. The index tensors broadcast together to a shape B, and the result
// has B in place of the indexed dims when they are consecutive, else B
// first and the other dims after (advancedPlan). Its kernel walks the
// result's shape with the view restrided: stride 0 on B's dims, so each
// position of the walk starts at the element of index 0 of the indexed
// dims and adds index·stride of each (Note [Index plans] in package
// kernel). index_put (x[items] = v) is the same plan with the view as the
// destination, and index_select, take, put, index_add, index_copy and
// index_fill are index plans with one index tensor.

// ItemKind says what an [Item] of an index is.
type ItemKind uint8

// The kinds of index items.
const (
	ItemInt      ItemKind = iota + 1 // an integer: select, removing the dim
	ItemSlice                        // start:stop:step of one dim
	ItemNone                         // a new dim of size 1
	ItemEllipsis                     // as many whole dims as the other items leave
	ItemTensor                       // an int64 index tensor or a bool mask
)

// Item is one item of an index, Python's t[item, ...].
type Item struct {
	Kind              ItemKind
	I                 int // ItemInt
	Start, Stop, Step int // ItemSlice (Step ≥ 1)
	HasStart, HasStop bool
	T                 *raw.View // ItemTensor
}

// advanced is one advanced index: an int64 tensor on a dim of the view.
type advanced struct {
	dim int
	t   *raw.View
}

// readInt64 reads the one element of v as an int64, from any device.
func readInt64(v *raw.View) (int64, error) {
	h, err := ToDevice(v, device.CPUAllocator)
	if err != nil {
		return 0, err
	}
	var x int64
	h.ElementOffsets(func(off int) { x = h.Int64At(off) })
	return x, nil
}

// indexBounds returns the least and the greatest element of the integer
// tensor idx (with elements), from any device.
func indexBounds(idx *raw.View) (lo, hi int64, err error) {
	if idx, err = To(idx, dtype.Int64); err != nil {
		return 0, 0, err
	}
	for k, r := range []*optable.Op{optable.Amin, optable.Amax} {
		res, err := Reduce(r, idx, nil, false, dtype.Invalid, nil, nil)
		if err != nil {
			return 0, 0, err
		}
		x, err := readInt64(res[0])
		if err != nil {
			return 0, 0, err
		}
		if k == 0 {
			lo = x
		} else {
			hi = x
		}
	}
	return lo, hi, nil
}

// indexOutside returns an element of the integer idx outside [lo, hi)
// and true, if there is one: the least if it is below lo, else the
// greatest. An empty idx has none.
func indexOutside(idx *raw.View, lo, hi int64) (int64, bool, error) {
	if idx.NumEl() == 0 {
		return 0, false, nil
	}
	least, most, err := indexBounds(idx)
	switch {
	case err != nil:
		return 0, false, err
	case least < lo:
		return least, true, nil
	case most >= hi:
		return most, true, nil
	}
	return 0, false, nil
}

// isMask reports whether an index tensor is a mask (bool, or PyTorch's
// deprecated uint8).
func isMask(t *raw.View) bool { return t.DType == dtype.Bool || t.DType == dtype.Uint8 }

// pending is an index tensor of an index, on a dim of the view the basic
// items make, not yet checked (PyTorch checks them in index, after
// applySlicing has applied the basic items).
type pending struct {
	dim int
	t   *raw.View
}

// applyItems applies the basic items of an index to v, as PyTorch's
// applySlicing does, and returns the view with the index tensors left on
// its dims (Note [Advanced indexing]). A 0-dim integer tensor is an
// integer there, a 0-dim mask a new dim. With put (index_put_), index
// tensors alone count one each against v's dims, as PyTorch's
// index_put_ counts them, a mask with more dims than are left failing its
// shape check instead (checkMask).
func applyItems(name string, v *raw.View, items []Item, put bool) (*raw.View, []pending, error) {
	consumed, ellipses := 0, 0
	for _, it := range items {
		switch it.Kind {
		case ItemEllipsis:
			ellipses++
		case ItemTensor:
			if it.T == nil {
				return nil, nil, errs.New(errs.Value, name, "an index tensor is nil")
			}
		case ItemInt, ItemSlice, ItemNone:
		default:
			return nil, nil, errs.New(errs.Value, name, "unknown index item")
		}
		consumed += itemDims(it)
	}
	if ellipses > 1 {
		return nil, nil, errs.New(errs.Index, name, "an index can only have a single ellipsis ('...')")
	}
	if put && tensorsOnly(items) {
		if len(items) > v.Dim() {
			return nil, nil, errs.New(errs.Index, name, "too many indices for tensor of dimension %d (got %d)", v.Dim(), len(items))
		}
		items = PutItems(items)
	} else if consumed > v.Dim() {
		return nil, nil, errs.New(errs.Index, name, "too many indices for tensor of dimension %d", v.Dim())
	}
	var ts []pending
	d := 0
	var err error
	before := 0 // the dims the items so far consume
	for _, it := range items {
		before += itemDims(it)
		switch it.Kind {
		case ItemInt:
			if v, err = selectIndex(name, v, d, it.I); err != nil {
				return nil, nil, err
			}
		case ItemSlice:
			if it.Step <= 0 {
				return nil, nil, errs.New(errs.Value, name, "step must be greater than zero")
			}
			var start, stop *int
			if it.HasStart {
				start = &it.Start
			}
			if it.HasStop {
				stop = &it.Stop
			}
			if v, err = Slice(v, d, start, stop, it.Step); err != nil {
				return nil, nil, errs.WithOp(err, name)
			}
			d++
		case ItemNone:
			if v, err = Unsqueeze(v, d); err != nil {
				return nil, nil, err
			}
			d++
		case ItemEllipsis:
			d = v.Dim() - (consumed - before) // the dims left to the items after it
		case ItemTensor:
			t := it.T
			switch {
			case t.Dim() == 0 && t.DType.IsInt() && !isMask(t) && !(put && tensorsOnly(items)):
				// an integer
				i, err := readIndex(t)
				if err != nil {
					return nil, nil, err
				}
				if v, err = selectIndex(name, v, d, int(i)); err != nil {
					return nil, nil, err
				}
			case t.Dim() == 0 && isMask(t): // a new dim of size 1 or 0
				if v, err = Unsqueeze(v, d); err != nil {
					return nil, nil, err
				}
				b, err := readIndex(t)
				if err != nil {
					return nil, nil, err
				}
				n := 0
				if b != 0 {
					n = 1
				}
				idx, err := empty(name, dtype.Int64, []int{n}, v)
				if err != nil {
					return nil, nil, err
				}
				if n != 0 {
					if _, err := Fill(idx, Int(0)); err != nil {
						return nil, nil, err
					}
				}
				ts = append(ts, pending{d, idx})
				d++
			default:
				ts = append(ts, pending{d, t})
				if isMask(t) {
					d += t.Dim()
				} else {
					d++
				}
			}
		}
	}
	return v, ts, nil
}

// Note [index_put_'s 0-dim indices]
//
// A subscript reads a 0-dim integer tensor as an integer and a 0-dim mask
// as a new dim of size 1 or 0, as Python's indexing does. PyTorch's
// index_put_ itself (index tensors only) does neither: a 0-dim integer
// tensor stays an index tensor (of int64 only, which advancedOf checks),
// so its bounds are checked by the kernel, only when the result has
// elements; and its expandTensors replaces each mask by the columns of
// its nonzero(), none for a 0-dim mask, which thus takes no dim and
// selects nothing: v.index_put_((tensor(False), tensor(1)), x) writes row
// 1. A lone 0-dim mask with one value, not accumulated, is masked_fill_
// (canDispatchToMaskedFill) and keeps its subscript meaning, all or
// nothing.

// PutItems returns the index tensors of index_put_ itself (items of
// tensors only) as it reads them: without the 0-dim masks when there is
// more than one item (Note [index_put_'s 0-dim indices]). Other items
// are returned as they are.
func PutItems(items []Item) []Item {
	if len(items) < 2 || !tensorsOnly(items) {
		return items
	}
	kept := make([]Item, 0, len(items))
	for _, it := range items {
		if !(it.T.Dim() == 0 && isMask(it.T)) {
			kept = append(kept, it)
		}
	}
	return kept
}

// tensorsOnly reports whether every item is an index tensor.
func tensorsOnly(items []Item) bool {
	for _, it := range items {
		if it.Kind != ItemTensor {
			return false
		}
	}
	return true
}

// readIndex reads the one element of an integer (or bool) v as an int64.
func readIndex(v *raw.View) (int64, error) {
	if v.DType != dtype.Int64 {
		var err error
		if v, err = To(v, dtype.Int64); err != nil {
			return 0, err
		}
	}
	return readInt64(v)
}

// planOf is the index plan of the index tensors ts over w (advancedOf,
// then advancedPlan).
func planOf(name string, w *raw.View, ts []pending) (*indexPlan, error) {
	adv, err := advancedOf(name, w, ts)
	if err != nil {
		return nil, err
	}
	return advancedPlan(name, w, adv)
}

// checkMask checks that the sizes of mask t match those of v's dims from
// d on.
func checkMask(name string, t, v *raw.View, d int) error {
	for j := 0; j < t.Dim(); j++ {
		if d+j >= v.Dim() { // index_put_'s masks (applyItems)
			return errs.New(errs.Index, name, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -v.Dim(), v.Dim()-1, d+j)
		}
		if t.Shape[j] != v.Shape[d+j] {
			return errs.New(errs.Shape, name, "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d",
				shape.Format(t.Shape), j, shape.Format(v.Shape), d+j)
		}
	}
	return nil
}

// advancedOf checks the index tensors ts over v (PyTorch's
// checkIndexTensorTypes, then expandTensors) and returns them as int64
// advanced indices, a mask as the coordinates of its true elements.
func advancedOf(name string, v *raw.View, ts []pending) ([]advanced, error) {
	for _, p := range ts {
		if p.t.DType != dtype.Int64 && !isMask(p.t) {
			return nil, errs.New(errs.DType, name, "tensors used as indices must be long, byte or bool tensors")
		}
	}
	var adv []advanced
	for _, p := range ts {
		t, d := p.t, p.dim
		if !isMask(t) {
			adv = append(adv, advanced{d, t})
			continue
		}
		if err := checkMask(name, t, v, d); err != nil {
			return nil, err
		}
		m := t
		if m.DType != dtype.Bool {
			var err error
			if m, err = To(m, dtype.Bool); err != nil {
				return nil, err
			}
		}
		nz, err := Nonzero(m)
		if err != nil {
			return nil, err
		}
		for j := 0; j < t.Dim(); j++ {
			col, err := Select(nz, 1, j)
			if err != nil {
				return nil, err
			}
			adv = append(adv, advanced{d + j, col})
		}
	}
	return adv, nil
}

// itemDims returns the dims of the indexed tensor an item takes.
func itemDims(it Item) int {
	switch it.Kind {
	case ItemInt, ItemSlice:
		return 1
	case ItemTensor:
		switch {
		case !isMask(it.T):
			return 1
		case it.T.Dim() == 0:
			return 0 // a 0-dim mask adds a dim
		}
		return it.T.Dim()
	}
	return 0
}

// selectIndex is select along dim with PyTorch's indexing message.
func selectIndex(name string, v *raw.View, dim, i int) (*raw.View, error) {
	if dim < v.Dim() {
		if s := v.Shape[dim]; i < -s || i >= s {
			return nil, errs.New(errs.Index, name, "index %d is out of bounds for dimension %d with size %d", i, dim, s)
		}
	}
	r, err := Select(v, dim, i)
	return r, errs.WithOp(err, name)
}

// indexPlan is the layout of an advanced index over a view: the result's
// shape, the view restrided over it, the index tensors over it, and the
// kernel's arguments (Note [Advanced indexing]).
type indexPlan struct {
	shape   []int
	view    *raw.View // restrided: stride 0 on the index dims
	indices []*raw.View
	args    kernel.Args
}

// advancedPlan lays out the advanced indices adv over v.
func advancedPlan(name string, v *raw.View, adv []advanced) (*indexPlan, error) {
	var b []int
	for k, a := range adv {
		if k == 0 {
			b = append([]int{}, a.t.Shape...)
			continue
		}
		nb, err := shape.Broadcast(b, a.t.Shape)
		if err != nil {
			shapes := ""
			for j, x := range adv {
				if j > 0 {
					shapes += ", "
				}
				shapes += shape.Format(x.t.Shape)
			}
			return nil, errs.New(errs.Shape, name, "shape mismatch: indexing tensors could not be broadcast together with shapes %s", shapes)
		}
		b = nb
	}
	if !slices.Contains(b, 0) {
		for _, a := range adv {
			if v.Shape[a.dim] == 0 {
				// no position is valid in an empty dim (PyTorch's check
				// before its restride_src)
				return nil, errs.New(errs.Index, name, "index is out of bounds for dimension with size 0")
			}
		}
	}
	consecutive := true
	indexed := make([]bool, v.Dim())
	for k, a := range adv {
		indexed[a.dim] = true
		if k > 0 && a.dim != adv[k-1].dim+1 {
			consecutive = false
		}
	}
	var sizes, strides []int
	bAt := 0 // where B's dims start in the result
	if consecutive {
		first, last := adv[0].dim, adv[len(adv)-1].dim
		sizes = append(sizes, v.Shape[:first]...)
		strides = append(strides, v.Strides[:first]...)
		bAt = first
		sizes = append(sizes, b...)
		strides = append(strides, make([]int, len(b))...)
		sizes = append(sizes, v.Shape[last+1:]...)
		strides = append(strides, v.Strides[last+1:]...)
	} else {
		sizes = append(sizes, b...)
		strides = append(strides, make([]int, len(b))...)
		for d := range v.Shape {
			if !indexed[d] {
				sizes = append(sizes, v.Shape[d])
				strides = append(strides, v.Strides[d])
			}
		}
	}
	ip := &indexPlan{shape: sizes, view: v.WithLayout(sizes, strides, v.Offset), args: kernel.DefaultArgs}
	es := v.DType.Size()
	for _, a := range adv {
		t := a.t
		if t.DType != dtype.Int64 {
			var err error
			if t, err = To(t, dtype.Int64); err != nil {
				return nil, err
			}
		}
		l, err := shape.Expand(layoutOf(t), b)
		if err != nil {
			return nil, errs.WithOp(err, name)
		}
		st := make([]int, len(sizes))
		copy(st[bAt:], l.Strides)
		ip.indices = append(ip.indices, t.WithLayout(sizes, st, t.Offset))
		ip.args.IndexSizes = append(ip.args.IndexSizes, v.Shape[a.dim])
		ip.args.IndexStrides = append(ip.args.IndexStrides, v.Strides[a.dim]*es)
		ip.args.IndexDims = append(ip.args.IndexDims, a.dim)
	}
	return ip, nil
}

// runIndexGet reads the advanced index ip into a new view.
func runIndexGet(name string, ip *indexPlan) (*raw.View, error) {
	cfg := iter.NewConfig().Op(name).StaticDType(ip.view.DType).CheckMemOverlap(false).AddOutput(nil).AddInput(ip.view)
	for _, t := range ip.indices {
		cfg.AddInput(t)
	}
	p, be, err := planOn(name, cfg)
	if err != nil {
		return nil, err
	}
	if be != nil {
		if err := be.Index(optable.IndexGet, p, &ip.args); err != nil {
			return nil, errs.WithOp(err, name)
		}
	}
	return p.Output(0), nil
}

// runIndexPut writes values (of ip's shape or broadcast to it) through the
// advanced index ip: IndexPut, or IndexPutAdd (alpha in ip.args).
func runIndexPut(name string, ip *indexPlan, values *raw.View, accumulate bool) error {
	vals, err := Expand(values, ip.shape)
	if err != nil {
		return errs.New(errs.Shape, name, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
			shape.Format(values.Shape), shape.Format(ip.shape))
	}
	cfg := iter.NewConfig().Op(name).StaticDType(ip.view.DType).CheckMemOverlap(false).ResizeOutputs(false).
		AddOutput(ip.view).AddInput(vals)
	for _, t := range ip.indices {
		cfg.AddInput(t)
	}
	p, be, err := planOn(name, cfg)
	if err != nil || be == nil {
		return err
	}
	kop := optable.IndexPut
	if accumulate {
		kop = optable.IndexPutAdd
	}
	return errs.WithOp(be.Index(kop, p, &ip.args), name)
}

// Index is Python's v[items] (Note [Advanced indexing]): a view of v when
// the items are integers, slices, None and the ellipsis only, else a new
// tensor.
func Index(v *raw.View, items []Item) (*raw.View, error) {
	const name = "index"
	if v == nil {
		return nil, errs.New(errs.Value, name, "the input is nil")
	}
	if len(items) == 1 && items[0].Kind == ItemTensor && items[0].T != nil && items[0].T.DType == dtype.Bool &&
		shape.Equal(items[0].T.Shape, v.Shape) && v.Dim() > 0 {
		// x[mask] over every dim: masked_select, without the coordinates
		return MaskedSelect(v, items[0].T)
	}
	w, ts, err := applyItems(name, v, items, false)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return w, nil
	}
	ip, err := planOf(name, w, ts)
	if err != nil {
		return nil, err
	}
	return runIndexGet(name, ip)
}

// checkWritable refuses an in-place destination whose elements overlap
// (an expanded view): PyTorch's assert_no_internal_overlap.
func checkWritable(name string, self *raw.View) error {
	return iter.CheckNoInternalOverlap(name, self)
}

// Note [Writes into expanded tensors]
//
// PyTorch 1.13 lets index_put_ (and so v[items] = values) write into a v
// whose elements share memory, an expanded v, with a deprecation warning.
// Its kernel writes the elements in its iterator's order, so where several
// elements of v[items] share one location the last write stays (with
// accumulate, every value adds into it); on one thread, as its cases run,
// that is the order of the iterator's dims, which goten's follows (Note
// [Reordering dims] in package iter). goten writes likewise, without the
// warning; its CPU kernel keeps the plan's order wherever elements share
// memory (Note [Put partitions] in package backend/cpu), so the result
// does not depend on the number of threads, where PyTorch's parallel
// writes would race.

// IndexPut writes values into v[items] (Python's v[items] = values), or
// adds them (accumulate: duplicates add up), and returns v. values must
// have v's dtype and broadcast to the shape of v[items]; as in PyTorch, a
// single mask with one value (not accumulated) is masked_fill, which
// converts the value to v's dtype. The checks run in PyTorch's order
// (_index_put_impl_): the basic items, the masked_fill case, overlaps,
// the index tensors, the values' shape, then their dtype.
func IndexPut(v *raw.View, items []Item, values *raw.View, accumulate bool) (*raw.View, error) {
	const name = "index_put_"
	if v == nil || values == nil {
		return nil, errs.New(errs.Value, name, "a tensor is nil")
	}
	w, ts, err := applyItems(name, v, items, true)
	if err != nil {
		return nil, err
	}
	if !accumulate && values.NumEl() == 1 && tensorsOnly(items) {
		if err := checkLeadingMask(name, v, items); err != nil {
			return nil, err
		}
	}
	if len(ts) == 0 {
		if values.DType != v.DType {
			return nil, errs.New(errs.DType, name, "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.",
				TorchName(v.DType), TorchName(values.DType))
		}
		if _, err := Expand(values, w.Shape); err != nil {
			return nil, errs.New(errs.Shape, name, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
				shape.Format(values.Shape), shape.Format(w.Shape))
		}
		if err := checkWritable(name, v); err != nil {
			return nil, err
		}
		if err := iter.CheckNoOverlap(name, v, values); err != nil {
			return nil, err
		}
		if accumulate {
			_, err = Pointwise(optable.Add, w, false, nil, w, values)
		} else {
			_, err = CopyInto(name, w, values, false)
		}
		return v, err
	}
	if !accumulate && values.NumEl() == 1 && len(ts) == 1 && isMask(ts[0].t) && ts[0].t.Dim() > 0 {
		if err := maskedFillPut(name, w, ts[0], values); err != nil {
			return nil, err
		}
		return v, nil
	}
	if err := iter.CheckNoOverlap(name, v, values); err != nil {
		return nil, err
	}
	for _, p := range ts {
		if err := iter.CheckNoOverlap(name, v, p.t); err != nil {
			return nil, err
		}
	}
	ip, err := planOf(name, w, ts)
	if err != nil {
		return nil, err
	}
	if _, err := Expand(values, ip.shape); err != nil {
		return nil, errs.New(errs.Shape, name, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
			shape.Format(values.Shape), shape.Format(ip.shape))
	}
	if values.DType != v.DType {
		return nil, errs.New(errs.DType, name, "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.",
			TorchName(v.DType), TorchName(values.DType))
	}
	// PyTorch 1.13 only warns of a write into an expanded v, and writes
	// (Note [Writes into expanded tensors])
	return v, runIndexPut(name, ip, values, accumulate)
}

// checkLeadingMask checks the shape of the first index of items if it is
// a mask: with one value and no accumulation, PyTorch's index_put_ first
// asks whether it can run masked_fill_ (canDispatchToMaskedFill), and
// that scan checks a first mask against v's dims before any index's dtype
// is checked (it stops at the first index that is not a mask, or at a
// second mask).
func checkLeadingMask(name string, v *raw.View, items []Item) error {
	if len(items) == 0 || !isMask(items[0].T) {
		return nil
	}
	return checkMask(name, items[0].T, v, 0)
}

// maskedFillPut is index_put_ with one mask p over w and one value: PyTorch's
// canDispatchToMaskedFill case, masked_fill_ with the value read as a
// number and converted to w's dtype.
func maskedFillPut(name string, w *raw.View, p pending, values *raw.View) error {
	t := p.t
	if err := checkMask(name, t, w, p.dim); err != nil {
		return err
	}
	// the mask over w's dims from p.dim on: leading dims broadcast
	sizes := append([]int{}, t.Shape...)
	strides := append([]int{}, t.Strides...)
	for len(sizes) < w.Dim()-p.dim {
		sizes = append(sizes, 1)
		strides = append(strides, 0)
	}
	m := t.WithLayout(sizes, strides, t.Offset)
	if m.DType != dtype.Bool {
		var err error
		if m, err = To(m, dtype.Bool); err != nil {
			return err
		}
	}
	val, err := Reshape(values, []int{})
	if err != nil {
		return err
	}
	_, err = MaskedFill(w, m, val, true)
	return errs.WithOp(err, name)
}

// TorchName is PyTorch's ScalarType name of d (Float, Long, ...), as its
// messages spell it.
func TorchName(d dtype.DType) string {
	switch d {
	case dtype.Bool:
		return "Bool"
	case dtype.Uint8:
		return "Byte"
	case dtype.Int8:
		return "Char"
	case dtype.Int16:
		return "Short"
	case dtype.Int32:
		return "Int"
	case dtype.Int64:
		return "Long"
	case dtype.Float16:
		return "Half"
	case dtype.BFloat16:
		return "BFloat16"
	case dtype.Float32:
		return "Float"
	case dtype.Float64:
		return "Double"
	}
	return d.String()
}

// oneDimIndex checks an index tensor of index_select, index_add,
// index_copy and index_fill (1-D, or 0-dim with one element) and returns
// it as a 1-D int64 view.
func oneDimIndex(name string, index *raw.View, msg string) (*raw.View, error) {
	if index.Dim() > 1 {
		return nil, errs.New(errs.Shape, name, "%s", msg)
	}
	if index.DType != dtype.Int64 {
		var err error
		if index, err = To(index, dtype.Int64); err != nil {
			return nil, err
		}
	}
	if index.Dim() == 0 {
		return index.WithLayout([]int{1}, []int{1}, index.Offset), nil
	}
	return index, nil
}

// asRank1 views a 0-dim tensor as 1-D of one element (PyTorch's indexing
// ops treat a 0-dim self as one).
func asRank1(v *raw.View) *raw.View {
	if v.Dim() == 0 {
		return v.WithLayout([]int{1}, []int{1}, v.Offset)
	}
	return v
}

// IndexSelect is torch.index_select: the slices of v along dim at the
// positions of index (1-D or one element, int64 or int32), in order.
func IndexSelect(v *raw.View, dim int, index *raw.View) (*raw.View, error) {
	const name = "index_select"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if index.DType != dtype.Int64 && index.DType != dtype.Int32 {
		return nil, errs.New(errs.DType, name, "index_select(): Expected dtype int32 or int64 for index")
	}
	idx, err := oneDimIndex(name, index, "index_select(): Index is supposed to be a vector")
	if err != nil {
		return nil, err
	}
	if v.Dim() > 1 && v.NumEl() == 0 && v.Shape[d] > 0 {
		// no element is read, but PyTorch checks the indices anyway
		bad, out, err := indexOutside(idx, 0, int64(v.Shape[d]))
		if err != nil {
			return nil, err
		}
		if out {
			return nil, errs.New(errs.Index, name, "INDICES element is out of DATA bounds, id=%d axis_dim=%d", bad, v.Shape[d])
		}
	}
	zeroDim := v.Dim() == 0
	ip, err := advancedPlan(name, asRank1(v), []advanced{{d, idx}})
	if err != nil {
		return nil, err
	}
	ip.args.NoWrap = true
	r, err := runIndexGet(name, ip)
	if err != nil {
		return nil, errs.New(errs.Index, name, "index out of range in self")
	}
	if zeroDim {
		return r.WithLayout([]int{}, []int{}, r.Offset), nil
	}
	return r, nil
}

// Take is torch.take: v read as 1-D in row-major order at the positions
// of index (int64, any shape, negative from the end).
func Take(v, index *raw.View) (*raw.View, error) {
	const name = "take"
	if index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "take(): Expected a long tensor for index, but got %s", TorchName(index.DType))
	}
	flat, err := Reshape(v, []int{-1})
	if err != nil {
		return nil, err
	}
	ip, err := advancedPlan(name, flat, []advanced{{0, index}})
	if err != nil {
		return nil, err
	}
	r, err := runIndexGet(name, ip)
	if e, ok := err.(*errs.Error); ok && e.Kind == errs.Index {
		return nil, errs.New(errs.Index, name, "out of range: tried to access an index out of a tensor of %d elements.", flat.NumEl())
	}
	return r, err
}

// Put is Tensor.put_: v read as 1-D in row-major order receives source's
// elements at the positions of index (negative from the end), or adds
// them (accumulate). It returns v.
func Put(v, index, source *raw.View, accumulate bool) (*raw.View, error) {
	const name = "put_"
	if index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "put_(): Expected a long tensor for index, but got %s", TorchName(index.DType))
	}
	if source.DType != v.DType {
		return nil, errs.New(errs.DType, name, "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s",
			TorchName(v.DType), TorchName(source.DType))
	}
	if source.NumEl() != index.NumEl() {
		return nil, errs.New(errs.Shape, name, "put_(): Expected source and index to have the same number of elements, but got source.numel() = %d, index.numel() = %d",
			source.NumEl(), index.NumEl())
	}
	if err := checkWritable(name, v); err != nil {
		return nil, err
	}
	if index.NumEl() == 0 {
		return v, nil
	}
	flat, err := View(v, []int{-1})
	copied := err != nil // v's layout has no 1-D view: work on a copy
	if copied {
		if flat, err = Contiguous(v); err != nil {
			return nil, err
		}
		flat = flat.WithLayout([]int{flat.NumEl()}, []int{1}, flat.Offset)
	}
	vals, err := Reshape(source, index.Shape)
	if err != nil {
		return nil, err
	}
	ip, err := advancedPlan(name, flat, []advanced{{0, index}})
	if err != nil {
		return nil, err
	}
	if err := runIndexPut(name, ip, vals, accumulate); err != nil {
		if e, ok := err.(*errs.Error); ok && e.Kind == errs.Index {
			return nil, errs.New(errs.Index, name, "out of range: tried to access an index out of a tensor of %d elements.", flat.NumEl())
		}
		return nil, err
	}
	if copied {
		if _, err := CopyInto(name, v, flat.WithLayout(v.Shape, shape.Contiguous(v.Shape), flat.Offset), false); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// indexAlong checks the source of index_add and index_copy: v's dtype, and
// v's sizes but n (the index's length) along dim d.
func indexAlong(name string, v, source *raw.View, d, n int) error {
	src := asRank1(source)
	self := asRank1(v)
	if src.Dim() != self.Dim() {
		return errs.New(errs.Shape, name, "%s(): Source/destination tensor must have same slice shapes", name)
	}
	if err := indexCount(name, src, d, n); err != nil {
		return err
	}
	for k := range self.Shape {
		if k != d && self.Shape[k] != src.Shape[k] {
			return errs.New(errs.Shape, name, "%s(): Source/destination tensor must have same slice shapes", name)
		}
	}
	return nil
}

// indexCount checks that src (a source seen at rank 1 or more) has n
// slices along dim d, where it has that dim (PyTorch's message).
func indexCount(name string, src *raw.View, d, n int) error {
	if d < src.Dim() && src.Shape[d] != n {
		return errs.New(errs.Shape, name, "%s(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: %d", name, n, src.Shape[d], d)
	}
	return nil
}

// IndexAdd is Tensor.index_add_: for each j, v.select(dim, index[j]) +=
// alpha·source.select(dim, j) (duplicates add up). It returns v.
func IndexAdd(v *raw.View, dim int, index, source *raw.View, alpha Scalar) (*raw.View, error) {
	const name = "index_add_"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if index.DType != dtype.Int64 && index.DType != dtype.Int32 {
		return nil, errs.New(errs.DType, name, "index_add_(): Expected dtype int32/int64 for index but got: %s", TorchName(index.DType))
	}
	if source.DType != v.DType {
		return nil, errs.New(errs.DType, name, "index_add_(): self (%s) and source (%s) must have the same scalar type", TorchName(v.DType), TorchName(source.DType))
	}
	idx, err := oneDimIndex(name, index, "index_add_(): Index is supposed to be a vector")
	if err != nil {
		return nil, err
	}
	// PyTorch's meta function checks the number of indices and then the
	// overlaps of self; its kernel the slice shapes
	if err := indexCount(name, asRank1(source), d, idx.NumEl()); err != nil {
		return nil, err
	}
	if err := checkWritable(name, v); err != nil {
		return nil, err
	}
	src, err := indexAddSource(name, v, source, d, idx.NumEl())
	if err != nil {
		return nil, err
	}
	if err := indexAddAlpha(name, v, d, idx, alpha); err != nil {
		return nil, err
	}
	if idx.NumEl() == 0 {
		return v, nil
	}
	if v.NumEl() == 0 {
		// the put visits no element, but PyTorch 1.13 still refuses an
		// index out of [0, size): an index error either way
		_, out, err := indexOutside(idx, 0, int64(v.Shape[d]))
		if err != nil {
			return nil, err
		}
		if out {
			return nil, errs.New(errs.Index, name, "index out of range in self")
		}
	}
	if err := putAlong(name, v, d, idx, src, &alpha, "index out of range in self"); err != nil {
		return nil, err
	}
	return v, nil
}

// indexAddSource checks index_add_'s source against v as PyTorch 1.13's
// kernel does, and returns it seen with v's shape but n along dim d. A v
// of at most one dim takes a source of at most one dim. A larger v adds
// each slice of source into its own through an in-place add, so that a
// slice broadcasts to v's (with that add's messages), checked only when
// there is an index to add.
func indexAddSource(name string, v, source *raw.View, d, n int) (*raw.View, error) {
	src := asRank1(source)
	if v.Dim() <= 1 {
		if source.Dim() > 1 {
			return nil, errs.New(errs.Shape, name, "source.dim() (%d) must one or zero for given self.dim() (%d)", source.Dim(), v.Dim())
		}
		return src, nil
	}
	if n == 0 {
		return nil, nil // no slice is read: IndexAdd returns first
	}
	if src.Dim() <= d {
		return nil, errs.New(errs.Shape, name, "%s(): Source/destination tensor must have same slice shapes", name)
	}
	without := func(xs []int) []int { return append(append([]int{}, xs[:d]...), xs[d+1:]...) }
	selfSlice := v.WithLayout(without(v.Shape), without(v.Strides), v.Offset)
	srcSlice := src.WithLayout(without(src.Shape), without(src.Strides), src.Offset)
	// the in-place add's shape checks, and messages
	cfg := iter.NewConfig().Op(name).ResizeOutputs(false).AddOutput(selfSlice).AddInput(selfSlice).AddInput(srcSlice)
	if err := cfg.CheckShapes(); err != nil {
		return nil, err
	}
	e, err := Expand(srcSlice, selfSlice.Shape)
	if err != nil {
		return nil, err
	}
	with := func(xs []int, x int) []int { return append(append(append([]int{}, xs[:d]...), x), xs[d:]...) }
	return src.WithLayout(with(e.Shape, n), with(e.Strides, src.Strides[d]), src.Offset), nil
}

// indexAddAlpha checks index_add_'s alpha where PyTorch 1.13's kernel
// reads it, as an element of v's dtype (a float alpha of an integer v is
// truncated, with no add's alpha check; one out of the dtype's range is
// refused, Note [Checked scalars]): first thing for a v of at most one
// dim; for more, in the add of the first slice, after the first index's
// bounds, and not at all when there is no index or v has no element.
func indexAddAlpha(name string, v *raw.View, d int, idx *raw.View, alpha Scalar) error {
	if v.Dim() > 1 {
		if idx.NumEl() == 0 || v.NumEl() == 0 {
			return nil
		}
		first, err := Narrow(idx, 0, 0, 1)
		if err != nil {
			return err
		}
		i, err := readIndex(first)
		if err != nil {
			return err
		}
		if i < 0 || i >= int64(v.Shape[d]) {
			return errs.New(errs.Index, name, "index out of range in self")
		}
	}
	return alpha.Check(name, v.DType)
}

// putAlong writes src into the slices of v along dim d that idx picks —
// adding alpha·src (index_add_) when alpha is not nil, else copying
// (index_copy_) — once v is known writable. An index error of the put
// becomes one with the op's own message outOfRange.
func putAlong(name string, v *raw.View, d int, idx, src *raw.View, alpha *Scalar, outOfRange string) error {
	if err := checkWritable(name, v); err != nil {
		return err
	}
	ip, err := advancedPlan(name, asRank1(v), []advanced{{d, idx}})
	if err != nil {
		return err
	}
	ip.args.NoWrap = true
	if alpha != nil {
		ip.args.AlphaF, ip.args.AlphaI, ip.args.AlphaFloat = alpha.F, alpha.I, alpha.IsFloat()
	}
	if err := runIndexPut(name, ip, src, alpha != nil); err != nil {
		if e, ok := err.(*errs.Error); ok && e.Kind == errs.Index {
			return errs.New(errs.Index, name, "%s", outOfRange)
		}
		return err
	}
	return nil
}

// restridedEmpty reports whether v has no elements along dim d and would
// have none with that dim's size n: PyTorch's index_copy_ and index_fill_
// restride v so (its dim d to n elements, of stride 0) and then read no
// index when it has no elements (a [0, 0] v along dim 1 takes index 5),
// where advancedPlan refuses any index along an empty dim.
func restridedEmpty(v *raw.View, d, n int) bool {
	r := asRank1(v)
	if r.Shape[d] != 0 {
		return false
	}
	sizes := slices.Clone(r.Shape)
	sizes[d] = n
	return shape.NumEl(sizes) == 0
}

// IndexCopy is Tensor.index_copy_: for each j, v.select(dim, index[j]) =
// source.select(dim, j). It returns v.
func IndexCopy(v *raw.View, dim int, index, source *raw.View) (*raw.View, error) {
	const name = "index_copy_"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	// PyTorch 1.13 checks self's overlaps before the index and source
	if err := checkWritable(name, v); err != nil {
		return nil, err
	}
	if index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "index_copy_(): Expected a long tensor for index, but got %s", TorchName(index.DType))
	}
	if source.DType != v.DType {
		return nil, errs.New(errs.DType, name, "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
			TorchName(v.DType), TorchName(source.DType))
	}
	idx, err := oneDimIndex(name, index, "index_copy_(): Index should have dimension 1 or 0")
	if err != nil {
		return nil, err
	}
	src := asRank1(source)
	if src.Dim() > d && src.Shape[d] != idx.NumEl() {
		return nil, errs.New(errs.Shape, name, "index_copy_(): Number of indices (%d) should be equal to source.size(dim) (%d)", idx.NumEl(), src.Shape[d])
	}
	if err := indexAlong(name, v, source, d, idx.NumEl()); err != nil {
		return nil, err
	}
	if restridedEmpty(v, d, idx.NumEl()) {
		return v, nil
	}
	outOfRange := fmt.Sprintf("index_copy_(): index out of bounds for dimension %d with size %d", d, asRank1(v).Shape[d])
	if err := putAlong(name, v, d, idx, src, nil, outOfRange); err != nil {
		return nil, err
	}
	return v, nil
}

// IndexFill is Tensor.index_fill_: v.select(dim, i) = value for each i of
// index (int64, negative from the end); value is converted to v's dtype.
// It returns v.
func IndexFill(v *raw.View, dim int, index *raw.View, value Scalar) (*raw.View, error) {
	const name = "index_fill_"
	d, err := shape.WrapDim(dim, v.Dim())
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if index.DType != dtype.Int64 {
		return nil, errs.New(errs.DType, name, "index_fill_(): Expected dtype int64 for index.")
	}
	idx, err := oneDimIndex(name, index, "index_fill_(): Index is supposed to be a vector")
	if err != nil {
		return nil, err
	}
	if restridedEmpty(v, d, idx.NumEl()) {
		return v, nil
	}
	ip, err := advancedPlan(name, asRank1(v), []advanced{{d, idx}})
	if err != nil {
		return nil, err
	}
	if err := value.Check(name, v.DType); err != nil { // Note [Checked scalars]
		return nil, err
	}
	val := value.ViewAs(v.DType)
	if v.Storage != nil && v.Storage.Device() != val.Storage.Device() {
		if val, err = ToDevice(val, v.Storage.Allocator()); err != nil {
			return nil, err
		}
	}
	return v, runIndexPut(name, ip, val, false)
}
