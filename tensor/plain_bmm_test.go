package tensor_test

import (
	"math"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// plainValues returns n inputs of a plain-product case
// (tools/confgen/plain_bmm.py's vals): spread values, big at every 11th
// element and -big/2 at every 13th unless big is 0.
func plainValues(n int, big float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		x := float64((7919*i+13)%1009-504) / 64 * 1.1
		switch {
		case big != 0 && i%11 == 2:
			x = big
		case big != 0 && i%13 == 5:
			x = -big / 2
		}
		v[i] = x
	}
	return v
}

// TestPlainBmm: small bmm, baddbmm, batched matmul and einsum products
// (K·M·N < 400) are PyTorch 1.13's plain loop (kernel.Gemm's Plain), bit
// for bit: every product rounded, so that one that overflows is ±Inf,
// and alpha·a·b added to beta·c in the order of k. The expectations are
// torch's (tools/confgen/plain_bmm.py).
func TestPlainBmm(t *testing.T) {
	for _, c := range []struct {
		name        string
		dt          DType
		op          string
		nb, m, k, n int
		beta, alpha float64
		extremes    bool
		want        []uint64
	}{
		{"bmm with overflowing products", Float64, "bmm", 2, 3, 4, 2, 0, 1, true, []uint64{0xfff8000000000000, 0xffa8f71fc7fbf775, 0xfff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x401e74551eb851f2, 0xfff0000000000000, 0xfff8000000000000, 0x7fa8f71fc7fbf770, 0xfff0000000000000, 0xfff0000000000000, 0x7ff0000000000000}},
		{"bmm of float32", Float32, "bmm", 2, 4, 3, 3, 0, 1, false, []uint64{0x42289088, 0xc27b1164, 0xc26b8516, 0xbf30e300, 0x41694ed0, 0x3feb0128, 0x423b2aca, 0xc291cda0, 0xc262b3d6, 0x407d6b5f, 0x408e4eae, 0x40814a57, 0x41f5d115, 0x415b0022, 0xc1e580c1, 0x41314778, 0x41b818e7, 0xc18c2044, 0x4217b9e8, 0x4204ec87, 0xc24c3742, 0x41924679, 0x422a38f2, 0xc21f8703}},
		{"baddbmm", Float32, "baddbmm", 2, 3, 5, 2, 0.5, 2.7, false, []uint64{0x431c1377, 0x43240cbc, 0x424e2814, 0x42a64628, 0x428cd900, 0x40946fb0, 0xc22e7c42, 0x431018d6, 0x42d806bb, 0x424f8276, 0xc3640d78, 0x4216e359}},
		{"baddbmm of float64", Float64, "baddbmm", 1, 4, 6, 3, 0.3, -1.7, false, []uint64{0xc050a529f3b645a2, 0x4060cf63bef9db24, 0x404b06c928f5c290, 0xc05588996b851eba, 0x405d73e67df3b647, 0x4055e9ca6147ae15, 0x40577d579999999c, 0xc06075fe774bc6a9, 0xc04106189374bc6a, 0x4052484e883126e9, 0xc0628b6ef74bc6a8, 0xbfdca67ced9167f0}},
		{"baddbmm with overflowing products", Float32, "baddbmm", 1, 3, 4, 3, 1, 1, true, []uint64{0xff800000, 0xff800000, 0x7f64de67, 0xffc00000, 0xff800000, 0x7f800000, 0xff800000, 0x408e67d8, 0x419636be}},
		{"batched matmul", Float64, "matmul", 3, 2, 5, 2, 0, 1, false, []uint64{0x4002b3f851eb8528, 0xc05a09bd1eb851ed, 0xc053ccc8d70a3d72, 0x4049ef4ecccccccd, 0x403a38c70a3d70a5, 0x3fffeec28f5c28e1, 0x402c3d251eb851ee, 0xbfe23c2e147ae136, 0x4043f4c570a3d70c, 0x4033429947ae147b, 0xc05511d6f5c28f5c, 0x402c9723851eb854}},
		{"einsum", Float32, "einsum", 2, 3, 6, 4, 0, 1, true, []uint64{0xff800000, 0xffc00000, 0xffc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x426d6d06, 0xffc00000, 0x7f800000, 0xffc00000, 0x7f800000, 0x7f800000, 0xfe49b6ff, 0xffc00000, 0xffc00000, 0xff800000, 0x7ec9b6ff, 0x7f800000, 0xffc00000, 0x7f800000, 0x7f800000, 0x7f800000, 0xffc00000, 0xff800000}},
	} {
		big := 0.0
		switch {
		case c.extremes && c.dt == Float32:
			big = 3e38
		case c.extremes:
			big = 1.7e308
		}
		a := FromSlice(plainValues(c.nb*c.m*c.k, big), c.nb, c.m, c.k).To(c.dt)
		bv := plainValues(c.nb*c.k*c.n, big)
		for i, j := 0, len(bv)-1; i < j; i, j = i+1, j-1 {
			bv[i], bv[j] = bv[j], bv[i]
		}
		b := FromSlice(bv, c.nb, c.k, c.n).To(c.dt)
		cv := make([]float64, c.nb*c.m*c.n)
		for i := range cv {
			cv[i] = float64((31*i)%17-8) / 4
		}
		var y *Tensor
		switch c.op {
		case "bmm":
			y = Bmm(a, b)
		case "baddbmm":
			y = Baddbmm(FromSlice(cv, c.nb, c.m, c.n).To(c.dt), a, b, Scalar(c.beta), Scalar(c.alpha))
		case "matmul":
			y = Matmul(a, b)
		case "einsum":
			y = Einsum("bij,bjk->bik", a, b)
		}
		got := y.Contiguous().Float64s()
		for i, g := range got {
			gb := math.Float64bits(g)
			if c.dt == Float32 {
				gb = uint64(math.Float32bits(float32(g)))
			}
			if gb != c.want[i] {
				t.Errorf("%s: element %d has bits %#x, want %#x", c.name, i, gb, c.want[i])
			}
		}
	}
}
