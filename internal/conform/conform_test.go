package conform

import (
	"bufio"
	"os"
	"strings"
	"testing"

	_ "github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/tensor"
)

const (
	casesDir    = "../../testdata/conformance"
	gapsFile    = "../../testdata/conformance/KNOWN_GAPS"
	variantsDir = "../../testdata/conformance-variants"
	variantGaps = "../../testdata/conformance-variants/KNOWN_GAPS"
	variants2   = "../../testdata/conformance-variants2"
	variant2Gap = "../../testdata/conformance-variants2/KNOWN_GAPS"
	variants3   = "../../testdata/conformance-variants3"
	variant3Gap = "../../testdata/conformance-variants3/KNOWN_GAPS"
	variants4   = "../../testdata/conformance-variants4"
	variant4Gap = "../../testdata/conformance-variants4/KNOWN_GAPS"
	variants5   = "../../testdata/conformance-variants5"
	variant5Gap = "../../testdata/conformance-variants5/KNOWN_GAPS"
	variants6   = "../../testdata/conformance-variants6"
	variant6Gap = "../../testdata/conformance-variants6/KNOWN_GAPS"
	variants7   = "../../testdata/conformance-variants7"
	variant7Gap = "../../testdata/conformance-variants7/KNOWN_GAPS"
	gapSuite    = "suite"
	gapPrefix   = "prefix"
	gapOp       = "op"
)

// gap is one entry of KNOWN_GAPS.
type gap struct{ kind, name string }

func (g gap) String() string { return g.kind + " " + g.name }

func (g gap) covers(c *cases.Case) bool {
	switch g.kind {
	case gapSuite:
		return c.Suite == g.name
	case gapPrefix:
		return strings.HasPrefix(c.ID, g.name)
	}
	for _, op := range c.Ops() {
		if op == g.name {
			return true
		}
	}
	return false
}

// readGaps reads KNOWN_GAPS: `suite NAME`, `prefix PREFIX` or `op NAME` per
// line, with `#` comments and blank lines.
func readGaps(t *testing.T, path string) []gap {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gaps []gap
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 2 || (fs[0] != gapSuite && fs[0] != gapPrefix && fs[0] != gapOp) {
			t.Fatalf("%s:%d: want `suite NAME`, `prefix PREFIX` or `op NAME`, got %q", path, n, sc.Text())
		}
		gaps = append(gaps, gap{fs[0], fs[1]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gaps
}

// TestConformance runs every case under testdata/conformance. A failing case
// fails the test unless KNOWN_GAPS covers it (its suite, an id prefix or an
// op it uses: features of later issues); a listed gap whose cases all pass is
// logged, to be removed from the list.
func TestConformance(t *testing.T) {
	t.Parallel()
	runConformance(t, casesDir, gapsFile, tensor.CPU, nil)
}

// TestConformanceVariants runs the variant cases (tools/confgen: the public
// cases with other values, dtypes, layouts, dims and sizes, expectations
// computed by PyTorch), with their own known gaps: PyTorch quirks goten
// does not copy.
func TestConformanceVariants(t *testing.T) {
	t.Parallel()
	runConformance(t, variantsDir, variantGaps, tensor.CPU, nil)
}

// TestConformanceVariants2 runs the second variant set (fresh seeds of
// tools/confgen, merged by merge.py) on the CPU backend.
func TestConformanceVariants2(t *testing.T) {
	t.Parallel()
	runConformance(t, variants2, variant2Gap, tensor.CPU, nil)
}

// TestConformanceVariants3 runs the third variant set (more fresh seeds,
// and the rule matrices of tools/confgen/rules.py) on the CPU backend.
func TestConformanceVariants3(t *testing.T) {
	t.Parallel()
	runConformance(t, variants3, variant3Gap, tensor.CPU, nil)
}

// TestConformanceVariants4 runs the fourth variant set (gen.py seed 127
// on the suites with the most rules) on the CPU backend.
func TestConformanceVariants4(t *testing.T) {
	t.Parallel()
	runConformance(t, variants4, variant4Gap, tensor.CPU, nil)
}

// TestConformanceVariants5 runs the fifth variant set (gen.py seed 137
// on the same suites as the fourth) on the CPU backend.
func TestConformanceVariants5(t *testing.T) {
	t.Parallel()
	runConformance(t, variants5, variant5Gap, tensor.CPU, nil)
}

// TestConformanceVariants6 runs the sixth variant set (gen.py seed 139
// on the same suites) on the CPU backend.
func TestConformanceVariants6(t *testing.T) {
	t.Parallel()
	runConformance(t, variants6, variant6Gap, tensor.CPU, nil)
}

// TestConformanceVariants7 runs the seventh variant set (gen.py seeds
// 149 to 181, losses and indexing) on the CPU backend.
func TestConformanceVariants7(t *testing.T) {
	t.Parallel()
	runConformance(t, variants7, variant7Gap, tensor.CPU, nil)
}

// TestConformanceRef runs the same cases on the reference backend, the
// oracle, with every tensor on the Ref device: every backend passes one
// suite (the large cases are left to the fast backend, whose scalar twin
// would take minutes on them). It runs in parallel with the CPU's tests,
// each op on its own device's backend (Note [Backend per device] in
// package kernel).
func TestConformanceRef(t *testing.T) {
	t.Parallel()
	notLarge := func(c *cases.Case) bool { return c.Suite != "large" }
	refDev := tensor.Device{Kind: device.Ref}
	runConformance(t, casesDir, gapsFile, refDev, notLarge)
	runConformance(t, variantsDir, variantGaps, refDev, notLarge)
}

func runConformance(t *testing.T, dir, gapsPath string, dev tensor.Device, keep func(*cases.Case) bool) {
	gaps := readGaps(t, gapsPath)
	cases, err := cases.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	var summary strings.Builder
	report := NewReport(&summary)
	covered := map[gap]int{} // cases a gap covers
	failing := map[gap]int{} // of which fail
	unexpected := 0
	for _, c := range cases {
		if keep != nil && !keep(c) {
			continue
		}
		reasons := Run(c, dev)
		report.Add(c, reasons)
		known := false
		for _, g := range gaps {
			if g.covers(c) {
				known = true
				covered[g]++
				if len(reasons) > 0 {
					failing[g]++
				}
			}
		}
		if len(reasons) > 0 && !known {
			unexpected++
			t.Errorf("FAIL %s: %s", c.ID, truncate(strings.Join(reasons, "; "), maxWhy))
		}
	}
	for _, g := range gaps {
		switch {
		case covered[g] == 0:
			t.Logf("known gap %q covers no case", g)
		case failing[g] == 0:
			t.Logf("known gap %q now passes entirely (%d cases): remove it from KNOWN_GAPS", g, covered[g])
		}
	}
	report.Finish()
	lines := strings.Split(strings.TrimSpace(summary.String()), "\n")
	var counts []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "FAIL ") {
			counts = append(counts, l)
		}
	}
	t.Logf("%d unexpected failures; all cases:\n%s", unexpected, strings.Join(counts, "\n"))
}
