package conform

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/goten-ml/goten/internal/cases"
)

// Report counts results by suite and prints torch_runner.py's report: a
// `FAIL id: why` line per failing case as it is added, then, from
// [Report.Finish], a `suite: P passed, F failed` line per suite in the
// order suites first appeared, and last `P passed, F failed`.
type Report struct {
	w       io.Writer
	Verbose bool // also print `ok id` for passing cases
	suites  []*suiteCount
	byName  map[string]*suiteCount
	Passed  int
	Failed  int
}

type suiteCount struct {
	name           string
	passed, failed int
}

// NewReport returns a report that prints to w.
func NewReport(w io.Writer) *Report {
	return &Report{w: w, byName: map[string]*suiteCount{}}
}

// maxWhy bounds the length of a FAIL line's reasons, as in torch_runner.py.
const maxWhy = 1000

// Add records a case's result: reasons empty means it passed.
func (r *Report) Add(c *cases.Case, reasons []string) {
	s := r.byName[c.Suite]
	if s == nil {
		s = &suiteCount{name: c.Suite}
		r.byName[c.Suite] = s
		r.suites = append(r.suites, s)
	}
	if len(reasons) == 0 {
		s.passed++
		r.Passed++
		if r.Verbose {
			fmt.Fprintf(r.w, "ok %s\n", c.ID)
		}
		return
	}
	s.failed++
	r.Failed++
	fmt.Fprintf(r.w, "FAIL %s: %s\n", c.ID, truncate(strings.Join(reasons, "; "), maxWhy))
}

// Finish prints the per-suite lines and the total line.
func (r *Report) Finish() {
	for _, s := range r.suites {
		fmt.Fprintf(r.w, "%s: %d passed, %d failed\n", s.name, s.passed, s.failed)
	}
	fmt.Fprintf(r.w, "%d passed, %d failed\n", r.Passed, r.Failed)
}

// OK reports whether every case passed and at least one did.
func (r *Report) OK() bool { return r.Failed == 0 && r.Passed > 0 }

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
