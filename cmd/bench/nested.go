package main

import (
	"math"

	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

func init() { families = append(families, nestedWorkloads) }

// lens returns the rows of the nested workloads' components (WORKLOADS.md):
// component i has lo + ((7919·i + 13) mod 1009) mod (hi − lo + 1) rows.
func lens(count, lo, hi int) []int {
	r := make([]int, count)
	for i := range r {
		r[i] = lo + ((7919*i+13)%1009)%(hi-lo+1)
	}
	return r
}

// components returns component i as rows[i] × dim, the pattern with
// b = 13 + i, divided by 16.
func components(rows []int, dim int) []*tensor.Tensor {
	cs := make([]*tensor.Tensor, len(rows))
	for i, n := range rows {
		cs[i] = pattern(tensor.Float32, 13+i, n, dim).Div(tensor.Scalar(16))
	}
	return cs
}

// nestedWorkloads builds the nested-tensor workloads: linear, softmax over
// the last dim and to_padded over 64 ragged components of 256 features,
// and attention over 32 components with 4 heads of 64.
func nestedWorkloads() []workload {
	const d = 256
	rows := lens(64, 16, 512)
	nt := nested.New(components(rows, d), tensor.Float32)
	b, l, r := len(rows), 0, 0
	for _, n := range rows {
		l, r = max(l, n), r+n
	}
	padded := nested.ToPadded(nt, tensor.Scalar(0.0), nil)
	w := pattern(tensor.Float32, 3, d, d).Div(tensor.Scalar(64))
	bias := pattern(tensor.Float32, 5, d).Div(tensor.Scalar(64))

	const heads, hd = 4, 64
	arows := lens(32, 16, 256)
	acs := components(arows, d)
	sq := 0
	for i, n := range arows {
		acs[i] = acs[i].Reshape(n, heads, hd).Transpose(0, 1) // [4, L, 64]
		sq += n * n
	}
	q := nested.New(acs, tensor.Float32) // q = k = v
	ab, al := len(arows), 0
	for _, n := range arows {
		al = max(al, n)
	}
	apad := nested.ToPadded(nested.New(components(arows, d), tensor.Float32), tensor.Scalar(0.0), nil)
	pq := apad.Reshape(ab, al, heads, hd).Transpose(1, 2) // [32, 4, max, 64]
	maskVals := make([]float32, ab*al)
	for i, n := range arows {
		for j := n; j < al; j++ {
			maskVals[i*al+j] = float32(math.Inf(-1)) // key padding
		}
	}
	mask := tensor.FromSlice(maskVals, ab, 1, 1, al)
	kt := pq.Transpose(-1, -2)

	return []workload{
		{"nested_linear", func() { nested.Linear(nt, w, bias) }, 0, 2 * r * d * d},
		{"padded_linear", func() { tensor.Linear(padded, w, bias) }, 0, 2 * b * l * d * d},
		{"nested_softmax_lastdim", func() { nested.Softmax(nt, -1) }, 8 * r * d, 0},
		{"nested_to_padded", func() { nested.ToPadded(nt, tensor.Scalar(0.0), nil) }, 4 * (r + b*l) * d, 0},
		{"nested_attention", func() { nested.Attention(q, q, q, false) }, 0, 4 * sq * d},
		{"padded_attention", func() {
			s := tensor.Add(tensor.Div(tensor.Matmul(pq, kt), tensor.Scalar(8.0)), mask)
			tensor.Matmul(s.Softmax(tensor.Over(-1)), pq)
		}, 0, 4 * ab * al * al * d},
	}
}
