package dtype

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// promotionFile holds PyTorch's own answers, written by
// testdata/gen_promotion.py, so that the tests need no Python.
const promotionFile = "testdata/promotion.json"

type promotionTables struct {
	Torch      string              `json:"torch"`
	Promote    [][3]string         `json:"promote"`
	CanCast    [][3]any            `json:"can_cast"`
	ResultType []resultTypeRowJSON `json:"result_type"`
}

// resultTypeRowJSON is [[operand, ...], result].
type resultTypeRowJSON [2]json.RawMessage

// operand is one input to a ResultState, as ResultState.Update takes it.
type operand struct {
	d       DType
	ndim    int
	wrapped bool
}

// loadPromotion reads the PyTorch tables and fails the test if the file is
// missing, malformed or names a dtype goten does not know.
func loadPromotion(t *testing.T) promotionTables {
	t.Helper()
	b, err := os.ReadFile(promotionFile)
	if err != nil {
		t.Fatal(err)
	}
	var tab promotionTables
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatalf("%s: %v", promotionFile, err)
	}
	return tab
}

// mustParse is Parse for names from the PyTorch tables, which must all be
// goten dtypes: a name goten cannot parse is a table goten does not cover.
func mustParse(t *testing.T, s string) DType {
	t.Helper()
	d, ok := Parse(s)
	if !ok {
		t.Fatalf("%s: unknown dtype %q", promotionFile, s)
	}
	return d
}

// parseOperand maps the generator's operand spelling to an Update call: a
// tensor "int8/1" or "int8/0" is that dtype with that many dims; a Python
// scalar 1.5, 2 or True is, as in goten, a wrapped float64, int64 or bool.
func parseOperand(t *testing.T, s string) operand {
	t.Helper()
	switch s {
	case "1.5":
		return operand{Float64, 0, true}
	case "2":
		return operand{Int64, 0, true}
	case "True":
		return operand{Bool, 0, true}
	}
	name, dims, ok := strings.Cut(s, "/")
	if !ok || (dims != "0" && dims != "1") {
		t.Fatalf("%s: bad operand %q", promotionFile, s)
	}
	return operand{mustParse(t, name), int(dims[0] - '0'), false}
}

func (o operand) String() string {
	if o.wrapped {
		return fmt.Sprintf("scalar %v", o.d)
	}
	return fmt.Sprintf("%v/%d", o.d, o.ndim)
}

// resultOf runs a fresh ResultState over ops in the order given.
func resultOf(ops []operand) DType {
	var st ResultState
	for _, o := range ops {
		st.Update(o.d, o.ndim, o.wrapped)
	}
	return st.Result()
}

// TestPromoteMatchesTorch checks Promote against torch.promote_types on all
// 100 ordered pairs, and that the table really has all of them.
func TestPromoteMatchesTorch(t *testing.T) {
	tab := loadPromotion(t)
	seen := map[[2]DType]bool{}
	for _, r := range tab.Promote {
		a, b, want := mustParse(t, r[0]), mustParse(t, r[1]), mustParse(t, r[2])
		seen[[2]DType{a, b}] = true
		if got := Promote(a, b); got != want {
			t.Errorf("Promote(%v, %v) = %v, torch.promote_types gives %v", a, b, got, want)
		}
	}
	if len(seen) != len(All)*len(All) {
		t.Errorf("%s covers %d of the %d pairs", promotionFile, len(seen), len(All)*len(All))
	}
}

// TestCanCastMatchesTorch checks CanCast against torch.can_cast on all 100
// ordered pairs.
func TestCanCastMatchesTorch(t *testing.T) {
	tab := loadPromotion(t)
	seen := map[[2]DType]bool{}
	for _, r := range tab.CanCast {
		from, _ := r[0].(string)
		to, _ := r[1].(string)
		want, ok := r[2].(bool)
		if !ok {
			t.Fatalf("%s: bad can_cast row %v", promotionFile, r)
		}
		a, b := mustParse(t, from), mustParse(t, to)
		seen[[2]DType{a, b}] = true
		if got := CanCast(a, b); got != want {
			t.Errorf("CanCast(%v, %v) = %v, torch.can_cast gives %v", a, b, got, want)
		}
	}
	if len(seen) != len(All)*len(All) {
		t.Errorf("%s covers %d of the %d pairs", promotionFile, len(seen), len(All)*len(All))
	}
}

// TestResultStateMatchesTorch checks ResultState against PyTorch's common
// dtype for every operand (a dimensioned tensor, a 0-dim tensor or a wrapped
// scalar of each category), every ordered pair and every multiset of three.
// Each row is replayed in every order of its operands: PyTorch's answer does
// not depend on the order (the generator checks that), so neither may goten's.
func TestResultStateMatchesTorch(t *testing.T) {
	tab := loadPromotion(t)
	counts := map[int]int{}
	for _, r := range tab.ResultType {
		var specs []string
		var wantName string
		if err := json.Unmarshal(r[0], &specs); err != nil {
			t.Fatalf("%s: %v", promotionFile, err)
		}
		if err := json.Unmarshal(r[1], &wantName); err != nil {
			t.Fatalf("%s: %v", promotionFile, err)
		}
		want := mustParse(t, wantName)
		ops := make([]operand, len(specs))
		for i, s := range specs {
			ops[i] = parseOperand(t, s)
		}
		counts[len(ops)]++
		permute(ops, func(p []operand) {
			if got := resultOf(p); got != want {
				t.Errorf("result type of %v = %v, PyTorch gives %v", p, got, want)
			}
		})
	}
	// 23 operand kinds (10 dtypes × 2 ranks, 3 scalars): all of them alone,
	// all 529 ordered pairs, all 2300 multisets of three less the 3 the
	// generator cannot ask PyTorch about.
	if counts[1] != 23 || counts[2] != 23*23 || counts[3] != 2300-3 {
		t.Errorf("%s has %v rows by operand count", promotionFile, counts)
	}
}

// permute calls fn with every ordering of ops (Heap's algorithm); ops is
// permuted in place and restored to some ordering of the same elements.
func permute(ops []operand, fn func([]operand)) {
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			fn(ops)
			return
		}
		gen(k - 1)
		for i := 0; i < k-1; i++ {
			if k%2 == 0 {
				ops[i], ops[k-1] = ops[k-1], ops[i]
			} else {
				ops[0], ops[k-1] = ops[k-1], ops[0]
			}
			gen(k - 1)
		}
	}
	gen(len(ops))
}
