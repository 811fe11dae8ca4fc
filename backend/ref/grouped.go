package ref

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
)

var _ kernel.GroupedMatMuler = (*Backend)(nil)

// GroupedMatMul implements [kernel.GroupedMatMuler]: each group is a
// product of a batch of one, computed by [Backend.MatMul]'s triple loop.
func (b *Backend) GroupedMatMul(g *kernel.Grouped) error {
	if g.DType == dtype.Bool {
		return errs.New(errs.DType, "matmul", "no matrix product kernel for %s", g.DType)
	}
	for _, q := range g.Groups {
		err := b.MatMul(g.Single(q))
		if err != nil {
			return err
		}
	}
	return nil
}

var _ kernel.RaggedSoftmaxer = (*Backend)(nil)

// RaggedSoftmax implements [kernel.RaggedSoftmaxer] row by row in float64:
// the max of the kept columns, the sum of their exponentials, the
// quotients; the backward's row sum likewise.
func (*Backend) RaggedSoftmax(s *kernel.RaggedSoftmax) error {
	if s.DType != dtype.Float32 && s.DType != dtype.Float64 {
		return errs.New(errs.DType, "softmax", "ragged softmax not implemented for '%s'", s.DType)
	}
	es := s.DType.Size()
	at := func(p unsafe.Pointer, off int) unsafe.Pointer { return unsafe.Add(p, off*es) }
	get := func(p unsafe.Pointer) float64 {
		if s.DType == dtype.Float32 {
			return float64(*(*float32)(p))
		}
		return *(*float64)(p)
	}
	set := func(p unsafe.Pointer, v float64) {
		if s.DType == dtype.Float32 {
			*(*float32)(p) = float32(v)
		} else {
			*(*float64)(p) = v
		}
	}
	var grad unsafe.Pointer
	if s.Backward {
		grad = at(s.Grad.Pointer(), s.GradOff)
	}
	in, out := at(s.In.Pointer(), s.InOff), at(s.Out.Pointer(), s.OutOff)
	for _, b := range s.Blocks {
		for i := range b.Rows {
			n := b.Cols
			if s.Causal {
				n = min(n, i+1)
			}
			o := b.Offset + i*b.Cols
			x := func(j int) float64 { return get(at(in, o+j)) }
			vals := make([]float64, b.Cols)
			if s.Backward {
				dot := 0.0
				for j := range n {
					dot += get(at(grad, o+j)) * x(j)
				}
				for j := range n {
					vals[j] = x(j) * (get(at(grad, o+j)) - dot)
				}
			} else {
				m := math.Inf(-1)
				for j := range n {
					if v := x(j); v > m || math.IsNaN(v) {
						m = v
						if math.IsNaN(v) {
							break
						}
					}
				}
				sum := 0.0
				for j := range n {
					vals[j] = math.Exp(x(j) - m)
					sum += vals[j]
				}
				for j := range n {
					vals[j] /= sum
				}
			}
			for j, v := range vals {
				set(at(out, o+j), v)
			}
		}
	}
	return nil
}
