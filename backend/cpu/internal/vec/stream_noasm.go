//go:build !amd64 || purego

package vec

// Without assembly every streaming primitive is its plain one's pure-Go
// twin (Note [Non-temporal stores] is about the assembly).

// AddF32Stream is [AddF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addF32Go's.
func AddF32Stream(dst, a, b []float32) { addF32Go(dst, a, b) }

// SubF32Stream is [SubF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subF32Go's.
func SubF32Stream(dst, a, b []float32) { subF32Go(dst, a, b) }

// MulF32Stream is [MulF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulF32Go's.
func MulF32Stream(dst, a, b []float32) { mulF32Go(dst, a, b) }

// DivF32Stream is [DivF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divF32Go's.
func DivF32Stream(dst, a, b []float32) { divF32Go(dst, a, b) }

// AddScalarF32Stream is [AddScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addScalarF32Go's.
func AddScalarF32Stream(dst, a []float32, s float32) { addScalarF32Go(dst, a, s) }

// SubScalarF32Stream is [SubScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subScalarF32Go's.
func SubScalarF32Stream(dst, a []float32, s float32) { subScalarF32Go(dst, a, s) }

// MulScalarF32Stream is [MulScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulScalarF32Go's.
func MulScalarF32Stream(dst, a []float32, s float32) { mulScalarF32Go(dst, a, s) }

// DivScalarF32Stream is [DivScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divScalarF32Go's.
func DivScalarF32Stream(dst, a []float32, s float32) { divScalarF32Go(dst, a, s) }

// ScalarSubF32Stream is [ScalarSubF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarSubF32Go's.
func ScalarSubF32Stream(dst, a []float32, s float32) { scalarSubF32Go(dst, a, s) }

// ScalarDivF32Stream is [ScalarDivF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarDivF32Go's.
func ScalarDivF32Stream(dst, a []float32, s float32) { scalarDivF32Go(dst, a, s) }

// AxpyF32Stream is [AxpyF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is axpyF32Go's.
func AxpyF32Stream(dst, a, b []float32, alpha float32) { axpyF32Go(dst, a, b, alpha) }

// AddF64Stream is [AddF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addF64Go's.
func AddF64Stream(dst, a, b []float64) { addF64Go(dst, a, b) }

// SubF64Stream is [SubF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subF64Go's.
func SubF64Stream(dst, a, b []float64) { subF64Go(dst, a, b) }

// MulF64Stream is [MulF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulF64Go's.
func MulF64Stream(dst, a, b []float64) { mulF64Go(dst, a, b) }

// DivF64Stream is [DivF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divF64Go's.
func DivF64Stream(dst, a, b []float64) { divF64Go(dst, a, b) }

// AddScalarF64Stream is [AddScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addScalarF64Go's.
func AddScalarF64Stream(dst, a []float64, s float64) { addScalarF64Go(dst, a, s) }

// SubScalarF64Stream is [SubScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subScalarF64Go's.
func SubScalarF64Stream(dst, a []float64, s float64) { subScalarF64Go(dst, a, s) }

// MulScalarF64Stream is [MulScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulScalarF64Go's.
func MulScalarF64Stream(dst, a []float64, s float64) { mulScalarF64Go(dst, a, s) }

// DivScalarF64Stream is [DivScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divScalarF64Go's.
func DivScalarF64Stream(dst, a []float64, s float64) { divScalarF64Go(dst, a, s) }

// ScalarSubF64Stream is [ScalarSubF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarSubF64Go's.
func ScalarSubF64Stream(dst, a []float64, s float64) { scalarSubF64Go(dst, a, s) }

// ScalarDivF64Stream is [ScalarDivF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarDivF64Go's.
func ScalarDivF64Stream(dst, a []float64, s float64) { scalarDivF64Go(dst, a, s) }

// AxpyF64Stream is [AxpyF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is axpyF64Go's.
func AxpyF64Stream(dst, a, b []float64, alpha float64) { axpyF64Go(dst, a, b, alpha) }

// TanhF32Stream is [TanhF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is tanhF32Go's.
func TanhF32Stream(dst, x []float32) { tanhF32Go(dst, x) }

// SigmoidF32Stream is [SigmoidF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is sigmoidF32Go's.
func SigmoidF32Stream(dst, x []float32) { sigmoidF32Go(dst, x) }

// GeluF32Stream is [GeluF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is geluF32Go's.
func GeluF32Stream(dst, x []float32) { geluF32Go(dst, x) }
