package tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
)

// MatBlock places an operand of one product of a grouped product in its
// buffer: element (i, j) at Offset + i·RowStride + j·ColStride.
type MatBlock = kernel.Block

// MatGroup is one product of a grouped product: an M×K A block times a
// K×N B block into an M×N C block.
type MatGroup = kernel.Group

// SoftmaxBlock is one row-major matrix of a ragged softmax: Rows rows of
// Cols elements from element Offset.
type SoftmaxBlock = kernel.SoftmaxBlock

// BmmPlain reports whether a batched product of an m×k and a k×n matrix
// (Bmm, and Matmul of 3-D operands) runs PyTorch's plain loop: a grouped
// product that stands for such products sets its groups' Plain to get
// their bits.
func BmmPlain(m, n, k int) bool { return op.BmmPlain(m, n, k) }

// GroupedMatmul returns a new 1-D tensor of n elements in which each
// group's C block holds alpha·A·B, the group's A block read from a and B
// block from b (contiguous 1-D tensors of one dtype, such as the values
// buffers of nested tensors) — every product in one call, run in parallel
// over the groups and parts of them (Note [Grouped products] in package
// kernel); elements outside the C blocks are 0. Blocks lie inside their
// buffers and the C blocks do not overlap, else a value error.
//
// Under autograd the gradients are grouped products too, dA = dC·Bᵀ into
// the A blocks and dB = Aᵀ·dC into the B blocks (so twice differentiable):
// a's blocks and b's blocks must then not overlap among themselves nor
// have zero strides, else a value error.
func GroupedMatmul(a, b *Tensor, groups []MatGroup, n int, alpha float64) *Tensor {
	const name = "matmul"
	r := newResult(op.GroupedMatmul(a.in(name), b.in(name), groups, n, alpha))
	if !recording(a, b) {
		return r
	}
	gs := append([]MatGroup(nil), groups...)
	needA, needB := anyRequiresGrad([]*Tensor{a}), anyRequiresGrad([]*Tensor{b})
	if needA && !separate(gs, a.NumEl(), func(g MatGroup) (MatBlock, int, int) { return g.A, g.M, g.K }) ||
		needB && !separate(gs, b.NumEl(), func(g MatGroup) (MatBlock, int, int) { return g.B, g.K, g.N }) {
		panic(errs.New(errs.Value, name, "a grouped product whose operand blocks overlap or broadcast is not differentiable"))
	}
	record("GroupedMmBackward", []*Tensor{a, b}, []*Tensor{r}, func(nd *node, grads []*Tensor) []*Tensor {
		g := grads[0].Contiguous()
		out := make([]*Tensor, 2)
		if nd.needs(0) {
			da := make([]MatGroup, len(gs))
			for i, q := range gs {
				da[i] = MatGroup{M: q.M, N: q.K, K: q.N, A: q.C, B: transposed(q.B), C: q.A, Plain: q.Plain}
			}
			out[0] = GroupedMatmul(g, b, da, a.NumEl(), alpha)
		}
		if nd.needs(1) {
			db := make([]MatGroup, len(gs))
			for i, q := range gs {
				db[i] = MatGroup{M: q.K, N: q.N, K: q.M, A: transposed(q.A), B: q.C, C: q.B, Plain: q.Plain}
			}
			out[1] = GroupedMatmul(a, g, db, b.NumEl(), alpha)
		}
		return out
	}, a, b)
	return r
}

// transposed returns the block of the transpose of b's matrix.
func transposed(b MatBlock) MatBlock {
	return MatBlock{Offset: b.Offset, RowStride: b.ColStride, ColStride: b.RowStride}
}

// separate reports whether the blocks of one operand (block, rows, cols of
// each group), lying in n elements, are disjoint and without zero strides
// in dims longer than one: a gradient can then be written into them.
func separate(gs []MatGroup, n int, of func(MatGroup) (MatBlock, int, int)) bool {
	bs, rs, cs := make([]MatBlock, len(gs)), make([]int, len(gs)), make([]int, len(gs))
	for i, g := range gs {
		b, r, c := of(g)
		if r > 1 && c > 0 && b.RowStride == 0 || c > 1 && r > 0 && b.ColStride == 0 {
			return false
		}
		bs[i], rs[i], cs[i] = b, r, c
	}
	return op.Disjoint(bs, rs, cs, n)
}

// RaggedSoftmax returns a new 1-D tensor of x's length whose blocks hold
// the softmax of each row of x's blocks (row-major matrices of different
// widths in x, a contiguous float32 or float64 1-D tensor), in one pass
// parallel over the rows (Note [Ragged softmax] in package kernel); with
// causal, row i of each block keeps only its columns j ≤ i (the others −∞
// before, so 0 after). Elements outside the blocks are 0. Blocks that do
// not fit x or overlap are a value error. Under autograd its gradient is
// Y ⊙ (dY − Σ_row dY ⊙ Y), itself differentiable.
func RaggedSoftmax(x *Tensor, blocks []SoftmaxBlock, causal bool) *Tensor {
	const name = "softmax"
	y := newResult(op.RaggedSoftmax(x.in(name), nil, blocks, causal))
	if !recording(x) {
		return y
	}
	bs := append([]SoftmaxBlock(nil), blocks...)
	record("RaggedSoftmaxBackward", []*Tensor{x}, []*Tensor{y}, func(_ *node, grads []*Tensor) []*Tensor {
		return []*Tensor{raggedSoftmaxGrad(y, grads[0].Contiguous(), bs, causal)}
	}, y)
	return y
}

// raggedSoftmaxGrad is the gradient of RaggedSoftmax's input from its
// output y and the output's gradient g: the backward kernel in one pass,
// or, when the backward itself records (a graph of the backward), the
// same formula from differentiable ops: the row sums of g ⊙ y as segment
// sums over the buffer's elements (a segment per row, and one per gap
// between blocks), gathered back to each element.
func raggedSoftmaxGrad(y, g *Tensor, bs []SoftmaxBlock, causal bool) *Tensor {
	if !recording(y, g) {
		return newResult(op.RaggedSoftmax(y.in("softmax"), g.in("softmax"), bs, causal))
	}
	n := y.NumEl()
	offs := []int64{0}
	ids := make([]int64, n)
	cut := func(at int) {
		if int64(at) > offs[len(offs)-1] {
			offs = append(offs, int64(at))
		}
	}
	for _, b := range sortedBlocks(bs) {
		cut(b.Offset)
		for i := range b.Rows {
			cut(b.Offset + (i+1)*b.Cols)
		}
	}
	cut(n)
	for s := 0; s+1 < len(offs); s++ {
		for e := offs[s]; e < offs[s+1]; e++ {
			ids[e] = int64(s)
		}
	}
	gy := g.Mul(y)
	sums := SegmentReduce(gy.View(n, 1), offs, ReduceSum).View(len(offs) - 1)
	idx := FromSlice(ids, n).ToDevice(y.Device())
	return y.Mul(g.Sub(sums.IndexSelect(0, idx)))
}

// sortedBlocks returns bs in order of offset.
func sortedBlocks(bs []SoftmaxBlock) []SoftmaxBlock {
	s := slices.Clone(bs)
	slices.SortFunc(s, func(a, b SoftmaxBlock) int { return a.Offset - b.Offset })
	return s
}
