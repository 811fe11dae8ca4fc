package gemm

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// float is a floating-point type products compute in.
type float interface{ float32 | float64 }

// num is the type a product computes in: its microkernel's accumulators,
// alpha and beta. Integer products compute in int64 (Note [Integer
// products]).
type num interface{ float32 | float64 | int64 }

// elem is the element type of the operands: a float, the bits of a
// bfloat16 or float16 (which compute in float32; Note [Reduced
// precision]), or an integer.
type elem interface {
	float32 | float64 | uint16 | uint8 | int8 | int16 | int32 | int64
}

// packed is the element type of the packed slivers the microkernel reads:
// the type it computes in, or a pair of bfloat16 in a uint32 (the low half
// the earlier k step) for the dot-product kernels.
type packed interface {
	float32 | float64 | uint32 | int64
}

// kernelFunc is a microkernel: it multiplies the packed sliver a (k steps of
// mr elements) by the packed sliver b (k steps of nr elements) and sets the
// mr×nr tile at c (row stride ldc, unit column stride) to alpha·AB + beta·C;
// beta == 0 stores alpha·AB without reading C. k ≥ 1. A step is one k of
// the product, or two for the dot-product kernels.
type kernelFunc[P packed, T num] func(k int, a, b []P, c []T, ldc int, alpha, beta T)

// sliverFunc packs one sliver: n ≤ w lines (rows of A or columns of B) of
// k elements each, line i's element p at src[i*ls+p*ps], into dst (w is
// the impl's mr or nr), with zeros past line n and, for pairs, past k;
// see packA and packB.
type sliverFunc[S elem, P packed] func(dst []P, src []S, n, k, ls, ps int)

// impl is one kind of product's microkernel, packing and blocking; see
// Note [Blocking]. S is the operands' element type, P the packed one and T
// the type the kernel computes in.
type impl[S elem, P packed, T num] struct {
	kernel           kernelFunc[P, T]
	sliverA, sliverB sliverFunc[S, P]
	pairs            bool // a k step of the kernel is two k of the product
	// toT and fromT convert rows of C to and from T when S is not T
	// (Note [Reduced precision]); fromT rounds to nearest even.
	toT   func(dst []T, src []S)
	fromT func(dst []S, src []T)
	// fromTRows, when not nil, is fromT over a tile's rows in one call
	// (Note [Storing tiles]).
	fromTRows      func(dst []S, src []T, rows, rowLen, dstStride, srcStride int)
	mr, nr         int // microkernel tile (fixed by the kernel)
	kc, mc, nc     int // cache blocks: mc a multiple of mr, nc of nr, kc even
	parallelWork   int // m·n·k from which a product uses more than one goroutine
	workPerThread  int // m·n·k each goroutine should get at least
	batchSmallWork int // per-product m·n·k below which a batch is split across goroutines
	partsPerThread int // parts a parallel product is cut into, per goroutine

	gemv *gemvKit[T] // nil: no matrix-vector kernels (Note [Matrix-vector products])

	mu   sync.Mutex            // guards free
	free []*workspace[S, P, T] // see Note [Workspaces]
	vecs vecPool[S, T]         // gemv's workspaces
}

// steps returns how many kernel steps cover k elements of the product.
func (im *impl[S, P, T]) steps(k int) int {
	if im.pairs {
		return (k + 1) / 2
	}
	return k
}

// Note [Workspaces]
//
// Packing needs a buffer for the block of A (mc·kc elements) and one for
// the panel of B (kc·nc: 3 MiB of float32 or 6 MiB of float64 at the
// blocks of Note [Blocking]), and the edge path a tile of mr·nr (Note
// [Edges]). A workspace holds the three. Whoever runs a product, or one
// part of a split product (Note [Threads]), takes a workspace for itself
// with getWorkspace and returns it with putWorkspace when its run is over,
// so no two goroutines ever pack into the same buffer and none waits for
// another's packing.
//
// Workspaces outlive the call: each impl keeps the returned ones in free, a
// stack under mu, so that products do not allocate (and zero) their
// buffers, up to megabytes, every time, and the workspace returned last,
// whose buffers are likeliest still in cache, is the first taken again. It
// is a plain list rather than a sync.Pool because a Pool may drop its
// contents at any garbage collection, and the next product would pay for
// fresh buffers. Once the workspaces exist a product allocates no buffers;
// what a parallel product still allocates per call is the bookkeeping of
// the split (the parts, the closure they run in, runParts's counters).
//
// getWorkspace sizes the buffers by the product, not by the blocks: the
// block of A needs min(mc, m rounded up to mr)·min(kc, k) elements and the
// panel of B min(kc, k)·min(nc, n rounded up to nr), so small products
// never allocate whole blocks. A buffer too short for a product is
// replaced by one of its size and none ever shrinks, so a workspace keeps
// the largest size a product it served needed. A new workspace is made only
// when the list is empty, so the list holds no more workspaces than were
// in use at once (one per goroutine running a product or part, across all
// callers), and at most maxFree: one returned to a full list is left to the
// garbage collector. The kept ones are never released: at most maxFree
// workspaces of kc·nc + mc·kc + mr·nr elements per type, about 50 MiB of
// float32 and 98 MiB of float64.

// workspace holds one goroutine's pack buffers, its edge tile and, for a
// product of 16-bit floats longer than kc, its float32 accumulator of C
// (Note [Reduced precision]).
type workspace[S elem, P packed, T num] struct {
	a, b     []P
	tmp, acc []T
	cs       []S // a row of C, for conversions (maxNR)
}

// maxFree bounds the workspaces kept for reuse.
const maxFree = 16

// getWorkspace returns a workspace whose buffers fit the blocks of p.
func (im *impl[S, P, T]) getWorkspace(p *problem[S, T]) *workspace[S, P, T] {
	var w *workspace[S, P, T]
	im.mu.Lock()
	if n := len(im.free); n > 0 {
		w = im.free[n-1]
		im.free = im.free[:n-1]
	}
	im.mu.Unlock()
	if w == nil {
		w = &workspace[S, P, T]{tmp: aligned[T](im.mr * im.nr), cs: make([]S, maxNR)}
	}
	kp := im.steps(min(im.kc, p.k))
	if n := min(im.mc, roundUp(p.m, im.mr)) * kp; len(w.a) < n {
		w.a = aligned[P](n)
	}
	if n := kp * min(im.nc, roundUp(p.n, im.nr)); len(w.b) < n {
		w.b = aligned[P](n)
	}
	if im.toT != nil && p.k > im.kc {
		if n := roundUp(p.m, im.mr) * im.accStride(p); len(w.acc) < n {
			w.acc = aligned[T](n)
		}
	}
	return w
}

// accStride is the row stride of a workspace's accumulator for p: a panel
// of nc columns, whole tiles.
func (im *impl[S, P, T]) accStride(p *problem[S, T]) int {
	return roundUp(min(im.nc, p.n), im.nr)
}

// putWorkspace keeps w for reuse.
func (im *impl[S, P, T]) putWorkspace(w *workspace[S, P, T]) {
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
func aligned[E packed](n int) []E {
	var z E
	size := int(unsafe.Sizeof(z))
	s := make([]E, n+64/size)
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))%64) / size
	if off != 0 {
		off = 64/size - off
	}
	return s[off : off+n : off+n]
}

// problem is one product C = alpha·A·B + beta·C with element strides.
type problem[S elem, T num] struct {
	m, n, k     int
	alpha, beta T
	a, b, c     []S
	rsA, csA    int
	rsB, csB    int
	rsC, csC    int
}

// check panics unless every element the product touches lies inside its
// slice and the strides are valid. name is the exported function.
func (p *problem[S, T]) check(name string) {
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

// Note [Transposed C]
//
// The microkernels store rows of a tile of C with unit column stride (Note
// [Edges]); any other C goes through the edge path on every tile, an extra
// copy per tile. A C with unit row stride instead (column-major, as the
// transpose of a contiguous tensor) is therefore computed as its transpose:
// C = A·B is Cᵀ = Bᵀ·Aᵀ, and Cᵀ has unit column stride. normalize swaps m
// and n, swaps A and B, and gives each operand the other's strides
// exchanged (row stride for column stride). This costs nothing: the
// operands are read through their strides anyway, and both unit-stride
// layouts of A and of B have whole-sliver packing routines (row-major A
// and column-major B are transposed into slivers, column-major A and
// row-major B copied; packA, packB), so each layout of the swapped
// operands packs as fast as before. After normalize only a C with neither
// stride 1 goes through the edge path on every tile. Each element is still
// the sum over p of A(i, p)·B(p, j) in order of p, so the transposition
// changes no sum, only which elements fall in edge tiles.
//
// A dimension of size 1 addresses no element through its stride, and
// tensors give such dimensions arbitrary strides (PyTorch does), so
// normalize first sets that stride of C to 1: it must not decide the
// choice. An m×1 C is never transposed, and a 1×n C whose column stride is
// not 1 becomes the n×1 Cᵀ.

// normalize drops the strides of dimensions of size 1 and turns a C with
// unit row stride into its transpose; see Note [Transposed C].
func (p *problem[S, T]) normalize() {
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

// cT returns C as a slice of T when the operands are of the type the
// product computes in.
func (p *problem[S, T]) cT() ([]T, bool) {
	c, ok := any(p.c).([]T)
	return c, ok
}

// scaleC sets C = beta·C (C = 0 when beta is 0, whatever C held), rounding
// each element once when C is of a 16-bit type.
func scaleC[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T]) {
	if c, ok := p.cT(); ok {
		for i := 0; i < p.m; i++ {
			row := c[i*p.rsC:]
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
		return
	}
	// A rare case (k or alpha 0): these buffers are allocated each time.
	t, buf := make([]T, maxNR), make([]S, maxNR)
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.n; j += maxNR {
			w := min(maxNR, p.n-j)
			c := p.c[i*p.rsC+j*p.csC:]
			if p.beta == 0 {
				for q := 0; q < w; q++ {
					c[q*p.csC] = 0
				}
				continue
			}
			im.loadC(t, 0, c, 0, p.csC, 1, w, buf)
			for q := range t[:w] {
				t[q] *= p.beta
			}
			im.storeC(c, 0, p.csC, t, 0, 1, w, buf)
		}
	}
}

// Note [Blocking]
//
// A product is computed as in BLIS (Van Zee and van de Geijn, "BLIS: A
// Framework for Rapidly Instantiating BLAS Functionality", after Goto and
// van de Geijn's GotoBLAS): five loops around a microkernel, each cutting
// one dimension so that the operand it keeps reusing stays in one level of
// the cache.
//
//	for jc := 0; jc < n; jc += nc          run
//	  for pc := 0; pc < k; pc += kc        run: pack the kc×nc panel of B
//	    for ic := 0; ic < m; ic += mc      run: pack the mc×kc block of A
//	      for jr := 0; jr < nc; jr += nr   macro
//	        for ir := 0; ir < mc; ir += mr macro: kernel on an mr×nr tile of C
//
// The microkernel (kernelGo, and the assembly from goten's asm/gemm.go
// and asm/gemm512.go) keeps an mr×nr tile of C in registers (twelve YMM
// accumulators in the AVX2 assembly, 24 ZMM in the AVX-512) and adds to it
// kc outer products of an A sliver column (mr elements) and a B sliver row
// (nr elements), then stores the tile once. In macro the B sliver is the
// same for every trip of the ir loop and stays in L1 while the A slivers
// stream past it; the mc×kc block of A is read again for every B sliver
// and is sized for L2; the kc×nc panel of B is read again for every block
// of A and is sized for L3.
// Packing (pack.go) copies each block into the order the kernel reads,
// whatever A's and B's strides: sliver after sliver, each k step's mr or
// nr elements next to each other, in buffers that start on a cache line
// (aligned), with zeros past the edges of the matrix (Note [Edges]). Each
// block of A is packed once per panel of B (once in all when n ≤ nc) and
// each panel of B once: k·(m·⌈n/nc⌉ + n) elements copied, small against
// the 2·m·n·k flops.
//
// The blocks (api.go and gemm_amd64.go), with what they occupy on the
// project's machine (AMD EPYC Zen 5, 2 cores, 48 KiB of L1d and 1 MiB of
// L2 per core, 32 MiB of L3 shared, as lscpu reports):
//
//	                mr×nr  kc   B sliver  A sliver  mc   A block  nc    B panel
//	f32 AVX-512     12×32  256  32 KiB    12 KiB    288  288 KiB  3072  3 MiB
//	f64 AVX-512     12×16  256  32 KiB    24 KiB    144  288 KiB  3072  6 MiB
//	bf16 AVX512-BF16 12×32 512  32 KiB    12 KiB    288  288 KiB  3072  3 MiB
//	f32 AVX2         6×16  256  16 KiB    6 KiB     144  144 KiB  3072  3 MiB
//	f64 AVX2         6×8   256  16 KiB    12 KiB    72   144 KiB  3072  6 MiB
//
// (the bfloat16 dot-product kernel's steps are pairs of k, so its kc of
// 512 packs as many bytes as float32's 256). The B sliver takes up to two
// thirds of L1, which leaves room for the A sliver and the C tile passing
// through; the A block about a quarter of L2; the B panel fits in L3 even
// once per core (each goroutine packs its own; Note [Threads]). kc also
// sets how many k steps one load and store of the C tile is spread over.
// mc is a multiple of mr and nc of nr, so only the last block of each
// dimension has partial tiles. BenchmarkTune (tune_test.go) times other
// values of kc, mc and nc for float32. The AVX-512 tiles were chosen among
// 12×32, 14×32, 6×64 and 8×48 (and their float64 halves), which all ran
// the kernel alone at the machine's peak (about 275 GFLOP/s of float32 per
// core) and the 1024³ product within noise of each other: 12×32 leaves 4
// ZMM registers spare, its edges waste little on sizes that are multiples
// of 3·2^j (768, 3072) or of 2^j, and 32 columns keep a k step of B at two
// cache lines.
//
// A k longer than kc is summed kc at a time: the first block stores
// alpha·AB + beta·C and the next ones add their alpha·AB with beta = 1. C
// is read and written once per block of k, and alpha multiplies each
// block's partial sum, so the rounding of a long product depends on kc.

// run computes the product on the calling goroutine with ws's buffers: the
// five loops of Note [Blocking]. k ≥ 1, alpha ≠ 0.
func run[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], ws *workspace[S, P, T]) {
	for jc := 0; jc < p.n; jc += im.nc {
		nc := min(im.nc, p.n-jc)
		for pc := 0; pc < p.k; pc += im.kc {
			kc := min(im.kc, p.k-pc)
			packB(im, ws.b, p.b[pc*p.rsB+jc*p.csB:], kc, nc, p.rsB, p.csB)
			for ic := 0; ic < p.m; ic += im.mc {
				mc := min(im.mc, p.m-ic)
				packA(im, ws.a, p.a[ic*p.rsA+pc*p.csA:], mc, kc, p.rsA, p.csA)
				if c, ok := p.cT(); ok {
					beta := p.beta
					if pc > 0 {
						beta = 1
					}
					macro(im, p, c, ws, ic, jc, mc, nc, im.steps(kc), beta)
				} else {
					macroReduced(im, p, ws, ic, jc, mc, nc, im.steps(kc), pc == 0, pc+kc == p.k)
				}
			}
		}
	}
}

// Note [Edges]
//
// The microkernels handle only whole mr×nr tiles stored with unit column
// stride: the assembly reads and writes each row of the tile as whole
// vectors, and has no masked variant. Two kinds of tile cannot take that
// path: a partial tile at the bottom or right edge of C (m or n not a
// multiple of mr or nr), and every tile of a C whose column stride is not
// 1 even after Note [Transposed C]. Partial tiles lie only in the last row
// and the last column of tiles of the whole product, since mc and nc are
// multiples of mr and nr and split cuts on tile boundaries (Note
// [Threads]).
//
// For a partial tile, packA and packB fill the missing rows of the last A
// sliver and columns of the last B sliver with zeros (packStrided), so the
// kernel reads whole slivers of the workspace and never past the end of A
// or B. On the way out, macro runs the kernel into the workspace's tile
// ws.tmp (mr×nr, row stride nr; Note [Workspaces]) with alpha = 1 and
// beta = 0, which stores the sums without reading the tile, then copies the
// mrr×nrr elements that exist into C through its strides, applying alpha
// and beta there (beta == 0 still ignores C's old values). The padded rows
// and columns of the tile are computed and dropped: row i of a tile depends
// only on row i of the A sliver and column j only on column j of the B
// sliver, so the padding never reaches C.
//
// One kernel per type covers every shape this way, for the price of a copy
// of the edge tiles and the lanes wasted on padding, which matter only for
// small or thin products. A C with no unit stride pays the copy on every
// tile. The copy computes alpha·v + beta·c in Go, which need not round as
// the assembly kernel does (it adds beta·C to alpha·AB with one fused
// multiply-add), so for beta other than 0 or 1 an element of an edge tile
// can differ in its last bit from what a whole tile would store; which
// tiles are edges depends only on m, n and the strides, never on how the
// product was split.

// macro runs the microkernel over the packed block of A (mc rows) and
// panel of B (nc columns), kp kernel steps long, updating C's block at
// (ic, jc); c is p.c, of the type the kernel computes in.
func macro[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], c []T, ws *workspace[S, P, T], ic, jc, mc, nc, kp int, beta T) {
	mr, nr := im.mr, im.nr
	kernel := im.kernel
	rsC, csC := p.rsC, p.csC
	for jr := 0; jr < nc; jr += nr {
		nrr := min(nr, nc-jr)
		bp := ws.b[jr*kp : (jr+nr)*kp]
		for ir := 0; ir < mc; ir += mr {
			mrr := min(mr, mc-ir)
			ap := ws.a[ir*kp : (ir+mr)*kp]
			c := c[(ic+ir)*rsC+(jc+jr)*csC:]
			if mrr == mr && nrr == nr && csC == 1 {
				kernel(kp, ap, bp, c, rsC, p.alpha, beta)
				continue
			}
			// A partial tile, or C without unit column stride: Note [Edges].
			t := ws.tmp
			kernel(kp, ap, bp, t, nr, 1, 0)
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

// Note [Reduced precision]
//
// bfloat16 and float16 products compute in float32 and round each element
// of C once, at the end, to nearest even, as PyTorch's CPU products do
// (its BLAS-less gemm accumulates in float32, oneDNN's bf16 gemm in
// float32 registers). Their operands are converted to float32 as they are
// packed (or, for the bfloat16 dot-product kernel, packed as bfloat16
// pairs that the kernel multiplies into float32 sums), so nothing of the
// size of A or B is converted ahead, and the float32 microkernel does the
// arithmetic.
//
// C must not be rounded between blocks of k (Note [Blocking]): summing kc
// at a time into a bfloat16 C would round after every block. So the
// kernel never writes C. When k fits in one block (k ≤ kc), each tile is
// computed into the workspace's tile tmp, with C converted into it first
// when beta ≠ 0 (the kernel then adds beta·C in float32), and the tile is
// converted into C once. A longer k sums into the workspace's float32
// accumulator acc, which holds the part's rows of C for one panel of nc
// columns: the first block of k stores alpha·AB (+ beta·C, converted in
// as above), the next ones add their alpha·AB, and the last converts the
// tile into C. The accumulator, m·nc floats, is the only buffer the size
// of C a product ever allocates; it is kept with the workspace (Note
// [Workspaces]).
//
// The rounding is then the same as a float32 product's: one fused
// multiply-add per k in the assembly (the bfloat16 dot-product kernel adds
// two products per step, and flushes subnormal inputs and sums to zero, as
// VDPBF16PS does; oneDNN's kernels run the same instruction), then one
// rounding of the float32 result to 16 bits.

// macroReduced is macro for a C of a 16-bit type (S not T): Note [Reduced
// precision]. first and last say whether the block of k is the product's
// first and last.
func macroReduced[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], ws *workspace[S, P, T], ic, jc, mc, nc, kp int, first, last bool) {
	mr, nr := im.mr, im.nr
	kernel := im.kernel
	rsC, csC := p.rsC, p.csC
	ldAcc := 0
	if !first || !last {
		ldAcc = im.accStride(p)
	}
	for jr := 0; jr < nc; jr += nr {
		nrr := min(nr, nc-jr)
		bp := ws.b[jr*kp : (jr+nr)*kp]
		for ir := 0; ir < mc; ir += mr {
			mrr := min(mr, mc-ir)
			ap := ws.a[ir*kp : (ir+mr)*kp]
			c := p.c[(ic+ir)*rsC+(jc+jr)*csC:]
			t, ldt := ws.tmp, nr
			if ldAcc != 0 {
				t, ldt = ws.acc[(ic+ir)*ldAcc+jr:], ldAcc
			}
			beta := T(1)
			if first {
				beta = p.beta
				if beta != 0 {
					im.loadC(t, ldt, c, rsC, csC, mrr, nrr, ws.cs)
				}
			}
			kernel(kp, ap, bp, t, ldt, p.alpha, beta)
			if last {
				im.storeC(c, rsC, csC, t, ldt, mrr, nrr, ws.cs)
			}
		}
	}
}

// loadC converts the mrr×nrr tile of C at c (strides rsC, csC) into t (row
// stride ldt), gathering strided rows through buf (nrr ≤ len(buf)).
func (im *impl[S, P, T]) loadC(t []T, ldt int, c []S, rsC, csC, mrr, nrr int, buf []S) {
	for i := 0; i < mrr; i++ {
		ci := c[i*rsC:]
		if csC == 1 {
			im.toT(t[i*ldt:i*ldt+nrr], ci[:nrr])
			continue
		}
		for j := range nrr {
			buf[j] = ci[j*csC]
		}
		im.toT(t[i*ldt:i*ldt+nrr], buf[:nrr])
	}
}

// storeC converts the mrr×nrr tile t (row stride ldt) into C at c
// (strides rsC, csC), rounding to nearest even, scattering strided rows
// through buf (nrr ≤ len(buf)).
func (im *impl[S, P, T]) storeC(c []S, rsC, csC int, t []T, ldt, mrr, nrr int, buf []S) {
	if csC == 1 && im.fromTRows != nil {
		im.fromTRows(c, t, mrr, nrr, rsC, ldt)
		return
	}
	for i := 0; i < mrr; i++ {
		ci := c[i*rsC:]
		if csC == 1 {
			im.fromT(ci[:nrr], t[i*ldt:i*ldt+nrr])
			continue
		}
		im.fromT(buf[:nrr], t[i*ldt:i*ldt+nrr])
		for j, v := range buf[:nrr] {
			ci[j*csC] = v
		}
	}
}

// Note [Storing tiles]
//
// A product of bfloat16 or float16 matrices computes each mr×nr tile of C
// in float32 and rounds it into C. Rounded row by row, with a call of
// vec.F32ToBF16 per row of nr (32) elements, the calls cost as much as the
// rounding: storeC was 7.5% of a 512³ bfloat16 product's time on this Zen
// 5 (a profile of tensor.Matmul on two threads, the kernel 70%), its
// wrapper and the conversion's own function about half each. The rows
// conversions (vec.F32ToBF16Rows, vec.F32ToF16Rows) round the tile in one
// call, with the same bits: the bfloat16 product ran 3% faster (medians
// of 400 products interleaved with the row-by-row store in one process,
// either order: 294-299 against 303-311 µs on two threads, 564-572
// against 580-589 on one), the float16 one 2% on one thread. Where
// AVX-512 is, bfloat16 is rounded 16 lanes at a time (f32ToBF16AVX512,
// its tail under a mask): row by row 534 µs on one thread, the tile at
// once 518.

// Note [Threads]
//
// A product runs on the calling goroutine alone when GOMAXPROCS is 1 or
// m·n·k is below parallelWork (64³), and otherwise on min(GOMAXPROCS,
// m·n·k / workPerThread) goroutines (workPerThread is 32³): the caller and
// helpers enlisted from the worker pool (Note [Spinning workers]).
//
// gemm cuts a parallel product with split into a grid of blocks of C, at
// most partsPerThread (1) per goroutine, on whole mr×nr tiles. Among the
// grids with the most blocks it takes the one that packs least: a block
// packs its rows of A and its columns of B, k·(m/tm + n/tn) elements. Each
// block is a whole product of its own, run from start to end by one
// goroutine with its own workspace (Note [Workspaces]); runParts hands the
// blocks out from an atomic counter. This is not BLIS's arrangement, in
// which the threads share one packed panel of B and divide its ic or jr
// loop between them, with a barrier around each packing. Here no goroutine
// ever waits on another inside a product, and a helper that starts late,
// or never, only leaves more blocks to the caller. The price is packing A
// again for every column of blocks and B for every row of blocks,
// k·(m·tn + n·tm) elements instead of k·(m + n), small against the
// 2·m·n·k flops of a product large enough to split.
//
// A batch (batched) is spread across goroutines by whole products: the
// batch is cut into min(batch, 8·GOMAXPROCS) contiguous ranges, claimed one
// at a time by the caller and GOMAXPROCS-1 helpers, each product run on a
// single goroutine, with no split and no packing twice. The batch runs
// product after product instead, each product splitting itself as above,
// when it holds one product, when GOMAXPROCS is 1, when the whole batch is
// below parallelWork, or when its products are large (batchSmallWork,
// 256³, or more) and too few to share out evenly (fewer than 4·GOMAXPROCS
// and not a multiple of it): whole products would then leave goroutines
// idle in the last round, as three large products on two cores would.
//
// Every element of C is computed by one goroutine, and by the same
// operations however the product or the batch was cut: blocks begin on
// tile boundaries, so the tiles, the edge tiles (Note [Edges]) and the kc
// blocks of k of each element are those of the product run whole. Results
// are the same bit for bit for any GOMAXPROCS.

// threads returns how many goroutines a product of m·n·k = work should use.
func (im *impl[S, P, T]) threads(work int) int {
	t := runtime.GOMAXPROCS(0)
	if t <= 1 || work < im.parallelWork {
		return 1
	}
	return max(1, min(t, work/im.workPerThread))
}

// gemm computes one checked product with up to threads goroutines.
func gemm[S elem, P packed, T num](im *impl[S, P, T], p problem[S, T], threads int) {
	if p.m == 0 || p.n == 0 {
		return
	}
	p.normalize()
	if p.k == 0 || p.alpha == 0 {
		scaleC(im, &p)
		return
	}
	if (p.m == 1 || p.n == 1) && gemv(im, p, threads) {
		return
	}
	if threads <= 1 {
		ws := im.getWorkspace(&p)
		run(im, &p, ws)
		im.putWorkspace(ws)
		return
	}
	parts := split(im, &p, threads*im.partsPerThread)
	runParts(len(parts), threads-1, func(i int) {
		ws := im.getWorkspace(&parts[i])
		run(im, &parts[i], ws)
		im.putWorkspace(ws)
	})
}

// split cuts p into at most parts products over a grid of blocks of C,
// whole tiles each, choosing among the grids with the most blocks the one
// whose blocks pack the least (each block packs its rows of A and its
// columns of B: k·(m/tm + n/tn) elements); see Note [Threads].
func split[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], parts int) []problem[S, T] {
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
	out := make([]problem[S, T], 0, tm*tn)
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
func batched[S elem, P packed, T num](im *impl[S, P, T], name string, batch int, p problem[S, T], bsA, bsB, bsC int) {
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

	at := func(i int) problem[S, T] {
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
