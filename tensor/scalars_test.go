package tensor_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// Go numbers that do not fit the dtype they are read in (Note [Checked
// scalars] in package op). Every expected value and message here is what
// PyTorch 1.13 gives for the same call (torch.clamp(torch.tensor([1],
// dtype=torch.int8), 1000), ...); testdata/conformance-variants/cases/
// extra.jsonl holds many more such cases, computed by
// tools/confgen/extra.py.

// wantError fails t unless f panics with a *tensor.Error of kind whose
// message contains msg.
func wantError(t *testing.T, what string, kind tensor.ErrorKind, msg string, f func()) {
	t.Helper()
	err := tensor.Try(f)
	var e *tensor.Error
	if !errors.As(err, &e) || e.Kind != kind || !strings.Contains(e.Msg, msg) {
		t.Errorf("%s: got %v, want a %s error with %q", what, err, kind, msg)
	}
}

// unchanged fails t unless x still holds want.
func unchanged(t *testing.T, what string, x *tensor.Tensor, want []float64) {
	t.Helper()
	if got := x.Float64s(); !slices.Equal(got, want) {
		t.Errorf("%s: a refused call wrote %v, want %v left as it was", what, got, want)
	}
}

func TestScalarOutOfRangeRefused(t *testing.T) {
	const int8Msg = "value cannot be converted to type int8_t without overflow"
	i8 := func() *tensor.Tensor { return tensor.FromSlice([]int8{1, 2, 3}) }
	f32 := tensor.FromSlice([]float32{1, 2, 3})
	for _, c := range []struct {
		what, msg string
		f         func()
	}{
		// the reproductions of the issue
		{"clamp min", int8Msg, func() { i8().Clamp(tensor.Scalar(1000), nil) }},
		{"clamp max", int8Msg, func() { i8().Clamp(nil, tensor.Scalar(1000)) }},
		{"clamp both", int8Msg, func() { i8().Clamp(tensor.Scalar(-1000), tensor.Scalar(0)) }},
		{"full", int8Msg, func() { tensor.Full(tensor.Scalar(300), tensor.Int8, 2) }},
		{"fill", int8Msg, func() { i8().Fill(tensor.Scalar(300)) }},
		{"fill with a tensor", int8Msg, func() { i8().Fill(tensor.ZeroDim(int64(300))) }},
		{"add alpha", int8Msg, func() { i8().Add(i8(), tensor.Scalar(1000)) }},
		{"add alpha with a Go number", int8Msg, func() { i8().Add(tensor.Scalar(5), tensor.Scalar(1000)) }},
		{"addcmul value", int8Msg, func() { i8().Addcmul(i8(), i8(), tensor.Scalar(1000)) }},
		{"addcmul NaN value", int8Msg, func() { i8().Addcmul(i8(), i8(), tensor.Scalar(math.NaN())) }},
		{"full NaN", "value cannot be converted to type int without overflow", func() { tensor.Full(tensor.Scalar(math.NaN()), tensor.Int32, 2) }},
		{"full Inf", "value cannot be converted to type int64_t without overflow", func() { tensor.Full(tensor.Scalar(math.Inf(1)), tensor.Int64, 2) }},
		// and every other op that reads a Go number in a dtype
		{"where y", int8Msg, func() { tensor.Where(tensor.FromSlice([]bool{true, false, true}), i8(), tensor.Scalar(1000)) }},
		{"where x", "type uint8_t", func() {
			tensor.Where(tensor.FromSlice([]bool{true, false, true}), tensor.Scalar(300), tensor.FromSlice([]uint8{1, 2, 3}))
		}},
		{"pow exponent", int8Msg, func() { i8().Pow(tensor.Scalar(1000)) }},
		{"pow float16 exponent", "type at::Half", func() { f32.To(tensor.Float16).Pow(tensor.Scalar(1e6)) }},
		{"lerp weight", "type float without", func() { f32.Lerp(f32, tensor.Scalar(1e39)) }},
		{"lerp bfloat16 weight in float32", "type float without", func() { f32.To(tensor.BFloat16).Lerp(f32.To(tensor.BFloat16), tensor.Scalar(1e39)) }},
		{"logit eps", "type at::BFloat16", func() { f32.To(tensor.BFloat16).Logit(1e39) }},
		{"float16 fill", "type at::Half", func() { tensor.Full(tensor.Scalar(65504.5), tensor.Float16, 1) }},
		{"float32 fill", "type float without", func() { tensor.Full(tensor.Scalar(1e39), tensor.Float32, 1) }},
		{"uint8 below -255", "type uint8_t", func() { tensor.Full(tensor.Scalar(-256), tensor.Uint8, 1) }},
		{"uint8 negative float", "type uint8_t", func() { tensor.Full(tensor.Scalar(-0.5), tensor.Uint8, 1) }},
		{"int8 127.5", int8Msg, func() { tensor.Full(tensor.Scalar(127.5), tensor.Int8, 1) }},
		{"sub alpha -128", int8Msg, func() { i8().Sub(i8(), tensor.Scalar(-128)) }},
		{"set", int8Msg, func() { i8().Set(tensor.Scalar(1000), 0) }},
		{"addmm alpha", int8Msg, func() {
			m := tensor.FromSlice([]int8{1, 2, 0, 1}, 2, 2)
			tensor.Addmm(m, m, m, nil, tensor.Scalar(1000))
		}},
		{"linspace end", int8Msg, func() { tensor.Linspace(0, 300, 3, tensor.Int8) }},
		{"linspace start", "type at::Half", func() { tensor.Linspace(70000, 0, 3, tensor.Float16) }},
		{"linspace NaN", "type int without", func() { tensor.Linspace(math.NaN(), 5, 3, tensor.Int32) }},
		{"linspace -1.5", "type uint8_t", func() { tensor.Linspace(-1.5, 5, 3, tensor.Uint8) }},
		{"baddbmm beta", "type at::BFloat16", func() {
			m := tensor.Ones(tensor.BFloat16, 1, 2, 2)
			tensor.Baddbmm(m, m, m, tensor.Scalar(1e39), nil)
		}},
	} {
		wantError(t, c.what, tensor.ValueError, c.msg, c.f)
	}
	wantError(t, "bool alpha", tensor.DTypeError, "Boolean alpha only supported for Boolean results.", func() { i8().Add(i8(), tensor.Scalar(true)) })
	// sub refuses a bool operand, a Go number true included, whatever the result dtype
	const subBool = "Subtraction, the `-` operator, with a bool tensor is not supported."
	wantError(t, "int8 - true", tensor.DTypeError, subBool, func() { i8().Sub(tensor.Scalar(true)) })
	wantError(t, "bool - 0.5", tensor.DTypeError, subBool, func() { tensor.FromSlice([]bool{true}).Sub(tensor.Scalar(0.5)) })
	wantError(t, "true - int8", tensor.DTypeError, subBool, func() { tensor.Sub(tensor.Scalar(true), i8()) })
	wantError(t, "true - bool", tensor.DTypeError, "with two bool tensors is not supported", func() { tensor.FromSlice([]bool{true}).Sub(tensor.Scalar(true)) })

	// refused before anything is written
	x := i8()
	wantError(t, "fill in place", tensor.ValueError, int8Msg, func() { x.Fill(tensor.Scalar(-129)) })
	wantError(t, "clamp in place", tensor.ValueError, int8Msg, func() { x.ClampInPlace(tensor.Scalar(1000), nil) })
	wantError(t, "add in place", tensor.ValueError, int8Msg, func() { x.AddInPlace(i8(), tensor.Scalar(1000)) })
	out := tensor.FromSlice([]int8{7, 7, 7})
	wantError(t, "clamp out=", tensor.ValueError, int8Msg, func() { tensor.ClampTo(out, i8(), tensor.Scalar(1000), nil) })
	unchanged(t, "int8 tensor", x, []float64{1, 2, 3})
	unchanged(t, "out=", out, []float64{7, 7, 7})
	e := tensor.Empty(tensor.Int8, 0)
	wantError(t, "fill of no elements", tensor.ValueError, int8Msg, func() { e.Fill(tensor.Scalar(300)) })
}

func TestScalarInRangeOrWrapping(t *testing.T) {
	i8 := func(xs ...int8) *tensor.Tensor { return tensor.FromSlice(xs) }
	u8 := tensor.FromSlice([]uint8{1})
	for _, c := range []struct {
		what string
		got  *tensor.Tensor
		want []float64
		dt   tensor.DType
	}{
		// operands wrap, as tensors cast: int8 1000 is -24, uint8 -1 is 255
		{"int8 + 1000", i8(1).Add(tensor.Scalar(1000)), []float64{-23}, tensor.Int8},
		{"int8 < 1000", i8(1).Lt(tensor.Scalar(1000)), []float64{0}, tensor.Bool},
		{"int8 == 1000", i8(-24).Eq(tensor.Scalar(1000)), []float64{1}, tensor.Bool},
		{"uint8 + -1", u8.Add(tensor.Scalar(-1)), []float64{0}, tensor.Uint8},
		{"uint8 - 300", u8.Sub(tensor.Scalar(300)), []float64{213}, tensor.Uint8},
		{"float16 + 1e6", tensor.Ones(tensor.Float16, 1).Add(tensor.Scalar(1e6)), []float64{math.Inf(1)}, tensor.Float16},
		{"1000 ^ int8", tensor.Pow(tensor.Scalar(1000), i8(1)), []float64{-24}, tensor.Int8},
		{"int8 // 1000", i8(40).FloorDivide(tensor.Scalar(1000)), []float64{-2}, tensor.Int8},
		{"clamp by a tensor", i8(1).Clamp(tensor.ZeroDim(int64(1000)), nil), []float64{1}, tensor.Int8},
		{"set a tensor", i8(1, 2).Set(tensor.ZeroDim(int64(1000)), 0), []float64{-24, 2}, tensor.Int8},
		// numbers that fit, at the edges of checked_convert's ranges
		{"uint8 fill -1", tensor.Full(tensor.Scalar(-1), tensor.Uint8, 1), []float64{255}, tensor.Uint8},
		{"uint8 fill -255", tensor.Full(tensor.Scalar(-255), tensor.Uint8, 1), []float64{1}, tensor.Uint8},
		{"uint8 clamp -1", u8.Clamp(tensor.Scalar(-1), nil), []float64{255}, tensor.Uint8},
		{"int8 fill -128", tensor.Full(tensor.Scalar(-128.0), tensor.Int8, 1), []float64{-128}, tensor.Int8},
		{"float16 fill 65504", tensor.Full(tensor.Scalar(65504.0), tensor.Float16, 1), []float64{65504}, tensor.Float16},
		{"float16 fill NaN", tensor.Full(tensor.Scalar(math.NaN()), tensor.Float16, 1), []float64{math.NaN()}, tensor.Float16},
		{"float16 fill -Inf", tensor.Full(tensor.Scalar(math.Inf(-1)), tensor.Float16, 1), []float64{math.Inf(-1)}, tensor.Float16},
		{"linspace one step", tensor.Linspace(0, 300, 1, tensor.Int8), []float64{0}, tensor.Int8},
		{"linspace no step", tensor.Linspace(300, 300, 0, tensor.Int8), []float64{}, tensor.Int8},
		{"uint8 linspace from -1, that is 255", tensor.Linspace(-1, 3, 3, tensor.Uint8), []float64{255, 129, 3}, tensor.Uint8},
		{"bool fill 2", tensor.Full(tensor.Scalar(2), tensor.Bool, 1), []float64{1}, tensor.Bool},
		{"bool fill NaN", tensor.Full(tensor.Scalar(math.NaN()), tensor.Bool, 1), []float64{1}, tensor.Bool},
		{"int8 fill true", tensor.Full(tensor.Scalar(true), tensor.Int8, 1), []float64{1}, tensor.Int8},
		{"sub alpha 128", i8(1).Sub(i8(1), tensor.Scalar(128)), []float64{-127}, tensor.Int8},
		{"add alpha -1 on uint8", u8.Add(u8, tensor.Scalar(-1)), []float64{0}, tensor.Uint8},
		{"mixed dtypes: alpha in int16", i8(1).Add(tensor.FromSlice([]int16{1}), tensor.Scalar(1000)), []float64{1001}, tensor.Int16},
		{"addcmul value truncates", i8(1).Addcmul(i8(1), i8(1), tensor.Scalar(100.7)), []float64{101}, tensor.Int8},
		// a float number promotes an integer tensor: it is read as float32
		{"clamp 1000.5", i8(1).Clamp(tensor.Scalar(1000.5), nil), []float64{1000.5}, tensor.Float32},
		{"clamp NaN bound", i8(1).Clamp(tensor.Scalar(math.NaN()), nil), []float64{1}, tensor.Float32},
		{"where 1000.0", tensor.Where(tensor.FromSlice([]bool{false}), i8(1), tensor.Scalar(1000.0)), []float64{1000}, tensor.Float32},
		{"where NaN", tensor.Where(tensor.FromSlice([]bool{true}), i8(1), tensor.Scalar(math.NaN())), []float64{1}, tensor.Float32},
		{"where on bool promotes to int64", tensor.Where(tensor.FromSlice([]bool{false}), tensor.FromSlice([]bool{true}), tensor.Scalar(2)), []float64{2}, tensor.Int64},
		// logit reads eps as an element of its dtype and computes 1 - eps
		// there: in bfloat16 that is 1, so 1 stays infinite
		{"bfloat16 logit, eps 0.001", tensor.FromSlice([]float32{1, 0.998, 0.5, 0.0005}).To(tensor.BFloat16).Logit(0.001),
			[]float64{math.Inf(1), 5.53125, 0, -6.90625}, tensor.BFloat16},
		{"float32 pow 1e39", tensor.FromSlice([]float32{2}).Pow(tensor.Scalar(1e39)), []float64{math.Inf(1)}, tensor.Float32},
	} {
		if c.got.DType() != c.dt || !sameValues(c.got.Float64s(), c.want) {
			t.Errorf("%s: got %v (%s), want %v (%s)", c.what, c.got, c.got.DType(), c.want, c.dt)
		}
	}
}

// sameValues compares exactly, NaN equal to NaN.
func sameValues(got, want []float64) bool {
	return slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })
}
