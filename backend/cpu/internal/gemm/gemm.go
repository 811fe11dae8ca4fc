package gemm

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// float is the element type of a product.
type float interface{ float32 | float64 }

// kernelFunc is a microkernel: it multiplies the packed sliver a (k steps of
// mr elements) by the packed sliver b (k steps of nr elements) and sets the
// mr×nr tile at c (row stride ldc, unit column stride) to alpha·AB + beta·C;
// beta == 0 stores alpha·AB without reading C. k ≥ 1.
type kernelFunc[T float] func(k int, a, b, c []T, ldc int, alpha, beta T)

// impl is one element type's microkernel and blocking; see Note [Blocking].
type impl[T float] struct {
	kernel         kernelFunc[T]
	copyA, transA  packFunc[T] // whole slivers of mr rows; see packA
	copyB, transB  packFunc[T] // whole slivers of nr columns; see packB
	mr, nr         int         // microkernel tile (fixed by the kernel)
	kc, mc, nc     int         // cache blocks: mc a multiple of mr, nc of nr
	parallelWork   int         // m·n·k from which a product uses more than one goroutine
	workPerThread  int         // m·n·k each goroutine should get at least
	batchSmallWork int         // per-product m·n·k below which a batch is split across goroutines
	partsPerThread int         // parts a parallel product is cut into, per goroutine

	mu   sync.Mutex      // guards free
	free []*workspace[T] // see Note [Workspaces]
}

// workspace holds one goroutine's pack buffers and edge tile.
type workspace[T float] struct {
	a, b, tmp []T
}

// maxFree bounds the workspaces kept for reuse.
const maxFree = 16

// getWorkspace returns a workspace whose buffers fit the blocks of p.
func (im *impl[T]) getWorkspace(p *problem[T]) *workspace[T] {
	var w *workspace[T]
	im.mu.Lock()
	if n := len(im.free); n > 0 {
		w = im.free[n-1]
		im.free = im.free[:n-1]
	}
	im.mu.Unlock()
	if w == nil {
		w = &workspace[T]{tmp: aligned[T](im.mr * im.nr)}
	}
	kc := min(im.kc, p.k)
	if n := min(im.mc, roundUp(p.m, im.mr)) * kc; len(w.a) < n {
		w.a = aligned[T](n)
	}
	if n := kc * min(im.nc, roundUp(p.n, im.nr)); len(w.b) < n {
		w.b = aligned[T](n)
	}
	return w
}

// putWorkspace keeps w for reuse.
func (im *impl[T]) putWorkspace(w *workspace[T]) {
	im.mu.Lock()
	if len(im.free) < maxFree {
		im.free = append(im.free, w)
	}
	im.mu.Unlock()
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// aligned returns a zeroed slice of n elements starting on a 64-byte
// boundary (a cache line, and the packed slivers' vector loads never split
// one).
func aligned[T float](n int) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	s := make([]T, n+64/size)
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))%64) / size
	if off != 0 {
		off = 64/size - off
	}
	return s[off : off+n : off+n]
}

// problem is one product C = alpha·A·B + beta·C with element strides.
type problem[T float] struct {
	m, n, k     int
	alpha, beta T
	a, b, c     []T
	rsA, csA    int
	rsB, csB    int
	rsC, csC    int
}

// check panics unless every element the product touches lies inside its
// slice and the strides are valid. name is the exported function.
func (p *problem[T]) check(name string) {
	if p.m < 0 || p.n < 0 || p.k < 0 {
		panic(fmt.Sprintf("gemm.%s: negative dimension m=%d n=%d k=%d", name, p.m, p.n, p.k))
	}
	if p.rsA < 0 || p.csA < 0 || p.rsB < 0 || p.csB < 0 || p.rsC < 0 || p.csC < 0 {
		panic(fmt.Sprintf("gemm.%s: negative stride", name))
	}
	if p.m > 0 && p.n > 0 && ((p.m > 1 && p.rsC == 0) || (p.n > 1 && p.csC == 0)) {
		panic(fmt.Sprintf("gemm.%s: C has a zero stride in a dimension of size > 1", name))
	}
	extent(name, "A", len(p.a), p.m, p.k, p.rsA, p.csA)
	extent(name, "B", len(p.b), p.k, p.n, p.rsB, p.csB)
	extent(name, "C", len(p.c), p.m, p.n, p.rsC, p.csC)
}

// extent panics unless the r×c matrix with strides rs, cs fits in n elements.
func extent(name, what string, n, r, c, rs, cs int) {
	if r == 0 || c == 0 {
		return
	}
	if last := (r-1)*rs + (c-1)*cs; last >= n {
		panic(fmt.Sprintf("gemm.%s: %s is %d×%d with strides (%d, %d) and needs %d elements, has %d",
			name, what, r, c, rs, cs, last+1, n))
	}
}

// normalize drops the strides of dimensions of size 1 and turns a C with
// unit row stride into its transpose; see Note [Transposed C].
func (p *problem[T]) normalize() {
	if p.n == 1 {
		p.csC = 1
	}
	if p.m == 1 {
		p.rsC = 1
	}
	if p.csC != 1 && p.rsC == 1 {
		p.m, p.n = p.n, p.m
		p.a, p.b = p.b, p.a
		p.rsA, p.csA, p.rsB, p.csB = p.csB, p.rsB, p.csA, p.rsA
		p.rsC, p.csC = p.csC, p.rsC
	}
}

// scaleC sets C = beta·C (C = 0 when beta is 0, whatever C held).
func (p *problem[T]) scaleC() {
	for i := 0; i < p.m; i++ {
		row := p.c[i*p.rsC:]
		if p.csC == 1 {
			row = row[:p.n]
			if p.beta == 0 {
				clear(row)
				continue
			}
			for j := range row {
				row[j] *= p.beta
			}
			continue
		}
		for j := 0; j < p.n; j++ {
			if p.beta == 0 {
				row[j*p.csC] = 0
			} else {
				row[j*p.csC] *= p.beta
			}
		}
	}
}

// run computes the product on the calling goroutine with ws's buffers: the
// five loops of Note [Blocking]. k ≥ 1, alpha ≠ 0.
func (p *problem[T]) run(im *impl[T], ws *workspace[T]) {
	for jc := 0; jc < p.n; jc += im.nc {
		nc := min(im.nc, p.n-jc)
		for pc := 0; pc < p.k; pc += im.kc {
			kc := min(im.kc, p.k-pc)
			packB(im, ws.b, p.b[pc*p.rsB+jc*p.csB:], kc, nc, p.rsB, p.csB)
			beta := p.beta
			if pc > 0 {
				beta = 1
			}
			for ic := 0; ic < p.m; ic += im.mc {
				mc := min(im.mc, p.m-ic)
				packA(im, ws.a, p.a[ic*p.rsA+pc*p.csA:], mc, kc, p.rsA, p.csA)
				p.macro(im, ws, ic, jc, mc, nc, kc, beta)
			}
		}
	}
}

// macro runs the microkernel over the packed mc×kc block of A and kc×nc
// panel of B, updating C's block at (ic, jc).
func (p *problem[T]) macro(im *impl[T], ws *workspace[T], ic, jc, mc, nc, kc int, beta T) {
	mr, nr := im.mr, im.nr
	kernel := im.kernel
	rsC, csC := p.rsC, p.csC
	for jr := 0; jr < nc; jr += nr {
		nrr := min(nr, nc-jr)
		bp := ws.b[jr*kc : (jr+nr)*kc]
		for ir := 0; ir < mc; ir += mr {
			mrr := min(mr, mc-ir)
			ap := ws.a[ir*kc : (ir+mr)*kc]
			c := p.c[(ic+ir)*rsC+(jc+jr)*csC:]
			if mrr == mr && nrr == nr && csC == 1 {
				kernel(kc, ap, bp, c, rsC, p.alpha, beta)
				continue
			}
			// Note [Edges]
			t := ws.tmp
			kernel(kc, ap, bp, t, nr, 1, 0)
			for i := 0; i < mrr; i++ {
				ti := t[i*nr : i*nr+nrr]
				ci := c[i*rsC:]
				if beta == 0 {
					for j, v := range ti {
						ci[j*csC] = p.alpha * v
					}
				} else {
					for j, v := range ti {
						ci[j*csC] = p.alpha*v + beta*ci[j*csC]
					}
				}
			}
		}
	}
}

// threads returns how many goroutines a product of m·n·k = work should use.
func (im *impl[T]) threads(work int) int {
	t := runtime.GOMAXPROCS(0)
	if t <= 1 || work < im.parallelWork {
		return 1
	}
	return max(1, min(t, work/im.workPerThread))
}

// gemm computes one checked product with up to threads goroutines.
func gemm[T float](im *impl[T], p problem[T], threads int) {
	if p.m == 0 || p.n == 0 {
		return
	}
	p.normalize()
	if p.k == 0 || p.alpha == 0 {
		p.scaleC()
		return
	}
	if threads <= 1 {
		ws := im.getWorkspace(&p)
		p.run(im, ws)
		im.putWorkspace(ws)
		return
	}
	parts := p.split(im, threads*im.partsPerThread)
	runParts(len(parts), threads-1, func(i int) {
		ws := im.getWorkspace(&parts[i])
		parts[i].run(im, ws)
		im.putWorkspace(ws)
	})
}

// split cuts p into at most parts products over a grid of blocks of C,
// whole tiles each, choosing among the grids with the most blocks the one
// whose blocks pack the least (each block packs its rows of A and its
// columns of B: k·(m/tm + n/tn) elements); see Note [Threads].
func (p *problem[T]) split(im *impl[T], parts int) []problem[T] {
	tilesM, tilesN := (p.m+im.mr-1)/im.mr, (p.n+im.nr-1)/im.nr
	tm, tn := 1, 1
	bestCost := 0.0
	for i := 1; i <= min(parts, tilesM); i++ {
		j := min(parts/i, tilesN)
		cost := float64(p.m)/float64(i) + float64(p.n)/float64(j)
		if i*j > tm*tn || i*j == tm*tn && cost < bestCost {
			tm, tn, bestCost = i, j, cost
		}
	}
	out := make([]problem[T], 0, tm*tn)
	for i := 0; i < tm; i++ {
		mlo, mhi := i*tilesM/tm*im.mr, min(p.m, (i+1)*tilesM/tm*im.mr)
		for j := 0; j < tn; j++ {
			nlo, nhi := j*tilesN/tn*im.nr, min(p.n, (j+1)*tilesN/tn*im.nr)
			q := *p
			q.m, q.n = mhi-mlo, nhi-nlo
			q.a = p.a[mlo*p.rsA:]
			q.b = p.b[nlo*p.csB:]
			q.c = p.c[mlo*p.rsC+nlo*p.csC:]
			out = append(out, q)
		}
	}
	return out
}

// batched runs batch products whose operands start bsA, bsB, bsC elements
// apart; see Note [Threads] for how goroutines are spent.
func batched[T float](im *impl[T], name string, batch int, p problem[T], bsA, bsB, bsC int) {
	if batch < 0 || bsA < 0 || bsB < 0 || bsC < 0 {
		panic(fmt.Sprintf("gemm.%s: negative batch count or stride", name))
	}
	if batch == 0 {
		return
	}
	if p.m == 0 || p.n == 0 {
		p.check(name)
		return
	}
	if batch > 1 && bsC == 0 {
		panic(fmt.Sprintf("gemm.%s: C has batch stride 0", name))
	}
	if p.k == 0 {
		bsA, bsB = 0, 0 // A and B have no elements: nothing of them is read
	}
	// The first product's extent is checked here, the others' through the
	// last one's (the batch strides are ≥ 0).
	p.check(name)
	if (batch-1)*bsA > len(p.a) || (batch-1)*bsB > len(p.b) || (batch-1)*bsC > len(p.c) {
		panic(fmt.Sprintf("gemm.%s: %d batches with strides (%d, %d, %d) do not fit in A, B, C of %d, %d, %d elements",
			name, batch, bsA, bsB, bsC, len(p.a), len(p.b), len(p.c)))
	}
	last := p
	last.a, last.b, last.c = p.a[(batch-1)*bsA:], p.b[(batch-1)*bsB:], p.c[(batch-1)*bsC:]
	last.check(name)

	at := func(i int) problem[T] {
		q := p
		q.a, q.b, q.c = p.a[i*bsA:], p.b[i*bsB:], p.c[i*bsC:]
		return q
	}
	work := p.m * p.n * p.k
	procs := runtime.GOMAXPROCS(0)
	if batch == 1 || procs == 1 || batch*work < im.parallelWork ||
		(work >= im.batchSmallWork && batch < 4*procs && batch%procs != 0) {
		// Serial over the batch, each product splitting itself if large.
		threads := im.threads(work)
		for i := 0; i < batch; i++ {
			gemm(im, at(i), threads)
		}
		return
	}
	// Split the batch into contiguous ranges claimed by the goroutines.
	chunks := min(batch, 8*procs)
	runParts(chunks, procs-1, func(g int) {
		for i := g * batch / chunks; i < (g+1)*batch/chunks; i++ {
			gemm(im, at(i), 1)
		}
	})
}
