package op

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// LayerNorm is torch.nn.functional.layer_norm: x normalised over its
// trailing dims normalizedShape (mean 0, biased variance 1, eps added to
// the variance), then multiplied by weight and added bias (each nil or of
// shape normalizedShape). The result has x's shape and dtype; x must be a
// float tensor. Like PyTorch, it reads x as a contiguous [M, N] matrix
// (copying it first if it is not contiguous) and normalises each row in
// one pass over memory.
func LayerNorm(x *raw.View, normalizedShape []int, weight, bias *raw.View, eps float64) (*raw.View, error) {
	return layerNorm(&dest{name: "layer_norm", ins: []*raw.View{x, weight, bias}}, x, normalizedShape, weight, bias, eps)
}

// LayerNormTo is [LayerNorm] into out, with the rules of [MatmulTo]: out
// has x's dtype and shape, or no elements; one that shares memory with an
// operand, or is not contiguous, gets a copy of the result.
func LayerNormTo(out, x *raw.View, normalizedShape []int, weight, bias *raw.View, eps float64) (*raw.View, error) {
	return layerNorm(&dest{name: "layer_norm", out: out, ins: []*raw.View{x, weight, bias}}, x, normalizedShape, weight, bias, eps)
}

// layerNormRows checks x against normalizedShape and returns the [m, n]
// matrix layer_norm reads it as: m rows of the n normalized elements.
func layerNormRows(name string, x *raw.View, normalizedShape []int) (m, n int, err error) {
	nd, k := x.Dim(), len(normalizedShape)
	if k == 0 {
		return 0, 0, errs.New(errs.Value, name, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []")
	}
	if k > nd || !shape.Equal(x.Shape[nd-k:], normalizedShape) {
		return 0, 0, errs.New(errs.Shape, name, "Given normalized_shape=%v, expected input with shape [*, %s], but got input of size%v",
			normalizedShape, joinInts(normalizedShape), x.Shape)
	}
	return shape.NumEl(x.Shape[:nd-k]), shape.NumEl(normalizedShape), nil
}

// layerNormDType checks that layer_norm has a kernel for x's dtype.
func layerNormDType(name string, x *raw.View) error {
	if !x.DType.IsFloat() {
		return errs.New(errs.DType, name, "\"LayerNormKernelImpl\" not implemented for '%s'", x.DType)
	}
	return nil
}

func layerNorm(d *dest, x *raw.View, normalizedShape []int, weight, bias *raw.View, eps float64) (*raw.View, error) {
	const name = "layer_norm"
	m, n, err := layerNormRows(name, x, normalizedShape)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		v    *raw.View
		what string
	}{{weight, "weight"}, {bias, "bias"}} {
		if p.v != nil && !shape.Equal(p.v.Shape, normalizedShape) {
			return nil, errs.New(errs.Shape, name, "Expected %s to be of same shape as normalized_shape, but got %s of shape %v and normalized_shape = %v",
				p.what, p.what, p.v.Shape, normalizedShape)
		}
	}
	if err := layerNormDType(name, x); err != nil {
		return nil, err
	}
	for _, p := range []*raw.View{weight, bias} {
		if p != nil && p.DType != x.DType {
			return nil, errs.New(errs.DType, name, "expected scalar type %s but found %s", x.DType, p.DType)
		}
	}
	result, err := d.alloc(x.DType, x.Shape)
	if err != nil {
		return nil, err
	}
	if m*n == 0 {
		return result, nil
	}
	if !result.IsContiguous() {
		if result, err = d.scratch(x.DType, x.Shape); err != nil {
			return nil, err
		}
	}
	out := result.WithLayout([]int{m, n}, []int{n, 1}, result.Offset)
	xc, err := Contiguous(x)
	if err != nil {
		return nil, err
	}
	ins := []*raw.View{xc.WithLayout([]int{m, n}, []int{n, 1}, xc.Offset)}
	args := kernel.DefaultArgs
	args.Dim, args.Eps = 1, eps
	for _, p := range []struct {
		v   *raw.View
		has *bool
	}{{weight, &args.HasWeight}, {bias, &args.HasBias}} {
		if p.v == nil {
			continue
		}
		c, err := Contiguous(p.v)
		if err != nil {
			return nil, err
		}
		ins = append(ins, c.WithLayout([]int{m, n}, []int{0, 1}, c.Offset))
		*p.has = true
	}
	if err := runRows(optable.LayerNorm, []*raw.View{out}, ins, 1, x.DType, &args); err != nil {
		return nil, err
	}
	return d.finish(result)
}

// LayerNormMoments returns the mean and rstd = 1/√(var+eps) of x over its
// trailing dims normalizedShape as [LayerNorm] computes them, in x's
// dtype, shaped as x with those dims of size 1: what PyTorch's
// native_layer_norm returns beside its result for the backward (for
// bfloat16 its moments in bfloat16 arithmetic, Note [Bfloat16 steps] in
// optable/elem).
func LayerNormMoments(x *raw.View, normalizedShape []int, eps float64) (mean, rstd *raw.View, err error) {
	const name = "layer_norm"
	m, n, err := layerNormRows(name, x, normalizedShape)
	if err != nil {
		return nil, nil, err
	}
	if err := layerNormDType(name, x); err != nil {
		return nil, nil, err
	}
	keep := slices.Clone(x.Shape)
	for i := x.Dim() - len(normalizedShape); i < len(keep); i++ {
		keep[i] = 1
	}
	var stats [2]*raw.View
	if m*n == 0 { // no rows, or rows without elements, which a backward never reads
		for i := range stats {
			if stats[i], err = empty(name, x.DType, keep, x); err != nil {
				return nil, nil, err
			}
		}
		return stats[0], stats[1], nil
	}
	xc, err := Contiguous(x)
	if err != nil {
		return nil, nil, err
	}
	rows := xc.WithLayout([]int{m, n}, []int{n, 1}, xc.Offset)
	// the row op writes rows as long as x's, filled with the statistics
	// (Args.Moment); a column of them holds one per row
	filledRows := func(moment kernel.Moment) (*raw.View, error) {
		filled, err := empty(name, x.DType, []int{m, n}, x)
		if err != nil {
			return nil, err
		}
		args := kernel.DefaultArgs
		args.Dim, args.Eps, args.Moment = 1, eps, moment
		return filled, runRows(optable.LayerNorm, []*raw.View{filled}, []*raw.View{rows}, 1, x.DType, &args)
	}
	column := func(filled *raw.View, j int) (*raw.View, error) {
		col, err := Contiguous(filled.WithLayout([]int{m}, []int{n}, filled.Offset+j))
		if err != nil {
			return nil, err
		}
		return col.WithLayout(keep, shape.Contiguous(keep), col.Offset), nil
	}
	if n >= 2 { // both from one pass: the mean in column 0, the rstd in column 1
		filled, err := filledRows(kernel.MomentBoth)
		if err != nil {
			return nil, nil, err
		}
		for j := range stats {
			if stats[j], err = column(filled, j); err != nil {
				return nil, nil, err
			}
		}
		return stats[0], stats[1], nil
	}
	// rows of one element hold one statistic: a pass for each
	for j, moment := range []kernel.Moment{kernel.MomentMean, kernel.MomentRstd} {
		filled, err := filledRows(moment)
		if err != nil {
			return nil, nil, err
		}
		if stats[j], err = column(filled, 0); err != nil {
			return nil, nil, err
		}
	}
	return stats[0], stats[1], nil
}

func joinInts(s []int) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}
