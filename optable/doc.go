// Package optable declares every op of goten once: its name, kind, arity,
// dtype rule, result dtype, scalar meaning, documentation and (room for)
// derivative. It is the one place an op is defined; everything else reads
// it or is generated from it:
//
//   - package op runs each op by its declaration (dtype rules, checks,
//     the kernel to call);
//   - kernel.Backend receives the *Op, and backends index their dispatch
//     tables by [Op.Code];
//   - internal/gen writes the CPU backend's loops (backend/cpu), the
//     reference backend's element functions (backend/ref) and the user API
//     (package tensor) from it; `go generate ./...` rewrites them and CI
//     fails if they differ from what is checked in.
//
// Adding an elementwise op means adding its declaration here (and, where
// it wants one, a SIMD kernel in backend/cpu/internal/vec named by
// [Op.SIMD]), then running go generate.
//
// Note [Scalar meaning]
//
// A pointwise op's meaning is a Go expression per family of loop dtypes
// ([Loop]): the result over the inputs a, b, c, of the loop type T (bool,
// the integers, float32 or float64; float16 and bfloat16 compute in
// float32 and round the result), with statements run once per row before
// it (Pre, which may read the *kernel.Args of the call as args). The CPU
// backend instantiates each expression inline in its generated loops, for
// T the loop dtype; the reference backend evaluates the same expression one
// element at a time, for T float64 when the op computes in a float dtype
// (then rounds to it) and for T the exact integer type otherwise. So the
// reference backend checks everything a fast backend adds — strides, fast
// paths, SIMD kernels, buffered casts, parallel splits — and the PyTorch
// conformance cases check the expressions themselves.
//
// A reduction's or scan's meaning is a [Fold]: an accumulator state and
// four pieces (Init, Acc, Combine, Project) written over $s, $v, $i and
// $o. Scans write Project at every step. Functions and states too long to
// write inline are in package optable/elem, which every backend's
// generated code calls; the row ops (softmax, log_softmax, layer_norm)
// read a row more than once and have hand-written kernels.
package optable
