package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Rows with a scalar each]
// A bias add over NCHW (x [N,C,H,W] + b [C,1,1]) walks short rows of H·W
// elements (196 for 14×14), each with its own element of b: in the plan's
// inner dim b has stride 0, in the next its element stride. Row by row
// through the op's loop, every short row pays the loop's dispatch again
// (the loop function value, addVec's layout and alpha checks). A rowsFn
// takes a whole block of rows (one iter.Loop2D call) instead: it checks the
// layout once and calls the vec primitive row after row, or reports that
// the layout is not its own and the rows run as before. Only rows shorter
// than streamRowBytes take it, so the choice of streaming stores (Note
// [Streaming stores]) is left as it was.

// rowsFn runs n1 rows of n0 elements (strides as iter.Loop2D hands them:
// the inner ones, then the outer ones) and reports whether it did.
type rowsFn func(ptr [4]unsafe.Pointer, strides []int, n0, n1 int, args *kernel.Args) bool

// rowLoops holds the rowsFn of each op code and loop dtype, nil where
// there is none.
var rowLoops = make([][dtype.Count]rowsFn, optable.NumCodes())

func init() {
	f32, f64 := dtype.Float32, dtype.Float64
	set := func(op *optable.Op, a32 func(dst, a []float32, s float32), a64 func(dst, a []float64, s float64), unit bool) {
		rowLoops[op.Code][f32] = func(p [4]unsafe.Pointer, st []int, n0, n1 int, args *kernel.Args) bool {
			return (!unit || args.AlphaF == 1) && scalarRows(a32, p, st, n0, n1)
		}
		rowLoops[op.Code][f64] = func(p [4]unsafe.Pointer, st []int, n0, n1 int, args *kernel.Args) bool {
			return (!unit || args.AlphaF == 1) && scalarRows(a64, p, st, n0, n1)
		}
	}
	set(optable.Add, vecF32.addS, vecF64.addS, true)
	set(optable.Sub, vecF32.subS, vecF64.subS, true)
	set(optable.Mul, vecF32.mulS, vecF64.mulS, false)
	set(optable.Div, vecF32.divS, vecF64.divS, false)
}

// scalarRows runs dst = op(a, s) on each row when dst and a are
// contiguous rows and b is one scalar per row (Note [Rows with a scalar
// each]).
func scalarRows[T float](op func(dst, a []T, s T), p [4]unsafe.Pointer, st []int, n0, n1 int) bool {
	var z T
	es := int(unsafe.Sizeof(z))
	if st[0] != es || st[1] != es || st[2] != 0 || n0*es >= streamRowBytes {
		return false
	}
	d, a, b := p[0], p[1], p[2]
	for j := 1; ; j++ {
		op(unsafe.Slice((*T)(d), n0), unsafe.Slice((*T)(a), n0), *(*T)(b))
		if j == n1 {
			return true // no pointer past the last row (checkptr)
		}
		d, a, b = unsafe.Add(d, st[3]), unsafe.Add(a, st[4]), unsafe.Add(b, st[5])
	}
}
