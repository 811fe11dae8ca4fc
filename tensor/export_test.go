package tensor

import "github.com/goten-ml/goten/raw"

// FromRaw and Raw give this package's external tests the strided view
// under a tensor, to build tensors of any layout and check results element
// by element; they are not part of the API.

func FromRaw(v *raw.View) *Tensor { return wrap(v) }

func (t *Tensor) Raw() *raw.View { return t.v }
