// Package gradcheck checks autograd's gradients against finite
// differences, as PyTorch's torch.autograd.gradcheck and gradgradcheck do:
// the Jacobian backward computes, one output element at a time, against
// the central differences of the function in float64.
//
//	x := tensor.Randn(...).To(tensor.Float64).SetRequiresGrad(true)
//	err := gradcheck.Check(func(in []*tensor.Tensor) []*tensor.Tensor {
//		return []*tensor.Tensor{in[0].Sin().Sum()}
//	}, []*tensor.Tensor{x}, gradcheck.Options{})
package gradcheck

import (
	"fmt"
	"math"

	"github.com/goten-ml/goten/tensor"
)

// Options are the step and tolerances of a check; zero values take
// PyTorch's defaults (Eps 1e-6, Atol 1e-5, Rtol 1e-3).
type Options struct {
	Eps, Atol, Rtol float64
}

func (o Options) withDefaults() Options {
	if o.Eps == 0 {
		o.Eps = 1e-6
	}
	if o.Atol == 0 {
		o.Atol = 1e-5
	}
	if o.Rtol == 0 {
		o.Rtol = 1e-3
	}
	return o
}

// Func is a function checked: outputs of float64 inputs.
type Func func(inputs []*tensor.Tensor) []*tensor.Tensor

// Check compares the gradients of f's outputs with respect to each input
// that requires grad, computed by backward, with central differences of f.
// The inputs must be float64, and those requiring grad must not overlap
// themselves (a perturbed storage element would be several elements at
// once). It returns an error naming the first element that differs.
func Check(f Func, inputs []*tensor.Tensor, o Options) error {
	o = o.withDefaults()
	var wrt []*tensor.Tensor
	for k, x := range inputs {
		if x == nil || !x.RequiresGrad() {
			continue
		}
		if x.DType() != tensor.Float64 {
			return fmt.Errorf("gradcheck: input %d is %v, want float64", k, x.DType())
		}
		for _, s := range x.Strides() {
			if s == 0 && x.NumEl() > 1 {
				return fmt.Errorf("gradcheck: input %d has a dim of stride 0", k)
			}
		}
		wrt = append(wrt, x)
	}
	outs := f(inputs)
	// analytical: one backward per output element
	ana := make([][][]float64, len(wrt)) // [input][input element][output element, over all outputs]
	total := 0
	for _, y := range outs {
		total += y.NumEl()
	}
	for k, x := range wrt {
		ana[k] = make([][]float64, x.NumEl())
		for j := range ana[k] {
			ana[k][j] = make([]float64, total)
		}
	}
	col := 0
	for oi, y := range outs {
		if y.DType() != tensor.Float64 {
			return fmt.Errorf("gradcheck: output %d is %v, want float64", oi, y.DType())
		}
		for i := range y.NumEl() {
			var grads []*tensor.Tensor
			if y.RequiresGrad() {
				seeds := make([]*tensor.Tensor, len(outs))
				for q, z := range outs {
					seeds[q] = tensor.ZerosLike(z)
				}
				seeds[oi].Set(tensor.Scalar(1.0), unravel(i, y.Shape())...)
				grads = tensor.Grad(differentiable(outs), wrt, pick(outs, seeds), tensor.GradOptions{RetainGraph: true, AllowUnused: true})
			}
			for k := range wrt {
				if grads == nil || grads[k] == nil {
					continue
				}
				for j, v := range grads[k].Contiguous().Float64s() {
					ana[k][j][col] = v
				}
			}
			col++
		}
	}
	// numerical: central differences, one input element at a time
	for k, x := range wrt {
		shape := x.Shape()
		raw := x.Detach()
		for j := range x.NumEl() {
			idx := unravel(j, shape)
			v := raw.At(idx...)
			raw.Set(tensor.Scalar(v+o.Eps), idx...)
			plus := flatten(f(inputs))
			raw.Set(tensor.Scalar(v-o.Eps), idx...)
			minus := flatten(f(inputs))
			raw.Set(tensor.Scalar(v), idx...)
			for c := range total {
				num := (plus[c] - minus[c]) / (2 * o.Eps)
				a := ana[k][j][c]
				if !close(a, num, o) {
					return fmt.Errorf("gradcheck: Jacobian mismatch for output element %d with respect to input %d, element %v: backward %g, numerical %g",
						c, k, idx, a, num)
				}
			}
		}
	}
	return nil
}

// CheckSecond checks the gradients of f's gradients (PyTorch's
// gradgradcheck): it checks, with Check, the function of the inputs and
// of seeds for f's outputs that returns the gradients backward computes
// with CreateGraph.
func CheckSecond(f Func, inputs []*tensor.Tensor, o Options) error {
	outs := f(inputs)
	seeds := make([]*tensor.Tensor, 0, len(outs))
	g := tensor.NewGenerator(uint64(len(inputs)*7919 + 13))
	for _, y := range outs {
		seeds = append(seeds, g.Randn(tensor.Float64, y.Shape()...).SetRequiresGrad(true))
	}
	var wrt []*tensor.Tensor
	for _, x := range inputs {
		if x != nil && x.RequiresGrad() {
			wrt = append(wrt, x)
		}
	}
	n := len(inputs)
	grads := func(all []*tensor.Tensor) []*tensor.Tensor {
		outs := f(all[:n])
		var ws []*tensor.Tensor
		for _, x := range all[:n] {
			if x != nil && x.RequiresGrad() {
				ws = append(ws, x)
			}
		}
		gs := tensor.Grad(differentiable(outs), ws, pick(outs, all[n:]), tensor.GradOptions{CreateGraph: true, AllowUnused: true})
		var r []*tensor.Tensor
		for k, gr := range gs {
			if gr == nil {
				gr = tensor.ZerosLike(ws[k])
			}
			r = append(r, gr)
		}
		return r
	}
	return Check(grads, append(append([]*tensor.Tensor{}, inputs...), seeds...), o)
}

// differentiable returns the outputs that require grad (Grad refuses the
// others); pick returns their seeds.
func differentiable(outs []*tensor.Tensor) []*tensor.Tensor {
	var r []*tensor.Tensor
	for _, y := range outs {
		if y.RequiresGrad() {
			r = append(r, y)
		}
	}
	return r
}

func pick(outs, seeds []*tensor.Tensor) []*tensor.Tensor {
	var r []*tensor.Tensor
	for q, y := range outs {
		if y.RequiresGrad() {
			r = append(r, seeds[q])
		}
	}
	return r
}

// flatten returns the elements of ts in order, as float64.
func flatten(ts []*tensor.Tensor) []float64 {
	var r []float64
	for _, t := range ts {
		r = append(r, t.Detach().Contiguous().Float64s()...)
	}
	return r
}

// unravel returns the index of the row-major i-th element of shape.
func unravel(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = i % shape[d]
		i /= shape[d]
	}
	return idx
}

// close compares an analytical derivative a with a numerical one n.
func close(a, n float64, o Options) bool {
	if math.IsNaN(a) || math.IsNaN(n) {
		return math.IsNaN(a) && math.IsNaN(n)
	}
	return math.Abs(a-n) <= o.Atol+o.Rtol*math.Abs(n)
}
