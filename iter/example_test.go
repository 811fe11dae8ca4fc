package iter_test

import (
	"fmt"
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/raw"
)

// values returns a contiguous float32 view holding xs.
func values(shape []int, xs ...float32) *raw.View {
	v := raw.New(dtype.Float32, shape)
	copy(device.Slice[float32](v.Storage, 0, len(xs)), xs)
	return v
}

// addKernel returns an add kernel for plan p: a Loop2D over float32
// operands (output, a, b) in host memory, which adds the byte offsets the
// walk hands it to its storages' addresses.
func addKernel(p *iter.Plan) iter.Loop2D {
	var base [3]unsafe.Pointer
	for k := range base {
		base[k] = p.Operand(k).Storage.Pointer()
	}
	return func(offs []int, strides []int, size0, size1 int) {
		for j := 0; j < size1; j++ {
			for i := 0; i < size0; i++ {
				o := (*float32)(unsafe.Add(base[0], offs[0]+i*strides[0]+j*strides[3]))
				a := *(*float32)(unsafe.Add(base[1], offs[1]+i*strides[1]+j*strides[4]))
				b := *(*float32)(unsafe.Add(base[2], offs[2]+i*strides[2]+j*strides[5]))
				*o = a + b
			}
		}
	}
}

// Broadcasting a column against a row allocates a [2, 3] output.
func ExampleConfig_Build_broadcast() {
	col := values([]int{2, 1}, 10, 20)
	row := values([]int{3}, 1, 2, 3)
	p, err := iter.NewConfig().AddOutput(nil).AddInput(col).AddInput(row).Build()
	if err != nil {
		panic(err)
	}
	p.ForEach(addKernel(p))
	out := p.Output(0)
	fmt.Println(out.Shape, device.Slice[float32](out.Storage, 0, out.NumEl()))
	fmt.Println("plan shape (fastest first):", p.Shape(), "input strides in bytes:", p.Operand(1).Strides, p.Operand(2).Strides)
	// Output:
	// [2 3] [11 12 13 21 22 23]
	// plan shape (fastest first): [3 2] input strides in bytes: [0 4] [4 0]
}

// An op on a transposed input returns a result laid out the same way
// (Note [Computing output strides]).
func ExampleConfig_Build_outputStrides() {
	m := values([]int{3, 2}, 1, 2, 3, 4, 5, 6)
	t := &raw.View{Storage: m.Storage, DType: m.DType, Shape: []int{2, 3}, Strides: []int{1, 2}} // m transposed
	p, err := iter.NewConfig().AddOutput(nil).AddInput(t).AddInput(t).Build()
	if err != nil {
		panic(err)
	}
	p.ForEach(addKernel(p))
	out := p.Output(0)
	fmt.Println(out.Shape, out.Strides, device.Slice[float32](out.Storage, 0, 6))
	// Output:
	// [2 3] [1 2] [2 4 6 8 10 12]
}

// Errors are typed; the broadcast error is PyTorch's text exactly, and the
// checks run before anything is written.
func ExampleConfig_Build_errors() {
	a := values([]int{3}, 1, 2, 3)
	_, err := iter.NewConfig().AddOutput(nil).AddInput(a).AddInput(values([]int{4})).Build()
	fmt.Println(err)

	// In place, a self of shape [3] cannot hold the broadcast shape.
	_, err = iter.NewConfig().Op("add_").AddOutput(a).AddInput(a).AddInput(values([]int{2, 3})).Build()
	fmt.Println(err)

	// Writing base[1:4] from base[0:3] overlaps partly.
	base := values([]int{6})
	sl := func(start int) *raw.View {
		return &raw.View{Storage: base.Storage, DType: base.DType, Shape: []int{3}, Strides: []int{1}, Offset: start}
	}
	_, err = iter.NewConfig().Op("neg").AddOutput(sl(1)).AddInput(sl(0)).Build()
	fmt.Println(err)

	// An int64 output cannot receive a float result.
	_, err = iter.NewConfig().Op("mul").AddOutput(raw.New(dtype.Int64, []int{3})).AddInput(a).AddInput(a).
		PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true).EnforceSafeCastingToOutput(true).Build()
	fmt.Println(err)
	// Output:
	// The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0
	// add_: output with shape [3] doesn't match the broadcast shape [2, 3]
	// neg: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.
	// mul: result type Float can't be cast to the desired output type Long
}
