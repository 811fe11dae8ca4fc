package gemm

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestGemv runs products with m or n equal to 1 (Note [Matrix-vector
// products]) over every layout, short and long k, on one goroutine and
// split across five.
func TestGemv(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	ks := []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000}
	ms := []int{1, 2, 3, 4, 5, 8, 9, 13, 33, 130, 517}
	cases := func() []testCase {
		var out []testCase
		for range 300 {
			tc := randomCase(rng)
			tc.k = ks[rng.IntN(len(ks))]
			if rng.IntN(2) == 0 {
				tc.m, tc.n = ms[rng.IntN(len(ms))], 1
			} else {
				tc.m, tc.n = 1, ms[rng.IntN(len(ms))]
			}
			out = append(out, tc)
		}
		return out
	}
	for _, tc := range cases() {
		runCase(t, rng, tc, F32)
		runCase(t, rng, tc, F64)
	}
	t.Run("procs5", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(5))
		withBlocking(f32, f32.kc, f32.mc, f32.nc, func() {
			withBlocking(f64, f64.kc, f64.mc, f64.nc, func() {
				for _, tc := range cases() {
					runCase(t, rng, tc, F32)
					runCase(t, rng, tc, F64)
				}
			})
		})
	})
}

// TestGemvDeterministic checks that a matrix-vector product gives the same
// bits on one goroutine and split across several, its rows read as four
// streams (gemvFourBytes) or not.
func TestGemvDeterministic(t *testing.T) {
	defer func(b int) { gemvFourBytes = b }(gemvFourBytes)
	rng := rand.New(rand.NewPCG(13, 14))
	const m, k = 203, 301
	a, x := randSlice[float32](m*k), randSlice[float32](k)
	for _, rowMajor := range []bool{true, false} {
		rs, cs := k, 1
		if !rowMajor {
			rs, cs = 1, m
		}
		gemvFourBytes = math.MaxInt
		one := make([]float32, m)
		F32(m, 1, k, 1.5, a, rs, cs, x, 1, 1, 0, one, 1, 1)
		gemvFourBytes = 0
		for _, procs := range []int{1, 2, 3, 7} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				withBlocking(f32, f32.kc, f32.mc, f32.nc, func() {
					got := make([]float32, m)
					F32(m, 1, k, 1.5, a, rs, cs, x, 1, 1, 0, got, 1, 1)
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(one[i]) {
							t.Fatalf("rowMajor=%v procs=%d: y[%d] = %v, one goroutine %v", rowMajor, procs, i, got[i], one[i])
						}
					}
				})
			}()
		}
	}
	_ = rng
}

// TestGemvTwins checks the matrix-vector kernels (assembly where it runs)
// against gemvDotGo and gemvAxpyGo for lengths up to 70 and both line
// counts, with guard elements that must stay untouched.
func TestGemvTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	testGemvKit(t, rng, f32.gemv)
	testGemvKit(t, rng, f64.gemv)
}

func testGemvKit[T float](t *testing.T, rng *rand.Rand, g *gemvKit[T]) {
	const guard = 5
	if g.dotRows != nil {
		testGemvRows(t, rng, g)
	}
	if g.dotRows4 != nil {
		testGemvRows4(t, rng, g)
	}
	for n := 0; n <= 70; n++ {
		for _, lines := range []int{1, 4} {
			lda := n + rng.IntN(3)
			a := randSlice[T](max(0, (lines-1)*lda+n))
			for i := range a {
				a[i] = T(rng.Float64()*2 - 1)
			}
			// dot: x has n elements, y lines
			x := make([]T, n)
			for i := range x {
				x[i] = T(rng.Float64()*2 - 1)
			}
			checkDot(t, "dot", g.dot, n, a, lda, x, lines)
			// axpy: x has lines elements, y n
			xs := x[:0]
			for range lines {
				xs = append(xs, T(rng.Float64()*2-1))
			}
			got, want := make([]T, n+guard), make([]T, n+guard)
			for i := range got {
				got[i] = T(rng.Float64())
				want[i] = got[i]
			}
			g.axpy(n, a, lda, xs, got[:n])
			gemvAxpyGo(n, a, lda, xs, want[:n])
			for i := range got {
				if d := math.Abs(float64(got[i] - want[i])); d > 8*eps[T]()*8 || i >= n && got[i] != want[i] {
					t.Fatalf("axpy n=%d lines=%d: y[%d] = %v, Go twin %v", n, lines, i, got[i], want[i])
				}
			}
		}
	}
}

// testGemvRows checks a kit's row-after-row kernel against gemvDotGo on
// every tail of its 128-element trips and 16-element vectors, for 0 to 6
// rows further apart than their length, with guard elements after y.
func testGemvRows[T float](t *testing.T, rng *rand.Rand, g *gemvKit[T]) {
	for _, n := range []int{0, 1, 15, 16, 17, 127, 128, 129, 143, 300, 1000} {
		for rows := 0; rows <= 6; rows++ {
			lda := n + rng.IntN(20)
			a := randSlice[T](max(0, (rows-1)*lda+n))
			x := randSlice[T](n)
			checkDot(t, "dotRows", g.dotRows, n, a, lda, x, rows)
		}
	}
}

// testGemvRows4 checks a kit's four-stream row kernel bit for bit against
// its dotRows on 4q rows, q across the 64 groups of a call, on every tail
// of the 256-element turns, the main trips (64 elements in AVX2, 128 in
// AVX-512) and the vectors, with guard elements after y.
func testGemvRows4[T float](t *testing.T, rng *rand.Rand, g *gemvKit[T]) {
	const guard = 5
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 300, 399, 1000} {
		for _, q := range []int{0, 1, 2, 5, 64, 65, 70} {
			rows := 4 * q
			lda := n + rng.IntN(20)
			a := randSlice[T](max(0, (rows-1)*lda+n))
			x := randSlice[T](n)
			got, want := make([]T, rows+guard), make([]T, rows+guard)
			for i := range got {
				got[i], want[i] = -3, -3
			}
			if allocs := testing.AllocsPerRun(2, func() { g.dotRows4(n, a, lda, x, got[:rows]) }); allocs != 0 {
				t.Fatalf("dotRows4 n=%d q=%d: %v allocations, want none", n, q, allocs)
			}
			g.dotRows(n, a, lda, x, want[:rows])
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("dotRows4 n=%d q=%d: y[%d] = %v, dotRows %v", n, q, i, got[i], want[i])
				}
			}
		}
	}
}

// checkDot runs dot over the first lines rows of a (n elements each, lda
// apart) into a y with guard elements after it, and checks y against
// gemvDotGo's and the guards untouched.
func checkDot[T float](t *testing.T, name string, dot func(k int, a []T, lda int, x, y []T), n int, a []T, lda int, x []T, lines int) {
	t.Helper()
	const guard = 5
	got, want := make([]T, lines+guard), make([]T, lines+guard)
	for i := range got {
		got[i], want[i] = -3, -3
	}
	dot(n, a, lda, x, got[:lines])
	gemvDotGo(n, a, lda, x, want[:lines])
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); d > 4*float64(n+1)*eps[T]()*8 || i >= lines && got[i] != -3 {
			t.Fatalf("%s n=%d lines=%d: y[%d] = %v, Go twin %v", name, n, lines, i, got[i], want[i])
		}
	}
}
