// Package op holds one definition per op: its name, kind, arity, dtype rule
// and (later) backward rule, and the generic executors per kind that check
// arguments, build an iter.Config and call the backend. It has no per-dtype
// code, no goroutines and no device names.
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

import "github.com/goten-ml/goten/kernel"

// Backend is the backend every executor calls. The tensor package sets it
// once (the CPU backend); tests may swap it.
var Backend kernel.Backend
