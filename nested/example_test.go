package nested_test

import (
	"fmt"

	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// A ragged batch of two sequences of 3-vectors, of lengths 2 and 1: one
// linear layer over all tokens (one GEMM over the packed buffer), a
// softmax over each sequence (the ragged dim), and the padded form.
func Example() {
	x := nested.New([]*tensor.Tensor{
		tensor.FromSlice([]float32{1, 0, 0, 0, 1, 0}, 2, 3),
		tensor.FromSlice([]float32{0, 0, 1}, 1, 3),
	}, tensor.Float32)
	w := tensor.FromSlice([]float32{1, 2, 3}, 1, 3) // one output feature
	y := nested.Linear(x, w, nil)                   // [2, 1] and [1, 1]
	p := nested.Softmax(y, 1)
	fmt.Println(y.Values().Float64s())
	fmt.Println(nested.ToPadded(p, tensor.Scalar(0), nil).Shape())
	fmt.Printf("%.4f\n", p.Values().Float64s())
	fmt.Println(p.Sizes().Int64s(), p.Offsets().Int64s())
	// Output:
	// [1 2 3]
	// [2 2 1]
	// [0.2689 0.7311 1.0000]
	// [2 1 1 1] [0 2]
}
