package arch

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/goten-ml/goten/"

// Note [Layers]
//
// Imports point down the layers of STYLE.md: the user API (tensor) above
// the op definitions (optable, op), above the iterator (iter) and the
// kernel contract (kernel), above the backends, above the memory model
// (raw, device, shape, dtype, errs). allowed lists, for every package of
// the module, the module's packages it may import directly; a package that
// is not listed fails the test, so a new package must be placed in a layer
// on purpose. Test files are free (they may import the reference backend,
// say), and so are the standard library and the commands' imports of the
// user API.

var (
	memory  = []string{"device", "dtype", "errs", "shape", "raw", "internal/parallel"}
	table   = []string{"optable", "optable/elem"}
	planner = slices.Concat([]string{"iter", "kernel"}, memory, table)
)

var allowed = map[string][]string{
	// the memory model and the op table: leaves
	"dtype":              nil,
	"errs":               nil,
	"device":             nil,
	"shape":              {"errs"},
	"raw":                {"device", "dtype", "errs", "shape"},
	"internal/parallel":  nil,
	"internal/goroutine": nil,
	"optable":            {"dtype", "errs"},
	"optable/elem":       {"dtype", "internal/sleef"},
	"internal/sleef":     {"dtype"},
	// libstdc++'s orders, replayed on the host (Note [Orders of libstdc++])
	"internal/stdcxx": nil,
	// the iterator knows no ops and no kernels
	"iter": memory,
	// the kernel contract: plans and the op table
	"kernel": {"device", "dtype", "iter", "optable"},
	// backends: the contract, never op or tensor (vec's twins of bfloat16
	// layer_norm's loops are elem's own functions)
	"backend/cpu":                  slices.Concat(planner, []string{"backend/cpu/internal/gemm", "backend/cpu/internal/vec"}),
	"backend/cpu/internal/gemm":    {"dtype", "backend/cpu/internal/cpufeat", "backend/cpu/internal/vec"},
	"backend/cpu/internal/vec":     {"dtype", "backend/cpu/internal/cpufeat", "internal/sleef", "optable/elem"},
	"backend/cpu/internal/cpufeat": nil,
	"backend/ref":                  planner,
	// the backend test kit: the contract and the reference backend
	"kernel/kerneltest": slices.Concat(planner, []string{"backend/ref"}),
	// the executors: the contract and the table, never a backend
	"op": slices.Concat(planner, []string{"internal/stdcxx"}),
	// the user API: the executors, and the one default backend
	"tensor":        slices.Concat([]string{"op", "internal/repr", "backend/cpu", "internal/goroutine"}, planner),
	"internal/repr": {"device", "dtype", "raw"},
	// ragged tensors: a user API over the dense one, on the same ops
	"nested": {"tensor", "errs"},
	// libraries over the user API
	"gradcheck": {"tensor"},
	"optim":     {"tensor"},
	// file formats: tensors from and to files, over the user API (and the
	// memory model, to view mapped files without copying)
	"tensorio":             {"tensor", "device", "dtype"},
	"tensorio/npy":         {"tensor", "device", "dtype", "tensorio"},
	"tensorio/safetensors": {"tensor", "device", "dtype", "tensorio"},
	"tensorio/pytorch":     {"tensor", "device", "dtype", "tensorio"},
	"internal/gen":         {"dtype", "optable"},
	"internal/arch":        nil,
	"internal/cases":       nil,
	"internal/conform":     {"dtype", "device", "tensor", "nested", "backend/ref", "internal/cases"},
	"cmd/bench":            {"tensor", "nested", "optim"},
	"cmd/conform":          {"tensor", "device", "internal/conform", "internal/cases", "backend/ref"},
	"cmd/demo":             {"tensor", "optim", "tensorio/safetensors"},
}

// TestLayers holds Note [Layers].
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, module)
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("package %s is in no layer: add it to allowed in internal/arch (Note [Layers])", pkg)
			continue
		}
		seen++
		for _, imp := range strings.Fields(imports) {
			if dep, mine := strings.CutPrefix(imp, module); mine && !slices.Contains(ok, dep) {
				t.Errorf("%s imports %s, which its layer may not", pkg, dep)
			}
		}
	}
	if seen < 15 {
		t.Fatalf("go list found only %d packages", seen)
	}
}
