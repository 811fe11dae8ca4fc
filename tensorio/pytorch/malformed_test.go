package pytorch_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/pytorch"
)

// su is a SHORT_BINUNICODE string.
func su(s string) string { return "\x8c" + string(rune(len(s))) + s }

// rebuild is the pickle of _rebuild_tensor_v2 over storage "0" (a
// storageType of numel elements) with the given size and stride opcodes.
func rebuild(storageType string, numel byte, size, stride, grad string) string {
	return "ctorch._utils\n_rebuild_tensor_v2\n(" +
		"(" + su("storage") + "ctorch\n" + storageType + "\n" + su("0") + su("cpu") + "K" + string(rune(numel)) + "tQ" +
		"K\x00" + size + stride + grad + "ccollections\nOrderedDict\n)RtR"
}

// checkpoint returns a zip of the pickle p and storage records.
func checkpoint(p string, records map[string]int) []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.CreateHeader(&zip.FileHeader{Name: "archive/data.pkl", Method: zip.Store})
	w.Write([]byte("\x80\x02" + p + "."))
	for name, n := range records {
		w, _ := z.CreateHeader(&zip.FileHeader{Name: "archive/data/" + name, Method: zip.Store})
		w.Write(make([]byte, n))
	}
	z.Close()
	return buf.Bytes()
}

func TestMalformed(t *testing.T) {
	const (
		size23   = "K\x02K\x03\x86"
		stride31 = "K\x03K\x01\x86"
	)
	ok := checkpoint(rebuild("FloatStorage", 6, size23, stride31, "\x89"), map[string]int{"0": 24})
	v, err := pytorch.Read(bytes.NewReader(ok), int64(len(ok)))
	if x, isT := v.(*tensor.Tensor); err != nil || !isT || x.NumEl() != 6 {
		t.Fatalf("hand-made checkpoint: %v, %v", v, err)
	}
	cases := []struct {
		name string
		file []byte
		kind tensorio.ErrorKind
	}{
		{"not a zip", []byte("hello"), tensorio.Malformed},
		{"legacy", []byte("\x80\x02\x8a\x0a"), tensorio.Unsupported},
		{"no data.pkl", bytes.Replace(checkpoint("N", nil), []byte("data.pkl"), []byte("data.txt"), -1), tensorio.Malformed},
		{"record size", checkpoint(rebuild("FloatStorage", 6, size23, stride31, "\x89"), map[string]int{"0": 20}), tensorio.Malformed},
		{"missing record", checkpoint(rebuild("FloatStorage", 6, size23, stride31, "\x89"), nil), tensorio.Malformed},
		{"view past the storage", checkpoint(rebuild("FloatStorage", 6, "K\x03K\x03\x86", stride31, "\x89"), map[string]int{"0": 24}), tensorio.Malformed},
		{"size and stride lengths", checkpoint(rebuild("FloatStorage", 6, size23, "K\x01\x85", "\x89"), map[string]int{"0": 24}), tensorio.Malformed},
		{"int tensor requiring grad", checkpoint(rebuild("IntStorage", 6, size23, stride31, "\x88"), map[string]int{"0": 24}), tensorio.Malformed},
		{"complex storage", checkpoint(rebuild("ComplexFloatStorage", 6, size23, stride31, "\x89"), map[string]int{"0": 48}), tensorio.Unsupported},
		{"os.system", checkpoint("cos\nsystem\n("+su("echo hi")+"tR", nil), tensorio.Unsupported},
		{"builtins.eval", checkpoint("\x8c\x08builtins\x8c\x04eval\x93", nil), tensorio.Unsupported},
		{"INST opcode", checkpoint("(ios\nsystem\n", nil), tensorio.Unsupported},
		{"stack underflow", checkpoint("R", nil), tensorio.Malformed},
		{"unset memo", checkpoint("h\x05", nil), tensorio.Malformed},
		{"no mark", checkpoint("t", nil), tensorio.Malformed},
		{"truncated string", checkpoint("X\xff\xff\x00\x00ab", nil), tensorio.Malformed},
		{"persistent id not a storage", checkpoint(su("x")+"Q", nil), tensorio.Unsupported},
	}
	for _, c := range cases {
		_, err := pytorch.Read(bytes.NewReader(c.file), int64(len(c.file)))
		var e *tensorio.Error
		if !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("%s: got %v, want a %s-file error", c.name, err, c.kind)
		}
	}
	// a pickle without STOP: the machine runs off the end
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("archive/data.pkl")
	w.Write([]byte("\x80\x02N"))
	z.Close()
	if _, err := pytorch.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("pickle without STOP: %v", err)
	}
	if _, err := pytorch.ToStateDict(int64(3)); err == nil {
		t.Error("an int read as a state dict")
	}
}
