// Package errs defines goten's typed error, shared by every layer: the
// iterator and the op definitions return it, and the tensor API panics with
// it (re-exported there as tensor.Error).
package errs

import "fmt"

// Kind classifies an error the way the conformance cases do.
type Kind uint8

// The kinds of error.
const (
	Shape    Kind = iota + 1 // sizes that do not broadcast or fit
	DType                    // a dtype an op does not accept, or a result that cannot be cast
	Overlap                  // an output that overlaps an input partly, or itself
	Index                    // a dim or index out of range; an empty reduction without identity
	View                     // a view incompatible with the input's layout
	Value                    // any other invalid argument
	Autograd                 // misuse of the backward engine
	Memory                   // an allocation refused or failed: over the memory limit (package device)
	Internal                 // a bug: a panic that escaped an op (Note [Recover boundary] in package tensor)
)

var kindNames = [...]string{"", "shape", "dtype", "overlap", "index", "view", "value", "autograd", "memory", "internal"}

// String returns the kind's name: "shape", "dtype", ...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is a typed error: its kind, the op that raised it, and a message
// naming the sizes or dtypes involved.
type Error struct {
	Kind Kind
	Op   string
	Msg  string
	// Err is the lower-level error this one reports, if any: the
	// allocator's for a Memory error, the panic's value for an Internal
	// one when that value is an error. [Error.Unwrap] returns it, so
	// errors.Is and errors.As see through.
	Err error
	// Panic is the value an op panicked with, and Stack the panicking
	// goroutine's stack, for an Internal error.
	Panic any
	Stack []byte
}

// Error returns the message prefixed by the op's name: "add: The size of
// tensor a (3) must match ...". Msg alone is PyTorch's text (exactly so
// for the broadcast error).
func (e *Error) Error() string {
	if e.Op == "" {
		return e.Msg
	}
	return e.Op + ": " + e.Msg
}

// Unwrap returns [Error.Err].
func (e *Error) Unwrap() error { return e.Err }

// WithOp returns err with Op set to op if err is an *Error without an op
// (raised by shape algebra, which knows no op names); other errors are
// returned as they are.
func WithOp(err error, op string) error {
	if e, ok := err.(*Error); ok && e.Op == "" {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

// Alloc returns the error of a failed allocation for op: err itself (with
// op set) when it is an *Error already, such as the shape error of a size
// that overflows; else a Memory error wrapping it.
func Alloc(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*Error); ok {
		return WithOp(err, op)
	}
	return &Error{Kind: Memory, Op: op, Msg: err.Error(), Err: err}
}

// New returns an error of kind k raised by op.
func New(k Kind, op, format string, args ...any) *Error {
	return &Error{Kind: k, Op: op, Msg: fmt.Sprintf(format, args...)}
}
