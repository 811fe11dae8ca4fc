// Package npy reads and writes NumPy's .npy files (one array) and .npz
// archives (a zip of .npy files, as np.savez and np.savez_compressed
// write them).
//
// # Dtypes
//
// goten's ten dtypes map to NumPy's bool, uint8, int8, int16, int32,
// int64, float16, float32 and float64, and bfloat16 to the 2-byte void
// ('<V2') that ml_dtypes' bfloat16 arrays are saved as (Note [NumPy
// dtypes]). Other dtypes — object arrays, complex, wider unsigned
// integers, strings, structured arrays — are refused with a
// [tensorio.Error] of kind [tensorio.Unsupported]. Big-endian files are
// read (into a byte-swapped copy).
//
// # Layout
//
// A C-order file is read as a contiguous tensor, a Fortran-order file as
// the column-major strided view of the same bytes (no copy; NumPy's
// fortran_order arrays are the transposes of C-order ones). Writers write
// C order: a tensor's elements in row-major order. 0-d and empty arrays
// round-trip.
//
// # Memory mapping
//
// [Load] maps the file ([tensorio.MapFile]): the tensor views the file's
// pages, read from disk when first touched, and the mapping lives as long
// as a tensor over it. [Read] reads a stream into memory.
package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
)

const magic = "\x93NUMPY"

// maxHeader bounds the header's length, as NumPy's reader does (it refuses
// headers over 10000 bytes unless told otherwise); ours is looser.
const maxHeader = 1 << 20

// prefix parses the fixed part of a file: magic, version and header
// length. It returns the header's length and where it starts.
func prefix(b []byte) (n, start int, err error) {
	if len(b) < 10 {
		return 0, 0, malformed("truncated: %d bytes, no room for the magic and version", len(b))
	}
	if string(b[:6]) != magic {
		return 0, 0, malformed("not a .npy file (magic %q)", b[:6])
	}
	switch b[6] {
	case 1:
		return int(binary.LittleEndian.Uint16(b[8:10])), 10, nil
	case 2, 3:
		if len(b) < 12 {
			return 0, 0, malformed("truncated header length")
		}
		n := binary.LittleEndian.Uint32(b[8:12])
		if n > maxHeader {
			return 0, 0, malformed("header of %d bytes", n)
		}
		return int(n), 12, nil
	}
	return 0, 0, unsupported("format version %d.%d", b[6], b[7])
}

// layout returns the strides of h's array (column-major for a Fortran
// file) and the number of bytes of its data.
func (h *header) layout() (strides []int, nbytes int, err error) {
	_, nbytes, ok := tensorio.NumBytes(h.shape, h.dt.Size())
	if !ok {
		return nil, 0, malformed("shape %v of %s is too large", h.shape, h.dt)
	}
	strides = make([]int, len(h.shape))
	n := 1
	for i := range h.shape {
		k := len(h.shape) - 1 - i
		if h.fortran {
			k = i
		}
		strides[k] = n
		n *= max(h.shape[k], 1)
	}
	return strides, nbytes, nil
}

// Read reads a .npy stream: its header, then its data into a new tensor.
// A malformed stream is a [*tensorio.Error]; a stream that ends early is
// one too (truncated data), and other errors of r are returned wrapped.
func Read(r io.Reader) (*tensor.Tensor, error) {
	pre := make([]byte, 12)
	if _, err := io.ReadFull(r, pre[:10]); err != nil {
		return nil, short(err, "header")
	}
	if pre[6] == 2 || pre[6] == 3 {
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, short(err, "header")
		}
	} else {
		pre = pre[:10]
	}
	n, _, err := prefix(pre)
	if err != nil {
		return nil, err
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, short(err, "header")
	}
	h, err := parseHeader(string(hb))
	if err != nil {
		return nil, err
	}
	strides, nbytes, err := h.layout()
	if err != nil {
		return nil, err
	}
	s, err := tensorio.ReadStorage(r, nbytes)
	if err != nil {
		return nil, short(err, "data")
	}
	if h.swap {
		tensorio.Swap(s.Bytes(), h.dt.Size())
	}
	return tensor.FromStorage(s, h.dt, h.shape, strides, 0), nil
}

// short turns an early end of input into a malformed-file error.
func short(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return malformed("truncated %s", what)
	}
	return err
}

// Load reads the .npy file at path, memory-mapped: the tensor views the
// file's bytes in place when they are aligned for its dtype and in the
// host's byte order (NumPy pads headers to 64 bytes, so they are), and is
// a copy otherwise. Writes to the tensor never reach the file.
func Load(path string) (*tensor.Tensor, error) {
	s, err := tensorio.MapFile(path)
	if err != nil {
		return nil, err
	}
	return View(s)
}

// View reads a .npy file held in storage s (from [tensorio.MapFile], say):
// the result views s without copying when the data is aligned and in the
// host's byte order, and is a copy otherwise.
func View(s *tensor.Storage) (*tensor.Tensor, error) {
	b := s.Bytes()
	n, start, err := prefix(b)
	if err != nil {
		return nil, err
	}
	if len(b)-start < n {
		return nil, malformed("truncated header: %d bytes of %d", len(b)-start, n)
	}
	h, err := parseHeader(string(b[start : start+n]))
	if err != nil {
		return nil, err
	}
	strides, nbytes, err := h.layout()
	if err != nil {
		return nil, err
	}
	off := start + n
	if len(b)-off < nbytes {
		return nil, malformed("truncated data: %d bytes, the header's shape %v of %s needs %d", len(b)-off, h.shape, h.dt, nbytes)
	}
	size := h.dt.Size()
	if !h.swap && off%size == 0 {
		return tensor.FromStorage(s, h.dt, h.shape, strides, off/size), nil
	}
	c := device.Alloc(nbytes)
	copy(c.Bytes(), b[off:off+nbytes])
	if h.swap {
		tensorio.Swap(c.Bytes(), size)
	}
	return tensor.FromStorage(c, h.dt, h.shape, strides, 0), nil
}

// Write writes t as a .npy stream in C order (format version 1.0, or 2.0
// for a header over 64 KiB), as np.save does: the header padded with
// spaces so that the data starts at a multiple of 64 bytes.
func Write(w io.Writer, t *tensor.Tensor) error {
	h := formatHeader(t.DType(), t.Shape())
	v1 := len(h)+11 <= 0xffff
	pre := 10
	if !v1 {
		pre = 12
	}
	pad := 63 - (pre+len(h))%64 // the header ends with '\n'
	h += strings.Repeat(" ", pad) + "\n"
	bw := bufio.NewWriter(w)
	if v1 {
		bw.WriteString(magic + "\x01\x00")
		bw.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(h))))
	} else {
		bw.WriteString(magic + "\x02\x00")
		bw.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(h))))
	}
	bw.WriteString(h)
	bw.Write(tensorio.Bytes(t))
	return bw.Flush()
}

// Save writes t to a .npy file at path (see [Write]).
func Save(path string, t *tensor.Tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, t); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
