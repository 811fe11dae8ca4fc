package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Reduction defines a reduction over dims.
type Reduction struct {
	Name string
	Code kernel.Code
	// Identity is the value of the reduction over no elements; nil means
	// the reduction has none (an index error over zero elements).
	Identity *Scalar
	// IntToInt64 accumulates bool and integer inputs in int64 (sum, prod).
	IntToInt64 bool
	// StrictOut: out= must have the input's dtype (amax, amin).
	StrictOut bool
}

var (
	zero, one = Int(0), Int(1)
	// Sum is torch.sum.
	Sum = &Reduction{Name: "sum", Code: kernel.Sum, Identity: &zero, IntToInt64: true}
	// Prod is torch.prod.
	Prod = &Reduction{Name: "prod", Code: kernel.Prod, Identity: &one, IntToInt64: true}
	// Amax is torch.amax.
	Amax = &Reduction{Name: "amax", Code: kernel.Amax, StrictOut: true}
	// Amin is torch.amin.
	Amin = &Reduction{Name: "amin", Code: kernel.Amin, StrictOut: true}
)

// ReduceDims wraps dims for an input of ndim dims and returns a mask of the
// reduced dims; no dims means all of them. A repeated dim is a value error.
func ReduceDims(name string, dims []int, ndim int) ([]bool, error) {
	mask := make([]bool, ndim)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		w, err := shape.WrapDim(d, ndim)
		if err != nil {
			return nil, err
		}
		if ndim == 0 {
			continue
		}
		if mask[w] {
			return nil, errs.New(errs.Value, name, "dim %d appears multiple times in the list of dims", w)
		}
		mask[w] = true
	}
	return mask, nil
}

// Run reduces in over dims (all when empty) into a new view, or into out.
// dt, when valid, is the dtype= argument: the input is converted to it
// first and the result has it.
func (r *Reduction) Run(in *raw.View, dims []int, keepdim bool, dt dtype.DType, out *raw.View) (*raw.View, error) {
	mask, err := ReduceDims(r.Name, dims, in.Dim())
	if err != nil {
		return nil, err
	}
	keepShape := make([]int, in.Dim())
	var outShape []int
	for i, s := range in.Shape {
		if mask[i] {
			keepShape[i] = 1
			if s == 0 && r.Identity == nil {
				return nil, errs.New(errs.Index, r.Name, "cannot perform reduction function %s on tensor with no elements because the operation does not have an identity (dim %d has size 0)", r.Name, i)
			}
			if keepdim {
				outShape = append(outShape, 1)
			}
		} else {
			keepShape[i] = s
			outShape = append(outShape, s)
		}
	}
	if outShape == nil {
		outShape = []int{}
	}
	result := in.DType
	switch {
	case dt.Valid():
		result = dt
	case out != nil && !r.StrictOut:
		result = out.DType
	case r.IntToInt64 && in.DType.IsIntOrBool():
		result = dtype.Int64
	}
	if out != nil {
		if r.StrictOut && out.DType != in.DType {
			return nil, errs.New(errs.DType, r.Name, "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.", in.DType, out.DType)
		}
		if out.DType != result {
			return nil, errs.New(errs.DType, r.Name, "Expected out tensor to have dtype %s, but got %s instead", result, out.DType)
		}
		if !shape.Equal(out.Shape, outShape) {
			if out.NumEl() != 0 {
				return nil, errs.New(errs.Shape, r.Name, "output with shape %v doesn't match the result shape %v", out.Shape, outShape)
			}
			nv := raw.New(out.DType, outShape)
			out.Storage, out.Shape, out.Strides, out.Offset = nv.Storage, nv.Shape, nv.Strides, 0
		}
	} else {
		out = raw.New(result, outShape)
	}
	src := in
	if dt.Valid() && dt != in.DType {
		if src, err = To(in, dt); err != nil {
			return nil, err
		}
	}
	// the output seen with size 1 (stride 0) on reduced dims
	kstrides := make([]int, in.Dim())
	j := 0
	for i := range keepShape {
		if mask[i] && !keepdim {
			continue
		}
		kstrides[i] = out.Strides[j]
		j++
	}
	kview := out.WithLayout(keepShape, kstrides, out.Offset)
	p, err := iter.NewConfig().Op(r.Name).AddOutput(kview).AddInput(src).IsReduction(true).
		ResizeOutputs(false).CheckMemOverlap(false).StaticDType(result).Build()
	if err != nil {
		return nil, err
	}
	if p.NumEl() == 0 {
		if out.NumEl() > 0 {
			if _, err := Fill(out, *r.Identity); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if err := Backend.Reduce(r.Code, p, &kernel.DefaultArgs); err != nil {
		return nil, err
	}
	return out, nil
}
