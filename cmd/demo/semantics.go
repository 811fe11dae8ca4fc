package main

import (
	"fmt"

	"github.com/goten-ml/goten/tensor"
)

func show(title string, t *tensor.Tensor) {
	fmt.Printf("%s\n%v\n\n", title, t)
}

// semantics prints goten's core semantics (demo -semantics): broadcasting,
// type promotion, zero-copy views, in-place ops, reductions, scans,
// softmax, matrix products and typed errors; every result matches what
// PyTorch prints for the same program.
func semantics() {
	// Broadcasting: a [2,3] matrix plus a [3] row and a [2,1] column.
	m := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	row := tensor.FromSlice([]float32{10, 20, 30})
	col := tensor.FromSlice([]float32{100, 200}, 2, 1)
	show("m + row  ([2,3] + [3])", m.Add(row))
	show("m + col  ([2,3] + [2,1])", m.Add(col))

	// Type promotion: the result dtype follows PyTorch's rules.
	ints := tensor.FromSlice([]int32{1, 2, 3})
	show("int32 tensor + 0.5 (a Go float scalar ranks below tensors) -> float32", ints.Add(tensor.Scalar(0.5)))
	bytes := tensor.FromSlice([]uint8{250, 251, 252})
	show("uint8 tensor + 10 (an int scalar keeps uint8: wraps modulo 256)", bytes.Add(tensor.Scalar(10)))
	half := tensor.FromSlice([]float64{1.5, 2.5}).To(tensor.Float16)
	show("float16 tensor * float64 0-dim tensor -> float16", half.Mul(tensor.ZeroDim(3.0)))
	show("int32 / int32 (true division) -> float32", tensor.Div(ints, tensor.FromSlice([]int32{2, 2, 2})))

	// Views share storage: transposes, slices and expands copy nothing.
	a := tensor.Arange(0, 12, 1, tensor.Float32).View(3, 4)
	at := a.T()
	fmt.Printf("a.T(): shape %v strides %v, shares a's storage: %v\n\n", at.Shape(), at.Strides(), at.SharesStorage(a))
	evens := a.Slice(1, 0, 4, 2)
	show("a[:, 0:4:2] (a strided view)", evens)
	evens.MulInPlace(tensor.Scalar(100))
	show("a after evens *= 100 (written through the view)", a)
	e := tensor.FromSlice([]float32{1, 2, 3}).Unsqueeze(1).Expand(3, 4)
	fmt.Printf("expand [3,1] -> %v strides %v (stride 0: no copy)\n\n", e.Shape(), e.Strides())

	// An op on a transposed input returns a result with the same layout.
	r := at.Exp()
	fmt.Printf("exp(a.T()) has strides %v, like a.T()\n\n", r.Strides())

	// Reductions follow PyTorch's dtype rules: the sum of int32 is int64,
	// var is unbiased by default, argmax returns the first index of a tie.
	show("ints.sum() -> int64", ints.Sum())
	show("m.sum(dim=0)", m.Sum(tensor.Over(0)))
	show("m.var(dim=1, keepdim=True)", m.Var(tensor.Over(1).KeepDim()))
	show("argmax of [3, 7, 7, 1] (first of the tie)", tensor.FromSlice([]float32{3, 7, 7, 1}).ArgMax())

	// Scans and normalisations run along one dim.
	show("m.cumsum(1)", m.CumSum(tensor.Over(1)))
	show("softmax(m, dim=-1)", m.Softmax(tensor.Over(-1)))

	// Matrix products dispatch on rank like torch.matmul; batch dims broadcast.
	w := tensor.FromSlice([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
	show("m @ w  ([2,3] @ [3,2])", m.Matmul(w))
	batch := tensor.Arange(0, 12, 1, tensor.Float32).View(2, 2, 3)
	show("batch @ w  ([2,2,3] @ [3,2]: w broadcast over the batch)", batch.Matmul(w))

	// Errors are typed and say what was wrong; nothing is half-written.
	err := tensor.Try(func() { m.Add(tensor.FromSlice([]float32{1, 2})) })
	fmt.Printf("error: %v\n", err)
	err = tensor.Try(func() { ints.AddInPlace(tensor.Scalar(0.5)) })
	fmt.Printf("error: %v\n", err)
	err = tensor.Try(func() { at.View(12) })
	fmt.Printf("error: %v\n", err)
	err = tensor.Try(func() { m.Matmul(m) })
	fmt.Printf("error: %v\n", err)
	err = tensor.Try(func() { ints.Mean() })
	fmt.Printf("error: %v\n", err)
}
