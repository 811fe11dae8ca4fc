package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/safetensors"
)

// storage returns a CPU storage holding a copy of b.
func storage(b []byte) *tensor.Storage {
	s := device.Alloc(len(b))
	copy(s.Bytes(), b)
	return s
}

// FuzzRead reads arbitrary bytes as a safetensors stream and as a mapped
// file: either a typed error from both, or the same tensors, every
// element of which can be read (nothing outside the file).
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.safetensors")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := safetensors.Read(bytes.NewReader(b))
		y, err2 := safetensors.View(storage(b))
		var e *tensorio.Error
		if err != nil && !errors.As(err, &e) || err2 != nil && !errors.As(err2, &e) {
			t.Fatalf("untyped errors %v, %v", err, err2)
		}
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Read and View disagree: %v, %v", err, err2)
		}
		if err != nil {
			return
		}
		if !slices.Equal(x.Names, y.Names) {
			t.Fatalf("names %v and %v", x.Names, y.Names)
		}
		for _, n := range x.Names {
			a, b := x.Tensors[n].Float64s(), y.Tensors[n].Float64s()
			if len(a) != len(b) {
				t.Fatalf("%s: %d and %d elements", n, len(a), len(b))
			}
		}
	})
}

// FuzzHeader fuzzes the JSON header of a file with n bytes of data (the
// header is what a reader must validate; FuzzRead's mutations of whole
// files rarely keep it JSON).
func FuzzHeader(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.safetensors")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		n := int(binary.LittleEndian.Uint64(b))
		f.Add(string(b[8:8+n]), uint16(len(b)-8-n))
	}
	f.Fuzz(func(t *testing.T, header string, n uint16) {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		b = append(append(b, header...), make([]byte, n)...)
		x, err := safetensors.View(storage(b))
		var e *tensorio.Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("untyped error %v", err)
		}
		if err != nil {
			return
		}
		for _, name := range x.Names {
			x.Tensors[name].Float64s()
		}
	})
}
