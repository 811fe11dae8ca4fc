package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/kernel"
)

// Note [SIMD unary]
// float32 ops whose optable.SIMD names a Unary primitive (exp, tanh,
// sigmoid and gelu in the erf form) run the internal/vec
// polynomials (vec.ExpF32 and friends: within a few ulp, exact on ±0, ±Inf
// and NaN, subnormal results kept) when the output and the input are
// contiguous and the assembly runs (vec.UnarySIMD). Otherwise they run the
// generated loop through float64 math: the vec twins give the same bits
// as the assembly but emulate the fused multiply-add, slower than math.Exp,
// so results of these four ops may differ by an ulp or two between a
// build with the assembly and one without (purego, other architectures,
// CPUs without AVX2/FMA). float16 and bfloat16 inputs reach these loops
// through the buffered casts, in contiguous float32 chunks, and take the
// fast path too.

// vecUnary runs fn on contiguous float32 rows and reports whether it did.
func vecUnary(p [4]unsafe.Pointer, s [4]int, n int, fn func(dst, x []float32)) bool {
	if !vec.UnarySIMD || s[0] != 4 || s[1] != 4 {
		return false
	}
	fn(unsafe.Slice((*float32)(p[0]), n), unsafe.Slice((*float32)(p[1]), n))
	return true
}

// unaryVec is a unary op's loop: fn, a vec primitive (ExpF32 or its
// Stream variant, ...), where vecUnary can run it, else the generated loop
// (zz_pointwise.go wraps each op's primitives with it).
func unaryVec(fn func(dst, x []float32), loop loopFn, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	if !vecUnary(p, s, n, fn) {
		loop(p, s, n, args)
	}
}
