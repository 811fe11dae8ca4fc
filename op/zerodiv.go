package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// Note [Integer division by zero]
//
// PyTorch's integer kernels of div (trunc and floor rounding),
// floor_divide, remainder and fmod raise ZeroDivisionError when they meet a
// zero divisor — from inside the loop, after writing the elements before
// it, so an out= or in-place call is left half-written. goten checks
// everything before any output is written, so an op flagged ZeroDivisor
// in the table looks for a zero divisor before its kernel runs, when it
// computes in an integer dtype and its result has elements (PyTorch's
// kernel does not run on none; float dtypes divide by zero to ±Inf or
// NaN):
//
//   - a divisor of one element (a Go number, a 0-dim tensor) is read and
//     converted to the compute dtype as the iterator would convert it: a
//     wrapped 256 is 0 in int8, so int8 // 256 is a division by zero, in
//     PyTorch too;
//   - a larger divisor is reduced by all() over its own elements (not the
//     broadcast ones) on its own device. Every one of them takes part in a
//     result with elements, and a tensor with dims never narrows in type
//     promotion, so its zeros are exactly the zero divisors.
//
// The cost is one more read of the divisor, memory-bound where the integer
// division is not: on [4096, 4096] int32 floor_divide and remainder by a
// tensor, out=, 2-3 ms more than the division's 16 ms (best of 14
// interleaved runs on the 2-core development machine; PyTorch takes 24 and
// 32 ms), and nothing measurable for a divisor that is a number or
// broadcasts. Checking inside the kernel would save that read but break
// the all-checks-before-write rule for out= and in-place calls (and needs
// a kernel that reports what it met); computing into a temporary and
// copying would cost a full extra write instead.

// zeroDivisor returns PyTorch's ZeroDivisionError if divisor, converted to
// the integer compute dtype d, holds a zero (Note [Integer division by
// zero]), raised by op name.
func zeroDivisor(name string, d dtype.DType, divisor *raw.View) error {
	var zero bool
	if divisor.NumEl() == 1 {
		v, err := onHost(divisor)
		if err != nil {
			return err
		}
		zero = ScalarOf(v).zeroIn(d)
	} else {
		r, err := Reduce(optable.All, divisor, nil, false, dtype.Invalid, nil, nil)
		if err != nil {
			return errs.WithOp(err, name)
		}
		v, err := onHost(r[0])
		if err != nil {
			return err
		}
		zero = ScalarOf(v).I == 0
	}
	if zero {
		return errs.New(errs.Value, name, "ZeroDivisionError") // PyTorch's whole message
	}
	return nil
}

// onHost returns v itself if Go code may read its elements, else a copy on
// the CPU.
func onHost(v *raw.View) (*raw.View, error) {
	if v.Storage.Device().IsHost() {
		return v, nil
	}
	return ToDevice(v, device.CPUAllocator)
}

// zeroIn reports whether s is 0 once converted to the integer dtype d by a
// cast, which wraps (an integer scalar, or a float one truncated).
func (s Scalar) zeroIn(d dtype.DType) bool {
	i := s.I
	switch d {
	case dtype.Uint8, dtype.Int8:
		return uint8(i) == 0
	case dtype.Int16:
		return uint16(i) == 0
	case dtype.Int32:
		return uint32(i) == 0
	}
	return i == 0
}
