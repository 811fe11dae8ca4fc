package cpu

import (
	"fmt"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// TestScalarRows checks the bias-add layout of Note [Rows with a scalar
// each] (x [N,C,H,W] with b [C,1,1]: short rows, one element of b each)
// for the four arithmetic ops, with and without alpha, into a new output
// and in place, against the elements computed here.
func TestScalarRows(t *testing.T) {
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float64} {
		for _, c := range []struct {
			op    *optable.Op
			alpha float64
			f     func(x, b, alpha float64) float64
		}{
			{optable.Add, 1, func(x, b, _ float64) float64 { return x + b }},
			{optable.Add, 2.5, func(x, b, al float64) float64 { return x + al*b }},
			{optable.Sub, 1, func(x, b, _ float64) float64 { return x - b }},
			{optable.Sub, -3, func(x, b, al float64) float64 { return x - al*b }},
			{optable.Mul, 1, func(x, b, _ float64) float64 { return x * b }},
			{optable.Div, 1, func(x, b, _ float64) float64 { return x / b }},
		} {
			for _, inPlace := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/alpha=%v/inplace=%v", c.op.Name, d, c.alpha, inPlace)
				const C, HW = 5, 63
				xf := func(i int) float64 { return float64(i%17) - 8.5 }
				bf := func(i int) float64 { return float64(i) + 0.25 }
				x := filled(d, []int{3, C, 7, 9}, xf)
				b := filled(d, []int{C, 1, 1}, bf)
				out := x
				if !inPlace {
					out = filled(d, []int{3, C, 7, 9}, func(int) float64 { return 99 })
				}
				args := kernel.DefaultArgs
				args.AlphaF = c.alpha
				if err := New().Pointwise(c.op, build(t, out, x, b), &args); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkValues(t, name, out, func(i int) float64 {
					return roundTo(d, c.f(xf(i), bf(i/HW%C), c.alpha))
				}, 1e-6)
			}
		}
	}
}
