package pytorch_test

import (
	"fmt"

	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio/pytorch"
)

// A state dict saved by torch.save(model.state_dict(), path) in PyTorch
// 1.13, for a torch.nn.Sequential(torch.nn.Linear(3, 4),
// torch.nn.BatchNorm1d(4)).
func ExampleLoadStateDict() {
	sd, err := pytorch.LoadStateDict("testdata/state_dict.pt")
	if err != nil {
		panic(err)
	}
	for _, name := range sd.Names {
		t := sd.Tensors[name]
		fmt.Println(name, t.DType(), t.Shape())
	}
	// Output:
	// 0.weight float32 [4 3]
	// 0.bias float32 [4]
	// 1.weight float32 [4]
	// 1.bias float32 [4]
	// 1.running_mean float32 [4]
	// 1.running_var float32 [4]
	// 1.num_batches_tracked int64 []
}

// Tensors that share a storage in a checkpoint share it after loading:
// here a base tensor and its transpose.
func ExampleLoad() {
	v, err := pytorch.Load("testdata/views.pt")
	if err != nil {
		panic(err)
	}
	d := v.(*pytorch.Dict)
	b, _ := d.Get("base")
	t, _ := d.Get("t")
	base, transposed := b.(*tensor.Tensor), t.(*tensor.Tensor)
	fmt.Println(d.Keys)
	fmt.Println(base.Shape(), transposed.Shape(), transposed.Strides(), transposed.SharesStorage(base))
	// Output:
	// [base t rows col expand elem other]
	// [4 5] [5 4] [1 5] true
}
