package tensor_test

import (
	"fmt"
	"math"

	"github.com/goten-ml/goten/tensor"
)

// Indexing follows Python's t[...]: integers and slices give views, index
// tensors and masks gather into a new tensor.
func Example_indexing() {
	x := tensor.Arange(0, 12, 1, tensor.Float32).View(3, 4)
	fmt.Println(x.Index(tensor.Pos(1)))                      // x[1]: a view
	fmt.Println(x.Index(tensor.Whole, tensor.From(1).By(2))) // x[:, 1::2]
	rows := tensor.FromSlice([]int64{2, 0})
	fmt.Println(x.Index(tensor.Idx(rows), tensor.Span(1, 3))) // x[[2, 0], 1:3]
	fmt.Println(x.Index(tensor.Idx(x.Gt(tensor.Scalar(8)))))  // x[x > 8]
	y := tensor.IndexPut(x, []tensor.Item{tensor.Idx(rows)}, tensor.Scalar(-1).To(tensor.Float32), false)
	fmt.Println(y.Index(tensor.Whole, tensor.Pos(0))) // x[[2, 0]] = -1, first column
	// Output:
	// tensor([4., 5., 6., 7.])
	// tensor([[ 1.,  3.],
	//         [ 5.,  7.],
	//         [ 9., 11.]])
	// tensor([[ 9., 10.],
	//         [ 1.,  2.]])
	// tensor([ 9., 10., 11.])
	// tensor([-1.,  4., -1.])
}

// Gather, index_select and embedding read rows and elements by position.
func Example_gather() {
	x := tensor.FromSlice([]float32{10, 11, 12, 20, 21, 22}, 2, 3)
	idx := tensor.FromSlice([]int64{2, 0, 1, 1}, 2, 2)
	fmt.Println(x.Gather(1, idx))
	fmt.Println(x.IndexSelect(0, tensor.FromSlice([]int64{1, 1})))
	w := tensor.FromSlice([]float32{0, 0, 1, 1, 2, 2}, 3, 2)
	fmt.Println(tensor.Embedding(tensor.FromSlice([]int64{2, 0}), w))
	// Output:
	// tensor([[12., 10.],
	//         [21., 21.]])
	// tensor([[20., 21., 22.],
	//         [20., 21., 22.]])
	// tensor([[2., 2.],
	//         [0., 0.]])
}

// Sorts are stable and NaN sorts last; topk picks among equal elements as
// PyTorch does (here the later 3).
func Example_sort() {
	x := tensor.FromSlice([]float32{3, float32(math.NaN()), 1, 3, -0.5})
	v, i := x.Sort(0, false)
	fmt.Println(v, i)
	v, i = tensor.TopK(x, 2, 0, true)
	fmt.Println(v, i)
	// Output:
	// tensor([-0.5000,  1.0000,  3.0000,  3.0000,     nan]) tensor([4, 2, 0, 3, 1])
	// tensor([nan, 3.]) tensor([1, 3])
}
