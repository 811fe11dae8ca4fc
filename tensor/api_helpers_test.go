package tensor_test

import (
	"math"
	"reflect"
	"testing"

	_ "github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// refDevice is where the reference backend runs (Note [Backend per
// device] in package kernel).
var refDevice = tensor.Device{Kind: device.Ref}

// sample returns a tensor of dtype dt and the given shape with small
// deterministic values that differ with seed: positive and nonzero (safe
// divisors, shift counts and logarithms), both bools.
func sample(dt dtype.DType, seed int, shape ...int) *tensor.Tensor {
	n := 1
	for _, s := range shape {
		n *= s
	}
	xs := make([]float64, n)
	for i := range xs {
		k := (7*i + 3*seed) % 11
		switch {
		case dt == dtype.Bool:
			xs[i] = float64((i + seed) % 2)
		case dt.IsFloat():
			xs[i] = float64(k+1) / 8
		default:
			xs[i] = float64(k%5 + 1)
		}
	}
	return tensor.FromSlice(xs, shape...).To(dt)
}

// onRef calls fn with its tensor arguments moved to the reference
// backend's device (Go numbers stay Go numbers) and returns its result
// back on the CPU.
func onRef(fn any, args ...any) *tensor.Tensor {
	return call(fn, args)[0]
}

// onRef2 is onRef for an op with two results.
func onRef2(fn func(*tensor.Tensor) (*tensor.Tensor, *tensor.Tensor), x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
	r := call(fn, []any{x})
	return r[0], r[1]
}

func call(fn any, args []any) []*tensor.Tensor {
	f := reflect.ValueOf(fn)
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		if t, ok := a.(*tensor.Tensor); ok && !t.IsScalar() {
			a = t.ToDevice(refDevice)
		}
		in[i] = reflect.ValueOf(a)
	}
	var out []reflect.Value
	if f.Type().IsVariadic() {
		out = f.Call(in)
	} else {
		out = f.Call(in)
	}
	rs := make([]*tensor.Tensor, len(out))
	for i, v := range out {
		r := v.Interface().(*tensor.Tensor)
		if r.Device() != refDevice {
			panic("a result left the reference device")
		}
		rs[i] = r.ToDevice(tensor.CPU)
	}
	return rs
}

// same fails t unless got has want's dtype, shape and values (floats
// within a few float32 ulps: the CPU's SIMD kernels against the reference
// backend's float64 evaluation; NaN matches NaN).
func same(t *testing.T, what string, got, want *tensor.Tensor) {
	t.Helper()
	if got.DType() != want.DType() || !reflect.DeepEqual(got.Shape(), want.Shape()) {
		t.Fatalf("%s: got %s %v, want %s %v", what, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range w {
		switch {
		case math.IsNaN(w[i]) && math.IsNaN(g[i]):
		case g[i] == w[i]:
		case got.DType().IsFloat() && math.Abs(g[i]-w[i]) <= 1e-5*math.Abs(w[i])+1e-6:
		default:
			t.Fatalf("%s: element %d is %v, want %v\ngot  %v\nwant %v", what, i, g[i], w[i], got, want)
		}
	}
}
