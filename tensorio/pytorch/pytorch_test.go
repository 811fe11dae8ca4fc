package pytorch_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
	"github.com/goten-ml/goten/tensorio/pytorch"
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

func equal(t *testing.T, name string, got any, w *tensor.Tensor) {
	t.Helper()
	x, ok := got.(*tensor.Tensor)
	if !ok {
		t.Errorf("%s: a %T, want a tensor", name, got)
		return
	}
	if x.DType() != w.DType() || !slices.Equal(x.Shape(), w.Shape()) || !slices.Equal(x.Float64s(), w.Float64s()) {
		t.Errorf("%s: got %s %v %v, want %s %v %v", name, x.DType(), x.Shape(), x.Float64s(), w.DType(), w.Shape(), w.Float64s())
	}
}

func load(t *testing.T, dir, name string) any {
	t.Helper()
	v, err := pytorch.Load(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

func get(t *testing.T, d any, key any) any {
	t.Helper()
	v, ok := d.(*pytorch.Dict).Get(key)
	if !ok {
		t.Fatalf("no key %v", key)
	}
	return v
}

func checkFiles(t *testing.T, dir string) {
	d := load(t, dir, "dtypes.pt")
	for _, dt := range dtype.All {
		equal(t, dt.String(), get(t, d, dt.String()), want(dt, 2, 3, 4))
	}

	sd, err := pytorch.LoadStateDict(filepath.Join(dir, "state_dict.pt"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked"}
	if !slices.Equal(sd.Names, names) {
		t.Errorf("state dict names %v, want %v", sd.Names, names)
	}
	for i, n := range names[:4] {
		w := want(tensor.Float32, sd.Tensors[n].Shape()...).Add(tensor.Scalar(i))
		equal(t, n, sd.Tensors[n], w)
		if sd.Tensors[n].RequiresGrad() {
			t.Errorf("%s: a state dict's tensors are detached, not requiring grad", n)
		}
	}
	equal(t, "running_var", sd.Tensors["1.running_var"], tensor.Ones(tensor.Float32, 4))
	equal(t, "num_batches_tracked", sd.Tensors["1.num_batches_tracked"], tensor.ZeroDim(int64(0)))

	v := load(t, dir, "views.pt")
	base := want(tensor.Float32, 4, 5)
	views := map[string]*tensor.Tensor{
		"base": base, "t": base.T(), "rows": base.Narrow(0, 1, 2), "col": base.Select(1, 2),
		"expand": base.Select(0, 0).Expand(3, 5), "elem": base.Select(0, 2).Select(0, 3),
	}
	b := get(t, v, "base").(*tensor.Tensor)
	for n, w := range views {
		x := get(t, v, n)
		equal(t, n, x, w)
		if !x.(*tensor.Tensor).SharesStorage(b) {
			t.Errorf("%s: does not share base's storage", n)
		}
		if y := x.(*tensor.Tensor); !slices.Equal(y.Strides(), w.Strides()) || y.Offset() != w.Offset() {
			t.Errorf("%s: strides %v offset %d, want %v %d", n, y.Strides(), y.Offset(), w.Strides(), w.Offset())
		}
	}
	if get(t, v, "other").(*tensor.Tensor).SharesStorage(b) {
		t.Error("a tensor of its own storage shares base's")
	}
	b.Set(tensor.Scalar(100), 2, 3) // a write through one view is seen by the others
	if e := get(t, v, "elem").(*tensor.Tensor).Item(); e != 100 {
		t.Errorf("after a write to base, elem reads %v", e)
	}

	equal(t, "tensor.pt", load(t, dir, "tensor.pt"), want(tensor.Float64, 3, 2))
	m := load(t, dir, "misc.pt")
	equal(t, "scalar", get(t, m, "scalar"), want(tensor.Float32))
	equal(t, "empty", get(t, m, "empty"), want(tensor.Int32, 0, 4))
	l := get(t, m, "list").(*pytorch.List).Items
	equal(t, "list[0]", l[0], want(tensor.Int8, 2))
	if !slices.Equal(l[1:], []any{int64(1), 2.5, "s", nil, true}) {
		t.Errorf("list %v", l[1:])
	}
	if tu := get(t, m, "tuple").(pytorch.Tuple); len(tu) != 2 || tu[0] != int64(1) || len(tu[1].(pytorch.Tuple)) != 2 {
		t.Errorf("tuple %v", tu)
	}
	p := load(t, dir, "parameter.pt")
	equal(t, "parameter", p, want(tensor.Float32, 2))
	if !p.(*tensor.Tensor).RequiresGrad() {
		t.Error("a parameter lost requires_grad")
	}
	equal(t, "protocol 4", get(t, load(t, dir, "protocol4.pt"), "x"), want(tensor.Float16, 3))
	for _, name := range []string{"module.pt", "legacy.pt"} {
		_, err := pytorch.Load(filepath.Join(dir, name))
		var e *tensorio.Error
		if !errors.As(err, &e) || e.Kind != tensorio.Unsupported {
			t.Errorf("%s: got %v, want an unsupported-file error", name, err)
		}
	}
	// Read (storages copied, not mapped) gives the same
	f, _ := os.Open(filepath.Join(dir, "views.pt"))
	defer f.Close()
	fi, _ := f.Stat()
	r, err := pytorch.Read(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "t (Read)", get(t, r, "t"), base.T())
	if !get(t, r, "t").(*tensor.Tensor).SharesStorage(get(t, r, "col").(*tensor.Tensor)) {
		t.Error("Read: views do not share their storage")
	}
}

// TestFiles reads the checkpoints PyTorch 1.13 wrote into testdata.
func TestFiles(t *testing.T) { checkFiles(t, "testdata") }

// TestPyTorchFiles has PyTorch write fresh checkpoints and reads them.
func TestPyTorchFiles(t *testing.T) {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch").Run(); err != nil {
		t.Skipf("no %s with PyTorch (%v): checkpoints are read only from the committed files in testdata", py, err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/gen.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	checkFiles(t, dir)
}
