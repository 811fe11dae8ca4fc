package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
)

// reduceFn is a generated reduction row: acc[i·as] = op(acc[i·as], in[i·is])
// for i < n; with as = 0 it folds the row into one accumulator.
type reduceFn func(acc unsafe.Pointer, as int, in unsafe.Pointer, is int, n int)

// Note [Simple reductions]
// Reduce walks the plan itself, serially: it fills the accumulators with
// the op's identity, then folds every input row into them (out = op(out,
// in)), converting input chunks to the accumulation dtype through the
// cast buffers. The accumulation dtype is the loop dtype of the plan's
// common dtype (float16/bfloat16 accumulate in float32); when the output
// has another dtype the accumulators live in a temporary of the output's
// size and are converted into the output at the end. Amax and Amin
// propagate NaN. A vectorised, pairwise-summed, parallel reduction will
// replace this.

// Reduce runs the reduction code (Sum, Prod, Amax, Amin) over a reduction
// plan: operand 0 the output (stride 0 on reduced dims), operand 1 the
// input. The output's previous contents are ignored; an empty reduction
// writes the identity (0, 1, -inf or the type's minimum, +inf or its
// maximum).
func (*Backend) Reduce(code kernel.Code, p *iter.Plan, args *kernel.Args) error {
	if code < kernel.Sum || code > kernel.Amin {
		return errs.New(errs.Value, codeName(code), "code %d is not a reduction", code)
	}
	if p.NumOperands() != 2 || p.NumOutputs() != 1 {
		return errs.New(errs.Value, codeName(code), "expected 1 output and 1 input, got %d operands", p.NumOperands())
	}
	compute := p.CommonDType()
	lt := kernel.LoopDType(compute)
	var fn reduceFn
	if lt.Valid() {
		fn = reduceLoops[code-kernel.Sum][lt]
	}
	if fn == nil {
		return notImplemented(code, compute)
	}
	out, in := p.Operand(0), p.Operand(1)
	if !out.DType.Valid() || !in.DType.Valid() {
		return errs.New(errs.DType, codeName(code), "invalid operand dtypes %s, %s", out.DType, in.DType)
	}
	// Walk with the input's smallest stride innermost: a reduction over
	// an outer dim then adds contiguous rows elementwise, one over the
	// inner dim folds contiguous rows into one accumulator.
	shape, inSt, outSt := walkOrder(p.Shape(), in.Strides, out.Strides)
	nd := len(shape)
	// the output's own positions: reduced dims (stride 0) count once
	outShape := make([]int, nd)
	outN := 1
	for d, s := range shape {
		if outSt[d] == 0 {
			s = 1
		}
		outShape[d] = s
		outN *= s
	}
	if outN == 0 {
		return nil
	}
	ls := lt.Size()
	outBase := unsafe.Add(out.Storage.Pointer(), out.Offset)
	acc := outBase
	accSt := outSt
	back, toOut := chain(lt, compute, out.DType)
	var tmp []uint64
	if toOut {
		osz := out.DType.Size()
		accSt = make([]int, nd)
		lo, hi := 0, 0
		for d := range outShape {
			e := outSt[d] / osz
			accSt[d] = e * ls
			if ext := (outShape[d] - 1) * e; ext < 0 {
				lo += ext
			} else {
				hi += ext
			}
		}
		tmp = make([]uint64, ((hi-lo+1)*ls+7)/8)
		acc = unsafe.Add(unsafe.Pointer(&tmp[0]), -lo*ls)
	}
	n0 := 1
	if nd > 0 {
		n0 = shape[0]
	}
	outN0 := 1
	if nd > 0 {
		outN0 = outShape[0]
	}
	// 1. identity
	id := identity(code, lt)
	fill := casts[lt][lt]
	forRows(outShape, accSt, accSt, func(o, _ int) {
		fill(unsafe.Add(acc, o), unsafe.Pointer(&id), accSt0(accSt), 0, outN0)
	})
	// 2. fold the input in
	if p.NumEl() > 0 {
		inBase := unsafe.Add(in.Storage.Pointer(), in.Offset)
		as, is := accSt0(accSt), accSt0(inSt)
		if c, ok := chain(in.DType, compute, lt); !ok {
			forRows(shape, accSt, inSt, func(o, i int) {
				fn(unsafe.Add(acc, o), as, unsafe.Add(inBase, i), is, n0)
			})
		} else {
			bufs := bufPool.Get().(*chunkBufs)
			buf, stage := unsafe.Pointer(&bufs[0][0]), unsafe.Pointer(&bufs[4][0])
			forRows(shape, accSt, inSt, func(o, i int) {
				for off := 0; off < n0; off += bufLen {
					m := min(bufLen, n0-off)
					c.run(buf, unsafe.Add(inBase, i+off*is), ls, is, m, stage)
					fn(unsafe.Add(acc, o+off*as), as, buf, ls, m)
				}
			})
			bufPool.Put(bufs)
		}
	}
	// 3. the temporary accumulators into the output
	if toOut {
		bufs := bufPool.Get().(*chunkBufs)
		stage := unsafe.Pointer(&bufs[4][0])
		os, as := accSt0(outSt), accSt0(accSt)
		forRows(outShape, outSt, accSt, func(o, a int) {
			for off := 0; off < outN0; off += bufLen {
				m := min(bufLen, outN0-off)
				back.run(unsafe.Add(outBase, o+off*os), unsafe.Add(acc, a+off*as), os, as, m, stage)
			}
		})
		bufPool.Put(bufs)
	}
	return nil
}

// walkOrder returns shape and the strides a and b with their dims sorted
// by increasing |a| stride (a stable sort: ties keep the plan's order).
func walkOrder(shape, a, b []int) (sh, sa, sb []int) {
	n := len(shape)
	buf := make([]int, 3*n)
	sh, sa, sb = buf[:n:n], buf[n:2*n:2*n], buf[2*n:]
	copy(sh, shape)
	copy(sa, a)
	copy(sb, b)
	abs := func(x int) int { return max(x, -x) }
	for i := 1; i < n; i++ {
		for j := i; j > 0 && abs(sa[j]) < abs(sa[j-1]); j-- {
			sh[j], sh[j-1] = sh[j-1], sh[j]
			sa[j], sa[j-1] = sa[j-1], sa[j]
			sb[j], sb[j-1] = sb[j-1], sb[j]
		}
	}
	return sh, sa, sb
}

func accSt0(st []int) int {
	if len(st) == 0 {
		return 0
	}
	return st[0]
}

// forRows calls row with the byte offsets (for strides st0 and st1) of the
// first element of every row along dim 0 of shape; a 0-d shape is one
// row. Every size must be positive.
func forRows(shape, st0, st1 []int, row func(o0, o1 int)) {
	nd := len(shape)
	if nd <= 1 {
		row(0, 0)
		return
	}
	idx := make([]int, nd)
	o0, o1 := 0, 0
	for {
		row(o0, o1)
		d := 1
		for ; d < nd; d++ {
			idx[d]++
			o0 += st0[d]
			o1 += st1[d]
			if idx[d] < shape[d] {
				break
			}
			o0 -= idx[d] * st0[d]
			o1 -= idx[d] * st1[d]
			idx[d] = 0
		}
		if d == nd {
			return
		}
	}
}

// identity returns the identity of code in dtype d, stored in a uint64.
func identity(code kernel.Code, d dtype.DType) uint64 {
	var v uint64
	p := unsafe.Pointer(&v)
	lowest := code == kernel.Amax
	switch code {
	case kernel.Sum:
		return 0
	case kernel.Prod:
		f := 1.0
		casts[dtype.Float64][d](p, unsafe.Pointer(&f), 0, 0, 1)
		return v
	}
	switch d {
	case dtype.Bool:
		*(*bool)(p) = !lowest
	case dtype.Uint8:
		*(*uint8)(p) = sel[uint8](lowest, 0, math.MaxUint8)
	case dtype.Int8:
		*(*int8)(p) = sel[int8](lowest, math.MinInt8, math.MaxInt8)
	case dtype.Int16:
		*(*int16)(p) = sel[int16](lowest, math.MinInt16, math.MaxInt16)
	case dtype.Int32:
		*(*int32)(p) = sel[int32](lowest, math.MinInt32, math.MaxInt32)
	case dtype.Int64:
		*(*int64)(p) = sel[int64](lowest, math.MinInt64, math.MaxInt64)
	case dtype.Float32:
		*(*float32)(p) = float32(math.Inf(sel(lowest, -1, 1)))
	case dtype.Float64:
		*(*float64)(p) = math.Inf(sel(lowest, -1, 1))
	}
	return v
}
