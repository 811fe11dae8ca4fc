package tensor

import (
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// TestExpMatchesPyTorch checks float32 and bfloat16 exp bit for bit
// against PyTorch 1.13's results (SLEEF's expf, Note [SLEEF's exp] in
// optable/elem), computed by testdata/torch_exp.py: 16352 float32 inputs
// (edges of the range, the overflow and subnormal thresholds, ±0, ±Inf,
// NaN and random values) and every bfloat16. Each runs contiguous (the
// vectorized kernel) and strided (the generated loop); float32 also into
// a float64 out=, which PyTorch fills from the float32 result.
func TestExpMatchesPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/torch_exp_f32.bin")
	if err != nil {
		t.Fatal(err)
	}
	n := len(b) / 8
	x, want := make([]float32, n), make([]float32, n)
	for i := range n {
		x[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[8*i:]))
		want[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[8*i+4:]))
	}
	same := func(got, want float32) bool {
		return math.Float32bits(got) == math.Float32bits(want) || got != got && want != want
	}
	strided := func(t *Tensor) *Tensor { // every other element of a [n, 2]
		return Stack([]*Tensor{t, t.Neg()}, 1).Select(1, 0)
	}
	xs := FromSlice(x, n)
	for name, got := range map[string]*Tensor{"contiguous": xs.Exp(), "strided": strided(xs).Exp()} {
		for i, g := range ToSlice[float32](got) {
			if !same(g, want[i]) {
				t.Fatalf("float32 %s: exp(%g) = %#08x, PyTorch %#08x", name, x[i], math.Float32bits(g), math.Float32bits(want[i]))
			}
		}
	}
	out := Zeros(Float64, n)
	ExpTo(out, xs)
	for i, g := range ToSlice[float64](out) {
		if w := float64(want[i]); g != w && !(g != g && w != w) {
			t.Fatalf("float32 into float64: exp(%g) = %v, PyTorch %v", x[i], g, w)
		}
	}

	b, err = os.ReadFile("testdata/torch_exp_bf16.bin")
	if err != nil {
		t.Fatal(err)
	}
	xb := make([]dtype.BF16, 1<<16)
	for i := range xb {
		xb[i] = dtype.BF16(i)
	}
	xbs := FromSlice(xb, len(xb))
	for name, got := range map[string]*Tensor{"contiguous": xbs.Exp(), "strided": strided(xbs).Exp()} {
		for i, g := range ToSlice[dtype.BF16](got) {
			w := dtype.BF16(binary.LittleEndian.Uint16(b[2*i:]))
			if g != w && !(g.Float32() != g.Float32() && w.Float32() != w.Float32()) {
				t.Fatalf("bfloat16 %s: exp(%#04x) = %#04x, PyTorch %#04x", name, i, uint16(g), uint16(w))
			}
		}
	}
}
