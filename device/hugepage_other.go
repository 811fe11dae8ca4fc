//go:build !linux

package device

import "unsafe"

// adviseHuge does nothing where there is no madvise(MADV_HUGEPAGE) (Note
// [Huge pages]).
func adviseHuge(p unsafe.Pointer, n int) {}
