package op

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// Scalar is a Go number taking part in an op (PyTorch's Scalar): an int, a
// float or a bool. Its kind decides type promotion: an int scalar counts as
// int64 and a float scalar as float32, below any tensor of its category.
type Scalar struct {
	Kind dtype.Category
	F    float64
	I    int64
}

// Float returns a float scalar.
func Float(f float64) Scalar { return Scalar{Kind: dtype.CatFloat, F: f, I: int64(f)} }

// Int returns an integer scalar.
func Int(i int64) Scalar { return Scalar{Kind: dtype.CatInt, F: float64(i), I: i} }

// Bool returns a bool scalar.
func Bool(b bool) Scalar {
	if b {
		return Scalar{Kind: dtype.CatBool, F: 1, I: 1}
	}
	return Scalar{Kind: dtype.CatBool}
}

// DType returns the dtype a wrapped scalar carries: float64, int64 or bool.
func (s Scalar) DType() dtype.DType {
	switch s.Kind {
	case dtype.CatFloat:
		return dtype.Float64
	case dtype.CatInt:
		return dtype.Int64
	}
	return dtype.Bool
}

// IsFloat reports whether s is a float scalar.
func (s Scalar) IsFloat() bool { return s.Kind == dtype.CatFloat }

// Wrap returns s as a wrapped 0-dim view (a CPU scalar that ranks below
// tensors in type promotion).
func (s Scalar) Wrap() *raw.View {
	v := s.ViewAs(s.DType())
	v.Wrapped = true
	return v
}

// ViewAs returns a 0-dim view of dtype d holding s converted to d.
func (s Scalar) ViewAs(d dtype.DType) *raw.View {
	v := &raw.View{Storage: device.Alloc(d.Size()), DType: d, Shape: []int{}, Strides: []int{}}
	if s.Kind == dtype.CatFloat {
		v.SetFloat64(0, s.F)
	} else {
		v.SetInt64(0, s.I)
	}
	return v
}

// ScalarOf reads the first element of v as a Scalar of v's category.
func ScalarOf(v *raw.View) Scalar {
	switch {
	case v.DType.IsFloat():
		return Float(v.Float64At(v.Offset))
	case v.DType == dtype.Bool:
		return Bool(v.Int64At(v.Offset) != 0)
	}
	return Int(v.Int64At(v.Offset))
}
