package kerneltest

import (
	"fmt"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// The grouped product cases (Note [Grouped products] in package kernel):
// every dtype but bool × lists of groups of odd sizes, with empty groups
// (m, n or k of 0) among them × operand layouts (row-major, transposed,
// padded rows; C transposed or padded), all at offsets in three shared
// buffers with gaps between the groups, whose garbage must stay untouched
// × alpha and beta (beta 0 over NaN garbage). In normal mode a list whose
// work is large enough to be cut into blocks and run in parallel, groups
// of very different sizes. Elements are small integers, so every product
// is exact and the order of a backend's sums does not matter. The ragged
// softmax cases (Note [Ragged softmax]): float32 and float64 × matrices of
// different widths (one row, one column, empty) × causal or not × forward,
// backward and in place.

// groupLists are lists of group sizes {m, n, k}.
var groupLists = [][][3]int{
	{{1, 1, 1}},
	{{7, 17, 33}, {1, 5, 3}, {13, 6, 5}},
	{{0, 4, 3}, {5, 7, 0}, {3, 0, 2}, {6, 16, 8}, {2, 2, 2}},
	{{16, 1, 9}, {1, 9, 16}, {25, 31, 4}},
}

// bigGroupLists run in normal mode, on fewer layouts.
var bigGroupLists = [][][3]int{
	{{150, 40, 64}, {3, 200, 70}, {90, 90, 90}, {17, 5, 300}, {0, 8, 8}, {64, 64, 1}},
}

// groupLayouts lay out A, B and C: each 'n' row-major, 't' transposed,
// 'p' row-major with padded rows.
var groupLayouts = []string{"nnn", "tnn", "ntp", "ttt", "pnn"}

// groupeds adds the grouped product cases.
func (s *suite) groupeds() {
	for _, d := range dtype.All {
		if d == dtype.Bool {
			continue
		}
		add := func(li int, gl [][3]int, l string, ab int) {
			path := []string{"grouped", d.String(), fmt.Sprintf("list%d", li), fmt.Sprintf("%s-alpha%v-beta%v", l, alphaBetas[ab].alpha, alphaBetas[ab].beta)}
			s.add(func() error { return s.runGrouped(d, gl, l, alphaBetas[ab].alpha, alphaBetas[ab].beta, path) }, path...)
		}
		for li, gl := range groupLists {
			for _, l := range groupLayouts {
				for ab := range alphaBetas {
					add(li, gl, l, ab)
				}
			}
		}
		if !s.short {
			for li, gl := range bigGroupLists {
				add(len(groupLists)+li, gl, "tnn", 0)
				add(len(groupLists)+li, gl, "ntp", 2)
			}
		}
	}
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float64} {
		for _, causal := range []bool{false, true} {
			for _, mode := range []string{"forward", "backward", "inplace"} {
				path := []string{"ragged-softmax", d.String(), fmt.Sprintf("causal%v", causal), mode}
				s.add(func() error { return s.runRaggedSoftmax(d, causal, mode, path) }, path...)
			}
		}
	}
}

// placeBlock lays out an r×c operand in layout l ('n', 't' or 'p') at element
// *at of its buffer, moving *at past it and a gap of 3.
func placeBlock(r, c int, l byte, at *int) kernel.Block {
	b := kernel.Block{Offset: *at, RowStride: c, ColStride: 1}
	size := r * c
	switch l {
	case 't':
		b.RowStride, b.ColStride = 1, r
	case 'p':
		b.RowStride = c + 2
		size = r * (c + 2)
	}
	*at += size + 3
	return b
}

// runGrouped runs the groups gl of dtype d in layout l.
func (s *suite) runGrouped(d dtype.DType, gl [][3]int, l string, alpha, beta float64, path []string) error {
	if _, ok := s.b.(kernel.GroupedMatMuler); !ok {
		return skipped("the backend has no grouped products")
	}
	if _, ok := s.ref.(kernel.GroupedMatMuler); !ok {
		return kitErr("the reference backend has no grouped products")
	}
	groups := make([]kernel.Group, len(gl))
	na, nb, nc := 2, 1, 4
	for i, g := range gl {
		m, n, k := g[0], g[1], g[2]
		groups[i] = kernel.Group{M: m, N: n, K: k,
			A: placeBlock(m, k, l[0], &na), B: placeBlock(k, n, l[1], &nb), C: placeBlock(m, n, l[2], &nc)}
	}
	r := rng(path...)
	gen := func() value { return smallInt(r, d) }
	c := newTensor(d, dense(nc)).garbage()
	if beta != 0 {
		// the groups' C elements get values, the gaps keep their garbage
		for _, g := range groups {
			for i := range g.M {
				for j := range g.N {
					gen().store(c.host, d, g.C.Offset+i*g.C.RowStride+j*g.C.ColStride)
				}
			}
		}
	}
	ts := []*tensor{newTensor(d, dense(na)).fill(gen), newTensor(d, dense(nb)).fill(gen), c}
	run := func(be kernel.Backend, vs []*raw.View) error {
		return be.(kernel.GroupedMatMuler).GroupedMatMul(&kernel.Grouped{DType: d,
			A: vs[0].Storage, B: vs[1].Storage, C: vs[2].Storage, Groups: groups, Alpha: alpha, Beta: beta})
	}
	return s.same(ts, []int{2}, foldTolerance(d), run, nil)
}

// raggedBlocks are the {rows, cols} of a ragged softmax case's matrices.
var raggedBlocks = [][2]int{{3, 5}, {1, 1}, {0, 4}, {6, 2}, {2, 40}, {4, 0}, {9, 9}, {1, 17}}

// runRaggedSoftmax runs one ragged softmax case: mode forward, backward
// (Grad a second input) or inplace (the forward with Out = In).
func (s *suite) runRaggedSoftmax(d dtype.DType, causal bool, mode string, path []string) error {
	if _, ok := s.b.(kernel.RaggedSoftmaxer); !ok {
		return skipped("the backend has no ragged softmax")
	}
	blocks := make([]kernel.SoftmaxBlock, len(raggedBlocks))
	at := 1
	for i, b := range raggedBlocks {
		blocks[i] = kernel.SoftmaxBlock{Offset: at, Rows: b[0], Cols: b[1]}
		at += b[0]*b[1] + 2 // a gap the kernel must not touch
	}
	r := rng(path...)
	gen := func() value {
		v := anyValue(r, d, false)
		if v.f != v.f || v.f > 30 || v.f < -30 {
			v.f = float64(r.IntN(61) - 30) // no NaN, no overflow of e^x
		}
		return v
	}
	probs := func() value { return value{f: r.Float64()} }
	in := newTensor(d, dense(at)).fill(gen)
	if mode == "backward" {
		in = newTensor(d, dense(at)).fill(probs) // the forward's output Y
	}
	ts := []*tensor{in, newTensor(d, dense(at)).fill(gen), newTensor(d, dense(at)).garbage()}
	outs := []int{2}
	if mode == "inplace" {
		outs = []int{0}
	}
	run := func(be kernel.Backend, vs []*raw.View) error {
		k := &kernel.RaggedSoftmax{DType: d, In: vs[0].Storage, Grad: vs[1].Storage, Out: vs[2].Storage,
			Blocks: blocks, Causal: causal, Backward: mode == "backward"}
		if mode == "inplace" {
			k.Out = k.In
		}
		return be.(kernel.RaggedSoftmaxer).RaggedSoftmax(k)
	}
	return s.same(ts, outs, foldTolerance(d), run, nil)
}
