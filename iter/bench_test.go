package iter

import (
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/raw"
)

// addF32 returns a float32 add loop for p with the contiguous fast path
// chosen once per call, as backends write them.
func addF32(p *Plan) Loop2D {
	base := [3]unsafe.Pointer{p.Operand(0).Storage.Pointer(), p.Operand(1).Storage.Pointer(), p.Operand(2).Storage.Pointer()}
	return func(offs []int, strides []int, s0, s1 int) { addRows(base, offs, strides, s0, s1) }
}

func addRows(base [3]unsafe.Pointer, offs []int, strides []int, s0, s1 int) {
	nt := len(offs)
	for j := 0; j < s1; j++ {
		o, a, b := unsafe.Add(base[0], offs[0]), unsafe.Add(base[1], offs[1]), unsafe.Add(base[2], offs[2])
		if strides[0] == 4 && strides[1] == 4 && strides[2] == 4 {
			os := unsafe.Slice((*float32)(o), s0)
			as := unsafe.Slice((*float32)(a), s0)
			bs := unsafe.Slice((*float32)(b), s0)
			for i := range os {
				os[i] = as[i] + bs[i]
			}
		} else {
			for i := 0; i < s0; i++ {
				*(*float32)(unsafe.Add(o, i*strides[0])) = *(*float32)(unsafe.Add(a, i*strides[1])) + *(*float32)(unsafe.Add(b, i*strides[2]))
			}
		}
		if j+1 < s1 {
			for k := range offs {
				offs[k] += strides[nt+k]
			}
		}
	}
}

// BenchmarkAdd measures the whole per-op cost of the iterator: building a
// plan for out = a + b and running it.
func BenchmarkAdd(b *testing.B) {
	type layout struct {
		name string
		a, b func() *raw.View
	}
	layouts := []layout{
		{"16/contiguous", func() *raw.View { return f32(16) }, func() *raw.View { return f32(16) }},
		{"4x4/broadcast", func() *raw.View { return f32(4, 4) }, func() *raw.View { return f32(4, 1) }},
		{"4x4/transposed", func() *raw.View { return f32(4, 4) }, func() *raw.View { return on(f32(4, 4), []int{4, 4}, []int{1, 4}, 0) }},
		{"1024x1024/contiguous", func() *raw.View { return f32(1024, 1024) }, func() *raw.View { return f32(1024, 1024) }},
	}
	for _, l := range layouts {
		x, y := l.a(), l.b()
		b.Run(l.name+"/alloc", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(x.NumEl() * 12))
			for range b.N {
				p, err := NewConfig().AddOutput(nil).AddInput(x).AddInput(y).Build()
				if err != nil {
					b.Fatal(err)
				}
				p.ForEach(addF32(p))
			}
		})
		out := f32(x.Shape...)
		b.Run(l.name+"/out", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(x.NumEl() * 12))
			for range b.N {
				p, err := NewConfig().AddOutput(out).AddInput(x).AddInput(y).Build()
				if err != nil {
					b.Fatal(err)
				}
				p.ForEach(addF32(p))
			}
		})
	}
}

// BenchmarkForEach measures walking a built plan.
func BenchmarkForEach(b *testing.B) {
	for _, n := range []int{16, 4096, 1 << 20} {
		x, y := f32(n), f32(n)
		p, err := NewConfig().AddOutput(nil).AddInput(x).AddInput(y).Build()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n * 12))
			for range b.N {
				p.ForEach(addF32(p))
			}
		})
	}
}

func itoa(n int) string { return fmtShape([]int{n})[1 : len(fmtShape([]int{n}))-1] }
