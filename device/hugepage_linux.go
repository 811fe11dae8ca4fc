//go:build linux

package device

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks the kernel to back the 2 MiB-aligned pages inside the n
// bytes at p with transparent huge pages (Note [Huge pages]), when n is at
// least hugeMin. Errors are ignored: the advice is only a hint, and a
// kernel without transparent huge pages refuses it.
func adviseHuge(p unsafe.Pointer, n int) {
	if n < hugeMin {
		return
	}
	lo := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	hi := (uintptr(p) + uintptr(n)) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo), syscall.MADV_HUGEPAGE)
}
