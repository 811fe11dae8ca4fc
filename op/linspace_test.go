package op

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// TestLinspaceMatchesPyTorch compares Linspace with cases PyTorch 1.13
// computed (tools/confgen/linspace_ref.py), bit for bit: every dtype,
// step counts below and past the kernel's vectorized pairs (Note
// [PyTorch's linspace]), among them an int64 linspace(0, 10, 8) that ends
// at 9 and a float64 one whose last element is not end.
func TestLinspaceMatchesPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/linspace_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Start, End float64
		Steps      int
		DType      string
		Values     []float64
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		d, ok := dtype.Parse(c.DType)
		if !ok {
			t.Fatalf("dtype %q", c.DType)
		}
		got := Linspace(c.Start, c.End, c.Steps, d)
		if len(got) != len(c.Values) {
			t.Errorf("%s linspace(%v, %v, %d): %d elements, want %d", c.DType, c.Start, c.End, c.Steps, len(got), len(c.Values))
			continue
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(c.Values[i]) {
				t.Errorf("%s linspace(%v, %v, %d): element %d is %v, want %v", c.DType, c.Start, c.End, c.Steps, i, got[i], c.Values[i])
				break
			}
		}
	}
}

// TestArangeMatchesPyTorch compares ArangeFloat with float arange cases
// PyTorch 1.13 computed (tools/confgen/linspace_ref.py), bit for bit
// (Note [PyTorch's arange]).
func TestArangeMatchesPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/arange_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Start, Step float64
		N           int
		DType       string
		Values      []float64
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		d, ok := dtype.Parse(c.DType)
		if !ok {
			t.Fatalf("dtype %q", c.DType)
		}
		got := ArangeFloat(c.Start, c.Step, c.N, d)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(c.Values[i]) {
				t.Errorf("%s arange(%v, step %v): element %d is %v, want %v", c.DType, c.Start, c.Step, i, got[i], c.Values[i])
				break
			}
		}
	}
}

// TestLogspaceMatchesPyTorch compares Logspace, converted to the dtype,
// with logspace cases PyTorch 1.13 computed
// (tools/confgen/linspace_ref.py): bit for bit but for float64, whose
// elements may differ in their last bits where math.Pow and the C
// library's pow round differently.
func TestLogspaceMatchesPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/logspace_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Start, End, Base float64
		Steps            int
		DType            string
		Values           []float64
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		d, ok := dtype.Parse(c.DType)
		if !ok {
			t.Fatalf("dtype %q", c.DType)
		}
		for i, x := range Logspace(c.Start, c.End, c.Steps, c.Base, d) {
			got := dtypeValue(x, d)
			want := c.Values[i]
			if d == dtype.Float64 && math.Abs(got-want) <= 1e-15*math.Abs(want) || math.Float64bits(got) == math.Float64bits(want) {
				continue
			}
			t.Errorf("%s logspace(%v, %v, %d, base %v): element %d is %v, want %v", c.DType, c.Start, c.End, c.Steps, c.Base, i, got, want)
			break
		}
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
	}
	switch d {
	case dtype.Int16:
		return float64(int16(int64(x)))
	case dtype.Int32:
		return float64(int32(int64(x)))
	}
	return math.Trunc(x)
}
