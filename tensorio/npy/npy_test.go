package npy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/npy"
)

// value is gen.py's value(kind, i): element i of every test array.
func value(dt tensor.DType, i int) float64 {
	switch {
	case dt == tensor.Bool:
		if i%3 == 0 {
			return 1
		}
		return 0
	case dt == tensor.Uint8:
		return float64((i * 37) % 23)
	case dt.IsInt():
		return float64((i*37)%23 - 11)
	}
	return float64(i-5) * 0.25
}

// want returns the test array of dtype dt and the given shape.
func want(dt tensor.DType, shape ...int) *tensor.Tensor {
	n := 1
	for _, s := range shape {
		n *= s
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = value(dt, i)
	}
	return tensor.FromSlice(x, append([]int{}, shape...)...).To(dt) // no shape: 0-d
}

func check(t *testing.T, name string, got *tensor.Tensor, dt tensor.DType, shape ...int) {
	t.Helper()
	if got.DType() != dt || !slices.Equal(got.Shape(), shape) {
		t.Errorf("%s: got %s %v, want %s %v", name, got.DType(), got.Shape(), dt, shape)
		return
	}
	if w := want(dt, shape...); !slices.Equal(got.Float64s(), w.Float64s()) {
		t.Errorf("%s: got %v, want %v", name, got.Float64s(), w.Float64s())
	}
}

var numpyDTypes = []tensor.DType{tensor.Bool, tensor.Uint8, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
	tensor.Float16, tensor.Float32, tensor.Float64}

// checkNumPyFiles checks the files gen.py wrote into dir.
func checkNumPyFiles(t *testing.T, dir string) {
	for _, dt := range numpyDTypes {
		for _, suffix := range []string{"", "_fortran"} {
			name := dt.String() + suffix + ".npy"
			x, err := npy.Load(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			check(t, name, x, dt, 2, 3, 4)
			if suffix != "" && x.IsContiguous() {
				t.Errorf("%s: a Fortran-order file read contiguous (copied)", name)
			}
			if f, _ := os.Open(filepath.Join(dir, name)); f != nil {
				y, err := npy.Read(f)
				f.Close()
				if err != nil {
					t.Errorf("%s: Read: %v", name, err)
				} else {
					check(t, name+" (Read)", y, dt, 2, 3, 4)
				}
			}
		}
	}
	load := func(name string) *tensor.Tensor {
		x, err := npy.Load(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return x
	}
	check(t, "bfloat16.npy", load("bfloat16.npy"), tensor.BFloat16, 2, 3, 4)
	check(t, "scalar.npy", load("scalar.npy"), tensor.Float64)
	check(t, "empty.npy", load("empty.npy"), tensor.Int32, 0, 3)
	check(t, "bigendian.npy", load("bigendian.npy"), tensor.Float32, 2, 3)
	check(t, "bigendian_i8.npy", load("bigendian_i8.npy"), tensor.Int64, 5)
	for _, name := range []string{"object.npy", "complex.npy"} {
		_, err := npy.Load(filepath.Join(dir, name))
		var e *tensorio.Error
		if !errors.As(err, &e) || e.Kind != tensorio.Unsupported {
			t.Errorf("%s: got %v, want an unsupported-file error", name, err)
		}
	}
	for _, name := range []string{"stored.npz", "compressed.npz"} {
		m, err := npy.LoadNPZ(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(m) != 3 {
			t.Errorf("%s: %d arrays, want 3", name, len(m))
		}
		check(t, name+":x", m["x"], tensor.Float32, 3, 2)
		check(t, name+":y", m["y"], tensor.Int64, 4)
		check(t, name+":z", m["z"], tensor.Bool)
	}
}

// TestNumPyFiles reads the files NumPy wrote into testdata.
func TestNumPyFiles(t *testing.T) { checkNumPyFiles(t, "testdata") }

// python returns the Python with NumPy (and PyTorch) the round-trip tests
// run, or skips the test.
func python(t *testing.T) string {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skipf("no %s with NumPy (%v): the NumPy round trips run only on the committed files in testdata", py, err)
	}
	return py
}

// TestNumPyRoundTrip writes fresh files with NumPy and reads them, then
// writes every dtype with goten and has NumPy check them.
func TestNumPyRoundTrip(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/gen.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	checkNumPyFiles(t, dir)

	out := t.TempDir()
	spec := map[string][3]any{}
	save := func(name string, x *tensor.Tensor, permuted bool) {
		if err := npy.Save(filepath.Join(out, name), x); err != nil {
			t.Fatal(err)
		}
		spec[name] = [3]any{x.DType().String(), x.Shape(), permuted}
	}
	for _, dt := range append(numpyDTypes, tensor.BFloat16) {
		save(dt.String()+".npy", want(dt, 2, 3, 4), false)
		// a permuted view: written in its row-major order
		save(dt.String()+"_t.npy", want(dt, 4, 3, 2).Permute(2, 1, 0), true)
	}
	save("scalar.npy", want(tensor.Float64), false)
	save("empty.npy", want(tensor.Int16, 3, 0), false)
	m := map[string]*tensor.Tensor{"a": want(tensor.Float32, 2, 2), "b": want(tensor.Int8, 5)}
	for _, compress := range []bool{false, true} {
		name := fmt.Sprintf("m%v.npz", compress)
		if err := npy.SaveNPZ(filepath.Join(out, name), m, compress); err != nil {
			t.Fatal(err)
		}
		spec[name] = [3]any{"", nil, false}
	}
	b, _ := json.Marshal(spec)
	os.WriteFile(filepath.Join(out, "check.json"), b, 0o644)
	if o, err := exec.Command(py, "testdata/gen.py", "--check", out).CombinedOutput(); err != nil {
		t.Fatalf("NumPy refused goten's files: %v\n%s", err, o)
	}
}

// TestRoundTrip writes every dtype and layout with goten and reads it back.
func TestRoundTrip(t *testing.T) {
	for _, dt := range dtype.All {
		for _, shape := range [][]int{{2, 3, 4}, {}, {0, 3}, {7}} {
			x := want(dt, shape...)
			var buf bytes.Buffer
			if err := npy.Write(&buf, x); err != nil {
				t.Fatal(err)
			}
			if buf.Len()%64 != (x.NumEl()*dt.Size())%64 {
				t.Errorf("%s %v: data does not start at a multiple of 64 bytes", dt, shape)
			}
			y, err := npy.Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%s %v: %v", dt, shape, err)
			}
			check(t, fmt.Sprintf("%s %v", dt, shape), y, dt, shape...)
		}
	}
	// a Fortran-order view written by goten comes back in row-major order
	x := want(tensor.Float32, 3, 4).T()
	var buf bytes.Buffer
	npy.Write(&buf, x)
	y, err := npy.Read(&buf)
	if err != nil || !slices.Equal(y.Float64s(), x.Float64s()) {
		t.Errorf("transposed view: got %v (%v), want %v", y.Float64s(), err, x.Float64s())
	}
}

// TestMapLarge opens a 1 GiB .npy file (sparse: no disk is written) and
// checks that mapping it reads none of its pages and copies nothing.
func TestMapLarge(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads resident memory from /proc (Linux)")
	}
	const n = 1 << 27 // float64s: 1 GiB
	var buf bytes.Buffer
	npy.Write(&buf, tensor.Zeros(tensor.Float64, 1<<20, 128).Narrow(0, 0, 0))
	hdr := strings.Replace(buf.String(), "(0, 128)", "(1048576, 128)", 1)
	path := filepath.Join(t.TempDir(), "big.npy")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(hdr)
	if err := f.Truncate(int64(len(hdr) + 8*n)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before := rss(t)
	x, err := npy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if grown := rss(t) - before; grown > 64<<20 {
		t.Errorf("opening a 1 GiB file grew resident memory by %d MiB: its pages were read", grown>>20)
	}
	if x.NumEl() != n || x.At(1<<20-1, 127) != 0 {
		t.Errorf("mapped tensor: %d elements, last %v", x.NumEl(), x.At(1<<20-1, 127))
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

// TestInPlace checks that View views the data in the file's bytes.
func TestInPlace(t *testing.T) {
	b, err := os.ReadFile("testdata/int32_fortran.npy")
	if err != nil {
		t.Fatal(err)
	}
	s := device.Alloc(len(b))
	copy(s.Bytes(), b)
	x, err := npy.View(s)
	if err != nil {
		t.Fatal(err)
	}
	copy(s.Bytes()[len(b)-4:], []byte{99, 0, 0, 0}) // the last element in memory: x[1, 2, 3] in Fortran order
	if got := x.At(1, 2, 3); got != 99 {
		t.Errorf("Fortran-order data is a copy: x[1, 2, 3] reads %v after the file's bytes changed", got)
	}
}
