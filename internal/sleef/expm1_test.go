package sleef

import "testing"

// TestExpm1F32 checks Expm1F32 against PyTorch 1.13's torch.expm1 on
// float32 (Sleef_expm1f8_u10), bit for bit: 10 inputs where it is not
// e^x − 1 correctly rounded, then ±0, tiny x of both signs, both sides of
// the +Inf and −1 edges, −20, ±Inf, NaN, 1e-5 and 50.
func TestExpm1F32(t *testing.T) {
	sameBits(t, "Expm1F32", Expm1F32, [][2]uint32{ // x, torch.expm1(x), as float32 bits
		{0x3f7b5810, 0x3fd5ab4a},
		{0x408a6720, 0x429524f7},
		{0x3f86451b, 0x3fed686b},
		{0xbeda0d54, 0xbeb190b7},
		{0x409549b7, 0x42d26248},
		{0xc03e9102, 0xbf72f73f},
		{0x3f9be9cf, 0x40185cd5},
		{0x40949b42, 0x42cde8a7},
		{0x401b2846, 0x4124b711},
		{0xbeb907e4, 0xbe9b490a},
		{0x0, 0x0},
		{0x80000000, 0x80000000},
		{0xda24260, 0xda24260},
		{0x8da24260, 0x8da24260},
		{0x42b17217, 0x7f7fff84},
		{0x42b17220, 0x7f800000},
		{0xc1851581, 0xbf7fffff},
		{0xc1851eb8, 0xbf800000},
		{0xc1a00000, 0xbf800000},
		{0x7f800000, 0x7f800000},
		{0xff800000, 0xbf800000},
		{0x7fc00000, 0x7fc00000},
		{0x3727c5ac, 0x3727c5e3},
		{0x42480000, 0x638c881f},
	})
}
