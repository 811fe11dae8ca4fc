package main

import "github.com/goten-ml/goten/tensor"

func init() { families = append(families, indexing) }

// index is WORKLOADS.md's int64 index(n, k, b): element i is (7919·i +
// b) mod k.
func index(n, k, b int) *tensor.Tensor {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64((7919*i + b) % k)
	}
	return tensor.FromSlice(xs, n)
}

// indexing builds the indexing and sorting workloads.
func indexing() []workload {
	f32 := tensor.Float32
	m, a := pattern(f32, 13, s, s), pattern(f32, 13, n)
	gidx := index(s*512, s, 13).Reshape(s, 512)
	rows := index(s, s, 5)
	acc := tensor.Zeros(f32, 65536, 64) // index_add_ accumulates into it across runs
	aidx, src := index(1<<18, 65536, 13), pattern(f32, 3, 1<<18, 64)
	ms := pattern(f32, 13, 1024, s)
	e, eidx := pattern(f32, 13, 50000, 256).Div(tensor.Scalar(16)), index(65536, 50000, 13)
	zero := tensor.Scalar(0)
	return []workload{
		{"gather_dim1", func() { m.Gather(1, gidx) }, 12 * s * 512, 0},
		{"index_select_dim0", func() { m.IndexSelect(0, rows) }, 8 * s * s, 0},
		{"advanced_index_rows", func() { m.Index(tensor.Idx(rows)) }, 8 * s * s, 0},
		{"index_add_dim0", func() { acc.IndexAddInPlace(0, aidx, src) }, 12 * (1 << 18) * 64, (1 << 18) * 64},
		{"masked_select_f32", func() { tensor.MaskedSelect(a, a.Gt(zero)) }, 6 * n, 0}, // the mask is part of the work
		{"sort_dim1", func() { ms.Sort(1, false) }, 0, 0},
		{"topk_dim1", func() { tensor.TopK(m, 16, 1, true) }, 4 * s * s, 0},
		{"embedding_65536x256", func() { tensor.Embedding(eidx, e) }, 8 * 65536 * 256, 0},
	}
}
