package vec

import (
	"testing"
)

// shiftCase runs a shift kernel over values of every bit pattern class
// and counts from −3 to width+3 (the edges where x86's unsigned counts
// and Go's uint64(b) must agree: a negative count is a huge one), vector
// by vector, scalar by vector and vector by scalar, against Go's
// operators.
func shiftCase[T ints](t *testing.T, name string, width int, vv func(dst, a, b []T), vs func(dst, a []T, s T), sv func(dst, a []T, s T), want func(a, b T) T) {
	var as, bs []T
	vals := []T{0, 1, 2, 3, 0x55, T(rng.Uint64()), T(rng.Uint64()), T(rng.Uint64())}
	vals = append(vals, ^T(0), ^T(0)<<(width-1), ^(^T(0) << (width - 1)))
	for c := -3; c <= width+3; c++ {
		for _, v := range vals {
			as, bs = append(as, v), append(bs, T(c))
		}
	}
	got := make([]T, len(as))
	vv(got, as, bs)
	for i := range as {
		if w := want(as[i], bs[i]); got[i] != w {
			t.Errorf("%s(%v, %v) = %v, want %v", name, as[i], bs[i], got[i], w)
			return
		}
	}
	for c := -3; c <= width+3; c++ {
		vs(got, as, T(c))
		for i := range as {
			if w := want(as[i], T(c)); got[i] != w {
				t.Errorf("%s(%v, scalar %v) = %v, want %v", name, as[i], c, got[i], w)
				return
			}
		}
	}
	for _, v := range vals {
		sv(got, bs, v)
		for i := range bs {
			if w := want(v, bs[i]); got[i] != w {
				t.Errorf("%s(scalar %v, %v) = %v, want %v", name, v, bs[i], got[i], w)
				return
			}
		}
	}
}

// TestShiftKernels checks the variable shifts of every integer width on
// the running level against Go's << and >> of a uint64 count (optable's
// loops, PyTorch's semantics).
func TestShiftKernels(t *testing.T) {
	for _, f := range []func(*testing.T){
		func(t *testing.T) {
			shiftCase(t, "ShlI8", 8, ShlI8, ShlScalarI8, ScalarShlI8, func(a, b int8) int8 { return a << uint64(b) })
			shiftCase(t, "ShrI8", 8, ShrI8, ShrScalarI8, ScalarShrI8, func(a, b int8) int8 { return a >> uint64(b) })
		},
		func(t *testing.T) {
			shiftCase(t, "ShlU8", 8, ShlU8, ShlScalarU8, ScalarShlU8, func(a, b uint8) uint8 { return a << uint64(b) })
			shiftCase(t, "ShrU8", 8, ShrU8, ShrScalarU8, ScalarShrU8, func(a, b uint8) uint8 { return a >> uint64(b) })
		},
		func(t *testing.T) {
			shiftCase(t, "ShlI16", 16, ShlI16, ShlScalarI16, ScalarShlI16, func(a, b int16) int16 { return a << uint64(b) })
			shiftCase(t, "ShrI16", 16, ShrI16, ShrScalarI16, ScalarShrI16, func(a, b int16) int16 { return a >> uint64(b) })
		},
		func(t *testing.T) {
			shiftCase(t, "ShlI32", 32, ShlI32, ShlScalarI32, ScalarShlI32, func(a, b int32) int32 { return a << uint64(b) })
			shiftCase(t, "ShrI32", 32, ShrI32, ShrScalarI32, ScalarShrI32, func(a, b int32) int32 { return a >> uint64(b) })
		},
		func(t *testing.T) {
			shiftCase(t, "ShlI64", 64, ShlI64, ShlScalarI64, ScalarShlI64, func(a, b int64) int64 { return a << uint64(b) })
			shiftCase(t, "ShrI64", 64, ShrI64, ShrScalarI64, ScalarShrI64, func(a, b int64) int64 { return a >> uint64(b) })
		},
	} {
		f(t)
	}
}
