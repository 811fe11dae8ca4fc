package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// mat is a test operand: an r×c matrix at s[off:] with strides rs, cs.
type mat[T float] struct {
	s              []T
	off, r, c      int
	rs, cs         int
	guardLo, guard int // elements before off and after the last one
}

func (m mat[T]) at(i, j int) T { return m.s[m.off+i*m.rs+j*m.cs] }

// layouts a test picks from; "bcast" (zero strides) only for inputs.
var inputLayouts = []string{"row", "col", "rowpad", "colpad", "strided", "stridedT", "bcastrow", "bcastcol"}
var outputLayouts = []string{"row", "col", "rowpad", "colpad", "strided", "stridedT"}

// strides draws the strides of an r×c matrix with the given layout.
func strides(rng *rand.Rand, r, c int, layout string) (rs, cs int) {
	switch layout {
	case "row":
		return c, 1
	case "col":
		return 1, r
	case "rowpad":
		return c + 1 + rng.IntN(5), 1
	case "colpad":
		return 1, r + 1 + rng.IntN(5)
	case "strided":
		cs = 2 + rng.IntN(2)
		return cs*c + rng.IntN(3), cs
	case "stridedT":
		rs = 2 + rng.IntN(2)
		return rs, rs*r + rng.IntN(3)
	case "bcastrow": // every row the same
		return 0, 1
	case "bcastcol": // every column the same
		return 1, 0
	}
	panic(layout)
}

// newMat returns an r×c matrix with the given layout, random values in
// [-1, 1), a random offset and guard elements set to sentinel.
func newMat[T float](rng *rand.Rand, r, c int, layout string, sentinel T) mat[T] {
	rs, cs := strides(rng, r, c, layout)
	return newMatStrides(rng, r, c, rs, cs, sentinel)
}

func newMatStrides[T float](rng *rand.Rand, r, c, rs, cs int, sentinel T) mat[T] {
	m := mat[T]{r: r, c: c, rs: rs, cs: cs}
	m.guardLo, m.guard = rng.IntN(4), 3
	m.off = m.guardLo
	n := m.off + m.guard
	if r > 0 && c > 0 {
		n += (r-1)*m.rs + (c-1)*m.cs + 1
	}
	m.s = make([]T, n)
	for i := range m.s {
		m.s[i] = sentinel
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.s[m.off+i*m.rs+j*m.cs] = T(rng.Float64()*2 - 1)
		}
	}
	return m
}

// written reports which elements of m.s belong to the matrix.
func (m mat[T]) written() []bool {
	w := make([]bool, len(m.s))
	for i := 0; i < m.r; i++ {
		for j := 0; j < m.c; j++ {
			w[m.off+i*m.rs+j*m.cs] = true
		}
	}
	return w
}

func eps[T float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

// check compares c (after the product) with the float64 triple loop on a,
// b and c0 (C before), with an error bound proportional to k and to the
// magnitudes summed, and checks that nothing outside C changed.
func check[T float](t *testing.T, what string, alpha, beta T, a, b mat[T], c0, c mat[T]) {
	t.Helper()
	m, n, k := c.r, c.c, a.c
	e := eps[T]()
	bad := 0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s, mag float64
			for p := 0; p < k; p++ {
				x := float64(a.at(i, p)) * float64(b.at(p, j))
				s += x
				mag += math.Abs(x)
			}
			want := float64(alpha) * s
			mag *= math.Abs(float64(alpha))
			if k == 0 || alpha == 0 {
				want, mag = 0, 0
			}
			if beta != 0 {
				want += float64(beta) * float64(c0.at(i, j))
				mag += math.Abs(float64(beta) * float64(c0.at(i, j)))
			}
			got := float64(c.at(i, j))
			if tol := 2*float64(k+3)*e*mag + 1e-300; !(math.Abs(got-want) <= tol) {
				if bad++; bad <= 5 {
					t.Errorf("%s: C[%d,%d] = %v, want %v (tol %.3g)", what, i, j, got, want, tol)
				}
			}
		}
	}
	w := c.written()
	for i, v := range c.s {
		if !w[i] && !(v == c0.s[i] || v != v && c0.s[i] != c0.s[i]) {
			t.Errorf("%s: element %d outside C changed: %v", what, i, v)
			return
		}
	}
}

type testCase struct {
	m, n, k     int
	la, lb, lc  string
	alpha, beta float64
	nanC        bool
}

func (tc testCase) String() string {
	return fmt.Sprintf("m=%d n=%d k=%d A=%s B=%s C=%s alpha=%v beta=%v nanC=%v",
		tc.m, tc.n, tc.k, tc.la, tc.lb, tc.lc, tc.alpha, tc.beta, tc.nanC)
}

var dims = []int{0, 1, 2, 3, 5, 6, 7, 8, 13, 15, 16, 17, 23, 31, 32, 33, 47, 61, 97, 130}

func randomCase(rng *rand.Rand) testCase {
	tc := testCase{
		m: dims[rng.IntN(len(dims))], n: dims[rng.IntN(len(dims))], k: dims[rng.IntN(len(dims))],
		la:    inputLayouts[rng.IntN(len(inputLayouts))],
		lb:    inputLayouts[rng.IntN(len(inputLayouts))],
		lc:    outputLayouts[rng.IntN(len(outputLayouts))],
		alpha: []float64{1, -1, 0.5, 2.25, 0}[rng.IntN(5)],
		beta:  []float64{0, 0, 1, -0.75, 3}[rng.IntN(5)],
	}
	tc.nanC = tc.beta == 0 && rng.IntN(2) == 0
	return tc
}

func runCase[T float](t *testing.T, rng *rand.Rand, tc testCase, f func(m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int)) {
	t.Helper()
	nan := T(math.NaN())
	a := newMat[T](rng, tc.m, tc.k, tc.la, nan)
	b := newMat[T](rng, tc.k, tc.n, tc.lb, nan)
	c := newMat[T](rng, tc.m, tc.n, tc.lc, -7)
	if tc.nanC {
		for i, w := range c.written() {
			if w {
				c.s[i] = nan
			}
		}
	}
	c0 := c
	c0.s = append([]T(nil), c.s...)
	f(tc.m, tc.n, tc.k, T(tc.alpha), a.s[a.off:], a.rs, a.cs, b.s[b.off:], b.rs, b.cs, T(tc.beta), c.s[c.off:], c.rs, c.cs)
	check(t, tc.String(), T(tc.alpha), T(tc.beta), a, b, c0, c)
}

// withBlocking runs f with im's cache blocks set to kc, mc, nc and the
// parallel thresholds lowered so that small products split.
func withBlocking[S elem, P packed, T num](im *impl[S, P, T], kc, mc, nc int, f func()) {
	kc0, mc0, nc0 := im.kc, im.mc, im.nc
	pw0, wt0, bs0 := im.parallelWork, im.workPerThread, im.batchSmallWork
	im.kc, im.mc, im.nc = kc, mc, nc
	im.parallelWork, im.workPerThread, im.batchSmallWork = 1, 1, math.MaxInt
	defer func() {
		im.kc, im.mc, im.nc = kc0, mc0, nc0
		im.parallelWork, im.workPerThread, im.batchSmallWork = pw0, wt0, bs0
	}()
	f()
}

func testRandom[T float](t *testing.T, im *impl[T, T, T], f func(m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int)) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400
	if testing.Short() {
		n = 100
	}
	t.Run("default", func(t *testing.T) {
		for range n {
			runCase(t, rng, randomCase(rng), f)
		}
	})
	// Tiny cache blocks make every loop of Note [Blocking] take several
	// trips, and the lowered thresholds split every product.
	t.Run("smallblocks", func(t *testing.T) {
		withBlocking(im, 5, 2*im.mr, 2*im.nr, func() {
			for range n {
				runCase(t, rng, randomCase(rng), f)
			}
		})
	})
	// Five goroutines cut products into grids of up to five blocks.
	t.Run("procs5", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(5))
		withBlocking(im, 9, 3*im.mr, 3*im.nr, func() {
			for range n / 2 {
				runCase(t, rng, randomCase(rng), f)
			}
		})
	})
	t.Run("large", func(t *testing.T) {
		for _, tc := range []testCase{
			{m: 300, n: 290, k: 530, la: "row", lb: "row", lc: "row", alpha: 1, beta: 0},
			{m: 151, n: 333, k: 257, la: "col", lb: "col", lc: "rowpad", alpha: -1, beta: 0.5},
			{m: 200, n: 70, k: 300, la: "row", lb: "colpad", lc: "col", alpha: 2, beta: 1},
			{m: 97, n: 161, k: 600, la: "strided", lb: "stridedT", lc: "strided", alpha: 1, beta: 0, nanC: true},
		} {
			runCase(t, rng, tc, f)
		}
	})
}

func TestF32(t *testing.T) { testRandom(t, f32, F32) }
func TestF64(t *testing.T) { testRandom(t, f64, F64) }

func TestBatched(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	testBatched(t, rng, F32Batched)
	testBatched(t, rng, F64Batched)
	withBlocking(f32, 7, 12, 32, func() { testBatched(t, rng, F32Batched) })
}

func testBatched[T float](t *testing.T, rng *rand.Rand, f func(batch int, m, n, k int, alpha T, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta T, c []T, bsC, rsC, csC int)) {
	for range 60 {
		tc := randomCase(rng)
		batch := rng.IntN(6)
		if rng.IntN(4) == 0 {
			batch = 64
			tc.m, tc.n, tc.k = 12+rng.IntN(30), 12+rng.IntN(30), 12+rng.IntN(30)
		}
		nan := T(math.NaN())
		as := make([]mat[T], batch)
		bs := make([]mat[T], batch)
		cs := make([]mat[T], batch)
		// Each product's operands are built alone with the batch's strides,
		// then laid end to end; A or B may be shared by the whole batch
		// (batch stride 0).
		shareA, shareB := rng.IntN(4) == 0, rng.IntN(4) == 0
		rsA, csA := strides(rng, tc.m, tc.k, tc.la)
		rsB, csB := strides(rng, tc.k, tc.n, tc.lb)
		rsC, csC := strides(rng, tc.m, tc.n, tc.lc)
		for i := range batch {
			as[i] = newMatStrides[T](rng, tc.m, tc.k, rsA, csA, nan)
			bs[i] = newMatStrides[T](rng, tc.k, tc.n, rsB, csB, nan)
			cs[i] = newMatStrides[T](rng, tc.m, tc.n, rsC, csC, -7)
			if shareA && i > 0 {
				as[i] = as[0]
			}
			if shareB && i > 0 {
				bs[i] = bs[0]
			}
		}
		// join lays the matrices (from their offsets) bstride elements apart.
		join := func(ms []mat[T], shared bool) (s []T, bstride int) {
			if len(ms) == 0 {
				return nil, 0
			}
			if shared {
				return ms[0].s[ms[0].off:], 0
			}
			for _, m := range ms {
				bstride = max(bstride, len(m.s)-m.off)
			}
			s = make([]T, bstride*len(ms))
			for i, m := range ms {
				copy(s[i*bstride:], m.s[m.off:])
			}
			return s, bstride
		}
		sa, bsA := join(as, shareA)
		sb, bsB := join(bs, shareB)
		sc, bsC := join(cs, false)
		c0 := append([]T(nil), sc...)
		f(batch, tc.m, tc.n, tc.k, T(tc.alpha), sa, bsA, rsA, csA, sb, bsB, rsB, csB, T(tc.beta), sc, bsC, rsC, csC)
		for i := range batch {
			got, before := cs[i], cs[i]
			got.off, before.off = 0, 0
			got.s = sc[i*bsC : i*bsC+len(cs[i].s)-cs[i].off]
			before.s = c0[i*bsC : i*bsC+len(cs[i].s)-cs[i].off]
			a, b := as[i], bs[i]
			check(t, fmt.Sprintf("batch %d of %d: %v", i, batch, tc), T(tc.alpha), T(tc.beta), a, b, before, got)
		}
	}
}

// TestKernelTwins checks the assembly microkernels (where they run)
// against the Go ones on random slivers, for every k up to 40 and each
// beta path.
func TestKernelTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	testKernel(t, rng, f32.kernel, kernelGoOf[float32](f32.mr, f32.nr), f32.mr, f32.nr)
	testKernel(t, rng, f64.kernel, kernelGoOf[float64](f64.mr, f64.nr), f64.mr, f64.nr)
}

func testKernel[T float](t *testing.T, rng *rand.Rand, got, want kernelFunc[T, T], mr, nr int) {
	for k := 1; k <= 40; k++ {
		for _, beta := range []T{0, 1, -0.5} {
			a := make([]T, k*mr)
			b := make([]T, k*nr)
			for i := range a {
				a[i] = T(rng.Float64()*2 - 1)
			}
			for i := range b {
				b[i] = T(rng.Float64()*2 - 1)
			}
			ldc := nr + 5 // the gaps between rows must stay untouched
			c1 := make([]T, (mr-1)*ldc+nr+5)
			for i := range c1 {
				c1[i] = T(rng.Float64())
			}
			c2 := append([]T(nil), c1...)
			if beta == 0 {
				for i := range c1 {
					c1[i] = T(math.NaN())
				}
			}
			got(k, a, b, c1, ldc, 1.5, beta)
			want(k, a, b, c2, ldc, 1.5, beta)
			for i := range c1 {
				inTile := i/ldc < mr && i%ldc < nr
				if !inTile {
					if beta == 0 && c1[i] == c1[i] || beta != 0 && c1[i] != c2[i] {
						t.Fatalf("k=%d beta=%v: element %d outside the tile changed", k, beta, i)
					}
					continue
				}
				if d := math.Abs(float64(c1[i] - c2[i])); d > float64(4*k)*eps[T]()*4 {
					t.Fatalf("k=%d beta=%v: c[%d] = %v, Go twin %v", k, beta, i, c1[i], c2[i])
				}
			}
		}
	}
}

func TestPanics(t *testing.T) {
	a := make([]float32, 12)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"short A", func() { F32(4, 3, 4, 1, a[:15], 4, 1, a, 3, 1, 0, a, 3, 1) }},
		{"short C", func() { F32(4, 3, 3, 1, a, 3, 1, a, 3, 1, 0, a[:11], 3, 1) }},
		{"negative stride", func() { F32(2, 2, 2, 1, a, -1, 1, a, 2, 1, 0, a, 2, 1) }},
		{"negative dim", func() { F32(-1, 2, 2, 1, a, 2, 1, a, 2, 1, 0, a, 2, 1) }},
		{"zero C stride", func() { F32(2, 2, 2, 1, a, 2, 1, a, 2, 1, 0, a, 0, 1) }},
		{"batch C stride 0", func() { F32Batched(2, 2, 2, 2, 1, a, 0, 2, 1, a, 0, 2, 1, 0, a, 0, 2, 1) }},
		{"batch too long", func() { F32Batched(4, 2, 2, 2, 1, a, 4, 2, 1, a, 0, 2, 1, 0, a, 4, 2, 1) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.f()
		}()
	}
	// Empty operands need no elements; B must still fit when m is 0.
	F32(0, 5, 5, 1, nil, 5, 1, make([]float32, 25), 5, 1, 0, nil, 5, 1)
	F64Batched(0, 5, 5, 5, 1, nil, 25, 5, 1, nil, 25, 5, 1, 0, nil, 25, 5, 1)
}

// TestPackTwins checks the impls' packing of whole slivers of the two
// unit-stride layouts (assembly where it runs) against packCopyGo and
// packTransGo for k up to 40 and a few strides, with guard elements after
// dst that must stay untouched.
func TestPackTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, trans := range []bool{false, true} {
		testPack(t, rng, "F32 A", f32.sliverA, f32.mr, trans)
		testPack(t, rng, "F32 B", f32.sliverB, f32.nr, trans)
		testPack(t, rng, "F64 A", f64.sliverA, f64.mr, trans)
		testPack(t, rng, "F64 B", f64.sliverB, f64.nr, trans)
	}
}

func testPack[T float](t *testing.T, rng *rand.Rand, name string, f sliverFunc[T, T], w int, trans bool) {
	const guard = 9
	for k := 0; k <= 40; k++ {
		for _, extra := range []int{0, 1, 7} {
			var ld, n int
			if trans {
				ld = k + extra
				n = (w-1)*ld + k
			} else {
				ld = w + extra
				n = max(0, (k-1)*ld+w)
			}
			src := make([]T, n)
			for i := range src {
				src[i] = T(rng.Float64())
			}
			got := make([]T, k*w+guard)
			want := make([]T, k*w+guard)
			for i := range got {
				got[i], want[i] = -1, -1
			}
			if trans {
				f(got[:k*w], src, w, k, ld, 1)
				packTransGo(w, k, src, ld, want)
			} else {
				f(got[:k*w], src, w, k, 1, ld)
				packCopyGo(w, k, src, ld, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s trans=%v k=%d ld=%d: dst[%d] = %v, want %v", name, trans, k, ld, i, got[i], want[i])
				}
			}
		}
	}
}

// TestBatchedEmptyK checks that a batch of products with k = 0 scales C by
// beta without reading A or B, which may then be empty whatever their batch
// strides.
func TestBatchedEmptyK(t *testing.T) {
	c := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	F64Batched(2, 2, 2, 0, 1, nil, 6, 0, 2, nil, 5, 2, 1, 3, c, 4, 2, 1)
	for i, v := range c {
		if want := 3 * float64(i+1); v != want {
			t.Fatalf("c[%d] = %v, want %v", i, v, want)
		}
	}
}
