package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestBF16Loops checks when Pointwise takes the bfloat16 loops (Note
// [Bfloat16 loops]) and that they give, on contiguous, broadcast and
// strided operands, the float32 result rounded to bfloat16.
func TestBF16Loops(t *testing.T) {
	bf, f32 := dtype.BFloat16, dtype.Float32
	r := rand.New(rand.NewSource(5))
	specials := []uint16{0, 0x8000, 0x3f80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f, 0x7f7f}
	val := func(int) float64 {
		b := uint16(r.Uint32())
		if r.Intn(4) == 0 {
			b = specials[r.Intn(len(specials))]
		}
		return float64(dtype.BF16(b).Float32())
	}
	n := 1000
	a, b := filled(bf, []int{n}, val), filled(bf, []int{n}, val)
	s := filled(bf, []int{1}, val)
	wide := filled(bf, []int{2 * n}, val)
	strided := wide.WithLayout([]int{n}, []int{2}, 1)
	f := map[*optable.Op]func(x, y float32) float32{
		optable.Add: func(x, y float32) float32 { return x + y },
		optable.Sub: func(x, y float32) float32 { return x - y },
		optable.Mul: func(x, y float32) float32 { return x * y },
		optable.Div: func(x, y float32) float32 { return x / y },
	}
	be := New()
	for op, fn := range f {
		for _, c := range []struct {
			name string
			x, y *raw.View
		}{{"contiguous", a, b}, {"scalar right", a, s}, {"scalar left", s, b}, {"strided", strided, b}} {
			p := build(t, nil, c.x, c.y)
			if got := bf16Fast(op, p, nil) != nil; got != vec.SIMD {
				t.Errorf("%s %s: bfloat16 loop %v, want %v", op.Name, c.name, got, vec.SIMD)
			}
			if err := be.Pointwise(op, p, nil); err != nil {
				t.Fatal(err)
			}
			out := p.Output(0)
			for i := 0; i < n; i++ {
				xi, yi := i, i
				if c.x == s {
					xi = 0
				}
				if c.y == s {
					yi = 0
				}
				w := float64(dtype.BF16FromFloat32(fn(float32(getElem(c.x, xi)), float32(getElem(c.y, yi)))).Float32())
				if g := getElem(out, i); math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
					t.Fatalf("%s %s: [%d] %v ∘ %v = %v, want %v", op.Name, c.name, i, getElem(c.x, xi), getElem(c.y, yi), g, w)
				}
			}
		}
	}
	// the buffered path: another dtype among the operands, or alpha ≠ 1
	if bf16Fast(optable.Add, build(t, nil, a, filled(f32, []int{n}, val)), nil) != nil {
		t.Errorf("bfloat16 + float32: bfloat16 loop")
	}
	if bf16Fast(optable.Add, build(t, raw.New(f32, []int{n}), a, b), nil) != nil {
		t.Errorf("bfloat16 + bfloat16 into float32: bfloat16 loop")
	}
	if bf16Fast(optable.Sub, build(t, nil, a, b), &kernel.Args{AlphaF: 2}) != nil {
		t.Errorf("sub with alpha 2: bfloat16 loop")
	}
	if bf16Fast(optable.Maximum, build(t, nil, a, b), nil) != nil {
		t.Errorf("maximum: bfloat16 loop")
	}
}
