package vec

// logit with eps (asm/elemlogiteps.go): x clamped to [lo, hi] as
// optable/elem's Logit clamps it (lo where x < lo, else hi where x > hi,
// a NaN unchanged), then logit.

func clampLoHi[T floats](x, lo, hi T) T {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

func logitEpsF32(x, lo, hi float32) float32 { return logitF32(clampLoHi(x, lo, hi)) }
func logitEpsF64(x, lo, hi float64) float64 { return logitF64(clampLoHi(x, lo, hi)) }

func logitEpsF32Slow(x, lo, hi float32) bool { return logitF32Slow(clampLoHi(x, lo, hi)) }
func logitEpsF64Slow(x, lo, hi float64) bool { return logitF64Slow(clampLoHi(x, lo, hi)) }
