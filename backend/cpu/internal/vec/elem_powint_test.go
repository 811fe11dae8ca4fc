package vec

import (
	"math/big"
	"testing"
)

// powRef is integer pow from its definition, independently of the
// squaring: a^b mod 2^width by math/big, read back in T's signedness; a
// negative b gives 1/a^|b| truncated toward zero.
func powRef[T ints](a, b T, width int) T {
	if b < 0 {
		switch {
		case a == 1:
			return 1
		case a+1 == 0 && b%2 == 0:
			return 1
		case a+1 == 0:
			return a
		}
		return 0
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(width))
	r := new(big.Int).Exp(big.NewInt(int64(a)), new(big.Int).SetUint64(uint64(b)&(1<<width-1)), m)
	if r.Sign() < 0 {
		r.Add(r, m)
	}
	return T(r.Uint64())
}

// powCase runs an integer pow kernel in its three layouts (the scalar
// exponent is the common x**k) over bases of every class and exponents
// from −3 to 2·width, the type's ends and random ones, against powRef,
// at lengths that leave tails.
func powCase[T ints](t *testing.T, name string, width int, vv func(dst, a, b []T), vs func(dst, a []T, s T), sv func(dst, a []T, s T)) {
	t.Helper()
	lo, hi := ^T(0)<<(width-1), ^(^T(0) << (width - 1))
	if ^T(0) > 0 { // unsigned
		lo, hi = 0, ^T(0)
	}
	bases := []T{0, 1, 2, 3, 5, 7, lo, hi, lo + 1, hi - 1, 0x55, ^T(0), ^T(0) - 1, ^T(0) - 2}
	for range 9 {
		bases = append(bases, T(rng.Uint64()))
	}
	exps := []T{lo, hi, lo + 1, hi - 1}
	for c := -3; c <= 2*width; c++ {
		exps = append(exps, T(c))
	}
	for range 6 {
		exps = append(exps, T(rng.Uint64()))
	}
	var as, bs []T
	for _, b := range exps {
		for _, a := range bases {
			as, bs = append(as, a), append(bs, b)
		}
	}
	got := make([]T, len(as))
	vv(got, as, bs)
	for i := range as {
		if w := powRef(as[i], bs[i], width); got[i] != w {
			t.Errorf("%s(%v, %v) = %v, want %v", name, as[i], bs[i], got[i], w)
			return
		}
	}
	for _, s := range exps {
		for _, n := range []int{len(bases), len(bases) - 1, 1} {
			vs(got[:n], bases[:n], s)
			for i := range n {
				if w := powRef(bases[i], s, width); got[i] != w {
					t.Errorf("%s(%v, scalar %v) = %v, want %v", name, bases[i], s, got[i], w)
					return
				}
			}
		}
	}
	for _, s := range bases {
		sv(got[:len(exps)], exps, s)
		for i, b := range exps {
			if w := powRef(s, b, width); got[i] != w {
				t.Errorf("%s(scalar %v, %v) = %v, want %v", name, s, b, got[i], w)
				return
			}
		}
	}
}

// TestPowIntKernels checks integer pow of every width on the running
// level against its definition (TestElemKernels checks it against the
// twin, bit for bit, on random operands).
func TestPowIntKernels(t *testing.T) {
	powCase(t, "PowI8", 8, PowI8, PowScalarI8, ScalarPowI8)
	powCase(t, "PowI16", 16, PowI16, PowScalarI16, ScalarPowI16)
	powCase(t, "PowI32", 32, PowI32, PowScalarI32, ScalarPowI32)
	powCase(t, "PowI64", 64, PowI64, PowScalarI64, ScalarPowI64)
	powCase(t, "PowU8", 8, PowU8, PowScalarU8, ScalarPowU8)
}
