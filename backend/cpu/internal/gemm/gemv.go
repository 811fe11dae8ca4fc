package gemm

import (
	"sync"
	"unsafe"
)

// Note [Matrix-vector products]
//
// A product with n = 1 (C a column) or m = 1 (a row, computed as its
// transpose Cᵀ = Bᵀ·Aᵀ, a column) reads each element of A once and does
// two flops per element read: it is bound by memory, and packing A into
// slivers for a microkernel whose tile is 1 column wide of its 32 would
// copy A and waste the tile. gemv instead runs it on the matrix-vector
// kernels (gemvDotGo and gemvAxpyGo, and their assembly), straight from A:
//
//   - A with unit column stride (rows contiguous, the common case: mv of a
//     row-major matrix): each element of C is the dot product of its row
//     of A with x, the column of B (gathered into a buffer first unless it
//     has unit stride), four rows at a time so that x is read once per
//     four rows; float32 A and C in the assembly, one row at a time in a
//     kernel that loops over a goroutine's rows itself (dotRows), A read
//     as one stream of memory and x from the L1 cache. On this Zen 5,
//     [4096, 4096] on one thread, three runs interleaved in one process
//     (p10): 1.68-1.79 ms with the four-row kernel, 1.57-1.67 with the
//     AVX2 row kernel, 1.34-1.44 with the AVX-512 one, as fast as a row
//     sum. An A of at least gemvFourBytes is read as four streams
//     (dotRows4: rows j, j+q, j+2q and j+3q of a goroutine's range
//     together, each row's bits dotRows'), as the row sums are (Note
//     [Four streams] in package vec): on the Zen 3 machines, whose memory
//     one stream per core reads slowly, cmd/bench's mv_4096 took 3.1-3.8
//     ms against 3.4-4.5 with one stream (the two binaries interleaved
//     four times). The AVX-512 kernels have four accumulators a row, so
//     that dotRows4 holds its four rows' in registers: with eight a row,
//     kept on the stack between turns as the AVX2 dotRows4 keeps its own,
//     four streams were slower than one. On the Zen 5 VM, [4096, 4096]
//     at kernel level, the kits alternated 20 times in one process (p10,
//     one and two goroutines): AVX-512 one stream 1.64 and 0.88 ms, four
//     streams 1.36 and 0.65, AVX2 four streams 1.45 and 0.74; cmd/bench's
//     mv_4096 went from 1.05-1.65 ms to 0.87-1.57 (the binaries
//     alternated four times, three of the new runs at 0.87-0.89). In the
//     caches the four accumulators lose nothing: each multiply-add loads
//     a vector of A and one of x, so two loads a cycle allow one a cycle,
//     which four chains sustain ([m, 1024] with m = 16, 64, 256: 365-370,
//     1480-1660, 7800-10700 ns with eight accumulators or four).
//   - A with unit row stride (columns contiguous: a transposed matrix, or a
//     row vector times a row-major matrix): C accumulates x[p]·A[:, p]
//     over p into a float buffer, four columns at a time so that the
//     buffer is read and written once per four columns.
//
// A with neither unit stride goes to the packed GEMM. Operands of 16-bit
// floats are converted to float32 four rows or columns at a time into a
// buffer, and C is rounded once at the end (Note [Reduced precision]).
//
// A large product is cut into ranges of rows of C, each a multiple of four
// rows, run by the pool's goroutines (Note [Threads]). Each element of C is
// computed by one goroutine with the same operations however the rows are
// cut: a row's dot product does not depend on the rows beside it (the
// kernels run the same sequence on each row), and the column sums add the
// columns in order of p, four at a time, for every row alike. The sums are
// ordered differently from the packed GEMM's, so a product with n = 1 can
// differ in the last bits from the same column computed within a wider
// product.

// gemvKit holds an impl's matrix-vector kernels (see gemvDotGo and
// gemvAxpyGo): dot takes 1 or 4 rows (len(y)), axpy 1 or 4 columns
// (len(x)).
type gemvKit[T num] struct {
	dot  func(k int, a []T, lda int, x, y []T)
	axpy func(m int, a []T, lda int, x, y []T)
	// dotRows, where set, is dot for any number of rows (len(y)) in one
	// call: a kernel that loops over the rows itself, one at a time.
	dotRows func(k int, a []T, lda int, x, y []T)
	// dotRows4, where set, is dotRows on 4q rows (len(y)) with dotRows'
	// bits, reading rows j, j+q, j+2q and j+3q together: four streams of
	// memory (Note [Four streams] in package vec).
	dotRows4 func(k int, a []T, lda int, x, y []T)
}

// gemvFourBytes is the least A, in bytes, whose rows gemv reads as four
// streams where its kit can (dotRows4): as package cpu's reductions do
// (fourStreamsBytes there), where A comes from memory, not from a cache.
// A var so that tests can lower it.
var gemvFourBytes = 16 << 20

// gemvDotGo sets y[r] = Σ_p a[r*lda+p]·x[p] for r < len(y), p < k, the
// sum in order of p. The assembly splits each row's sum into lanes, so
// its results can differ in the last bits.
func gemvDotGo[T num](k int, a []T, lda int, x, y []T) {
	x = x[:k]
	for r := range y {
		row := a[r*lda : r*lda+k]
		var s T
		for p, v := range row {
			s += v * x[p]
		}
		y[r] = s
	}
}

// gemvAxpyGo adds x[c]·a[c*lda+i] to y[i] for i < m, column after column
// (c < len(x)). The assembly fuses each multiply-add.
func gemvAxpyGo[T num](m int, a []T, lda int, x, y []T) {
	y = y[:m]
	for c, xc := range x {
		col := a[c*lda : c*lda+m]
		for i, v := range col {
			y[i] += xc * v
		}
	}
}

// gemvRows is how many rows (or columns) the kernels take at a time.
const gemvRows = 4

// gemv computes p, whose m or n is 1, on the matrix-vector kernels if its
// layout suits them (Note [Matrix-vector products]), with up to threads
// goroutines; it reports false, and does nothing, if not. p is
// normalized, k ≥ 1 and alpha ≠ 0.
func gemv[S elem, P packed, T num](im *impl[S, P, T], p problem[S, T], threads int) bool {
	if im.gemv == nil || p.m != 1 && p.n != 1 {
		return false
	}
	if p.n != 1 {
		// 1×n C = a·B: its transpose Bᵀ·aᵀ is n×1.
		p.m, p.n = p.n, p.m
		p.a, p.b = p.b, p.a
		p.rsA, p.csA, p.rsB, p.csB = p.csB, p.rsB, p.csA, p.rsA
		p.rsC, p.csC = p.csC, p.rsC
	}
	if p.m == 1 && p.csA != 1 && p.rsB == 1 {
		// A dot product: the operand with unit stride plays A's row.
		p.a, p.b = p.b, p.a
		p.csA, p.rsB = p.rsB, p.csA
	}
	dot := p.csA == 1
	if !dot && p.rsA != 1 {
		return false
	}
	ws := im.getVecWorkspace(max(p.m, p.k))
	x := ws.x[:p.k]
	gatherT(im, x, p.b, p.rsB, ws.cs)
	rowsPerPart := roundUp(p.m, gemvRows)
	if threads > 1 {
		rowsPerPart = roundUp((p.m+4*threads-1)/(4*threads), gemvRows)
	}
	parts := (p.m + rowsPerPart - 1) / rowsPerPart
	four := p.m*p.k*int(unsafe.Sizeof(p.a[0])) >= gemvFourBytes
	runParts(parts, threads-1, func(i int) {
		lo, hi := i*rowsPerPart, min(p.m, (i+1)*rowsPerPart)
		q := p
		q.m = hi - lo
		q.a = p.a[lo*p.rsA:]
		q.c = p.c[lo*p.rsC:]
		w := ws
		if i != 0 {
			w = im.getVecWorkspace(max(p.m, p.k))
		}
		if dot {
			gemvDot(im, &q, x, w, four)
		} else {
			gemvAxpy(im, &q, x, w)
		}
		if i != 0 {
			im.putVecWorkspace(w)
		}
	})
	im.putVecWorkspace(ws)
	return true
}

// gemvDot computes the column C = alpha·A·x + beta·C of p, whose A has
// unit column stride, four rows at a time; if four, on dotRows4 where the
// kit has it (the same bits).
func gemvDot[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], x []T, ws *vecWorkspace[S, T], four bool) {
	if im.gemv.dotRows != nil {
		a, okA := any(p.a).([]T)
		if _, okC := any(p.c).([]T); okA && okC {
			y := ws.y[:p.m]
			m4 := 0
			if four && im.gemv.dotRows4 != nil {
				m4 = p.m &^ 3
				im.gemv.dotRows4(p.k, a, p.rsA, x, y[:m4])
			}
			if m4 < p.m {
				im.gemv.dotRows(p.k, a[m4*p.rsA:], p.rsA, x, y[m4:])
			}
			im.storeVec(p.c, p.rsC, y, p.alpha, p.beta, ws)
			return
		}
	}
	var y [gemvRows]T
	k := p.k
	for i := 0; i < p.m; {
		rows := gemvRows
		if p.m-i < gemvRows {
			rows = 1
		}
		a, lda := any(p.a[i*p.rsA:]).([]T)
		if !lda {
			// 16-bit floats: convert the rows first.
			buf := ws.a[:rows*k]
			for r := 0; r < rows; r++ {
				src := p.a[(i+r)*p.rsA:]
				im.toT(buf[r*k:r*k+k], src[:k])
			}
			im.gemv.dot(k, buf, k, x, y[:rows])
		} else {
			im.gemv.dot(k, a, p.rsA, x, y[:rows])
		}
		im.storeVec(p.c[i*p.rsC:], p.rsC, y[:rows], p.alpha, p.beta, ws)
		i += rows
	}
}

// gemvAxpy computes the column C = alpha·A·x + beta·C of p, whose A has
// unit row stride, adding four columns at a time into a buffer.
func gemvAxpy[S elem, P packed, T num](im *impl[S, P, T], p *problem[S, T], x []T, ws *vecWorkspace[S, T]) {
	m := p.m
	y := ws.y[:m]
	clear(y)
	for c := 0; c < p.k; {
		cols := gemvRows
		if p.k-c < gemvRows {
			cols = 1
		}
		a, ok := any(p.a[c*p.csA:]).([]T)
		if !ok {
			buf := ws.a[:cols*m]
			for j := 0; j < cols; j++ {
				src := p.a[(c+j)*p.csA:]
				im.toT(buf[j*m:j*m+m], src[:m])
			}
			im.gemv.axpy(m, buf, m, x[c:c+cols], y)
		} else {
			im.gemv.axpy(m, a, p.csA, x[c:c+cols], y)
		}
		c += cols
	}
	for i := 0; i < m; i += gemvRows {
		n := min(gemvRows, m-i)
		im.storeVec(p.c[i*p.rsC:], p.rsC, y[i:i+n], p.alpha, p.beta, ws)
	}
}

// gatherT sets x[p] = b[p*rs] for p < len(x), converted to T through buf
// (maxNR elements).
func gatherT[S elem, P packed, T num](im *impl[S, P, T], x []T, b []S, rs int, buf []S) {
	if bt, ok := any(b).([]T); ok {
		if rs == 1 {
			copy(x, bt[:len(x)])
			return
		}
		for p := range x {
			x[p] = bt[p*rs]
		}
		return
	}
	for p := 0; p < len(x); p += maxNR {
		n := min(maxNR, len(x)-p)
		for q := range n {
			buf[q] = b[(p+q)*rs]
		}
		im.toT(x[p:p+n], buf[:n])
	}
}

// storeVec sets c[i*rs] = alpha·y[i] + beta·c[i*rs] for i < len(y) (≤
// gemvRows), beta == 0 ignoring c, rounding once when C is of a 16-bit
// type (through ws's buffers).
func (im *impl[S, P, T]) storeVec(c []S, rs int, y []T, alpha, beta T, ws *vecWorkspace[S, T]) {
	if ct, ok := any(c).([]T); ok {
		for i, v := range y {
			if beta == 0 {
				ct[i*rs] = alpha * v
			} else {
				ct[i*rs] = alpha*v + beta*ct[i*rs]
			}
		}
		return
	}
	t := ws.t
	n := len(y)
	if beta != 0 {
		im.loadC(t, 1, c, rs, 1, n, 1, ws.cs)
	}
	for i, v := range y {
		if beta == 0 {
			t[i] = alpha * v
		} else {
			t[i] = alpha*v + beta*t[i]
		}
	}
	im.storeC(c, rs, 1, t, 1, n, 1, ws.cs)
}

// vecWorkspace holds the buffers of a matrix-vector product: x gathered,
// the column sums, and 16-bit rows or columns converted.
type vecWorkspace[S elem, T num] struct {
	x, y, a []T
	t       []T // gemvRows elements of C, converted
	cs      []S // maxNR elements of a 16-bit operand, for conversions
}

// vecPool keeps vecWorkspaces for reuse, as Note [Workspaces] keeps the
// GEMM's.
type vecPool[S elem, T num] struct {
	mu   sync.Mutex
	free []*vecWorkspace[S, T]
}

// getVecWorkspace returns a workspace with room for vectors of n elements
// and gemvRows of them converted.
func (im *impl[S, P, T]) getVecWorkspace(n int) *vecWorkspace[S, T] {
	var w *vecWorkspace[S, T]
	im.vecs.mu.Lock()
	if l := len(im.vecs.free); l > 0 {
		w = im.vecs.free[l-1]
		im.vecs.free = im.vecs.free[:l-1]
	}
	im.vecs.mu.Unlock()
	if w == nil {
		w = &vecWorkspace[S, T]{t: make([]T, gemvRows), cs: make([]S, maxNR)}
	}
	if len(w.x) < n {
		w.x, w.y = make([]T, n), make([]T, n)
		if im.toT != nil {
			w.a = make([]T, gemvRows*n)
		}
	}
	return w
}

// putVecWorkspace keeps w for reuse.
func (im *impl[S, P, T]) putVecWorkspace(w *vecWorkspace[S, T]) {
	im.vecs.mu.Lock()
	if len(im.vecs.free) < maxFree {
		im.vecs.free = append(im.vecs.free, w)
	}
	im.vecs.mu.Unlock()
}
