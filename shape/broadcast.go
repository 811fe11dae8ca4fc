package shape

import (
	"fmt"

	"github.com/goten-ml/goten/errs"
)

// Broadcast returns the shape that a and b broadcast to (PyTorch's
// infer_size), or a shape error with PyTorch's exact message.
func Broadcast(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		off := n - 1 - i
		da, db := len(a)-1-off, len(b)-1-off
		sa, sb := 1, 1
		if da >= 0 {
			sa = a[da]
		}
		if db >= 0 {
			sb = b[db]
		}
		switch {
		case sa == sb || sb == 1:
			out[i] = sa
		case sa == 1:
			out[i] = sb
		default:
			return nil, &errs.Error{Kind: errs.Shape, Msg: fmt.Sprintf(
				"The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", sa, sb, i)}
		}
	}
	return out, nil
}

// WrapDim turns a possibly negative dim into an index in [0, ndim). A
// 0-dim tensor accepts dims 0 and -1 (PyTorch's scalar rule). Out of range
// is an index error.
func WrapDim(dim, ndim int) (int, error) {
	n := ndim
	if n == 0 {
		n = 1
	}
	if dim < -n || dim >= n {
		return 0, &errs.Error{Kind: errs.Index, Msg: fmt.Sprintf(
			"Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, dim)}
	}
	if dim < 0 {
		dim += n
	}
	return dim, nil
}
