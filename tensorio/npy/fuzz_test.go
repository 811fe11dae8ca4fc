package npy_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/npy"
)

// seeds adds the committed files with the given extension to f's corpus.
func seeds(f *testing.F, ext string) {
	files, _ := filepath.Glob("testdata/*" + ext)
	if len(files) == 0 {
		f.Fatal("no seed files")
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// typed fails unless err is nil or a *tensorio.Error: a reader reports a
// bad file as one, whatever the file holds.
func typed(t *testing.T, err error) bool {
	var e *tensorio.Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	return err == nil
}

// same fails unless x and y hold the same elements (NaNs equal).
func same(t *testing.T, x, y *tensor.Tensor) {
	a, b := x.Float64s(), y.Float64s()
	if x.DType() != y.DType() || !slices.Equal(x.Shape(), y.Shape()) ||
		!slices.EqualFunc(a, b, func(p, q float64) bool { return p == q || math.IsNaN(p) && math.IsNaN(q) }) {
		t.Fatalf("rewritten file reads %s %v %v, was %s %v %v", y.DType(), y.Shape(), b, x.DType(), x.Shape(), a)
	}
}

// FuzzRead reads arbitrary bytes as a .npy stream and as a mapped file:
// either a typed error, or a tensor whose every element can be read (no
// read outside the data) and that survives a write and a read.
func FuzzRead(f *testing.F) {
	seeds(f, ".npy")
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := npy.Read(bytes.NewReader(b))
		if !typed(t, err) {
			return
		}
		s := device.Alloc(len(b))
		copy(s.Bytes(), b)
		y, err := npy.View(s)
		if err != nil {
			t.Fatalf("Read accepts what View refuses: %v", err)
		}
		same(t, x, y)
		var buf bytes.Buffer
		if err := npy.Write(&buf, x); err != nil {
			t.Fatal(err)
		}
		z, err := npy.Read(&buf)
		if err != nil {
			t.Fatalf("rewritten file: %v", err)
		}
		same(t, x, z)
	})
}

// FuzzReadNPZ reads arbitrary bytes as an .npz archive, and as the
// member of a well-formed archive, stored and deflated (the zip's
// checksums keep most mutations of a whole archive from reaching its
// members).
func FuzzReadNPZ(f *testing.F) {
	seeds(f, ".npz")
	seeds(f, ".npy")
	f.Fuzz(func(t *testing.T, b []byte) {
		archives := [][]byte{b}
		for _, method := range []uint16{zip.Store, zip.Deflate} {
			var buf bytes.Buffer
			z := zip.NewWriter(&buf)
			w, _ := z.CreateHeader(&zip.FileHeader{Name: "m.npy", Method: method})
			w.Write(b)
			z.Close()
			archives = append(archives, buf.Bytes())
		}
		for _, a := range archives {
			m, err := npy.ReadNPZ(bytes.NewReader(a), int64(len(a)))
			if !typed(t, err) {
				continue
			}
			for _, x := range m {
				x.Float64s()
			}
		}
	})
}
