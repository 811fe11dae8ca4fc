package sleef

import (
	"math"
	"testing"
)

// TestLogF32 checks LogF32 against PyTorch 1.13's torch.log on float32
// (Sleef_logf8_u10), bit for bit: the values below were computed by torch
// on inputs where SLEEF's result is not log x correctly rounded, and on
// the special and boundary inputs.
func TestLogF32(t *testing.T) {
	sameBits(t, "LogF32", LogF32, [][2]uint32{
		// x, torch.log(x), as float32 bits: 12 inputs where they are not log x
		// correctly rounded, then subnormals, zeros, infinities, NaN, -1 and
		// the edges of m's range
		{0x3eba1bee, 0xbf8188f0},
		{0x3e14f49e, 0xbff6c2ef},
		{0x3f522d35, 0xbe49f67f},
		{0x3f52dc78, 0xbe46a1fe},
		{0x3f683958, 0xbdc7a0fd},
		{0x401ecee0, 0x3f68a801},
		{0x3ec01eab, 0xbf7aeebf},
		{0x3e8e1fc6, 0xbfa40c40},
		{0x3f5906d2, 0xbe291f01},
		{0x3fb059c4, 0x3ea4113f},
		{0x3fbb7906, 0x3ec36180},
		{0x3f37a50e, 0xbeaa12bf},
		{0x1, 0xc2ce8ed0},
		{0x85d, 0xc2bf3845},
		{0x77c786, 0xc2aece4c},
		{0x0, 0xff800000},
		{0x80000000, 0xff800000},
		{0x7f800000, 0x7f800000},
		{0xff800000, 0x7fc00000},
		{0x7fc00000, 0x7fc00000},
		{0xbf800000, 0x7fc00000},
		{0x3f800000, 0x0},
		{0x3f400000, 0xbe934b11},
		{0x3fc00000, 0x3ecf991f},
		{0x3fbfffff, 0x3ecf991d},
		{0x3f3fffff, 0xbe934b13},
		{0x7f7fffff, 0x42b17218},
		{0x800000, 0xc2aeac50},
		{0x40000000, 0x3f317218},
	})
}

// TestLog2F32AndLog10F32 checks Log2F32 and Log10F32 against PyTorch
// 1.13's torch.log2 and torch.log10 on float32 (Sleef_log2f8_u10 and
// Sleef_log10f8_u10), bit for bit: 8 inputs each where they are not the
// logarithm correctly rounded, then subnormals, 0, -1, +Inf, NaN, powers
// of the base and the edges of m's range.
func TestLog2F32AndLog10F32(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(float32) float32
		vals [][2]uint32 // x, torch's result, as float32 bits
	}{
		{"Log2F32", Log2F32, [][2]uint32{
			{0x2a090b68, 0xc22b9b23},
			{0x123a2989, 0xc2b4eb4e},
			{0x40a6fe74, 0x40188dc1},
			{0x3f2e4d50, 0xbf0df74c},
			{0x4dbd4b62, 0x41e48413},
			{0x3fd4a302, 0x3f3b748c},
			{0x47a8a64e, 0x41832ede},
			{0x5aa78f6f, 0x42598ddc},
			{0x1, 0xc3150000},
			{0x85d, 0xc309ef99},
			{0x0, 0xff800000},
			{0xbf800000, 0x7fc00000},
			{0x7f800000, 0x7f800000},
			{0x7fc00000, 0x7fc00000},
			{0x3f800000, 0x0},
			{0x41000000, 0x40400000},
			{0x447a0000, 0x411f73da},
			{0x3fbfffff, 0x3f15c018},
			{0x3f3fffff, 0xbed47fd0},
		}},
		{"Log10F32", Log10F32, [][2]uint32{
			{0x2c3ff54a, 0xc13906db},
			{0x3e3525d4, 0xbf409491},
			{0x3f334f3e, 0xbe1e590c},
			{0x3d197359, 0xbfb693fe},
			{0x3f356391, 0xbe193864},
			{0x6ddcf3f6, 0x41df746d},
			{0x431e7979, 0x400ccc23},
			{0x48143516, 0x40a5cc25},
			{0x1, 0xc23369f4},
			{0x85d, 0xc2261767},
			{0x0, 0xff800000},
			{0xbf800000, 0x7fc00000},
			{0x7f800000, 0x7f800000},
			{0x7fc00000, 0x7fc00000},
			{0x3f800000, 0x0},
			{0x41000000, 0x3f6730e8},
			{0x447a0000, 0x40400000},
			{0x3fbfffff, 0x3e345142},
			{0x3f3fffff, 0xbdffdfe6},
		}},
	} {
		sameBits(t, c.name, c.f, c.vals)
	}
}

// TestLog1pF32 checks Log1pF32 against PyTorch 1.13's torch.log1p on
// float32 (Sleef_log1pf8_u10), bit for bit: 10 inputs in (−1, 1) where it
// is not log(1 + x) correctly rounded, then ±0, −1, below −1, tiny x of
// both signs, the largest x above −1, the 1e38 edge, +Inf and NaN.
func TestLog1pF32(t *testing.T) {
	sameBits(t, "Log1pF32", Log1pF32, [][2]uint32{ // x, torch.log1p(x), as float32 bits
		{0x3f25acec, 0x3eff849a},
		{0xbf218a52, 0xbf7f3bac},
		{0x3eb78c7c, 0x3e9cdd62},
		{0x3ece6be0, 0x3ead6e3d},
		{0x3f02a00e, 0x3ed31626},
		{0x3f236116, 0x3efcb8e6},
		{0xbe0e52c0, 0xbe193ce2},
		{0xbde8be50, 0xbdf71078},
		{0x3e910dac, 0x3e7f6d61},
		{0xbe2dfe50, 0xbe3eb27a},
		{0x0, 0x0},
		{0x80000000, 0x80000000},
		{0xbf800000, 0xff800000},
		{0xc0000000, 0xffffffff},
		{0xda24260, 0xda24260},
		{0x8da24260, 0x8da24260},
		{0xbf7fffff, 0xc1851592},
		{0x7e967699, 0x42aeff18},
		{0x7f167699, 0x7f800000},
		{0x7f800000, 0x7f800000},
		{0x7fc00000, 0x7fc00000},
		{0x1, 0x0},
	})
}

// sameBits checks f against PyTorch's results, given as pairs of float32
// bits (x, PyTorch's f(x)); a NaN matches any NaN.
func sameBits(t *testing.T, name string, f func(float32) float32, vals [][2]uint32) {
	t.Helper()
	for _, v := range vals {
		x := math.Float32frombits(v[0])
		if got := f(x); math.Float32bits(got) != v[1] && !(got != got && v[1]&0x7fffffff > 0x7f800000) {
			t.Errorf("%s(%g) = %g (%#x), want PyTorch's %#x", name, x, got, math.Float32bits(got), v[1])
		}
	}
}
