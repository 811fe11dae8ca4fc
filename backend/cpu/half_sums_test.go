package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestHalfSums checks float32 sums and means of bfloat16 and float16
// inputs, which the kernels read and convert themselves:
//   - over outer dims, eight contiguous rows at a time (cols8BF16,
//     cols8F16), against the same sums of the inputs converted to float32
//     first (the same float32 bits), for row counts and widths with every
//     kind of tail and eight-row streams crossing from one reduced dim
//     into the next;
//   - over the last dim, groups of rows in one call (rowsBF16, rowsF16),
//     one stream or four, against vec.SumBF16F64 or SumF16F64 of each row
//     (a row call's bits), with rows further apart than their length.
func TestHalfSums(t *testing.T) { eachStreamMode(t, testHalfSums) }

func testHalfSums(t *testing.T) {
	type layout struct {
		name    string
		sizes   []int
		strides []int
		keep    []int
		inner   bool
	}
	layouts := func(a, b, c int) []layout { // over a base of [a, 2b+1, c]
		rows := a * (2*b + 1)
		return []layout{
			{"dim0", []int{rows, c}, []int{c, 1}, []int{1, c}, false},
			{"dims01", []int{a, b, c}, []int{(2*b + 1) * c, 2 * c, 1}, []int{1, 1, c}, false},
			{"dim1", []int{rows, c}, []int{c, 1}, []int{rows, 1}, true},
			{"dim1 gaps", []int{rows, c - 3}, []int{c, 1}, []int{rows, 1}, true},
		}
	}
	for _, d := range []dtype.DType{dtype.BFloat16, dtype.Float16} {
		bits, rowSum := func(v float64) uint16 { return uint16(dtype.BF16FromFloat32(float32(v))) }, vec.SumBF16F64
		if d == dtype.Float16 {
			bits, rowSum = func(v float64) uint16 { return uint16(dtype.HalfFromFloat32(float32(v))) }, vec.SumF16F64
		}
		for _, op := range []*optable.Op{optable.Sum, optable.Mean} {
			for _, sh := range [][3]int{{7, 61, 16}, {3, 29, 80}, {2, 11, 1000}, {1, 300, 17}} {
				a, b, c := sh[0], sh[1], sh[2]
				base := raw.New(d, []int{a, 2*b + 1, c})
				wide := raw.New(dtype.Float32, []int{a, 2*b + 1, c})
				elems := make([]uint16, base.NumEl())
				for i := range base.NumEl() {
					// exponents 2^-12 to 2^12: float32 sums of eight are inexact
					base.SetFloat64(i, math.Ldexp(float64((7919*i+13)%1009-504), (31*i)%25-12)/1024)
					wide.SetFloat64(i, base.Float64At(i))
					elems[i] = bits(base.Float64At(i))
				}
				for _, lay := range layouts(a, b, c) {
					if lay.inner && op != optable.Sum {
						continue
					}
					name := fmt.Sprintf("%v %s %v %s", d, op.Name, sh, lay.name)
					srcs := []*raw.View{base, wide}
					if lay.inner {
						srcs = srcs[:1]
					}
					var res [2]*raw.View
					for k, src := range srcs {
						in := src.WithLayout(lay.sizes, lay.strides, 0)
						res[k] = raw.New(dtype.Float32, lay.keep)
						p, err := iter.NewConfig().IsReduction(true).StaticDType(dtype.Float32).AddOutput(res[k]).AddInput(in).Build()
						if err != nil {
							t.Fatal(name, err)
						}
						if err := New().Reduce(op, p, nil); err != nil {
							t.Fatal(name, err)
						}
					}
					for i := range res[0].NumEl() {
						g := float32(res[0].Float64At(i))
						var w float32
						if lay.inner {
							w = float32(rowSum(elems[i*c:][:lay.sizes[1]], false))
						} else {
							w = float32(res[1].Float64At(i))
						}
						if math.Float32bits(g) != math.Float32bits(w) {
							t.Fatalf("%s, output %d: got %v, want %v", name, i, g, w)
						}
					}
				}
			}
		}
	}
}
