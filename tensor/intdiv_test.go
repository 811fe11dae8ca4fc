package tensor_test

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// Integer division by zero and integers to negative integer powers, which
// PyTorch 1.13 refuses (its messages and its results for the calls it
// accepts are the expectations here).

func TestIntegerDivisionByZero(t *testing.T) {
	const msg = "ZeroDivisionError"
	ops := []struct {
		name string
		fn   func(a, b *tensor.Tensor) *tensor.Tensor
		to   func(dst, a, b *tensor.Tensor) *tensor.Tensor
		in   func(a, b *tensor.Tensor) *tensor.Tensor
	}{
		{"floor_divide", tensor.FloorDivide, tensor.FloorDivideTo, (*tensor.Tensor).FloorDivideInPlace},
		{"remainder", tensor.Remainder, tensor.RemainderTo, (*tensor.Tensor).RemainderInPlace},
		{"fmod", tensor.Fmod, tensor.FmodTo, (*tensor.Tensor).FmodInPlace},
		{"div trunc", func(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Div(a, b, tensor.RoundTrunc) },
			func(dst, a, b *tensor.Tensor) *tensor.Tensor { return tensor.DivTo(dst, a, b, tensor.RoundTrunc) },
			func(a, b *tensor.Tensor) *tensor.Tensor { return a.DivInPlace(b, tensor.RoundTrunc) }},
		{"div floor", func(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Div(a, b, tensor.RoundFloor) },
			func(dst, a, b *tensor.Tensor) *tensor.Tensor { return tensor.DivTo(dst, a, b, tensor.RoundFloor) },
			func(a, b *tensor.Tensor) *tensor.Tensor { return a.DivInPlace(b, tensor.RoundFloor) }},
	}
	for _, dt := range []tensor.DType{tensor.Uint8, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64} {
		a := tensor.FromSlice([]float64{7, 0, 5, 3}, 2, 2).To(dt)
		zero := tensor.FromSlice([]float64{2, 1, 0, 3}, 2, 2).To(dt)
		for _, op := range ops {
			what := op.name + " " + dt.String()
			wantError(t, what+" by a tensor", tensor.ValueError, msg, func() { op.fn(a, zero) })
			wantError(t, what+" by a broadcast row", tensor.ValueError, msg, func() { op.fn(a, zero.Select(0, 1)) })
			wantError(t, what+" by 0", tensor.ValueError, msg, func() { op.fn(a, tensor.Scalar(0)) })
			wantError(t, what+" by false", tensor.ValueError, msg, func() { op.fn(a, tensor.Scalar(false)) })
			wantError(t, what+" by a 0-dim 0", tensor.ValueError, msg, func() { op.fn(a, tensor.ZeroDim(int32(0))) })
			if dt.Size() == 1 { // a wrapped 256 is 0 in the compute dtype, in PyTorch too
				wantError(t, what+" by 256", tensor.ValueError, msg, func() { op.fn(a, tensor.Scalar(256)) })
				wantError(t, what+" by a 0-dim int64 256", tensor.ValueError, msg, func() { op.fn(a, tensor.ZeroDim(int64(256))) })
			}
			// before any write: out= and in place are left as they were
			dst := tensor.FromSlice([]float64{9, 9, 9, 9}, 2, 2).To(dt)
			wantError(t, what+" out=", tensor.ValueError, msg, func() { op.to(dst, a, zero) })
			unchanged(t, what+" out=", dst, []float64{9, 9, 9, 9})
			self := a.Clone()
			wantError(t, what+" in place", tensor.ValueError, msg, func() { op.in(self, zero) })
			unchanged(t, what+" in place", self, []float64{7, 0, 5, 3})
			self = zero.Clone()
			wantError(t, what+" in place by itself", tensor.ValueError, msg, func() { op.in(self, self) })
			unchanged(t, what+" in place by itself", self, []float64{2, 1, 0, 3})
			// nothing to compute, nothing refused; nonzero divisors divide
			if r := op.fn(a.Slice(0, 0, 0, 1), zero.Select(0, 1)); r.NumEl() != 0 {
				t.Errorf("%s of no elements: %v", what, r)
			}
			if r := op.fn(a, tensor.Scalar(7)); r.DType() != dt {
				t.Errorf("%s by 7: %v", what, r)
			}
		}
		// true division and float dtypes divide by zero to ±Inf and NaN
		if r := tensor.Div(a, zero); r.DType() != tensor.Float32 || !math.IsInf(r.Float64s()[2], 1) {
			t.Errorf("true division of %s by zero: %v", dt, r)
		}
	}
	for _, op := range ops {
		f := tensor.FromSlice([]float32{1, -1, 0})
		if r := op.fn(f, tensor.Scalar(0)); r.DType() != tensor.Float32 {
			t.Errorf("%s of float32 by 0: %v", op.name, r)
		}
		// a bool tensor by an integer 0 computes in int64
		wantError(t, op.name+" bool by 0", tensor.ValueError, msg, func() { op.fn(tensor.FromSlice([]bool{true}), tensor.Scalar(0)) })
	}
	// remainder(5, tensor) divides by the tensor
	wantError(t, "5 % tensor", tensor.ValueError, msg, func() { tensor.Remainder(tensor.Scalar(5), tensor.FromSlice([]int32{1, 0})) })
	// on the reference backend too
	wantError(t, "on ref", tensor.ValueError, msg, func() {
		tensor.FloorDivide(tensor.FromSlice([]int32{1, 2}).ToDevice(refDevice), tensor.FromSlice([]int32{1, 0}).ToDevice(refDevice))
	})
}

func TestNegativeIntegerPower(t *testing.T) {
	const msg = "Integers to negative integer powers are not allowed."
	for _, dt := range []tensor.DType{tensor.Bool, tensor.Uint8, tensor.Int8, tensor.Int32, tensor.Int64} {
		a := tensor.FromSlice([]float64{2, 1, 0, 3}).To(dt)
		wantError(t, "pow "+dt.String(), tensor.ValueError, msg, func() { a.Pow(tensor.Scalar(-1)) })
		wantError(t, "pow of no elements "+dt.String(), tensor.ValueError, msg, func() { a.Slice(0, 0, 0, 1).Pow(tensor.Scalar(-2)) })
	}
	x := tensor.FromSlice([]int8{2, 1, -1})
	wantError(t, "pow in place", tensor.ValueError, msg, func() { x.PowInPlace(tensor.Scalar(-1)) })
	unchanged(t, "pow in place", x, []float64{2, 1, -1})
	// a float exponent promotes; a tensor exponent is not checked (PyTorch
	// gives 1/a^|b| truncated); nor is a Go number base
	if r := x.Pow(tensor.Scalar(-1.0)); r.DType() != tensor.Float32 || !sameValues(r.Float64s(), []float64{0.5, 1, -1}) {
		t.Errorf("int8 ^ -1.0: %v", r)
	}
	if r := x.Pow(tensor.FromSlice([]int8{-1, -2, -3})); !sameValues(r.Float64s(), []float64{0, 1, -1}) {
		t.Errorf("int8 ^ [-1, -2, -3]: %v", r)
	}
	if r := tensor.Pow(tensor.Scalar(2), tensor.FromSlice([]int8{-1})); !sameValues(r.Float64s(), []float64{0}) {
		t.Errorf("2 ^ int8 -1: %v", r)
	}
	if r := x.Pow(tensor.Scalar(0)); !sameValues(r.Float64s(), []float64{1, 1, 1}) {
		t.Errorf("int8 ^ 0: %v", r)
	}
}
