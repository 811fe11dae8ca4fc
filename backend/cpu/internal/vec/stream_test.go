package vec

import (
	"fmt"
	"math"
	"testing"
	"unsafe"
)

// Every XStream primitive against X, bit for bit (Note [Non-temporal
// stores]): every length up to 200 and some large ones, dst and the first
// input at every element offset 0..7 from a 32-byte boundary (the peel
// runs 0..7 elements), in place, with guard bands around dst and inputs
// that must not change. X itself is checked against its twin by the tests
// of vec_test.go and unary_test.go.

// ternary is every primitive under test, as dst = f(a, b): scalar and
// unary ones ignore b (the scalar or alpha is bound into the closure).
type ternary[T float32 | float64] func(dst, a, b []T)

type streamCase[T float32 | float64] struct {
	name          string
	plain, stream ternary[T]
	nin           int // slice inputs: 1 or 2
	gen           func() T
}

func bin[T float32 | float64](name string, plain, stream func(dst, a, b []T), gen func() T) streamCase[T] {
	return streamCase[T]{name, plain, stream, 2, gen}
}

func scal[T float32 | float64](name string, plain, stream func(dst, a []T, s T), s T, gen func() T) streamCase[T] {
	return streamCase[T]{name,
		func(d, a, _ []T) { plain(d, a, s) }, func(d, a, _ []T) { stream(d, a, s) }, 1, gen}
}

func axpyCase[T float32 | float64](name string, plain, stream func(dst, a, b []T, alpha T), alpha T, gen func() T) streamCase[T] {
	return streamCase[T]{name,
		func(d, a, b []T) { plain(d, a, b, alpha) }, func(d, a, b []T) { stream(d, a, b, alpha) }, 2, gen}
}

func un(name string, plain, stream func(dst, x []float32)) streamCase[float32] {
	return streamCase[float32]{name,
		func(d, a, _ []float32) { plain(d, a) }, func(d, a, _ []float32) { stream(d, a) }, 1, unaryInput}
}

func streamCasesF32() []streamCase[float32] {
	s, alpha := float32(-0.37), float32(2.5)
	return []streamCase[float32]{
		bin("AddF32", AddF32, AddF32Stream, randF32), bin("SubF32", SubF32, SubF32Stream, randF32),
		bin("MulF32", MulF32, MulF32Stream, randF32), bin("DivF32", DivF32, DivF32Stream, randF32),
		scal("AddScalarF32", AddScalarF32, AddScalarF32Stream, s, randF32),
		scal("SubScalarF32", SubScalarF32, SubScalarF32Stream, s, randF32),
		scal("MulScalarF32", MulScalarF32, MulScalarF32Stream, s, randF32),
		scal("DivScalarF32", DivScalarF32, DivScalarF32Stream, s, randF32),
		scal("ScalarSubF32", ScalarSubF32, ScalarSubF32Stream, s, randF32),
		scal("ScalarDivF32", ScalarDivF32, ScalarDivF32Stream, s, randF32),
		scal("MulScalarF32/NaN", MulScalarF32, MulScalarF32Stream, math.Float32frombits(0x7fc01234), randF32),
		axpyCase("AxpyF32", AxpyF32, AxpyF32Stream, alpha, randF32),
		un("ExpF32", ExpF32, ExpF32Stream), un("TanhF32", TanhF32, TanhF32Stream),
		un("SigmoidF32", SigmoidF32, SigmoidF32Stream), un("GeluF32", GeluF32, GeluF32Stream),
	}
}

func streamCasesF64() []streamCase[float64] {
	s, alpha := -0.37, 2.5
	return []streamCase[float64]{
		bin("AddF64", AddF64, AddF64Stream, randF64), bin("SubF64", SubF64, SubF64Stream, randF64),
		bin("MulF64", MulF64, MulF64Stream, randF64), bin("DivF64", DivF64, DivF64Stream, randF64),
		scal("AddScalarF64", AddScalarF64, AddScalarF64Stream, s, randF64),
		scal("SubScalarF64", SubScalarF64, SubScalarF64Stream, s, randF64),
		scal("MulScalarF64", MulScalarF64, MulScalarF64Stream, s, randF64),
		scal("DivScalarF64", DivScalarF64, DivScalarF64Stream, s, randF64),
		scal("ScalarSubF64", ScalarSubF64, ScalarSubF64Stream, s, randF64),
		scal("ScalarDivF64", ScalarDivF64, ScalarDivF64Stream, s, randF64),
		axpyCase("AxpyF64", AxpyF64, AxpyF64Stream, alpha, randF64),
		{"ExpF64", func(d, a, _ []float64) { ExpF64(d, a) }, func(d, a, _ []float64) { ExpF64Stream(d, a) }, 1, unaryInput64},
	}
}

func TestStreamF32(t *testing.T) {
	for _, c := range streamCasesF32() {
		checkStream(t, c)
	}
}

func TestStreamF64(t *testing.T) {
	for _, c := range streamCasesF64() {
		checkStream(t, c)
	}
}

// alignedGuarded is newGuarded with the slice's first element off
// elements past a 32-byte boundary.
func alignedGuarded[T float32 | float64](n, off int, fill func(i int) T) *guarded[T] {
	var z T
	es := int(unsafe.Sizeof(z))
	g := newGuarded(n, 32/es+off, fill)
	at := int(uintptr(unsafe.Pointer(&g.buf[guard])))
	shift := (32 - at%32) % 32 / es
	// slide the contents so that the slice starts at shift+off
	s := sentinel[T]()
	copy(g.buf[shift+off+guard:], g.buf[g.off+guard:g.off+guard+n])
	for i := range g.buf {
		if i < shift+off+guard || i >= shift+off+guard+n {
			g.buf[i] = s
		}
	}
	g.off = shift + off
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(g.s()))); n > 0 && int(a%32) != off*es%32 {
		panic(fmt.Sprintf("alignedGuarded: address %#x, want offset %d", a, off))
	}
	return g
}

func streamLengths() []int {
	var ns []int
	for n := 0; n <= 200; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 255, 256, 257, 1000, 4096+7, 65536+13)
	if !testing.Short() {
		ns = append(ns, 1<<20+5)
	}
	return ns
}

func checkStream[T float32 | float64](t *testing.T, c streamCase[T]) {
	t.Run(c.name, func(t *testing.T) {
		for _, n := range streamLengths() {
			// every (dst, a) offset pair for short lengths, a few for long
			var offs [][2]int
			if n <= 256 {
				for od := 0; od < 8; od++ {
					for oa := 0; oa < 8; oa++ {
						offs = append(offs, [2]int{od, oa})
					}
				}
			} else {
				for k := 0; k < max(1, 4-n>>14); k++ {
					offs = append(offs, [2]int{rng.Intn(8), rng.Intn(8)})
				}
			}
			for _, o := range offs {
				checkStream1(t, c, n, o[0], o[1], rng.Intn(8))
			}
		}
	})
}

// checkStream1 runs c.stream on n elements, dst at element offset od from
// a 32-byte boundary, a at oa and b at ob, out of place and in place.
func checkStream1[T float32 | float64](t *testing.T, c streamCase[T], n, od, oa, ob int) {
	t.Helper()
	a := alignedGuarded(n, oa, func(int) T { return c.gen() })
	b := alignedGuarded(n, ob, func(int) T { return c.gen() })
	dst := alignedGuarded(n, od, func(int) T { return sentinel[T]() })
	want := make([]T, n)
	c.plain(want, a.s(), b.s())
	a.save()
	b.save()
	dst.save()
	c.stream(dst.s(), a.s(), b.s())
	where := fmt.Sprintf("n=%d offsets dst=%d a=%d b=%d", n, od, oa, ob)
	a.check(t, where+": a", true)
	b.check(t, where+": b", true)
	dst.check(t, where+": dst", false)
	sameAll(t, where, dst.s(), want)

	// in place: dst is a (at dst's offset), then dst is b
	for k := 0; k < c.nin; k++ {
		x := alignedGuarded(n, od, func(i int) T { return a.s()[i] })
		y := b
		if k == 1 {
			x, y = a, alignedGuarded(n, od, func(i int) T { return b.s()[i] })
		}
		x.save()
		y.save()
		d := x
		if k == 1 {
			d = y
		}
		c.stream(d.s(), x.s(), y.s())
		d.check(t, fmt.Sprintf("in place (%d) %s", k, where), false)
		sameAll(t, fmt.Sprintf("in place (%d) %s", k, where), d.s(), want)
	}
}

func sameAll[T float32 | float64](t *testing.T, where string, got, want []T) {
	t.Helper()
	for i := range got {
		if bitsOf(got[i]) != bitsOf(want[i]) {
			t.Fatalf("%s: [%d]: got %#x, want %#x", where, i, bitsOf(got[i]), bitsOf(want[i]))
		}
	}
}

// BenchmarkStream times the plain and streaming forms of two primitives on
// cached and uncached sizes (bytes: all read and written).
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{1 << 12, 1 << 16, 1 << 24} {
		x, y, d := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i%1009), float32(i%997)
		}
		for _, c := range []struct {
			name string
			fn   func()
			rw   int
		}{
			{"AddF32", func() { AddF32(d, x, y) }, 3},
			{"AddF32Stream", func() { AddF32Stream(d, x, y) }, 3},
			{"MulScalarF32", func() { MulScalarF32(d, x, 2.5) }, 2},
			{"MulScalarF32Stream", func() { MulScalarF32Stream(d, x, 2.5) }, 2},
		} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(4 * c.rw * n))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					c.fn()
				}
			})
		}
	}
}

// unaryInput64 is unaryInput for float64: its values, any bits, and
// values around exp's overflow and underflow thresholds.
func unaryInput64() float64 {
	switch rng.Intn(6) {
	case 0:
		return math.Float64frombits(rng.Uint64())
	case 1:
		return rng.NormFloat64() * 750
	}
	return float64(unaryInput())
}
