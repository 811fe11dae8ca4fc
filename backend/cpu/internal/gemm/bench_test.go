package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func randSlice[T float](n int) []T {
	rng := rand.New(rand.NewPCG(7, 8))
	s := make([]T, n)
	for i := range s {
		s[i] = T(rng.Float64()*2 - 1)
	}
	return s
}

// reportFlops reports GFLOP/s for b.N runs of flops floating-point
// operations each.
func reportFlops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

var benchSizes = []int{16, 64, 128, 256, 512, 1024}

// BenchmarkF32 times square row-major products C = A·B.
func BenchmarkF32(b *testing.B) { benchSquare(b, F32) }

// BenchmarkF64 is BenchmarkF32 for float64.
func BenchmarkF64(b *testing.B) { benchSquare(b, F64) }

func benchSquare[T float](b *testing.B, f func(m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, y, z := randSlice[T](n*n), randSlice[T](n*n), make([]T, n*n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f(n, n, n, 1, x, n, 1, y, n, 1, 0, z, n, 1)
			}
			reportFlops(b, 2*float64(n)*float64(n)*float64(n))
		})
	}
}

// BenchmarkF32Layouts times 512³ products with transposed operands.
func BenchmarkF32Layouts(b *testing.B) {
	const n = 512
	x, y, z := randSlice[float32](n*n), randSlice[float32](n*n), make([]float32, n*n)
	for _, l := range []struct {
		name                         string
		rsA, csA, rsB, csB, rsC, csC int
	}{
		{"NN", n, 1, n, 1, n, 1},
		{"TN", 1, n, n, 1, n, 1},
		{"NT", n, 1, 1, n, n, 1},
		{"TT", 1, n, 1, n, n, 1},
		{"Ccol", n, 1, n, 1, 1, n},
	} {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				F32(n, n, n, 1, x, l.rsA, l.csA, y, l.rsB, l.csB, 0, z, l.rsC, l.csC)
			}
			reportFlops(b, 2*n*n*n)
		})
	}
}

// BenchmarkBmm times torch.bmm of 64 batches of 128×64 @ 64×128.
func BenchmarkBmm(b *testing.B) {
	const batch, m, k, n = 64, 128, 64, 128
	x, y, z := randSlice[float32](batch*m*k), randSlice[float32](batch*k*n), make([]float32, batch*m*n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		F32Batched(batch, m, n, k, 1, x, m*k, k, 1, y, k*n, n, 1, 0, z, m*n, n, 1)
	}
	reportFlops(b, 2*batch*m*n*k)
}

// BenchmarkLinear times torch.nn.functional.linear of a 256×512 input with
// a 512×512 weight (used transposed) and a bias: C is filled with the bias
// and accumulated into with beta = 1.
func BenchmarkLinear(b *testing.B) {
	const m, k, n = 256, 512, 512
	x, w, bias, z := randSlice[float32](m*k), randSlice[float32](n*k), randSlice[float32](n), make([]float32, m*n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < m; r++ {
			copy(z[r*n:(r+1)*n], bias)
		}
		F32(m, n, k, 1, x, k, 1, w, 1, k, 1, z, n, 1)
	}
	reportFlops(b, 2*m*n*k)
}

// BenchmarkKernel times the microkernels alone on L1-resident slivers (one
// goroutine): the ceiling of everything else.
func BenchmarkKernel(b *testing.B) {
	const k = 256
	b.Run("F32", func(b *testing.B) {
		mr, nr := f32.mr, f32.nr
		a, bb, c := aligned[float32](k*mr), aligned[float32](k*nr), aligned[float32](mr*nr)
		for i := 0; i < b.N; i++ {
			f32.kernel(k, a, bb, c, nr, 1, 0)
		}
		reportFlops(b, 2*float64(k*mr*nr))
	})
	b.Run("F64", func(b *testing.B) {
		mr, nr := f64.mr, f64.nr
		a, bb, c := aligned[float64](k*mr), aligned[float64](k*nr), aligned[float64](mr*nr)
		for i := 0; i < b.N; i++ {
			f64.kernel(k, a, bb, c, nr, 1, 0)
		}
		reportFlops(b, 2*float64(k*mr*nr))
	})
	if bf16dot != nil {
		b.Run("BF16", func(b *testing.B) {
			mr, nr := bf16dot.mr, bf16dot.nr
			a, bb, c := aligned[uint32](k*mr), aligned[uint32](k*nr), aligned[float32](mr*nr)
			for i := 0; i < b.N; i++ {
				bf16dot.kernel(k, a, bb, c, nr, 1, 0)
			}
			reportFlops(b, 4*float64(k*mr*nr)) // k pairs
		})
	}
}

// BenchmarkHalf times square row-major products of 16-bit floats.
func BenchmarkHalf(b *testing.B) {
	for _, h := range halves {
		for _, n := range []int{128, 512} {
			b.Run(fmt.Sprintf("%s/%d", h.name, n), func(b *testing.B) {
				x, y, z := make([]uint16, n*n), make([]uint16, n*n), make([]uint16, n*n)
				for i, v := range randSlice[float32](n * n) {
					x[i], y[len(y)-1-i] = h.from(v), h.from(v)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					h.f(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
				}
				reportFlops(b, 2*float64(n)*float64(n)*float64(n))
			})
		}
	}
}

// BenchmarkGemv times matrix-vector products (torch.mv) of a row-major
// and a column-major 4096×4096 float32 matrix.
func BenchmarkGemv(b *testing.B) {
	const n = 4096
	a, x, y := randSlice[float32](n*n), randSlice[float32](n), make([]float32, n)
	for _, l := range []struct {
		name     string
		rsA, csA int
	}{{"N", n, 1}, {"T", 1, n}} {
		b.Run(l.name, func(b *testing.B) {
			b.SetBytes(4 * n * n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				F32(n, 1, n, 1, a, l.rsA, l.csA, x, 1, 1, 0, y, 1, 1)
			}
		})
	}
}
