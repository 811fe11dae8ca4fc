package tensor

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// checkShape returns the element count of a new tensor of shape sizes made
// by op name; it panics if there is none: a negative size is a value
// error, sizes whose storage overflows an int a shape error (Note [Checked
// sizes] in package shape).
func checkShape(name string, sizes []int) int {
	n, err := shape.CheckSizes(name, sizes)
	must(err)
	return n
}

// alloc returns a new contiguous CPU view of dtype dt and shape sizes for
// op name, zeroed if zero is set. An invalid dtype or a negative size is a
// value error, sizes whose storage overflows an int a shape error, a
// storage over the memory limit (see device.SetMemoryLimit) a memory
// error.
func alloc(name string, dt DType, sizes []int, zero bool) *raw.View {
	v, err := raw.NewOn(device.CPUAllocator, dt, sizes, nil, zero)
	must(errs.WithOp(err, name))
	return v
}

// Empty returns a new contiguous tensor of the given dtype and shape whose
// contents are unspecified (PyTorch's torch.empty: the memory is not
// cleared; write every element before reading it). An invalid dtype or a
// negative size is a value error, sizes whose storage overflows an int a
// shape error, a storage larger than device.MemoryLimit a memory error; so
// for every factory below.
func Empty(dt DType, shape ...int) *Tensor { return wrap(alloc("empty", dt, shape, false)) }

// Zeros returns a new contiguous tensor of zeros.
func Zeros(dt DType, shape ...int) *Tensor { return wrap(alloc("zeros", dt, shape, true)) }

// Ones returns a new contiguous tensor of ones.
func Ones(dt DType, shape ...int) *Tensor { return Full(Scalar(1), dt, shape...) }

// Full returns a new contiguous tensor filled with value — a [Scalar], or
// any one-element tensor — converted to dt.
func Full(value *Tensor, dt DType, shape ...int) *Tensor {
	x := number("full", "fill_value", value)
	v := alloc("full", dt, shape, false)
	_, err := op.Fill(v, x)
	must(err)
	return wrap(v)
}

// ZerosLike returns zeros of t's shape and dtype, on t's device.
func ZerosLike(t *Tensor) *Tensor {
	v := t.in("zeros_like")
	return fullOn(t, Scalar(0), v.DType, v.Shape)
}

// OnesLike returns ones of t's shape and dtype, on t's device.
func OnesLike(t *Tensor) *Tensor {
	v := t.in("ones_like")
	return fullOn(t, Scalar(1), v.DType, v.Shape)
}

// FullLike returns a tensor of t's shape and dtype filled with value, on
// t's device.
func FullLike(t *Tensor, value *Tensor) *Tensor {
	v := t.in("full_like")
	return fullOn(t, value, v.DType, v.Shape)
}

// fullOn returns a contiguous tensor of dtype dt and shape filled with
// value, on the device of like.
func fullOn(like, value *Tensor, dt DType, shape []int) *Tensor {
	x := number("full", "fill_value", value)
	v, err := raw.NewOn(like.v.Storage.Allocator(), dt, shape, nil, false)
	must(errs.Alloc("full", err))
	_, err = op.Fill(v, x)
	must(err)
	return wrap(v)
}

// Arange returns the 1-D tensor [start, start+step, ...) of values below
// end (above it for a negative step), of dtype dt. Bounds that are not
// finite, a zero step, a step whose sign leads away from end, or a count
// of values that does not fit in an int are value errors, with PyTorch's
// messages. An integer dtype computes in int64 as PyTorch does: start,
// end and step are truncated toward zero first, so arange(0, 5, 0.5) of
// int64 is the zero-step error. A float dtype's elements are PyTorch's
// bit for bit (Note [PyTorch's arange] in package op).
func Arange(start, end, step float64, dt DType) *Tensor {
	if dt.IsInt() {
		return arangeInt(start, end, step, dt)
	}
	if math.IsNaN(start) || math.IsInf(start, 0) || math.IsNaN(end) || math.IsInf(end, 0) {
		panic(errs.New(errs.Value, "arange", "unsupported range: %g -> %g", start, end))
	}
	checkArangeStep(start, end, step)
	n := arangeLen(math.Ceil((end-start)/step), start, end, step)
	v := alloc("arange", dt, []int{n}, false)
	for i, x := range op.ArangeFloat(start, step, n, dt) {
		v.SetFloat64(i, x)
	}
	return wrap(v)
}

// arangeInt is Arange for an integer dtype, which PyTorch 1.13 computes
// in int64: start, end and step are converted to int64 first (toward
// zero, refusing what int64 cannot hold, NaN and ±Inf included), the
// checks and the values use those (start + i·step, wrapped to dt), and so
// does the count for int64 itself; the other integer dtypes count with
// the numbers as given. So arange(10, 45, 2.25) has 18 int64 elements,
// 10, 12, ..., 44, and 16 int32 ones, and a step of 0.5 is zero.
func arangeInt(start, end, step float64, dt DType) *Tensor {
	var b [3]int64
	for k, x := range []float64{start, end, step} {
		must(op.Float(x).Check("arange", Int64))
		b[k] = int64(x)
	}
	xs, xe, xst := b[0], b[1], b[2]
	checkArangeStep(xs, xe, xst)
	size := math.Ceil((end - start) / step)
	if dt == Int64 {
		size = math.Ceil(float64(xe-xs) / float64(xst))
	}
	v := alloc("arange", dt, []int{arangeLen(size, start, end, step)}, false)
	for i := range v.NumEl() {
		v.SetInt64(i, xs+int64(i)*xst)
	}
	return wrap(v)
}

// checkArangeStep refuses a zero step and one whose sign leads away from
// end, with PyTorch's messages.
func checkArangeStep[T int64 | float64](start, end, step T) {
	switch {
	case step == 0:
		panic(errs.New(errs.Value, "arange", "step must be nonzero"))
	case step > 0 && end < start || step < 0 && end > start:
		panic(errs.New(errs.Value, "arange", "upper bound and larger bound inconsistent with step sign"))
	}
}

// arangeLen returns arange's count of values, size, refusing one that is
// negative, NaN or beyond an int64 (the float64 of MaxInt64 is 2^63).
func arangeLen(size, start, end, step float64) int {
	if !(size >= 0 && size < math.MaxInt64) {
		panic(errs.New(errs.Value, "arange", "invalid size, possible overflow? (start %g, end %g, step %g)", start, end, step))
	}
	return int(size)
}

// Linspace returns steps evenly spaced values from start to end inclusive,
// computed as PyTorch's kernel computes them (Note [PyTorch's linspace] in
// package op): in dt, not in float64, so that the elements are PyTorch's
// bit for bit, down to an integer linspace that stops short of end.
// A start (steps ≥ 1) or end (steps ≥ 2) that dt cannot hold is a value
// error, as in PyTorch, which reads them as elements of dt (Note [Checked
// scalars] in package op) and spaces the values between those elements:
// integral values count as Go integers, so that uint8 takes -1, as 255.
func Linspace(start, end float64, steps int, dt DType) *Tensor {
	if steps < 0 {
		panic(errs.New(errs.Value, "linspace", "number of steps must be non-negative"))
	}
	if steps >= 1 {
		start = element(start, dt)
	}
	if steps >= 2 {
		end = element(end, dt)
	}
	v := alloc("linspace", dt, []int{steps}, false)
	for i, x := range op.Linspace(start, end, steps, dt) {
		v.SetFloat64(i, x)
	}
	return wrap(v)
}

// element returns linspace's bound x as an element of dt, as PyTorch
// reads it (Scalar::to<scalar_t>) before it computes the step: a value
// error if dt cannot hold it, and uint8's -1 is 255, so that uint8
// Linspace(-1, 3, 3) is [255, 129, 3] as in PyTorch. An integral x counts
// as a Go integer.
func element(x float64, dt DType) float64 {
	s := op.Float(x)
	if dt.IsInt() && x == math.Trunc(x) && math.Abs(x) < 1<<63 {
		s = op.Int(int64(x))
	}
	must(s.Check("linspace", dt))
	if !dt.IsInt() {
		return x
	}
	return s.ViewAs(dt).Float64At(0)
}

// Logspace returns base raised to each of steps evenly spaced exponents
// from start to end inclusive, computed in float64, then converted to dt.
// The exponents are PyTorch's (op.Logspace): start and end taken as
// elements of dt (a value error where dt cannot hold them, as for
// [Linspace]), the step between them in float64.
func Logspace(start, end float64, steps int, base float64, dt DType) *Tensor {
	if steps < 0 {
		panic(errs.New(errs.Value, "logspace", "number of steps must be non-negative"))
	}
	if steps >= 2 {
		start, end = element(start, dt), element(end, dt)
	}
	v := alloc("logspace", dt, []int{steps}, false)
	for i, x := range op.Logspace(start, end, steps, base, dt) {
		v.SetFloat64(i, x)
	}
	return wrap(v)
}

// Eye returns the n × m matrix of dtype dt with ones on the main diagonal
// and zeros elsewhere. A negative size is a value error.
func Eye(n, m int, dt DType) *Tensor {
	if n < 0 || m < 0 {
		panic(errs.New(errs.Value, "eye", "n and m must be greater or equal to 0, got %d and %d", n, m))
	}
	v := alloc("eye", dt, []int{n, m}, true)
	for i := 0; i < min(n, m); i++ {
		v.SetFloat64(i*m+i, 1)
	}
	return wrap(v)
}
