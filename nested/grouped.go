package nested

import (
	"math"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/tensor"
)

// Note [Grouped products of components]
//
// A product of two nested tensors is one product per component, of
// different sizes: run as one grouped product (tensor.GroupedMatmul, Note
// [Grouped products] in package kernel) straight over the two values
// buffers, each component's matrix (or each matrix of a [B, n, k]
// component) described by its offset and its nested strides, so
// transposed views ([Transpose]) and unpacked tensors need no copy; the
// results are packed one after the other into one new buffer. Attention
// is three such passes over packed buffers: the scores Q·Kᵀ/√d of every
// component and head (heads are more groups) into one buffer, a ragged
// softmax over its rows (tensor.RaggedSoftmax: one pass, the causal mask
// applied inside), and P·V. Autograd follows each pass (their backwards
// are grouped products and a ragged softmax backward).
//
// The per-component loop remains where the grouped form does not apply,
// and produces exactly the dense ops' errors: components of other ranks
// (1-D, 4-D, broadcast batch dims), sizes that do not match (the loop
// raises the dense error), a values buffer that is not contiguous, and,
// for attention, dtypes other than float32 and float64 (the ragged
// softmax has no kernel for them) or components whose last size differs
// (one scale per call) or 0.
//
// The products of 3-D components small enough for PyTorch's bmm to run
// its plain loop (tensor.BmmPlain) are groups marked Plain, which the
// backend runs in that loop, as the dense op runs them: their last bits,
// and so ties between scores, are the reference's.

// groupable reports whether t's values buffer can be read by grouped
// products: a contiguous 1-D tensor.
func (t *Tensor) groupable() bool { return t.values.Dim() == 1 && t.values.IsContiguous() }

// size returns size d of component i.
func (t *Tensor) size(i, d int) int { return int(t.sizes[i*t.ndim+d]) }

// strideOf returns stride d of component i.
func (t *Tensor) strideOf(i, d int) int { return int(t.strides[i*t.ndim+d]) }

// block returns the matrix of component i over its last two dims, at
// batch index h of a 3-D component (h 0 for a matrix), transposed when
// trans.
func (t *Tensor) block(i, h int, trans bool) tensor.MatBlock {
	r, c := t.ndim-2, t.ndim-1
	off := int(t.offsets[i])
	if t.ndim == 3 {
		off += h * t.strideOf(i, 0)
	}
	b := tensor.MatBlock{Offset: off, RowStride: t.strideOf(i, r), ColStride: t.strideOf(i, c)}
	if trans {
		b.RowStride, b.ColStride = b.ColStride, b.RowStride
	}
	return b
}

// batchOf returns component i's batch size: its first size for a 3-D
// component, 1 for a matrix.
func (t *Tensor) batchOf(i int) int {
	if t.ndim == 3 {
		return t.size(i, 0)
	}
	return 1
}

// products returns the groups of the products a_i·b_i (b_i transposed
// when transB) with their results packed one after the other, the
// results' sizes and their number of elements; ok is false when the pair
// has no grouped form (Note [Grouped products of components]).
func products(a, b *Tensor, transB bool) (gs []tensor.MatGroup, sizes [][]int, n int, ok bool) {
	// bool has no product kernel, which the dense ops refuse per
	// component, only where one has elements to sum
	if a.ndim != b.ndim || a.ndim < 2 || a.ndim > 3 || a.DType() != b.DType() || a.DType() == tensor.Bool ||
		!a.groupable() || !b.groupable() {
		return nil, nil, 0, false
	}
	nd := a.ndim
	for i := range a.Len() {
		m, k := a.size(i, nd-2), a.size(i, nd-1)
		kb, nn := b.size(i, nd-2), b.size(i, nd-1)
		if transB {
			kb, nn = nn, kb
		}
		h := a.batchOf(i)
		if k != kb || h != b.batchOf(i) {
			return nil, nil, 0, false
		}
		for j := range h {
			gs = append(gs, tensor.MatGroup{M: m, N: nn, K: k, A: a.block(i, j, false), B: b.block(i, j, transB),
				C: tensor.MatBlock{Offset: n, RowStride: nn, ColStride: 1}, Plain: nd == 3 && tensor.BmmPlain(m, nn, k)})
			n += m * nn
		}
		sh := []int{m, nn}
		if nd == 3 {
			sh = []int{h, m, nn}
		}
		sizes = append(sizes, sh)
	}
	return gs, sizes, n, true
}

// grouped returns the products a_i·b_i as one grouped product, or nil when
// the pair has no grouped form.
func grouped(a, b *Tensor) *Tensor {
	if a.Len() != b.Len() || a.Len() == 0 {
		return nil
	}
	gs, sizes, n, ok := products(a, b, false)
	if !ok {
		return nil
	}
	return packedSizes(tensor.GroupedMatmul(a.values, b.values, gs, n, 1), sizes)
}

// Matmul returns [tensor.Matmul] of each pair of components (a_i @ b_i):
// one grouped product over the two buffers when the components are
// matrices, or 3-D with equal batch sizes, whose sizes match (Note
// [Grouped products of components]); else per component, with the dense
// op's errors.
func Matmul(a, b *Tensor) *Tensor {
	if r := grouped(a, b); r != nil {
		return r
	}
	return pairs("matmul", a, b, tensor.Matmul)
}

// Bmm returns [tensor.Mm] of each pair of 2-D components, as one grouped
// product (per component, with the dense op's errors, when sizes do not
// match). Components of another rank are a value error.
func Bmm(a, b *Tensor) *Tensor {
	if a.ndim != 2 || b.ndim != 2 {
		panic(errs.New(errs.Value, "bmm", "batch1 must be a 3D tensor"))
	}
	if r := grouped(a, b); r != nil {
		return r
	}
	return pairs("bmm", a, b, tensor.Mm)
}

// Attention returns scaled dot-product attention over nested q, k, v:
// for each component softmax(q·kᵀ/√d + mask)·v with d = q's last size,
// components [L, d] or [H, L, d]; with causal the mask is −∞ where the key
// index j exceeds the query index i (top-left aligned). It runs as two
// grouped products and one ragged softmax over packed buffers (Note
// [Grouped products of components]), per component where that form does
// not apply.
func Attention(q, k, v *Tensor, causal bool) *Tensor {
	const name = "scaled_dot_product_attention"
	if q.Len() != k.Len() || q.Len() != v.Len() {
		panic(errs.New(errs.Shape, name, "nested tensors with different numbers of components: %d, %d and %d", q.Len(), k.Len(), v.Len()))
	}
	if r := groupedAttention(q, k, v, causal); r != nil {
		return r
	}
	return attentionLoop(q, k, v, causal)
}

// groupedAttention is [Attention] as grouped products; nil when it has no
// such form.
func groupedAttention(q, k, v *Tensor, causal bool) *Tensor {
	dt := q.DType()
	if q.Len() == 0 || dt != tensor.Float32 && dt != tensor.Float64 || v.DType() != dt ||
		v.ndim != q.ndim || !v.groupable() {
		return nil
	}
	d, ok := q.trailing(1)
	if !ok || d[0] == 0 {
		return nil // no one scale; or a scale of 1/0, whose NaNs the dense ops make
	}
	scores, _, n, ok := products(q, k, true)
	if !ok {
		return nil
	}
	nd := q.ndim
	blocks := make([]tensor.SoftmaxBlock, len(scores))
	var pv []tensor.MatGroup
	var sizes [][]int
	out, g := 0, 0
	for i := range q.Len() {
		lq, lk, dv := q.size(i, nd-2), k.size(i, nd-2), v.size(i, nd-1)
		h := q.batchOf(i)
		if v.size(i, nd-2) != lk || v.batchOf(i) != h {
			return nil
		}
		for j := range h {
			s := scores[g]
			blocks[g] = tensor.SoftmaxBlock{Offset: s.C.Offset, Rows: lq, Cols: lk}
			pv = append(pv, tensor.MatGroup{M: lq, N: dv, K: lk, A: s.C, B: v.block(i, j, false),
				C: tensor.MatBlock{Offset: out, RowStride: dv, ColStride: 1}, Plain: nd == 3 && tensor.BmmPlain(lq, dv, lk)})
			out += lq * dv
			g++
		}
		sh := []int{lq, dv}
		if nd == 3 {
			sh = []int{h, lq, dv}
		}
		sizes = append(sizes, sh)
	}
	// the scores are divided by √d after the product, as the reference
	// formula does: scaling inside it (alpha) rounds otherwise, and keeps
	// finite a product past the dtype's range
	s := tensor.GroupedMatmul(q.values, k.values, scores, n, 1).Div(tensor.Scalar(math.Sqrt(float64(d[0]))))
	p := tensor.RaggedSoftmax(s, blocks, causal)
	return packedSizes(tensor.GroupedMatmul(p, v.values, pv, out, 1), sizes)
}

// attentionLoop is [Attention] component by component, with the dense
// ops' errors.
func attentionLoop(q, k, v *Tensor, causal bool) *Tensor {
	qs, ks, vs := q.Unbind(), k.Unbind(), v.Unbind()
	rs := make([]*tensor.Tensor, q.Len())
	for i := range rs {
		qc, kc, vc := qs[i], ks[i], vs[i]
		d := qc.Size(-1)
		s := tensor.Div(tensor.Matmul(qc, kc.Transpose(-2, -1)), tensor.Scalar(math.Sqrt(float64(d))))
		if causal {
			lq, lk := s.Size(-2), s.Size(-1)
			m := make([]bool, lq*lk)
			for r := range lq {
				for c := r + 1; c < lk; c++ {
					m[r*lk+c] = true
				}
			}
			s = tensor.Where(on(s, tensor.FromSlice(m, lq, lk)), tensor.Scalar(math.Inf(-1)), s)
		}
		rs[i] = tensor.Matmul(s.Softmax(tensor.Over(-1)), vc)
	}
	return packOn(q.values, rs, q.DType())
}
