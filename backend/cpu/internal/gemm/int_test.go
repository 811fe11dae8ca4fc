package gemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestInt runs random integer products over every layout against the
// triple loop in int64, truncated (Note [Integer products]): the results
// must be equal, overflow and wrapping included (the values span each
// type's range).
func TestInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	n := 150
	if testing.Short() {
		n = 50
	}
	run := func(t *testing.T) {
		for range n {
			tc := randomCase(rng)
			tc.alpha = float64(rng.IntN(7) - 3)
			tc.beta = float64(rng.IntN(4) - 1)
			testInt[uint8](t, rng, tc)
			testInt[int8](t, rng, tc)
			testInt[int16](t, rng, tc)
			testInt[int32](t, rng, tc)
			testInt[int64](t, rng, tc)
		}
	}
	t.Run("default", run)
	t.Run("smallblocks", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
		withBlocking(i8Impl, 5, 8, 8, func() {
			withBlocking(i64Impl, 3, 4, 8, func() { run(t) })
		})
	})
	t.Run("large", func(t *testing.T) {
		testInt[int8](t, rng, testCase{m: 70, n: 90, k: 600, la: "row", lb: "col", lc: "row", alpha: 1})
		testInt[int64](t, rng, testCase{m: 50, n: 1, k: 900, la: "col", lb: "row", lc: "row", alpha: 2, beta: 1})
	})
}

func testInt[T integer](t *testing.T, rng *rand.Rand, tc testCase) {
	t.Helper()
	gen := func(r, c int, layout string) (s []T, rs, cs, off int) {
		rs, cs = strides(rng, r, c, layout)
		off = rng.IntN(3)
		size := off + 2
		if r > 0 && c > 0 {
			size += (r-1)*rs + (c-1)*cs + 1
		}
		s = make([]T, size)
		for i := range s {
			s[i] = T(rng.Uint64())
		}
		return
	}
	a, rsA, csA, offA := gen(tc.m, tc.k, tc.la)
	b, rsB, csB, offB := gen(tc.k, tc.n, tc.lb)
	c, rsC, csC, offC := gen(tc.m, tc.n, tc.lc)
	c0 := append([]T(nil), c...)
	alpha, beta := int64(tc.alpha), int64(tc.beta)
	IntBatched(1, tc.m, tc.n, tc.k, alpha, a[offA:], 0, rsA, csA, b[offB:], 0, rsB, csB, beta, c[offC:], 0, rsC, csC)
	in := make([]bool, len(c))
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			var s int64
			for p := 0; p < tc.k; p++ {
				s += int64(a[offA+i*rsA+p*csA]) * int64(b[offB+p*rsB+j*csB])
			}
			at := offC + i*rsC + j*csC
			in[at] = true
			want := alpha * s
			if beta != 0 {
				want += beta * int64(c0[at])
			}
			if tc.k == 0 || alpha == 0 {
				want = beta * int64(c0[at])
			}
			if got := c[at]; got != T(want) {
				t.Fatalf("%T %v: C[%d,%d] = %v, want %v", got, tc, i, j, got, T(want))
			}
		}
	}
	for i := range c {
		if !in[i] && c[i] != c0[i] {
			t.Fatalf("%T %v: element %d outside C changed", c[0], tc, i)
		}
	}
}

// BenchmarkInt times square row-major integer products.
func BenchmarkInt(b *testing.B) {
	const n = 256
	b.Run(fmt.Sprint("int8/", n), func(b *testing.B) { benchInt[int8](b, n) })
	b.Run(fmt.Sprint("int64/", n), func(b *testing.B) { benchInt[int64](b, n) })
}

func benchInt[T integer](b *testing.B, n int) {
	x, y, z := make([]T, n*n), make([]T, n*n), make([]T, n*n)
	for i := range x {
		x[i], y[i] = T(i%7-3), T(i%5-2)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		IntBatched(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
	}
	b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GOP/s")
}
