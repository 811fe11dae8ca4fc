package vec

import "github.com/goten-ml/goten/dtype"

// Note [Bfloat16 kernels]
// AddBF16, SubBF16, MulBF16 and DivBF16 (and their scalar forms) take
// bfloat16 operands as their bits ([]uint16, like BF16ToF32) and compute
// exactly what the buffered casts around the float32 kernels compute:
// each operand widened to float32 (exact), one float32 operation, the
// result rounded to bfloat16 by dtype.BF16FromFloat32 (to nearest even,
// a NaN's top half with the quiet bit set). They do it in registers, one
// pass over memory instead of a conversion into a scratch buffer per
// operand, the float32 kernel and a conversion back: the assembly widens
// with VPMOVZXWD and a shift, and rounds with integer adds before
// narrowing with VPMOVDW (AVX-512) or VPACKUSDW (AVX2). AVX512-BF16's
// VCVTNEPS2BF16 would round in one instruction but flushes subnormals to
// zero, which BF16FromFloat32 does not.

// bf16Of returns f rounded to bfloat16, as bits.
func bf16Of(f float32) uint16 { return uint16(dtype.BF16FromFloat32(f)) }

// f32Of returns the bfloat16 bits b as a float32 (exact).
func f32Of(b uint16) float32 { return dtype.BF16(b).Float32() }

// The element functions of the bfloat16 kernels' twins.
func bf16Add(a, b uint16) uint16 { return bf16Of(f32Of(a) + f32Of(b)) }
func bf16Sub(a, b uint16) uint16 { return bf16Of(f32Of(a) - f32Of(b)) }
func bf16Mul(a, b uint16) uint16 { return bf16Of(f32Of(a) * f32Of(b)) }
func bf16Div(a, b uint16) uint16 { return bf16Of(f32Of(a) / f32Of(b)) }
