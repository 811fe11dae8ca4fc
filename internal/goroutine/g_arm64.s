//go:build !purego

#include "textflag.h"

// func getg() uintptr
// On arm64 the running goroutine's descriptor is in the reserved register g.
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
