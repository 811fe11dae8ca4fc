// Package op runs the ops that package optable declares: one generic
// executor per kind (pointwise, reduction, scan and row ops) that reads the
// op's declaration, checks its arguments, builds an iter.Config and calls
// the backend of the operands' device (Note [Devices of ops]); and the ops
// with rules of their own (views, copies, matrix products, layer_norm). It
// has no per-dtype code, no goroutines and no device names.
//
// # Errors
//
// Every function returns *errs.Error for bad input and checks everything
// before any output is written: a failing call leaves its outputs as they
// were.
//
// # Type promotion
//
// Pointwise ops compute in the promoted dtype of their inputs
// (torch.result_type: dimensioned tensors outrank 0-dim tensors, which
// outrank wrapped Go scalars, unless of a higher category). Float-valued
// ops compute integers in float32. Results are written in the compute
// dtype, or bool for comparisons; out= tensors of another dtype receive a
// converted result if [dtype.CanCast] allows it.
package op
