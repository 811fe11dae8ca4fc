package kerneltest

import (
	"fmt"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// The matrix product cases: every dtype but bool (which has no product)
// × shapes with edges (m and n not multiples of a backend's 6×16 tiles),
// k = 0 and an empty C, × operand layouts (row-major, transposed, padded
// rows, batch stride 0 for a broadcast A or B, C transposed or padded with
// guard bands, all at an offset) × alpha and beta, beta 0 over a C of
// NaN garbage that a backend must ignore. In normal mode a product large
// enough for a blocked GEMM's several blocks and parallel split, and a
// batch split across workers. Elements are small integers, so every
// product is exact in every dtype and the order of a backend's sums does
// not matter.

// matmulShape is the size of a batched product.
type matmulShape struct{ batch, m, n, k int }

func (sh matmulShape) String() string {
	return fmt.Sprintf("b%dm%dn%dk%d", sh.batch, sh.m, sh.n, sh.k)
}

var matmulShapes = []matmulShape{{1, 1, 1, 1}, {1, 7, 17, 33}, {2, 13, 6, 5}, {3, 6, 16, 8}, {2, 5, 7, 0}, {1, 0, 4, 3}}

// bigMatmulShapes run in normal mode, on fewer layouts.
var bigMatmulShapes = []matmulShape{{1, 150, 20, 260}, {4, 40, 40, 48}}

// matrixLayout lays out one operand: a batch of r×c matrices.
type matrixLayout int

const (
	rowMajor  matrixLayout = iota
	colMajor               // transposed
	padded                 // rows 3 elements apart more than needed
	broadcast              // padded, batch stride 0
)

// matrixSpec returns the spec of a batch of r×c matrices laid out by l, at
// element offset 2.
func matrixSpec(batch, r, c int, l matrixLayout) spec {
	rs, cs := c, 1
	switch l {
	case colMajor:
		rs, cs = 1, r
	case padded, broadcast:
		rs = c + 3
	}
	bs := r * c
	if l == padded || l == broadcast {
		bs = r * (c + 3)
	}
	if l == broadcast {
		bs = 0
	}
	return strided([]int{batch, r, c}, []int{bs, rs, cs}, 2, 2)
}

// matmulLayouts are the layouts of A, B and C.
var matmulLayouts = []struct {
	name    string
	a, b, c matrixLayout
}{
	{"nn", rowMajor, rowMajor, rowMajor},
	{"tn", colMajor, rowMajor, rowMajor},
	{"nt", rowMajor, colMajor, padded},
	{"tt", colMajor, colMajor, colMajor},
	{"bcast-a", broadcast, rowMajor, rowMajor},
	{"bcast-b", colMajor, broadcast, padded},
}

// alphaBetas are the scalars of the products: beta 0 ignores C's garbage.
var alphaBetas = []struct{ alpha, beta float64 }{{1, 0}, {2, 1}, {-1, 3}}

// matmuls adds the matrix product cases.
func (s *suite) matmuls() {
	for _, d := range dtype.All {
		if d == dtype.Bool {
			continue
		}
		add := func(sh matmulShape, layoutIdx, abIdx int) {
			l, ab := matmulLayouts[layoutIdx], alphaBetas[abIdx]
			path := []string{"matmul", d.String(), sh.String(), fmt.Sprintf("%s-alpha%v-beta%v", l.name, ab.alpha, ab.beta)}
			s.add(func() error { return s.runMatmul(d, sh, l.a, l.b, l.c, ab.alpha, ab.beta, path) }, path...)
		}
		for _, sh := range matmulShapes {
			for li := range matmulLayouts {
				for ai := range alphaBetas {
					add(sh, li, ai)
				}
			}
		}
		if !s.short {
			for _, sh := range bigMatmulShapes {
				add(sh, 1, 0)
				add(sh, 5, 2)
			}
		}
	}
}

// runMatmul runs C = alpha·A·B + beta·C in dtype d.
func (s *suite) runMatmul(d dtype.DType, sh matmulShape, la, lb, lc matrixLayout, alpha, beta float64, path []string) error {
	r := rng(path...)
	gen := func() value { return smallInt(r, d) }
	c := newTensor(d, matrixSpec(sh.batch, sh.m, sh.n, lc)).garbage()
	if beta != 0 {
		c.fillView(gen)
	}
	ts := []*tensor{
		newTensor(d, matrixSpec(sh.batch, sh.m, sh.k, la)).fill(gen),
		newTensor(d, matrixSpec(sh.batch, sh.k, sh.n, lb)).fill(gen),
		c,
	}
	matrix := func(v *raw.View) kernel.Matrix {
		return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, BatchStride: v.Strides[0], RowStride: v.Strides[1], ColStride: v.Strides[2]}
	}
	run := func(be kernel.Backend, vs []*raw.View) error {
		return be.MatMul(&kernel.Gemm{DType: d, Batch: sh.batch, M: sh.m, N: sh.n, K: sh.k,
			A: matrix(vs[0]), B: matrix(vs[1]), C: matrix(vs[2]), Alpha: alpha, Beta: beta})
	}
	return s.same(ts, []int{2}, foldTolerance(d), run, nil)
}
