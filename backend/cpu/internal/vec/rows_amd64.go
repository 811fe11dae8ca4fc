//go:build amd64 && !purego

package vec

// rows runs a rows primitive: nothing for an empty layout, the pure-Go
// twin without AVX2, else the assembly.
func rows[T float32 | float64](asm func(dst, a, s []T, rows, rowLen, dstStride, aStride, sStride int), twin func(dst, a, s []T, r ScalarRows), dst, a, s []T, r ScalarRows) {
	switch {
	case r.empty(len(dst), len(a), len(s)):
	case !useAVX2:
		twin(dst, a, s, r)
	default:
		asm(dst, a, s, r.Rows, r.RowLen, r.DstStride, r.AStride, r.SStride)
	}
}

// AddScalarRowsF32 runs [AddScalarF32] on each row of r with its scalar.
// Its exact loop is addScalarRowsF32Go's.
func AddScalarRowsF32(dst, a, s []float32, r ScalarRows) {
	rows(addScalarRowsF32AVX2, addScalarRowsF32Go, dst, a, s, r)
}

// SubScalarRowsF32 runs [SubScalarF32] on each row of r with its scalar.
// Its exact loop is subScalarRowsF32Go's.
func SubScalarRowsF32(dst, a, s []float32, r ScalarRows) {
	rows(subScalarRowsF32AVX2, subScalarRowsF32Go, dst, a, s, r)
}

// MulScalarRowsF32 runs [MulScalarF32] on each row of r with its scalar.
// Its exact loop is mulScalarRowsF32Go's.
func MulScalarRowsF32(dst, a, s []float32, r ScalarRows) {
	rows(mulScalarRowsF32AVX2, mulScalarRowsF32Go, dst, a, s, r)
}

// DivScalarRowsF32 runs [DivScalarF32] on each row of r with its scalar.
// Its exact loop is divScalarRowsF32Go's.
func DivScalarRowsF32(dst, a, s []float32, r ScalarRows) {
	rows(divScalarRowsF32AVX2, divScalarRowsF32Go, dst, a, s, r)
}

// AddScalarRowsF64 runs [AddScalarF64] on each row of r with its scalar.
// Its exact loop is addScalarRowsF64Go's.
func AddScalarRowsF64(dst, a, s []float64, r ScalarRows) {
	rows(addScalarRowsF64AVX2, addScalarRowsF64Go, dst, a, s, r)
}

// SubScalarRowsF64 runs [SubScalarF64] on each row of r with its scalar.
// Its exact loop is subScalarRowsF64Go's.
func SubScalarRowsF64(dst, a, s []float64, r ScalarRows) {
	rows(subScalarRowsF64AVX2, subScalarRowsF64Go, dst, a, s, r)
}

// MulScalarRowsF64 runs [MulScalarF64] on each row of r with its scalar.
// Its exact loop is mulScalarRowsF64Go's.
func MulScalarRowsF64(dst, a, s []float64, r ScalarRows) {
	rows(mulScalarRowsF64AVX2, mulScalarRowsF64Go, dst, a, s, r)
}

// DivScalarRowsF64 runs [DivScalarF64] on each row of r with its scalar.
// Its exact loop is divScalarRowsF64Go's.
func DivScalarRowsF64(dst, a, s []float64, r ScalarRows) {
	rows(divScalarRowsF64AVX2, divScalarRowsF64Go, dst, a, s, r)
}
