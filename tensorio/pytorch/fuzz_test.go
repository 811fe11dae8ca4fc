package pytorch

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
)

func seedFiles(f *testing.F) [][]byte {
	files, _ := filepath.Glob("testdata/*.pt")
	if len(files) == 0 {
		f.Fatal("no seed files")
	}
	var out [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func typed(t *testing.T, err error) {
	var e *tensorio.Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
}

// touch reads every element of every tensor in v (nothing outside its
// storage), walking containers to a bounded depth (a pickle may build
// cycles).
func touch(v any, depth int) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case *tensor.Tensor:
		x.Float64s()
	case *Dict:
		for _, y := range x.Values {
			touch(y, depth+1)
		}
	case *List:
		for _, y := range x.Items {
			touch(y, depth+1)
		}
	case Tuple:
		for _, y := range x {
			touch(y, depth+1)
		}
	}
}

// FuzzRead reads arbitrary bytes as a checkpoint: a typed error, or an
// object whose tensors can all be read.
func FuzzRead(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Read(bytes.NewReader(b), int64(len(b)))
		typed(t, err)
		touch(v, 0)
	})
}

// FuzzPickle runs arbitrary bytes as the pickle of a checkpoint whose
// storages are 16 bytes of every dtype (the zip's checksums keep FuzzRead's
// mutations from reaching the unpickler often).
func FuzzPickle(f *testing.F) {
	for _, b := range seedFiles(f) {
		z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue // the legacy file
		}
		for _, zf := range z.File {
			if strings.HasSuffix(zf.Name, "data.pkl") {
				rc, _ := zf.Open()
				p, _ := io.ReadAll(rc)
				f.Add(p)
			}
		}
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		rd := &reader{storages: map[string]*storage{}}
		m := &machine{b: p, reduce: rd.reduce, persistent: func(id any) (any, error) {
			tu, ok := id.(Tuple)
			if !ok || len(tu) != 5 {
				return nil, malformed("id")
			}
			g, ok := tu[1].(global)
			dt, ok2 := storageTypes[g.name]
			if !ok || !ok2 {
				return nil, malformed("type")
			}
			return &storage{dt: dt, s: device.Alloc(16 * dtype.Float64.Size())}, nil
		}}
		v, err := m.run()
		typed(t, err)
		touch(v, 0)
	})
}
