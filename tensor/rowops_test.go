package tensor_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// TestRowOpsOuterDims runs softmax, log_softmax and the scans along an
// outer dim against the reference backend, on shapes that take the CPU's
// outer-dim paths (Note [Row ops over an outer dim], Note [Scans and row
// ops]) with several blocks of neighbouring rows and several outer rows
// ([3, 40, 300] along dim 1: 300 neighbours, blocks of 256 and 44, three
// times), and on the contiguous rows of logcumsumexp (Note [Vectorised
// logcumsumexp]) over more than one block; a few elements are NaN or
// infinite so that specials cross both paths.
func TestRowOpsOuterDims(t *testing.T) {
	type op struct {
		name string
		f    func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor
	}
	ops := []op{
		{"softmax", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { return tensor.Softmax(x, o[0]) }},
		{"log_softmax", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { return tensor.LogSoftmax(x, o[0]) }},
		{"logcumsumexp", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { return tensor.LogCumSumExp(x, o[0]) }},
		{"cummax", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { v, _ := tensor.CumMax(x, o[0]); return v }},
		{"cummax indices", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { _, i := tensor.CumMax(x, o[0]); return i }},
		{"cummin indices", func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { _, i := tensor.CumMin(x, o[0]); return i }},
	}
	for _, dt := range []dtype.DType{dtype.Float32, dtype.Float64} {
		for _, c := range []struct {
			shape    []int
			dim      int
			specials bool
		}{{[]int{3, 40, 300}, 1, false}, {[]int{50, 9}, 0, true}, {[]int{7, 300}, 0, true}, {[]int{3, 700}, 1, true}} {
			x := sample(dt, 1, c.shape...)
			if c.specials {
				vals := x.Float64s()
				vals[5], vals[len(vals)/2], vals[len(vals)-3] = math.NaN(), math.Inf(1), math.Inf(-1)
				x = tensor.FromSlice(vals, c.shape...).To(dt)
			}
			for _, o := range ops {
				name := fmt.Sprintf("%s/%s/%v/dim%d", o.name, dt, c.shape, c.dim)
				want := onRef(o.f, x, tensor.Over(c.dim))
				same(t, name, o.f(x, tensor.Over(c.dim)), want)
			}
		}
	}
}

// TestCumMaxMinAnyDimWhenEmpty: PyTorch's cummax and cummin fill a 0-dim
// or empty result before they look at the dim, so any dim goes there;
// other scans check it.
func TestCumMaxMinAnyDimWhenEmpty(t *testing.T) {
	for _, f := range []func(*tensor.Tensor, tensor.Dims) (*tensor.Tensor, *tensor.Tensor){tensor.CumMax, tensor.CumMin} {
		v, i := f(tensor.ZeroDim(float32(5.25)), tensor.Over(3))
		if v.Dim() != 0 || v.Item() != 5.25 || i.Item() != 0 {
			t.Errorf("0-dim with dim 3: %v, %v", v, i)
		}
		x := tensor.Zeros(tensor.Float64, 2, 0).SetRequiresGrad(true)
		v, i = f(x, tensor.Over(-7))
		if !slices.Equal(v.Shape(), []int{2, 0}) || !slices.Equal(i.Shape(), []int{2, 0}) || i.DType() != tensor.Int64 {
			t.Errorf("[2, 0] with dim -7: %v %v", v.Shape(), i.Shape())
		}
		v.Sum().Backward()
		if g := x.Grad(); g == nil || !slices.Equal(g.Shape(), []int{2, 0}) {
			t.Errorf("the gradient of an empty input: %v", g)
		}
		if err := tensor.Try(func() { f(tensor.Ones(tensor.Float32, 2), tensor.Over(1)) }); err == nil {
			t.Error("dim 1 of a 1-D input with elements: no error")
		}
	}
	if err := tensor.Try(func() { tensor.ZeroDim(float32(1)).CumSum(tensor.Over(1)) }); err == nil {
		t.Error("cumsum of a 0-dim input along dim 1: no error")
	}
}
