package tensor_test

// PyTorch 1.13's pow with a Go-number exponent or base: the exponents its
// kernels do not compute with pow (Note [Pow's special exponents] in
// package op), its out= rules, and pow_backward. Every expected value
// here was computed with torch 1.13 (/usr/bin/python3) and written down
// as the bits torch returned; none comes from goten.

import (
	"math"
	"testing"

	"github.com/goten-ml/goten/dtype"
	. "github.com/goten-ml/goten/tensor"
)

type powWant struct {
	exp  any // float64 or int64: the Go number's kind
	bits []uint64
}

type powCase struct {
	dt   DType
	x    []uint64
	want []powWant
}

// powPinned: per dtype, edge inputs (±0, ±Inf, NaN, subnormals, the
// largest finite, values whose steps round differently from pow: float32
// inputs whose rsqrt, 1/sqrtf, differs from the once-rounded 1/√x, and
// bfloat16 inputs whose x·x·x and 1/(x·x), rounded at each step, differ
// from the once-rounded ones), and torch's pow(x, e) for each e, as bits.
// bfloat16's 2.004 and 3.01 round to 2 and 3, which its kernel then
// squares and cubes; 0.5001 rounds to 0.5 but is not sqrt. torch's
// results were taken on the inputs repeated 64 times, so that every
// element went through the vector body of its loop: its scalar tail
// computes bfloat16's rsqrt as 1/bf16(√x), rounding the root first, where
// the vector body (and goten) rounds 1/√x computed in float32 once.
var powPinned = []powCase{
	{Float32, []uint64{0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x40000000, 0xc0000000, 0x40400000, 0xbf000000, 0x3dcccccd, 0x40e00000, 0x00000001, 0x80000001, 0x00800000, 0x7149f2ca, 0xf149f2ca, 0x7f7fc99e, 0x121b0698, 0x5706e684}, []powWant{
		{float64(0.5), []uint64{0x00000000, 0x80000000, 0x7f800000, 0xffc00000, 0x7fc00000, 0x3fb504f3, 0xffc00000, 0x3fddb3d7, 0xffc00000, 0x3ea1e89b, 0x402953fd, 0x1a3504f3, 0xffc00000, 0x20000000, 0x58635fa9, 0xffc00000, 0x5f7fe4ce, 0x28c73707, 0x4b39d5ab}},
		{float64(-0.5), []uint64{0x7f800000, 0xff800000, 0x00000000, 0xffc00000, 0x7fc00000, 0x3f3504f3, 0xffc00000, 0x3f13cd3a, 0xffc00000, 0x404a62c2, 0x3ec18490, 0x64b504f3, 0xffc00000, 0x5f000000, 0x26901d7d, 0xffc00000, 0x1f800d9a, 0x56247c53, 0x33b0542d}},
		{float64(-1.0), []uint64{0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x7fc00000, 0x3f000000, 0xbf000000, 0x3eaaaaab, 0xc0000000, 0x41200000, 0x3e124925, 0x7f800000, 0xff800000, 0x7e800000, 0x0da24260, 0x8da24260, 0x002006ce, 0x6cd35f0f, 0x27f2e7b1}},
		{float64(2.0), []uint64{0x00000000, 0x00000000, 0x7f800000, 0x7f800000, 0x7fc00000, 0x40800000, 0x40800000, 0x41100000, 0x3e800000, 0x3c23d70b, 0x42440000, 0x00000000, 0x00000000, 0x00000000, 0x7f800000, 0x7f800000, 0x7f800000, 0x00000000, 0x6e8e2c44}},
		{float64(3.0), []uint64{0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x41000000, 0xc1000000, 0x41d80000, 0xbe000000, 0x3a83126f, 0x43ab8000, 0x00000000, 0x80000000, 0x00000000, 0x7f800000, 0xff800000, 0x7f800000, 0x00000000, 0x7f800000}},
		{float64(-2.0), []uint64{0x7f800000, 0x7f800000, 0x00000000, 0x00000000, 0x7fc00000, 0x3e800000, 0x3e800000, 0x3de38e39, 0x40800000, 0x42c7ffff, 0x3ca72f05, 0x7f800000, 0x7f800000, 0x7f800000, 0x00000000, 0x00000000, 0x00000000, 0x7f800000, 0x10667adb}},
		{float64(0.0), []uint64{0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000}},
		{float64(1.0), []uint64{0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x40000000, 0xc0000000, 0x40400000, 0xbf000000, 0x3dcccccd, 0x40e00000, 0x00000001, 0x80000001, 0x00800000, 0x7149f2ca, 0xf149f2ca, 0x7f7fc99e, 0x121b0698, 0x5706e684}},
		{int64(2), []uint64{0x00000000, 0x00000000, 0x7f800000, 0x7f800000, 0x7fc00000, 0x40800000, 0x40800000, 0x41100000, 0x3e800000, 0x3c23d70b, 0x42440000, 0x00000000, 0x00000000, 0x00000000, 0x7f800000, 0x7f800000, 0x7f800000, 0x00000000, 0x6e8e2c44}},
		{int64(3), []uint64{0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x41000000, 0xc1000000, 0x41d80000, 0xbe000000, 0x3a83126f, 0x43ab8000, 0x00000000, 0x80000000, 0x00000000, 0x7f800000, 0xff800000, 0x7f800000, 0x00000000, 0x7f800000}},
		{int64(-1), []uint64{0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x7fc00000, 0x3f000000, 0xbf000000, 0x3eaaaaab, 0xc0000000, 0x41200000, 0x3e124925, 0x7f800000, 0xff800000, 0x7e800000, 0x0da24260, 0x8da24260, 0x002006ce, 0x6cd35f0f, 0x27f2e7b1}},
	}},
	{Float64, []uint64{0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x4000000000000000, 0xc000000000000000, 0x4008000000000000, 0xbfe0000000000000, 0x3fb999999999999a, 0x401c000000000000, 0x0000000000000001, 0x3696d601ad376ab9, 0xb696d601ad376ab9, 0x46293e5939a08cea, 0xc6293e5939a08cea, 0x6974e718d7d7625a, 0x3a4360d300000000, 0x42e0dcd080000000}, []powWant{
		{float64(0.5), []uint64{0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff8000000000000, 0x7ff8000000000000, 0x3ff6a09e667f3bcd, 0xfff8000000000000, 0x3ffbb67ae8584caa, 0xfff8000000000000, 0x3fd43d136248490f, 0x40052a7fa9d2f8ea, 0x1e60000000000000, 0x3b431d633deb8924, 0xfff8000000000000, 0x430c6bf526340000, 0xfff8000000000000, 0x54b249ad2594c37d, 0x3d18e6e0d161c685, 0x41673ab56b5d67f4}},
		{float64(-0.5), []uint64{0x7ff0000000000000, 0xfff0000000000000, 0x0000000000000000, 0xfff8000000000000, 0x7ff8000000000000, 0x3fe6a09e667f3bcc, 0xfff8000000000000, 0x3fe279a74590331d, 0xfff8000000000000, 0x40094c583ada5b52, 0x3fd83091e6a7f7e6, 0x6180000000000000, 0x449ac918bbfa5243, 0xfff8000000000000, 0x3cd203af9ee75616, 0xfff8000000000000, 0x2b2bff2ee48e0530, 0x42c48f8a7746d164, 0x3e760a85864ae432}},
		{float64(-1.0), []uint64{0x7ff0000000000000, 0xfff0000000000000, 0x0000000000000000, 0x8000000000000000, 0x7ff8000000000000, 0x3fe0000000000000, 0xbfe0000000000000, 0x3fd5555555555555, 0xc000000000000000, 0x4024000000000000, 0x3fc2492492492492, 0x7ff0000000000000, 0x49466bb7f0435c9f, 0xc9466bb7f0435c9f, 0x39b4484bfeebc29f, 0xb9b4484bfeebc29f, 0x16687e92154ef7ac, 0x459a6be1e9f36a58, 0x3cfe5cf61c901e2b}},
		{float64(2.0), []uint64{0x0000000000000000, 0x0000000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff8000000000000, 0x4010000000000000, 0x4010000000000000, 0x4022000000000000, 0x3fd0000000000000, 0x3f847ae147ae147c, 0x4048800000000000, 0x0000000000000000, 0x2d404bd984990e6f, 0x2d404bd984990e6f, 0x4c63e9e4e4c2f345, 0x4c63e9e4e4c2f345, 0x7ff0000000000000, 0x3497783f0ede9000, 0x45d1c588705d0400}},
		{float64(3.0), []uint64{0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x4020000000000000, 0xc020000000000000, 0x403b000000000000, 0xbfc0000000000000, 0x3f50624dd2f1a9fd, 0x4075700000000000, 0x0000000000000000, 0x23e7424348ca1c9c, 0xa3e7424348ca1c9c, 0x529f6b0f092959c9, 0xd29f6b0f092959c9, 0x7ff0000000000000, 0x2eec6cd1ddc11677, 0x48c2bacc1a7ffb33}},
		{float64(-2.0), []uint64{0x7ff0000000000000, 0x7ff0000000000000, 0x0000000000000000, 0x0000000000000000, 0x7ff8000000000000, 0x3fd0000000000000, 0x3fd0000000000000, 0x3fbc71c71c71c71c, 0x4010000000000000, 0x4058ffffffffffff, 0x3f94e5e0a72f0539, 0x7ff0000000000000, 0x529f6b0f092959c7, 0x529f6b0f092959c7, 0x3379b604aaaca625, 0x3379b604aaaca625, 0x0000000000000000, 0x4b45d0bad1330143, 0x3a0ccf5b84174c80}},
		{float64(0.0), []uint64{0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000}},
		{float64(1.0), []uint64{0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x4000000000000000, 0xc000000000000000, 0x4008000000000000, 0xbfe0000000000000, 0x3fb999999999999a, 0x401c000000000000, 0x0000000000000001, 0x3696d601ad376ab9, 0xb696d601ad376ab9, 0x46293e5939a08cea, 0xc6293e5939a08cea, 0x6974e718d7d7625a, 0x3a4360d300000000, 0x42e0dcd080000000}},
		{int64(2), []uint64{0x0000000000000000, 0x0000000000000000, 0x7ff0000000000000, 0x7ff0000000000000, 0x7ff8000000000000, 0x4010000000000000, 0x4010000000000000, 0x4022000000000000, 0x3fd0000000000000, 0x3f847ae147ae147c, 0x4048800000000000, 0x0000000000000000, 0x2d404bd984990e6f, 0x2d404bd984990e6f, 0x4c63e9e4e4c2f345, 0x4c63e9e4e4c2f345, 0x7ff0000000000000, 0x3497783f0ede9000, 0x45d1c588705d0400}},
		{int64(3), []uint64{0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x4020000000000000, 0xc020000000000000, 0x403b000000000000, 0xbfc0000000000000, 0x3f50624dd2f1a9fd, 0x4075700000000000, 0x0000000000000000, 0x23e7424348ca1c9c, 0xa3e7424348ca1c9c, 0x529f6b0f092959c9, 0xd29f6b0f092959c9, 0x7ff0000000000000, 0x2eec6cd1ddc11677, 0x48c2bacc1a7ffb33}},
		{int64(-1), []uint64{0x7ff0000000000000, 0xfff0000000000000, 0x0000000000000000, 0x8000000000000000, 0x7ff8000000000000, 0x3fe0000000000000, 0xbfe0000000000000, 0x3fd5555555555555, 0xc000000000000000, 0x4024000000000000, 0x3fc2492492492492, 0x7ff0000000000000, 0x49466bb7f0435c9f, 0xc9466bb7f0435c9f, 0x39b4484bfeebc29f, 0xb9b4484bfeebc29f, 0x16687e92154ef7ac, 0x459a6be1e9f36a58, 0x3cfe5cf61c901e2b}},
	}},
	{Float16, []uint64{0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x4000, 0xc000, 0x4200, 0xb800, 0x2e66, 0x4700, 0x0001, 0x8001, 0x7bff, 0xfbff, 0x5cb0}, []powWant{
		{float64(0.5), []uint64{0x0000, 0x0000, 0x7c00, 0x7c00, 0x7e00, 0x3da8, 0xfe00, 0x3eee, 0xfe00, 0x350f, 0x414b, 0x0c00, 0xfe00, 0x5bff, 0xfe00, 0x4c55}},
		{float64(-0.5), []uint64{0x7c00, 0x7c00, 0x0000, 0x0000, 0x7e00, 0x39a8, 0xfe00, 0x389e, 0xfe00, 0x4253, 0x360c, 0x6c00, 0xfe00, 0x1c00, 0xfe00, 0x2b64}},
		{float64(-1.0), []uint64{0x7c00, 0xfc00, 0x0000, 0x8000, 0x7e00, 0x3800, 0xb800, 0x3555, 0xc000, 0x4900, 0x3092, 0x7c00, 0xfc00, 0x0100, 0x8100, 0x1ad4}},
		{float64(2.0), []uint64{0x0000, 0x0000, 0x7c00, 0x7c00, 0x7e00, 0x4400, 0x4400, 0x4880, 0x3400, 0x211e, 0x5220, 0x0000, 0x0000, 0x7c00, 0x7c00, 0x7c00}},
		{float64(3.0), []uint64{0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x4800, 0xc800, 0x4ec0, 0xb000, 0x1418, 0x5d5c, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c00}},
		{float64(-2.0), []uint64{0x7c00, 0x7c00, 0x0000, 0x0000, 0x7e00, 0x3400, 0x3400, 0x2f1c, 0x4400, 0x5641, 0x2539, 0x7c00, 0x7c00, 0x0000, 0x0000, 0x00ba}},
		{float64(0.0), []uint64{0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00}},
		{float64(1.0), []uint64{0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x4000, 0xc000, 0x4200, 0xb800, 0x2e66, 0x4700, 0x0001, 0x8001, 0x7bff, 0xfbff, 0x5cb0}},
		{int64(2), []uint64{0x0000, 0x0000, 0x7c00, 0x7c00, 0x7e00, 0x4400, 0x4400, 0x4880, 0x3400, 0x211e, 0x5220, 0x0000, 0x0000, 0x7c00, 0x7c00, 0x7c00}},
		{int64(3), []uint64{0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x4800, 0xc800, 0x4ec0, 0xb000, 0x1418, 0x5d5c, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c00}},
		{int64(-1), []uint64{0x7c00, 0xfc00, 0x0000, 0x8000, 0x7e00, 0x3800, 0xb800, 0x3555, 0xc000, 0x4900, 0x3092, 0x7c00, 0xfc00, 0x0100, 0x8100, 0x1ad4}},
	}},
	{BFloat16, []uint64{0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x4000, 0xc000, 0x4040, 0xbf00, 0x3dcd, 0x40e0, 0x0001, 0x8001, 0x714a, 0xf14a, 0x7f62, 0x2ee2, 0x2ee8, 0x2691, 0x2692}, []powWant{
		{float64(0.5), []uint64{0x0000, 0x8000, 0x7f80, 0xffff, 0xffff, 0x3fb5, 0xffff, 0x3fde, 0xffff, 0x3ea2, 0x4029, 0x1e35, 0xffff, 0x5863, 0xffff, 0x5f71, 0x372a, 0x372c, 0x3308, 0x3309}},
		{float64(-0.5), []uint64{0x7f80, 0xff80, 0x0000, 0xffff, 0xffff, 0x3f35, 0xffff, 0x3f14, 0xffff, 0x404a, 0x3ec2, 0x60b5, 0xffff, 0x2690, 0xffff, 0x1f88, 0x47c1, 0x47be, 0x4bf1, 0x4bf0}},
		{float64(-1.0), []uint64{0x7f80, 0xff80, 0x0000, 0x8000, 0xffff, 0x3f00, 0xbf00, 0x3eab, 0xc000, 0x4120, 0x3e12, 0x7f80, 0xff80, 0x0da2, 0x8da2, 0x0024, 0x5011, 0x500d, 0x5862, 0x5860}},
		{float64(2.0), []uint64{0x0000, 0x0000, 0x7f80, 0x7f80, 0xffff, 0x4080, 0x4080, 0x4110, 0x3e80, 0x3c24, 0x4244, 0x0000, 0x0000, 0x7f80, 0x7f80, 0x7f80, 0x1e48, 0x1e52, 0x0da4, 0x0da7}},
		{float64(3.0), []uint64{0x0000, 0x8000, 0x7f80, 0xff80, 0xffff, 0x4100, 0xc100, 0x41d8, 0xbe00, 0x3a83, 0x43ac, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7f80, 0x0db1, 0x0dbe, 0x0000, 0x0000}},
		{float64(-2.0), []uint64{0x7f80, 0x7f80, 0x0000, 0x0000, 0xffff, 0x3e80, 0x3e80, 0x3de4, 0x4080, 0x42c8, 0x3ca7, 0x7f80, 0x7f80, 0x0000, 0x0000, 0x0000, 0x60a4, 0x609c, 0x7148, 0x7144}},
		{float64(0.0), []uint64{0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80}},
		{float64(1.0), []uint64{0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x4000, 0xc000, 0x4040, 0xbf00, 0x3dcd, 0x40e0, 0x0001, 0x8001, 0x714a, 0xf14a, 0x7f62, 0x2ee2, 0x2ee8, 0x2691, 0x2692}},
		{float64(2.004), []uint64{0x0000, 0x0000, 0x7f80, 0x7f80, 0xffff, 0x4080, 0x4080, 0x4110, 0x3e80, 0x3c24, 0x4244, 0x0000, 0x0000, 0x7f80, 0x7f80, 0x7f80, 0x1e48, 0x1e52, 0x0da4, 0x0da7}},
		{float64(0.5001), []uint64{0x0000, 0x0000, 0x7f80, 0x7f80, 0xffff, 0x3fb5, 0xffff, 0x3fde, 0xffff, 0x3ea2, 0x4029, 0x1e35, 0xffff, 0x5863, 0xffff, 0x5f71, 0x372a, 0x372c, 0x3308, 0x3309}},
		{float64(3.01), []uint64{0x0000, 0x0000, 0x7f80, 0x7f80, 0xffff, 0x4101, 0xffff, 0x41dc, 0xffff, 0x3a7e, 0x43b1, 0x0000, 0xffff, 0x7f80, 0xffff, 0x7f80, 0x0d76, 0x0d85, 0x0000, 0x0000}},
		{int64(2), []uint64{0x0000, 0x0000, 0x7f80, 0x7f80, 0xffff, 0x4080, 0x4080, 0x4110, 0x3e80, 0x3c24, 0x4244, 0x0000, 0x0000, 0x7f80, 0x7f80, 0x7f80, 0x1e48, 0x1e52, 0x0da4, 0x0da7}},
		{int64(3), []uint64{0x0000, 0x8000, 0x7f80, 0xff80, 0xffff, 0x4100, 0xc100, 0x41d8, 0xbe00, 0x3a83, 0x43ac, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7f80, 0x0db1, 0x0dbe, 0x0000, 0x0000}},
		{int64(-1), []uint64{0x7f80, 0xff80, 0x0000, 0x8000, 0xffff, 0x3f00, 0xbf00, 0x3eab, 0xc000, 0x4120, 0x3e12, 0x7f80, 0xff80, 0x0da2, 0x8da2, 0x0024, 0x5011, 0x500d, 0x5862, 0x5860}},
	}},
}

// bitsOf returns t's elements as their bits.
func bitsOf(t *Tensor) []uint64 {
	var out []uint64
	switch t.DType() {
	case Float32:
		for _, v := range ToSlice[float32](t) {
			out = append(out, uint64(math.Float32bits(v)))
		}
	case Float64:
		for _, v := range ToSlice[float64](t) {
			out = append(out, math.Float64bits(v))
		}
	case Float16:
		for _, v := range ToSlice[dtype.Half](t) {
			out = append(out, uint64(v))
		}
	case BFloat16:
		for _, v := range ToSlice[dtype.BF16](t) {
			out = append(out, uint64(v))
		}
	}
	return out
}

// fromBits returns a 1-D tensor of dtype dt holding the elements of bits.
func fromBits(dt DType, bits []uint64) *Tensor {
	switch dt {
	case Float32:
		s := make([]float32, len(bits))
		for i, b := range bits {
			s[i] = math.Float32frombits(uint32(b))
		}
		return FromSlice(s)
	case Float64:
		s := make([]float64, len(bits))
		for i, b := range bits {
			s[i] = math.Float64frombits(b)
		}
		return FromSlice(s)
	case Float16:
		s := make([]dtype.Half, len(bits))
		for i, b := range bits {
			s[i] = dtype.Half(b)
		}
		return FromSlice(s)
	}
	s := make([]dtype.BF16, len(bits))
	for i, b := range bits {
		s[i] = dtype.BF16(b)
	}
	return FromSlice(s)
}

// refWithinUlp allows the reference backend's float32 and bfloat16
// results one ulp: it computes floats in float64 (its package doc), so its
// float32 rsqrt is the once-rounded 1/√x where torch's rounds √x and then
// 1/√x, and it has no vector body, so its bfloat16 rsqrt rounds √x first
// everywhere as torch's scalar tail does (Note [Bfloat16 steps]).
func refWithinUlp(dt DType, got, want uint64) bool {
	return (dt == Float32 || dt == BFloat16) && (got == want+1 || got == want-1)
}

// repeated returns bits repeated n times.
func repeated(bits []uint64, n int) []uint64 {
	var r []uint64
	for range n {
		r = append(r, bits...)
	}
	return r
}

// expScalar returns e, a float64 or int64, as a Go-number operand.
func expScalar(e any) *Tensor {
	if f, ok := e.(float64); ok {
		return Scalar(f)
	}
	return Scalar(e.(int64))
}

// TestPowScalarExponentPinned checks pow(x, e), pow_ and pow with out= on
// the CPU and on the reference backend against torch's bits (any NaN for
// a NaN), over the inputs repeated 64 times as torch's were.
func TestPowScalarExponentPinned(t *testing.T) {
	for _, c := range powPinned {
		for _, w := range c.want {
			e := expScalar(w.exp)
			x := fromBits(c.dt, repeated(c.x, 64))
			ip := fromBits(c.dt, repeated(c.x, 64))
			ip.PowInPlace(e)
			out := PowTo(Empty(c.dt, 0), x, e) // resized
			for _, r := range []struct {
				how string
				got *Tensor
			}{{"pow", Pow(x, e)}, {"pow_", ip}, {"out=", out}, {"ref", onRef(Pow, x, e)}} {
				got := fromBits(c.dt, bitsOf(r.got)).Float64s()
				gb, want := bitsOf(r.got), fromBits(c.dt, w.bits).Float64s()
				xs := x.Float64s()
				for i := range want {
					if math.IsNaN(want[i]) && math.IsNaN(got[i]) {
						continue
					}
					if gb[i] != w.bits[i] && !(r.how == "ref" && w.exp == -0.5 && refWithinUlp(c.dt, gb[i], w.bits[i])) {
						t.Errorf("%s %v: pow(%v, %v) = %v (%#x), torch %v (%#x)", r.how, c.dt, xs[i], w.exp, got[i], gb[i], want[i], w.bits[i])
					}
				}
			}
		}
	}
}

// TestPowScalarRules pins the dtype and out= rules of pow with a Go
// number that PyTorch 1.13 follows (torch's results): integer powers wrap
// as products do, an integer tensor to a float exponent squares in
// float32, pow(Tensor, Scalar)'s out= and in-place result must have the
// result dtype exactly where pow(Tensor, Tensor)'s may be cast, and
// pow(1, Tensor) fills any out= with ones.
func TestPowScalarRules(t *testing.T) {
	f := func() *Tensor { return FromSlice([]float32{1.5, float32(math.Copysign(0, -1))}) }
	same := func(name string, got *Tensor, dt DType, want ...float64) {
		t.Helper()
		if got.DType() != dt {
			t.Errorf("%s: dtype %v, want %v", name, got.DType(), dt)
		}
		g := got.Float64s()
		for i := range want {
			if i >= len(g) || g[i] != want[i] {
				t.Errorf("%s = %v, want %v", name, g, want)
				return
			}
		}
	}
	same("int8 [100 -7]^2", Pow(FromSlice([]int8{100, -7}), Scalar(2)), Int8, 16, 49)
	same("int8 [100 -7]^3", Pow(FromSlice([]int8{100, -7}), Scalar(3)), Int8, 64, -87)
	same("uint8 [200 7]^3", Pow(FromSlice([]uint8{200, 7}), Scalar(3)), Uint8, 0, 87)
	same("int32 16777217^2.0", Pow(FromSlice([]int32{16777217}), Scalar(2.0)), Float32, 281474976710656)
	same("int32 4097^2.0", Pow(FromSlice([]int32{4097}), Scalar(2.0)), Float32, 16785408)
	same("int32 16777217^1.0", Pow(FromSlice([]int32{16777217}), Scalar(1.0)), Float32, 16777216)
	same("int32 16777217^0.5", Pow(FromSlice([]int32{16777217}), Scalar(0.5)), Float32, 4096)
	same("bool^0", Pow(FromSlice([]bool{true, false}), Scalar(0)), Int64, 1, 1)
	same("bool^1", Pow(FromSlice([]bool{true, false}), Scalar(1)), Int64, 1, 0)
	same("bool^2", Pow(FromSlice([]bool{true, false}), Scalar(2)), Int64, 1, 0)
	same("pow_(3)", FromSlice([]float32{2, 3}).PowInPlace(Scalar(3)), Float32, 8, 27)
	same("pow(x, x, out=float64)", PowTo(Empty(Float64, 2), f(), f()), Float64, 1.837117314338684, 1)
	same("pow(2, x, out=float64)", PowTo(Empty(Float64, 2), Scalar(2), f()), Float64, 2.8284270763397217, 1)
	same("pow(1, x, out=float64)", PowTo(Empty(Float64, 2), Scalar(1), f()), Float64, 1, 1)
	same("pow(1, x, out=int64)", PowTo(Empty(Int64, 2), Scalar(1), f()), Int64, 1, 1)
	for _, c := range []struct {
		name string
		f    func()
		want ErrorKind
	}{
		{"pow(x, 2.5, out=float64)", func() { PowTo(Empty(Float64, 2), f(), Scalar(2.5)) }, DTypeError},
		{"pow(x, 2, out=float64)", func() { PowTo(Empty(Float64, 2), f(), Scalar(2)) }, DTypeError},
		{"pow(int32, 2, out=int64)", func() { PowTo(Empty(Int64, 1), FromSlice([]int32{3}), Scalar(2)) }, DTypeError},
		{"pow(2.0, x, out=int64)", func() { PowTo(Empty(Int64, 2), Scalar(2.0), f()) }, DTypeError},
		{"int64 pow_(0.5)", func() { FromSlice([]int64{2, 3}).PowInPlace(Scalar(0.5)) }, DTypeError},
		{"bool^true", func() { Pow(FromSlice([]bool{true}), Scalar(true)) }, DTypeError},
	} {
		if got := kindOf(c.f); got != c.want {
			t.Errorf("%s: error kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPowScalarGrad pins pow's gradient in its base for Go-number
// exponents: PyTorch's pow_backward, grad·e·x^(e-1) through pow's special
// exponents (x^0.5's at -0 is 0.5·rsqrt(-0) = -Inf), and zeros for e = 0.
// The expectations are torch's, for the inputs -0, 0, 4, -2, +Inf and a
// gradient of ones.
func TestPowScalarGrad(t *testing.T) {
	inf := math.Inf(1)
	nan := math.NaN()
	for _, c := range []struct {
		e    float64
		want []float64
	}{
		{0.5, []float64{-inf, inf, 0.25, nan, 0}},
		{-0.5, []float64{-inf, -inf, -0.0625, nan, math.Copysign(0, -1)}},
		{2, []float64{math.Copysign(0, -1), 0, 8, -4, inf}},
		{3, []float64{0, 0, 48, 12, inf}},
		{-2, []float64{inf, -inf, -0.03125, 0.25, math.Copysign(0, -1)}},
		{0, []float64{0, 0, 0, 0, 0}},
		{1, []float64{1, 1, 1, 1, 1}},
		{2.5, []float64{0, 0, 20, nan, inf}},
		{-1, []float64{-inf, -inf, -0.0625, -0.25, math.Copysign(0, -1)}},
	} {
		for _, dt := range []DType{Float32, Float64} {
			x := FromSlice([]float64{math.Copysign(0, -1), 0, 4, -2, inf}).To(dt).SetRequiresGrad(true)
			x.Pow(Scalar(c.e)).Backward(OnesLike(x))
			got := x.Grad().Float64s()
			for i, w := range c.want {
				if !(got[i] == w && math.Signbit(got[i]) == math.Signbit(w) || math.IsNaN(got[i]) && math.IsNaN(w)) {
					t.Errorf("%v: d/dx x^%v = %v, torch %v", dt, c.e, got, c.want)
					break
				}
			}
		}
	}
}

// BenchmarkPowScalar times pow(a, e) into a preallocated float32
// [4096, 4096] tensor for the special exponents 2, 0.5 and 3 and the
// general 2.5, beside mul(a, a), the memory-bound speed x·x should reach;
// 2.0000001, which is 2 in float32 but not special (PyTorch compares it in
// float64), times x·x by the general kernel, as pow(a, 2) ran before.
func BenchmarkPowScalar(b *testing.B) {
	a := Linspace(0.5, 4, 4096*4096, Float32).Reshape(4096, 4096)
	dst := Empty(Float32, 4096, 4096)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"mul", func() { MulTo(dst, a, a) }},
		{"2", func() { PowTo(dst, a, Scalar(2)) }},
		{"0.5", func() { PowTo(dst, a, Scalar(0.5)) }},
		{"3", func() { PowTo(dst, a, Scalar(3)) }},
		{"2.5", func() { PowTo(dst, a, Scalar(2.5)) }},
		{"2-general", func() { PowTo(dst, a, Scalar(2.0000001)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(2 * 4 * 4096 * 4096)
			for range b.N {
				c.f()
			}
		})
	}
}
