package gemm

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkTune sweeps blocking parameters given in GEMM_TUNE as
// "n:kc,mc,nc;kc,mc,nc;...".
func BenchmarkTune(b *testing.B) {
	spec := os.Getenv("GEMM_TUNE")
	if spec == "" {
		b.Skip()
	}
	ns, rest, _ := strings.Cut(spec, ":")
	n, _ := strconv.Atoi(ns)
	x, y, z := randSlice[float32](n*n), randSlice[float32](n*n), make([]float32, n*n)
	for _, cfg := range strings.Split(rest, ";") {
		f := strings.Split(cfg, ",")
		kc, _ := strconv.Atoi(f[0])
		mc, _ := strconv.Atoi(f[1])
		nc, _ := strconv.Atoi(f[2])
		b.Run(fmt.Sprintf("n%d_kc%d_mc%d_nc%d", n, kc, mc, nc), func(b *testing.B) {
			k0, m0, n0 := f32.kc, f32.mc, f32.nc
			f32.kc, f32.mc, f32.nc = kc, mc, nc
			defer func() { f32.kc, f32.mc, f32.nc = k0, m0, n0 }()
			for i := 0; i < b.N; i++ {
				F32(n, n, n, 1, x, n, 1, y, n, 1, 0, z, n, 1)
			}
			reportFlops(b, 2*float64(n)*float64(n)*float64(n))
		})
	}
}
