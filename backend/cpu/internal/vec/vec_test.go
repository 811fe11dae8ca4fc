package vec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// Every exported primitive is checked against its pure-Go twin, bit for bit,
// for every length up to 300 and some large ones, at unaligned offsets, on
// random data salted with special values. Each call runs on slices cut out
// of guarded buffers: nothing outside dst[0:len(dst)] may change, and the
// inputs must not change. With the purego tag (or without AVX2) the exported
// functions are the twins and the twins are checked against references.

const guard = 37 // guard elements on each side (odd, so alignments vary)

// testLengths are the lengths of the reductions' tests: elementwiseLengths
// and, unless -short, one of 2^20+5, for accumulators that carry a state
// from block to block.
func testLengths() []int {
	ns := elementwiseLengths()
	if !testing.Short() {
		ns = append(ns, 1<<20+5)
	}
	return ns
}

// elementwiseLengths are every length up to 300 (each head and tail of the
// unrolled loops) and long ones past every unrolled block. An elementwise
// kernel carries nothing from one block to the next, so a longer slice
// tests nothing these do not; run1 and run2 (several hundred kernels, each
// with several scalars) take 4 minutes more on a 2-core Zen 3 with 2^20+5.
func elementwiseLengths() []int {
	var ns []int
	for n := 0; n <= 300; n++ {
		ns = append(ns, n)
	}
	return append(ns, 511, 1000, 1023, 4096+7, 65536+13)
}

// word is the bit pattern type behind each element type.
type elem interface {
	float32 | float64 | uint16 | int32 | bool | int8 | int16 | int64 | uint8
}

func bitsOf[T elem](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		return uint64(math.Float32bits(x))
	case float64:
		return math.Float64bits(x)
	case uint16:
		return uint64(x)
	case int32:
		return uint64(uint32(x))
	case int8:
		return uint64(uint8(x))
	case int16:
		return uint64(uint16(x))
	case int64:
		return uint64(x)
	case uint8:
		return uint64(x)
	case bool:
		if x {
			return 1
		}
		return 0
	}
	panic("unreachable")
}

// sentinel is an unusual bit pattern for guard elements.
func sentinel[T elem]() T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = math.Float32frombits(0x7fa5a5a5)
	case *float64:
		*p = math.Float64frombits(0x7ff5a5a5a5a5a5a5)
	case *uint16:
		*p = 0xa5a5
	case *int32:
		*p = -0x5a5a5a5b
	case *int8:
		*p = -0x5b
	case *int16:
		*p = -0x5a5b
	case *int64:
		*p = -0x5a5a5a5a5a5a5a5b
	case *uint8:
		*p = 0xa5
	case *bool:
		*p = true
	}
	return z
}

// guarded is a slice of n elements inside a buffer with guard elements on
// each side, starting at element offset off of the buffer.
type guarded[T elem] struct {
	buf      []T
	off, n   int
	snapshot []T
}

func newGuarded[T elem](n, off int, fill func(i int) T) *guarded[T] {
	g := &guarded[T]{buf: make([]T, off+guard+n+guard), off: off, n: n}
	s := sentinel[T]()
	for i := range g.buf {
		g.buf[i] = s
	}
	for i := 0; i < n; i++ {
		g.buf[off+guard+i] = fill(i)
	}
	return g
}

// s is the slice under test, with capacity n so that nothing can reach the guard by append.
func (g *guarded[T]) s() []T { return g.buf[g.off+guard : g.off+guard+g.n : g.off+guard+g.n] }

func (g *guarded[T]) save() { g.snapshot = append([]T(nil), g.buf...) }

// checkGuards reports a change outside the slice (or anywhere, if whole).
func (g *guarded[T]) check(t *testing.T, what string, whole bool) {
	t.Helper()
	lo, hi := g.off+guard, g.off+guard+g.n
	for i := range g.buf {
		if !whole && i >= lo && i < hi {
			continue
		}
		if bitsOf(g.buf[i]) != bitsOf(g.snapshot[i]) {
			t.Fatalf("%s: element %d (slice is [%d,%d)) changed from %#x to %#x",
				what, i-lo, 0, g.n, bitsOf(g.snapshot[i]), bitsOf(g.buf[i]))
		}
	}
}

// ---------------------------------------------------------------------------
// Random data

var rng = rand.New(rand.NewSource(1))

var specials32 = []uint32{
	0x00000000, 0x80000000, // ±0
	0x7f800000, 0xff800000, // ±inf
	0x7fc00000, 0xffc00000, 0x7fc00001, 0x7fffffff, // quiet NaNs
	0x7f800001, 0xff800001, 0x7fa00000, 0x7fbfffff, 0x7f802000, // signalling NaNs
	0x00000001, 0x80000001, 0x007fffff, 0x00400000, // float32 subnormals
	0x00800000, 0x7f7fffff, 0xff7fffff, // min normal, max
	0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, // ±1 and neighbours
	0x477fe000,             // 65504, float16 max
	0x477fefff, 0x477ff000, // just below / at the float16 overflow tie (65520)
	0x477ff001, 0x47800000, // above: overflows to inf
	0x33800000, 0x33000000, 0x33000001, 0x32ffffff, // float16 min subnormal 2^-24, its half (tie to 0), around
	0x38800000, 0x387fc000, 0x387fe000, 0x387ff000, // float16 min normal and subnormal/normal boundary
	0x3f801000, 0x3f803000, 0x3f801001, 0x3f802fff, // float16 ties to even at 1
	0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, // bfloat16 ties at 1
	0x7f7f8000, 0x7f7f7fff, 0x7f7fffff, // bfloat16 overflow tie to inf
	0x4b800000, 0x4b800001, 0xcb800001, // 2^24 area
}

var specials64 = []uint64{
	0, 1 << 63,
	0x7ff0000000000000, 0xfff0000000000000,
	0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001, 0x7ff0000000000001, 0xfff4000000000000,
	0x0000000000000001, 0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
	0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001,
	0x3ff0000010000000, 0x3ff0000030000000, 0x3ff0000010000001, 0x3ff000000fffffff, // float32 ties at 1
	0x47efffffe0000000, 0x47efffffefffffff, 0x47effffff0000000, // float32 max, overflow tie
	0x36a0000000000000, 0x3690000000000000, 0x3690000000000001, // float32 min subnormal, its half
	0x380fffffe0000000, 0x3810000000000000, // float32 subnormal / normal boundary
}

func randF32() float32 {
	switch rng.Intn(10) {
	case 0:
		return math.Float32frombits(specials32[rng.Intn(len(specials32))])
	case 1:
		return math.Float32frombits(rng.Uint32())
	case 2:
		return float32(rng.NormFloat64() * 1e-6)
	default:
		return float32(rng.NormFloat64() * 100)
	}
}

func randF64() float64 {
	switch rng.Intn(10) {
	case 0:
		return math.Float64frombits(specials64[rng.Intn(len(specials64))])
	case 1:
		return math.Float64frombits(rng.Uint64())
	case 2:
		return float64(math.Float32frombits(specials32[rng.Intn(len(specials32))]))
	default:
		return rng.NormFloat64() * 100
	}
}

func randU16() uint16 { return uint16(rng.Uint32()) }

func randI32() int32 {
	switch rng.Intn(4) {
	case 0:
		return []int32{0, 1, -1, math.MaxInt32, math.MinInt32, 1<<24 + 1, 1<<24 + 3, -(1<<25 + 2)}[rng.Intn(8)]
	case 1:
		return int32(rng.Intn(1 << 20))
	default:
		return int32(rng.Uint32())
	}
}

func randBool() bool { return rng.Intn(2) == 0 }

// ---------------------------------------------------------------------------
// The driver

// same reports whether got and want match bit for bit. Where the result is
// NaN and more than one operand was NaN, x86 picks the payload of one of them
// depending on operand order, which the Go compiler may swap: then any NaN
// with the quiet bit set will do.
type sameFunc[D elem] func(got, want D, manyNaN bool) bool

func sameBits[D elem](got, want D, _ bool) bool { return bitsOf(got) == bitsOf(want) }

func sameF32(got, want float32, manyNaN bool) bool {
	if manyNaN && got != got && want != want {
		return true
	}
	return math.Float32bits(got) == math.Float32bits(want)
}

func sameF64(got, want float64, manyNaN bool) bool {
	if manyNaN && got != got && want != want {
		return true
	}
	return math.Float64bits(got) == math.Float64bits(want)
}

func isNaN[T elem](v T) bool {
	switch x := any(v).(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}

// run1 checks fn against twin for a primitive with one input slice (and
// possibly a scalar bound into the closures).
func run1[D, S elem](t *testing.T, name string, fn, twin func(dst []D, src []S), gen func() S, same sameFunc[D], scalarNaN bool) {
	t.Run(name, func(t *testing.T) {
		for _, n := range elementwiseLengths() {
			od, osrc := rng.Intn(8), rng.Intn(8)
			src := newGuarded(n, osrc, func(int) S { return gen() })
			dst := newGuarded(n, od, func(int) D { return sentinel[D]() })
			want := make([]D, n)
			twin(want, src.s())
			src.save()
			dst.save()
			fn(dst.s(), src.s())
			src.check(t, fmt.Sprintf("n=%d src", n), true)
			dst.check(t, fmt.Sprintf("n=%d dst", n), false)
			got := dst.s()
			for i := range got {
				many := scalarNaN && isNaN(src.s()[i])
				if !same(got[i], want[i], many) {
					t.Fatalf("n=%d offsets=%d,%d: [%d] in %#x: got %#x, want %#x",
						n, od, osrc, i, bitsOf(src.s()[i]), bitsOf(got[i]), bitsOf(want[i]))
				}
			}
			// in place when the element types agree
			if inPlace, ok := any(fn).(func(dst, src []D)); ok && n > 0 {
				buf := append([]D(nil), any(src.s()).([]D)...)
				inPlace(buf, buf)
				for i := range buf {
					many := scalarNaN && isNaN(src.s()[i])
					if !same(buf[i], want[i], many) {
						t.Fatalf("in place n=%d: [%d]: got %#x, want %#x", n, i, bitsOf(buf[i]), bitsOf(want[i]))
					}
				}
			}
		}
		// a short dst with longer inputs reads only len(dst) elements
		src := make([]S, 100)
		for i := range src {
			src[i] = gen()
		}
		dst := make([]D, 50)
		fn(dst, src)
		want := make([]D, 50)
		twin(want, src)
		for i := range dst {
			if !same(dst[i], want[i], true) {
				t.Fatalf("short dst: [%d]: got %#x, want %#x", i, bitsOf(dst[i]), bitsOf(want[i]))
			}
		}
	})
}

// run2 checks fn against twin for a primitive with two input slices (the
// first may be a condition).
func run2[D, A, B elem](t *testing.T, name string, fn, twin func(dst []D, a []A, b []B), genA func() A, genB func() B, same sameFunc[D]) {
	t.Run(name, func(t *testing.T) {
		for _, n := range elementwiseLengths() {
			od, oa, ob := rng.Intn(8), rng.Intn(8), rng.Intn(8)
			a := newGuarded(n, oa, func(int) A { return genA() })
			b := newGuarded(n, ob, func(int) B { return genB() })
			dst := newGuarded(n, od, func(int) D { return sentinel[D]() })
			want := make([]D, n)
			twin(want, a.s(), b.s())
			a.save()
			b.save()
			dst.save()
			fn(dst.s(), a.s(), b.s())
			a.check(t, fmt.Sprintf("n=%d a", n), true)
			b.check(t, fmt.Sprintf("n=%d b", n), true)
			dst.check(t, fmt.Sprintf("n=%d dst", n), false)
			got := dst.s()
			for i := range got {
				many := isNaN(a.s()[i]) && isNaN(b.s()[i])
				if !same(got[i], want[i], many) {
					t.Fatalf("n=%d offsets=%d,%d,%d: [%d] in %#x, %#x: got %#x, want %#x",
						n, od, oa, ob, i, bitsOf(a.s()[i]), bitsOf(b.s()[i]), bitsOf(got[i]), bitsOf(want[i]))
				}
			}
			// in place: dst is a, then dst is b
			if inPlace, ok := any(fn).(func(dst, a, b []D)); ok && n > 0 {
				for k := 0; k < 2; k++ {
					x := append([]D(nil), any(a.s()).([]D)...)
					y := append([]D(nil), any(b.s()).([]D)...)
					d := x
					if k == 1 {
						d = y
					}
					inPlace(d, x, y)
					for i := range d {
						many := isNaN(a.s()[i]) && isNaN(b.s()[i])
						if !same(d[i], want[i], many) {
							t.Fatalf("in place (%d) n=%d: [%d]: got %#x, want %#x", k, n, i, bitsOf(d[i]), bitsOf(want[i]))
						}
					}
				}
			}
		}
	})
}

func TestArithF32(t *testing.T) {
	type bin = func(dst, a, b []float32)
	for _, c := range []struct {
		name     string
		fn, twin bin
	}{
		{"AddF32", AddF32, addF32Go}, {"SubF32", SubF32, subF32Go},
		{"MulF32", MulF32, mulF32Go}, {"DivF32", DivF32, divF32Go},
	} {
		run2(t, c.name, c.fn, c.twin, randF32, randF32, sameF32)
	}
	type sc = func(dst, a []float32, s float32)
	for _, c := range []struct {
		name     string
		fn, twin sc
	}{
		{"AddScalarF32", AddScalarF32, addScalarF32Go}, {"SubScalarF32", SubScalarF32, subScalarF32Go},
		{"MulScalarF32", MulScalarF32, mulScalarF32Go}, {"DivScalarF32", DivScalarF32, divScalarF32Go},
		{"ScalarSubF32", ScalarSubF32, scalarSubF32Go}, {"ScalarDivF32", ScalarDivF32, scalarDivF32Go},
	} {
		for _, s := range []float32{3.5, -0.1, 0, float32(math.Inf(-1)), math.Float32frombits(0x7fc01234), math.Float32frombits(1), randF32()} {
			s := s
			run1(t, fmt.Sprintf("%s/%#x", c.name, math.Float32bits(s)),
				func(d, a []float32) { c.fn(d, a, s) }, func(d, a []float32) { c.twin(d, a, s) },
				randF32, sameF32, s != s)
		}
	}
	for _, alpha := range []float32{1, -1, 0.3, 2.5e-5, float32(math.Inf(1)), math.Float32frombits(0x7fc00321), randF32()} {
		alpha := alpha
		run2(t, fmt.Sprintf("AxpyF32/%#x", math.Float32bits(alpha)),
			func(d, a, b []float32) { AxpyF32(d, a, b, alpha) }, func(d, a, b []float32) { axpyF32Go(d, a, b, alpha) },
			randF32, randF32, func(got, want float32, many bool) bool { return sameF32(got, want, many || alpha != alpha) })
	}
}

func TestArithF64(t *testing.T) {
	type bin = func(dst, a, b []float64)
	for _, c := range []struct {
		name     string
		fn, twin bin
	}{
		{"AddF64", AddF64, addF64Go}, {"SubF64", SubF64, subF64Go},
		{"MulF64", MulF64, mulF64Go}, {"DivF64", DivF64, divF64Go},
	} {
		run2(t, c.name, c.fn, c.twin, randF64, randF64, sameF64)
	}
	type sc = func(dst, a []float64, s float64)
	for _, c := range []struct {
		name     string
		fn, twin sc
	}{
		{"AddScalarF64", AddScalarF64, addScalarF64Go}, {"SubScalarF64", SubScalarF64, subScalarF64Go},
		{"MulScalarF64", MulScalarF64, mulScalarF64Go}, {"DivScalarF64", DivScalarF64, divScalarF64Go},
		{"ScalarSubF64", ScalarSubF64, scalarSubF64Go}, {"ScalarDivF64", ScalarDivF64, scalarDivF64Go},
	} {
		for _, s := range []float64{3.5, -0.1, 0, math.Inf(-1), math.Float64frombits(0x7ff8000000001234), math.Float64frombits(1), randF64()} {
			s := s
			run1(t, fmt.Sprintf("%s/%#x", c.name, math.Float64bits(s)),
				func(d, a []float64) { c.fn(d, a, s) }, func(d, a []float64) { c.twin(d, a, s) },
				randF64, sameF64, s != s)
		}
	}
	for _, alpha := range []float64{1, -1, 0.3, 2.5e-5, math.Inf(1), math.NaN(), randF64()} {
		alpha := alpha
		run2(t, fmt.Sprintf("AxpyF64/%#x", math.Float64bits(alpha)),
			func(d, a, b []float64) { AxpyF64(d, a, b, alpha) }, func(d, a, b []float64) { axpyF64Go(d, a, b, alpha) },
			randF64, randF64, func(got, want float64, many bool) bool { return sameF64(got, want, many || alpha != alpha) })
	}
}

func TestConversions(t *testing.T) {
	run1(t, "F32ToF16", F32ToF16, f32ToF16Go, randF32, sameBits[uint16], false)
	run1(t, "F16ToF32", F16ToF32, f16ToF32Go, randU16, sameBits[float32], false)
	run1(t, "F32ToBF16", F32ToBF16, f32ToBF16Go, randF32, sameBits[uint16], false)
	run1(t, "BF16ToF32", BF16ToF32, bf16ToF32Go, randU16, sameBits[float32], false)
	run1(t, "I32ToF32", I32ToF32, i32ToF32Go, randI32, sameBits[float32], false)
	run1(t, "F32ToF64", F32ToF64, f32ToF64Go, randF32, sameBits[float64], false)
	run1(t, "F64ToF32", F64ToF32, f64ToF32Go, randF64, sameBits[float32], false)
}

// TestHalfAll converts every float16 and bfloat16 bit pattern, and the
// float32s at, around and halfway between all of them, and checks the
// results against package dtype.
func TestHalfAll(t *testing.T) {
	h := make([]uint16, 1<<16)
	for i := range h {
		h[i] = uint16(i)
	}
	f := make([]float32, len(h))
	F16ToF32(f, h)
	for i, v := range h {
		if want := dtype.Half(v).Float32(); math.Float32bits(f[i]) != math.Float32bits(want) {
			t.Fatalf("F16ToF32(%#04x) = %#08x, want %#08x", v, math.Float32bits(f[i]), math.Float32bits(want))
		}
	}
	BF16ToF32(f, h)
	for i, v := range h {
		if want := dtype.BF16(v).Float32(); math.Float32bits(f[i]) != math.Float32bits(want) {
			t.Fatalf("BF16ToF32(%#04x) = %#08x, want %#08x", v, math.Float32bits(f[i]), math.Float32bits(want))
		}
	}

	// float32 inputs: each half value, the midpoints to its successor, ±1 ulp.
	var in []float32
	for i := 0; i < 1<<16; i++ {
		x := math.Float32bits(dtype.Half(i).Float32())
		y := math.Float32bits(dtype.Half(i + 1).Float32())
		if i&0x7fff >= 0x7c00 || i&0x7fff == 0x7bff {
			y = x + 1<<13 // beyond the max finite half: the overflow tie
		}
		m := math.Float32bits((math.Float32frombits(x) + math.Float32frombits(y)) / 2)
		if i&0x7fff >= 0x7c00 {
			m = x
		}
		for _, b := range []uint32{x, x + 1, x - 1, m, m + 1, m - 1} {
			in = append(in, math.Float32frombits(b))
		}
		// bfloat16 neighbourhood
		bf := uint32(i) << 16
		for _, b := range []uint32{bf, bf + 0x8000, bf + 0x7fff, bf + 0x8001, bf + 1, bf - 1, bf + 0xffff} {
			in = append(in, math.Float32frombits(b))
		}
	}
	for _, b := range specials32 {
		in = append(in, math.Float32frombits(b))
	}
	for i := 0; i < 1<<20; i++ {
		in = append(in, math.Float32frombits(rng.Uint32()))
	}
	checkF32ToHalf(t, in)
}

func checkF32ToHalf(t *testing.T, in []float32) {
	t.Helper()
	out := make([]uint16, len(in))
	F32ToF16(out, in)
	for i, x := range in {
		if want := uint16(dtype.HalfFromFloat32(x)); out[i] != want {
			t.Fatalf("F32ToF16(%#08x) = %#04x, want %#04x", math.Float32bits(x), out[i], want)
		}
	}
	F32ToBF16(out, in)
	for i, x := range in {
		if want := uint16(dtype.BF16FromFloat32(x)); out[i] != want {
			t.Fatalf("F32ToBF16(%#08x) = %#04x, want %#04x", math.Float32bits(x), out[i], want)
		}
	}
}

// TestHalfExhaustive converts all 2^32 float32s; set VEC_EXHAUSTIVE=1.
func TestHalfExhaustive(t *testing.T) {
	if os.Getenv("VEC_EXHAUSTIVE") == "" {
		t.Skip("set VEC_EXHAUSTIVE=1 to convert all 2^32 float32s")
	}
	in := make([]float32, 1<<24)
	for hi := uint32(0); hi < 1<<8; hi++ {
		for i := range in {
			in[i] = math.Float32frombits(hi<<24 | uint32(i))
		}
		checkF32ToHalf(t, in)
	}
}

// fmaRef is x*y + z rounded once to float32, computed exactly with math/big.
func fmaRef(x, y, z float32) float32 {
	if math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) || math.IsInf(float64(z), 0) ||
		x != x || y != y || z != z {
		return float32(float64(x)*float64(y) + float64(z))
	}
	bx, by, bz := big.NewFloat(float64(x)), big.NewFloat(float64(y)), big.NewFloat(float64(z))
	p := new(big.Float).SetPrec(200).Mul(bx, by)
	s := new(big.Float).SetPrec(200).Add(p, bz)
	if s.Sign() == 0 {
		// exact zero: its sign follows IEEE rules, as the float64 sum's does
		return float32(float64(x)*float64(y) + float64(z))
	}
	r, _ := s.Float32() // nearest even, with subnormals and overflow to inf
	return r
}

// TestFMAF32 checks the twin's single-rounding float32 FMA against an exact
// reference, including the cases where rounding through float64 would be
// wrong.
func TestFMAF32(t *testing.T) {
	check := func(x, y, z float32) {
		t.Helper()
		got, want := fmaF32(x, y, z), fmaRef(x, y, z)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fmaF32(%g, %g, %g) = %#08x, want %#08x", x, y, z, math.Float32bits(got), math.Float32bits(want))
		}
	}
	// (1+2^-12)^2 = 1 + 2^-11 + 2^-24: a float32 tie after the product; a tiny
	// z decides it, and rounding through float64 loses z.
	u := float32(1 + 1.0/4096)
	for _, z := range []float32{0, 1e-30, -1e-30, math.Float32frombits(1), -math.Float32frombits(1)} {
		check(u, u, z)
		check(-u, u, -z)
	}
	doubleRoundingWrong := 0
	for i := 0; i < 2_000_000; i++ {
		var x, y, z float32
		switch i % 4 {
		case 0:
			x, y, z = randF32(), randF32(), randF32()
		case 1: // products near ties with small addends
			x = float32(1 + float64(rng.Intn(1<<12))/(1<<12))
			y = float32(1 + float64(rng.Intn(1<<12))/(1<<12))
			z = math.Float32frombits(rng.Uint32() & 0x9fffffff)
		case 2: // cancellation
			x, y = randF32(), randF32()
			z = -x * y
			z = math.Float32frombits(math.Float32bits(z) + uint32(rng.Intn(3)) - 1)
		default: // subnormal results
			x = math.Float32frombits(rng.Uint32()&0x807fffff | 0x1f800000)
			y = math.Float32frombits(rng.Uint32()&0x807fffff | 0x1f800000)
			z = math.Float32frombits(rng.Uint32() & 0x80ffffff)
		}
		check(x, y, z)
		if a, b := float32(math.FMA(float64(x), float64(y), float64(z))), fmaRef(x, y, z); math.Float32bits(a) != math.Float32bits(b) && a == a {
			doubleRoundingWrong++
		}
	}
	t.Logf("float32(math.FMA(float64...)) was off in %d of 2M cases", doubleRoundingWrong)
}

// ---------------------------------------------------------------------------
// Benchmarks: bytes are all bytes read and written.

var benchSizes = []struct {
	name string
	n    int
}{{"16", 16}, {"16K", 16 << 10}, {"16M", 16 << 20}}

func BenchmarkAddF32(b *testing.B) {
	for _, sz := range benchSizes {
		x, y, d := make([]float32, sz.n), make([]float32, sz.n), make([]float32, sz.n)
		for i := range x {
			x[i], y[i] = float32(i), float32(2*i)
		}
		for _, impl := range []struct {
			name string
			fn   func(d, a, b []float32)
		}{{"asm", AddF32}, {"twin", addF32Go}} {
			b.Run(impl.name+"/"+sz.name, func(b *testing.B) {
				b.SetBytes(int64(12 * sz.n))
				for i := 0; i < b.N; i++ {
					impl.fn(d, x, y)
				}
			})
		}
	}
}

func BenchmarkAxpyF32(b *testing.B) {
	for _, sz := range benchSizes {
		x, y, d := make([]float32, sz.n), make([]float32, sz.n), make([]float32, sz.n)
		for _, impl := range []struct {
			name string
			fn   func(d, a, b []float32, alpha float32)
		}{{"asm", AxpyF32}, {"twin", axpyF32Go}} {
			b.Run(impl.name+"/"+sz.name, func(b *testing.B) {
				b.SetBytes(int64(12 * sz.n))
				for i := 0; i < b.N; i++ {
					impl.fn(d, x, y, 0.5)
				}
			})
		}
	}
}

func benchConv[D, S elem](b *testing.B, fn, twin func(d []D, s []S), fill func(i int) S, bytes int) {
	for _, sz := range benchSizes {
		src, dst := make([]S, sz.n), make([]D, sz.n)
		for i := range src {
			src[i] = fill(i)
		}
		for _, impl := range []struct {
			name string
			fn   func(d []D, s []S)
		}{{"asm", fn}, {"twin", twin}} {
			b.Run(impl.name+"/"+sz.name, func(b *testing.B) {
				b.SetBytes(int64(bytes * sz.n))
				for i := 0; i < b.N; i++ {
					impl.fn(dst, src)
				}
			})
		}
	}
}

func f32Fill(i int) float32 { return float32(i)*0.37 - 1000 }
func u16Fill(i int) uint16  { return uint16(i*7919) & 0x7bff }

func BenchmarkF32ToF16(b *testing.B)  { benchConv(b, F32ToF16, f32ToF16Go, f32Fill, 6) }
func BenchmarkF16ToF32(b *testing.B)  { benchConv(b, F16ToF32, f16ToF32Go, u16Fill, 6) }
func BenchmarkF32ToBF16(b *testing.B) { benchConv(b, F32ToBF16, f32ToBF16Go, f32Fill, 6) }
func BenchmarkBF16ToF32(b *testing.B) { benchConv(b, BF16ToF32, bf16ToF32Go, u16Fill, 6) }
