package tensorio

import "fmt"

// ErrorKind classifies an [Error].
type ErrorKind uint8

// The kinds of [Error].
const (
	// Malformed is a file that breaks its format: truncated, a header
	// that lies, offsets outside the file.
	Malformed ErrorKind = iota + 1
	// Unsupported is a well-formed file that holds what goten cannot
	// represent: object arrays, dtypes goten lacks, unknown pickle globals.
	Unsupported
)

// String returns "malformed" or "unsupported".
func (k ErrorKind) String() string {
	switch k {
	case Malformed:
		return "malformed"
	case Unsupported:
		return "unsupported"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is a file a reader cannot read, or a tensor a writer cannot write.
type Error struct {
	Format string    // "npy", "npz", "safetensors", "pytorch"
	Kind   ErrorKind // malformed or unsupported
	Msg    string    // what is wrong, naming the sizes, offsets or names involved
}

// Error returns the format, the kind and the message: "npy: malformed
// file: truncated header".
func (e *Error) Error() string { return e.Format + ": " + e.Kind.String() + " file: " + e.Msg }

// Errorf returns a *Error of the given format and kind.
func Errorf(format string, kind ErrorKind, msg string, args ...any) *Error {
	return &Error{Format: format, Kind: kind, Msg: fmt.Sprintf(msg, args...)}
}
