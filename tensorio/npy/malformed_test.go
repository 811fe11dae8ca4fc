package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/npy"
)

// file returns a version 1.0 .npy file of the given header and data bytes.
func file(header string, data int) []byte {
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	return append(append(b, header...), make([]byte, data)...)
}

func TestMalformed(t *testing.T) {
	hdr := func(descr, shape string) string {
		return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }\n"
	}
	cases := []struct {
		name string
		file []byte
		kind tensorio.ErrorKind
	}{
		{"empty", nil, tensorio.Malformed},
		{"bad magic", []byte("\x93NUMPX\x01\x00\x00\x00"), tensorio.Malformed},
		{"version 4", []byte("\x93NUMPY\x04\x00\x00\x00"), tensorio.Unsupported},
		{"truncated header", file(hdr("<f4", "(2,)"), 8)[:20], tensorio.Malformed},
		{"truncated data", file(hdr("<f4", "(2, 3)"), 23), tensorio.Malformed},
		{"huge shape", file(hdr("<f8", "(4294967296, 4294967296)"), 8), tensorio.Malformed},
		{"huge size", file(hdr("<f8", "(99999999999999999999,)"), 8), tensorio.Malformed},
		{"negative size", file(hdr("<f8", "(-1,)"), 8), tensorio.Malformed},
		{"not a tuple", file(hdr("<f8", "(3)"), 24), tensorio.Malformed},
		{"not a dict", file("[1, 2]\n", 0), tensorio.Malformed},
		{"missing key", file("{'descr': '<f4', 'shape': (1,), }\n", 4), tensorio.Malformed},
		{"repeated key", file("{'descr': '<f4', 'descr': '<f4', 'shape': (1,), }\n", 4), tensorio.Malformed},
		{"unknown key", file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n", 4), tensorio.Malformed},
		{"bad fortran_order", file("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }\n", 4), tensorio.Malformed},
		{"text after", file(hdr("<f4", "(1,)")+"x", 4), tensorio.Malformed},
		{"object", file(hdr("|O", "(1,)"), 8), tensorio.Unsupported},
		{"complex", file(hdr("<c16", "(1,)"), 16), tensorio.Unsupported},
		{"uint16", file(hdr("<u2", "(1,)"), 2), tensorio.Unsupported},
		{"string", file(hdr("<U3", "(1,)"), 12), tensorio.Unsupported},
		{"structured", file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n", 4), tensorio.Unsupported},
		{"empty descr", file(hdr("", "(1,)"), 4), tensorio.Malformed},
	}
	for _, c := range cases {
		_, err := npy.Read(bytes.NewReader(c.file))
		var e *tensorio.Error
		if !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("%s (Read): got %v, want a %s-file error", c.name, err, c.kind)
		}
		s := device.Alloc(len(c.file))
		copy(s.Bytes(), c.file)
		if _, err := npy.View(s); !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("%s (View): got %v, want a %s-file error", c.name, err, c.kind)
		}
	}
	// a member that is not an .npy file, and a corrupt archive
	var buf bytes.Buffer
	npy.WriteNPZ(&buf, nil, false)
	if _, err := npy.ReadNPZ(bytes.NewReader(buf.Bytes()[:10]), 10); err == nil || !strings.Contains(err.Error(), "npz") {
		t.Errorf("truncated archive: %v", err)
	}
}

// TestVersions reads format versions 2.0 and 3.0 (a 4-byte header length;
// 3.0 allows UTF-8 in the header), which NumPy writes for headers over 64
// KiB.
func TestVersions(t *testing.T) {
	for _, v := range []byte{2, 3} {
		h := "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 2), }\n"
		b := append([]byte("\x93NUMPY"), v, 0)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(h)))
		b = append(append(b, h...), 1, 0, 2, 0, 3, 0, 4, 0)
		x, err := npy.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if got := x.Float64s(); got[0] != 1 || got[1] != 3 || got[2] != 2 || got[3] != 4 {
			t.Errorf("version %d: %v, want [1 3 2 4] (Fortran order)", v, got)
		}
	}
}
