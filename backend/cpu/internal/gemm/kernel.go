package gemm

// kernelF32Go is the float32 microkernel in Go: with A the mr×k matrix
// a[p*mr+i] and B the k×nr matrix b[p*nr+j], it sets
//
//	c[i*ldc+j] = alpha·Σ_p A[i][p]·B[p][j] + beta·c[i*ldc+j]
//
// for i < mr, j < nr, the sum taken in order of p; beta == 0 drops the
// second term without reading c. The assembly kernel fuses each
// multiply-add (one rounding each), so results can differ in the last bits.
func kernelF32Go(k int, a, b, c []float32, ldc int, alpha, beta float32) {
	kernelGo(mrF32, nrF32, k, a, b, c, ldc, alpha, beta)
}

// kernelF64Go is kernelF32Go for float64.
func kernelF64Go(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	kernelGo(mrF64, nrF64, k, a, b, c, ldc, alpha, beta)
}

// kernelGo is the microkernel of any tile size, accumulating one row of the
// tile at a time in a local array.
func kernelGo[T float](mr, nr, k int, a, b, c []T, ldc int, alpha, beta T) {
	a, b = a[:k*mr], b[:k*nr]
	var acc [maxNR]T
	for i := 0; i < mr; i++ {
		row := acc[:nr]
		clear(row)
		for p := 0; p < k; p++ {
			ai := a[p*mr+i]
			bp := b[p*nr : p*nr+nr]
			for j, v := range bp {
				row[j] += ai * v
			}
		}
		ci := c[i*ldc : i*ldc+nr]
		if beta == 0 {
			for j, v := range row {
				ci[j] = alpha * v
			}
		} else {
			for j, v := range row {
				ci[j] = alpha*v + beta*ci[j]
			}
		}
	}
}
