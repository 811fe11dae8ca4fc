//go:build amd64 && !purego

package gemm

import "github.com/goten-ml/goten/backend/cpu/internal/cpufeat"

//go:generate go run -C ../../../../asm . -out ../backend/cpu/internal/gemm/zz_gemm_amd64.s -stubs ../backend/cpu/internal/gemm/zz_stubs_amd64.go -pkg gemm

// The assembly kernels' tiles at each level (Note [Kernel levels] in
// package cpufeat): AVX2 holds a 6×16 float32 or 6×8 float64 tile of C in
// twelve YMM registers, AVX-512 a 12×32 or 12×16 tile in 24 ZMM registers.
const (
	mrAVX2, nrF32AVX2, nrF64AVX2       = 6, 16, 8
	mrAVX512, nrF32AVX512, nrF64AVX512 = 12, 32, 16
)

func init() {
	feat := cpufeat.Current()
	switch {
	case feat.Level >= cpufeat.AVX512:
		f32 = newFloat(asmKernel(mrAVX512, nrF32AVX512, kernelF32x12x32AVX512), mrAVX512, nrF32AVX512, asmPack[float32], 256, 288, 3072, gemvF32AVX512)
		f64 = newFloat(asmKernel(mrAVX512, nrF64AVX512, kernelF64x12x16AVX512), mrAVX512, nrF64AVX512, asmPack[float64], 256, 144, 3072, gemvF64)
	case feat.Level >= cpufeat.AVX2:
		f32 = newFloat(asmKernel(mrAVX2, nrF32AVX2, kernelF32AVX2), mrAVX2, nrF32AVX2, asmPack[float32], 256, 144, 3072, gemvF32)
		f64 = newFloat(asmKernel(mrAVX2, nrF64AVX2, kernelF64AVX2), mrAVX2, nrF64AVX2, asmPack[float64], 256, 72, 3072, gemvF64)
	default:
		return
	}
	bf16 = newConv(f32, bf16ToF32, asmPackConv(bf16ToF32, convBF16), bf16.toT, bf16.fromT, bf16.fromTRows)
	f16Packs := goPackConv(f16ToF32)
	if feat.F16C {
		f16Packs = asmPackConv(f16ToF32, convF16)
	}
	f16 = newConv(f32, f16ToF32, f16Packs, f16.toT, f16.fromT, f16.fromTRows)
	if feat.Level >= cpufeat.AVX512 && feat.AVX512BF16 {
		// Pairs of k make the B sliver of kc = 512 as large as float32's of
		// 256.
		bf16dot = newPairs(asmKernelPairs(mrAVX512, nrF32AVX512, kernelBF16x12x32AVX512), mrAVX512, nrF32AVX512, asmPairPack, 512, 288, 3072)
	}
}

// convBF16 and convF16 are the converting packs by width, copying and
// transposing.
var (
	convBF16 = map[[2]int]func(k int, src *uint16, ld int, dst *float32){
		{6, 0}: packCopy6BF16AVX2, {6, 1}: packTrans6BF16AVX2,
		{12, 0}: packCopy12BF16AVX2, {12, 1}: packTrans12BF16AVX2,
		{16, 0}: packCopy16BF16AVX2, {16, 1}: packTrans16BF16AVX2,
		{32, 0}: packCopy32BF16AVX2, {32, 1}: packTrans32BF16AVX2,
	}
	convF16 = map[[2]int]func(k int, src *uint16, ld int, dst *float32){
		{6, 0}: packCopy6F16AVX2, {6, 1}: packTrans6F16AVX2,
		{12, 0}: packCopy12F16AVX2, {12, 1}: packTrans12F16AVX2,
		{16, 0}: packCopy16F16AVX2, {16, 1}: packTrans16F16AVX2,
		{32, 0}: packCopy32F16AVX2, {32, 1}: packTrans32F16AVX2,
	}
)

// asmPackConv is the packKit of the converting packs in fs (the Go twins,
// converting with conv, for other widths).
func asmPackConv(conv func(uint16) float32, fs map[[2]int]func(k int, src *uint16, ld int, dst *float32)) packKit[uint16, float32] {
	return func(w int, trans bool) packFunc[uint16, float32] {
		f := fs[[2]int{w, b2i(trans)}]
		if f == nil {
			return goPackConv(conv)(w, trans)
		}
		return func(k int, src []uint16, ld int, dst []float32) {
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
}

// asmKernelPairs wraps an assembly dot-product microkernel of an mr×nr
// tile with the checks of its slices' lengths.
func asmKernelPairs(mr, nr int, f func(k int, a, b *uint32, c *float32, ldc int, alpha, beta float32)) kernelFunc[uint32, float32] {
	return func(k int, a, b []uint32, c []float32, ldc int, alpha, beta float32) {
		_, _, _ = a[k*mr-1], b[k*nr-1], c[(mr-1)*ldc+nr-1]
		f(k, &a[0], &b[0], &c[0], ldc, alpha, beta)
	}
}

// asmPairPack is the packKit of the assembly pair packs (widths 12 and
// 32), which take whole pairs: the last step of an odd k is packed here.
func asmPairPack(w int, trans bool) packFunc[uint16, uint32] {
	f := map[[2]int]func(k int, src *uint16, ld int, dst *uint32){
		{12, 0}: packCopyPairs12AVX2, {12, 1}: packTransPairs12AVX2,
		{32, 0}: packCopyPairs32AVX2, {32, 1}: packTransPairs32AVX2,
	}[[2]int{w, b2i(trans)}]
	if f == nil {
		if trans {
			return func(k int, src []uint16, ld int, dst []uint32) { packTransPairsGo(w, k, src, ld, dst) }
		}
		return func(k int, src []uint16, ld int, dst []uint32) { packCopyPairsGo(w, k, src, ld, dst) }
	}
	return func(k int, src []uint16, ld int, dst []uint32) {
		kq := k / 2
		if kq > 0 {
			_ = dst[kq*w-1]
			if trans {
				_ = src[(w-1)*ld+2*kq-1]
			} else {
				_ = src[(2*kq-1)*ld+w-1]
			}
			f(kq, &src[0], ld, &dst[0])
		}
		if k%2 == 1 {
			d := dst[kq*w : kq*w+w]
			for i := range d {
				if trans {
					d[i] = pair(src[i*ld+k-1], 0)
				} else {
					d[i] = pair(src[(k-1)*ld+i], 0)
				}
			}
		}
	}
}

// asmKernel wraps an assembly microkernel of an mr×nr tile with the
// checks of its slices' lengths.
func asmKernel[T num](mr, nr int, f func(k int, a, b, c *T, ldc int, alpha, beta T)) kernelFunc[T, T] {
	return func(k int, a, b, c []T, ldc int, alpha, beta T) {
		_, _, _ = a[k*mr-1], b[k*nr-1], c[(mr-1)*ldc+nr-1]
		f(k, &a[0], &b[0], &c[0], ldc, alpha, beta)
	}
}

// asmPack is the packKit of the assembly packing routines: the widths
// the kernels above use, and the Go twins for any other.
func asmPack[T num](w int, trans bool) packFunc[T, T] {
	var f func(k int, src *T, ld int, dst *T)
	switch fn := any(&f).(type) {
	case *func(int, *float32, int, *float32):
		*fn = map[[2]int]func(int, *float32, int, *float32){
			{6, 0}: packCopy6F32AVX2, {6, 1}: packTrans6F32AVX2,
			{16, 0}: packCopy16F32AVX2, {16, 1}: packTrans16F32AVX2,
			{12, 0}: packCopy12F32AVX2, {12, 1}: packTrans12F32AVX2,
			{32, 0}: packCopy32F32AVX2, {32, 1}: packTrans32F32AVX2,
		}[[2]int{w, b2i(trans)}]
	case *func(int, *float64, int, *float64):
		*fn = map[[2]int]func(int, *float64, int, *float64){
			{6, 0}: packCopy6F64AVX2, {6, 1}: packTrans6F64AVX2,
			{8, 0}: packCopy8F64AVX2, {8, 1}: packTrans8F64AVX2,
			{12, 0}: packCopy12F64AVX2, {12, 1}: packTrans12F64AVX2,
			{16, 0}: packCopy16F64AVX2, {16, 1}: packTrans16F64AVX2,
		}[[2]int{w, b2i(trans)}]
	}
	if f == nil {
		return goPack[T](w, trans)
	}
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gemvF32 and gemvF64 are the assembly matrix-vector kernels, with the
// checks of their slices' lengths.
var (
	gemvF32 = &gemvKit[float32]{
		dot:      asmGemv(gemvDot1F32AVX2, gemvDot4F32AVX2, true),
		axpy:     asmGemv(gemvAxpy1F32AVX2, gemvAxpy4F32AVX2, false),
		dotRows:  asmGemvRows(gemvDotRowsF32AVX2),
		dotRows4: asmGemvRows4(gemvDotRows4F32AVX2),
	}
	gemvF64 = &gemvKit[float64]{
		dot:  asmGemv(gemvDot1F64AVX2, gemvDot4F64AVX2, true),
		axpy: asmGemv(gemvAxpy1F64AVX2, gemvAxpy4F64AVX2, false),
	}
)

// gemvF32AVX512 is gemvF32 with the AVX-512 kernels of the row products
// (Note [Matrix-vector products]), one and four streams, whose bits are
// each other's (and not the AVX2 kernels').
var gemvF32AVX512 = &gemvKit[float32]{
	dot:      gemvF32.dot,
	axpy:     gemvF32.axpy,
	dotRows:  asmGemvRows(gemvDotRowsF32AVX512),
	dotRows4: asmGemvRows4(gemvDotRows4F32AVX512),
}

// asmGemvRows wraps a kernel of row products over len(y) rows.
func asmGemvRows(f func(k int, a *float32, lda int, x, y *float32, rows int)) func(k int, a []float32, lda int, x, y []float32) {
	return func(k int, a []float32, lda int, x, y []float32) {
		if rowsWork(k, a, lda, x, y) {
			f(k, &a[0], lda, &x[0], &y[0], len(y))
		}
	}
}

// rowsWork checks the slices of a call of a row kernel on len(y) rows of
// a, k elements each, lda apart, and reports whether it has work: not
// where there are no rows, nor where k ≤ 0 (y then cleared).
func rowsWork(k int, a []float32, lda int, x, y []float32) bool {
	if len(y) == 0 {
		return false
	}
	if k <= 0 {
		clear(y)
		return false
	}
	_ = a[(len(y)-1)*lda+k-1]
	_ = x[k-1]
	return true
}

// asmGemvRows4 wraps a kernel of row products on rows j, j+q, j+2q and
// j+3q (gemvDotRows4F32AVX2 or AVX512) as dotRows4 on len(y) = 4q rows: the
// kernel's four results per j are put back in row order from a buffer on
// the stack, 64 groups a call, so that the four streams run on through
// the calls.
func asmGemvRows4(f func(k int, a *float32, lda int, x, y *float32, q, n int)) func(k int, a []float32, lda int, x, y []float32) {
	return func(k int, a []float32, lda int, x, y []float32) {
		if len(y)%4 != 0 {
			panic("gemm: dotRows4 of a number of rows not a multiple of 4")
		}
		if !rowsWork(k, a, lda, x, y) {
			return
		}
		q := len(y) / 4
		var buf [4 * 64]float32
		for j0 := 0; j0 < q; j0 += 64 {
			n := min(64, q-j0)
			f(k, &a[j0*lda], lda, &x[0], &buf[0], q, n)
			for j := range n {
				for t := range 4 {
					y[j0+j+t*q] = buf[4*j+t]
				}
			}
		}
	}
}

// asmGemv wraps the one- and four-line kernels of gemvDotGo (dot) or
// gemvAxpyGo.
func asmGemv[T num](one, four func(n int, a *T, lda int, x, y *T), dot bool) func(n int, a []T, lda int, x, y []T) {
	return func(n int, a []T, lda int, x, y []T) {
		lines := len(y)
		if !dot {
			lines = len(x)
		}
		if n <= 0 {
			if dot {
				clear(y)
			}
			return
		}
		_ = a[(lines-1)*lda+n-1]
		if dot {
			_ = x[n-1]
		} else {
			_ = y[n-1]
		}
		f := one
		if lines == 4 {
			f = four
		} else if lines != 1 {
			panic("gemm: gemv kernel of 1 or 4 lines")
		}
		f(n, &a[0], lda, &x[0], &y[0])
	}
}
