package gemm

// kernelGo is the microkernel in Go, of any tile size: with A the mr×k
// matrix a[p*mr+i] and B the k×nr matrix b[p*nr+j], it sets
//
//	c[i*ldc+j] = alpha·Σ_p A[i][p]·B[p][j] + beta·c[i*ldc+j]
//
// for i < mr, j < nr, the sum taken in order of p; beta == 0 drops the
// second term without reading c. It accumulates one row of the tile at a
// time in a local array. The assembly kernels fuse each multiply-add (one
// rounding each), so results can differ in the last bits.
func kernelGo[T num](mr, nr, k int, a, b, c []T, ldc int, alpha, beta T) {
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

// kernelGoOf returns kernelGo with an mr×nr tile as a kernelFunc.
func kernelGoOf[T num](mr, nr int) kernelFunc[T, T] {
	return func(k int, a, b, c []T, ldc int, alpha, beta T) { kernelGo(mr, nr, k, a, b, c, ldc, alpha, beta) }
}

// kernelPairsGo is the bfloat16 dot-product microkernel in Go: a and b are
// slivers of k pair steps (Pair packs, pack.go), and it sets
//
//	c[i*ldc+j] = alpha·Σ_q (A[i][2q+1]·B[2q+1][j] + A[i][2q]·B[2q][j]) + beta·c[i*ldc+j]
//
// in float32, adding the two products of a step to the sum one after the
// other in that order, as VDPBF16PS does (each product of two bfloat16 is
// exact in float32). VDPBF16PS also flushes subnormal inputs and results
// to zero, which this twin does not; the tests keep away from them.
func kernelPairsGo(mr, nr, k int, a, b []uint32, c []float32, ldc int, alpha, beta float32) {
	a, b = a[:k*mr], b[:k*nr]
	var acc [maxNR]float32
	for i := 0; i < mr; i++ {
		row := acc[:nr]
		clear(row)
		for q := 0; q < k; q++ {
			ai := a[q*mr+i]
			alo, ahi := bf16ToF32(uint16(ai)), bf16ToF32(uint16(ai>>16))
			bq := b[q*nr : q*nr+nr]
			for j, v := range bq {
				row[j] += ahi * bf16ToF32(uint16(v>>16))
				row[j] += alo * bf16ToF32(uint16(v))
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
