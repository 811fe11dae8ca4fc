package tensorio

import (
	"fmt"
	"os"

	"github.com/goten-ml/goten/tensor"
)

// MapFile returns a CPU storage holding the bytes of the file at path:
// memory-mapped where the platform supports it (copy-on-write and private:
// writes through tensors over it never reach the file; the mapping is
// released when the storage is unreachable), read into memory elsewhere or
// when mapping fails. Tensors made over the storage with
// [tensor.FromStorage] view the file without copying it.
func MapFile(path string) (*tensor.Storage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < 0 || uint64(size) > uint64(^uint(0)>>1) {
		return nil, fmt.Errorf("tensorio: %s: file of %d bytes is too large to map", path, size)
	}
	if s, ok := mapFile(f, int(size)); ok {
		return s, nil
	}
	return ReadStorage(f, int(size))
}
