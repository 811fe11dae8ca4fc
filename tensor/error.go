package tensor

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/goten-ml/goten/errs"
)

// Error is the typed error every tensor operation panics with on bad input:
// its Kind says what was wrong (shape, dtype, overlap, index, view, value,
// autograd, memory, internal), Op names the op, and the message gives the
// sizes or dtypes.
type Error = errs.Error

// ErrorKind classifies an [Error].
type ErrorKind = errs.Kind

// The kinds of [Error].
const (
	ShapeError    = errs.Shape
	DTypeError    = errs.DType
	OverlapError  = errs.Overlap
	IndexError    = errs.Index
	ViewError     = errs.View
	ValueError    = errs.Value
	AutogradError = errs.Autograd
	// MemoryError is an allocation refused: larger than the memory limit
	// (device.SetMemoryLimit); errors.Is(err, device.ErrMemoryLimit).
	MemoryError = errs.Memory
	// InternalError is a bug in goten: a panic that escaped an op, caught
	// by [Try] (Note [Recover boundary]). Its Panic and Stack say where.
	InternalError = errs.Internal
)

// Note [Recover boundary]
//
// Bad input panics with a typed *Error, and Try turns that panic into an
// error. Any other panic that escapes an op — an index out of range or a
// nil dereference somewhere below the API — is a bug, but a program that
// wraps its calls in Try must still get an error, never a crash. So Try is
// the recover boundary: a panic that is not an *Error becomes one of kind
// InternalError, with the panic's value, its stack, and as Op the API
// function it escaped from, when it came from goten's code; a panic from
// the caller's own code inside f is re-raised as it was.
//
// Where it came from is read off the panicking goroutine's stack, which is
// still there while Try's deferred function runs: the frames between the
// panic and Try's call of f. If one of them is goten's (a function of this
// module outside its tests), the panic escaped an op, and the outermost such
// frame is the API call. Panics in the worker goroutines of an op are
// re-raised on the caller's by internal/parallel, so they reach Try too. Go
// runtime fatal errors (an allocation the machine cannot hold, a concurrent
// map write) cannot be recovered at all: the memory limit of package device
// keeps allocations from the first.
//
// The boundary is in Try rather than in every op because a deferred
// recover in each API call costs a few ns on its happy path, measured with
// BenchmarkAddTo/float32/16 (about 2-3% of a 16-element add, see
// TestRecoverBoundary's note), while Try is where a caller asks for errors
// anyway: the happy path of an op pays nothing. Without Try, a panic is a
// panic — a typed *Error for bad input, the runtime's for a bug — as gonum's
// rule has it. Known bad input (nil tensors, invalid dtypes, invalid
// devices) never reaches the boundary: the API checks it first, as a value
// error.

// Try runs f and returns the *Error it panicked with, or nil. A panic that
// escaped an op without being an *Error (a bug) is returned as an *Error of
// kind [InternalError]; other panics of f's own code are re-raised (Note
// [Recover boundary]).
func Try(f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(*Error); ok {
			err = e
			return
		}
		if op, ok := escapedFrom(); ok {
			err = internalError(op, r, debug.Stack())
			return
		}
		panic(r)
	}()
	f()
	return nil
}

// module is the import path prefix of goten's packages.
const module = "github.com/goten-ml/goten/"

// escapedFrom reports whether the panic being recovered by Try's deferred
// function came through goten's code, and the outermost goten function it
// came through (the API call f made). See Note [Recover boundary].
func escapedFrom() (op string, ok bool) {
	pcs := make([]uintptr, 256)
	n := runtime.Callers(2, pcs) // from Try's deferred function
	frames := runtime.CallersFrames(pcs[:n])
	panicking := false // past the runtime's panic frames, in the panicking code
	for {
		fr, more := frames.Next()
		switch {
		case !panicking:
			panicking = fr.Function == "runtime.gopanic"
		case strings.HasPrefix(fr.Function, "runtime."):
			// the runtime's own frames (a bounds check's panicIndex, ...)
		case fr.Function == module+"tensor.Try":
			return op, ok // reached the Try that called f
		case fr.Function == module+"tensor.Try.func1":
			return "", false // re-raised by an inner Try: the caller's own panic
		case strings.HasPrefix(fr.Function, module) && !strings.HasSuffix(fr.File, "_test.go"):
			op, ok = apiName(fr.Function), true
		}
		if !more {
			return op, ok
		}
	}
}

// apiName turns a function's full name into the name a user calls it by:
// "github.com/goten-ml/goten/tensor.(*Tensor).Add" is "Tensor.Add", a
// function of another package keeps its package's name ("op.Reduce").
func apiName(fn string) string {
	fn = fn[strings.LastIndexByte(fn, '/')+1:]
	fn = strings.NewReplacer("(*", "", ")", "", "[...]", "").Replace(fn)
	return strings.TrimPrefix(fn, "tensor.")
}

// internalError is the *Error of kind InternalError for a panic with value
// r that escaped the API function op, with the panicking stack.
func internalError(op string, r any, stack []byte) *Error {
	e := &Error{Kind: errs.Internal, Op: op, Panic: r, Stack: stack,
		Msg: fmt.Sprintf("internal error (a bug in goten, please report it with the stack): %v", r)}
	if err, ok := r.(error); ok {
		e.Err = err
	}
	return e
}

// must panics with err if it is not nil.
func must(err error) {
	if err == nil {
		return
	}
	if e, ok := err.(*Error); ok {
		panic(e)
	}
	panic(&Error{Kind: errs.Value, Msg: fmt.Sprint(err), Err: err})
}
