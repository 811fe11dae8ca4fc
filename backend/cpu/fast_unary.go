package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
)

// Note [SIMD unary]
// Ops whose optable.SIMD names a Unary or Binary family run the
// internal/vec kernels of that family (vec.ExpF32, vec.NegI8,
// vec.MaximumScalarF64, vec.GtF32 into bools, ...) when the output and
// the inputs are contiguous or, for a binary op, one input is a broadcast
// scalar, and the assembly runs (vec.SIMD). Otherwise they run the
// generated loop. The float kernels of functions the table computes
// through float64 math (exp, expm1, exp2, the logarithms, sin, cos, tan,
// pow, erf, erfc, tanh, sigmoid, silu, gelu in the erf form) are
// polynomials within 1-4 ulp of it (exact where the doc comment of the
// kernel says so, and on ±0, ±Inf and NaN; vec's elem_math_test.go holds
// them to their bounds against float64 math); sqrt, rsqrt, reciprocal and
// the roundings are exact or correctly rounded. Their pure-Go twins give
// the same bits as the assembly but emulate the fused multiply-add, slower
// than math.Exp, so results of those ops may differ by an ulp or two
// between a build with the assembly and one without (purego, other
// architectures, CPUs without AVX2/FMA). float16 and bfloat16 inputs reach
// these loops through the buffered casts, in contiguous float32 chunks,
// and take the fast path too. The integer kernels and comparisons are
// exact.

// unaryVec runs fn on contiguous rows and reports whether it did.
func unaryVec[D, T any](fn func(dst []D, x []T), p [4]unsafe.Pointer, s [4]int, n int) bool {
	var zd D
	var zt T
	if !vec.SIMD || s[0] != int(unsafe.Sizeof(zd)) || s[1] != int(unsafe.Sizeof(zt)) {
		return false
	}
	fn(unsafe.Slice((*D)(p[0]), n), unsafe.Slice((*T)(p[1]), n))
	return true
}

// unaryVec2 is [unaryVec] for the kernels with two scalar parameters
// after x (optable's SIMD.UnaryArgs): logit's clamp to [eps, 1-eps].
func unaryVec2[T any](fn func(dst, x []T, p1, p2 T), p1, p2 T, p [4]unsafe.Pointer, s [4]int, n int) bool {
	return unaryVec(func(dst, x []T) { fn(dst, x, p1, p2) }, p, s, n)
}

// binaryVec is [binaryLayout] where the elementwise kernels run in
// assembly (vec.SIMD): their pure-Go twins are slower than the generated
// loops.
func binaryVec[D, T any](vv func(dst []D, a, b []T), vs, sv func(dst []D, a []T, s T), p [4]unsafe.Pointer, s [4]int, n int) bool {
	return vec.SIMD && binaryLayout(vv, vs, sv, p, s, n)
}

// binaryLayout runs vv (both inputs contiguous), vs (b a broadcast scalar:
// dst = a∘s) or sv (a the scalar: dst = s∘b) on a contiguous output, and
// reports whether the layout was one of them.
func binaryLayout[D, T any](vv func(dst []D, a, b []T), vs, sv func(dst []D, a []T, s T), p [4]unsafe.Pointer, s [4]int, n int) bool {
	var zd D
	var zt T
	es := int(unsafe.Sizeof(zt))
	if s[0] != int(unsafe.Sizeof(zd)) {
		return false
	}
	o := unsafe.Slice((*D)(p[0]), n)
	switch {
	case s[1] == es && s[2] == es:
		vv(o, unsafe.Slice((*T)(p[1]), n), unsafe.Slice((*T)(p[2]), n))
	case s[1] == es && s[2] == 0:
		vs(o, unsafe.Slice((*T)(p[1]), n), *(*T)(p[2]))
	case s[1] == 0 && s[2] == es:
		sv(o, unsafe.Slice((*T)(p[2]), n), *(*T)(p[1]))
	default:
		return false
	}
	return true
}
