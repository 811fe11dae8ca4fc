package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Random fills operand 0 of a random plan (Note [Random streams] in
// package kernel): the walk is cut into chunks fixed by the number of
// elements, each chunk knows the row-major position of its first element,
// and every element draws Philox at counter Offset + its position, so the
// values do not depend on the number of workers.
func (*Backend) Random(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Random || p.NumOutputs() != 1 || p.NumOperands() != op.Arity+1 {
		return errs.New(errs.Value, op.Name, "%s: not a random plan", op.Name)
	}
	dt := p.Operand(0).DType
	if !dt.Valid() || !op.Accept(dt) {
		return notImplemented(op, dt)
	}
	if op == optable.Bernoulli && p.Operand(1).DType != dtype.Float64 {
		return errs.New(errs.DType, op.Name, "bernoulli probabilities of dtype %s", p.Operand(1).DType)
	}
	if op == optable.RandInt && args.HighI <= args.LowI {
		return errs.New(errs.Value, op.Name, "random_ expects 'from' to be less than 'to', but got from=%d >= to=%d", args.LowI, args.HighI)
	}
	n := p.NumEl()
	if n == 0 {
		return nil
	}
	var base [2]unsafe.Pointer
	for k := 0; k < p.NumOperands(); k++ {
		base[k] = p.Operand(k).Storage.Pointer()
	}
	nops := p.NumOperands()
	digits := dt.Digits()
	size, count := parallel.Chunks(n, 1<<14)
	parallel.For(count, 1, func(b, e int) {
		for ch := b; ch < e; ch++ {
			i := uint64(ch * size)
			p.SerialForEach(func(offs, strides []int, n0, n1 int) {
				for j := 0; j < n1; j++ {
					out := unsafe.Add(base[0], offs[0]+j*strides[nops])
					var prob unsafe.Pointer
					if nops > 1 {
						prob = unsafe.Add(base[1], offs[1]+j*strides[nops+1])
					}
					for t := 0; t < n0; t++ {
						w := elem.Philox(args.Seed, args.Offset+i)
						i++
						o := unsafe.Add(out, t*strides[0])
						switch op {
						case optable.Uniform:
							storeFloat(o, dt, elem.UniformOf(w, digits, args.Low, args.High))
						case optable.Normal:
							storeFloat(o, dt, elem.NormalOf(w, args.Low, args.High))
						case optable.Bernoulli:
							var v int64
							if elem.BernoulliOf(w, *(*float64)(unsafe.Add(prob, t*strides[1]))) {
								v = 1
							}
							storeInt(o, dt, v)
						case optable.RandInt:
							storeInt(o, dt, elem.RandIntOf(w, args.LowI, args.HighI))
						}
					}
				}
			}, ch*size, min((ch+1)*size, n))
		}
	})
	return nil
}

// storeFloat writes x rounded to float dtype d (through float32 for the
// 16-bit floats, as every conversion here does).
func storeFloat(p unsafe.Pointer, d dtype.DType, x float64) {
	switch d {
	case dtype.Float64:
		*(*float64)(p) = x
	case dtype.Float32:
		*(*float32)(p) = float32(x)
	case dtype.Float16:
		*(*dtype.Half)(p) = dtype.HalfFromFloat32(float32(x))
	case dtype.BFloat16:
		*(*dtype.BF16)(p) = dtype.BF16FromFloat32(float32(x))
	}
}

// storeInt writes the integer x converted to dtype d.
func storeInt(p unsafe.Pointer, d dtype.DType, x int64) {
	switch d {
	case dtype.Bool:
		*(*bool)(p) = x != 0
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
	default:
		storeFloat(p, d, float64(x))
	}
}
