package conform

import (
	"encoding/json"
	"fmt"

	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// isNested reports whether a TENSOR or RESULT is the nested form.
func isNested(r json.RawMessage) bool {
	var tj tensorJSON
	return json.Unmarshal(r, &tj) == nil && !cases.IsNull(tj.Nested)
}

// buildNested builds a nested input, {"nested": [TENSOR, ...]}, on device
// dev: its components copied into one buffer, which is the leaf when it
// requires grad.
func buildNested(r json.RawMessage, dev tensor.Device) (*nested.Tensor, error) {
	var tj tensorJSON
	if err := json.Unmarshal(r, &tj); err != nil {
		return nil, badf("TENSOR: %v", err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(tj.Nested, &items); err != nil {
		return nil, badf("nested: %v", err)
	}
	// The components keep their layouts, as the reference's do: each
	// component's storage goes into one buffer, and the component is its
	// view there, so that ops run on strided components as the dense ops
	// run on strided tensors (Note [Vector bodies] in package optable).
	bases := make([]*tensor.Tensor, len(items))
	sizes, strides, offsets := make([][]int, len(items)), make([][]int, len(items)), make([]int, len(items))
	at := 0
	for i, it := range items {
		v, err := buildView(it, dev)
		if err != nil {
			return nil, fmt.Errorf("component %d: %w", i, err)
		}
		if v.requiresGrad {
			return nil, badf("nested components must not carry requires_grad")
		}
		if i > 0 && v.base.DType() != bases[0].DType() {
			return nil, badf("nested input: components of dtypes %v and %v", bases[0].DType(), v.base.DType())
		}
		bases[i], sizes[i], strides[i], offsets[i] = v.base, v.shape, v.strides, at+v.offset
		at += v.base.NumEl()
	}
	var n *nested.Tensor
	if err := tensor.Try(func() { n = nestedInput(bases, sizes, strides, offsets) }); err != nil {
		return nil, badf("nested input: %v", err)
	}
	if tj.RequiresGrad {
		n.SetRequiresGrad(true)
	}
	return n, nil
}

// nestedInput is the nested tensor of views of the storages bases
// (concatenated) with these sizes, strides and offsets.
func nestedInput(bases []*tensor.Tensor, sizes, strides [][]int, offsets []int) *nested.Tensor {
	if len(bases) == 0 {
		return nested.New(nil, tensor.Float32)
	}
	return nested.ViewOf(tensor.Cat(bases, 0), sizes, strides, offsets)
}

// checkNested compares a nested value with an expected RESULT, component
// by component.
func checkNested(c *cases.Case, got *nested.Tensor, want json.RawMessage, env map[string]*tensor.Tensor, where string) []string {
	var w tensorJSON
	if err := json.Unmarshal(want, &w); err != nil {
		panic(badf("RESULT %s: %v", where, err))
	}
	if cases.IsNull(w.Nested) {
		return []string{where + ": want a tensor, got a nested tensor"}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(w.Nested, &items); err != nil {
		panic(badf("RESULT %s: %v", where, err))
	}
	if len(items) != got.Len() {
		return []string{fmt.Sprintf("%s: %d components, want %d", where, got.Len(), len(items))}
	}
	var reasons []string
	tensor.NoGrad(func() {
		for i, it := range items {
			reasons = append(reasons, checkResult(c, got.Component(i), it, env, fmt.Sprintf("%s[%d]", where, i))...)
		}
	})
	return reasons
}
