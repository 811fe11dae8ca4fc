package tensorio

import (
	"encoding/binary"
	"io"
	"math/bits"
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// LittleEndian reports whether the host stores numbers little-endian, as
// the formats do: then a file's bytes are a tensor's elements.
var LittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// MaxBytes bounds the size of one tensor a reader accepts (2⁴⁸ bytes), so
// that sizes multiplied from a lying header cannot overflow an int.
const MaxBytes = 1 << 48

// NumBytes returns the number of elements of a dense tensor of the given
// shape and the bytes they take at size bytes each, and false if a size
// is negative or the bytes exceed [MaxBytes].
func NumBytes(shape []int, size int) (numel, nbytes int, ok bool) {
	n := uint64(1)
	for _, s := range shape {
		if s < 0 {
			return 0, 0, false
		}
		hi, lo := bits.Mul64(n, uint64(s))
		if hi != 0 || lo > MaxBytes {
			return 0, 0, false
		}
		n = lo
	}
	if n*uint64(size) > MaxBytes {
		return 0, 0, false
	}
	return int(n), int(n) * size, true
}

// Swap reverses the byte order of each size-byte element of b in place.
func Swap(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		for j, k := i, i+size-1; j < k; j, k = j+1, k-1 {
			b[j], b[k] = b[k], b[j]
		}
	}
}

// ReadStorage reads nbytes bytes from r into a new CPU storage. It grows
// the storage as the bytes arrive, so a header that lies about a huge size
// fails at the end of the data rather than allocating the size first; a
// short read is io.ErrUnexpectedEOF.
func ReadStorage(r io.Reader, nbytes int) (*tensor.Storage, error) {
	if nbytes < 0 {
		return nil, io.ErrUnexpectedEOF
	}
	const chunk = 16 << 20
	s := device.Alloc(min(nbytes, chunk))
	done := 0
	for done < nbytes {
		if done == s.Len() {
			if err := s.Grow(min(nbytes, 2*s.Len())); err != nil {
				return nil, err
			}
		}
		n, err := io.ReadFull(r, s.Bytes()[done:s.Len()])
		done += n
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Bytes returns t's elements in row-major order as the little-endian
// bytes the formats store (a copy).
func Bytes(t *tensor.Tensor) []byte {
	var b []byte
	switch t.DType() {
	case dtype.Bool:
		b = asBytes(tensor.ToSlice[bool](t))
	case dtype.Uint8:
		b = tensor.ToSlice[uint8](t)
	case dtype.Int8:
		b = asBytes(tensor.ToSlice[int8](t))
	case dtype.Int16:
		b = asBytes(tensor.ToSlice[int16](t))
	case dtype.Int32:
		b = asBytes(tensor.ToSlice[int32](t))
	case dtype.Int64:
		b = asBytes(tensor.ToSlice[int64](t))
	case dtype.Float16:
		b = asBytes(tensor.ToSlice[dtype.Half](t))
	case dtype.BFloat16:
		b = asBytes(tensor.ToSlice[dtype.BF16](t))
	case dtype.Float32:
		b = asBytes(tensor.ToSlice[float32](t))
	case dtype.Float64:
		b = asBytes(tensor.ToSlice[float64](t))
	default:
		panic("tensorio: invalid dtype " + t.DType().String())
	}
	if !LittleEndian {
		Swap(b, t.DType().Size())
	}
	return b
}

func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
