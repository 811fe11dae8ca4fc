// Package cpu is goten's fast CPU backend: it implements [kernel.Backend]
// over iterator plans with typed loops looked up once per call. It
// registers itself as the backend of the CPU device (Note [Backend per
// device] in package kernel).
//
// # Loops
//
// Every op's scalar meaning is written once, in the op table (package
// optable, Note [Scalar meaning]); internal/gen (run by go generate)
// writes from it one generic loop per op and family of loop dtypes with the
// operator inline, and the SIMD wrappers of the ops whose entry names
// vectorised kernels (zz_pointwise.go), the row functions of the
// reductions and scans (zz_fold.go), and the conversion loops between
// every pair of dtypes (zz_cast.go), each with its dispatch table indexed
// by op code and loop dtype. The loop dtype is [kernel.LoopDType] of the
// plan's common dtype: float16 and bfloat16 compute in float32. A loop
// reads inputs of the loop dtype (a condition operand as bool) and writes
// the loop dtype, or bool for ops with [optable.Op.OutBool].
//
// Each loop is one-dimensional and picks its fast path once per row (see
// Note [SIMD fast paths]): all operands contiguous (slice loops), one
// input a broadcast scalar (stride 0), or strided pointer arithmetic.
// Plans hand the loops byte offsets into the operands' storages; this
// package adds them to the storages' host addresses, the only place
// besides the reference backend where addresses are computed.
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
// goroutines. Elementwise loops run under [iter.Plan.ForEach], which splits
// a plan across workers; reductions split their outputs, or the reduced
// elements of a full reduction, across workers (Note [Reduction
// strategies]); scans and row ops split their rows. Scratch buffers come
// from pools, one per call of a loop.
//
// # Determinism
//
// Pointwise ops and copies compute each element independently, so results
// do not depend on how the plan is split. Reductions split their work into
// chunks fixed by the sizes alone and combine the chunks' states in chunk
// order, so they too give the same bits for any number of workers.
//
// # Errors
//
// Methods return an *errs.Error of kind [errs.DType] for an op and dtype
// without a loop, and of kind [errs.Value] for a plan that does not fit
// the op (wrong number of operands).
package cpu

//go:generate go run ../../internal/gen cpu
