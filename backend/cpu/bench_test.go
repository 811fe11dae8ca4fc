package cpu

import (
	"fmt"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

var benchSizes = []int{16, 1 << 10, 1 << 16, 1 << 20}

// benchLayout returns the output and two inputs of n elements.
func benchLayout(layout string, out, d1, d2 dtype.DType, n int) (*raw.View, *raw.View, *raw.View) {
	switch layout {
	case "scalar": // b a broadcast 0-d tensor
		return raw.New(out, []int{n}), raw.New(d1, []int{n}), raw.New(d2, nil)
	case "transposed": // a transposed (strided inner loop)
		r := 16
		if n < r*r {
			r = 4
		}
		sh := []int{r, n / r}
		a := raw.New(d1, []int{n / r, r}).WithLayout(sh, []int{1, r}, 0)
		return raw.New(out, sh), a, raw.New(d2, sh)
	}
	return raw.New(out, []int{n}), raw.New(d1, []int{n}), raw.New(d2, []int{n})
}

func benchPointwise(b *testing.B, code *optable.Op, out, d1, d2 dtype.DType, layout string, n int) {
	o, x, y := benchLayout(layout, out, d1, d2, n)
	p := build(b, o, x, y)
	be := New()
	b.SetBytes(int64(n * (out.Size() + d1.Size() + d2.Size())))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := be.Pointwise(code, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dK", n>>10)
	}
	return fmt.Sprint(n)
}

// BenchmarkAdd is Add/<dtype>/<elements>/<layout> on a prebuilt plan.
func BenchmarkAdd(b *testing.B) {
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float64, dtype.Int32, dtype.Float16} {
		for _, n := range benchSizes {
			for _, layout := range []string{"contiguous", "scalar", "transposed"} {
				b.Run(fmt.Sprintf("%s/%s/%s", d, sizeName(n), layout), func(b *testing.B) {
					benchPointwise(b, optable.Add, d, d, d, layout, n)
				})
			}
		}
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("int32+float32/%s/contiguous", sizeName(n)), func(b *testing.B) {
			benchPointwise(b, optable.Add, dtype.Float32, dtype.Int32, dtype.Float32, "contiguous", n)
		})
	}
}

// BenchmarkAddBuild includes building the plan: the whole per-op cost
// below the op layer.
func BenchmarkAddBuild(b *testing.B) {
	for _, n := range []int{16, 1 << 10} {
		b.Run(fmt.Sprintf("float32/%s/contiguous", sizeName(n)), func(b *testing.B) {
			o, x, y := benchLayout("contiguous", dtype.Float32, dtype.Float32, dtype.Float32, n)
			be := New()
			b.SetBytes(int64(12 * n))
			b.ReportAllocs()
			for range b.N {
				p, err := iter.NewConfig().AddOutput(o).AddInput(x).AddInput(y).Build()
				if err != nil {
					b.Fatal(err)
				}
				be.Pointwise(optable.Add, p, nil)
			}
		})
	}
}

func BenchmarkExp(b *testing.B) {
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float16} {
		for _, n := range []int{1 << 10, 1 << 16} {
			b.Run(fmt.Sprintf("%s/%s/contiguous", d, sizeName(n)), func(b *testing.B) {
				x := raw.New(d, []int{n})
				p := build(b, raw.New(d, []int{n}), x)
				be := New()
				b.SetBytes(int64(2 * n * d.Size()))
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					be.Pointwise(optable.Exp, p, nil)
				}
			})
		}
	}
}

func BenchmarkCopy(b *testing.B) {
	pairs := [][2]dtype.DType{{dtype.Float32, dtype.Float32}, {dtype.Float32, dtype.Float16}, {dtype.Float16, dtype.Float32},
		{dtype.Int64, dtype.Float32}, {dtype.Float32, dtype.Bool}}
	for _, pr := range pairs {
		for _, n := range []int{1 << 10, 1 << 20} {
			for _, layout := range []string{"contiguous", "transposed"} {
				b.Run(fmt.Sprintf("%s-%s/%s/%s", pr[0], pr[1], sizeName(n), layout), func(b *testing.B) {
					o, x, _ := benchLayout(layout, pr[1], pr[0], pr[0], n)
					p, err := iter.NewConfig().AddOutput(o).AddInput(x).CheckAllSameDType(false).Build()
					if err != nil {
						b.Fatal(err)
					}
					be := New()
					b.SetBytes(int64(n * (pr[0].Size() + pr[1].Size())))
					b.ReportAllocs()
					b.ResetTimer()
					for range b.N {
						be.Copy(p)
					}
				})
			}
		}
	}
}

func BenchmarkSum(b *testing.B) {
	for _, d := range []dtype.DType{dtype.Float32, dtype.Float16} {
		for _, dim := range []int{0, 1} {
			b.Run(fmt.Sprintf("%s/1K×1K/dim%d", d, dim), func(b *testing.B) {
				x := raw.New(d, []int{1024, 1024})
				ks := []int{1024, 1024}
				ks[dim] = 1
				o := raw.New(d, ks)
				p, err := iter.NewConfig().AddOutput(o).AddInput(x).IsReduction(true).StaticDType(d).Build()
				if err != nil {
					b.Fatal(err)
				}
				be := New()
				b.SetBytes(int64(1024 * 1024 * d.Size()))
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					be.Reduce(optable.Sum, p, nil)
				}
			})
		}
	}
}
