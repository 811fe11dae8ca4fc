package tensor

import (
	"fmt"
	"strings"

	"github.com/goten-ml/goten/internal/repr"
)

// String prints the tensor as PyTorch's repr does.
func (t *Tensor) String() string {
	if t.view() == nil {
		return "<nil>"
	}
	return repr.Format(t.hostView())
}

// Format makes a tensor a fmt.Formatter. The verbs v, s, f, g and e print
// it as PyTorch's repr ([Tensor.String]); a precision sets the digits of
// floats after the point ("%.2f": tensor([1.50, 2.25])), as
// torch.set_printoptions(precision=2) does; the flag + adds the dtype,
// shape and device ("%+v": tensor([1.5000, 2.2500], dtype=float32,
// shape=[2], device=cpu)). Other verbs print fmt's %!verb(...) error.
func (t *Tensor) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v', 's', 'f', 'g', 'e':
	default:
		fmt.Fprintf(f, "%%!%c(*tensor.Tensor=%s)", verb, t.String())
		return
	}
	if t.view() == nil {
		f.Write([]byte("<nil>"))
		return
	}
	var o repr.Options
	if p, ok := f.Precision(); ok {
		o.Precision = p
		if p == 0 {
			o.Precision = -1
		}
	}
	if f.Flag('+') {
		shape := strings.ReplaceAll(fmt.Sprint(t.v.Shape), " ", ", ")
		o.Extra = []string{"dtype=" + t.DType().String(), "shape=" + shape, "device=" + t.Device().String()}
	}
	f.Write([]byte(repr.FormatOptions(t.hostView(), o)))
}
