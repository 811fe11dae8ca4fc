package tensor

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
)

func checkShape(name string, shape []int) {
	for _, s := range shape {
		if s < 0 {
			panic(errs.New(errs.Value, name, "Trying to create tensor with negative dimension %d: %v", s, shape))
		}
	}
}

// Empty returns a new contiguous tensor of the given dtype and shape whose
// contents are unspecified (PyTorch's torch.empty: the memory is not
// cleared; write every element before reading it).
func Empty(dt DType, shape ...int) *Tensor {
	checkShape("empty", shape)
	v, err := raw.NewOn(device.CPUAllocator, dt, shape, nil, false)
	must(err)
	return wrap(v)
}

// Zeros returns a new contiguous tensor of zeros.
func Zeros(dt DType, shape ...int) *Tensor {
	checkShape("zeros", shape)
	return wrap(raw.New(dt, shape))
}

// Ones returns a new contiguous tensor of ones.
func Ones(dt DType, shape ...int) *Tensor { return Full(Scalar(1), dt, shape...) }

// Full returns a new contiguous tensor filled with value — a [Scalar], or
// any one-element tensor — converted to dt.
func Full(value *Tensor, dt DType, shape ...int) *Tensor {
	checkShape("full", shape)
	v, err := raw.NewOn(device.CPUAllocator, dt, shape, nil, false)
	must(err)
	_, err = op.Fill(v, number("full", "fill_value", value))
	must(err)
	return wrap(v)
}

// ZerosLike returns zeros of t's shape and dtype, on t's device.
func ZerosLike(t *Tensor) *Tensor { return fullOn(t, Scalar(0), t.DType(), t.v.Shape) }

// OnesLike returns ones of t's shape and dtype, on t's device.
func OnesLike(t *Tensor) *Tensor { return fullOn(t, Scalar(1), t.DType(), t.v.Shape) }

// FullLike returns a tensor of t's shape and dtype filled with value, on
// t's device.
func FullLike(t *Tensor, value *Tensor) *Tensor { return fullOn(t, value, t.DType(), t.v.Shape) }

// fullOn returns a contiguous tensor of dtype dt and shape filled with
// value, on the device of like.
func fullOn(like, value *Tensor, dt DType, shape []int) *Tensor {
	v, err := raw.NewOn(like.v.Storage.Allocator(), dt, shape, nil, false)
	must(err)
	_, err = op.Fill(v, number("full", "fill_value", value))
	must(err)
	return wrap(v)
}

// Arange returns the 1-D tensor [start, start+step, ...) of values below
// end (above it for a negative step), of dtype dt. A zero step is a value error.
func Arange(start, end, step float64, dt DType) *Tensor {
	if step == 0 || math.IsNaN(start) || math.IsNaN(end) || math.IsNaN(step) {
		panic(errs.New(errs.Value, "arange", "step must be nonzero and bounds finite (start %g, end %g, step %g)", start, end, step))
	}
	n := int(math.Ceil((end - start) / step))
	if n < 0 {
		panic(errs.New(errs.Value, "arange", "upper bound and larger bound inconsistent with step sign"))
	}
	v := raw.New(dt, []int{n})
	for i := 0; i < n; i++ {
		v.SetFloat64(i, start+float64(i)*step)
	}
	return wrap(v)
}

// Linspace returns steps evenly spaced values from start to end inclusive.
func Linspace(start, end float64, steps int, dt DType) *Tensor {
	if steps < 0 {
		panic(errs.New(errs.Value, "linspace", "number of steps must be non-negative"))
	}
	v := raw.New(dt, []int{steps})
	if steps == 1 {
		v.SetFloat64(0, start)
	}
	if steps > 1 {
		// PyTorch fills the halves from each end for symmetry
		step := (end - start) / float64(steps-1)
		half := steps / 2
		for i := 0; i < steps; i++ {
			if i < half {
				v.SetFloat64(i, start+step*float64(i))
			} else {
				v.SetFloat64(i, end-step*float64(steps-1-i))
			}
		}
	}
	return wrap(v)
}

// Logspace returns base raised to each of the steps values of
// [Linspace](start, end, steps), computed in float64, then converted to
// dt.
func Logspace(start, end float64, steps int, base float64, dt DType) *Tensor {
	lin := Linspace(start, end, steps, Float64)
	v := raw.New(dt, []int{steps})
	for i, x := range lin.Float64s() {
		v.SetFloat64(i, math.Pow(base, x))
	}
	return wrap(v)
}

// Eye returns the n × m matrix of dtype dt with ones on the main diagonal
// and zeros elsewhere. A negative size is a value error.
func Eye(n, m int, dt DType) *Tensor {
	if n < 0 || m < 0 {
		panic(errs.New(errs.Value, "eye", "n and m must be greater or equal to 0, got %d and %d", n, m))
	}
	v := raw.New(dt, []int{n, m})
	for i := 0; i < min(n, m); i++ {
		v.SetFloat64(i*m+i, 1)
	}
	return wrap(v)
}
