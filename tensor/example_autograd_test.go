package tensor_test

import (
	"fmt"

	"github.com/goten-ml/goten/tensor"
)

// The gradient of a broadcast input is summed back to its shape: b was
// stretched over the 2 rows of a, so each of its elements collects 2.
func ExampleTensor_Backward() {
	a := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3).SetRequiresGrad(true)
	b := tensor.FromSlice([]float64{10, 20, 30}).SetRequiresGrad(true)
	a.Mul(b).Sum().Backward()
	fmt.Printf("%v\n%v\n", a.Grad(), b.Grad())
	// Output:
	// tensor([[10., 20., 30.],
	//         [10., 20., 30.]], dtype=torch.float64)
	// tensor([5., 7., 9.], dtype=torch.float64)
}

// Second derivatives: Grad with CreateGraph records the backward pass, so
// its result can be differentiated again.
func ExampleGrad() {
	x := tensor.FromSlice([]float64{2}).SetRequiresGrad(true)
	y := x.Pow(tensor.Scalar(3)).Sum() // x³
	dy := tensor.Grad([]*tensor.Tensor{y}, []*tensor.Tensor{x}, nil, tensor.GradOptions{CreateGraph: true})[0]
	d2y := tensor.Grad([]*tensor.Tensor{dy.Sum()}, []*tensor.Tensor{x}, nil, tensor.GradOptions{})[0]
	fmt.Println(dy.Item(), d2y.Item()) // 3x², 6x
	// Output: 12 12
}

// Inside NoGrad nothing is recorded: an evaluation pass keeps no graph.
// The scope belongs to the calling goroutine only.
func ExampleNoGrad() {
	w := tensor.FromSlice([]float32{0.5, -1}).SetRequiresGrad(true)
	var out *tensor.Tensor
	tensor.NoGrad(func() { out = w.Mul(tensor.Scalar(2)) })
	fmt.Println(out.RequiresGrad(), w.Mul(tensor.Scalar(2)).RequiresGrad())
	// Output: false true
}
