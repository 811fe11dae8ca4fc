package tensor

import "testing"

// TestRowOpsAllocateNotPerRow: a row op or scan over converted rows
// (bfloat16 computed in float32) stages its conversions in buffers of the
// call, not in an allocation per row: a bfloat16 softmax, log_softmax and
// cumsum over the last dim of 512 rows allocate a few dozen objects at
// most, where staging arrays of their own took two per row.
func TestRowOpsAllocateNotPerRow(t *testing.T) {
	x := Linspace(-3, 3, 512*300, BFloat16).Reshape(512, 300)
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"softmax", func() { Softmax(x, Over(1)) }},
		{"log_softmax", func() { LogSoftmax(x, Over(1)) }},
		{"cumsum", func() { x.CumSum(Over(1)) }},
	} {
		if n := testing.AllocsPerRun(5, c.fn); n > 64 {
			t.Errorf("%s of 512 bfloat16 rows: %v allocations a call", c.name, n)
		}
	}
}
