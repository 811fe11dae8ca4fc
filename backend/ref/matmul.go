package ref

import (
	"unsafe"

	"github.com/goten-ml/goten/kernel"
)

// MatMul computes every product with a naive triple loop, accumulating
// floats in float64 and integers in int64.
func (*Backend) MatMul(g *kernel.Gemm) error {
	es := g.DType.Size()
	isFloat := g.DType.IsFloat()
	at := func(m kernel.Matrix, b, i, j int) unsafe.Pointer {
		off := m.Offset + b*m.BatchStride + i*m.RowStride + j*m.ColStride
		return unsafe.Add(m.Storage.Pointer(), off*es)
	}
	for b := 0; b < g.Batch; b++ {
		for i := 0; i < g.M; i++ {
			for j := 0; j < g.N; j++ {
				var sf float64
				var si int64
				for p := 0; p < g.K; p++ {
					x, y := load(at(g.A, b, i, p), g.DType), load(at(g.B, b, p, j), g.DType)
					sf += x.f * y.f
					si += x.i * y.i
				}
				c := at(g.C, b, i, j)
				var r value
				if isFloat {
					r.f = g.Alpha * sf
					if g.Beta != 0 {
						r.f += g.Beta * load(c, g.DType).f
					}
				} else {
					r.i = int64(g.Alpha) * si
					if g.Beta != 0 {
						r.i += int64(g.Beta) * load(c, g.DType).i
					}
				}
				store(c, g.DType, r, isFloat)
			}
		}
	}
	return nil
}
