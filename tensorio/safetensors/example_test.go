package safetensors_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio/safetensors"
)

// Weights saved with metadata and loaded back: the loaded tensors view
// the mapped file in place.
func Example() {
	dir, _ := os.MkdirTemp("", "safetensors")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.safetensors")

	err := safetensors.Save(path, map[string]*tensor.Tensor{
		"fc.weight": tensor.Full(tensor.Scalar(0.5), tensor.BFloat16, 2, 3),
		"fc.bias":   tensor.Zeros(tensor.Float32, 2),
	}, map[string]string{"format": "pt"})
	if err != nil {
		panic(err)
	}
	f, err := safetensors.Load(path)
	if err != nil {
		panic(err)
	}
	for _, name := range f.Names {
		t := f.Tensors[name]
		fmt.Println(name, t.DType(), t.Shape())
	}
	fmt.Println(f.Metadata["format"], f.Tensors["fc.weight"].At(1, 2))
	// Output:
	// fc.bias float32 [2]
	// fc.weight bfloat16 [2 3]
	// pt 0.5
}
