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

// A ragged batch end to end: build, a linear layer, self-attention over
// each sequence alone (causal), a loss, and the gradients in the nested
// leaf and the dense weight.
func Example_training() {
	g := tensor.NewGenerator(1)
	x := nested.New([]*tensor.Tensor{
		g.Randn(tensor.Float32, 3, 8), // a sequence of 3 tokens
		g.Randn(tensor.Float32, 5, 8), // one of 5
	}, tensor.Float32).SetRequiresGrad(true)
	w := g.Randn(tensor.Float32, 8, 8).SetRequiresGrad(true)

	h := nested.Linear(x, w, nil)        // one GEMM over all 8 tokens
	a := nested.Attention(h, h, h, true) // [3, 8] and [5, 8]: no padding, no mask
	loss := nested.ToPadded(a, tensor.Scalar(0), nil).Square().Sum()
	loss.Backward()

	fmt.Println(nested.ToPadded(a, tensor.Scalar(0), nil).Shape())
	fmt.Println(x.Grad().Shape(0), x.Grad().Shape(1), w.Grad().Shape())
	// Output:
	// [2 5 8]
	// [3 8] [5 8] [8 8]
}
