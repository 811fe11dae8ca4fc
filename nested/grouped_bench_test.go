package nested

import (
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// BenchmarkAttention times attention over the bench's nested_attention
// workload shape (32 components of 16 to 256 rows, 4 heads of 64) as
// grouped products and a ragged softmax against the per-component loop
// they replaced, in one process.
func BenchmarkAttention(b *testing.B) {
	g := tensor.NewGenerator(1)
	cs := make([]*tensor.Tensor, 32)
	for i := range cs {
		l := 16 + ((7919*i+13)%1009)%241
		cs[i] = g.Randn(tensor.Float32, 4, l, 64)
	}
	q := New(cs, tensor.Float32)
	for _, c := range []struct {
		name   string
		f      func(q, k, v *Tensor, causal bool) *Tensor
		causal bool
	}{
		{"grouped", groupedAttention, false}, {"loop", attentionLoop, false},
		{"grouped-causal", groupedAttention, true}, {"loop-causal", attentionLoop, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f(q, q, q, c.causal)
			}
		})
	}
}
