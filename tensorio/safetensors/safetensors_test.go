package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/safetensors"
)

// want is gen.py's make(dt, shape): element i is value(dt, i).
func want(dt tensor.DType, shape ...int) *tensor.Tensor {
	n := 1
	for _, s := range shape {
		n *= s
	}
	x := make([]float64, n)
	for i := range x {
		switch {
		case dt == tensor.Bool:
			if i%3 == 0 {
				x[i] = 1
			} else {
				x[i] = 0
			}
		case dt == tensor.Uint8:
			x[i] = float64((i * 37) % 23)
		case dt.IsInt():
			x[i] = float64((i*37)%23 - 11)
		default:
			x[i] = float64(i-5) * 0.25
		}
	}
	return tensor.FromSlice(x, append([]int{}, shape...)...).To(dt) // no shape: 0-d
}

func check(t *testing.T, name string, got *tensor.Tensor, dt tensor.DType, shape ...int) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: missing", name)
		return
	}
	if got.DType() != dt || !slices.Equal(got.Shape(), shape) {
		t.Errorf("%s: got %s %v, want %s %v", name, got.DType(), got.Shape(), dt, shape)
		return
	}
	if w := want(dt, shape...); !slices.Equal(got.Float64s(), w.Float64s()) {
		t.Errorf("%s: got %v, want %v", name, got.Float64s(), w.Float64s())
	}
}

var names = map[string]tensor.DType{"bool": tensor.Bool, "u8": tensor.Uint8, "i8": tensor.Int8, "i16": tensor.Int16,
	"i32": tensor.Int32, "i64": tensor.Int64, "f16": tensor.Float16, "bf16": tensor.BFloat16, "f32": tensor.Float32, "f64": tensor.Float64}

func checkFiles(t *testing.T, dir string) {
	f, err := safetensors.Load(filepath.Join(dir, "all.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	for n, dt := range names {
		check(t, n, f.Tensors[n], dt, 2, 3, 4)
		if n != "f64" && f.Tensors[n].SharesStorage(f.Tensors["f64"]) {
			t.Errorf("%s: shares a storage with another tensor (Note [One storage per tensor])", n)
		}
	}
	check(t, "scalar", f.Tensors["scalar"], tensor.Float32)
	check(t, "empty", f.Tensors["empty"], tensor.Int64, 0, 5)
	if f.Metadata["format"] != "pt" || f.Metadata["source"] != "gen.py" || len(f.Metadata) != 2 {
		t.Errorf("metadata %v", f.Metadata)
	}
	if len(f.Names) != 12 || f.Names[0] != "i64" {
		t.Errorf("names %v, want the file's order", f.Names)
	}
	u, err := safetensors.Load(filepath.Join(dir, "unaligned.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	check(t, "u8", u.Tensors["u8"], tensor.Uint8, 3)
	check(t, "f32", u.Tensors["f32"], tensor.Float32, 2, 2)
	check(t, "i64", u.Tensors["i64"], tensor.Int64, 3)
	if e, err := safetensors.Load(filepath.Join(dir, "empty.safetensors")); err != nil || len(e.Tensors) != 0 {
		t.Errorf("empty file: %v, %v", e, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "all.safetensors"))
	g, err := safetensors.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	check(t, "f16 (Read)", g.Tensors["f16"], tensor.Float16, 2, 3, 4)
}

// TestFiles reads the files gen.py wrote into testdata.
func TestFiles(t *testing.T) { checkFiles(t, "testdata") }

// TestPyTorchRoundTrip has PyTorch write fresh files and read goten's.
func TestPyTorchRoundTrip(t *testing.T) {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch").Run(); err != nil {
		t.Skipf("no %s with PyTorch (%v): the PyTorch round trips run only on the committed files in testdata", py, err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/gen.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	checkFiles(t, dir)
	m := map[string]*tensor.Tensor{"scalar": want(tensor.Float64), "empty": want(tensor.Int16, 4, 0)}
	for n, dt := range names {
		m[n] = want(dt, 2, 3, 4)
	}
	path := filepath.Join(dir, "goten.safetensors")
	if err := safetensors.Save(path, m, map[string]string{"who": "goten"}); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "testdata/gen.py", "--check", path).CombinedOutput(); err != nil {
		t.Fatalf("PyTorch refused goten's file: %v\n%s", err, out)
	}
}

func TestRoundTrip(t *testing.T) {
	m := map[string]*tensor.Tensor{}
	for _, dt := range dtype.All {
		m[dt.String()] = want(dt, 3, 5)
		m[dt.String()+"_t"] = want(dt, 5, 3).T() // written in row-major order
	}
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if f.Metadata != nil {
		t.Errorf("metadata %v, want none", f.Metadata)
	}
	for n, x := range m {
		if y := f.Tensors[n]; y == nil || !slices.Equal(y.Float64s(), x.Float64s()) || !slices.Equal(y.Shape(), x.Shape()) {
			t.Errorf("%s: round trip changed it", n)
		}
	}
	if err := safetensors.Write(&buf, map[string]*tensor.Tensor{"__metadata__": want(tensor.Int8)}, nil); err == nil {
		t.Error("a tensor named __metadata__ was written")
	}
}

// file returns a safetensors file of the given header and data.
func file(header string, data int) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, data)...)
}

func TestMalformed(t *testing.T) {
	rec := func(name, dt, shape string, b, e int) string {
		return `"` + name + `":{"dtype":"` + dt + `","shape":` + shape + `,"data_offsets":[` + strconv.Itoa(b) + `,` + strconv.Itoa(e) + `]}`
	}
	cases := []struct {
		name string
		file []byte
		kind tensorio.ErrorKind
	}{
		{"short", []byte{1, 2, 3}, tensorio.Malformed},
		{"huge header", binary.LittleEndian.AppendUint64(nil, 1<<40), tensorio.Malformed},
		{"truncated header", file(`{}`, 0)[:9], tensorio.Malformed},
		{"not json", file(`{"a":`, 0), tensorio.Malformed},
		{"not an object", file(`[1]`, 0), tensorio.Malformed},
		{"unknown dtype", file(`{`+rec("a", "F7", "[1]", 0, 4)+`}`, 4), tensorio.Malformed},
		{"dtype goten lacks", file(`{`+rec("a", "U16", "[2]", 0, 4)+`}`, 4), tensorio.Unsupported},
		{"past the end", file(`{`+rec("a", "F32", "[2]", 0, 8)+`}`, 4), tensorio.Malformed},
		{"trailing bytes", file(`{`+rec("a", "F32", "[1]", 0, 4)+`}`, 8), tensorio.Malformed},
		{"shape and bytes disagree", file(`{`+rec("a", "F32", "[3]", 0, 8)+`}`, 8), tensorio.Malformed},
		{"overlap", file(`{`+rec("a", "F32", "[2]", 0, 8)+`,`+rec("b", "F32", "[1]", 4, 8)+`}`, 8), tensorio.Malformed},
		{"gap", file(`{`+rec("a", "F32", "[1]", 4, 8)+`}`, 8), tensorio.Malformed},
		{"reversed offsets", file(`{`+rec("a", "F32", "[1]", 8, 4)+`}`, 8), tensorio.Malformed},
		{"negative size", file(`{`+rec("a", "F32", "[-1]", 0, 0)+`}`, 0), tensorio.Malformed},
		{"huge shape", file(`{`+rec("a", "F32", "[4294967296,4294967296]", 0, 0)+`}`, 0), tensorio.Malformed},
		{"extra field", file(`{"a":{"dtype":"U8","shape":[],"data_offsets":[0,1],"x":1}}`, 1), tensorio.Malformed},
		{"bad metadata", file(`{"__metadata__":{"a":1}}`, 0), tensorio.Malformed},
		{"text after", file(`{} x`, 0), tensorio.Malformed},
	}
	for _, c := range cases {
		for _, how := range []string{"Read", "View"} {
			var err error
			if how == "Read" {
				_, err = safetensors.Read(bytes.NewReader(c.file))
			} else {
				_, err = safetensors.View(storage(c.file))
			}
			var e *tensorio.Error
			if !errors.As(err, &e) || e.Kind != c.kind {
				t.Errorf("%s (%s): got %v, want a %s-file error", c.name, how, err, c.kind)
			}
		}
	}
}

// TestMapLarge opens a 1 GiB file (sparse: no disk is written) and checks
// that mapping it reads none of its pages.
func TestMapLarge(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads resident memory from /proc (Linux)")
	}
	const n = 1 << 28 // float32s: 1 GiB
	var buf bytes.Buffer
	safetensors.Write(&buf, map[string]*tensor.Tensor{"x": tensor.Zeros(tensor.Float32, 0)}, nil)
	header := strings.Replace(buf.String()[8:], `"shape":[0],"data_offsets":[0,0]`, `"shape":[`+strconv.Itoa(n)+`],"data_offsets":[0,`+strconv.Itoa(4*n)+`]`, 1)
	header += strings.Repeat(" ", (8-len(header)%8)%8)
	path := filepath.Join(t.TempDir(), "big.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(header))))
	f.WriteString(header)
	if err := f.Truncate(int64(8 + len(header) + 4*n)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before := rss(t)
	g, err := safetensors.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x := g.Tensors["x"]
	if grown := rss(t) - before; grown > 64<<20 {
		t.Errorf("opening a 1 GiB file grew resident memory by %d MiB: its pages were read", grown>>20)
	}
	if x.NumEl() != n || x.At(n-1) != 0 {
		t.Errorf("mapped tensor: %d elements, last %v", x.NumEl(), x.At(n-1))
	}
}

// rss returns the process's resident memory in bytes.
func rss(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb << 10
		}
	}
	t.Skip("no VmRSS")
	return 0
}

// TestInPlace checks that View views aligned tensors in the file's bytes
// (a write to the bytes shows) and copies misaligned ones.
func TestInPlace(t *testing.T) {
	// u8 [3] at file byte 201, f32 [2 2] at 204 (aligned), i64 [3] at 220 (not)
	b, err := os.ReadFile("testdata/unaligned.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	s := storage(b)
	f, err := safetensors.View(s)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint64(b))
	if n != 193 {
		t.Fatalf("header of %d bytes: the test's offsets are wrong", n)
	}
	s.Bytes()[201] = 200                                  // u8[0]
	copy(s.Bytes()[204:], []byte{0, 0, 0, 0})             // f32[0, 0] = 0
	copy(s.Bytes()[220:], []byte{1, 0, 0, 0, 0, 0, 0, 0}) // i64[0] = 1
	if got := f.Tensors["u8"].At(0); got != 200 {
		t.Errorf("u8 (aligned) is a copy: reads %v after the file's byte changed", got)
	}
	if got := f.Tensors["f32"].At(0, 0); got != 0 {
		t.Errorf("f32 (aligned) is a copy: reads %v after the file's bytes changed", got)
	}
	if got := f.Tensors["i64"].At(0); got != -11 {
		t.Errorf("i64 (misaligned) reads %v, want its copied -11", got)
	}
	var buf bytes.Buffer
	safetensors.Write(&buf, map[string]*tensor.Tensor{"a": want(tensor.Float32, 2), "b": want(tensor.Int16, 3)}, nil)
	s = storage(buf.Bytes())
	g, err := safetensors.View(s)
	if err != nil {
		t.Fatal(err)
	}
	copy(s.Bytes()[buf.Len()-6:], []byte{7, 0, 0, 0, 0, 0}) // b[0] = 7
	if got := g.Tensors["b"].At(0); got != 7 {
		t.Errorf("a tensor Write aligned is a copy: reads %v", got)
	}
	if g.Tensors["a"].SharesStorage(g.Tensors["b"]) {
		t.Error("two tensors of a file share a storage")
	}
}
