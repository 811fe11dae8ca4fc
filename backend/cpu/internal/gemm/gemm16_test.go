package gemm

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// half describes a 16-bit float type for the tests: its product, its
// conversions (dtype's, not the package's) and its precision.
type half struct {
	name  string
	f     func(batch int, m, n, k int, alpha float32, a []uint16, bsA, rsA, csA int, b []uint16, bsB, rsB, csB int, beta float32, c []uint16, bsC, rsC, csC int)
	to    func(uint16) float64
	from  func(float32) uint16
	mbits int // significand bits after the point
}

var halves = []half{
	{"bf16", BF16Batched, func(h uint16) float64 { return float64(dtype.BF16(h).Float32()) },
		func(f float32) uint16 { return uint16(dtype.BF16FromFloat32(f)) }, 7},
	{"f16", F16Batched, func(h uint16) float64 { return float64(dtype.Half(h).Float32()) },
		func(f float32) uint16 { return uint16(dtype.HalfFromFloat32(f)) }, 10},
}

// ulp returns the spacing of h's values at |v| (normal range).
func (h half) ulp(v float64) float64 {
	_, e := math.Frexp(math.Abs(v))
	return math.Ldexp(1, e-1-h.mbits)
}

// mat16 is a test operand of 16-bit floats: an r×c matrix at s[off:].
type mat16 struct {
	s            []uint16
	off, rs, cs  int
	r, c         int
	guardLo, end int
}

func (m mat16) at(i, j int) uint16 { return m.s[m.off+i*m.rs+j*m.cs] }

func newMat16(rng *rand.Rand, h half, r, c int, layout string, val func() float32) mat16 {
	rs, cs := strides(rng, r, c, layout)
	m := mat16{r: r, c: c, rs: rs, cs: cs, off: rng.IntN(3)}
	n := m.off + 3
	if r > 0 && c > 0 {
		n += (r-1)*rs + (c-1)*cs + 1
	}
	m.s = make([]uint16, n)
	for i := range m.s {
		m.s[i] = 0x7fc1 // a NaN in both types: reading it shows
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.s[m.off+i*rs+j*cs] = h.from(val())
		}
	}
	return m
}

// run16 computes alpha·A·B + beta·C for one case with h's product and
// checks each element against the float64 sum rounded, within one unit in
// the last place of h plus float32's accumulation error, and that nothing
// outside C changed.
func run16(t *testing.T, rng *rand.Rand, h half, tc testCase) {
	t.Helper()
	val := func() float32 { return float32(rng.Float64()*2 - 1) }
	a := newMat16(rng, h, tc.m, tc.k, tc.la, val)
	b := newMat16(rng, h, tc.k, tc.n, tc.lb, val)
	c := newMat16(rng, h, tc.m, tc.n, tc.lc, val)
	c0 := append([]uint16(nil), c.s...)
	h.f(1, tc.m, tc.n, tc.k, float32(tc.alpha), a.s[a.off:], 0, a.rs, a.cs, b.s[b.off:], 0, b.rs, b.cs,
		float32(tc.beta), c.s[c.off:], 0, c.rs, c.cs)
	inC := make([]bool, len(c.s))
	bad := 0
	for i := 0; i < tc.m; i++ {
		for j := 0; j < tc.n; j++ {
			var s, mag float64
			for p := 0; p < tc.k; p++ {
				x := h.to(a.at(i, p)) * h.to(b.at(p, j))
				s += x
				mag += math.Abs(x)
			}
			want := tc.alpha * s
			mag *= math.Abs(tc.alpha)
			if tc.beta != 0 {
				cv := h.to(c0[c.off+i*c.rs+j*c.cs])
				want += tc.beta * cv
				mag += math.Abs(tc.beta * cv)
			}
			at := c.off + i*c.rs + j*c.cs
			inC[at] = true
			got := h.to(c.s[at])
			tol := h.ulp(want) + 2*float64(tc.k+3)*0x1p-24*mag + 0x1p-24
			if !(math.Abs(got-want) <= tol) {
				if bad++; bad <= 5 {
					t.Errorf("%s %v: C[%d,%d] = %v, want %v (tol %.3g)", h.name, tc, i, j, got, want, tol)
				}
			}
		}
	}
	for i, v := range c.s {
		if !inC[i] && v != c0[i] {
			t.Errorf("%s %v: element %d outside C changed", h.name, tc, i)
			return
		}
	}
}

// TestHalf runs random products of 16-bit floats on every layout, with
// small blocks (k longer than kc sums into the float32 accumulator) and
// split across goroutines.
func TestHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 200
	if testing.Short() {
		n = 60
	}
	for _, h := range halves {
		for range n {
			run16(t, rng, h, randomCase(rng))
		}
	}
	t.Run("smallblocks", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
		withHalfBlocks(func() {
			for _, h := range halves {
				for range n {
					run16(t, rng, h, randomCase(rng))
				}
			}
		})
	})
	t.Run("large", func(t *testing.T) {
		for _, h := range halves {
			run16(t, rng, h, testCase{m: 130, n: 150, k: 600, la: "row", lb: "row", lc: "row", alpha: 1, beta: 0})
			run16(t, rng, h, testCase{m: 70, n: 45, k: 301, la: "col", lb: "stridedT", lc: "colpad", alpha: -0.5, beta: 2})
		}
	})
}

// withHalfBlocks runs f with tiny cache blocks on the 16-bit impls.
func withHalfBlocks(f func()) {
	withBlocking(bf16, 6, 2*bf16.mr, 2*bf16.nr, func() {
		withBlocking(f16, 5, 2*f16.mr, 2*f16.nr, func() {
			if bf16dot != nil {
				withBlocking(bf16dot, 6, 2*bf16dot.mr, 2*bf16dot.nr, f)
				return
			}
			f()
		})
	})
}

// TestHalfRounding checks that each element of C is rounded once, at the
// end, to nearest even: with small integers every float32 sum is exact, so
// C must equal the exact result rounded by dtype's conversion, whereas
// rounding the partial sums of each block of k (k = 700 is several blocks)
// or of each product would not.
func TestHalfRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, h := range halves {
		for _, sh := range [][3]int{{5, 40, 700}, {1, 37, 700}, {33, 1, 700}, {1, 1, 999}, {13, 13, 2}} {
			m, n, k := sh[0], sh[1], sh[2]
			for _, ab := range [][2]float64{{1, 0}, {0.5, 0.25}, {-2, 1}} {
				alpha, beta := ab[0], ab[1]
				ints := func(lo, hi int) func() float32 {
					return func() float32 { return float32(lo + rng.IntN(hi-lo+1)) }
				}
				a := newMat16(rng, h, m, k, "row", ints(0, 15))
				b := newMat16(rng, h, k, n, "col", ints(0, 3))
				c := newMat16(rng, h, m, n, "row", ints(-8, 8))
				c0 := append([]uint16(nil), c.s...)
				h.f(1, m, n, k, float32(alpha), a.s[a.off:], 0, a.rs, a.cs, b.s[b.off:], 0, b.rs, b.cs,
					float32(beta), c.s[c.off:], 0, c.rs, c.cs)
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						var s float64
						for p := 0; p < k; p++ {
							s += h.to(a.at(i, p)) * h.to(b.at(p, j))
						}
						exact := alpha*s + beta*h.to(c0[c.off+i*c.rs+j*c.cs])
						want := h.from(float32(exact)) // exact in float32
						if got := c.at(i, j); got != want {
							t.Fatalf("%s %d×%d×%d alpha=%v beta=%v: C[%d,%d] = %v, want %v (%v rounded)",
								h.name, m, n, k, alpha, beta, i, j, h.to(got), h.to(want), exact)
						}
					}
				}
			}
		}
	}
}

// TestHalfTies checks ties to even: sums exactly halfway between two
// values of the type go to the one with an even significand.
func TestHalfTies(t *testing.T) {
	for _, h := range halves {
		// 1 + 2^-(mbits+1) is halfway between 1 and its successor (rounds
		// down to 1, even), 1 + 3·2^-(mbits+1) halfway between the successor
		// and the next (rounds up to 1 + 2^(1-mbits), even).
		for _, tc := range []struct{ frac, want float64 }{{1, 1}, {3, 1 + math.Ldexp(1, 1-h.mbits)}} {
			x := math.Ldexp(tc.frac, -h.mbits-1)
			a := []uint16{h.from(1), h.from(float32(x))}
			b := []uint16{h.from(1), h.from(1)}
			c := []uint16{0}
			h.f(1, 1, 1, 2, 1, a, 0, 2, 1, b, 0, 1, 1, 0, c, 0, 1, 1)
			if got := h.to(c[0]); got != tc.want {
				t.Errorf("%s: 1 + %v = %v, want %v", h.name, x, got, tc.want)
			}
		}
	}
}

// TestPairTwins checks the bfloat16 dot-product impl (where the CPU has
// one) against its Go twins: its packing of whole slivers against
// packCopyPairsGo and packTransPairsGo for k up to 41, odd k included,
// and its kernel against kernelPairsGo.
func TestPairTwins(t *testing.T) {
	if bf16dot == nil {
		t.Skip("no bfloat16 dot-product kernel at this level")
	}
	rng := rand.New(rand.NewPCG(25, 26))
	const guard = 7
	for _, wA := range []bool{true, false} {
		w, sl := bf16dot.mr, bf16dot.sliverA
		if !wA {
			w, sl = bf16dot.nr, bf16dot.sliverB
		}
		for _, trans := range []bool{false, true} {
			for k := 0; k <= 41; k++ {
				for _, extra := range []int{0, 1, 6} {
					var ld, n int
					if trans {
						ld = k + extra
						n = (w-1)*ld + k
					} else {
						ld = w + extra
						n = max(0, (k-1)*ld+w)
					}
					src := make([]uint16, n)
					for i := range src {
						src[i] = uint16(rng.Uint32())
					}
					steps := (k + 1) / 2
					got, want := make([]uint32, steps*w+guard), make([]uint32, steps*w+guard)
					for i := range got {
						got[i], want[i] = 0xdeadbeef, 0xdeadbeef
					}
					if trans {
						sl(got[:steps*w], src, w, k, ld, 1)
						packTransPairsGo(w, k, src, ld, want)
					} else {
						sl(got[:steps*w], src, w, k, 1, ld)
						packCopyPairsGo(w, k, src, ld, want)
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("w=%d trans=%v k=%d ld=%d: dst[%d] = %#x, want %#x", w, trans, k, ld, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
	mr, nr := bf16dot.mr, bf16dot.nr
	bf := func() uint32 { return uint32(dtype.BF16FromFloat32(float32(rng.Float64()*2 - 1))) }
	for k := 1; k <= 40; k++ {
		for _, beta := range []float32{0, 1, -0.5} {
			a, b := make([]uint32, k*mr), make([]uint32, k*nr)
			for i := range a {
				a[i] = bf() | bf()<<16
			}
			for i := range b {
				b[i] = bf() | bf()<<16
			}
			ldc := nr + 3
			c1 := make([]float32, (mr-1)*ldc+nr+3)
			for i := range c1 {
				c1[i] = float32(rng.Float64())
			}
			c2 := append([]float32(nil), c1...)
			bf16dot.kernel(k, a, b, c1, ldc, 1.5, beta)
			kernelPairsGo(mr, nr, k, a, b, c2, ldc, 1.5, beta)
			for i := range c1 {
				inTile := i/ldc < mr && i%ldc < nr
				if d := math.Abs(float64(c1[i] - c2[i])); inTile && d > float64(8*k)*0x1p-24*4 || !inTile && c1[i] != c2[i] {
					t.Fatalf("kernel k=%d beta=%v: c[%d] = %v, Go twin %v", k, beta, i, c1[i], c2[i])
				}
			}
		}
	}
}

// TestConvTwins checks the 16-bit impls' converting packs of whole slivers
// (assembly where it runs) against packCopyConvGo and packTransConvGo with
// dtype's conversions, over every bit pattern's class: random bits, so
// NaNs, infinities and subnormals too. A NaN must stay a NaN, its payload
// need not (VCVTPH2PS quiets signalling NaNs; in a product only NaN-ness
// reaches C).
func TestConvTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, tc := range []struct {
		name string
		im   *impl[uint16, float32, float32]
		conv func(uint16) float32
	}{
		{"bf16", bf16, func(h uint16) float32 { return dtype.BF16(h).Float32() }},
		{"f16", f16, func(h uint16) float32 { return dtype.Half(h).Float32() }},
	} {
		for _, a := range []bool{true, false} {
			w, sl := tc.im.mr, tc.im.sliverA
			if !a {
				w, sl = tc.im.nr, tc.im.sliverB
			}
			for _, trans := range []bool{false, true} {
				for k := 0; k <= 41; k++ {
					ld := w + rng.IntN(3)
					n := max(0, (k-1)*ld+w)
					if trans {
						ld = k + rng.IntN(3)
						n = (w-1)*ld + k
					}
					src := make([]uint16, n)
					for i := range src {
						src[i] = uint16(rng.Uint32())
					}
					got, want := make([]float32, k*w+5), make([]float32, k*w+5)
					for i := range got {
						got[i], want[i] = -9, -9
					}
					if trans {
						sl(got[:k*w], src, w, k, ld, 1)
						packTransConvGo(w, k, src, ld, want, tc.conv)
					} else {
						sl(got[:k*w], src, w, k, 1, ld)
						packCopyConvGo(w, k, src, ld, want, tc.conv)
					}
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
							t.Fatalf("%s w=%d trans=%v k=%d ld=%d: dst[%d] = %v (%#x), want %v (%#x)", tc.name, w, trans, k, ld, i,
								got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
						}
					}
				}
			}
		}
	}
}
