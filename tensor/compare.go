package tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
)

// IsClose returns the bool tensor of a and b broadcast together that is
// true where |a − b| ≤ atol + rtol·|b| (torch.isclose): equal elements
// (infinities of one sign included) are close, NaN is close to NaN only
// with equalNaN. a and b have one dtype (else a dtype error); negative
// tolerances are a value error.
func IsClose(a, b *Tensor, rtol, atol float64, equalNaN bool) *Tensor {
	const name = "isclose"
	if a.DType() != b.DType() {
		panic(errs.New(errs.DType, name, "%s did not match %s", a.DType(), b.DType()))
	}
	if rtol < 0 || atol < 0 {
		panic(errs.New(errs.Value, name, "rtol and atol must be non-negative, got rtol=%g and atol=%g", rtol, atol))
	}
	eq := a.Eq(b)
	if !a.DType().IsFloat() {
		if a.DType() == Bool {
			return eq
		}
		// integers: compared in float64, as PyTorch compares them in the
		// default float dtype's precision or better
		a, b = a.To(Float64), b.To(Float64)
	}
	diff := a.Sub(b).Abs()
	close := eq.LogicalOr(diff.Le(b.Abs().Mul(Scalar(rtol)).Add(Scalar(atol))).LogicalAnd(diff.IsFinite()))
	if equalNaN {
		close = close.LogicalOr(a.IsNan().LogicalAnd(b.IsNan()))
	}
	return close
}

// AllClose reports whether every element of [IsClose] is true.
func AllClose(a, b *Tensor, rtol, atol float64, equalNaN bool) bool {
	return IsClose(a, b, rtol, atol, equalNaN).All().Item() != 0
}

// Equal reports whether a and b have the same shape and equal elements
// (torch.equal; NaN equals nothing). Their dtypes are promoted for the
// comparison.
func Equal(a, b *Tensor) bool {
	if !slices.Equal(a.v.Shape, b.v.Shape) {
		return false
	}
	return a.Eq(b).All().Item() != 0
}
