package dtype

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestFMA32 checks FMA32 against x*y + z computed exactly and rounded once
// to float32 (math/big), on random operands and on sums built to land
// halfway between two float32s in float64, where rounding twice would be
// off by an ulp.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	exact := func(x, y, z float32) float32 {
		p := new(big.Float).SetPrec(200).Mul(big.NewFloat(float64(x)).SetPrec(200), big.NewFloat(float64(y)).SetPrec(200))
		s := p.Add(p, big.NewFloat(float64(z)).SetPrec(200))
		f, _ := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).Set(s).Float32()
		return f
	}
	check := func(x, y, z float32) {
		got, want := FMA32(x, y, z), exact(x, y, z)
		if math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
			t.Fatalf("FMA32(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
	}
	for range 200000 {
		x := float32(rng.NormFloat64())
		y := float32(rng.NormFloat64())
		z := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		check(x, y, z)
	}
	// x*y = 1 + 2^-24 + 2^-48 style products next to a float32 midpoint
	for k := range 2000 {
		x := math.Float32frombits(0x3f800000 + uint32(k))
		y := math.Float32frombits(0x3f800000 + uint32(rng.IntN(1<<23)))
		check(x, y, float32(-1))
		check(x, y, math.Float32frombits(0x33800000)) // 2^-24
	}
	if v := FMA32(float32(math.NaN()), 1, 1); v == v {
		t.Fatal("NaN operand: no NaN")
	}
}
