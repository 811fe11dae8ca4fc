package nested_test

import (
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// The gradients of nested ops against finite differences: each function
// takes the packed buffer (and dense weights) as its inputs, wraps the
// buffer as a nested tensor of fixed sizes, and returns the result's
// buffer (or the dense result), so gradcheck perturbs and differentiates
// the buffer's elements.
func TestNestedGradcheck(t *testing.T) {
	g := tensor.NewGenerator(41)
	sizes := [][]int{{2, 4}, {3, 4}, {1, 4}}
	offsets := []int{0, 8, 20}
	buf := func() *tensor.Tensor { return g.Randn(tensor.Float64, 24).SetRequiresGrad(true) }
	wrap := func(b *tensor.Tensor) *nested.Tensor { return nested.Wrap(b, sizes, offsets) }
	// attention over [2 heads, L, 2]: the same 24 elements seen as [L, 2, 2] transposed
	heads := func(b *tensor.Tensor) *nested.Tensor {
		return nested.Transpose(nested.Wrap(b, [][]int{{2, 2, 2}, {3, 2, 2}, {1, 2, 2}}, offsets), 1, 2)
	}
	cases := []struct {
		name   string
		f      gradcheck.Func
		inputs []*tensor.Tensor
	}{
		{"linear", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Linear(wrap(in[0]), in[1], in[2]).Values()}
		}, []*tensor.Tensor{buf(), g.Randn(tensor.Float64, 3, 4).SetRequiresGrad(true), g.Randn(tensor.Float64, 3).SetRequiresGrad(true)}},
		{"softmax last dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Softmax(wrap(in[0]), -1).Values()}
		}, []*tensor.Tensor{buf()}},
		{"softmax ragged dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Softmax(wrap(in[0]), 1).Values()}
		}, []*tensor.Tensor{buf()}},
		{"log_softmax ragged dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.LogSoftmax(wrap(in[0]), 1).Values()}
		}, []*tensor.Tensor{buf()}},
		{"layer_norm", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.LayerNorm(wrap(in[0]), []int{4}, in[1], in[2], 1e-5).Values()}
		}, []*tensor.Tensor{buf(), g.Randn(tensor.Float64, 4).SetRequiresGrad(true), g.Randn(tensor.Float64, 4).SetRequiresGrad(true)}},
		{"attention", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Attention(heads(in[0]), heads(in[1]), heads(in[2]), false).Values()}
		}, []*tensor.Tensor{buf(), buf(), buf()}},
		{"causal attention", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Attention(heads(in[0]), heads(in[0]), heads(in[0]), true).Values()}
		}, []*tensor.Tensor{buf()}},
		{"sum ragged dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Reduce("sum", tensor.Sum, wrap(in[0]), 1, false).Values()}
		}, []*tensor.Tensor{buf()}},
		{"mean ragged dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Reduce("mean", tensor.Mean, wrap(in[0]), 1, true).Values()}
		}, []*tensor.Tensor{buf()}},
		{"amax ragged dim", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.Reduce("amax", tensor.Amax, wrap(in[0]), 1, false).Values()}
		}, []*tensor.Tensor{buf()}},
		{"to_padded", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.ToPadded(wrap(in[0]), tensor.Scalar(-1.0), []int{3, 4, 5})}
		}, []*tensor.Tensor{buf()}},
		{"to_padded by rows", func(in []*tensor.Tensor) []*tensor.Tensor {
			return []*tensor.Tensor{nested.ToPadded(wrap(in[0]), tensor.Scalar(0.5), nil)}
		}, []*tensor.Tensor{buf()}},
	}
	for _, c := range cases {
		if err := gradcheck.Check(c.f, c.inputs, gradcheck.Options{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
