//go:build !amd64 || purego

package vec

// rows runs a rows primitive's pure-Go twin (nothing for an empty layout).
func rows[T float32 | float64](twin func(dst, a, s []T, r ScalarRows), dst, a, s []T, r ScalarRows) {
	if !r.empty(len(dst), len(a), len(s)) {
		twin(dst, a, s, r)
	}
}

// AddScalarRowsF32 runs [AddScalarF32] on each row of r with its scalar.
// Its exact loop is addScalarRowsF32Go's.
func AddScalarRowsF32(dst, a, s []float32, r ScalarRows) { rows(addScalarRowsF32Go, dst, a, s, r) }

// SubScalarRowsF32 runs [SubScalarF32] on each row of r with its scalar.
// Its exact loop is subScalarRowsF32Go's.
func SubScalarRowsF32(dst, a, s []float32, r ScalarRows) { rows(subScalarRowsF32Go, dst, a, s, r) }

// MulScalarRowsF32 runs [MulScalarF32] on each row of r with its scalar.
// Its exact loop is mulScalarRowsF32Go's.
func MulScalarRowsF32(dst, a, s []float32, r ScalarRows) { rows(mulScalarRowsF32Go, dst, a, s, r) }

// DivScalarRowsF32 runs [DivScalarF32] on each row of r with its scalar.
// Its exact loop is divScalarRowsF32Go's.
func DivScalarRowsF32(dst, a, s []float32, r ScalarRows) { rows(divScalarRowsF32Go, dst, a, s, r) }

// AddScalarRowsF64 runs [AddScalarF64] on each row of r with its scalar.
// Its exact loop is addScalarRowsF64Go's.
func AddScalarRowsF64(dst, a, s []float64, r ScalarRows) { rows(addScalarRowsF64Go, dst, a, s, r) }

// SubScalarRowsF64 runs [SubScalarF64] on each row of r with its scalar.
// Its exact loop is subScalarRowsF64Go's.
func SubScalarRowsF64(dst, a, s []float64, r ScalarRows) { rows(subScalarRowsF64Go, dst, a, s, r) }

// MulScalarRowsF64 runs [MulScalarF64] on each row of r with its scalar.
// Its exact loop is mulScalarRowsF64Go's.
func MulScalarRowsF64(dst, a, s []float64, r ScalarRows) { rows(mulScalarRowsF64Go, dst, a, s, r) }

// DivScalarRowsF64 runs [DivScalarF64] on each row of r with its scalar.
// Its exact loop is divScalarRowsF64Go's.
func DivScalarRowsF64(dst, a, s []float64, r ScalarRows) { rows(divScalarRowsF64Go, dst, a, s, r) }
