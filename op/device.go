package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// Note [Devices of ops]
//
// An op runs on the device of its operands, by that device's backend
// (kernel.For; Note [Backend per device] in package kernel), and allocates
// its results there, with the allocator of an operand on that device: the
// same rule as the iterator's. The device is the first that is not the
// CPU among the operands, else the CPU: 0-dim CPU tensors and Go numbers
// may take part in another device's op, as PyTorch's CPU scalars do. Kernel
// names in messages ("add_cpu") come from the device's name, never from
// this package.

// Device returns the device an op over vs runs on (Note [Devices of ops]).
func Device(vs ...*raw.View) device.Device {
	_, d := home(vs)
	return d
}

// home returns the first operand of vs on the op's device (nil if none is
// given) and that device.
func home(vs []*raw.View) (*raw.View, device.Device) {
	var first *raw.View
	for _, v := range vs {
		if v == nil || v.Storage == nil {
			continue
		}
		if v.Storage.Device().Kind != device.CPU {
			return v, v.Storage.Device()
		}
		if first == nil {
			first = v
		}
	}
	return first, device.Device{Kind: device.CPU}
}

// backendOf returns the backend that runs an op over vs, named name in
// errors.
func backendOf(name string, vs ...*raw.View) (kernel.Backend, error) {
	return backendOn(name, Device(vs...))
}

// backendOn returns the backend of device d (the device of a plan), for an
// op named name in errors.
func backendOn(name string, d device.Device) (kernel.Backend, error) {
	b, err := kernel.For(d)
	if err != nil {
		return nil, errs.New(errs.Value, name, "%v", err)
	}
	return b, nil
}

// planOn builds cfg's plan and finds the backend of its device; a nil
// backend means the plan has no elements and there is nothing to run.
func planOn(name string, cfg *iter.Config) (*iter.Plan, kernel.Backend, error) {
	p, err := cfg.Build()
	if err != nil || p.NumEl() == 0 {
		return p, nil, err
	}
	be, err := backendOn(name, p.Device())
	return p, be, err
}

// allocator returns the allocator of an op over vs: that of its operand on
// the op's device.
func allocator(vs ...*raw.View) device.Allocator {
	if v, _ := home(vs); v != nil {
		return v.Storage.Allocator()
	}
	return device.CPUAllocator
}

// empty allocates a contiguous view of dtype dt and shape sizes for the
// result of an op over vs, on its device, uninitialised: the op writes it
// whole.
func empty(name string, dt dtype.DType, sizes []int, vs ...*raw.View) (*raw.View, error) {
	v, err := raw.NewOn(allocator(vs...), dt, sizes, nil, false)
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	return v, nil
}

// resize resizes out for an op named name as PyTorch's resize_ does.
func resize(name string, out *raw.View, sizes []int) error {
	if err := out.Resize(append([]int{}, sizes...), nil); err != nil {
		return errs.WithOp(err, name)
	}
	return nil
}
