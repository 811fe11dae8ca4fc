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
	casesDir  = "../../testdata/conformance"
	gapsFile  = "../../testdata/conformance/KNOWN_GAPS"
	gapSuite  = "suite"
	gapPrefix = "prefix"
	gapOp     = "op"
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

// variantSets are the variant sets in testdata (tools/confgen/README.md
// says how each was made): the public cases with other values, dtypes,
// layouts, dims and sizes from fresh seeds, expectations computed by
// PyTorch, each with its own known gaps (PyTorch quirks goten does not
// copy); and conformance-exact, cases held to PyTorch's bits.
var variantSets = []string{"conformance-variants", "conformance-variants2", "conformance-variants3",
	"conformance-variants4", "conformance-variants5", "conformance-variants6", "conformance-variants7",
	"conformance-variants8", "conformance-variants9", "conformance-variants10", "conformance-exact"}

// TestConformanceVariants runs each variant set on the CPU backend, a
// subtest per set named after its directory.
func TestConformanceVariants(t *testing.T) {
	t.Parallel()
	for _, set := range variantSets {
		t.Run(set, func(t *testing.T) {
			t.Parallel()
			dir := "../../testdata/" + set
			runConformance(t, dir, dir+"/KNOWN_GAPS", tensor.CPU, nil)
		})
	}
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
	runConformance(t, "../../testdata/conformance-variants", "../../testdata/conformance-variants/KNOWN_GAPS", refDev, notLarge)
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
