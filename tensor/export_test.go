package tensor

import (
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// FromRaw and Raw give this package's external tests the strided view
// under a tensor, to build tensors of any layout and check results element
// by element; they are not part of the API.

func FromRaw(v *raw.View) *Tensor { return wrap(v) }

func (t *Tensor) Raw() *raw.View { return t.v }

// ApplyPointwise, ApplyReduce and ApplyScan run an op of the table by its
// entry, for tests that walk the table (gradcheck over every op).
func ApplyPointwise(d *optable.Op, args *kernel.Args, ins ...*Tensor) *Tensor {
	return pointwise(d, nil, false, args, ins...)
}

func ApplyReduce(r *optable.Op, t *Tensor, o ...Dims) []*Tensor { return reduce(r, nil, t, o) }

func ApplyScan(s *optable.Op, t *Tensor, o Dims) []*Tensor { return scan(s, nil, t, o) }
