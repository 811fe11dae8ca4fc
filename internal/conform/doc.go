// Package conform runs the conformance cases of testdata/conformance against
// goten: the Go twin of the reference runner torch_runner.py.
//
// A case (testdata/conformance/FORMAT.md) names its inputs, a program of
// steps and what the program must produce, or the error it must raise.
// Package internal/cases reads the cases, [Run] runs one on a device and
// returns why it failed, and a [Report] prints the same report as the
// reference runner:
//
//	FAIL id: why
//	suite: P passed, F failed
//	P passed, F failed
//
// # How a case runs
//
// Inputs are built as FORMAT.md says, over exactly the storage the case
// describes (values, storage and fill forms): the storage's elements
// converted in Go, moved to the device, and viewed with as_strided, all
// through goten's public tensor API. Each STEP's ARGs are decoded by their
// JSON kind (see Note [ARG kinds]) and dispatched through one table, ops,
// from op name to a small function that calls the public API (see ops.go
// and OPS.md); the ops of the op table reach it through zz_ops.go, which is
// generated from the table. Results are compared through their dtype,
// shape, strides, storage offset, storage identity and elements (see
// check.go). Every error the library raises must name its op.
//
// # Failures
//
// A case fails when a result differs, when the library raises an error the
// case does not expect (or the wrong kind, or at the wrong step), when an op,
// argument or feature is missing from goten ("not implemented: ..."), when
// the library panics with something other than a *tensor.Error, and when the
// case itself breaks the format ("bad case: ..."). A grad section runs
// Backward from its output and compares the gradients accumulated into
// the inputs it names; nested tensors are not implemented yet.
package conform
