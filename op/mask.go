package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// countNonzero returns the number of nonzero elements of v (any layout,
// expanded dims counting each time).
func countNonzero(v *raw.View) (int, error) {
	if v.NumEl() == 0 {
		return 0, nil
	}
	r, err := Reduce(optable.CountNonzero, v, nil, false, dtype.Invalid, nil, nil)
	if err != nil {
		return 0, err
	}
	n, err := readInt64(r[0])
	return int(n), err
}

// runMask runs the mask op m over a plan of the operands ins
// (after the packed operand), with the packed operand packed of shape
// shp, whose packed layout args describe.
func runMask(name string, m *optable.Op, plan []int, packed *raw.View, ins []*raw.View, args *kernel.Args) error {
	// masked_scatter_ fills self in its memory order, as PyTorch's
	// iterator walks it; the others pack in row-major order
	linear := m != optable.MaskedScatter
	cfg := iter.NewConfig().Op(name).StaticShape(plan).StaticDType(packed.DType).CheckMemOverlap(false).
		ResizeOutputs(false).EnforceLinearIteration(linear)
	cfg.AddOutput(packed)
	for _, v := range ins {
		cfg.AddInput(v)
	}
	p, be, err := planOn(name, cfg)
	if err != nil || be == nil {
		return err
	}
	return errs.WithOp(be.Mask(m, p, args), name)
}

// restrideZero returns v seen with shape plan and stride 0 everywhere: a
// packed operand of a mask plan (Note [Mask plans] in package kernel).
func restrideZero(v *raw.View, plan []int) *raw.View {
	return v.WithLayout(plan, make([]int, len(plan)), v.Offset)
}

// maskOperands checks mask (bool, or PyTorch 1.13's deprecated uint8 of
// 0s and 1s, checked after the shapes) and broadcasts v and mask together
// (PyTorch's message on a mismatch), returning both expanded to that
// shape, the mask as bool.
func maskOperands(name string, v, mask *raw.View, what string) (*raw.View, *raw.View, error) {
	if mask.DType != dtype.Bool && mask.DType != dtype.Uint8 {
		return nil, nil, errs.New(errs.DType, name, "%s: expected BoolTensor or ByteTensor for mask", what)
	}
	sh, err := shape.Broadcast(mask.Shape, v.Shape) // PyTorch's expand_outplace(mask, self): its message names the mask first
	if err != nil {
		return nil, nil, errs.WithOp(err, name)
	}
	ve, err := Expand(v, sh)
	if err != nil {
		return nil, nil, err
	}
	// PyTorch's kernel checks the mask's values element by element: with
	// no elements to select from, none
	if mask, err = boolMask(name, mask, shape.NumEl(sh) > 0); err != nil {
		return nil, nil, err
	}
	me, err := Expand(mask, sh)
	if err != nil {
		return nil, nil, err
	}
	return ve, me, nil
}

// MaskedSelect is torch.masked_select: the elements of v where mask (bool
// or uint8 0s and 1s, broadcast with v) is true, in row-major order, as a new 1-D view.
func MaskedSelect(v, mask *raw.View) (*raw.View, error) {
	const name = "masked_select"
	ve, me, err := maskOperands(name, v, mask, name)
	if err != nil {
		return nil, err
	}
	n, err := countNonzero(me)
	if err != nil {
		return nil, err
	}
	out, err := empty(name, v.DType, []int{n}, v)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return out, nil
	}
	args := kernel.DefaultArgs
	args.Packed, args.PackedLen = []int{1}, n
	err = runMask(name, optable.MaskedSelect, ve.Shape, restrideZero(out, ve.Shape), []*raw.View{ve, me}, &args)
	return out, err
}

// Nonzero is torch.nonzero: the int64 coordinates [n, v.Dim()] of v's
// nonzero elements in row-major order (NaN is nonzero, -0 is zero).
func Nonzero(v *raw.View) (*raw.View, error) {
	const name = "nonzero"
	n, err := countNonzero(v)
	if err != nil {
		return nil, err
	}
	out, err := empty(name, dtype.Int64, []int{n, v.Dim()}, v)
	if err != nil {
		return nil, err
	}
	if n == 0 || v.Dim() == 0 {
		return out, nil
	}
	args := kernel.DefaultArgs
	args.Packed, args.PackedLen = out.Strides, n
	err = runMask(name, optable.Nonzero, v.Shape, restrideZero(out, v.Shape), []*raw.View{v}, &args)
	return out, err
}

// MaskedScatter is Tensor.masked_scatter_: the elements of v where mask
// (bool, broadcast to v's shape) is true receive source's elements in
// row-major order. source has v's dtype and at least as many elements as
// the mask selects. It returns v.
func MaskedScatter(v, mask, source *raw.View) (*raw.View, error) {
	const name = "masked_scatter_"
	if source.DType != v.DType {
		return nil, errs.New(errs.DType, name, "masked_scatter: expected self and source to have same dtypes but got%s and %s", TorchName(v.DType), TorchName(source.DType))
	}
	me, err := Expand(mask, v.Shape)
	if err != nil {
		return nil, errs.New(errs.Shape, name, "The shape of the mask %s does not match the shape of the tensor %s", shape.Format(mask.Shape), shape.Format(v.Shape))
	}
	if err := checkWritable(name, v); err != nil {
		return nil, err
	}
	bm, err := boolMask(name, me, v.NumEl() > 0)
	if err != nil {
		return nil, scatterMaskError(name, v, me, source.NumEl(), err)
	}
	me = bm
	n, err := countNonzero(me)
	if err != nil {
		return nil, err
	}
	if n > source.NumEl() {
		return nil, errs.New(errs.Shape, name, "masked_scatter: Number of elements of source < number of ones in mask")
	}
	if n == 0 {
		return v, nil
	}
	src, err := Reshape(source, []int{-1})
	if err != nil {
		return nil, err
	}
	args := kernel.DefaultArgs
	args.Packed, args.PackedLen = src.Strides, src.NumEl()
	err = runMask(name, optable.MaskedScatter, v.Shape, v, []*raw.View{restrideZero(src, v.Shape), me}, &args)
	return v, err
}

// scatterMaskError returns the error PyTorch 1.13's masked_scatter_
// kernel meets first when mask, not bool, has a first byte other than 0
// or 1 (valueErr, which boolMask returned): the kernel walks self in its
// memory order, the iterator's, and checks each element's byte, then
// whether source has an element left for it. So where the mask also has
// more ones than source has elements, the source's shape error comes
// first if the ones run past source before the walk meets a bad byte.
// Only the error path walks the mask, on the host.
func scatterMaskError(name string, v, mask *raw.View, sourceLen int, valueErr error) error {
	if e, ok := valueErr.(*errs.Error); !ok || e.Kind != errs.Value {
		return valueErr
	}
	fb := firstBytes(mask)
	ones, err := countNonzero(fb)
	if err != nil || ones <= sourceLen {
		return valueErr
	}
	cfg := iter.NewConfig().Op(name).StaticShape(v.Shape).StaticDType(v.DType).CheckMemOverlap(false).ResizeOutputs(false)
	p, err := cfg.AddOutput(v).AddInput(fb).Build()
	if err != nil {
		return err
	}
	// the mask's bytes in the plan's order: its dims are fastest first
	m := p.Operand(1)
	nd := p.Ndim()
	sizes, strides := make([]int, nd), make([]int, nd)
	for i := range nd {
		sizes[nd-1-i], strides[nd-1-i] = p.Shape()[i], m.Strides[i]
	}
	walk := fb.WithLayout(sizes, strides, m.Offset)
	p.Release()
	host, err := ToDevice(walk, device.CPUAllocator)
	if err != nil {
		return err
	}
	seen, bad := 0, false
	host.ElementOffsets(func(off int) {
		if bad || seen > sourceLen {
			return
		}
		switch b := host.Int64At(off); {
		case b > 1:
			bad = true
		case b == 1:
			seen++
		}
	})
	if seen > sourceLen {
		return errs.New(errs.Shape, name, "masked_scatter: Number of elements of source < number of ones in mask")
	}
	return valueErr
}

// Note [Masks of other dtypes]
//
// PyTorch 1.13's masked_fill_ and masked_scatter_ on the CPU take a mask
// of any dtype: their kernel reads a mask that is not bool as bytes, the
// first byte of each element (the byte at its address), and refuses a
// byte that is neither 0 nor 1 ("Mask tensor can take 0 and 1 values
// only"). goten reads such a mask the same way, through a uint8 view of
// the first bytes, so that its results are PyTorch's: an integer mask of
// 0s and 1s means what it says, but a float 1.0 (first byte 0) is false
// and an int16 257 true. Unlike PyTorch it checks every element before
// it writes any.

// boolMask returns mask as a bool mask (Note [Masks of other dtypes]);
// used is whether any element of it will be read.
func boolMask(name string, mask *raw.View, used bool) (*raw.View, error) {
	if mask.DType == dtype.Bool {
		return mask, nil
	}
	mask = firstBytes(mask)
	if used && mask.NumEl() > 0 {
		bad, err := Pointwise(optable.Gt, nil, false, nil, mask, Int(1).Wrap())
		if err != nil {
			return nil, errs.WithOp(err, name)
		}
		n, err := countNonzero(bad)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, errs.New(errs.Value, name, "Mask tensor can take 0 and 1 values only")
		}
	}
	return To(mask, dtype.Bool)
}

// BoolMask returns the bool mask that masked_fill and masked_scatter read
// from mask (Note [Masks of other dtypes]): mask itself if bool, else
// whether the first byte of each element is 1 (a value error where it is
// neither 0 nor 1).
func BoolMask(name string, mask *raw.View) (*raw.View, error) { return boolMask(name, mask, true) }

// firstBytes returns a uint8 view of the first byte of each element of v.
func firstBytes(v *raw.View) *raw.View {
	size := v.DType.Size()
	strides := make([]int, len(v.Strides))
	for k, st := range v.Strides {
		strides[k] = st * size
	}
	return &raw.View{Storage: v.Storage, DType: dtype.Uint8, Shape: append([]int{}, v.Shape...), Strides: strides, Offset: v.Offset * size}
}

// maskedFillValue checks masked_fill's value — a 0-dim tensor, or a
// scalar already wrapped — and returns it as a 0-dim view of dtype d.
func maskedFillValue(name string, value *raw.View, d dtype.DType) (*raw.View, error) {
	if value.Dim() != 0 {
		return nil, errs.New(errs.Shape, name, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value.Dim())
	}
	s, err := readScalar(value)
	if err != nil {
		return nil, err
	}
	if err := s.Check(name, d); err != nil { // Note [Checked scalars]
		return nil, err
	}
	return s.ViewAs(d), nil
}

// readScalar reads the one element of v (any device) as a Scalar of v's
// category.
func readScalar(v *raw.View) (Scalar, error) {
	if v.Storage.Device().IsHost() {
		return ScalarOf(v), nil
	}
	h, err := ToDevice(v, device.CPUAllocator)
	if err != nil {
		return Scalar{}, err
	}
	return ScalarOf(h), nil
}

// MaskedFill is Tensor.masked_fill (inPlace false: a new tensor of the
// broadcast shape of v and mask) and masked_fill_ (into v, mask broadcast
// to v's shape): value (a 0-dim tensor or a wrapped scalar, converted to
// v's dtype) where mask is true.
func MaskedFill(v, mask, value *raw.View, inPlace bool) (*raw.View, error) {
	name := "masked_fill"
	if inPlace {
		name = "masked_fill_"
	}
	// PyTorch's order of checks: masked_fill expands mask and self
	// against each other before anything else; masked_fill_ checks the
	// value's dims, then its iterator the shapes; the value is converted
	// to self's dtype (the overflow check) in the kernel, after both
	if !inPlace {
		if _, err := shape.Broadcast(mask.Shape, v.Shape); err != nil {
			return nil, errs.WithOp(err, name)
		}
	}
	val, err := maskedFillValue(name, value, v.DType)
	if err != nil {
		if inPlace && value.Dim() == 0 {
			if e := iter.NewConfig().Op(name).AddOutput(v).ResizeOutputs(false).AddInput(mask).CheckShapes(); e != nil {
				return nil, e
			}
		}
		return nil, err
	}
	if mask.DType != dtype.Bool {
		// shapes that do not broadcast read no mask: the shape error
		// comes first, as PyTorch's iterator raises it before the kernel
		used := false
		if sh, err := shape.Broadcast(v.Shape, mask.Shape); err == nil {
			used = shape.NumEl(sh) > 0
		}
		if mask, err = boolMask(name, mask, used); err != nil {
			return nil, err
		}
	}
	var out *raw.View
	if inPlace {
		out = v
		if iter.InternalOverlap(v) == iter.OverlapYes {
			return v, fillExpanded(name, v, mask, val)
		}
	}
	r, err := Pointwise(optable.Where, out, false, nil, mask, val, v)
	return r, errs.WithOp(err, name)
}

// fillExpanded is masked_fill_ into a v whose elements share memory (an
// expanded v), which PyTorch allows with a deprecation warning: its
// kernel writes value only where mask is true, so a location gets it if
// any of its elements' mask is true, whatever the order. So the fill goes
// through the positions of those elements in v's memory, as index_fill_
// on a dense view of that memory (repeated positions write the same
// value).
func fillExpanded(name string, v, mask, val *raw.View) error {
	me, err := Expand(mask, v.Shape)
	if err != nil {
		return errs.WithOp(err, name)
	}
	if err := iter.CheckNoPartialOverlap(name, v, mask); err != nil {
		return err
	}
	if v.NumEl() == 0 {
		return nil
	}
	span := 1
	for d, n := range v.Shape {
		span += (n - 1) * v.Strides[d]
	}
	pos, err := empty(name, dtype.Int64, []int{span}, v)
	if err != nil {
		return err
	}
	// pos[i] = i, a running sum of 0, 1, 1, …
	if _, err := Fill(pos, Int(1)); err != nil {
		return err
	}
	if _, err := Fill(pos.WithLayout([]int{1}, []int{1}, pos.Offset), Int(0)); err != nil {
		return err
	}
	cum, err := Scan(optable.CumSum, pos, 0, dtype.Invalid, nil)
	if err != nil {
		return err
	}
	sel, err := MaskedSelect(cum[0].WithLayout(v.Shape, v.Strides, cum[0].Offset), me)
	if err != nil {
		return err
	}
	dense := v.WithLayout([]int{span}, []int{1}, v.Offset)
	_, err = IndexFill(dense, 0, sel, ScalarOf(val))
	return err
}
