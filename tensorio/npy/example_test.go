package npy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio/npy"
)

// A tensor saved as .npy (np.load reads it) and loaded back memory-mapped;
// a Fortran-order file NumPy wrote loads as a strided view of its bytes.
func Example() {
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.npy")

	x := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err := npy.Save(path, x); err != nil {
		panic(err)
	}
	y, err := npy.Load(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(y.DType(), y.Shape(), y.Float64s())

	f, err := npy.Load("testdata/int16_fortran.npy") // np.asfortranarray of a (2, 3, 4) array
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Shape(), f.Strides(), f.IsContiguous())
	// Output:
	// float32 [2 3] [1 2 3 4 5 6]
	// [2 3 4] [1 2 6] false
}

// An archive of several arrays, as np.savez writes it.
func ExampleWriteNPZ() {
	dir, _ := os.MkdirTemp("", "npz")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "arrays.npz")
	f, _ := os.Create(path)
	err := npy.WriteNPZ(f, map[string]*tensor.Tensor{
		"weights": tensor.Ones(tensor.Float64, 2, 2),
		"labels":  tensor.FromSlice([]int64{0, 1, 1}),
	}, true)
	f.Close()
	if err != nil {
		panic(err)
	}
	m, err := npy.LoadNPZ(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(m["labels"].Int64s(), m["weights"].Shape())
	// Output: [0 1 1] [2 2]
}
