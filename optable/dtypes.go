package optable

import (
	"strings"

	"github.com/goten-ml/goten/dtype"
)

// DTypes is a set of dtypes.
type DTypes uint16

// The sets the table uses.
const (
	Bools    DTypes = 1 << dtype.Bool
	Uint8s   DTypes = 1 << dtype.Uint8
	Signed   DTypes = 1<<dtype.Int8 | 1<<dtype.Int16 | 1<<dtype.Int32 | 1<<dtype.Int64
	Ints            = Uint8s | Signed
	Floats   DTypes = 1<<dtype.Float16 | 1<<dtype.BFloat16 | 1<<dtype.Float32 | 1<<dtype.Float64
	Numbers         = Ints | Floats
	AnyDType        = Bools | Numbers
	NotBool         = Numbers
	IntsBool        = Ints | Bools
)

// Of returns the set of ds.
func Of(ds ...dtype.DType) DTypes {
	var s DTypes
	for _, d := range ds {
		s |= 1 << d
	}
	return s
}

// Has reports whether d is in s.
func (s DTypes) Has(d dtype.DType) bool { return d.Valid() && s&(1<<d) != 0 }

// List returns the dtypes of s in dtype order.
func (s DTypes) List() []dtype.DType {
	var r []dtype.DType
	for _, d := range dtype.All {
		if s.Has(d) {
			r = append(r, d)
		}
	}
	return r
}

// LoopTypes returns the loop dtypes of s: its dtypes but float16 and
// bfloat16, which compute in float32.
func (s DTypes) LoopTypes() []dtype.DType {
	var r []dtype.DType
	for _, d := range s.List() {
		if !d.IsReduced() {
			r = append(r, d)
		}
	}
	return r
}

// String lists the dtypes of s: "{float32, float64}".
func (s DTypes) String() string {
	names := make([]string, 0, 10)
	for _, d := range s.List() {
		names = append(names, d.String())
	}
	return "{" + strings.Join(names, ", ") + "}"
}
