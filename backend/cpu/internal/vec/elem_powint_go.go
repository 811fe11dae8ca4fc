package vec

// elPow is integer pow (asm/elempowint.go, Note [Integer pow] there):
// a^b by repeated squaring, wrapping; a negative exponent gives 1/a^|b|
// truncated (1 for a = 1, ±1 for a = −1, else 0), as optable/elem's
// PowInt and PowUint8.
func elPow[T ints](a, b T) T {
	if b < 0 {
		switch {
		case a == 1:
			return 1
		case a+1 == 0: // −1
			if b&1 != 0 {
				return a
			}
			return 1
		}
		return 0
	}
	r := T(1)
	for b != 0 {
		if b&1 != 0 {
			r *= a
		}
		b >>= 1
		a *= a
	}
	return r
}
