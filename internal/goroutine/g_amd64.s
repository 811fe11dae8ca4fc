//go:build !purego

#include "textflag.h"

// func getg() uintptr
// The descriptor of the running goroutine is in thread-local storage (TLS
// pseudo-register), as the runtime's get_tls reads it.
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
