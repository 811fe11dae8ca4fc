package tensor

//go:generate go run ../internal/gen tensor

import (
	"slices"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The elementwise API itself is generated from the op table (zz_api.go);
// these are the pieces it calls.

// pointwise runs an elementwise op: into a new tensor (dst nil), into dst
// (out=), or into its receiver input (inPlace), and records it for
// backward when an input requires grad.
func pointwise(d *optable.Op, dst *Tensor, inPlace bool, args *kernel.Args, ins ...*Tensor) *Tensor {
	rec := anyRequiresGrad(ins) && IsGradEnabled()
	var original *Tensor
	switch {
	case dst != nil:
		checkOut(d.Name, dst, ins...)
	case inPlace:
		r := ins[d.Receiver]
		r.in(d.Name)
		checkInPlace(d.Name, r)
		if rec {
			checkViewInPlace(d.Name, r)
			if readsInput(d, ins, d.Receiver) {
				original = r.Clone() // with its history, for a second derivative
			}
		}
	}
	var buf [4]*raw.View // on the stack: Note [Per-op overhead] in package op
	vs := buf[:0]
	if len(ins) > len(buf) {
		vs = make([]*raw.View, 0, len(ins))
	}
	vs = vs[:len(ins)]
	for i, t := range ins {
		vs[i] = t.view()
	}
	var out *raw.View
	if dst != nil {
		out = dst.in(d.Name)
	}
	r, err := op.Pointwise(d, out, inPlace, args, vs...)
	must(err)
	var res *Tensor
	switch {
	case inPlace:
		res = ins[d.Receiver]
		written(res)
	case dst != nil:
		res = dst
		written(res)
	default:
		res = wrap(r)
	}
	if rec && res.DType().IsFloat() {
		recordPointwise(d, args, ins, res, original, inPlace)
	}
	return res
}

// recordPointwise records an elementwise op for backward. It copies ins,
// so that pointwise's variadic argument stays on the caller's stack.
func recordPointwise(d *optable.Op, args *kernel.Args, in []*Tensor, res, original *Tensor, inPlace bool) {
	ins := slices.Clone(in)
	switch {
	case d == optable.Clamp && ins[1] == nil:
		d, ins = optable.ClampMax, []*Tensor{ins[0], ins[2]}
	case d == optable.Clamp && ins[2] == nil:
		d, ins = optable.ClampMin, []*Tensor{ins[0], ins[1]}
	}
	n := recordOp(d, args, ins, []*Tensor{res}, original, d.Receiver, nil)
	if inPlace {
		rebase(res, n)
	}
}

// readsInput reports whether the derivative of op d reads input k for an
// input that needs a gradient (an in-place op must then save k's value
// before overwriting it).
func readsInput(d *optable.Op, ins []*Tensor, k int) bool {
	reads := derivatives[d.Code].reads
	for i, t := range ins {
		if i < len(reads) && t != nil && t.RequiresGrad() && reads[i]&(1<<k) != 0 {
			return true
		}
	}
	return false
}

// alphaArgs returns the kernel arguments of op's optional multiplier named
// name (alpha, value): none means 1, more than one is a value error, and
// the one given must be a single number ([Scalar], or a one-element
// tensor).
func alphaArgs(opName, name string, alpha []*Tensor) *kernel.Args {
	switch len(alpha) {
	case 0:
		return nil
	case 1:
		return op.WithAlpha(number(opName, name, alpha[0]))
	}
	panic(errs.New(errs.Value, opName, "%s takes at most one %s, got %d", opName, name, len(alpha)))
}

// number reads the Go number an argument named name of op holds: a
// [Scalar] or any one-element tensor (its category decides: float,
// integer or bool).
func number(opName, name string, t *Tensor) op.Scalar {
	if t.view() == nil {
		panic(errs.New(errs.Value, opName, "%s is nil", name))
	}
	if t.NumEl() != 1 {
		panic(errs.New(errs.Value, opName, "%s must be a single number, got a tensor of shape %v", name, t.v.Shape))
	}
	return op.ScalarOf(t.hostView())
}

// epsArgs returns logit's arguments: no eps, or the one given.
func epsArgs(opName string, eps []float64) *kernel.Args {
	switch len(eps) {
	case 0:
		return nil
	case 1:
		return &kernel.Args{AlphaF: 1, AlphaI: 1, Eps: eps[0], HasEps: true}
	}
	panic(errs.New(errs.Value, opName, "%s takes at most one eps, got %d", opName, len(eps)))
}

// modeOf returns the variant index an optional mode argument selects (0
// when absent).
func modeOf[M ~uint8](opName string, mode []M) int {
	switch len(mode) {
	case 0:
		return 0
	case 1:
		return int(mode[0])
	}
	panic(errs.New(errs.Value, opName, "%s takes at most one mode, got %d", opName, len(mode)))
}

// Rounding is the rounding mode of [Div] (PyTorch's rounding_mode).
type Rounding uint8

// The rounding modes of [Div].
const (
	TrueDivision Rounding = iota // no rounding: integers give float32
	RoundTrunc                   // round toward zero, in the promoted dtype
	RoundFloor                   // round down, in the promoted dtype (Python's //)
)

// Approximate is the approximation of [Gelu] (PyTorch's approximate).
type Approximate uint8

// The approximations of [Gelu].
const (
	ApproxNone Approximate = iota // the erf form
	ApproxTanh                    // the tanh approximation
)
