package vec

import (
	"math"
	"unsafe"
)

// The elementwise kernels of zz_elem_amd64.go (generated from asm/elemops.go
// and asm/elemmath.go with -part elem): unary and binary functions and
// comparisons for float and integer element types, each at two levels
// (AVX-512 and AVX2) from one description. Their pure-Go twins are the
// loops below over the element functions of this file and of
// elem_math_go.go: every kernel's doc comment names its exact loop, and the
// assembly of both levels gives its bits exactly (Note [One body, two
// instruction sets] in asm/elem.go), NaN payloads included.

// The element types of the kernels.
type (
	ints interface {
		int8 | int16 | int32 | int64 | uint8
	}
	floats interface{ float32 | float64 }
	number interface{ ints | floats }
)

// unaryGo is the exact loop of the unary kernels: dst[i] = f(x[i]).
func unaryGo[D, T any](dst []D, x []T, f func(T) D) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = f(x[i])
	}
}

// binaryGo is the exact loop of the binary kernels: dst[i] = f(a[i], b[i]).
func binaryGo[D, T any](dst []D, a, b []T, f func(T, T) D) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], b[i])
	}
}

// binaryScalarGo is the exact loop of the a∘s kernels: dst[i] = f(a[i], s).
func binaryScalarGo[D, T any](dst []D, a []T, s T, f func(T, T) D) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], s)
	}
}

// scalarBinaryGo is the exact loop of the s∘a kernels: dst[i] = f(s, a[i]).
func scalarBinaryGo[D, T any](dst []D, a []T, s T, f func(T, T) D) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f(s, a[i])
	}
}

// fixUnary redoes the elements whose input the assembly flagged for the
// slow path (slow(x) is true): dst[i] = f(x[i]), as the twin does.
func fixUnary[D, T any](dst []D, x []T, f func(T) D, slow func(T) bool) {
	x = x[:len(dst)]
	for i, v := range x {
		if slow(v) {
			dst[i] = f(v)
		}
	}
}

// fixBinary, fixBinaryScalar and fixScalarBinary are fixUnary for the
// binary kernels.
func fixBinary[D, T any](dst []D, a, b []T, f func(T, T) D, slow func(T, T) bool) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		if slow(a[i], b[i]) {
			dst[i] = f(a[i], b[i])
		}
	}
}

func fixBinaryScalar[D, T any](dst []D, a []T, s T, f func(T, T) D, slow func(T, T) bool) {
	a = a[:len(dst)]
	for i := range dst {
		if slow(a[i], s) {
			dst[i] = f(a[i], s)
		}
	}
}

func fixScalarBinary[D, T any](dst []D, a []T, s T, f func(T, T) D, slow func(T, T) bool) {
	a = a[:len(dst)]
	for i := range dst {
		if slow(s, a[i]) {
			dst[i] = f(s, a[i])
		}
	}
}

// ---------------------------------------------------------------------------
// Arithmetic, selection and comparisons (asm/elemops.go)

func elNeg[T number](x T) T { return -x }

func absF32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
func absF64(x float64) float64 { return math.Float64frombits(math.Float64bits(x) &^ (1 << 63)) }

// absInt is |x|; the least value of T is its own (it wraps, as VPABS does).
func absInt[T int8 | int16 | int32 | int64](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

func absI8(x int8) int8    { return absInt(x) }
func absI16(x int16) int16 { return absInt(x) }
func absI32(x int32) int32 { return absInt(x) }
func absI64(x int64) int64 { return absInt(x) }

// sqrtF32 and sqrtF64 are the correctly rounded square roots (float32 via
// float64 rounds once: 53 bits are enough), a NaN unchanged.
func sqrtF32(x float32) float32 {
	if x != x {
		return x
	}
	return float32(math.Sqrt(float64(x)))
}

func sqrtF64(x float64) float64 {
	if x != x {
		return x
	}
	return math.Sqrt(x)
}

// elMax is Go's max with a defined NaN: b's if b is NaN, else a's if a is
// (the assembly blends a's NaN then b's).
func elMax[T number](a, b T) T {
	if b != b {
		return b
	}
	if a != a {
		return a
	}
	return max(a, b)
}

// elMin is Go's min with elMax's NaN.
func elMin[T number](a, b T) T {
	if b != b {
		return b
	}
	if a != a {
		return a
	}
	return min(a, b)
}

// elRelu is elMax(x, 0).
func elRelu[T number](x T) T { return elMax(x, 0) }

// elFmax and elFmin are C's fmax and fmin (optable/elem's Fmax, Fmin):
// a NaN operand ignored (b's NaN when both are), else Go's max and min.
func elFmax[T floats](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return max(a, b)
}

func elFmin[T floats](a, b T) T {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return min(a, b)
}

func elNot[T ints](x T) T { return ^x }

func elAdd[T ints](a, b T) T { return a + b }
func elSub[T ints](a, b T) T { return a - b }
func elMul[T ints](a, b T) T { return a * b }
func elAnd[T ints](a, b T) T { return a & b }
func elOr[T ints](a, b T) T  { return a | b }
func elXor[T ints](a, b T) T { return a ^ b }

func elEq[T number](a, b T) bool { return a == b }
func elNe[T number](a, b T) bool { return a != b }
func elLt[T number](a, b T) bool { return a < b }
func elLe[T number](a, b T) bool { return a <= b }
func elGt[T number](a, b T) bool { return a > b }
func elGe[T number](a, b T) bool { return a >= b }

// Note [In place with a slow path]
// A kernel with a slow path (elemmath.go's fix) flags lanes and leaves the
// Go wrapper to redo them from their inputs after the assembly has written
// dst. When dst is an input (in place) those inputs are gone by then, so
// the wrapper runs such a call in chunks of elemChunk elements, each
// input's chunk first copied to the stack.

// elemChunk is the chunk of Note [In place with a slow path].
const elemChunk = 256

// overlaps reports whether dst and x share memory.
func overlaps[D, T any](dst []D, x []T) bool {
	if len(dst) == 0 || len(x) == 0 {
		return false
	}
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	d1 := d0 + uintptr(len(dst))*unsafe.Sizeof(dst[0])
	x1 := x0 + uintptr(len(x))*unsafe.Sizeof(x[0])
	return d0 < x1 && x0 < d1
}
