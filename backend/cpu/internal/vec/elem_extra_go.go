package vec

import "math"

// The twins of asm/elemextra.go's kernels.

func elSquare[T number](x T) T { return x * x }

func elCopysignF32(a, b float32) float32 {
	return math.Float32frombits(math.Float32bits(a)&^sign32 | math.Float32bits(b)&sign32)
}

func elCopysignF64(a, b float64) float64 {
	return math.Float64frombits(math.Float64bits(a)&^sign64 | math.Float64bits(b)&sign64)
}

func elIdent[T any](x T) T { return x }

func elSignInt[T ints](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return ^T(0) // -1 (uint8 never gets here)
	}
	return 0
}

// elShl and elShr are optable's a << uint64(b) and a >> uint64(b).
func elShl[T ints](a, b T) T { return a << uint64(b) }
func elShr[T ints](a, b T) T { return a >> uint64(b) }
