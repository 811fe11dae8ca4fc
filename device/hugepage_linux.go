//go:build linux

package device

import (
	"os"
	"syscall"
	"unsafe"
)

// hugeOn is set by GOTEN_HUGEPAGES=1 (Note [Huge pages]).
var hugeOn = os.Getenv("GOTEN_HUGEPAGES") == "1"

// adviseHuge asks the kernel to back the 2 MiB-aligned pages inside the n
// bytes at p with transparent huge pages (Note [Huge pages]), when n is at
// least hugeMin and GOTEN_HUGEPAGES is 1. Errors are ignored: the advice
// is only a hint, and a kernel without transparent huge pages refuses it.
func adviseHuge(p unsafe.Pointer, n int) {
	if n < hugeMin || !hugeOn {
		return
	}
	lo := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	hi := (uintptr(p) + uintptr(n)) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo), syscall.MADV_HUGEPAGE)
}
