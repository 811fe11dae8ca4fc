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

// halfLoopsOn reports whether the storage-dtype loops of d run on this
// CPU (the generator's condition, Note [Storage-dtype loops]).
func halfLoopsOn(d dtype.DType) bool {
	return d == dtype.BFloat16 && vec.SIMD || d == dtype.Float16 && vec.SIMDF16
}

// TestStorageLoops checks when Pointwise takes the loops of a storage
// dtype (Note [Storage-dtype loops]) and that they give, on contiguous,
// broadcast and strided operands and with alpha ≠ 1, the float32 result
// rounded once: the value computed here, and bit for bit what the
// buffered path writes (the same inputs into a float32 output, which
// that path rounds to the common dtype first).
func TestStorageLoops(t *testing.T) {
	for _, d := range []dtype.DType{dtype.BFloat16, dtype.Float16} {
		checkStorageLoops(t, d)
	}
}

func checkStorageLoops(t *testing.T, hd dtype.DType) {
	f32 := dtype.Float32
	r := rand.New(rand.NewSource(5))
	// ±0, ±1, ±Inf, NaN, the least subnormal and its negation, the largest
	specials := map[dtype.DType][]uint16{
		dtype.BFloat16: {0, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x807f, 0x7f7f},
		dtype.Float16:  {0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x7bff},
	}[hd]
	float := func(b uint16) float32 {
		if hd == dtype.Float16 {
			return dtype.Half(b).Float32()
		}
		return dtype.BF16(b).Float32()
	}
	val := func(int) float64 {
		b := uint16(r.Uint32())
		if r.Intn(4) == 0 {
			b = specials[r.Intn(len(specials))]
		}
		return float64(float(b))
	}
	n := 1000
	a, b := filled(hd, []int{n}, val), filled(hd, []int{n}, val)
	s := filled(hd, []int{1}, val)
	wide := filled(hd, []int{2 * n}, val)
	strided := wide.WithLayout([]int{n}, []int{2}, 1)
	f := map[*optable.Op]func(x, y float32) float32{
		optable.Add: func(x, y float32) float32 { return x + y },
		optable.Sub: func(x, y float32) float32 { return x - y },
		optable.Mul: func(x, y float32) float32 { return x * y },
		optable.Div: func(x, y float32) float32 { return x / y },
	}
	be := New()
	same := func(g, w float64) bool { return math.Float64bits(g) == math.Float64bits(w) || g != g && w != w }
	for op, fn := range f {
		if !op.SIMD.Half.Has(hd) {
			t.Fatalf("%s: the table names no %s kernels", op.Name, hd)
		}
		for _, c := range []struct {
			name  string
			x, y  *raw.View
			alpha float64
		}{{"contiguous", a, b, 1}, {"scalar right", a, s, 1}, {"scalar left", s, b, 1}, {"strided", strided, b, 1},
			{"alpha", a, b, 2.5}, {"alpha scalar", a, s, -3}} {
			if c.alpha != 1 && op != optable.Add && op != optable.Sub {
				continue
			}
			args := &kernel.Args{AlphaF: c.alpha}
			p := build(t, nil, c.x, c.y)
			if got := storageLoop(op.Code, p.CommonDType(), p) != nil; got != halfLoopsOn(hd) {
				t.Errorf("%s %s %s: storage-dtype loop %v, want %v", hd, op.Name, c.name, got, halfLoopsOn(hd))
			}
			if err := be.Pointwise(op, p, args); err != nil {
				t.Fatal(err)
			}
			ref := build(t, raw.New(f32, []int{n}), c.x, c.y)
			if storageLoop(op.Code, ref.CommonDType(), ref) != nil {
				t.Fatalf("%s %s %s into float32: storage-dtype loop", hd, op.Name, c.name)
			}
			if err := be.Pointwise(op, ref, args); err != nil {
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
				g := getElem(out, i)
				if w := getElem(ref.Output(0), i); !same(g, w) {
					t.Fatalf("%s %s %s: [%d] %v ∘ %v = %v, the buffered path %v", hd, op.Name, c.name, i, getElem(c.x, xi), getElem(c.y, yi), g, w)
				}
				if c.alpha != 1 {
					continue
				}
				w := roundTo(hd, float64(fn(float32(getElem(c.x, xi)), float32(getElem(c.y, yi)))))
				if !same(g, w) {
					t.Fatalf("%s %s %s: [%d] %v ∘ %v = %v, want %v", hd, op.Name, c.name, i, getElem(c.x, xi), getElem(c.y, yi), g, w)
				}
			}
		}
	}
	// the buffered path: another dtype among the operands
	if storageLoop(optable.Add.Code, hd, build(t, nil, a, filled(f32, []int{n}, val))) != nil {
		t.Errorf("%s + float32: storage-dtype loop", hd)
	}
	if storageLoop(optable.Maximum.Code, hd, build(t, nil, a, b)) != nil {
		t.Errorf("%s maximum: storage-dtype loop", hd)
	}
}
