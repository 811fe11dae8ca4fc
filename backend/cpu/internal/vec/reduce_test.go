package vec

import (
	"fmt"
	"math"
	"testing"
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
		if g, w := SumF32F64(x.s()), sumF32F64Go(x.s()); !sameF64(g, w, nan) {
			t.Fatalf("SumF32F64 n=%d: got %#x, want %#x", n, math.Float64bits(g), math.Float64bits(w))
		}
		if g, w := SumSqDevF32(x.s(), 1.5), sumSqDevF32Go(x.s(), 1.5); !sameF32(g, w, nan) {
			t.Fatalf("SumSqDevF32 n=%d: got %#x, want %#x", n, math.Float32bits(g), math.Float32bits(w))
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

func TestAccRows4F32F64(t *testing.T) {
	for _, n := range testLengths() {
		gen := func(int) float32 { return randF32() }
		xs := []*guarded[float32]{newGuarded(n, rng.Intn(8), gen), newGuarded(n, rng.Intn(8), gen), newGuarded(n, rng.Intn(8), gen), newGuarded(n, rng.Intn(8), gen)}
		dst := newGuarded(n, rng.Intn(8), func(int) float64 { return randF64() })
		want := append([]float64(nil), dst.s()...)
		accRows4F32F64Go(want, xs[0].s(), xs[1].s(), xs[2].s(), xs[3].s())
		for _, x := range xs {
			x.save()
		}
		dst.save()
		AccRows4F32F64(dst.s(), xs[0].s(), xs[1].s(), xs[2].s(), xs[3].s())
		for _, x := range xs {
			x.check(t, fmt.Sprintf("n=%d x", n), true)
		}
		dst.check(t, fmt.Sprintf("n=%d dst", n), false)
		for i, g := range dst.s() {
			if !sameF64(g, want[i], true) {
				t.Fatalf("n=%d [%d]: got %#x, want %#x", n, i, math.Float64bits(g), math.Float64bits(want[i]))
			}
		}
	}
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
