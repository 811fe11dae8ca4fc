package tensor

import (
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
)

// Add returns a + b elementwise, broadcast and promoted. Either may be a [Scalar].
func Add(a, b *Tensor) *Tensor { return pointwise(optable.Add, nil, false, nil, a, b) }

// Add returns t + other; see [Add].
func (t *Tensor) Add(other *Tensor) *Tensor { return pointwise(optable.Add, nil, false, nil, t, other) }

// AddScaled returns a + alpha·b. A float alpha with integer tensors is a dtype error.
func AddScaled(a, b *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Add, nil, false, op.WithAlpha(alpha), a, b)
}

// AddTo writes a + alpha·b into dst (PyTorch's out=) and returns dst.
func AddTo(dst, a, b *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Add, dst, false, op.WithAlpha(alpha), a, b)
}

// AddInPlace overwrites t with t + alpha·other and returns t.
func (t *Tensor) AddInPlace(other *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Add, nil, true, op.WithAlpha(alpha), t, other)
}

// Sub returns a - b elementwise (two bool tensors: a dtype error).
func Sub(a, b *Tensor) *Tensor { return pointwise(optable.Sub, nil, false, nil, a, b) }

// Sub returns t - other; see [Sub].
func (t *Tensor) Sub(other *Tensor) *Tensor { return pointwise(optable.Sub, nil, false, nil, t, other) }

// SubScaled returns a - alpha·b.
func SubScaled(a, b *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Sub, nil, false, op.WithAlpha(alpha), a, b)
}

// SubTo writes a - alpha·b into dst and returns dst.
func SubTo(dst, a, b *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Sub, dst, false, op.WithAlpha(alpha), a, b)
}

// SubInPlace overwrites t with t - alpha·other and returns t.
func (t *Tensor) SubInPlace(other *Tensor, alpha Num) *Tensor {
	return pointwise(optable.Sub, nil, true, op.WithAlpha(alpha), t, other)
}

// RoundingMode selects the rounding of [DivMode].
type RoundingMode uint8

// The rounding modes of division.
const (
	TrueDivision RoundingMode = iota // no rounding: integers give float32
	RoundTrunc                       // round toward zero, in the promoted dtype
	RoundFloor                       // round down, in the promoted dtype
)

func divDef(mode RoundingMode) *optable.Op {
	switch mode {
	case RoundTrunc:
		return optable.DivTrunc
	case RoundFloor:
		return optable.DivFloor
	}
	return optable.Div
}

// DivMode returns a / b rounded as mode says.
func DivMode(a, b *Tensor, mode RoundingMode) *Tensor {
	return pointwise(divDef(mode), nil, false, nil, a, b)
}

// DivModeTo writes a / b rounded as mode says into dst and returns dst.
func DivModeTo(dst, a, b *Tensor, mode RoundingMode) *Tensor {
	return pointwise(divDef(mode), dst, false, nil, a, b)
}

// LogitEps returns log(p/(1-p)) with p = t clamped to [eps, 1-eps].
func (t *Tensor) LogitEps(eps float64) *Tensor {
	return pointwise(optable.Logit, nil, false, &kernel.Args{Eps: eps, HasEps: true}, t)
}

// LogitEpsTo writes [Tensor.LogitEps] into dst and returns dst.
func LogitEpsTo(dst, t *Tensor, eps float64) *Tensor {
	return pointwise(optable.Logit, dst, false, &kernel.Args{Eps: eps, HasEps: true}, t)
}

// Where returns a where cond is true, else b; all three broadcast, a and b
// promote. cond must be bool (or uint8, deprecated in PyTorch: nonzero is true).
func Where(cond, a, b *Tensor) *Tensor { return pointwise(optable.Where, nil, false, nil, cond, a, b) }

// WhereTo writes [Where] into dst and returns dst.
func WhereTo(dst, cond, a, b *Tensor) *Tensor {
	return pointwise(optable.Where, dst, false, nil, cond, a, b)
}

// Clamp returns min(max(t, lo), hi); either bound may be nil (not both) and
// may be a [Scalar] or a tensor that broadcasts. lo > hi gives hi.
func (t *Tensor) Clamp(lo, hi *Tensor) *Tensor {
	return pointwise(optable.Clamp, nil, false, nil, t, lo, hi)
}

// ClampTo writes [Tensor.Clamp] into dst and returns dst.
func ClampTo(dst, t, lo, hi *Tensor) *Tensor {
	return pointwise(optable.Clamp, dst, false, nil, t, lo, hi)
}

// ClampInPlace clamps t in place and returns t.
func (t *Tensor) ClampInPlace(lo, hi *Tensor) *Tensor {
	return pointwise(optable.Clamp, nil, true, nil, t, lo, hi)
}

// Addcmul returns t + value·t1·t2.
func (t *Tensor) Addcmul(t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcmul, nil, false, op.WithAlpha(value), t, t1, t2)
}

// AddcmulTo writes t + value·t1·t2 into dst and returns dst.
func AddcmulTo(dst, t, t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcmul, dst, false, op.WithAlpha(value), t, t1, t2)
}

// AddcmulInPlace overwrites t with t + value·t1·t2 and returns t.
func (t *Tensor) AddcmulInPlace(t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcmul, nil, true, op.WithAlpha(value), t, t1, t2)
}

// Addcdiv returns t + value·t1/t2 (integer t1 and t2: a dtype error).
func (t *Tensor) Addcdiv(t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcdiv, nil, false, op.WithAlpha(value), t, t1, t2)
}

// AddcdivTo writes t + value·t1/t2 into dst and returns dst.
func AddcdivTo(dst, t, t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcdiv, dst, false, op.WithAlpha(value), t, t1, t2)
}

// AddcdivInPlace overwrites t with t + value·t1/t2 and returns t.
func (t *Tensor) AddcdivInPlace(t1, t2 *Tensor, value Num) *Tensor {
	return pointwise(optable.Addcdiv, nil, true, op.WithAlpha(value), t, t1, t2)
}

// Lerp returns t + weight·(end - t). t, end and a tensor weight must share one float dtype.
func (t *Tensor) Lerp(end, weight *Tensor) *Tensor {
	return pointwise(optable.Lerp, nil, false, nil, t, end, weight)
}

// LerpTo writes [Tensor.Lerp] into dst and returns dst.
func LerpTo(dst, t, end, weight *Tensor) *Tensor {
	return pointwise(optable.Lerp, dst, false, nil, t, end, weight)
}

// LerpInPlace overwrites t with t + weight·(end - t) and returns t.
func (t *Tensor) LerpInPlace(end, weight *Tensor) *Tensor {
	return pointwise(optable.Lerp, nil, true, nil, t, end, weight)
}
