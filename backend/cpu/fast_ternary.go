package cpu

import "unsafe"

// ternaryLayout runs the ternary kernel of the layout of p (Note [Ternary
// kernels] in asm/ternary.go) — vv (b and c slices), vs (c a broadcast
// scalar), sv (b one) or ss (both) — when dst and a are contiguous, and
// reports whether it did; a is where's condition (C bool) or clamp's x (C
// T).
func ternaryLayout[C, T any](vv func(dst []T, a []C, b, c []T), vs func(dst []T, a []C, b []T, c T),
	sv func(dst []T, a []C, b T, c []T), ss func(dst []T, a []C, b, c T), p [4]unsafe.Pointer, s [4]int, n int) bool {
	var zc C
	var zt T
	es := int(unsafe.Sizeof(zt))
	if s[0] != es || s[1] != int(unsafe.Sizeof(zc)) {
		return false
	}
	o, a := unsafe.Slice((*T)(p[0]), n), unsafe.Slice((*C)(p[1]), n)
	switch {
	case s[2] == es && s[3] == es:
		vv(o, a, unsafe.Slice((*T)(p[2]), n), unsafe.Slice((*T)(p[3]), n))
	case s[2] == es && s[3] == 0:
		vs(o, a, unsafe.Slice((*T)(p[2]), n), *(*T)(p[3]))
	case s[2] == 0 && s[3] == es:
		sv(o, a, *(*T)(p[2]), unsafe.Slice((*T)(p[3]), n))
	case s[2] == 0 && s[3] == 0:
		ss(o, a, *(*T)(p[2]), *(*T)(p[3]))
	default:
		return false
	}
	return true
}
