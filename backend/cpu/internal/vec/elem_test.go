package vec

import (
	"fmt"
	"math"
	"testing"
)

// elemKernel is one exported elementwise kernel (zz_elem_test.go lists
// them all): fn, and elem, the element function of its twin.
type elemKernel struct {
	name, stem, variant string
	fn, elem            any
}

// randInt returns random integers of T, often near 0 and the ends.
func randInt[T ints]() T {
	var z T
	bits := 8 * int(sizeOf(z))
	switch rng.Intn(4) {
	case 0:
		lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
		if T(hi+1) == 0 { // unsigned: hi wraps to 0
			lo, hi = 0, int64(1)<<bits-1
		}
		return T([]int64{0, 1, -1, lo, hi, lo + 1, hi - 1, 2}[rng.Intn(8)])
	case 1:
		return T(rng.Intn(21) - 10)
	}
	return T(rng.Uint64())
}

func sizeOf[T ints](T) uintptr {
	var z T
	switch any(z).(type) {
	case int8, uint8:
		return 1
	case int16:
		return 2
	case int32:
		return 4
	}
	return 8
}

// scalars returns the scalar operands the a∘s and s∘a kernels are tested
// with: special values and random ones.
func scalars[T elem](gen func() T) []T {
	var r []T
	var z T
	switch any(z).(type) {
	case float32:
		for _, v := range []float32{0, float32(math.Copysign(0, -1)), 1, -2.5, float32(math.Inf(1)), float32(math.NaN()), 1e-40} {
			r = append(r, any(v).(T))
		}
	case float64:
		for _, v := range []float64{0, math.Copysign(0, -1), 1, -2.5, math.Inf(-1), math.NaN(), 1e-310} {
			r = append(r, any(v).(T))
		}
	case uint16: // bfloat16: ±0, 1, +Inf, quiet and signalling NaN, subnormal
		for _, v := range []uint16{0, 0x8000, 0x3f80, 0x7f80, 0x7fc0, 0xff81, 0x0001} {
			r = append(r, any(v).(T))
		}
	}
	for range 3 {
		r = append(r, gen())
	}
	return r
}

// TestElemKernels checks every elementwise kernel against its twin, bit
// for bit, at every length up to 300 and some long ones, at unaligned
// offsets, in place, with guard bands (run1, run2).
func TestElemKernels(t *testing.T) {
	for _, k := range elemKernels {
		switch fn := k.fn.(type) {
		case func(dst, x []float32):
			testUnary(t, k, fn, k.elem.(func(float32) float32), randF32)
		case func(dst, x []float64):
			testUnary(t, k, fn, k.elem.(func(float64) float64), randF64)
		case func(dst, x []int8):
			testUnary(t, k, fn, k.elem.(func(int8) int8), randInt[int8])
		case func(dst, x []int16):
			testUnary(t, k, fn, k.elem.(func(int16) int16), randInt[int16])
		case func(dst, x []int32):
			testUnary(t, k, fn, k.elem.(func(int32) int32), randInt[int32])
		case func(dst, x []int64):
			testUnary(t, k, fn, k.elem.(func(int64) int64), randInt[int64])
		case func(dst, x []uint8):
			testUnary(t, k, fn, k.elem.(func(uint8) uint8), randInt[uint8])

		case func(dst, a, b []float32):
			testBinary(t, k, fn, k.elem.(func(a, b float32) float32), randF32)
		case func(dst, a, b []float64):
			testBinary(t, k, fn, k.elem.(func(a, b float64) float64), randF64)
		case func(dst, a, b []int8):
			testBinary(t, k, fn, k.elem.(func(a, b int8) int8), randInt[int8])
		case func(dst, a, b []int16):
			testBinary(t, k, fn, k.elem.(func(a, b int16) int16), randInt[int16])
		case func(dst, a, b []int32):
			testBinary(t, k, fn, k.elem.(func(a, b int32) int32), randInt[int32])
		case func(dst, a, b []int64):
			testBinary(t, k, fn, k.elem.(func(a, b int64) int64), randInt[int64])
		case func(dst, a, b []uint8):
			testBinary(t, k, fn, k.elem.(func(a, b uint8) uint8), randInt[uint8])

		case func(dst, a []float32, s float32):
			testScalar(t, k, fn, k.elem.(func(a, b float32) float32), randF32)
		case func(dst, a []float64, s float64):
			testScalar(t, k, fn, k.elem.(func(a, b float64) float64), randF64)
		case func(dst, a []int8, s int8):
			testScalar(t, k, fn, k.elem.(func(a, b int8) int8), randInt[int8])
		case func(dst, a []int16, s int16):
			testScalar(t, k, fn, k.elem.(func(a, b int16) int16), randInt[int16])
		case func(dst, a []int32, s int32):
			testScalar(t, k, fn, k.elem.(func(a, b int32) int32), randInt[int32])
		case func(dst, a []int64, s int64):
			testScalar(t, k, fn, k.elem.(func(a, b int64) int64), randInt[int64])
		case func(dst, a []uint8, s uint8):
			testScalar(t, k, fn, k.elem.(func(a, b uint8) uint8), randInt[uint8])

		case func(dst, a, b []uint16):
			testBinary(t, k, fn, k.elem.(func(a, b uint16) uint16), randBF16)
		case func(dst, a []uint16, s uint16):
			testScalar(t, k, fn, k.elem.(func(a, b uint16) uint16), randBF16)
		case func(dst, x []float32, lo, hi float32):
			testUnaryParams(t, k, fn, k.elem.(func(x, lo, hi float32) float32), randUnit[float32](randF32))
		case func(dst, x []float64, lo, hi float64):
			testUnaryParams(t, k, fn, k.elem.(func(x, lo, hi float64) float64), randUnit[float64](randF64))
		case func(dst []bool, a, b []float32):
			testBinary(t, k, fn, k.elem.(func(a, b float32) bool), randF32)
		case func(dst []bool, a, b []float64):
			testBinary(t, k, fn, k.elem.(func(a, b float64) bool), randF64)
		case func(dst []bool, a, b []int8):
			testBinary(t, k, fn, k.elem.(func(a, b int8) bool), randInt[int8])
		case func(dst []bool, a, b []int16):
			testBinary(t, k, fn, k.elem.(func(a, b int16) bool), randInt[int16])
		case func(dst []bool, a, b []int32):
			testBinary(t, k, fn, k.elem.(func(a, b int32) bool), randInt[int32])
		case func(dst []bool, a, b []int64):
			testBinary(t, k, fn, k.elem.(func(a, b int64) bool), randInt[int64])
		case func(dst []bool, a, b []uint8):
			testBinary(t, k, fn, k.elem.(func(a, b uint8) bool), randInt[uint8])

		case func(dst []bool, a []float32, s float32):
			testScalar(t, k, fn, k.elem.(func(a, b float32) bool), randF32)
		case func(dst []bool, a []float64, s float64):
			testScalar(t, k, fn, k.elem.(func(a, b float64) bool), randF64)
		case func(dst []bool, a []int8, s int8):
			testScalar(t, k, fn, k.elem.(func(a, b int8) bool), randInt[int8])
		case func(dst []bool, a []int16, s int16):
			testScalar(t, k, fn, k.elem.(func(a, b int16) bool), randInt[int16])
		case func(dst []bool, a []int32, s int32):
			testScalar(t, k, fn, k.elem.(func(a, b int32) bool), randInt[int32])
		case func(dst []bool, a []int64, s int64):
			testScalar(t, k, fn, k.elem.(func(a, b int64) bool), randInt[int64])
		case func(dst []bool, a []uint8, s uint8):
			testScalar(t, k, fn, k.elem.(func(a, b uint8) bool), randInt[uint8])
		default:
			t.Errorf("%s: no test for %T", k.name, k.fn)
		}
	}
}

func testUnary[D, T elem](t *testing.T, k elemKernel, fn func(dst []D, x []T), f func(T) D, gen func() T) {
	run1(t, k.name, fn, func(d []D, x []T) { unaryGo(d, x, f) }, gen, sameBits[D], false)
}

func testBinary[D, T elem](t *testing.T, k elemKernel, fn func(dst []D, a, b []T), f func(T, T) D, gen func() T) {
	run2(t, k.name, fn, func(d []D, a, b []T) { binaryGo(d, a, b, f) }, gen, gen, sameBits[D])
}

func testScalar[D, T elem](t *testing.T, k elemKernel, fn func(dst []D, a []T, s T), f func(T, T) D, gen func() T) {
	loop := binaryScalarGo[D, T]
	if k.variant == "ScalarLeft" {
		loop = scalarBinaryGo[D, T]
	}
	for _, s := range scalars(gen) {
		// s∘a of a commutative function runs a∘s, which keeps the other
		// NaN when both are (the package doc's exception)
		run1(t, fmt.Sprintf("%s/%#x", k.name, bitsOf(s)),
			func(d []D, a []T) { fn(d, a, s) }, func(d []D, a []T) { loop(d, a, s, f) }, gen, sameNaN[D], isNaN(s))
	}
}

// sameNaN is sameBits, but any NaN matches a NaN where several operands
// were NaN.
func sameNaN[D elem](got, want D, manyNaN bool) bool {
	if manyNaN && isNaN(got) && isNaN(want) {
		return true
	}
	return bitsOf(got) == bitsOf(want)
}

// randBF16 returns random bfloat16 bits: any bits (NaNs, infinities and
// subnormals among them), floats of moderate size rounded to bfloat16,
// and special values.
func randBF16() uint16 {
	switch rng.Intn(4) {
	case 0:
		return uint16(rng.Uint32())
	case 1:
		return []uint16{0, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x0001, 0x807f, 0x7f7f, 0xff7f}[rng.Intn(12)]
	}
	return bf16Of(float32(rng.NormFloat64() * 8))
}
