//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tensorio

import (
	"os"

	"github.com/goten-ml/goten/tensor"
)

// mapFile reports false: this platform reads files into memory.
func mapFile(f *os.File, size int) (*tensor.Storage, bool) { return nil, false }
