package op

import (
	"slices"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// GroupedMatmul returns a new 1-D buffer of n elements of a's dtype in
// which group g's C block holds alpha·A_g·B_g (Note [Grouped products] in
// package kernel): the A and B blocks are placed in a and b (contiguous
// 1-D views, offsets counted from their first element), the C blocks in
// the result. Elements outside every C
// block are 0. Blocks must lie inside their buffers with strides ≥ 0, C
// without a zero stride in a dim longer than one, and the C blocks must
// not overlap (else a value error); a and b must have one dtype, not
// bool (else a dtype error), and lie on one device.
func GroupedMatmul(a, b *raw.View, groups []kernel.Group, n int, alpha float64) (*raw.View, error) {
	const name = "matmul"
	if a.Dim() != 1 || b.Dim() != 1 || (a.Shape[0] > 1 && a.Strides[0] != 1) || (b.Shape[0] > 1 && b.Strides[0] != 1) {
		return nil, errs.New(errs.Value, name, "a grouped product takes contiguous 1-D buffers")
	}
	if err := sameFloatDType(name, a, b); err != nil {
		return nil, err
	}
	if err := matmulDType(name, "bmm", a, 1, 1); err != nil { // goten's own op: bool always refused
		return nil, err
	}
	if da, db := a.Storage.Device(), b.Storage.Device(); da != db {
		return nil, errs.New(errs.Value, name, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", da, db)
	}
	covered := 0
	cb, cr, cc := make([]kernel.Block, len(groups)), make([]int, len(groups)), make([]int, len(groups))
	for i, g := range groups {
		if g.M < 0 || g.N < 0 || g.K < 0 {
			return nil, errs.New(errs.Value, name, "group %d has a negative size", i)
		}
		if err := fits(name, i, "A", g.A, g.M, g.K, a.Shape[0]); err != nil {
			return nil, err
		}
		if err := fits(name, i, "B", g.B, g.K, g.N, b.Shape[0]); err != nil {
			return nil, err
		}
		if err := fits(name, i, "C", g.C, g.M, g.N, n); err != nil {
			return nil, err
		}
		cb[i], cr[i], cc[i] = g.C, g.M, g.N
		if g.M*g.N > 0 {
			if (g.M > 1 && g.C.RowStride == 0) || (g.N > 1 && g.C.ColStride == 0) {
				return nil, errs.New(errs.Value, name, "group %d's C has a zero stride", i)
			}
			covered += g.M * g.N
		}
	}
	if !Disjoint(cb, cr, cc, n) {
		return nil, errs.New(errs.Value, name, "the C blocks of a grouped product overlap")
	}
	out, err := raw.NewOn(allocator(a, b), a.DType, []int{n}, nil, covered < n)
	if err != nil {
		return nil, errs.WithOp(err, name)
	}
	if covered == 0 {
		return out, nil
	}
	be, err := backendOf(name, a, b)
	if err != nil {
		return nil, err
	}
	gm, ok := be.(kernel.GroupedMatMuler)
	if !ok {
		return nil, errs.New(errs.Value, name, "the %s backend has no grouped products", be.Name())
	}
	shifted := make([]kernel.Group, len(groups))
	for i, g := range groups {
		g.A.Offset += a.Offset
		g.B.Offset += b.Offset
		g.C.Offset += out.Offset
		shifted[i] = g
	}
	return out, gm.GroupedMatMul(&kernel.Grouped{DType: a.DType, A: a.Storage, B: b.Storage, C: out.Storage,
		Groups: shifted, Alpha: alpha})
}

// last returns the offset of the last element of an r×c block.
func last(b kernel.Block, r, c int) int { return b.Offset + (r-1)*b.RowStride + (c-1)*b.ColStride }

// fits checks that group i's r×c block b of operand what lies in n elements.
func fits(name string, i int, what string, b kernel.Block, r, c, n int) error {
	if b.RowStride < 0 || b.ColStride < 0 || b.Offset < 0 {
		return errs.New(errs.Value, name, "group %d's %s has a negative offset or stride", i, what)
	}
	if r > 0 && c > 0 && last(b, r, c) >= n {
		return errs.New(errs.Value, name, "group %d's %s (%d×%d at %d, strides %d, %d) does not fit its buffer of %d elements",
			i, what, r, c, b.Offset, b.RowStride, b.ColStride, n)
	}
	return nil
}

// Disjoint reports whether the r[i]×c[i] blocks bs[i] share no element
// (blocks with no elements share none): first by their extents (the
// usual case, blocks one after the other), else, for blocks that
// interleave (the heads of a transposed component), element by element
// over a map of the n elements they lie in.
func Disjoint(bs []kernel.Block, r, c []int, n int) bool {
	type extent struct{ first, last int }
	es := make([]extent, 0, len(bs))
	for i, b := range bs {
		if r[i] > 0 && c[i] > 0 {
			es = append(es, extent{b.Offset, last(b, r[i], c[i])})
		}
	}
	slices.SortFunc(es, func(x, y extent) int { return x.first - y.first })
	apart := true
	for i := 1; i < len(es) && apart; i++ {
		apart = es[i].first > es[i-1].last
	}
	if apart {
		return true
	}
	seen := make([]bool, n)
	for k, b := range bs {
		for i := range r[k] {
			for j := range c[k] {
				e := b.Offset + i*b.RowStride + j*b.ColStride
				if e >= n || seen[e] {
					return false
				}
				seen[e] = true
			}
		}
	}
	return true
}

// RaggedSoftmax returns a new 1-D buffer of x's length whose blocks (Note
// [Ragged softmax] in package kernel) hold the softmax of x's rows (with
// the causal mask when causal), or, when grad is not nil, the gradient of
// the softmax's input from its output x and the output's gradient grad
// (a 1-D buffer of x's length and dtype). Elements outside the blocks are
// 0. x is contiguous float32 or float64 (else a dtype error); blocks must
// lie in x, without overlapping (else a value error).
func RaggedSoftmax(x, grad *raw.View, blocks []kernel.SoftmaxBlock, causal bool) (*raw.View, error) {
	const name = "softmax"
	if x.Dim() != 1 || (x.Shape[0] > 1 && x.Strides[0] != 1) {
		return nil, errs.New(errs.Value, name, "a ragged softmax takes a contiguous 1-D buffer")
	}
	if x.DType != dtype.Float32 && x.DType != dtype.Float64 {
		return nil, errs.New(errs.DType, name, "ragged softmax not implemented for '%s'", x.DType)
	}
	if grad != nil && (grad.Dim() != 1 || grad.Shape[0] != x.Shape[0] || grad.DType != x.DType || (grad.Shape[0] > 1 && grad.Strides[0] != 1)) {
		return nil, errs.New(errs.Value, name, "a ragged softmax's gradient must be a contiguous buffer of its output's length and dtype")
	}
	covered := 0
	bs, rs, cs := make([]kernel.Block, len(blocks)), make([]int, len(blocks)), make([]int, len(blocks))
	for i, b := range blocks {
		if b.Offset < 0 || b.Rows < 0 || b.Cols < 0 || b.Offset+b.Rows*b.Cols > x.Shape[0] {
			return nil, errs.New(errs.Value, name, "block %d (%d×%d at %d) does not fit a buffer of %d elements", i, b.Rows, b.Cols, b.Offset, x.Shape[0])
		}
		bs[i], rs[i], cs[i] = kernel.Block{Offset: b.Offset, RowStride: b.Cols, ColStride: 1}, b.Rows, b.Cols
		covered += b.Rows * b.Cols
	}
	if !Disjoint(bs, rs, cs, x.Shape[0]) {
		return nil, errs.New(errs.Value, name, "the blocks of a ragged softmax overlap")
	}
	vs := []*raw.View{x}
	if grad != nil {
		vs = append(vs, grad)
	}
	out, err := raw.NewOn(allocator(vs...), x.DType, []int{x.Shape[0]}, nil, covered < x.Shape[0])
	if err != nil || covered == 0 {
		return out, errs.WithOp(err, name)
	}
	be, err := backendOf(name, vs...)
	if err != nil {
		return nil, err
	}
	rsm, ok := be.(kernel.RaggedSoftmaxer)
	if !ok {
		return nil, errs.New(errs.Value, name, "the %s backend has no ragged softmax", be.Name())
	}
	k := &kernel.RaggedSoftmax{DType: x.DType, In: x.Storage, Out: out.Storage, Blocks: blocks, Causal: causal,
		InOff: x.Offset, OutOff: out.Offset}
	if grad != nil {
		if gd := grad.Storage.Device(); gd != x.Storage.Device() {
			return nil, errs.New(errs.Value, name, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", x.Storage.Device(), gd)
		}
		k.Backward, k.Grad, k.GradOff = true, grad.Storage, grad.Offset
	}
	return out, rsm.RaggedSoftmax(k)
}
