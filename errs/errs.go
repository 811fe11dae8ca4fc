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
)

var kindNames = [...]string{"", "shape", "dtype", "overlap", "index", "view", "value", "autograd"}

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

// New returns an error of kind k raised by op.
func New(k Kind, op, format string, args ...any) *Error {
	return &Error{Kind: k, Op: op, Msg: fmt.Sprintf(format, args...)}
}
