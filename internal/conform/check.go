package conform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/tensor"
)

// tolerance is an (rtol, atol) pair.
type tolerance struct{ rtol, atol float64 }

// defaultTol gives the tolerances by result dtype where the case gives none (FORMAT.md).
var defaultTol = map[dtype.DType]tolerance{
	dtype.Float64:  {1e-7, 1e-7},
	dtype.Float32:  {1.3e-5, 1e-5},
	dtype.Float16:  {1e-3, 1e-3},
	dtype.BFloat16: {1.6e-2, 1e-2},
}

// tolFor returns the tolerance of a result of dtype dt: the case's for
// floats where it gives one, else the default; integers and bools compare exactly.
func tolFor(c *cases.Case, dt dtype.DType) tolerance {
	if !dt.IsFloat() {
		return tolerance{}
	}
	if c.Rtol != nil {
		return tolerance{*c.Rtol, *c.Atol}
	}
	return defaultTol[dt]
}

// checkResult compares a value with an expected RESULT and returns the
// reasons it differs (none: it matches).
func checkResult(c *cases.Case, got *tensor.Tensor, want json.RawMessage, env map[string]*tensor.Tensor, where string) []string {
	var w tensorJSON
	if err := json.Unmarshal(want, &w); err != nil {
		panic(badf("RESULT %s: %v", where, err))
	}
	if !cases.IsNull(w.Nested) {
		return []string{where + ": want a nested tensor, got a tensor"}
	}
	dt, err := parseDType(w.DType)
	if err != nil {
		panic(err)
	}
	if got.DType() != dt {
		return []string{fmt.Sprintf("%s: dtype %v, want %v", where, got.DType(), dt)}
	}
	if !equalInts(got.Shape(), w.Shape) {
		return []string{fmt.Sprintf("%s: shape %v, want %v", where, got.Shape(), w.Shape)}
	}
	var reasons []string
	if w.Strides != nil {
		st := got.Strides()
		for d, size := range got.Shape() {
			if size > 1 && (d >= len(w.Strides) || st[d] != w.Strides[d]) {
				reasons = append(reasons, fmt.Sprintf("%s: strides %v, want %v", where, st, w.Strides))
				break
			}
		}
	}
	if w.Shares != nil {
		if other, ok := env[*w.Shares]; !ok || !got.SharesStorage(other) {
			reasons = append(reasons, fmt.Sprintf("%s: does not share storage with %s", where, *w.Shares))
		}
	}
	if w.Offset != nil && got.Offset() != *w.Offset {
		reasons = append(reasons, fmt.Sprintf("%s: storage offset %d, want %d", where, got.Offset(), *w.Offset))
	}
	tol := tolFor(c, dt)
	flat := read(got)
	if !cases.IsNull(w.Values) {
		vals, err := decodeValues(w.Values, dt)
		if err != nil {
			panic(err)
		}
		if vals.len() != flat.len() {
			return append(reasons, fmt.Sprintf("%s: %d elements, want %d", where, flat.len(), vals.len()))
		}
		if why := compareValues(flat, vals, nil, dt, tol); why != "" {
			reasons = append(reasons, where+": "+why)
		}
		return reasons
	}
	if w.Samples == nil {
		panic(badf("RESULT %s has neither values nor samples", where))
	}
	return append(reasons, checkSamples(flat, w, dt, tol, where)...)
}

// compareValues checks got (at the indices idx, or all of it when idx is
// nil) against want elementwise: |got − want| ≤ atol + rtol·|want| for
// floats, NaN equal to NaN, infinities equal only to themselves; integers
// and bools exactly. It returns the first mismatch and their count, or "".
func compareValues(got, want elems, idx []int, dt dtype.DType, tol tolerance) string {
	at := func(k int) int {
		if idx != nil {
			return idx[k]
		}
		return k
	}
	bad, first := 0, -1
	for k := range want.len() {
		g := at(k)
		var ok bool
		if dt.IsFloat() {
			gv, wv := got.f[g], want.f[k]
			ok = gv == wv || (math.IsNaN(gv) && math.IsNaN(wv)) ||
				(!math.IsInf(wv, 0) && !math.IsNaN(wv) && math.Abs(gv-wv) <= tol.atol+tol.rtol*math.Abs(wv))
		} else {
			ok = got.i[g] == want.i[k]
		}
		if !ok {
			if bad == 0 {
				first = k
			}
			bad++
		}
	}
	if bad == 0 {
		return ""
	}
	g := at(first)
	return fmt.Sprintf("element %d: got %s, want %s (%d mismatches)", g, format(got, g, dt), format(want, first, dt), bad)
}

func format(e elems, k int, dt dtype.DType) string {
	switch {
	case dt == dtype.Bool:
		return strconv.FormatBool(e.i[k] != 0)
	case dt.IsFloat():
		return strconv.FormatFloat(e.f[k], 'g', -1, 64)
	}
	return strconv.FormatInt(e.i[k], 10)
}

// checkSamples checks the large-result form: sampled elements, plus the sum
// and the sum of absolute values of all elements. Float sums pass when
// |got − want| ≤ n·atol + rtol·abs_sum; integer and bool sums compare exactly.
func checkSamples(flat elems, w tensorJSON, dt dtype.DType, tol tolerance, where string) []string {
	var reasons []string
	idx := make([]int, len(w.Samples))
	vals := make([]json.RawMessage, len(w.Samples))
	for k, s := range w.Samples {
		var pair []json.RawMessage
		if err := json.Unmarshal(s, &pair); err != nil || len(pair) != 2 {
			panic(badf("RESULT %s: samples are [index, value] pairs", where))
		}
		i, err := strconv.Atoi(string(pair[0]))
		if err != nil || i < 0 || i >= flat.len() {
			return []string{fmt.Sprintf("%s: sample index %s outside %d elements", where, pair[0], flat.len())}
		}
		idx[k], vals[k] = i, pair[1]
	}
	want, err := decodeList(vals, dt)
	if err != nil {
		panic(err)
	}
	if why := compareValues(flat, want, idx, dt, tol); why != "" {
		reasons = append(reasons, where+": sample "+why)
	}
	n := flat.len()
	if dt.IsFloat() {
		var sum, abs float64
		for _, x := range flat.f {
			sum += x
			abs += math.Abs(x)
		}
		wantAbs, err := decodeFloat(w.AbsSum)
		if err != nil {
			panic(err)
		}
		allowed := float64(n)*tol.atol + tol.rtol*wantAbs
		for _, s := range []struct {
			key  string
			got  float64
			want json.RawMessage
		}{{"sum", sum, w.Sum}, {"abs_sum", abs, w.AbsSum}} {
			wv, err := decodeFloat(s.want)
			if err != nil {
				panic(err)
			}
			if !(s.got == wv || (math.IsNaN(s.got) && math.IsNaN(wv)) || math.Abs(s.got-wv) <= allowed) {
				reasons = append(reasons, fmt.Sprintf("%s: %s %v, want %v", where, s.key, s.got, wv))
			}
		}
		return reasons
	}
	var sum, abs int64
	for _, x := range flat.i {
		sum += x
		abs += max(x, -x)
	}
	for _, s := range []struct {
		key  string
		got  int64
		want json.RawMessage
	}{{"sum", sum, w.Sum}, {"abs_sum", abs, w.AbsSum}} {
		wv, err := strconv.ParseInt(string(s.want), 10, 64)
		if err != nil {
			panic(badf("RESULT %s: %s must be an integer, got %s", where, s.key, s.want))
		}
		if s.got != wv {
			reasons = append(reasons, fmt.Sprintf("%s: %s %d, want %d", where, s.key, s.got, wv))
		}
	}
	return reasons
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// snapshot is a tensor's dtype, shape and elements before a step that must leave it unchanged.
type snapshot struct {
	dt    dtype.DType
	shape []int
	vals  elems
}

func takeSnapshot(t *tensor.Tensor) snapshot {
	return snapshot{t.DType(), t.Shape(), read(t)}
}

// same reports whether two snapshots are equal: same dtype, shape and values, NaN equal to NaN.
func (s snapshot) same(o snapshot) bool {
	if s.dt != o.dt || !equalInts(s.shape, o.shape) || s.vals.len() != o.vals.len() {
		return false
	}
	for k := range s.vals.f {
		a, b := s.vals.f[k], o.vals.f[k]
		if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			return false
		}
	}
	for k := range s.vals.i {
		if s.vals.i[k] != o.vals.i[k] {
			return false
		}
	}
	return true
}
