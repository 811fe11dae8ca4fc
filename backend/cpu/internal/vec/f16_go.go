package vec

import "github.com/goten-ml/goten/dtype"

// The element functions of the float16 kernels' twins (asm/half.go): each
// operand widened to float32 (exact), one float32 operation, the result
// rounded to float16 by dtype.HalfFromFloat32, what the buffered casts
// around the float32 kernels compute.

// f16Of returns f rounded to float16, as bits.
func f16Of(f float32) uint16 { return uint16(dtype.HalfFromFloat32(f)) }

// f32OfF16 returns the float16 bits b as a float32 (exact).
func f32OfF16(b uint16) float32 { return dtype.Half(b).Float32() }

// f16Op computes op in float32; of two NaN operands it keeps a's, as x86
// does (the first source), where Go's compiler may swap the operands of
// a commutative operation (the sign of the float16 NaN would follow).
func f16Op(a, b uint16, op func(x, y float32) float32) uint16 {
	x := f32OfF16(a)
	if x != x {
		return f16Of(x)
	}
	return f16Of(op(x, f32OfF16(b)))
}

func f16Add(a, b uint16) uint16 { return f16Op(a, b, func(x, y float32) float32 { return x + y }) }
func f16Sub(a, b uint16) uint16 { return f16Op(a, b, func(x, y float32) float32 { return x - y }) }
func f16Mul(a, b uint16) uint16 { return f16Op(a, b, func(x, y float32) float32 { return x * y }) }
func f16Div(a, b uint16) uint16 { return f16Op(a, b, func(x, y float32) float32 { return x / y }) }
