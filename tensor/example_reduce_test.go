package tensor_test

import (
	"fmt"

	"github.com/goten-ml/goten/tensor"
)

// Reductions take the dims to reduce as [tensor.Dims], made by Over; integer
// sums give int64, and dtype= (As) computes in another dtype.
func ExampleTensor_Sum() {
	m := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	fmt.Println(m.Sum(tensor.Over(1)))
	fmt.Println(m.Sum(tensor.Over(0).KeepDim()))
	fmt.Println(m.Sum())
	fmt.Println(m.Sum(tensor.Over().As(tensor.Float64)))
	// Output:
	// tensor([ 6, 15])
	// tensor([[5, 7, 9]])
	// tensor(21)
	// tensor(21., dtype=torch.float64)
}

// Max returns the values and the index of the first maximum; a NaN is the
// maximum. Var's correction is an option of its Dims.
func ExampleTensor_Max() {
	m := tensor.FromSlice([]float32{3, 7, 7, 1, float32nan(), 2}, 2, 3)
	values, indices := m.Max(tensor.Over(1))
	fmt.Println(values)
	fmt.Println(indices)
	fmt.Println(m.Var(tensor.Over(0)))
	fmt.Println(m.Var(tensor.Over(0).Correction(0)))
	// Output:
	// tensor([7., nan])
	// tensor([1, 1])
	// tensor([ 2.0000,     nan, 12.5000])
	// tensor([1.0000,    nan, 6.2500])
}

// Softmax subtracts the row's max first, so large inputs do not overflow.
func ExampleTensor_Softmax() {
	x := tensor.FromSlice([]float32{1, 2, 3, 1000, 1000, 1000}, 2, 3)
	fmt.Println(x.Softmax(tensor.Over(-1)))
	fmt.Println(x.LogSoftmax(tensor.Over(-1)))
	// Output:
	// tensor([[0.0900, 0.2447, 0.6652],
	//         [0.3333, 0.3333, 0.3333]])
	// tensor([[-2.4076, -1.4076, -0.4076],
	//         [-1.0986, -1.0986, -1.0986]])
}

// Scans restride the scanned dim: each row is scanned on its own.
func ExampleTensor_CumSum() {
	x := tensor.FromSlice([]int8{1, 2, 3, 4, 5, 6}, 2, 3)
	fmt.Println(x.CumSum(tensor.Over(1)))
	fmt.Println(x.CumSum(tensor.Over(0)))
	// Output:
	// tensor([[ 1,  3,  6],
	//         [ 4,  9, 15]])
	// tensor([[1, 2, 3],
	//         [5, 7, 9]])
}

func float32nan() float32 {
	var z float32
	return z / z
}
