// Package goroutine gives the calling goroutine an identity, for state that
// must belong to one goroutine (autograd's no-grad scopes, Note [Grad mode
// per goroutine] in package tensor). Go has no goroutine-local storage by
// design; an identity is the least a package needs to key its own.
package goroutine

import (
	"runtime"
	"strconv"
)

// ID identifies a running goroutine: two goroutines running at the same
// time never have the same ID. A goroutine that has ended may see its ID
// reused, so state keyed by an ID must be removed before the goroutine
// that owns it can end (with defer).
type ID uintptr

// Current returns the calling goroutine's ID: the address of the runtime's
// descriptor of the goroutine (its g) where this package reads it in
// assembly (amd64 and arm64), else the goroutine number from the header of
// runtime.Stack (microseconds instead of a nanosecond).
func Current() ID { return current() }

// stackID returns the goroutine number printed by runtime.Stack
// ("goroutine 17 [running]:"), offset so that it never equals a
// descriptor's address.
func stackID() ID {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		panic("goroutine: unexpected runtime.Stack header " + strconv.Quote(string(b)))
	}
	b = b[len(prefix):]
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	id, err := strconv.ParseUint(string(b[:n]), 10, 63)
	if err != nil {
		panic("goroutine: unexpected runtime.Stack header: " + err.Error())
	}
	return ID(id<<1 | 1) // odd: descriptors are aligned
}
