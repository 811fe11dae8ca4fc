package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// dest is the result of an op that is not run by the iterator (the matrix
// products, layer_norm): a new view, or PyTorch's out= tensor. The op
// calls alloc once, after all its own checks, with the result's dtype and
// shape; alloc checks out against them (so every check still precedes any
// write, the resize of an empty out included) and returns the view to
// compute into. That is out itself unless out shares memory with an input
// (these ops read their inputs after they start writing; PyTorch computes
// such products correctly, so goten computes them into a new view) or the
// op needs a layout that out cannot be viewed as (scratch); finish then
// copies the new view into out.
type dest struct {
	name string
	out  *raw.View   // nil: a new view
	ins  []*raw.View // nil entries allowed
	tmp  *raw.View   // computed into instead of out
}

func (d *dest) alloc(dt dtype.DType, sizes []int) (*raw.View, error) {
	if d.out == nil {
		return empty(d.name, dt, sizes, d.live()...)
	}
	o := d.out
	if o.DType != dt {
		return nil, errs.New(errs.DType, d.name, "Expected out tensor to have dtype %s, but got %s instead", dt, o.DType)
	}
	if !shape.Equal(o.Shape, sizes) && o.NumEl() != 0 {
		return nil, errs.New(errs.Shape, d.name, "output with shape %v doesn't match the result shape %v", o.Shape, sizes)
	}
	if err := iter.CheckNoInternalOverlap(d.name, o); err != nil {
		return nil, err
	}
	if dev := o.Storage.Device(); len(d.live()) > 0 && d.live()[0].Storage.Device() != dev {
		return nil, errs.New(errs.Value, d.name, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", d.live()[0].Storage.Device(), dev)
	}
	if !shape.Equal(o.Shape, sizes) {
		if err := resize(d.name, o, sizes); err != nil {
			return nil, err
		}
	}
	for _, in := range d.live() {
		if device.SameMemory(o.Storage, in.Storage) && iter.GetOverlapStatus(o, in) != iter.StatusNo {
			return d.scratch(dt, sizes)
		}
	}
	return o, nil
}

// scratch returns a new view to compute into in place of out.
func (d *dest) scratch(dt dtype.DType, sizes []int) (*raw.View, error) {
	t, err := empty(d.name, dt, sizes, d.live()...)
	if err != nil {
		return nil, err
	}
	if d.out != nil {
		d.tmp = t
	}
	return t, nil
}

// finish returns the result r, copied into out where it was computed
// elsewhere.
func (d *dest) finish(r *raw.View) (*raw.View, error) {
	if d.tmp == nil {
		return r, nil
	}
	return CopyInto(d.name, d.out, d.tmp, false)
}

func (d *dest) live() []*raw.View {
	vs := make([]*raw.View, 0, len(d.ins))
	for _, v := range d.ins {
		if v != nil {
			vs = append(vs, v)
		}
	}
	return vs
}
