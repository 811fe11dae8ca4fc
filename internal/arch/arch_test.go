package arch

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/goten-ml/goten/"

// forbidden maps a package to the packages it must never depend on,
// directly or not.
var forbidden = map[string][]string{
	"op":          {"backend/cpu", "backend/ref", "tensor", "nested"},
	"iter":        {"op", "kernel", "tensor", "backend/cpu", "backend/ref"},
	"kernel":      {"op", "tensor", "backend/cpu", "backend/ref"},
	"backend/cpu": {"op", "tensor"},
	"backend/ref": {"op", "tensor"},
	"shape":       {"raw", "device", "dtype", "iter", "op", "tensor"},
	"dtype":       {"raw", "device", "iter", "op", "tensor"},
	"raw":         {"iter", "op", "kernel", "tensor"},
}

func TestImportDirections(t *testing.T) {
	for pkg, bad := range forbidden {
		out, err := exec.Command("go", "list", "-deps", module+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		deps := map[string]bool{}
		for _, line := range strings.Fields(string(out)) {
			if strings.HasPrefix(line, module) { // not the standard library's own iter
				deps[strings.TrimPrefix(line, module)] = true
			}
		}
		for _, b := range bad {
			if deps[b] {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}
