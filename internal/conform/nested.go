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
	cs := make([]*tensor.Tensor, len(items))
	for i, it := range items {
		t, err := buildTensor(it, dev)
		if err != nil {
			return nil, fmt.Errorf("component %d: %w", i, err)
		}
		cs[i] = t
	}
	dt := tensor.Float32
	if len(cs) > 0 {
		dt = cs[0].DType()
	}
	var n *nested.Tensor
	if err := tensor.Try(func() { n = nested.New(cs, dt) }); err != nil {
		return nil, badf("nested input: %v", err)
	}
	if tj.RequiresGrad {
		n.SetRequiresGrad(true)
	}
	return n, nil
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
