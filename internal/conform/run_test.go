package conform

import (
	"strconv"
	"strings"
	"testing"

	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/tensor"
)

func mustParse(t *testing.T, line string) *cases.Case {
	t.Helper()
	c, err := cases.Parse([]byte(line))
	if err != nil {
		t.Fatalf("parse %s: %v", line, err)
	}
	c.Suite = "test"
	return c
}

// The runner must pass correct cases and report each kind of mismatch.
func TestRunDetects(t *testing.T) {
	const a = `"a": {"dtype": "float32", "shape": [2, 2], "strides": [1, 2], "offset": 1, "storage": [9, 1, 2, 3, 4]}`
	const nt = `{"nested": [{"dtype": "float32", "shape": [2], "values": [1, 2]}, {"dtype": "float32", "shape": [1], "values": [3]}]}`
	tests := []struct {
		name, line string
		want       string // a substring of the reasons; "" means the case passes
	}{
		{"storage view", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "contiguous", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [1, 3, 2, 4], "strides": [2, 1]}}}`, ""},
		{"input kept", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "t", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [1, 2, 3, 4], "strides": [2, 1], "offset": 1, "shares": "a"}}}`, ""},
		{"value", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "neg", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [-1, -3, -2, -4.5]}}}`, "element 3: got -4, want -4.5"},
		{"tolerance", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "neg", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [-1, -3, -2, -4.5]}}, "rtol": 0.2, "atol": 0}`, ""},
		{"dtype", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "neg", "args": ["a"]}],
			"expect": {"y": {"dtype": "float64", "shape": [2, 2], "values": [-1, -3, -2, -4]}}}`, "dtype float32, want float64"},
		{"shape", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "neg", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [4], "values": [-1, -3, -2, -4]}}}`, "shape [2 2], want [4]"},
		{"strides", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "t", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [1, 2, 3, 4], "strides": [1, 2]}}}`, "strides [2 1], want [1 2]"},
		{"shares", `{"id": "x", "inputs": {` + a + `}, "program": [{"out": "y", "op": "clone", "args": ["a"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2, 2], "values": [1, 3, 2, 4], "shares": "a"}}}`, "does not share storage with a"},
		{"nan", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": ["nan", "-inf"]}},
			"program": [{"out": "y", "op": "abs", "args": ["a"]}],
			"expect": {"y": {"dtype": "float64", "shape": [2], "values": ["nan", "inf"]}}}`, ""},
		{"nan mismatch", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": ["nan", 1]}},
			"program": [{"out": "y", "op": "abs", "args": ["a"]}],
			"expect": {"y": {"dtype": "float64", "shape": [2], "values": [0, 1]}}}`, "got NaN, want 0"},
		{"scalar first", `{"id": "x", "inputs": {"b": {"dtype": "int32", "shape": [2], "values": [1, 5]}},
			"program": [{"out": "y", "op": "sub", "args": [{"int": 2}, "b"]}],
			"expect": {"y": {"dtype": "int32", "shape": [2], "values": [1, -3]}}}`, ""},
		{"int exact", `{"id": "x", "inputs": {"b": {"dtype": "int64", "shape": [1], "values": [9007199254740992]}},
			"program": [{"out": "y", "op": "add", "args": ["b", {"int": 1}]}],
			"expect": {"y": {"dtype": "int64", "shape": [1], "values": [9007199254740992]}}}`, "element 0"},
		{"error", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}, "b": {"dtype": "float32", "shape": [3], "values": [1, 2, 3]}},
			"program": [{"out": "y", "op": "add", "args": ["a", "b"]}],
			"error": {"kind": "shape", "step": 0, "exact": true, "unchanged": ["a"],
			"message": "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"}}`, ""},
		{"error kind", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}, "b": {"dtype": "float32", "shape": [3], "values": [1, 2, 3]}},
			"program": [{"out": "y", "op": "add", "args": ["a", "b"]}], "error": {"kind": "dtype", "step": 0, "message": "x"}}`, "error kind shape, want dtype"},
		{"error message", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}, "b": {"dtype": "float32", "shape": [3], "values": [1, 2, 3]}},
			"program": [{"out": "y", "op": "add", "args": ["a", "b"]}], "error": {"kind": "shape", "step": 0, "exact": true, "message": "x"}}`, `want "x"`},
		{"no error", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}},
			"program": [{"out": "y", "op": "neg", "args": ["a"]}], "error": {"kind": "shape", "step": 0, "message": "x"}}`, "no error, want shape at step 0"},
		{"early error", `{"id": "x", "inputs": {"a": {"dtype": "bool", "shape": [2], "values": [true, false]}},
			"program": [{"out": "y", "op": "neg", "args": ["a"]}, {"out": "z", "op": "neg", "args": ["y"]}],
			"error": {"kind": "dtype", "step": 1, "message": "x"}}`, "step 0 (neg) raised, want the error at step 1"},
		{"unexpected error", `{"id": "x", "inputs": {"a": {"dtype": "bool", "shape": [2], "values": [true, false]}},
			"program": [{"out": "y", "op": "neg", "args": ["a"]}], "expect": {}}`, "step 0 (neg) raised: dtype error"},
		{"list result", `{"id": "x", "inputs": {"a": {"dtype": "int8", "shape": [5], "values": [1, 2, 3, 4, 5]}},
			"program": [{"out": ["p", "q", "r"], "op": "split", "args": ["a", 2]}],
			"expect": {"r": {"dtype": "int8", "shape": [1], "values": [5], "offset": 4, "shares": "a"}}}`, ""},
		{"list count", `{"id": "x", "inputs": {"a": {"dtype": "int8", "shape": [5], "values": [1, 2, 3, 4, 5]}},
			"program": [{"out": ["p", "q"], "op": "split", "args": ["a", 2]}], "expect": {}}`, "returned 3 results, want 2"},
		{"in place", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [3], "values": [1, 2, 3]}},
			"program": [{"out": "v", "op": "slice", "args": ["a", 0, 1, null]}, {"out": "w", "op": "mul_", "args": ["v", {"int": 2}]}],
			"expect": {"a": {"dtype": "float32", "shape": [3], "values": [1, 4, 6]}, "w": {"dtype": "float32", "shape": [2], "values": [4, 6], "shares": "a"}}}`, ""},
		{"out", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}, "o": {"dtype": "float64", "shape": [0], "values": []}},
			"program": [{"out": "y", "op": "add", "args": ["a", "a"], "kwargs": {"alpha": {"int": 3}, "out": "o"}}],
			"expect": {"y": {"dtype": "float64", "shape": [2], "values": [4, 8], "shares": "o"}}}`, ""},
		{"fill form", `{"id": "x", "inputs": {"a": {"dtype": "bfloat16", "shape": [3, 4000], "fill": {"a": 7, "b": 3, "m": 11, "c": 5, "d": 3}}},
			"program": [{"out": "y", "op": "to", "args": ["a", {"dtype": "float64"}]}],
			"expect": {"y": {"dtype": "float64", "shape": [3, 4000], "samples": [[0, -0.66796875], [1, 1.6640625], [11999, -1.6640625]], "sum": -0.66796875, "abs_sum": 10913.59375}}}`, ""},
		{"fill sum", `{"id": "x", "inputs": {"a": {"dtype": "int16", "shape": [3, 4000], "fill": {"a": 7, "b": 3, "m": 11, "c": 5, "d": 1}}},
			"program": [{"out": "y", "op": "abs", "args": ["a"]}],
			"expect": {"y": {"dtype": "int16", "shape": [3, 4000], "samples": [[0, 2]], "sum": 32729, "abs_sum": 32728}}}`, "sum 32728, want 32729"},
		{"missing op", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}},
			"program": [{"out": "y", "op": "frobnicate", "args": ["a"]}], "expect": {}}`, "not implemented: op frobnicate"},
		{"missing kwarg", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}},
			"program": [{"out": "y", "op": "neg", "args": ["a"], "kwargs": {"frob": 1}}], "expect": {}}`, "not implemented: neg: frob="},
		{"grad", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": [1, 2], "requires_grad": true}},
			"program": [{"out": "y", "op": "mul", "args": ["a", "a"]}, {"out": "s", "op": "sum", "args": ["y"]}], "expect": {},
			"grad": {"of": "s", "seed": null, "wrt": ["a"], "expect": {"a": {"dtype": "float64", "shape": [2], "values": [2, 4]}}}}`, ""},
		{"wrong grad", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": [1, 2], "requires_grad": true}},
			"program": [{"out": "y", "op": "mul", "args": ["a", "a"]}, {"out": "s", "op": "sum", "args": ["y"]}], "expect": {},
			"grad": {"of": "s", "seed": null, "wrt": ["a"], "expect": {"a": {"dtype": "float64", "shape": [2], "values": [2, 5]}}}}`, "grad of a"},
		{"grad where none flows", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": [1, 2], "requires_grad": true},
			"b": {"dtype": "float64", "shape": [2], "values": [1, 2], "requires_grad": true}},
			"program": [{"out": "s", "op": "sum", "args": ["a"]}], "expect": {},
			"grad": {"of": "s", "seed": null, "wrt": ["a", "b"], "expect": {"a": {"dtype": "float64", "shape": [2], "values": [1, 1]}, "b": {"dtype": "float64", "shape": [2], "values": [1, 1]}}}}`, "grad of b: none, want one"},
		{"backward must fail", `{"id": "x", "inputs": {"a": {"dtype": "float64", "shape": [2], "values": [1, 2], "requires_grad": true}},
			"program": [{"out": "s", "op": "sum", "args": ["a"]}], "error": {"kind": "autograd", "step": 1, "message": ""},
			"grad": {"of": "s", "seed": null, "wrt": ["a"]}}`, "backward raised nothing"},
		{"bare float", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}},
			"program": [{"out": "y", "op": "add", "args": ["a", 1.5]}], "expect": {}}`, "bad case"},
		{"unknown name", `{"id": "x", "inputs": {}, "program": [{"out": "y", "op": "neg", "args": ["zz"]}], "expect": {}}`, `bad case: unknown name "zz"`},
		{"unbound", `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": [1, 2]}},
			"program": [{"out": "y", "op": "neg", "args": ["a"]}], "expect": {"z": {"dtype": "float32", "shape": [], "values": [1]}}}`, "z: not bound"},
		{"nested", `{"id": "x", "inputs": {"n": ` + nt + `}, "program": [{"out": "y", "op": "neg", "args": ["n"]}],
			"expect": {"y": {"nested": [{"dtype": "float32", "shape": [2], "values": [-1, -2]}, {"dtype": "float32", "shape": [1], "values": [-3]}]}}}`, ""},
		{"nested value", `{"id": "x", "inputs": {"n": ` + nt + `}, "program": [{"out": "y", "op": "neg", "args": ["n"]}],
			"expect": {"y": {"nested": [{"dtype": "float32", "shape": [2], "values": [-1, -2]}, {"dtype": "float32", "shape": [1], "values": [3]}]}}}`, "y[1]: element 0: got -3, want 3"},
		{"nested count", `{"id": "x", "inputs": {"n": ` + nt + `}, "program": [{"out": "y", "op": "neg", "args": ["n"]}],
			"expect": {"y": {"nested": [{"dtype": "float32", "shape": [2], "values": [-1, -2]}]}}}`, "2 components, want 1"},
		{"nested want dense", `{"id": "x", "inputs": {"n": ` + nt + `}, "program": [{"out": "y", "op": "neg", "args": ["n"]}],
			"expect": {"y": {"dtype": "float32", "shape": [2], "values": [-1, -2]}}}`, "want a tensor, got a nested tensor"},
		{"nested grad", `{"id": "x", "inputs": {"n": {"nested": [{"dtype": "float64", "shape": [2], "values": [1, 2]}], "requires_grad": true}},
			"program": [{"out": "y", "op": "mul", "args": ["n", "n"]}], "expect": {},
			"grad": {"of": "y", "seed": {"nested": [{"dtype": "float64", "shape": [2], "values": [1, 10]}]}, "wrt": ["n"],
			"expect": {"n": {"nested": [{"dtype": "float64", "shape": [2], "values": [2, 41]}]}}}}`, "grad of n[0]: element 1: got 40, want 41"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(Run(mustParse(t, tt.line), tensor.CPU), "; ")
			switch {
			case tt.want == "" && got != "":
				t.Errorf("want a pass, got %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("reasons %q, want them to contain %q", got, tt.want)
			}
		})
	}
}

func TestSnapshotSame(t *testing.T) {
	c := mustParse(t, `{"id": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "values": ["nan", 1]}}, "program": [], "expect": {}}`)
	a, err := buildTensor(c.Inputs[0].JSON, tensor.CPU)
	if err != nil {
		t.Fatal(err)
	}
	s := takeSnapshot(a)
	if !s.same(takeSnapshot(a)) {
		t.Error("a snapshot differs from itself (NaN must equal NaN)")
	}
	a.Fill(tensor.Scalar(0))
	if s.same(takeSnapshot(a)) {
		t.Error("a snapshot equals one of changed values")
	}
}

func TestReportFormat(t *testing.T) {
	var b strings.Builder
	r := NewReport(&b)
	r.Add(&cases.Case{ID: "s/a/000", Suite: "s"}, nil)
	r.Add(&cases.Case{ID: "s/a/001", Suite: "s"}, []string{"one", "two"})
	r.Add(&cases.Case{ID: "u/b/000", Suite: "u"}, nil)
	r.Finish()
	want := "FAIL s/a/001: one; two\ns: 1 passed, 1 failed\nu: 1 passed, 0 failed\n2 passed, 1 failed\n"
	if b.String() != want {
		t.Errorf("report\n%s\nwant\n%s", b.String(), want)
	}
	if r.OK() {
		t.Error("OK with a failure")
	}
}

func TestRunPanic(t *testing.T) {
	ops["test_boom"] = func(c *call) result {
		var s []int
		_ = s[c.intArg(0, "i")]
		return result{}
	}
	defer delete(ops, "test_boom")
	c := mustParse(t, `{"id": "x", "inputs": {}, "program": [{"out": "y", "op": "test_boom", "args": [3]}], "expect": {}}`)
	got := strings.Join(Run(c, tensor.CPU), "; ")
	if !strings.Contains(got, "step 0 (test_boom): panicked: runtime error: index out of range") ||
		!strings.Contains(got, "conform/run_test.go:") {
		t.Errorf("reasons %q", got)
	}
}

// TestBFloat16NaNSigns: a bfloat16 storage holds NaN as torch_runner's
// conversion from float64 writes it, sign bit set in the first n - n mod
// 16 elements and clear in the rest (PyTorch 1.13 prints these patterns for
// torch.tensor([nan]*n, dtype=torch.float64).to(torch.bfloat16)).
func TestBFloat16NaNSigns(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{15, strings.Repeat("+", 15)}, {20, strings.Repeat("-", 16) + "++++"}, {33, strings.Repeat("-", 32) + "+"}} {
		vals := strings.TrimSuffix(strings.Repeat(`"nan", `, c.n), ", ")
		cs := mustParse(t, `{"id": "x", "inputs": {"a": {"dtype": "bfloat16", "shape": [`+strconv.Itoa(c.n)+`], "values": [`+vals+`]}}, "program": [], "expect": {}}`)
		a, err := buildTensor(cs.Inputs[0].JSON, tensor.CPU)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, neg := range tensor.ToSlice[bool](a.Signbit()) {
			got += map[bool]string{true: "-", false: "+"}[neg]
		}
		if got != c.want {
			t.Errorf("%d NaNs: signs %s, want %s", c.n, got, c.want)
		}
	}
}
