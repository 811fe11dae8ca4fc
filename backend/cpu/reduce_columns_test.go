package cpu

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestShortRowsAsColumns checks float32 reductions over contiguous rows
// of 1 to 17 elements (Note [Short rows as columns]) against the same
// reductions folded from the rows in place, bit for bit (a NaN for a NaN
// where arithmetic meets two of them): row counts on both sides of the
// kernel's blocks of 16 rows and of columnsBlock, rows with and without a
// gap after them, values with zeros of both signs, infinities and NaNs of
// several payloads.
func TestShortRowsAsColumns(t *testing.T) {
	nan := func(payload uint32) float32 { return math.Float32frombits(0x7fc00000 | payload) }
	special := []float32{0, float32(math.Copysign(0, -1)), 1.5, -1, 2, -0.75, float32(math.Inf(1)), float32(math.Inf(-1))}
	at := func(i int) float32 {
		h := (7919*i + 13) % 1009
		switch {
		case h%211 == 7:
			return nan(uint32(h))
		case h%5 == 0:
			return special[h%len(special)]
		}
		return 1 + float32(h-504)/2048
	}
	args := kernel.DefaultArgs
	args.P = 3
	defer func(m int) { columnsMaxLen = m }(columnsMaxLen)
	most := columnsMaxLen
	for n := 1; n <= 17; n++ {
		for _, rows := range []int{1, 15, 16, 17, columnsBlock + 3, 2000} {
			for _, gap := range []int{0, 2} {
				base := raw.New(dtype.Float32, []int{rows, n + gap})
				for i := 0; i < base.NumEl(); i++ {
					base.SetFloat64(i, float64(at(i)))
				}
				in := base.WithLayout([]int{rows, n}, []int{n + gap, 1}, 0)
				for _, op := range []*optable.Op{optable.Sum, optable.NanSum, optable.Mean, optable.Prod, optable.Amax,
					optable.Amin, optable.NormOne, optable.NormTwo, optable.NormInf, optable.NormP, optable.LogSumExp} {
					var res [2]*raw.View
					for k, most := range []int{most, 0} {
						columnsMaxLen = most
						res[k] = raw.New(dtype.Float32, []int{rows, 1})
						p, err := iter.NewConfig().IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false).
							StaticDType(dtype.Float32).AddOutput(res[k]).AddInput(in).Build()
						if err != nil {
							t.Fatal(err)
						}
						if err := New().Reduce(op, p, &args); err != nil {
							t.Fatal(err)
						}
					}
					// which of two NaNs a product or a sum keeps is the order
					// of its operands, which the compiler picks in the
					// generated Go loops (it differs under -race)
					arith := op != optable.Amax && op != optable.Amin && op != optable.NormInf
					for i := 0; i < rows; i++ {
						gv, wv := float32(res[0].Float64At(i)), float32(res[1].Float64At(i))
						g, w := math.Float32bits(gv), math.Float32bits(wv)
						if g != w && !(arith && gv != gv && wv != wv) {
							t.Fatalf("%s n=%d rows=%d gap=%d, row %d: got %#x, want %#x", op.Name, n, rows, gap, i, g, w)
						}
					}
				}
			}
		}
	}
}
