package gradcheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	"github.com/goten-ml/goten/tensor"
)

func sumSin(in []*tensor.Tensor) []*tensor.Tensor {
	return []*tensor.Tensor{in[0].Sin().Mul(in[1]).Sum()}
}

func inputs() []*tensor.Tensor {
	return []*tensor.Tensor{
		tensor.FromSlice([]float64{0.1, -0.7, 1.3}).SetRequiresGrad(true),
		tensor.FromSlice([]float64{2, 0.5, -1}).SetRequiresGrad(true),
	}
}

func TestCheckPasses(t *testing.T) {
	if err := gradcheck.Check(sumSin, inputs(), gradcheck.Options{}); err != nil {
		t.Error(err)
	}
	if err := gradcheck.CheckSecond(sumSin, inputs(), gradcheck.Options{}); err != nil {
		t.Error(err)
	}
}

// TestCheckFails: a gradient that backward gets wrong (a hook doubles it)
// is reported, first and second order.
func TestCheckFails(t *testing.T) {
	in := inputs()
	in[0].RegisterHook(func(g *tensor.Tensor) *tensor.Tensor { return g.Mul(tensor.Scalar(2)) })
	if err := gradcheck.Check(sumSin, in, gradcheck.Options{}); err == nil || !strings.Contains(err.Error(), "mismatch") {
		t.Errorf("a doubled gradient passed: %v", err)
	}
	if err := gradcheck.CheckSecond(sumSin, in, gradcheck.Options{}); err == nil {
		t.Error("a doubled gradient passed the second-order check")
	}
}

func TestCheckRefuses(t *testing.T) {
	f32 := []*tensor.Tensor{tensor.FromSlice([]float32{1, 2}).SetRequiresGrad(true)}
	if err := gradcheck.Check(func(in []*tensor.Tensor) []*tensor.Tensor { return in }, f32, gradcheck.Options{}); err == nil {
		t.Error("a float32 input was accepted")
	}
	expanded := []*tensor.Tensor{tensor.FromSlice([]float64{1}).Expand(3).Detach().SetRequiresGrad(true)}
	if err := gradcheck.Check(func(in []*tensor.Tensor) []*tensor.Tensor { return in }, expanded, gradcheck.Options{}); err == nil {
		t.Error("an input of stride 0 was accepted")
	}
}

// Check compares backward's gradient of Σ sin(x)·y with finite differences.
func ExampleCheck() {
	x := tensor.FromSlice([]float64{0.1, -0.7, 1.3}).SetRequiresGrad(true)
	y := tensor.FromSlice([]float64{2, 0.5, -1}).SetRequiresGrad(true)
	err := gradcheck.Check(func(in []*tensor.Tensor) []*tensor.Tensor {
		return []*tensor.Tensor{in[0].Sin().Mul(in[1]).Sum()}
	}, []*tensor.Tensor{x, y}, gradcheck.Options{})
	fmt.Println(err)
	// Output: <nil>
}
