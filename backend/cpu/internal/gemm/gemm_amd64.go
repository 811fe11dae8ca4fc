//go:build amd64 && !purego

package gemm

import "github.com/goten-ml/goten/backend/cpu/internal/cpufeat"

//go:generate go run -C ../../../../asm . -out ../backend/cpu/internal/gemm/zz_gemm_amd64.s -stubs ../backend/cpu/internal/gemm/zz_stubs_amd64.go -pkg gemm

// useAVX2 reports that kernels may use AVX2 and FMA (Note [Kernel levels]
// in package cpufeat).
var useAVX2 = cpufeat.Current().Level >= cpufeat.AVX2

func init() {
	if !useAVX2 {
		return
	}
	f32.kernel = kernelF32Asm
	f64.kernel = kernelF64Asm
	f32.copyA = packAsm(mrF32, false, packCopy6F32AVX2)
	f32.transA = packAsm(mrF32, true, packTrans6F32AVX2)
	f32.copyB = packAsm(nrF32, false, packCopy16F32AVX2)
	f32.transB = packAsm(nrF32, true, packTrans16F32AVX2)
	f64.copyA = packAsm(mrF64, false, packCopy6F64AVX2)
	f64.transA = packAsm(mrF64, true, packTrans6F64AVX2)
	f64.copyB = packAsm(nrF64, false, packCopy8F64AVX2)
	f64.transB = packAsm(nrF64, true, packTrans8F64AVX2)
}

// packAsm wraps an assembly packing routine of width w (packCopyGo's loop
// or, when trans, packTransGo's) with the checks of its slices' lengths.
func packAsm[T float](w int, trans bool, f func(k int, src *T, ld int, dst *T)) packFunc[T] {
	return func(k int, src []T, ld int, dst []T) {
		if k <= 0 {
			return
		}
		_ = dst[k*w-1]
		if trans {
			_ = src[(w-1)*ld+k-1]
		} else {
			_ = src[(k-1)*ld+w-1]
		}
		f(k, &src[0], ld, &dst[0])
	}
}

// kernelF32Asm checks the slices' lengths and runs kernelF32AVX2.
func kernelF32Asm(k int, a, b, c []float32, ldc int, alpha, beta float32) {
	_, _, _ = a[k*mrF32-1], b[k*nrF32-1], c[(mrF32-1)*ldc+nrF32-1]
	kernelF32AVX2(k, &a[0], &b[0], &c[0], ldc, alpha, beta)
}

// kernelF64Asm checks the slices' lengths and runs kernelF64AVX2.
func kernelF64Asm(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	_, _, _ = a[k*mrF64-1], b[k*nrF64-1], c[(mrF64-1)*ldc+nrF64-1]
	kernelF64AVX2(k, &a[0], &b[0], &c[0], ldc, alpha, beta)
}
