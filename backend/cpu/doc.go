// Package cpu is goten's fast CPU backend: it implements [kernel.Backend]
// over iterator plans with typed loops looked up once per call.
//
// # Loops
//
// Every op's scalar expression is written once, in the generator
// (internal/gen, run by go generate), which writes one generic loop per op
// and type family with the operator inline (zz_pointwise.go), the
// reduction rows (zz_reduce.go) and the conversion loops between every
// pair of dtypes (zz_cast.go), each with its dispatch table. A loop is
// chosen by (code, loop dtype), where the loop dtype is
// [kernel.LoopDType] of the plan's common dtype: float16 and bfloat16
// compute in float32. A loop reads inputs of the loop dtype (Where: its
// condition is bool) and writes the loop dtype, or bool for the codes of
// [kernel.OutputsBool].
//
// Each loop is one-dimensional and picks its fast path once per row (see
// Note [SIMD fast paths]): all operands contiguous (slice loops), one
// input a broadcast scalar (stride 0), or strided pointer arithmetic.
//
// # Type promotion
//
// The op layer decides the common dtype; this package only follows it. An
// operand whose dtype differs from what the loop reads or writes goes
// through a buffered cast (Note [Buffered casts]): float16/bfloat16
// operands, mixed-dtype inputs (int32 + float32 in a float32 loop) and
// outputs of another dtype (out= casting).
//
// # Aliasing and in-place
//
// An output may be the same memory as an input (in-place ops): every loop
// reads an element's inputs before writing its output, and buffered casts
// work in chunks along the same elements. Partial overlap is refused by
// the iterator before a plan reaches the backend.
//
// # Concurrency
//
// A [Backend] has no state; its methods may be called from any number of
// goroutines. Loops run under [iter.Plan.ForEach], which may split a plan
// across workers; scratch buffers come from a pool, one per call of a loop.
//
// # Determinism
//
// Pointwise ops and copies compute each element independently, so results
// do not depend on how the plan is split. Reductions are serial for now.
//
// # Errors
//
// Methods return an *errs.Error of kind [errs.DType] for a (code, dtype)
// pair without a loop, and of kind [errs.Value] for a plan that does not
// fit the code (wrong number of operands).
package cpu

//go:generate go run ../../internal/gen cpu
