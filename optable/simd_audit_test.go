package optable

import (
	"sort"
	"strings"
	"testing"

	"github.com/goten-ml/goten/dtype"
)

// Note [SIMD audit]
// Issue 12 asks for a vectorised kernel for every unary and binary float
// op of the table at float32 and float64, and for every integer
// arithmetic, comparison and bitwise op at every integer width. The audit
// walks the table: a pointwise op of arity 1 or 2 with a loop over a float
// dtype must name a SIMD family (Unary, Binary or Arith) whose dtypes hold
// float32 and float64 (Arith's run both; an empty Types is float32 alone);
// one with a loop over the integers must name a Unary or Binary family
// whose Types hold every integer width. simdNoSense lists the ops where a
// kernel makes no sense; simdTodo the gaps not yet filled, so that the list
// shrinks as kernels land (a listed op that has its kernel fails the test,
// so the list cannot go stale).

// simdNoSense lists the ops for which no SIMD kernel is planned, each with
// the reason.
var simdNoSense = map[string]string{
	// integer division: x86 has no vector integer divide, and the float
	// route is not exact for 64-bit operands
	"DivTrunc/int": "no vector integer division",
	"DivFloor/int": "no vector integer division",
	"Remainder":    "no vector integer division; the float loops call math.Mod-like helpers rarely on hot paths",
	"Fmod":         "no vector integer division; float fmod is an exact long division (math.Mod)",
	// the float versions of the division modes round one vector quotient
	// and are not on any workload
	"DivTrunc/float32": "trunc(a/b): composite of the vectorised div and trunc",
	"DivTrunc/float64": "trunc(a/b): composite of the vectorised div and trunc",
	"DivFloor/float32": "floor division with Python's sign rules: composite, not on any workload",
	"DivFloor/float64": "floor division with Python's sign rules: composite, not on any workload",
	// predicates into bool whose loops are a compare the compiler already
	// turns into a branch-free byte store
	"LogicalNot": "x == 0 into bool: memory-bound, the scalar loop runs at copy speed",
	"IsNan":      "predicate into bool, memory-bound",
	"IsInf":      "predicate into bool, memory-bound",
	"IsFinite":   "predicate into bool, memory-bound",
	"Signbit":    "predicate into bool, memory-bound",
	"LogicalAnd": "logical op into bool, memory-bound",
	"LogicalOr":  "logical op into bool, memory-bound",
	"LogicalXor": "logical op into bool, memory-bound",
	// PyTorch computes these composites through abs and div
	"Softsign": "PyTorch's composite x/(1+|x|), on no workload",
}

// simdTodo lists the gaps not yet filled (issue 12): remove an entry when
// its kernel lands.
var simdTodo = map[string]bool{}

// simdGaps returns the audit's gaps: "Op/float32", "Op/float64",
// "Op/int" entries for the missing kernels.
func simdGaps() []string {
	var gaps []string
	for _, op := range Ops[1:] {
		if op.Kind != Pointwise || op.Arity > 2 || op.Impl != nil {
			continue
		}
		var loops DTypes
		for _, l := range op.Loops {
			loops |= l.Types
		}
		s := op.SIMD
		has := s.Types
		if has == 0 && (s.Unary != "" || s.Binary != "") {
			has = Of(dtype.Float32)
		}
		if s.Arith != "" {
			has |= Of(dtype.Float32, dtype.Float64)
		}
		if loops&Floats != 0 {
			for _, d := range []dtype.DType{dtype.Float32, dtype.Float64} {
				if !has.Has(d) {
					gaps = append(gaps, op.Go+"/"+d.String())
				}
			}
		}
		if loops&Ints != 0 && has&Ints != Ints {
			gaps = append(gaps, op.Go+"/int")
		}
	}
	sort.Strings(gaps)
	return gaps
}

// TestSIMDAudit is the audit of Note [SIMD audit].
func TestSIMDAudit(t *testing.T) {
	var missing []string
	todo := map[string]bool{}
	for _, g := range simdGaps() {
		op := g[:strings.IndexByte(g, '/')]
		switch {
		case simdNoSense[g] != "" || simdNoSense[op] != "":
		case simdTodo[g]:
			todo[g] = true
		default:
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		t.Errorf("ops without a SIMD kernel (add one, or list them in simdTodo or, with a reason, simdNoSense):\n%s", strings.Join(missing, "\n"))
	}
	for g := range simdTodo {
		if !todo[g] {
			t.Errorf("simdTodo lists %s, which has its kernel now (or is no op): remove it", g)
		}
	}
	t.Logf("%d gaps left to fill: %v", len(todo), keys(todo))
}

func keys(m map[string]bool) []string {
	var r []string
	for k := range m {
		r = append(r, k)
	}
	sort.Strings(r)
	return r
}
