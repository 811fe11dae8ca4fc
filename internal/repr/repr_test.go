package repr

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// The expected strings below were printed by PyTorch 1.13 (repr of the
// equivalent CPU tensor); they are not to be edited by hand.

var (
	nan     = math.NaN()
	inf     = math.Inf(1)
	negZero = math.Copysign(0, -1)
)

// mk returns a contiguous view of the given dtype and shape holding vals,
// each converted as PyTorch converts a Python number (bool: nonzero is True).
func mk(dt dtype.DType, shape []int, vals ...float64) *raw.View {
	v := raw.New(dt, shape)
	if len(vals) != v.NumEl() {
		panic("mk: wrong number of values")
	}
	for i, x := range vals {
		switch dt {
		case dtype.Bool:
			device.Slice[bool](v.Storage, i, 1)[0] = x != 0
		case dtype.Uint8:
			device.Slice[uint8](v.Storage, i, 1)[0] = uint8(x)
		case dtype.Int8:
			device.Slice[int8](v.Storage, i, 1)[0] = int8(x)
		case dtype.Int16:
			device.Slice[int16](v.Storage, 2*i, 1)[0] = int16(x)
		case dtype.Int32:
			device.Slice[int32](v.Storage, 4*i, 1)[0] = int32(x)
		case dtype.Int64:
			device.Slice[int64](v.Storage, 8*i, 1)[0] = int64(x)
		case dtype.Float16:
			device.Slice[dtype.Half](v.Storage, 2*i, 1)[0] = dtype.HalfFromFloat32(float32(x))
		case dtype.BFloat16:
			device.Slice[dtype.BF16](v.Storage, 2*i, 1)[0] = dtype.BF16FromFloat32(float32(x))
		case dtype.Float32:
			device.Slice[float32](v.Storage, 4*i, 1)[0] = float32(x)
		case dtype.Float64:
			device.Slice[float64](v.Storage, 8*i, 1)[0] = x
		}
	}
	return v
}

// arange returns a contiguous view of the given shape holding i·scale for
// i in [0, n), computed in float64 and converted to dt.
func arange(dt dtype.DType, n int, scale float64, shape ...int) *raw.View {
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i) * scale
	}
	return mk(dt, shape, vals...)
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		name string
		v    *raw.View
		want string
	}{
		{"float32 integer-valued", mk(dtype.Float32, []int{2, 2}, 1, 2, 3, 4), `tensor([[1., 2.],
        [3., 4.]])`},
		{"float32 fixed", mk(dtype.Float32, []int{4}, 1.5, -2.25, 3.125, 0), `tensor([ 1.5000, -2.2500,  3.1250,  0.0000])`},
		{"float32 mixed magnitudes", mk(dtype.Float32, []int{3}, 1e-5, 1, 123.456), `tensor([1.0000e-05, 1.0000e+00, 1.2346e+02])`},
		{"float32 integer-valued scientific", mk(dtype.Float32, []int{3}, 1e10, 1, -3), `tensor([ 1.0000e+10,  1.0000e+00, -3.0000e+00])`},
		{"float32 nan inf", mk(dtype.Float32, []int{6}, 1.5, nan, inf, -inf, 0, negZero), `tensor([1.5000,    nan,    inf,   -inf, 0.0000, -0.0000])`},
		{"float32 integer-valued nan inf", mk(dtype.Float32, []int{4}, 1, nan, -inf, 100), `tensor([  1.,  nan, -inf, 100.])`},
		{"float32 no finite nonzero", mk(dtype.Float32, []int{3}, 0, nan, negZero), `tensor([0., nan, -0.])`},
		{"float64", mk(dtype.Float64, []int{3}, 0.1, 0.2, 1.0/3), `tensor([0.1000, 0.2000, 0.3333], dtype=torch.float64)`},
		{"float16", mk(dtype.Float16, []int{3}, 0.1, 65504, -2), `tensor([ 9.9976e-02,  6.5504e+04, -2.0000e+00], dtype=torch.float16)`},
		{"bfloat16", mk(dtype.BFloat16, []int{2, 2}, 0.1, 3.140625, -1e10, 0), `tensor([[ 1.0010e-01,  3.1406e+00],
        [-9.9992e+09,  0.0000e+00]], dtype=torch.bfloat16)`},
		{"int64", mk(dtype.Int64, []int{2, 2}, 0, -5, 123456, 7), `tensor([[     0,     -5],
        [123456,      7]])`},
		{"int32", mk(dtype.Int32, []int{3}, -2147483648, 0, 42), `tensor([-2147483648,           0,          42], dtype=torch.int32)`},
		{"int16", mk(dtype.Int16, []int{3}, -300, 2, 32767), `tensor([ -300,     2, 32767], dtype=torch.int16)`},
		{"int8", mk(dtype.Int8, []int{2, 2}, -128, 1, 0, 127), `tensor([[-128,    1],
        [   0,  127]], dtype=torch.int8)`},
		{"uint8", mk(dtype.Uint8, []int{3}, 0, 255, 7), `tensor([  0, 255,   7], dtype=torch.uint8)`},
		{"bool", mk(dtype.Bool, []int{3}, 1, 0, 1), `tensor([ True, False,  True])`},
		{"0-dim float32", mk(dtype.Float32, nil, 3), `tensor(3.)`},
		{"0-dim float32 fraction", mk(dtype.Float32, nil, 0.5), `tensor(0.5000)`},
		{"0-dim float64 nan", mk(dtype.Float64, nil, nan), `tensor(nan, dtype=torch.float64)`},
		{"0-dim int32", mk(dtype.Int32, nil, 7), `tensor(7, dtype=torch.int32)`},
		{"0-dim bool", mk(dtype.Bool, nil, 0), `tensor(False)`},
		{"empty float32", mk(dtype.Float32, []int{0}), `tensor([])`},
		{"empty 2-D float32", mk(dtype.Float32, []int{0, 3}), `tensor([], size=(0, 3))`},
		{"empty int32", mk(dtype.Int32, []int{0}), `tensor([], dtype=torch.int32)`},
		{"empty int64", mk(dtype.Int64, []int{2, 0}), `tensor([], size=(2, 0), dtype=torch.int64)`},
		{"empty bool", mk(dtype.Bool, []int{2, 0, 3}), `tensor([], size=(2, 0, 3), dtype=torch.bool)`},
		{"wrapped row", arange(dtype.Float32, 30, 1.0/3, 30), `tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,
        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,
        6.0000, 6.3333, 6.6667, 7.0000, 7.3333, 7.6667, 8.0000, 8.3333, 8.6667,
        9.0000, 9.3333, 9.6667])`},
		{"wrapped rows", arange(dtype.Float64, 24, 1.0/7, 2, 12), `tensor([[0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,
         1.2857, 1.4286, 1.5714],
        [1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286, 2.5714, 2.7143, 2.8571,
         3.0000, 3.1429, 3.2857]], dtype=torch.float64)`},
		{"dtype on its own line", arange(dtype.Float64, 9, 1.0/3, 9), `tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],
       dtype=torch.float64)`},
		{"summarised 1-D", arange(dtype.Float32, 2000, 1, 2000), `tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,
        1.9990e+03])`},
		{"summarised 2-D", arange(dtype.Int64, 1200, 1, 30, 40), `tensor([[   0,    1,    2,  ...,   37,   38,   39],
        [  40,   41,   42,  ...,   77,   78,   79],
        [  80,   81,   82,  ...,  117,  118,  119],
        ...,
        [1080, 1081, 1082,  ..., 1117, 1118, 1119],
        [1120, 1121, 1122,  ..., 1157, 1158, 1159],
        [1160, 1161, 1162,  ..., 1197, 1198, 1199]])`},
		{"summarised 3-D", arange(dtype.Float32, 1050, 1.0/7, 7, 3, 50), `tensor([[[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 6.7143e+00,
          6.8571e+00, 7.0000e+00],
         [7.1429e+00, 7.2857e+00, 7.4286e+00,  ..., 1.3857e+01,
          1.4000e+01, 1.4143e+01],
         [1.4286e+01, 1.4429e+01, 1.4571e+01,  ..., 2.1000e+01,
          2.1143e+01, 2.1286e+01]],

        [[2.1429e+01, 2.1571e+01, 2.1714e+01,  ..., 2.8143e+01,
          2.8286e+01, 2.8429e+01],
         [2.8571e+01, 2.8714e+01, 2.8857e+01,  ..., 3.5286e+01,
          3.5429e+01, 3.5571e+01],
         [3.5714e+01, 3.5857e+01, 3.6000e+01,  ..., 4.2429e+01,
          4.2571e+01, 4.2714e+01]],

        [[4.2857e+01, 4.3000e+01, 4.3143e+01,  ..., 4.9571e+01,
          4.9714e+01, 4.9857e+01],
         [5.0000e+01, 5.0143e+01, 5.0286e+01,  ..., 5.6714e+01,
          5.6857e+01, 5.7000e+01],
         [5.7143e+01, 5.7286e+01, 5.7429e+01,  ..., 6.3857e+01,
          6.4000e+01, 6.4143e+01]],

        ...,

        [[8.5714e+01, 8.5857e+01, 8.6000e+01,  ..., 9.2429e+01,
          9.2571e+01, 9.2714e+01],
         [9.2857e+01, 9.3000e+01, 9.3143e+01,  ..., 9.9571e+01,
          9.9714e+01, 9.9857e+01],
         [1.0000e+02, 1.0014e+02, 1.0029e+02,  ..., 1.0671e+02,
          1.0686e+02, 1.0700e+02]],

        [[1.0714e+02, 1.0729e+02, 1.0743e+02,  ..., 1.1386e+02,
          1.1400e+02, 1.1414e+02],
         [1.1429e+02, 1.1443e+02, 1.1457e+02,  ..., 1.2100e+02,
          1.2114e+02, 1.2129e+02],
         [1.2143e+02, 1.2157e+02, 1.2171e+02,  ..., 1.2814e+02,
          1.2829e+02, 1.2843e+02]],

        [[1.2857e+02, 1.2871e+02, 1.2886e+02,  ..., 1.3529e+02,
          1.3543e+02, 1.3557e+02],
         [1.3571e+02, 1.3586e+02, 1.3600e+02,  ..., 1.4243e+02,
          1.4257e+02, 1.4271e+02],
         [1.4286e+02, 1.4300e+02, 1.4314e+02,  ..., 1.4957e+02,
          1.4971e+02, 1.4986e+02]]])`},
		{"summarised 2-D wide rows", arange(dtype.Float16, 1010, -0.5, 2, 505), `tensor([[-0.0000e+00, -5.0000e-01, -1.0000e+00,  ..., -2.5100e+02,
         -2.5150e+02, -2.5200e+02],
        [-2.5250e+02, -2.5300e+02, -2.5350e+02,  ..., -5.0350e+02,
         -5.0400e+02, -5.0450e+02]], dtype=torch.float16)`},
		{"4-D", arange(dtype.Int8, 24, 1, 2, 2, 3, 2), `tensor([[[[ 0,  1],
          [ 2,  3],
          [ 4,  5]],

         [[ 6,  7],
          [ 8,  9],
          [10, 11]]],


        [[[12, 13],
          [14, 15],
          [16, 17]],

         [[18, 19],
          [20, 21],
          [22, 23]]]], dtype=torch.int8)`},
		{"permuted slice with step", arange(dtype.Float32, 24, 1, 24).WithLayout([]int{3, 2, 2}, []int{1, 12, 8}, 1), `tensor([[[ 1.,  9.],
         [13., 21.]],

        [[ 2., 10.],
         [14., 22.]],

        [[ 3., 11.],
         [15., 23.]]])`},
		{"broadcast", mk(dtype.Int32, []int{3}, 1, 2, 3).WithLayout([]int{2, 3}, []int{0, 1}, 0), `tensor([[1, 2, 3],
        [1, 2, 3]], dtype=torch.int32)`},
	} {
		if got := Format(c.v); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestFormatWith(t *testing.T) {
	for _, c := range []struct {
		name  string
		v     *raw.View
		extra []string
		want  string
	}{
		{"requires_grad", mk(dtype.Float32, []int{2}, 1, 2), []string{"requires_grad=True"},
			`tensor([1., 2.], requires_grad=True)`},
		{"grad_fn", mk(dtype.Float32, []int{2}, 2, 4), []string{"grad_fn=<MulBackward0>"},
			`tensor([2., 4.], grad_fn=<MulBackward0>)`},
		{"after dtype on the last line", arange(dtype.Float64, 10, 1.0/3, 10), []string{"requires_grad=True"},
			`tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,
        3.0000], dtype=torch.float64, requires_grad=True)`},
		{"dtype then a new line", arange(dtype.Float64, 6, 1.0/3, 6), []string{"requires_grad=True"},
			`tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667], dtype=torch.float64,
       requires_grad=True)`},
		{"both on a new line", arange(dtype.Float64, 9, 1.0/3, 9), []string{"requires_grad=True"},
			`tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],
       dtype=torch.float64, requires_grad=True)`},
	} {
		if got := FormatWith(c.v, c.extra...); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
