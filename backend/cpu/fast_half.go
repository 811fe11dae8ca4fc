package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Bfloat16 loops]
// A bfloat16 op otherwise runs its float32 loop between buffered casts
// (Note [Buffered casts]): each chunk converted into a float32 scratch
// buffer per input, the float32 kernel, the result converted back. add,
// sub (alpha 1), mul and div whose operands are all bfloat16 instead run
// bf16Loops: vec's bfloat16 kernels, which convert in registers and pass
// over memory once (Note [Bfloat16 kernels] in internal/vec), the same
// bits as the buffered path, whose float32 operation and roundings they
// repeat. A layout those kernels do not take (a strided operand) runs
// the same arithmetic element by element. Without the assembly
// (vec.SIMD false) the buffered path, whose float32 loops are generated
// Go, stays: the kernels' twins convert through function calls.

// bf16Loops are the loops of bfloat16 operands by op code (nil: none).
var bf16Loops = make([]loopFn, optable.NumCodes())

func init() {
	bf16Loops[optable.Add.Code] = bf16Loop(vec.AddBF16, vec.AddScalarBF16, vec.ScalarAddBF16, func(a, b float32) float32 { return a + b })
	bf16Loops[optable.Sub.Code] = bf16Loop(vec.SubBF16, vec.SubScalarBF16, vec.ScalarSubBF16, func(a, b float32) float32 { return a - b })
	bf16Loops[optable.Mul.Code] = bf16Loop(vec.MulBF16, vec.MulScalarBF16, vec.ScalarMulBF16, func(a, b float32) float32 { return a * b })
	bf16Loops[optable.Div.Code] = bf16Loop(vec.DivBF16, vec.DivScalarBF16, vec.ScalarDivBF16, func(a, b float32) float32 { return a / b })
}

// bf16Fast returns the loop of op over p (Note [Bfloat16 loops]), or nil
// where the buffered path runs: not every operand bfloat16, an alpha
// other than 1, no such loop, or no assembly.
func bf16Fast(op *optable.Op, p *iter.Plan, args *kernel.Args) loopFn {
	if !vec.SIMD || p.CommonDType() != dtype.BFloat16 || op.Kind != optable.Pointwise || op.Arity != 2 {
		return nil
	}
	fn := bf16Loops[op.Code]
	if fn == nil || args != nil && args.AlphaF != 1 && (op == optable.Add || op == optable.Sub) {
		return nil
	}
	for k := 0; k <= op.Arity; k++ {
		if p.Operand(k).DType != dtype.BFloat16 {
			return nil
		}
	}
	return fn
}

// bf16Loop returns the loop of a binary bfloat16 op through the kernels
// vv, vs and sv, or f in float32 element by element on other layouts.
func bf16Loop(vv func(dst, a, b []uint16), vs, sv func(dst, a []uint16, s uint16), f func(a, b float32) float32) loopFn {
	return func(p [4]unsafe.Pointer, s [4]int, n int, _ *kernel.Args) {
		if binaryLayout(vv, vs, sv, p, s, n) {
			return
		}
		for i := 0; i < n; i++ {
			a := *(*dtype.BF16)(unsafe.Add(p[1], i*s[1]))
			b := *(*dtype.BF16)(unsafe.Add(p[2], i*s[2]))
			*(*dtype.BF16)(unsafe.Add(p[0], i*s[0])) = dtype.BF16FromFloat32(f(a.Float32(), b.Float32()))
		}
	}
}
