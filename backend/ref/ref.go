// Package ref is goten's reference backend: obviously-correct loops, one
// element at a time, computing floats in float64 and integers in their own
// type. It is slow on purpose; it is the oracle that tests and fuzzers
// compare the fast backends with, and it implements the same kernel.Backend
// contract.
//
// Each op's meaning comes from the op table (Note [Scalar meaning] in
// package optable): zz_eval.go evaluates the table's expressions and folds
// one element at a time. Everything else here is written independently of
// the CPU backend: the walk over a plan is index arithmetic on each
// operand's byte strides, conversions go through float64 and int64, and
// reductions fold each output's elements in index order.
package ref

//go:generate go run ../../internal/gen ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Backend is the reference backend. Its zero value is ready to use.
type Backend struct{}

var _ kernel.Backend = (*Backend)(nil)

// New returns the reference backend.
func New() *Backend { return &Backend{} }

// The reference backend runs every op on Ref tensors (Note [Backend per
// device] in package kernel): host memory, like the CPU's.
func init() { kernel.Register(device.Ref, New()) }

// allocator allocates the Ref device's memory.
var allocator = device.NewHostAllocator(device.Device{Kind: device.Ref})

// Name returns "ref".
func (*Backend) Name() string { return "ref" }

// Allocator returns the Ref device's allocator.
func (*Backend) Allocator() device.Allocator { return allocator }

// Transfer copies between host storages ([kernel.HostTransfer]).
func (*Backend) Transfer(dst *device.Storage, dstOff int, src *device.Storage, srcOff, nbytes int) error {
	return kernel.HostTransfer(dst, dstOff, src, srcOff, nbytes)
}

// The tables of zz_eval.go, by op code: each pointwise op's element
// function, each reduction's and scan's fold over a list of elements.
var (
	evals      = make([]func(x *[3]value, d dtype.DType, args *kernel.Args) (value, bool, bool), optable.NumCodes())
	reductions = make([]func(l []item, d dtype.DType, c *elem.Ctx) (value, int64, bool, bool), optable.NumCodes())
	scans      = make([]func(l []item, d dtype.DType) ([]value, []int64, bool, bool), optable.NumCodes())
)

// value is one element: floats in f, integers and bools in i (both set, so
// either reads it).
type value struct {
	f float64
	i int64
}

// item is one element of a reduction or scan: its value and its index
// along the reduced dim.
type item struct {
	v   value
	idx int64
}

func load(p unsafe.Pointer, d dtype.DType) value {
	switch d {
	case dtype.Bool:
		if *(*bool)(p) {
			return value{1, 1}
		}
		return value{}
	case dtype.Uint8:
		return intValue(int64(*(*uint8)(p)))
	case dtype.Int8:
		return intValue(int64(*(*int8)(p)))
	case dtype.Int16:
		return intValue(int64(*(*int16)(p)))
	case dtype.Int32:
		return intValue(int64(*(*int32)(p)))
	case dtype.Int64:
		return intValue(*(*int64)(p))
	case dtype.Float16:
		return floatValue(float64((*(*dtype.Half)(p)).Float32()))
	case dtype.BFloat16:
		return floatValue(float64((*(*dtype.BF16)(p)).Float32()))
	case dtype.Float32:
		return floatValue(float64(*(*float32)(p)))
	case dtype.Float64:
		return floatValue(*(*float64)(p))
	}
	panic("ref: invalid dtype")
}

func intValue(x int64) value { return value{float64(x), x} }

func floatValue(f float64) value { return value{f, truncInt(f)} }

func truncInt(f float64) int64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int64(f)
}

// store writes v, read in the category of from, into dtype d.
func store(p unsafe.Pointer, d dtype.DType, v value, fromFloat bool) {
	if d == dtype.Bool {
		if fromFloat {
			*(*bool)(p) = v.f != 0 || math.IsNaN(v.f)
		} else {
			*(*bool)(p) = v.i != 0
		}
		return
	}
	if d.IsInt() {
		x := v.i
		if fromFloat {
			x = truncInt(v.f)
		}
		switch d {
		case dtype.Uint8:
			*(*uint8)(p) = uint8(x)
		case dtype.Int8:
			*(*int8)(p) = int8(x)
		case dtype.Int16:
			*(*int16)(p) = int16(x)
		case dtype.Int32:
			*(*int32)(p) = int32(x)
		case dtype.Int64:
			*(*int64)(p) = x
		}
		return
	}
	f := v.f
	if !fromFloat {
		f = float64(v.i)
	}
	switch d {
	case dtype.Float16:
		*(*dtype.Half)(p) = dtype.HalfFromFloat32(float32(f))
	case dtype.BFloat16:
		*(*dtype.BF16)(p) = dtype.BF16FromFloat32(float32(f))
	case dtype.Float32:
		*(*float32)(p) = float32(f)
	case dtype.Float64:
		*(*float64)(p) = f
	}
}

// castTo converts v (float or not) to a value of dtype d, as storing and
// reloading it would.
func castTo(v value, isFloat bool, d dtype.DType) value {
	var buf [8]byte
	p := unsafe.Pointer(&buf[0])
	store(p, d, v, isFloat)
	return load(p, d)
}

// as reads v as a T (bool: nonzero; integers: v.i; floats: v.f).
func as[T elem.Ordered](v value) T {
	var r T
	switch p := any(&r).(type) {
	case *bool:
		*p = v.i != 0
	case *uint8:
		*p = uint8(v.i)
	case *int8:
		*p = int8(v.i)
	case *int16:
		*p = int16(v.i)
	case *int32:
		*p = int32(v.i)
	case *int64:
		*p = v.i
	case *float32:
		*p = float32(v.f)
	case *float64:
		*p = v.f
	}
	return r
}

// valueOf returns r as a value and whether it is a float.
func valueOf[T elem.Ordered](r T) (value, bool) {
	switch x := any(r).(type) {
	case bool:
		if x {
			return value{1, 1}, false
		}
		return value{}, false
	case uint8:
		return intValue(int64(x)), false
	case int8:
		return intValue(int64(x)), false
	case int16:
		return intValue(int64(x)), false
	case int32:
		return intValue(int64(x)), false
	case int64:
		return intValue(x), false
	case float32:
		return floatValue(float64(x)), true
	case float64:
		return floatValue(x), true
	}
	panic("ref: unreachable")
}

// result is an element function's result: the value, whether it is a
// float, and true (an op has a loop for the dtype).
func result[T elem.Ordered](r T) (value, bool, bool) {
	v, isFloat := valueOf(r)
	return v, isFloat, true
}

// foldResult is a fold's result: the value, its index, whether it is a
// float, and true.
func foldResult[T elem.Ordered](r T, idx int64) (value, int64, bool, bool) {
	v, isFloat := valueOf(r)
	return v, idx, isFloat, true
}

// scanResult is a scan's results: the values, the indices, whether they are
// floats, and true.
func scanResult[T elem.Ordered](ys []T, is []int64) ([]value, []int64, bool, bool) {
	vs := make([]value, len(ys))
	isFloat := false
	for k, y := range ys {
		vs[k], isFloat = valueOf(y)
	}
	return vs, is, isFloat, true
}

// at returns the address of operand k of p at the plan index idx: the
// operand's storage, its byte offset, and idx times its byte strides.
func at(p *iter.Plan, k int, idx []int) unsafe.Pointer {
	o := p.Operand(k)
	off := o.Offset
	for d, i := range idx {
		off += i * o.Strides[d]
	}
	return unsafe.Add(o.Storage.Pointer(), off)
}

// forEachIndex calls fn with every multi-index of shape, dim 0 fastest;
// dims where walk is false stay at 0.
func forEachIndex(shape []int, walk func(d int) bool, fn func(idx []int)) {
	for d, s := range shape {
		if s == 0 && walk(d) {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		fn(idx)
		d := 0
		for ; d < len(shape); d++ {
			if !walk(d) {
				continue
			}
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d == len(shape) {
			return
		}
	}
}

func all(int) bool { return true }

// Copy converts operand 1 into operand 0.
func (*Backend) Copy(p *iter.Plan) error {
	dst, src := p.Operand(0).DType, p.Operand(1).DType
	forEachIndex(p.Shape(), all, func(idx []int) {
		store(at(p, 0, idx), dst, load(at(p, 1, idx), src), src.IsFloat())
	})
	return nil
}

// Pointwise computes an elementwise op one element at a time: each input
// read and converted to the compute dtype, the op's element function, the
// result rounded to the compute dtype and converted to the output's.
func (*Backend) Pointwise(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	op = op.KernelOp()
	if args == nil {
		args = &kernel.DefaultArgs
	}
	compute := p.CommonDType()
	args = args.ForCompute(op, compute)
	nin := p.NumOperands() - 1
	if op.Kind != optable.Pointwise || nin != op.Arity {
		return errs.New(errs.Value, op.Name, "%s takes %d inputs, the plan has %d", op.Name, op.Arity, nin)
	}
	eval := evals[op.Code]
	var x [3]value
	if _, _, ok := eval(&x, compute, args); !ok {
		return errs.New(errs.DType, op.Name, "%q not implemented for '%s'", op.KernelName("ref"), compute)
	}
	out := p.Operand(0).DType
	forEachIndex(p.Shape(), all, func(idx []int) {
		for k := 0; k < nin; k++ {
			d := p.Operand(k + 1).DType
			x[k] = load(at(p, k+1, idx), d)
			if k == 0 && op.CondBool {
				continue // read as bool by as[bool]
			}
			// reading as the compute dtype: an int compute dtype wraps the
			// value; a float32 Go number an op reads in opmath stays float32
			// (Note [Scalars in opmath] in package optable)
			to := compute
			if op.OpMathScalar(k, compute) && d == dtype.Float32 {
				to = dtype.Float32
			}
			x[k] = castTo(x[k], d.IsFloat(), to)
		}
		r, isFloat, _ := eval(&x, compute, args)
		if isFloat {
			r = castTo(r, true, compute)
		}
		store(at(p, 0, idx), out, r, isFloat)
	})
	return nil
}
