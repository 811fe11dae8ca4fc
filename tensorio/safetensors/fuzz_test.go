package safetensors_test

import (
	"bytes"
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
