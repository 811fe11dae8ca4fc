package tensor_test

import (
	"fmt"

	"github.com/goten-ml/goten/tensor"
)

// Broadcasting stretches size-1 and missing dims.
func Example_broadcasting() {
	m := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	col := tensor.FromSlice([]float32{10, 20}, 2, 1)
	fmt.Println(m.Add(col))
	err := tensor.Try(func() { m.Add(tensor.FromSlice([]float32{1, 2})) })
	fmt.Println(err)
	// Output:
	// tensor([[11., 12., 13.],
	//         [24., 25., 26.]])
	// add: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1
}

// Type promotion follows PyTorch: Go scalars rank below tensors.
func Example_promotion() {
	i32 := tensor.FromSlice([]int32{1, 2, 3})
	fmt.Println(i32.Add(tensor.Scalar(0.5)).DType())
	fmt.Println(tensor.FromSlice([]uint8{200}).Add(tensor.Scalar(100)))
	fmt.Println(i32.Add(tensor.ZeroDim(2.0)).DType())
	fmt.Println(tensor.FromSlice([]bool{true}).Add(tensor.Scalar(2)).DType())
	fmt.Println(tensor.Div(i32, i32).DType())
	// Output:
	// float32
	// tensor([44], dtype=torch.uint8)
	// float64
	// int64
	// float32
}

// Views share storage with their base.
func Example_views() {
	a := tensor.Arange(0, 6, 1, tensor.Float32).View(2, 3)
	t := a.T()
	fmt.Println(t.Shape(), t.Strides(), t.SharesStorage(a))
	row := a.Select(0, 1)
	row.Fill(tensor.Scalar(7))
	fmt.Println(a)
	// Output:
	// [3 2] [1 3] true
	// tensor([[0., 1., 2.],
	//         [7., 7., 7.]])
}

// In-place ops and out= write through views; overlapping outputs are refused.
func Example_inPlace() {
	a := tensor.FromSlice([]float32{1, 2, 3, 4})
	a.Narrow(0, 0, 2).MulInPlace(tensor.Scalar(10))
	fmt.Println(a)
	err := tensor.Try(func() {
		tensor.MulTo(a.Narrow(0, 1, 2), a.Narrow(0, 0, 2), tensor.Scalar(2))
	})
	fmt.Println(err)
	err = tensor.Try(func() { tensor.FromSlice([]int32{1}).MulInPlace(tensor.Scalar(0.5)) })
	fmt.Println(err)
	// Output:
	// tensor([10., 20.,  3.,  4.])
	// mul: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.
	// mul: result type float32 can't be cast to the desired output type int32
}
