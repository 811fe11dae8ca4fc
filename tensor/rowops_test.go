package tensor_test

import (
	"fmt"
	"math"
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
