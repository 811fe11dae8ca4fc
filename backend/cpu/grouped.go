package cpu

import (
	"sort"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/gemm"
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

var _ kernel.GroupedMatMuler = (*Backend)(nil)

// GroupedMatMul implements [kernel.GroupedMatMuler] on the packed GEMM:
// one parallel pass over work items cut from all the groups (the gemm
// package's Note [Grouped work items]), each run by the driver of single
// products. Groups marked Plain (float32, float64; small ones) run first,
// one after another, in the plain loop of MatMul.
func (be *Backend) GroupedMatMul(g *kernel.Grouped) error {
	gs := make([]gemm.Group, 0, len(g.Groups))
	for _, q := range g.Groups {
		if q.M == 0 || q.N == 0 {
			continue
		}
		if q.Plain && (g.DType == dtype.Float32 || g.DType == dtype.Float64) {
			// small: PyTorch's loop, as a plain product alone
			if err := be.MatMul(g.Single(q)); err != nil {
				return err
			}
			continue
		}
		gs = append(gs, gemm.Group{M: q.M, N: q.N, K: q.K,
			OffA: q.A.Offset, RsA: q.A.RowStride, CsA: q.A.ColStride,
			OffB: q.B.Offset, RsB: q.B.RowStride, CsB: q.B.ColStride,
			OffC: q.C.Offset, RsC: q.C.RowStride, CsC: q.C.ColStride})
	}
	if len(gs) == 0 {
		return nil
	}
	switch g.DType {
	case dtype.Float32:
		gemm.F32Grouped(gs, float32(g.Alpha), whole[float32](g.A), whole[float32](g.B), float32(g.Beta), whole[float32](g.C))
	case dtype.Float64:
		gemm.F64Grouped(gs, g.Alpha, whole[float64](g.A), whole[float64](g.B), g.Beta, whole[float64](g.C))
	case dtype.Float16:
		gemm.F16Grouped(gs, float32(g.Alpha), whole[uint16](g.A), whole[uint16](g.B), float32(g.Beta), whole[uint16](g.C))
	case dtype.BFloat16:
		gemm.BF16Grouped(gs, float32(g.Alpha), whole[uint16](g.A), whole[uint16](g.B), float32(g.Beta), whole[uint16](g.C))
	case dtype.Uint8:
		groupedInt[uint8](g, gs)
	case dtype.Int8:
		groupedInt[int8](g, gs)
	case dtype.Int16:
		groupedInt[int16](g, gs)
	case dtype.Int32:
		groupedInt[int32](g, gs)
	case dtype.Int64:
		groupedInt[int64](g, gs)
	default:
		return errs.New(errs.DType, "matmul", "no matrix product kernel for %s", g.DType)
	}
	return nil
}

func groupedInt[T uint8 | int8 | int16 | int32 | int64](g *kernel.Grouped, gs []gemm.Group) {
	gemm.IntGrouped(gs, int64(g.Alpha), whole[T](g.A), whole[T](g.B), int64(g.Beta), whole[T](g.C))
}

// whole returns all of st as elements of T (the gemm package checks every
// group's extent against it).
func whole[T any](st *device.Storage) []T {
	var z T
	n := st.Len() / int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(st.Pointer()), n)
}

var _ kernel.RaggedSoftmaxer = (*Backend)(nil)

// RaggedSoftmax implements [kernel.RaggedSoftmaxer]: one parallel pass over
// the rows of all the matrices (ranges of rows across matrices, so a few
// large matrices and many small ones split alike), each row's kept prefix
// through the dense softmax's row kernel (SIMD for float32).
func (*Backend) RaggedSoftmax(s *kernel.RaggedSoftmax) error {
	switch s.DType {
	case dtype.Float32:
		raggedSoftmax[float32](s)
	case dtype.Float64:
		raggedSoftmax[float64](s)
	default:
		return errs.New(errs.DType, "softmax", "ragged softmax not implemented for '%s'", s.DType)
	}
	return nil
}

func raggedSoftmax[T float32 | float64](s *kernel.RaggedSoftmax) {
	// first[g] is the number of rows before matrix g
	first := make([]int, len(s.Blocks)+1)
	cols := 0
	for g, b := range s.Blocks {
		first[g+1] = first[g] + b.Rows
		cols += b.Rows * b.Cols
	}
	rows := first[len(s.Blocks)]
	if rows == 0 {
		return
	}
	var z T
	dt := dtype.Float32
	if unsafe.Sizeof(z) == 8 {
		dt = dtype.Float64
	}
	fwd := rowTable[optable.Softmax.Code][dt]
	at := func(st *device.Storage, off int) []T {
		return unsafe.Slice((*T)(st.Pointer()), st.Len()/int(unsafe.Sizeof(z)))[off:]
	}
	in, out := at(s.In, s.InOff), at(s.Out, s.OutOff)
	var grad []T
	if s.Backward {
		grad = at(s.Grad, s.GradOff)
	}
	// a grain of about 16K elements
	grain := max(1, 16384*rows/max(cols, 1))
	parallel.For(rows, grain, func(lo, hi int) {
		g := sort.SearchInts(first, lo+1) - 1
		for r := lo; r < hi; r++ {
			for r >= first[g+1] {
				g++
			}
			b := s.Blocks[g]
			i := r - first[g]
			n := b.Cols
			if s.Causal {
				n = min(n, i+1)
			}
			o := b.Offset + i*b.Cols
			x, y := in[o:o+b.Cols], out[o:o+b.Cols]
			if s.Backward {
				dy := grad[o : o+b.Cols]
				var dot float64
				for j := range n {
					dot += float64(dy[j]) * float64(x[j])
				}
				for j := range n {
					y[j] = T(float64(x[j]) * (float64(dy[j]) - dot))
				}
			} else if n > 0 {
				fwd(unsafe.Pointer(&y[0]), unsafe.Pointer(&x[0]), nil, nil, n, nil)
			}
			clear(y[n:])
		}
	})
}
