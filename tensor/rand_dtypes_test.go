package tensor_test

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

func TestRandDTypes(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Bool, tensor.Uint8, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64} {
		g := tensor.NewGenerator(1)
		wantError(t, "rand "+dt.String(), tensor.DTypeError, `"check_uniform_bounds" not implemented for '`+dt.String()+`'`, func() { g.Rand(dt, 2) })
		wantError(t, "randn "+dt.String(), tensor.DTypeError, `"normal_kernel_cpu" not implemented for '`+dt.String()+`'`, func() { g.Randn(dt, 2) })
		wantError(t, "rand of none "+dt.String(), tensor.DTypeError, "not implemented", func() { g.Rand(dt, 0) })
	}
	// Uniform values are multiples of 2^-p, p the dtype's precision, all
	// below 1 (once 2^20 float16 draws rounded 254 of them up to 1.0), and
	// a large sample of a 16-bit float holds each of its 2^p values.
	const n = 1 << 20
	for _, c := range []struct {
		dt   tensor.DType
		bits uint
	}{{tensor.Float16, 11}, {tensor.BFloat16, 8}, {tensor.Float32, 24}, {tensor.Float64, 53}} {
		seen := map[float64]bool{}
		var mean float64
		for _, x := range tensor.NewGenerator(3).Rand(c.dt, n).Float64s() {
			k := x * float64(uint64(1)<<c.bits)
			if x < 0 || x >= 1 || k != math.Trunc(k) {
				t.Fatalf("rand %s: %v is not a multiple of 2^-%d in [0, 1)", c.dt, x, c.bits)
			}
			seen[x] = true
			mean += x / n
		}
		if c.bits <= 11 && len(seen) != 1<<c.bits {
			t.Errorf("rand %s: %d distinct values, want all %d", c.dt, len(seen), 1<<c.bits)
		}
		if want := 0.5 - math.Ldexp(0.5, -int(c.bits)); math.Abs(mean-want) > 0.002 {
			t.Errorf("rand %s: mean %v, want about %v", c.dt, mean, want)
		}
	}
}
