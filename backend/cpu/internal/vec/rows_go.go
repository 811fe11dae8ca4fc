package vec

import "fmt"

// ScalarRows is the layout of the operands of a rows primitive (the
// ScalarRows functions): Rows rows of RowLen elements, row i of dst at
// element i·DstStride, of a at i·AStride, and its scalar at s[i·SStride]
// (Note [Rows with a scalar each] in backend/cpu). Strides are ≥ 0.
type ScalarRows struct{ Rows, RowLen, DstStride, AStride, SStride int }

// empty reports whether the layout has no element, and panics if dst, a
// or s (of these lengths) do not hold every element it reaches.
func (r ScalarRows) empty(nd, na, ns int) bool {
	if r.Rows <= 0 || r.RowLen <= 0 {
		return true
	}
	if !holds(nd, r.DstStride, r.Rows, r.RowLen) || !holds(na, r.AStride, r.Rows, r.RowLen) || !holds(ns, r.SStride, r.Rows, 1) {
		panic(fmt.Sprintf("vec: rows %+v out of operands of %d, %d and %d elements", r, nd, na, ns))
	}
	return false
}

// holds reports whether an operand of n elements holds rows rows (at
// least one) of rowLen elements, stride elements apart.
func holds(n, stride, rows, rowLen int) bool {
	return stride >= 0 && (rows-1)*stride+rowLen <= n
}

// scalarRowsGo runs op on each row of r, the rows primitives' exact loop:
//
//	for i := 0; i < r.Rows; i++ {
//		op(dst[i*r.DstStride:][:r.RowLen], a[i*r.AStride:][:r.RowLen], s[i*r.SStride])
//	}
func scalarRowsGo[T float32 | float64](op func(dst, a []T, s T), dst, a, s []T, r ScalarRows) {
	for i := 0; i < r.Rows; i++ {
		op(dst[i*r.DstStride:][:r.RowLen], a[i*r.AStride:][:r.RowLen], s[i*r.SStride])
	}
}

// The pure-Go twins of the rows primitives: scalarRowsGo of the scalar
// primitive's twin, row after row.

func addScalarRowsF32Go(dst, a, s []float32, r ScalarRows) {
	scalarRowsGo(addScalarF32Go, dst, a, s, r)
}

func subScalarRowsF32Go(dst, a, s []float32, r ScalarRows) {
	scalarRowsGo(subScalarF32Go, dst, a, s, r)
}

func mulScalarRowsF32Go(dst, a, s []float32, r ScalarRows) {
	scalarRowsGo(mulScalarF32Go, dst, a, s, r)
}

func divScalarRowsF32Go(dst, a, s []float32, r ScalarRows) {
	scalarRowsGo(divScalarF32Go, dst, a, s, r)
}

func addScalarRowsF64Go(dst, a, s []float64, r ScalarRows) {
	scalarRowsGo(addScalarF64Go, dst, a, s, r)
}

func subScalarRowsF64Go(dst, a, s []float64, r ScalarRows) {
	scalarRowsGo(subScalarF64Go, dst, a, s, r)
}

func mulScalarRowsF64Go(dst, a, s []float64, r ScalarRows) {
	scalarRowsGo(mulScalarF64Go, dst, a, s, r)
}

func divScalarRowsF64Go(dst, a, s []float64, r ScalarRows) {
	scalarRowsGo(divScalarF64Go, dst, a, s, r)
}
