package tensor

import (
	"fmt"

	"github.com/goten-ml/goten/errs"
)

// Error is the typed error every tensor operation panics with on bad input:
// its Kind says what was wrong (shape, dtype, overlap, index, view, value,
// autograd), Op names the op, and the message gives the sizes or dtypes.
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
)

// Try runs f and returns the *Error it panicked with, or nil. Panics that
// are not *Error (bugs) are re-raised.
func Try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// must panics with err if it is not nil.
func must(err error) {
	if err == nil {
		return
	}
	if e, ok := err.(*Error); ok {
		panic(e)
	}
	panic(&Error{Kind: errs.Value, Msg: fmt.Sprint(err)})
}
