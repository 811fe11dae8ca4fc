package vec

//go:generate go run -C ../../../../asm . -part ternary -out ../backend/cpu/internal/vec/zz_ternary_amd64.s -stubs ../backend/cpu/internal/vec/zz_ternary_stubs_amd64.go -pkg vec -api ../backend/cpu/internal/vec/zz_ternary

// The pure-Go twins of the ternary kernels of zz_ternary_amd64.go (Note
// [Ternary kernels] in asm/ternary.go): the loops below, named by the
// layout of the last two inputs (V a slice, S a scalar), over the element
// functions elClamp and elSelect.

// elClamp is clamp's element function: elMax then elMin, so a NaN x or
// bound gives a NaN (hi's if hi is one, else lo's, else x's).
func elClamp[T number](x, lo, hi T) T { return elMin(elMax(x, lo), hi) }

// elSelect is where's: a where c, else b.
func elSelect[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// ternaryGo is the exact loop of the kernels over three slices.
func ternaryGo[C, T any](dst []T, a []C, b, c []T, f func(C, T, T) T) {
	a, b, c = a[:len(dst)], b[:len(dst)], c[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], b[i], c[i])
	}
}

// ternaryVSGo is the exact loop of the kernels whose last input is a scalar.
func ternaryVSGo[C, T any](dst []T, a []C, b []T, c T, f func(C, T, T) T) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], b[i], c)
	}
}

// ternarySVGo is the exact loop of the kernels whose middle input is a
// scalar.
func ternarySVGo[C, T any](dst []T, a []C, b T, c []T, f func(C, T, T) T) {
	a, c = a[:len(dst)], c[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], b, c[i])
	}
}

// ternarySSGo is the exact loop of the kernels whose last two inputs are
// scalars.
func ternarySSGo[C, T any](dst []T, a []C, b, c T, f func(C, T, T) T) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f(a[i], b, c)
	}
}
