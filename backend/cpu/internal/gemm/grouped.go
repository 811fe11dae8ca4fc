package gemm

import (
	"fmt"
	"runtime"
	"slices"
)

// Group is one product of a grouped call: an M×K A, K×N B and M×N C whose
// element (i, j) is at Off + i·Rs + j·Cs of the call's a, b or c slice.
type Group struct {
	M, N, K        int
	OffA, RsA, CsA int
	OffB, RsB, CsB int
	OffC, RsC, CsC int
}

// Note [Grouped work items]
//
// A grouped call computes independent products of different sizes (the
// components of a nested tensor: one of 16 rows beside one of 512) in one
// parallel pass: a list of work items, each a whole product or a block of
// one, claimed by the caller and GOMAXPROCS−1 pool workers from one
// counter (runParts), every item run on one goroutine by the same driver
// as a single product (gemm with one thread: packing, microkernel, edges,
// matrix-vector kernels for thin ones).
//
// The items are cut so that no one of them holds more than about a
// quarter of a goroutine's share of the whole call's work (m·n·k summed,
// target = total / (4·GOMAXPROCS), at least workPerThread): a group above
// it is cut by split into a grid of blocks of C on whole tiles, as a large
// single product is (Note [Threads]); smaller groups stay whole and pack
// once. The items are then handed out largest first (longest-processing-
// time order), so the small ones fill the gaps at the end instead of one
// large product starting last and running alone. A call whose total work
// is below parallelWork, or with GOMAXPROCS 1, runs its products one after
// the other on the caller.
//
// Every element of C is computed by one goroutine; a group's blocks begin
// on tile boundaries, so its tiles, edge tiles and kc blocks are those of
// the product run whole, and the result is the same bit for bit as that
// of the group's product run alone (and for any GOMAXPROCS), except that
// a product cut into blocks with m or n of 1 may take the packed path
// instead of the matrix-vector one (Note [Matrix-vector products]): the
// cut depends on the whole call's work, so such a group's last bits can
// depend on the other groups.

// F32Grouped computes, for every group, C = alpha·A·B + beta·C in float32
// with the groups' operands in a, b and c (see [Group] and F32 for the
// conventions: strides ≥ 0, C without zero strides, beta 0 ignoring C).
// The C blocks of different groups must not overlap each other nor any A
// or B. It panics as F32 does for any group. See Note [Grouped work items].
func F32Grouped(gs []Group, alpha float32, a, b []float32, beta float32, c []float32) {
	grouped(f32, "F32Grouped", gs, alpha, beta, a, b, c)
}

// F64Grouped is F32Grouped for float64.
func F64Grouped(gs []Group, alpha float64, a, b []float64, beta float64, c []float64) {
	grouped(f64, "F64Grouped", gs, alpha, beta, a, b, c)
}

// BF16Grouped is F32Grouped for bfloat16 bits, computed in float32 and
// rounded once (Note [Reduced precision]).
func BF16Grouped(gs []Group, alpha float32, a, b []uint16, beta float32, c []uint16) {
	if bf16dot != nil {
		grouped(bf16dot, "BF16Grouped", gs, alpha, beta, a, b, c)
		return
	}
	grouped(bf16, "BF16Grouped", gs, alpha, beta, a, b, c)
}

// F16Grouped is BF16Grouped for float16.
func F16Grouped(gs []Group, alpha float32, a, b []uint16, beta float32, c []uint16) {
	grouped(f16, "F16Grouped", gs, alpha, beta, a, b, c)
}

// IntGrouped is F32Grouped for integers, computed as IntBatched does.
func IntGrouped[T integer](gs []Group, alpha int64, a, b []T, beta int64, c []T) {
	grouped(intImpl[T](), "IntGrouped", gs, alpha, beta, a, b, c)
}

// grouped runs the groups' products; see Note [Grouped work items].
func grouped[S elem, P packed, T num](im *impl[S, P, T], name string, gs []Group, alpha, beta T, a, b, c []S) {
	items := make([]problem[S, T], 0, len(gs))
	total := 0
	for _, g := range gs {
		if g.OffA < 0 || g.OffB < 0 || g.OffC < 0 {
			panic(fmt.Sprintf("gemm.%s: negative offset", name))
		}
		p := problem[S, T]{m: g.M, n: g.N, k: g.K, alpha: alpha, beta: beta,
			a: tail(a, g.OffA, g.M*g.K), b: tail(b, g.OffB, g.K*g.N), c: tail(c, g.OffC, g.M*g.N),
			rsA: g.RsA, csA: g.CsA, rsB: g.RsB, csB: g.CsB, rsC: g.RsC, csC: g.CsC}
		p.check(name)
		if p.m == 0 || p.n == 0 {
			continue
		}
		items = append(items, p)
		total += work(&p)
	}
	procs := runtime.GOMAXPROCS(0)
	if procs == 1 || total < im.parallelWork || len(items) == 0 {
		for _, p := range items {
			gemm(im, p, 1)
		}
		return
	}
	target := max(im.workPerThread, total/(4*procs))
	cut := make([]problem[S, T], 0, len(items))
	for _, p := range items {
		w := work(&p)
		if p.k == 0 || p.alpha == 0 || w <= 2*target {
			cut = append(cut, p)
			continue
		}
		p.normalize()
		cut = append(cut, split(im, &p, (w+target-1)/target)...)
	}
	// largest first (stable, so equal items keep the groups' order)
	slices.SortStableFunc(cut, func(x, y problem[S, T]) int { return work(&y) - work(&x) })
	runParts(len(cut), procs-1, func(i int) { gemm(im, cut[i], 1) })
}

// work is the cost of p in multiply-adds, at least one per element of C
// (a product with k = 0 still writes C).
func work[S elem, T num](p *problem[S, T]) int { return p.m * p.n * max(p.k, 1) }

// tail returns s from element off, or nil when the operand has no
// elements (n = 0: it is not read, and off may lie past the end).
func tail[S elem](s []S, off, n int) []S {
	if n == 0 {
		return nil
	}
	if off > len(s) {
		panic(fmt.Sprintf("gemm: offset %d past the end of a slice of %d elements", off, len(s)))
	}
	return s[off:]
}
