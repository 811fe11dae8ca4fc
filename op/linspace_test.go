package op

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// torchCase is one case of op/testdata/*_torch.json, written by
// tools/confgen/linspace_ref.py: the arguments PyTorch 1.13 got and the
// elements it returned, as float64s.
type torchCase struct {
	Start, End, Step, Base float64
	Steps, N               int
	DType                  string
	Values                 []float64
	d                      dtype.DType
}

// loadTorchCases reads the cases of testdata/file, at least 100 of them.
func loadTorchCases(t *testing.T, file string) []torchCase {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []torchCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("%s: %d cases", file, len(cases))
	}
	for i := range cases {
		d, ok := dtype.Parse(cases[i].DType)
		if !ok {
			t.Fatalf("%s: dtype %q", file, cases[i].DType)
		}
		cases[i].d = d
	}
	return cases
}

// compare reports the first element of got that differs from c's, bit
// for bit unless near allows it, and a count that differs.
func (c torchCase) compare(t *testing.T, call string, got []float64, near func(got, want float64) bool) {
	t.Helper()
	if len(got) != len(c.Values) {
		t.Errorf("%s: %d elements, want %d", call, len(got), len(c.Values))
		return
	}
	for i, want := range c.Values {
		if math.Float64bits(got[i]) != math.Float64bits(want) && (near == nil || !near(got[i], want)) {
			t.Errorf("%s: element %d is %v, want %v", call, i, got[i], want)
			return
		}
	}
}

// TestLinspaceMatchesPyTorch compares Linspace with cases PyTorch 1.13
// computed, bit for bit: every dtype, step counts below and past the
// kernel's vectorized pairs (Note [PyTorch's linspace]), among them an
// int64 linspace(0, 10, 8) that ends at 9 and a float64 one whose last
// element is not end.
func TestLinspaceMatchesPyTorch(t *testing.T) {
	for _, c := range loadTorchCases(t, "linspace_torch.json") {
		c.compare(t, fmt.Sprintf("%s linspace(%v, %v, %d)", c.DType, c.Start, c.End, c.Steps), Linspace(c.Start, c.End, c.Steps, c.d), nil)
	}
}

// TestArangeMatchesPyTorch compares ArangeFloat with float arange cases
// PyTorch 1.13 computed, bit for bit (Note [PyTorch's arange]).
func TestArangeMatchesPyTorch(t *testing.T) {
	for _, c := range loadTorchCases(t, "arange_torch.json") {
		c.compare(t, fmt.Sprintf("%s arange(%v, step %v)", c.DType, c.Start, c.Step), ArangeFloat(c.Start, c.Step, c.N, c.d), nil)
	}
}

// TestLogspaceMatchesPyTorch compares Logspace, converted to the dtype,
// with logspace cases PyTorch 1.13 computed: bit for bit but for float64,
// whose elements may differ in their last bits where math.Pow and the C
// library's pow round differently.
func TestLogspaceMatchesPyTorch(t *testing.T) {
	for _, c := range loadTorchCases(t, "logspace_torch.json") {
		got := Logspace(c.Start, c.End, c.Steps, c.Base, c.d)
		for i, x := range got {
			got[i] = dtypeValue(x, c.d)
		}
		var near func(got, want float64) bool
		if c.d == dtype.Float64 {
			near = func(got, want float64) bool { return math.Abs(got-want) <= 1e-15*math.Abs(want) }
		}
		c.compare(t, fmt.Sprintf("%s logspace(%v, %v, %d, base %v)", c.DType, c.Start, c.End, c.Steps, c.Base), got, near)
	}
}

// dtypeValue is x converted to d, as a float64: rounded to nearest even
// for floats, truncated for integers, and wrapped to d's width as x86's
// conversion through int32 or int64 does.
func dtypeValue(x float64, d dtype.DType) float64 {
	switch d {
	case dtype.Float64:
		return x
	case dtype.Float32:
		return float64(float32(x))
	case dtype.BFloat16:
		return float64(dtype.BF16FromFloat32(float32(x)).Float32())
	case dtype.Float16:
		return float64(dtype.HalfFromFloat32(float32(x)).Float32())
	case dtype.Int16:
		return float64(int16(int64(x)))
	case dtype.Int32:
		return float64(int32(int64(x)))
	}
	return math.Trunc(x)
}
