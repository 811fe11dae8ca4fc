package npy

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
)

// ReadNPZ reads an .npz archive of size bytes from r: every member
// "name.npy" as the tensor named name. Members are read into memory
// (compressed or not); a member that is not a .npy file is a malformed
// archive.
func ReadNPZ(r io.ReaderAt, size int64) (map[string]*tensor.Tensor, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, tensorio.Errorf("npz", tensorio.Malformed, "not a zip archive: %v", err)
	}
	out := make(map[string]*tensor.Tensor, len(z.File))
	for _, f := range z.File {
		name, ok := strings.CutSuffix(f.Name, ".npy")
		if !ok {
			return nil, tensorio.Errorf("npz", tensorio.Malformed, "member %q is not a .npy file", f.Name)
		}
		if _, dup := out[name]; dup {
			return nil, tensorio.Errorf("npz", tensorio.Malformed, "member %q repeated", f.Name)
		}
		t, err := readMember(f)
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

func readMember(f *zip.File) (*tensor.Tensor, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, tensorio.Errorf("npz", tensorio.Malformed, "member %q: %v", f.Name, err)
	}
	defer rc.Close()
	t, err := Read(rc)
	if err != nil {
		var e *tensorio.Error
		if errors.As(err, &e) {
			return nil, tensorio.Errorf("npz", e.Kind, "member %q: %s", f.Name, e.Msg)
		}
		// archive/zip's checksum and format errors: a corrupt member.
		return nil, tensorio.Errorf("npz", tensorio.Malformed, "member %q: %v", f.Name, err)
	}
	return t, nil
}

// LoadNPZ reads the .npz archive at path (see [ReadNPZ]).
func LoadNPZ(path string) (map[string]*tensor.Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return ReadNPZ(f, fi.Size())
}

// WriteNPZ writes tensors as an .npz archive, members in the order of
// their names, deflated if compress is set (np.savez_compressed) and
// stored otherwise (np.savez).
func WriteNPZ(w io.Writer, tensors map[string]*tensor.Tensor, compress bool) error {
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	z := zip.NewWriter(w)
	method := zip.Store
	if compress {
		method = zip.Deflate
	}
	var buf bytes.Buffer
	for _, n := range names {
		fw, err := z.CreateHeader(&zip.FileHeader{Name: n + ".npy", Method: method})
		if err != nil {
			return err
		}
		buf.Reset()
		if err := Write(&buf, tensors[n]); err != nil {
			return err
		}
		if _, err := fw.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return z.Close()
}

// SaveNPZ writes tensors to an .npz file at path (see [WriteNPZ]).
func SaveNPZ(path string, tensors map[string]*tensor.Tensor, compress bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteNPZ(f, tensors, compress); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
