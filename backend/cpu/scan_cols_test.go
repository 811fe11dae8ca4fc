package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestConvertedOuterRows checks softmax and log_softmax over dim 0 of
// bfloat16 and float16 matrices, which take the outer-dim path through a
// float32 block (Note [Converted outer rows]), against the same rows
// gathered one by one from a strided copy of the input: the same bits,
// for widths across blocks and rows too long for the block. The inputs'
// exponentials span few binades, so that their float64 sums are exact in
// either order.
func TestConvertedOuterRows(t *testing.T) {
	defer func(b int) { colsBlockBytes = b }(colsBlockBytes)
	colsBlockBytes = 64 << 10
	for _, dt := range []dtype.DType{dtype.BFloat16, dtype.Float16} {
		for _, op := range []*optable.Op{optable.Softmax, optable.LogSoftmax} {
			for _, sz := range [][2]int{{3, 8}, {37, 300}, {600, 9}, {3000, 20}} {
				n, cols := sz[0], sz[1]
				t.Run(fmt.Sprintf("%v/%s/%dx%d", dt, op.Name, n, cols), func(t *testing.T) {
					wide := raw.New(dt, []int{n, 2 * cols})
					for i := range wide.NumEl() {
						wide.SetFloat64(i, float64((7919*i+13)%1009-504)/128)
					}
					strided := wide.WithLayout([]int{n, cols}, []int{2 * cols, 2}, 0)
					contiguous := raw.New(dt, []int{n, cols})
					for i := range n * cols {
						contiguous.SetFloat64(i, strided.Float64At(i/cols*2*cols+i%cols*2))
					}
					got, want := scanDim0(t, op, contiguous), scanDim0(t, op, strided)
					for i := range n * cols {
						g, w := got.Float64At(i), want.Float64At(i)
						if math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("element %d: %v, gathered rows give %v", i, g, w)
						}
					}
				})
			}
		}
	}
}

// scanDim0 runs op over dim 0 of in (computed in float32) into a new
// contiguous result, as package op's Scan does.
func scanDim0(t *testing.T, op *optable.Op, in *raw.View) *raw.View {
	out := raw.New(in.DType, in.Shape)
	p, err := iter.NewConfig().Op(op.Name).StaticShapeSquash(in.Shape, 0).StaticDType(dtype.Float32).
		CheckMemOverlap(false).AddOutput(out).AddInput(in).Build()
	if err != nil {
		t.Fatal(err)
	}
	args := kernel.DefaultArgs
	args.SoftmaxDivide = op == optable.Softmax
	if err := New().Scan(op, p, &args); err != nil {
		t.Fatal(err)
	}
	return out
}
