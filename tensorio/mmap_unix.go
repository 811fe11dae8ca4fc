//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tensorio

import (
	"os"
	"syscall"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensor"
)

// mapFile maps size bytes of f privately, copy-on-write; false if mapping
// fails (a pipe, a special file) and the caller should read instead.
func mapFile(f *os.File, size int) (*tensor.Storage, bool) {
	if size == 0 {
		return nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	return device.WrapHost(b, func() { syscall.Munmap(b) }), true
}
