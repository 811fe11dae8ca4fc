//go:build amd64 && !purego

package vec

import "unsafe"

// Note [Non-temporal stores]
// Each XStream primitive is X (same arguments, same results bit for bit:
// the same instruction sequence, and X's pure-Go twin is its twin), but
// its assembly stores the vectors of dst with VMOVNTPS/VMOVNTPD:
// non-temporal stores, which write whole cache lines through
// write-combining buffers without first reading them from memory (the
// read-for-ownership an ordinary store pays), and do not keep them in
// the caches. Out of cache, c = a + b then moves 12 bytes per element
// instead of 16, and dst = s·a 8 instead of 12. They need 32-byte aligned
// addresses: the kernel runs X's scalar sequence on the leading elements
// until dst is aligned, then the vector loops with non-temporal stores,
// then the scalar tail, and ends with SFENCE, so that the stores are
// ordered before whatever the caller does next (another goroutine may
// read dst once it is told the work is done). A dst whose address is not
// a multiple of the element size (possible only through unsafe) never
// aligns: X runs instead, as it does without AVX2.
//
// They lose badly when dst is read soon after and would have stayed in
// cache: callers use them only for outputs much larger than the caches
// (Note [Streaming stores] in package backend/cpu).

// streamable reports whether the streaming assembly may run on dst: AVX2
// and FMA are there, and dst's address is a multiple of the element size.
func streamable[T float32 | float64](dst []T) bool {
	var z T
	return useAVX2 && uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%unsafe.Sizeof(z) == 0
}

// AddF32Stream is [AddF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addF32Go's.
func AddF32Stream(dst, a, b []float32) {
	if !streamable(dst) {
		AddF32(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	addF32StreamAVX2(dst, a, b)
}

// SubF32Stream is [SubF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subF32Go's.
func SubF32Stream(dst, a, b []float32) {
	if !streamable(dst) {
		SubF32(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	subF32StreamAVX2(dst, a, b)
}

// MulF32Stream is [MulF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulF32Go's.
func MulF32Stream(dst, a, b []float32) {
	if !streamable(dst) {
		MulF32(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	mulF32StreamAVX2(dst, a, b)
}

// DivF32Stream is [DivF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divF32Go's.
func DivF32Stream(dst, a, b []float32) {
	if !streamable(dst) {
		DivF32(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	divF32StreamAVX2(dst, a, b)
}

// AddScalarF32Stream is [AddScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addScalarF32Go's.
func AddScalarF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		AddScalarF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	addScalarF32StreamAVX2(dst, a, s)
}

// SubScalarF32Stream is [SubScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subScalarF32Go's.
func SubScalarF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		SubScalarF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	subScalarF32StreamAVX2(dst, a, s)
}

// MulScalarF32Stream is [MulScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulScalarF32Go's.
func MulScalarF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		MulScalarF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	mulScalarF32StreamAVX2(dst, a, s)
}

// DivScalarF32Stream is [DivScalarF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divScalarF32Go's.
func DivScalarF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		DivScalarF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	divScalarF32StreamAVX2(dst, a, s)
}

// ScalarSubF32Stream is [ScalarSubF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarSubF32Go's.
func ScalarSubF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		ScalarSubF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarSubF32StreamAVX2(dst, a, s)
}

// ScalarDivF32Stream is [ScalarDivF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarDivF32Go's.
func ScalarDivF32Stream(dst, a []float32, s float32) {
	if !streamable(dst) {
		ScalarDivF32(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarDivF32StreamAVX2(dst, a, s)
}

// AxpyF32Stream is [AxpyF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is axpyF32Go's.
func AxpyF32Stream(dst, a, b []float32, alpha float32) {
	if !streamable(dst) {
		AxpyF32(dst, a, b, alpha)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	axpyF32StreamAVX2(dst, a, b, alpha)
}

// AddF64Stream is [AddF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addF64Go's.
func AddF64Stream(dst, a, b []float64) {
	if !streamable(dst) {
		AddF64(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	addF64StreamAVX2(dst, a, b)
}

// SubF64Stream is [SubF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subF64Go's.
func SubF64Stream(dst, a, b []float64) {
	if !streamable(dst) {
		SubF64(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	subF64StreamAVX2(dst, a, b)
}

// MulF64Stream is [MulF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulF64Go's.
func MulF64Stream(dst, a, b []float64) {
	if !streamable(dst) {
		MulF64(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	mulF64StreamAVX2(dst, a, b)
}

// DivF64Stream is [DivF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divF64Go's.
func DivF64Stream(dst, a, b []float64) {
	if !streamable(dst) {
		DivF64(dst, a, b)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	divF64StreamAVX2(dst, a, b)
}

// AddScalarF64Stream is [AddScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is addScalarF64Go's.
func AddScalarF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		AddScalarF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	addScalarF64StreamAVX2(dst, a, s)
}

// SubScalarF64Stream is [SubScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is subScalarF64Go's.
func SubScalarF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		SubScalarF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	subScalarF64StreamAVX2(dst, a, s)
}

// MulScalarF64Stream is [MulScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is mulScalarF64Go's.
func MulScalarF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		MulScalarF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	mulScalarF64StreamAVX2(dst, a, s)
}

// DivScalarF64Stream is [DivScalarF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is divScalarF64Go's.
func DivScalarF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		DivScalarF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	divScalarF64StreamAVX2(dst, a, s)
}

// ScalarSubF64Stream is [ScalarSubF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarSubF64Go's.
func ScalarSubF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		ScalarSubF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarSubF64StreamAVX2(dst, a, s)
}

// ScalarDivF64Stream is [ScalarDivF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is scalarDivF64Go's.
func ScalarDivF64Stream(dst, a []float64, s float64) {
	if !streamable(dst) {
		ScalarDivF64(dst, a, s)
		return
	}
	a = a[:len(dst)]
	scalarDivF64StreamAVX2(dst, a, s)
}

// AxpyF64Stream is [AxpyF64] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is axpyF64Go's.
func AxpyF64Stream(dst, a, b []float64, alpha float64) {
	if !streamable(dst) {
		AxpyF64(dst, a, b, alpha)
		return
	}
	a, b = a[:len(dst)], b[:len(dst)]
	axpyF64StreamAVX2(dst, a, b, alpha)
}

// TanhF32Stream is [TanhF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is tanhF32Go's.
func TanhF32Stream(dst, x []float32) {
	if !streamable(dst) {
		TanhF32(dst, x)
		return
	}
	x = x[:len(dst)]
	tanhF32StreamAVX2(dst, x)
}

// SigmoidF32Stream is [SigmoidF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is sigmoidF32Go's.
func SigmoidF32Stream(dst, x []float32) {
	if !streamable(dst) {
		SigmoidF32(dst, x)
		return
	}
	x = x[:len(dst)]
	sigmoidF32StreamAVX2(dst, x)
}

// GeluF32Stream is [GeluF32] with dst stored by non-temporal stores (Note
// [Non-temporal stores]), for outputs far larger than the caches.
// Its exact loop is geluF32Go's.
func GeluF32Stream(dst, x []float32) {
	if !streamable(dst) {
		GeluF32(dst, x)
		return
	}
	x = x[:len(dst)]
	geluF32StreamAVX2(dst, x)
}

// streamHead returns how many leading elements of dst lie before its first
// vector-aligned address (64 bytes with AVX-512, 32 with AVX2), at most
// len(dst): the elementwise kernels' Stream wrappers run the plain kernel
// on those. It returns -1 where no streaming kernel may run: without AVX2,
// or when dst's address is not a multiple of the element size (it never
// aligns).
func streamHead[T any](dst []T) int {
	var z T
	es := unsafe.Sizeof(z)
	at := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	if !useAVX2 || at%es != 0 {
		return -1
	}
	align := uintptr(32)
	if useAVX512 {
		align = 64
	}
	return min(int((align-at%align)%align/es), len(dst))
}
