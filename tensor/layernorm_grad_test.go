package tensor_test

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/tensor"
)

// TestLayerNormMomentsBF16 pins the statistics torch 1.13's bfloat16
// native_layer_norm returns for its backward: its mean comes from moments
// in bfloat16 arithmetic, 0.8203125 for the first row, where the exact
// mean (0.81770…) rounds to 0.81640625.
func TestLayerNormMomentsBF16(t *testing.T) {
	x := raw.New(dtype.BFloat16, []int{2, 3})
	for i, v := range []float64{0.8671875, 0.98828125, 0.59765625, -1.0078125, -1.6484375, -1.796875} {
		x.SetFloat64(i, v)
	}
	mean, rstd, err := op.LayerNormMoments(x, []int{3}, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		got  *raw.View
		want []float64
	}{{"mean", mean, []float64{0.8203125, -1.484375}}, {"rstd", rstd, []float64{6.09375, 2.921875}}} {
		for i, want := range c.want {
			if got := c.got.Float64At(c.got.Offset + i); got != want {
				t.Errorf("%s[%d] = %v, want %v", c.what, i, got, want)
			}
		}
	}
	if s := mean.Shape; len(s) != 2 || s[0] != 2 || s[1] != 1 {
		t.Errorf("mean shape %v, want [2 1]", s)
	}
}

// TestLayerNormGradBF16AsTorch checks bfloat16 layer_norm's gradients
// against torch 1.13's (one thread) on cases where the derivatives in
// bfloat16 ops missed them by more than the conformance tolerance (Note
// [16-bit layer_norm grads]): the input's exactly, the weight's and
// bias's within that tolerance (PyTorch rounds its sums over the rows at
// every row; goten's differ by up to 4 ulps of bfloat16 here).
func TestLayerNormGradBF16AsTorch(t *testing.T) {
	cases := []struct {
		rows, n                   int
		x, w, b, g, dx, dw, dbias []float64
	}{
		{rows: 3, n: 3,
			x:     []float64{0.1181640625, -0.73046875, -1.28125, -1.328125, 1.46875, 0.5703125, 0.54296875, -0.359375, -0.51171875},
			w:     []float64{-0.4921875, 0.16015625, 1.4375},
			b:     []float64{-0.37890625, 0.76953125, 0.8046875},
			g:     []float64{-1.9921875, 2.421875, 0.373046875, 1.0, -0.1943359375, -1.3046875, -1.390625, -0.29296875, -1.609375},
			dx:    []float64{0.13671875, -0.37109375, 0.228515625, 0.302734375, 0.6328125, -0.9296875, -0.337890625, 2.265625, -1.90625},
			dw:    []float64{-5.90625, -0.458984375, 0.6015625},
			dbias: []float64{-2.375, 1.9375, -2.53125}},
		{rows: 8, n: 3,
			x:     []float64{1.8984375, 0.70703125, -1.203125, -0.333984375, -0.81640625, -0.57421875, 0.018310546875, 0.0927734375, -0.28515625, 0.53515625, 0.7890625, -1.6328125, -0.189453125, 0.46484375, 1.15625, 0.35546875, 0.6484375, 0.78125, -1.3125, 0.7265625, -1.5546875, 0.2373046875, -1.9765625, -1.2890625},
			w:     []float64{0.05078125, 0.09619140625, -0.1611328125},
			b:     []float64{0.703125, -0.486328125, -2.75},
			g:     []float64{0.5546875, -1.2421875, -1.8828125, 0.60546875, 0.0235595703125, 1.0625, -0.625, 1.5546875, -0.1484375, 0.427734375, -0.41796875, 0.7109375, -0.06640625, 0.482421875, -0.71484375, 0.11083984375, 1.4375, -0.0439453125, 1.59375, -0.322265625, 0.310546875, -0.3515625, -0.388671875, 0.6953125},
			dx:    []float64{0.07958984375, -0.1298828125, 0.049560546875, 0.318359375, 0.31640625, -0.6328125, -0.5703125, 0.45703125, 0.11279296875, 0.035400390625, -0.031982421875, -0.0034027099609375, 0.00390625, -0.0096435546875, 0.00543212890625, -0.1494140625, 0.46875, -0.322265625, 0.06982421875, -0.006988525390625, -0.06298828125, 0.01708984375, 0.0380859375, -0.055419921875},
			dw:    []float64{-0.1611328125, 1.2109375, 0.279296875},
			dbias: []float64{2.25, 1.125, -0.0078125}},
	}
	bf := func(v []float64, shape ...int) *tensor.Tensor {
		return tensor.FromSlice(v, shape...).To(tensor.BFloat16)
	}
	for k, c := range cases {
		for _, dev := range []tensor.Device{{}, refDevice} {
			leaf := func(v []float64, shape ...int) *tensor.Tensor {
				return bf(v, shape...).ToDevice(dev).SetRequiresGrad(true)
			}
			x, w, b := leaf(c.x, c.rows, c.n), leaf(c.w, c.n), leaf(c.b, c.n)
			y := tensor.LayerNorm(x, []int{c.n}, w, b, 1e-5)
			y.Backward(tensor.FromSlice(c.g, c.rows, c.n).To(tensor.BFloat16).ToDevice(dev))
			for _, r := range []struct {
				what string
				got  *tensor.Tensor
				want []float64
				tol  bool // within bfloat16's conformance tolerance, else exact
			}{{"x", x.Grad(), c.dx, false}, {"weight", w.Grad(), c.dw, true}, {"bias", b.Grad(), c.dbias, true}} {
				got := r.got.Float64s()
				for i, want := range r.want {
					if d := math.Abs(got[i] - want); d != 0 && (!r.tol || d > 1e-2+1.6e-2*math.Abs(want)) {
						t.Errorf("case %d on %v: grad of %s[%d] = %v, want %v (torch 1.13)", k, dev, r.what, i, got[i], want)
					}
				}
			}
		}
	}
}

// TestLayerNormSecondOrderBF16 differentiates a bfloat16 layer_norm's
// input gradient again (a backward that records its graph) and compares
// with float64: the statistics must carry their own derivatives there,
// which the op's saved moments do not.
func TestLayerNormSecondOrderBF16(t *testing.T) {
	vals := []float64{0.5, -1.25, 2, 0.75, -0.5, 1.5, 0.25, -2, 1, 3, -0.75, 0.125, 1.75, -1, 0.5}
	seed := []float64{1, -0.5, 0.25, 2, -1, 0.5, 1.5, -2, 0.75, 1, -1.25, 0.5, 2, 0.25, -0.5}
	second := func(dt tensor.DType) []float64 {
		x := tensor.FromSlice(vals, 3, 5).To(dt).SetRequiresGrad(true)
		y := tensor.LayerNorm(x, []int{5}, nil, nil, 1e-5)
		s := tensor.FromSlice(seed, 3, 5).To(dt)
		g := tensor.Grad([]*tensor.Tensor{y.Mul(s).Sum()}, []*tensor.Tensor{x}, nil, tensor.GradOptions{CreateGraph: true})[0]
		g.Mul(s).Sum().Backward()
		return x.Grad().Float64s()
	}
	got, want := second(tensor.BFloat16), second(tensor.Float64)
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > 0.05+0.05*math.Abs(want[i]) {
			t.Errorf("second derivative [%d] = %v in bfloat16, %v in float64", i, got[i], want[i])
		}
	}
}
