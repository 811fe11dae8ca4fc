// Package dtype defines goten's ten element types, PyTorch's type-promotion
// and casting rules, and the 16-bit float formats float16 and bfloat16.
//
// # Type promotion
//
// [Promote] is torch.promote_types: within a category (bool < integer <
// float) the wider type wins, uint8 with int8 gives int16, and float16 with
// bfloat16 gives float32. [ResultState] is torch.result_type over several
// operands: dimensioned tensors outrank 0-dim tensors, which outrank wrapped
// Go scalars, unless a lower-ranked operand is of a higher category.
//
// # Casting
//
// [CanCast] is torch.can_cast: a float may not be cast to an integer, and
// nothing but bool may be cast to bool, when an op writes into an existing
// output.
package dtype

import "fmt"

// DType is an element type. The zero value is [Invalid].
type DType uint8

// The element types, in PyTorch's order of categories.
const (
	Invalid DType = iota
	Bool
	Uint8
	Int8
	Int16
	Int32
	Int64
	Float16
	BFloat16
	Float32
	Float64
)

// Count is one more than the largest DType value: tables indexed by DType have this length.
const Count = int(Float64) + 1

// All lists the ten valid dtypes.
var All = []DType{Bool, Uint8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64}

var names = [Count]string{"invalid", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"}
var sizes = [Count]int{0, 1, 1, 1, 2, 4, 8, 2, 2, 4, 8}

// String returns PyTorch's name without the "torch." prefix, e.g. "float32".
func (d DType) String() string {
	if int(d) < Count {
		return names[d]
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Parse returns the dtype named s ("float32", "bool", ...).
func Parse(s string) (DType, bool) {
	for i, n := range names {
		if n == s && i != 0 {
			return DType(i), true
		}
	}
	return Invalid, false
}

// Size returns the size of one element in bytes.
func (d DType) Size() int { return sizes[d] }

// Valid reports whether d is one of the ten dtypes.
func (d DType) Valid() bool { return d >= Bool && d <= Float64 }

// IsFloat reports whether d is float16, bfloat16, float32 or float64.
func (d DType) IsFloat() bool { return d >= Float16 && d <= Float64 }

// Digits returns the number of significant bits of a float dtype (53, 24,
// 11 and 8 for float64, float32, float16 and bfloat16; C++'s
// std::numeric_limits<T>::digits), 0 for the others.
func (d DType) Digits() uint {
	switch d {
	case Float64:
		return 53
	case Float32:
		return 24
	case Float16:
		return 11
	case BFloat16:
		return 8
	}
	return 0
}

// IsInt reports whether d is an integer type (uint8 through int64; not bool).
func (d DType) IsInt() bool { return d >= Uint8 && d <= Int64 }

// IsIntOrBool reports whether d is an integer type or bool.
func (d DType) IsIntOrBool() bool { return d >= Bool && d <= Int64 }

// IsReduced reports whether d is one of the 16-bit floats that compute in float32.
func (d DType) IsReduced() bool { return d == Float16 || d == BFloat16 }

// Category is the promotion category of a dtype.
type Category uint8

// The categories, in increasing rank.
const (
	CatBool Category = iota
	CatInt
	CatFloat
)

// Category returns d's promotion category.
func (d DType) Category() Category {
	switch {
	case d == Bool:
		return CatBool
	case d.IsInt():
		return CatInt
	default:
		return CatFloat
	}
}

// Default is the default float dtype (torch.get_default_dtype()).
const Default = Float32

// Promote returns torch.promote_types(a, b). Promoting with Invalid returns the other.
func Promote(a, b DType) DType {
	switch {
	case a == b:
		return a
	case a == Invalid:
		return b
	case b == Invalid:
		return a
	case a == Bool:
		return b
	case b == Bool:
		return a
	}
	if a.IsInt() && b.IsInt() {
		if (a == Uint8 && b == Int8) || (a == Int8 && b == Uint8) {
			return Int16
		}
		if a == Uint8 {
			return b
		}
		if b == Uint8 {
			return a
		}
		return maxDType(a, b)
	}
	if a.IsInt() {
		return b
	}
	if b.IsInt() {
		return a
	}
	if a.IsReduced() && b.IsReduced() {
		return Float32
	}
	if a.Size() == b.Size() { // float32/float32 handled above; only f16/bf16 share sizes
		return maxDType(a, b)
	}
	if a.Size() > b.Size() {
		return a
	}
	return b
}

func maxDType(a, b DType) DType {
	if a > b {
		return a
	}
	return b
}

// CanCast reports torch.can_cast(from, to): whether an op may write a
// result of dtype from into an output of dtype to. Floats do not cast to
// integers, and nothing but bool casts to bool.
func CanCast(from, to DType) bool {
	if from.IsFloat() && to.IsIntOrBool() {
		return false
	}
	if from != Bool && to == Bool {
		return false
	}
	return true
}

// ResultState accumulates torch.result_type over operands. Its zero value
// is ready to use.
type ResultState struct {
	dim, zero, wrapped DType
}

// Update adds one operand: its dtype, its number of dims, and whether it is
// a wrapped Go scalar. A wrapped float counts as the default float dtype.
func (s *ResultState) Update(d DType, ndim int, wrapped bool) {
	switch {
	case wrapped:
		if d.IsFloat() {
			d = Default
		}
		s.wrapped = Promote(s.wrapped, d)
	case ndim > 0:
		s.dim = Promote(s.dim, d)
	default:
		s.zero = Promote(s.zero, d)
	}
}

// Result returns the promoted dtype of the operands seen so far (Invalid if none).
func (s ResultState) Result() DType {
	return combineCategories(s.dim, combineCategories(s.zero, s.wrapped))
}

func combineCategories(higher, lower DType) DType {
	if higher.IsFloat() {
		return higher
	}
	if higher == Bool || lower.IsFloat() {
		return Promote(higher, lower)
	}
	if higher != Invalid {
		return higher
	}
	return lower
}
