package vec

import (
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// The reduction primitives against their twins, bit for bit, on guarded
// slices (inputs must not change, nothing outside dst may change).

func anyNaN32(x []float32) bool {
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false
}

func anyNaN64(x []float64) bool {
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false
}

func TestFoldsF32(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return randF32() })
		x.save()
		nan := anyNaN32(x.s())
		if g, w := SumF32(x.s()), sumF32Go(x.s()); !sameF32(g, w, nan) {
			t.Fatalf("SumF32 n=%d: got %#x, want %#x", n, math.Float32bits(g), math.Float32bits(w))
		}
		for _, f := range []struct {
			name     string
			fn, twin func([]float32) (float32, bool)
		}{{"MaxF32", MaxF32, maxF32Go}, {"MinF32", MinF32, minF32Go}} {
			g, gn := f.fn(x.s())
			w, wn := f.twin(x.s())
			if math.Float32bits(g) != math.Float32bits(w) || gn != wn || gn != nan {
				t.Fatalf("%s n=%d: got %v %v, want %v %v (nan %v)", f.name, n, g, gn, w, wn, nan)
			}
		}
		if g, w := SumF32F64(x.s(), n%2 == 0), sumStreamsF32F64Go(x.s()); !sameF64(g, w, nan) {
			t.Fatalf("SumF32F64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		if g, w := SumSqF32F64(x.s(), n%2 == 1), sumSqStreamsF32F64Go(x.s()); !sameF64(g, w, nan) {
			t.Fatalf("SumSqF32F64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		if g, w := SumSqDevF32(x.s(), 1.5), sumSqDevF32Go(x.s(), 1.5); !sameF32(g, w, nan) {
			t.Fatalf("SumSqDevF32 n=%d: got %#x, want %#x", n, math.Float32bits(g), math.Float32bits(w))
		}
		if g, w := SumF32InF64(x.s()), sumF32InF64Go(x.s()); !sameF64(g, w, nan) {
			t.Fatalf("SumF32InF64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		if g, w := SumSqDevF32InF64(x.s(), 1.5), sumSqDevF32InF64Go(x.s(), 1.5); !sameF64(g, w, nan) {
			t.Fatalf("SumSqDevF32InF64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		x.check(t, fmt.Sprintf("n=%d x", n), true)
	}
}

func TestFoldsF64(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float64 { return randF64() })
		x.save()
		nan := anyNaN64(x.s())
		if g, w := SumF64(x.s()), sumF64Go(x.s()); !sameF64(g, w, nan) {
			t.Fatalf("SumF64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		if g, w := SumSqDevF64(x.s(), 1.5), sumSqDevF64Go(x.s(), 1.5); !sameF64(g, w, nan) {
			t.Fatalf("SumSqDevF64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		for _, f := range []struct {
			name     string
			fn, twin func([]float64) (float64, bool)
		}{{"MaxF64", MaxF64, maxF64Go}, {"MinF64", MinF64, minF64Go}} {
			g, gn := f.fn(x.s())
			w, wn := f.twin(x.s())
			if math.Float64bits(g) != math.Float64bits(w) || gn != wn || gn != nan {
				t.Fatalf("%s n=%d: got %v %v, want %v %v (nan %v)", f.name, n, g, gn, w, wn, nan)
			}
		}
		x.check(t, fmt.Sprintf("n=%d x", n), true)
	}
}

// softmaxInput is a row whose max is finite: normal values, some far
// below the max, -Inf.
func softmaxInput() float32 {
	switch rng.Intn(20) {
	case 0:
		return float32(math.Inf(-1))
	case 1:
		return float32(-rng.Float64() * 300)
	case 2:
		return math.Float32frombits(specials32[rng.Intn(17)]) // zeros, infinities, NaNs, subnormals
	}
	return float32(rng.NormFloat64() * 20)
}

func TestExpSubSumF32(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return softmaxInput() })
		dst := newGuarded(n, rng.Intn(8), func(int) float32 { return sentinel[float32]() })
		m, _ := maxF32Go(x.s())
		if math.IsInf(float64(m), 0) {
			m = 0
		}
		want := make([]float32, n)
		ws := expSubSumF32Go(want, x.s(), m)
		x.save()
		dst.save()
		gs := ExpSubSumF32(dst.s(), x.s(), m)
		x.check(t, fmt.Sprintf("n=%d x", n), true)
		dst.check(t, fmt.Sprintf("n=%d dst", n), false)
		for i, g := range dst.s() {
			if math.Float32bits(g) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d [%d] exp(%v - %v): got %v, want %v", n, i, x.s()[i], m, g, want[i])
			}
		}
		if math.Float32bits(gs) != math.Float32bits(ws) {
			t.Fatalf("n=%d sum: got %v, want %v", n, gs, ws)
		}
	}
}

func TestNormAffineF32(t *testing.T) {
	for _, n := range testLengths() {
		gen := func(int) float32 { return randF32() }
		x, w, b := newGuarded(n, rng.Intn(8), gen), newGuarded(n, rng.Intn(8), gen), newGuarded(n, rng.Intn(8), gen)
		dst := newGuarded(n, rng.Intn(8), func(int) float32 { return sentinel[float32]() })
		want := make([]float32, n)
		normAffineF32Go(want, x.s(), w.s(), b.s(), 0.25, 3)
		for _, g := range []*guarded[float32]{x, w, b, dst} {
			g.save()
		}
		NormAffineF32(dst.s(), x.s(), w.s(), b.s(), 0.25, 3)
		for _, g := range []*guarded[float32]{x, w, b} {
			g.check(t, fmt.Sprintf("n=%d input", n), true)
		}
		dst.check(t, fmt.Sprintf("n=%d dst", n), false)
		for i, g := range dst.s() {
			many := isNaN(x.s()[i]) || isNaN(w.s()[i]) || isNaN(b.s()[i])
			if !sameF32(g, want[i], many) {
				t.Fatalf("n=%d [%d]: got %#x, want %#x", n, i, math.Float32bits(g), math.Float32bits(want[i]))
			}
		}
	}
}

// TestExp32Accuracy checks exp32 against math.Exp over its whole range.
func TestExp32Accuracy(t *testing.T) {
	worst := 0.0
	for v := float64(expLo); v <= 88; v += 0.00137 {
		x := float32(v)
		got, want := float64(exp32(x)), math.Exp(float64(x))
		ulp := float64(math.Nextafter32(float32(want), float32(math.Inf(1)))) - float64(float32(want))
		if e := math.Abs(got-want) / ulp; e > worst {
			worst = e
		}
	}
	if worst > 2 {
		t.Errorf("exp32: worst error %.2f ulp, want at most 2", worst)
	}
	for _, x := range []float32{expLo - 0.01, float32(math.Inf(-1)), float32(math.NaN())} {
		if g := exp32(x); g != 0 {
			t.Errorf("exp32(%v) = %v, want 0", x, g)
		}
	}
}

func BenchmarkSumF32(b *testing.B) {
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i)
	}
	b.SetBytes(4 * 4096)
	for i := 0; i < b.N; i++ {
		SumF32(x)
	}
}

func BenchmarkExpSubSumF32(b *testing.B) {
	x, dst := make([]float32, 4096), make([]float32, 4096)
	for i := range x {
		x[i] = -float32(i) / 100
	}
	b.SetBytes(8 * 4096)
	for i := 0; i < b.N; i++ {
		ExpSubSumF32(dst, x, 0)
	}
}

func TestAccF32F64(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return randF32() })
		dst := newGuarded(n, rng.Intn(8), func(int) float64 { return randF64() })
		want := append([]float64(nil), dst.s()...)
		accF32F64Go(want, x.s())
		x.save()
		dst.save()
		AccF32F64(dst.s(), x.s())
		x.check(t, fmt.Sprintf("n=%d x", n), true)
		dst.check(t, fmt.Sprintf("n=%d dst", n), false)
		for i, g := range dst.s() {
			if !sameF64(g, want[i], true) {
				t.Fatalf("n=%d [%d]: got %#x, want %#x", n, i, math.Float64bits(g), math.Float64bits(want[i]))
			}
		}
	}
}

func TestRows8F32(t *testing.T) {
	for _, acc := range []bool{false, true} {
		kernel, twin := SumRows8F32, sumRows8F32Go
		if acc {
			kernel, twin = AccRows8F32, accRows8F32Go
		}
		for _, n := range testLengths() {
			gen := func(int) float32 { return randF32() }
			var xs [8]*guarded[float32]
			for k := range xs {
				xs[k] = newGuarded(n, rng.Intn(8), gen)
			}
			x := func(k int) []float32 { return xs[k].s() }
			dst := newGuarded(n, rng.Intn(8), gen)
			want := append([]float32(nil), dst.s()...)
			twin(want, x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
			for _, x := range xs {
				x.save()
			}
			dst.save()
			kernel(dst.s(), x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
			for _, x := range xs {
				x.check(t, fmt.Sprintf("acc=%v n=%d x", acc, n), true)
			}
			dst.check(t, fmt.Sprintf("acc=%v n=%d dst", acc, n), false)
			for i, g := range dst.s() {
				if !sameF32(g, want[i], true) {
					t.Fatalf("acc=%v n=%d [%d]: got %#x, want %#x", acc, n, i, math.Float32bits(g), math.Float32bits(want[i]))
				}
			}
		}
	}
}

// TestRows8Of16 checks the outer sums of eight bfloat16 and float16 rows
// bit for bit against their twins, which are SumRows8F32's and
// AccRows8F32's loops over the converted rows (checked here too).
func TestRows8Of16(t *testing.T) {
	type kernel func(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []uint16)
	moderateHalf := func() uint16 { return uint16(dtype.HalfFromFloat32(float32(rng.NormFloat64() * 8))) }
	for _, c := range []struct {
		name         string
		kernel, twin kernel
		acc          bool
		gen          func() uint16
		conv         func(uint16) float32
	}{
		{"SumRows8BF16", SumRows8BF16, sumRows8BF16Go, false, randBF16, f32Of},
		{"AccRows8BF16", AccRows8BF16, accRows8BF16Go, true, randBF16, f32Of},
		{"SumRows8F16", SumRows8F16, sumRows8F16Go, false, func() uint16 { return pick(randU16, moderateHalf) }, f32OfF16},
		{"AccRows8F16", AccRows8F16, accRows8F16Go, true, func() uint16 { return pick(randU16, moderateHalf) }, f32OfF16},
	} {
		for _, n := range elementwiseLengths() { // each element on its own, as elementwise kernels
			var xs [8]*guarded[uint16]
			var conv [8][]float32
			for k := range xs {
				xs[k] = newGuarded(n, rng.Intn(8), func(int) uint16 { return c.gen() })
				for _, v := range xs[k].s() {
					conv[k] = append(conv[k], c.conv(v))
				}
			}
			x := func(k int) []uint16 { return xs[k].s() }
			dst := newGuarded(n, rng.Intn(8), func(int) float32 { return randF32() })
			want := append([]float32(nil), dst.s()...)
			c.twin(want, x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
			viaF32 := append([]float32(nil), dst.s()...)
			rows8 := sumRows8F32Go
			if c.acc {
				rows8 = accRows8F32Go
			}
			rows8(viaF32, conv[0], conv[1], conv[2], conv[3], conv[4], conv[5], conv[6], conv[7])
			for _, x := range xs {
				x.save()
			}
			dst.save()
			c.kernel(dst.s(), x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
			for _, x := range xs {
				x.check(t, fmt.Sprintf("%s n=%d x", c.name, n), true)
			}
			dst.check(t, fmt.Sprintf("%s n=%d dst", c.name, n), false)
			for i, g := range dst.s() {
				if !sameF32(g, want[i], true) || !sameF32(viaF32[i], want[i], true) {
					t.Fatalf("%s n=%d [%d]: got %#x, twin %#x, float32 rows %#x", c.name, n, i, math.Float32bits(g), math.Float32bits(want[i]), math.Float32bits(viaF32[i]))
				}
			}
		}
	}
}

// pick returns a() or b(), at random.
func pick(a, b func() uint16) uint16 {
	if rng.Intn(2) == 0 {
		return a()
	}
	return b()
}

func TestCumAccF32F64(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return randF32() })
		acc := newGuarded(n, rng.Intn(8), func(int) float64 { return randF64() })
		y := newGuarded(n, rng.Intn(8), func(int) float32 { return sentinel[float32]() })
		wantAcc, wantY := append([]float64(nil), acc.s()...), make([]float32, n)
		cumAccF32F64Go(wantAcc, x.s(), wantY)
		x.save()
		acc.save()
		y.save()
		CumAccF32F64(acc.s(), x.s(), y.s())
		x.check(t, fmt.Sprintf("n=%d x", n), true)
		acc.check(t, fmt.Sprintf("n=%d acc", n), false)
		y.check(t, fmt.Sprintf("n=%d y", n), false)
		for i := range wantY {
			if !sameF64(acc.s()[i], wantAcc[i], true) || !sameF32(y.s()[i], wantY[i], true) {
				t.Fatalf("n=%d [%d]: got %v %v, want %v %v", n, i, acc.s()[i], y.s()[i], wantAcc[i], wantY[i])
			}
		}
	}
}

// TestCumAccRows4F32F64 checks the four rows in one pass against four
// steps of the twin, bit for bit, at every length through the steps of 16
// and of 4 and the tail, rows close together and far apart, and that
// nothing but acc and y's rows is written.
func TestCumAccRows4F32F64(t *testing.T) {
	lengths := []int{1000, 4096 + 5}
	for n := 1; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, gap := range []int{0, 3, 1024} {
			xs, ys := n+gap, n+2*gap+1
			x := newGuarded(3*xs+n, rng.Intn(8), func(int) float32 { return randF32() })
			acc := newGuarded(n, rng.Intn(8), func(int) float64 { return randF64() })
			y := newGuarded(3*ys+n, rng.Intn(8), func(int) float32 { return sentinel[float32]() })
			wantAcc, wantY := append([]float64(nil), acc.s()...), append([]float32(nil), y.s()...)
			cumAccRows4F32F64Go(wantAcc, x.s(), xs, wantY, ys)
			x.save()
			acc.save()
			y.save()
			CumAccRows4F32F64(acc.s(), x.s(), xs, y.s(), ys)
			x.check(t, fmt.Sprintf("n=%d x", n), true)
			acc.check(t, fmt.Sprintf("n=%d acc", n), false)
			y.check(t, fmt.Sprintf("n=%d y", n), false)
			for i := range wantAcc {
				if !sameF64(acc.s()[i], wantAcc[i], true) {
					t.Fatalf("n=%d xs=%d acc[%d]: got %v, want %v", n, xs, i, acc.s()[i], wantAcc[i])
				}
			}
			for i := range wantY {
				if !sameF32(y.s()[i], wantY[i], true) {
					t.Fatalf("n=%d ys=%d y[%d]: got %v, want %v", n, ys, i, y.s()[i], wantY[i])
				}
			}
		}
	}
}

// finiteF32 draws from few values, signed zeros among them, so that sums
// stay finite and max and min see many ties (which of ±0 comes out
// depends on the order of the merges).
func finiteF32() float32 {
	switch rng.Intn(8) {
	case 0:
		return 0
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return float32(rng.Intn(5) - 2)
	case 3:
		return float32(rng.NormFloat64() * 1e-3)
	}
	return float32(rng.NormFloat64() * 1e4)
}

// TestWideFinite checks the 16-lane kernels (Note [Sixteen lanes]) bit for
// bit on finite inputs, where every rounding shows in the result: sums of
// any order would differ in their last bits.
func TestWideFinite(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return finiteF32() })
		x.save()
		if g, w := SumF32F64(x.s(), n%2 == 1), sumStreamsF32F64Go(x.s()); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("SumF32F64 n=%d: got %v, want %v", n, g, w)
		}
		if g, w := SumSqF32F64(x.s(), n%2 == 0), sumSqStreamsF32F64Go(x.s()); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("SumSqF32F64 n=%d: got %v, want %v", n, g, w)
		}
		for _, f := range []struct {
			name     string
			fn, twin func([]float32) (float32, bool)
		}{{"MaxF32", MaxF32, maxF32Go}, {"MinF32", MinF32, minF32Go}} {
			g, gn := f.fn(x.s())
			w, wn := f.twin(x.s())
			if math.Float32bits(g) != math.Float32bits(w) || gn || wn {
				t.Fatalf("%s n=%d: got %v %v, want %v %v", f.name, n, g, gn, w, wn)
			}
		}
		x.check(t, fmt.Sprintf("n=%d x", n), true)
	}
}

// TestSumF32F64Order checks the documented order by hand on one step of
// 256 elements: x[0] = 2^24, the rest 1. Lane 0 adds x[0] and x[128]
// first, 2^24 + 1, which rounds to 2^24 in float32; the other pairs of
// lane 0 make 2, 4, 8 exactly and then 2^24 + 14 exactly; the 15 other
// lanes make 16 each, exact. So the sum is 2^24 + 254, one 1 lost (added
// one by one in float32 it would be 2^24, every 1 lost; in float64 it
// would be 2^24 + 255).
func TestSumF32F64Order(t *testing.T) {
	x := make([]float32, 256)
	for i := range x {
		x[i] = 1
	}
	x[0] = 1 << 24
	if g := SumF32F64(x, false); g != 1<<24+254 {
		t.Errorf("SumF32F64: got %v, want %v", g, 1<<24+254)
	}
}

func TestIndexF32(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return finiteF32() })
		if n > 0 && rng.Intn(2) == 0 {
			x.s()[rng.Intn(n)] = float32(math.NaN())
		}
		x.save()
		vs := []float32{0, float32(math.Copysign(0, -1)), 7.5, float32(math.NaN()), float32(math.Inf(1))}
		if n > 0 {
			vs = append(vs, x.s()[rng.Intn(n)], x.s()[n-1])
		}
		for _, v := range vs {
			if g, w := IndexF32(x.s(), v), indexF32Go(x.s(), v); g != w {
				t.Fatalf("IndexF32 n=%d v=%v: got %d, want %d", n, v, g, w)
			}
		}
		// the only match at each position of a short row
		if n <= 300 {
			for i := range n {
				y := make([]float32, n)
				y[i] = 3
				if g := IndexF32(y, 3); g != i {
					t.Fatalf("IndexF32 n=%d: 3 at %d, got %d", n, i, g)
				}
			}
		}
		x.check(t, fmt.Sprintf("n=%d x", n), true)
	}
}

// TestSums16 checks the bfloat16 and float16 sums against their twins:
// on any bits (NaN and infinities among them: any NaN will do where an
// element is NaN) and on finite values, where every bit must agree.
func TestSums16(t *testing.T) {
	for _, finite := range []bool{false, true} {
		for _, n := range testLengths() {
			bf := newGuarded(n, rng.Intn(8), func(int) uint16 {
				if finite {
					return uint16(math.Float32bits(finiteF32()) >> 16)
				}
				return uint16(rng.Uint32())
			})
			hf := newGuarded(n, rng.Intn(8), func(int) uint16 {
				if finite {
					return uint16(dtype.HalfFromFloat32(finiteF32() / 8))
				}
				return uint16(rng.Uint32())
			})
			bf.save()
			hf.save()
			nanB, nanH := false, false
			for i := range n {
				nanB = nanB || bf.s()[i]&0x7fff > 0x7f80
				nanH = nanH || hf.s()[i]&0x7fff > 0x7c00
			}
			if g, w := SumBF16F64(bf.s(), n%2 == 0), sumStreamsBF16F64Go(bf.s()); !sameF64(g, w, nanB) {
				t.Fatalf("SumBF16F64 n=%d finite=%v: got %v, want %v", n, finite, g, w)
			}
			if g, w := SumF16F64(hf.s(), n%2 == 1), sumStreamsF16F64Go(hf.s()); !sameF64(g, w, nanH) {
				t.Fatalf("SumF16F64 n=%d finite=%v: got %v, want %v", n, finite, g, w)
			}
			bf.check(t, fmt.Sprintf("n=%d bf16", n), true)
			hf.check(t, fmt.Sprintf("n=%d f16", n), true)
		}
	}
}

// extremeF32 returns finiteF32's values (zeros of both signs, ties) half
// the time and randF32's (NaNs of any payload, infinities) the other half.
func extremeF32(int) float32 {
	if rng.Intn(2) == 0 {
		return finiteF32()
	}
	return randF32()
}

// TestMaxAccF32 checks MaxAccF32 and MinAccF32 against their twins bit for
// bit: NaN in x or dst (which NaN comes out matters too), and ±0 ties,
// where which zero is kept depends on the order of the operands.
func TestMaxAccF32(t *testing.T) {
	gen := extremeF32
	for _, f := range []struct {
		name     string
		fn, twin func(dst, x []float32)
	}{{"MaxAccF32", MaxAccF32, maxAccF32Go}, {"MinAccF32", MinAccF32, minAccF32Go}} {
		for _, n := range testLengths() {
			x := newGuarded(n, rng.Intn(8), gen)
			dst := newGuarded(n, rng.Intn(8), gen)
			want := append([]float32(nil), dst.s()...)
			f.twin(want, x.s())
			x.save()
			dst.save()
			f.fn(dst.s(), x.s())
			x.check(t, fmt.Sprintf("%s n=%d x", f.name, n), true)
			dst.check(t, fmt.Sprintf("%s n=%d dst", f.name, n), false)
			for i, g := range dst.s() {
				if math.Float32bits(g) != math.Float32bits(want[i]) {
					t.Fatalf("%s n=%d [%d]: got %#x, want %#x", f.name, n, i, math.Float32bits(g), math.Float32bits(want[i]))
				}
			}
		}
	}
}

// TestMaxAccRowsF32 checks MaxAccRowsF32, MinAccRowsF32 and
// MulAccRowsF32 against their twins, bit for bit (NaN payloads and
// zeros' signs included): every width up to two blocks of 256 columns and
// past them (each last block of whole vectors, with and without a partial
// one), several rows, rows with a gap between them; nothing outside dst
// may change.
func TestMaxAccRowsF32(t *testing.T) {
	gen := extremeF32
	for _, f := range []struct {
		name     string
		fn, twin func(dst, x []float32, stride, rows int)
	}{{"MaxAccRowsF32", MaxAccRowsF32, maxAccRowsF32Go}, {"MinAccRowsF32", MinAccRowsF32, minAccRowsF32Go},
		{"MulAccRowsF32", MulAccRowsF32, mulAccRowsF32Go}} {
		for n := 0; n <= 530; n++ {
			for _, rows := range []int{0, 1, 2, 7, 33} {
				for _, gap := range []int{0, 5} {
					stride := n + gap
					name := fmt.Sprintf("%s n=%d rows=%d stride=%d", f.name, n, rows, stride)
					x := newGuarded(max(0, (rows-1)*stride+n), rng.Intn(8), gen)
					dst := newGuarded(n, rng.Intn(8), gen)
					want := append([]float32(nil), dst.s()...)
					f.twin(want, x.s(), stride, rows)
					x.save()
					dst.save()
					f.fn(dst.s(), x.s(), stride, rows)
					x.check(t, name+" x", true)
					dst.check(t, name+" dst", false)
					for i, g := range dst.s() {
						if math.Float32bits(g) != math.Float32bits(want[i]) {
							t.Fatalf("%s [%d]: got %#x, want %#x", name, i, math.Float32bits(g), math.Float32bits(want[i]))
						}
					}
				}
			}
		}
	}
}

// TestColumnsF32 checks ColumnsF32 against its twin, bit for bit (NaN
// payloads included): every row length below 17, row counts with and
// without rows after the kernel's blocks of 16, columns with and without
// a gap between them; nothing outside the columns may change.
func TestColumnsF32(t *testing.T) {
	for m := 1; m <= 17; m++ {
		for _, n := range []int{0, 1, 15, 16, 17, 33, 64, 100, 257} {
			for _, gap := range []int{0, 3} {
				ds := n + gap
				name := fmt.Sprintf("m=%d n=%d ds=%d", m, n, ds)
				x := newGuarded(n*m, rng.Intn(8), extremeF32)
				dst := newGuarded(max(0, (m-1)*ds+n), rng.Intn(8), extremeF32)
				want := append([]float32(nil), dst.s()...)
				columnsF32Go(want, x.s(), m, n, ds)
				x.save()
				dst.save()
				ColumnsF32(dst.s(), x.s(), m, n, ds)
				x.check(t, name+" x", true)
				dst.check(t, name+" dst", false)
				for i, g := range dst.s() {
					if math.Float32bits(g) != math.Float32bits(want[i]) {
						t.Fatalf("%s [%d]: got %#x, want %#x", name, i, math.Float32bits(g), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// TestArgMaxAccRowsF32 checks ArgMaxAccRowsF32 and ArgMinAccRowsF32
// against their twins, values bit for bit and indices: every width up to
// two blocks of 128 columns and past them, several rows, rows
// with a gap between them, states already holding NaNs; nothing outside
// the states may change.
func TestArgMaxAccRowsF32(t *testing.T) {
	for _, f := range []struct {
		name     string
		fn, twin func(v []float32, ix []int64, x []float32, stride, rows, i0 int)
	}{{"ArgMaxAccRowsF32", ArgMaxAccRowsF32, argMaxAccRowsF32Go}, {"ArgMinAccRowsF32", ArgMinAccRowsF32, argMinAccRowsF32Go}} {
		for n := 0; n <= 300; n++ {
			for _, rows := range []int{0, 1, 2, 7, 33} {
				for _, gap := range []int{0, 5} {
					stride := n + gap
					name := fmt.Sprintf("%s n=%d rows=%d stride=%d", f.name, n, rows, stride)
					x := newGuarded(max(0, (rows-1)*stride+n), rng.Intn(8), extremeF32)
					v := newGuarded(n, rng.Intn(8), extremeF32)
					ix := newGuarded(n, rng.Intn(8), func(int) int64 { return rng.Int63n(100) })
					wantV, wantI := append([]float32(nil), v.s()...), append([]int64(nil), ix.s()...)
					f.twin(wantV, wantI, x.s(), stride, rows, 1000)
					x.save()
					v.save()
					ix.save()
					f.fn(v.s(), ix.s(), x.s(), stride, rows, 1000)
					x.check(t, name+" x", true)
					v.check(t, name+" v", false)
					ix.check(t, name+" ix", false)
					for i, g := range v.s() {
						if math.Float32bits(g) != math.Float32bits(wantV[i]) || ix.s()[i] != wantI[i] {
							t.Fatalf("%s [%d]: got %#x at %d, want %#x at %d", name, i, math.Float32bits(g), ix.s()[i], math.Float32bits(wantV[i]), wantI[i])
						}
					}
				}
			}
		}
	}
}

// TestSumRows8RunF32 checks SumRows8RunF32 against its twin bit for bit:
// widths on both sides of the kernel's blocks of 64 and 16 columns (a
// masked last vector), pass counts on both sides of a flush every eight,
// rows with a gap between them; nothing outside st may change.
func TestSumRows8RunF32(t *testing.T) {
	for _, n := range []int{1, 3, 15, 16, 17, 33, 63, 64, 65, 100, 130, 256} {
		for _, q := range []int{1, 2, 7, 8, 9, 17, 25} {
			for _, gap := range []int{0, 3} {
				stride := n + gap
				name := fmt.Sprintf("n=%d q=%d stride=%d", n, q, stride)
				x := newGuarded((8*q-1)*stride+n, rng.Intn(8), func(int) float32 { return randF32() })
				st := newGuarded(n, rng.Intn(8), func(int) float64 { return rng.NormFloat64() * 1e3 })
				want := append([]float64(nil), st.s()...)
				sumRows8RunF32Go(want, make([]float32, n), x.s(), stride, q)
				x.save()
				st.save()
				SumRows8RunF32(st.s(), make([]float32, n), x.s(), stride, q)
				x.check(t, name+" x", true)
				st.check(t, name+" st", false)
				for i, g := range st.s() {
					if math.Float64bits(g) != math.Float64bits(want[i]) && !(g != g && want[i] != want[i]) {
						t.Fatalf("%s [%d]: got %v (%#x), want %v (%#x)", name, i, g, math.Float64bits(g), want[i], math.Float64bits(want[i]))
					}
				}
			}
		}
	}
}

// TestProdF32 checks ProdF32 against its twin: on any values (an
// overflow times 0 makes NaN in either order, so any NaN will do where one
// is), and bit for bit on values near 1, whose products stay finite and
// show every rounding; there the product also stays within n+6 roundings
// of the exact one (computed in float64, whose own error is far smaller).
func TestProdF32(t *testing.T) {
	for _, n := range testLengths() {
		x := newGuarded(n, rng.Intn(8), func(int) float32 { return randF32() })
		x.save()
		if g, w := ProdF32(x.s()), prodF32Go(x.s()); !sameF32(g, w, true) {
			t.Fatalf("ProdF32 n=%d: got %v, want %v", n, g, w)
		}
		x.check(t, fmt.Sprintf("n=%d x", n), true)
		y := newGuarded(n, rng.Intn(8), func(int) float32 { return float32(1 + rng.NormFloat64()/256) })
		y.save()
		g, w := ProdF32(y.s()), prodF32Go(y.s())
		if math.Float32bits(g) != math.Float32bits(w) {
			t.Fatalf("ProdF32 near 1, n=%d: got %v, want %v", n, g, w)
		}
		exact := 1.0
		for _, v := range y.s() {
			exact *= float64(v)
		}
		if e := math.Abs(float64(g)/exact - 1); e > float64(n+6)*0x1p-24 {
			t.Fatalf("ProdF32 near 1, n=%d: got %v, exact %v (relative error %.3g)", n, g, exact, e)
		}
		y.check(t, fmt.Sprintf("n=%d y", n), true)
	}
}

// TestSumBF16Order checks Note [Even and odd bfloat16] by hand on one
// step of 256 elements, zero but for x[0] = 2^24 and a 1 at x[j]. With
// j = 1 the 1 is lane 0 of vector 1, and the last float32 level adds
// vector 0 and vector 1: 2^24 + 1 rounds to 2^24, the 1 is lost (had the
// vectors been 16 elements in a row, x[1] would be lane 1 of vector 0 and
// count in float64). With j = 2 it is lane 1 of vector 0 and counts.
func TestSumBF16Order(t *testing.T) {
	bf := func(v float32) uint16 { return uint16(math.Float32bits(v) >> 16) }
	for _, c := range []struct {
		j    int
		want float64
	}{{1, 1 << 24}, {2, 1<<24 + 1}, {16, 1<<24 + 1}} {
		x := make([]uint16, 256)
		x[0], x[c.j] = bf(1<<24), bf(1)
		if g := SumBF16F64(x, false); g != c.want {
			t.Errorf("SumBF16F64, 1 at %d: got %v, want %v", c.j, g, c.want)
		}
		if g := sumBF16F64Go(x); g != c.want {
			t.Errorf("sumBF16F64Go, 1 at %d: got %v, want %v", c.j, g, c.want)
		}
	}
}

// TestSumRows checks the row loops of the float32 sums bit for bit against
// a call of SumF32F64 or SumSqF32F64 per row (and their twins), on rows
// with every kind of tail, strides longer than the rows, and states that
// start from a value; nothing outside the rows is read into a state or
// written outside dst.
func TestSumRows(t *testing.T) {
	rowLens := []int{0, 1, 15, 16, 17, 255, 256, 257, 300, 1000, 4096, 4096 + 7, 4*streamMin - 1, 4*streamMin + 300}
	eachRows(t, rowLens, []int{0, 1, 2, 5, 11}, 7, func(x *guarded[float32], rowLen, rows, stride int) {
		for _, f := range []struct {
			name string
			rows func(dst []float64, x []float32, rowLen, stride int, four bool)
			twin func(dst []float64, x []float32, rowLen, stride int)
			one  func([]float32, bool) float64
		}{
			{"SumRowsF32F64", SumRowsF32F64, sumRowsStreamsF32F64Go, SumF32F64},
			{"SumSqRowsF32F64", SumSqRowsF32F64, sumSqRowsStreamsF32F64Go, SumSqF32F64},
		} {
			for _, four := range []bool{false, true} {
				start := func(r int) float64 { return float64(r) * 1.25e-3 }
				got := newGuarded(rows, rng.Intn(4), start)
				got.save()
				twin := make([]float64, rows)
				for r := range twin {
					twin[r] = start(r)
				}
				f.rows(got.s(), x.s(), rowLen, stride, four)
				f.twin(twin, x.s(), rowLen, stride)
				for r, g := range got.s() {
					w := start(r) + f.one(x.s()[r*stride:][:rowLen], !four)
					if !sameF64(g, w, w != w) || !sameF64(twin[r], w, w != w) {
						t.Fatalf("%s four=%v rowLen=%d rows=%d stride=%d row %d: got %v, twin %v, want %v", f.name, four, rowLen, rows, stride, r, g, twin[r], w)
					}
				}
				got.check(t, f.name+" dst", false)
			}
		}
	})
}

// TestSumRows16 checks SumRowsBF16F64 and SumRowsF16F64, one row after
// another and four at a time, against SumBF16F64 and SumF16F64 of each row
// and against their twins, on the rows of TestSumRows converted to
// bfloat16 and float16; nothing outside dst is written.
func TestSumRows16(t *testing.T) {
	rowLens := []int{0, 1, 15, 16, 17, 255, 256, 257, 300, 1000, 4096 + 7, 4*streamMin + 300}
	eachRows(t, rowLens, []int{0, 1, 2, 5, 11}, 7, func(x32 *guarded[float32], rowLen, rows, stride int) {
		for _, f := range []struct {
			name string
			rows func(dst []float64, x []uint16, rowLen, stride int, four bool)
			twin func(dst []float64, x []uint16, rowLen, stride int)
			one  func([]uint16, bool) float64
			conv func(float32) uint16
		}{
			{"SumRowsBF16F64", SumRowsBF16F64, sumRowsStreamsBF16F64Go, SumBF16F64, bf16Of},
			{"SumRowsF16F64", SumRowsF16F64, sumRowsStreamsF16F64Go, SumF16F64, func(v float32) uint16 { return uint16(dtype.HalfFromFloat32(v)) }},
		} {
			x := make([]uint16, len(x32.s()))
			for i, v := range x32.s() {
				x[i] = f.conv(v)
			}
			for _, four := range []bool{false, true} {
				start := func(r int) float64 { return float64(r) * 1.25e-3 }
				got := newGuarded(rows, rng.Intn(4), start)
				got.save()
				twin := make([]float64, rows)
				for r := range twin {
					twin[r] = start(r)
				}
				f.rows(got.s(), x, rowLen, stride, four)
				f.twin(twin, x, rowLen, stride)
				for r, g := range got.s() {
					w := start(r) + f.one(x[r*stride:][:rowLen], !four)
					if !sameF64(g, w, w != w) || !sameF64(twin[r], w, w != w) {
						t.Fatalf("%s four=%v rowLen=%d rows=%d stride=%d row %d: got %v, twin %v, want %v", f.name, four, rowLen, rows, stride, r, g, twin[r], w)
					}
				}
				got.check(t, f.name+" dst", false)
			}
		}
	})
}

// eachRows calls check on rows rows of rowLen finite elements (for each
// length and count given), stride elements apart for strides of the
// length and longer, in a guarded slice x whose rows of a length
// ≡ 1 (mod nanMod) hold a NaN somewhere; then checks that x is unchanged.
func eachRows(t *testing.T, rowLens, counts []int, nanMod int, check func(x *guarded[float32], rowLen, rows, stride int)) {
	t.Helper()
	for _, rowLen := range rowLens {
		for _, rows := range counts {
			for _, gap := range []int{0, 3, 256} {
				stride := rowLen + gap
				total := 0
				if rows > 0 {
					total = (rows-1)*stride + rowLen
				}
				x := newGuarded(total, rng.Intn(8), func(int) float32 { return finiteF32() })
				if rowLen%nanMod == 1 && total > 0 {
					x.s()[rng.Intn(total)] = float32(math.NaN())
				}
				x.save()
				check(x, rowLen, rows, stride)
				x.check(t, "x", true)
			}
		}
	}
}

// TestExtremeRows checks MaxRowsF32 and MinRowsF32 bit for bit against
// MaxF32 and MinF32 per row, NaN where the row holds one (and their
// twins), on rows with every kind of tail, strides longer than the rows,
// groups of four rows and the rows left over, and elements with many ties
// of ±0 (whose winner depends on the order); nothing is read from outside
// the rows or written outside dst.
func TestExtremeRows(t *testing.T) {
	rowLens := []int{0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 300, 1000, 4096 + 7}
	eachRows(t, rowLens, []int{0, 1, 3, 4, 5, 11}, 3, func(x *guarded[float32], rowLen, rows, stride int) {
		for _, f := range []struct {
			name string
			rows func(dst, x []float32, rowLen, stride int, four bool)
			twin func(dst, x []float32, rowLen, stride int)
			one  func([]float32) (float32, bool)
		}{
			{"MaxRowsF32", MaxRowsF32, maxRowsF32Go, MaxF32},
			{"MinRowsF32", MinRowsF32, minRowsF32Go, MinF32},
		} {
			for _, four := range []bool{false, true} {
				got := newGuarded(rows, rng.Intn(4), func(int) float32 { return sentinel[float32]() })
				got.save()
				twin := make([]float32, rows)
				f.rows(got.s(), x.s(), rowLen, stride, four)
				f.twin(twin, x.s(), rowLen, stride)
				for r, g := range got.s() {
					w, nan := f.one(x.s()[r*stride:][:rowLen])
					if nan {
						w = float32(math.NaN())
					}
					if math.Float32bits(g) != math.Float32bits(w) || math.Float32bits(twin[r]) != math.Float32bits(w) {
						t.Fatalf("%s four=%v rowLen=%d rows=%d stride=%d row %d: got %v (%#x), twin %v, want %v (%#x)",
							f.name, four, rowLen, rows, stride, r, g, math.Float32bits(g), twin[r], w, math.Float32bits(w))
					}
				}
				got.check(t, f.name+" dst", false)
			}
		}
	})
}

// TestSumStreams checks SumF32F64 and SumSqF32F64 on finite elements
// (randF32's long slices all hold a NaN) against their twins, bit for
// bit, at the lengths where Note [Four streams] splits a slice and around
// them; against the sums of the four quarters and the rest as the Note
// defines them; and, on positive elements, within an ulp of the exact sum.
func TestSumStreams(t *testing.T) {
	lengths := []int{4*streamMin - 1, 4 * streamMin, 4*streamMin + 1, 4*streamMin + 255, 4*streamMin + 1023, 65536 + 13, 1<<20 + 5}
	for _, f := range []struct {
		name      string
		fn        func([]float32, bool) float64
		twin, run func([]float32) float64
		square    bool
	}{
		{"SumF32F64", SumF32F64, sumStreamsF32F64Go, sumF32F64Go, false},
		{"SumSqF32F64", SumSqF32F64, sumSqStreamsF32F64Go, sumSqF32F64Go, true},
	} {
		for _, n := range lengths {
			x := newGuarded(n, rng.Intn(8), func(int) float32 { return finiteF32() })
			x.save()
			g, g1, w := f.fn(x.s(), true), f.fn(x.s(), false), f.twin(x.s())
			if math.Float64bits(g) != math.Float64bits(w) || math.Float64bits(g1) != math.Float64bits(w) {
				t.Fatalf("%s n=%d: got %v (four streams), %v (one), twin %v", f.name, n, g, g1, w)
			}
			want := byQuarters(x.s(), f.run)
			if math.Float64bits(g) != math.Float64bits(want) {
				t.Fatalf("%s n=%d: got %v, four quarters and the rest give %v", f.name, n, g, want)
			}
			// positive elements: within an ulp of the sum (the float64 sum
			// of at most 2^21 of them is within 2^-32 of it, relatively)
			y := make([]float32, n)
			exact := 0.0
			for i := range y {
				y[i] = float32(rng.Float64() * 100)
				v := float64(y[i])
				if f.square {
					v *= v
				}
				exact += v
			}
			if g := float32(f.fn(y, true)); math.Abs(float64(g)-exact) > ulp32(g) {
				t.Fatalf("%s n=%d positive: got %v, exact %v", f.name, n, g, exact)
			}
			x.check(t, fmt.Sprintf("%s n=%d x", f.name, n), true)
		}
	}
}

// TestSumStreams16 is TestSumStreams' bit-for-bit checks for the sums of
// bfloat16 and float16 elements.
func TestSumStreams16(t *testing.T) {
	for _, f := range []struct {
		name      string
		fn        func([]uint16, bool) float64
		twin, run func([]uint16) float64
		of        func(float32) uint16
	}{
		{"SumBF16F64", SumBF16F64, sumStreamsBF16F64Go, sumBF16F64Go, func(v float32) uint16 { return uint16(math.Float32bits(v) >> 16) }},
		{"SumF16F64", SumF16F64, sumStreamsF16F64Go, sumF16F64Go, func(v float32) uint16 { return uint16(dtype.HalfFromFloat32(v / 8)) }},
	} {
		for _, n := range []int{4*streamMin - 1, 4 * streamMin, 4*streamMin + 255, 4*streamMin + 1023, 1<<20 + 5} {
			x := newGuarded(n, rng.Intn(8), func(int) uint16 { return f.of(finiteF32()) })
			x.save()
			g, g1, w := f.fn(x.s(), true), f.fn(x.s(), false), f.twin(x.s())
			want := byQuarters(x.s(), f.run)
			if math.Float64bits(g) != math.Float64bits(w) || math.Float64bits(g1) != math.Float64bits(w) || math.Float64bits(g) != math.Float64bits(want) {
				t.Fatalf("%s n=%d: got %v (four streams), %v (one), twin %v, four quarters and the rest %v", f.name, n, g, g1, w, want)
			}
			x.check(t, fmt.Sprintf("%s n=%d x", f.name, n), true)
		}
	}
}

// byQuarters is Note [Four streams]'s definition of a sum of x by run:
// the four quarters (q elements each, q a multiple of 256) added
// pairwise, then the rest, where x has at least 4·streamMin elements; one
// run otherwise.
func byQuarters[E float32 | uint16](x []E, run func([]E) float64) float64 {
	if len(x) < 4*streamMin {
		return run(x)
	}
	q := len(x) / 4 &^ 255
	var s [4]float64
	for k := range s {
		s[k] = run(x[k*q : (k+1)*q])
	}
	return ((s[0] + s[1]) + (s[2] + s[3])) + run(x[4*q:])
}

// ulp32 is the gap between |v| and the next float32 away from zero.
func ulp32(v float32) float64 {
	a := math.Abs(float64(v))
	return float64(math.Nextafter32(float32(a), float32(math.Inf(1)))) - a
}

// TestProdRows checks the row loop of the float32 product bit for bit
// against a call of ProdF32 per row (and its twin), as TestSumRows does
// for the sum, on factors near 1 so that the products stay finite, with
// the rows read one after another and four at a time.
func TestProdRows(t *testing.T) {
	for _, rowLen := range []int{0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 300, 4096 + 7} {
		for _, rows := range []int{0, 1, 2, 4, 5, 11} {
			for _, gap := range []int{0, 3, 64} {
				stride := rowLen + gap
				total := 0
				if rows > 0 {
					total = (rows-1)*stride + rowLen
				}
				x := newGuarded(total, rng.Intn(8), func(int) float32 { return float32(1 + (rng.Float64()-0.5)/64) })
				if rowLen%5 == 1 && total > 0 {
					x.s()[rng.Intn(total)] = float32(math.NaN())
				}
				x.save()
				start := func(r int) float32 { return float32(r) + 0.5 }
				got := newGuarded(rows, rng.Intn(4), start)
				got.save()
				twin := make([]float32, rows)
				for r := range twin {
					twin[r] = start(r)
				}
				prodRowsF32Go(twin, x.s(), rowLen, stride)
				for _, four := range []bool{false, true} {
					for r := range got.s() {
						got.s()[r] = start(r)
					}
					ProdRowsF32(got.s(), x.s(), rowLen, stride, four)
					for r, g := range got.s() {
						w := start(r) * ProdF32(x.s()[r*stride:][:rowLen])
						if !sameF32(g, w, w != w) || !sameF32(twin[r], w, w != w) {
							t.Fatalf("ProdRowsF32 rowLen=%d rows=%d stride=%d four=%v row %d: got %v, twin %v, want %v", rowLen, rows, stride, four, r, g, twin[r], w)
						}
					}
					got.check(t, "ProdRowsF32 dst", false)
				}
				x.check(t, "x", true)
			}
		}
	}
}

// TestFourStreamsAllocateNothing checks that the four-stream sums and
// extremes keep their quarters' sums and their callers' rows on the stack
// (Note [Four streams]), either way they read.
func TestFourStreamsAllocateNothing(t *testing.T) {
	x := make([]float32, 4*streamMin+300)
	h := make([]uint16, len(x))
	for _, four := range []bool{false, true} {
		n := testing.AllocsPerRun(10, func() {
			var d [5]float64
			var e [5]float32
			SumF32F64(x, four)
			SumSqF32F64(x, four)
			SumBF16F64(h, four)
			SumF16F64(h, four)
			SumRowsF32F64(d[:], x, 300, 300, four)
			SumSqRowsF32F64(d[:], x, 300, 300, four)
			MaxRowsF32(e[:], x, 300, 300, four)
			MinRowsF32(e[:], x, 300, 300, four)
			ProdRowsF32(e[:], x, 300, 300, four)
		})
		if n != 0 {
			t.Errorf("four=%v: %v allocations per run, want none", four, n)
		}
	}
}

// TestSumF32InF64Rows4 checks that the four rows read together give each
// row's SumF32InF64 bits (and its twin's), and each row's
// SumSqDevF32InF64 those of SumSqDevF32InF64Rows4, at every length
// through the turns of 256 and the steps of 16, with rows close together
// and far apart, and that nothing outside the rows is read or written.
func TestSumF32InF64Rows4(t *testing.T) {
	lengths := []int{1, 3, 4, 15, 16, 17, 31, 255, 256, 257, 300, 511, 1023, 1024, 1040, 4096 + 7}
	for n := range 64 {
		lengths = append(lengths, 2*n)
	}
	for _, n := range lengths {
		for _, gap := range []int{0, 1, 13, 4096} {
			stride := n + gap
			span := 3*stride + n
			x := newGuarded(span, rng.Intn(8), func(int) float32 {
				if rng.Intn(4) == 0 {
					return randF32()
				}
				return float32(rng.NormFloat64() * math.Exp2(float64(rng.Intn(40)-20)))
			})
			x.save()
			var got [4]float64
			SumF32InF64Rows4(&got, x.s(), stride, n)
			x.check(t, fmt.Sprintf("n=%d stride=%d x", n, stride), true)
			for k, g := range got {
				row := x.s()[k*stride:][:n]
				nan := anyNaN32(row)
				if w := SumF32InF64(row); !sameF64(g, w, nan) {
					t.Fatalf("n=%d stride=%d row %d: got %#x, SumF32InF64 %#x", n, stride, k, math.Float64bits(g), math.Float64bits(w))
				}
				if w := sumF32InF64Go(row); !sameF64(g, w, nan) {
					t.Fatalf("n=%d stride=%d row %d: got %#x, twin %#x", n, stride, k, math.Float64bits(g), math.Float64bits(w))
				}
			}
			m := [4]float64{got[0] / float64(n), 1.5, -3, got[3] / float64(n)}
			SumSqDevF32InF64Rows4(&got, x.s(), stride, n, &m)
			x.check(t, fmt.Sprintf("n=%d stride=%d x (squares)", n, stride), true)
			for k, g := range got {
				row := x.s()[k*stride:][:n]
				nan := anyNaN32(row) || m[k] != m[k]
				if w := SumSqDevF32InF64(row, m[k]); !sameF64(g, w, nan) {
					t.Fatalf("n=%d stride=%d row %d: got %#x, SumSqDevF32InF64 %#x", n, stride, k, math.Float64bits(g), math.Float64bits(w))
				}
				if w := sumSqDevF32InF64Go(row, m[k]); !sameF64(g, w, nan) {
					t.Fatalf("n=%d stride=%d row %d: got %#x, twin of the squares %#x", n, stride, k, math.Float64bits(g), math.Float64bits(w))
				}
			}
		}
	}
}

// TestArgRowsF32 checks ArgRowsF32 against argRowsF32Go and against a
// plain search of each row: every length to 70 and a few longer, rows
// further apart than their length, NaNs (the first one wins), ties, zeros
// of both signs (the first of either wins), infinities, and rows of -Inf
// (max) or +Inf (min) alone.
func TestArgRowsF32(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, float32(math.Inf(1)), float32(math.Inf(-1))}
	lens := []int{}
	for n := 1; n <= 70; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 255, 256, 257, 1000)
	for _, n := range lens {
		for _, gap := range []int{0, 3} {
			const rows = 23
			stride := n + gap
			x := make([]float32, rows*stride)
			for i := range x {
				x[i] = vals[rng.Intn(len(vals))]
			}
			for r := 0; r < rows; r++ {
				row := x[r*stride:][:n]
				switch r % 6 {
				case 1:
					row[rng.Intn(n)] = float32(math.NaN())
				case 2:
					row[rng.Intn(n)] = float32(math.NaN())
					row[rng.Intn(n)] = float32(math.NaN())
				case 3:
					for i := range row {
						row[i] = float32(math.Inf(-1))
					}
				case 4:
					for i := range row {
						row[i] = float32(math.Inf(1))
					}
				case 5:
					for i := range row {
						row[i] = float32(rng.NormFloat64())
					}
				}
			}
			for _, isMax := range []bool{true, false} {
				got, twin := make([]int32, rows), make([]int32, rows)
				ArgRowsF32(got, x[:rowsSpan(rows, n, stride)], n, stride, isMax)
				argRowsF32Go(twin, x, n, stride, isMax)
				for r := range got {
					row := x[r*stride:][:n]
					want := -1
					for i, v := range row {
						if v != v {
							want = i
							break
						}
					}
					if want < 0 {
						var m float32
						if isMax {
							m, _ = MaxF32(row)
						} else {
							m, _ = MinF32(row)
						}
						want = IndexF32(row, m)
					}
					if int(got[r]) != want || int(twin[r]) != want {
						t.Fatalf("isMax=%v n=%d stride=%d row %d (%v): got %d, twin %d, want %d", isMax, n, stride, r, row, got[r], twin[r], want)
					}
				}
			}
		}
	}
}
