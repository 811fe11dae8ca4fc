package cpu

import (
	"os"
	"testing"

	"github.com/goten-ml/goten/backend/cpu/internal/cpufeat"
	"github.com/goten-ml/goten/backend/cpu/internal/vec"
)

// TestKernelLevel checks that the kernels this package calls run in
// assembly exactly when the level GOTEN_CPU asks for allows it
// (cpufeat.Requested reads the variable again, which also keys go test's
// cache on it: Note [Kernel levels]), so that a run at each level tests
// that level's kernels.
func TestKernelLevel(t *testing.T) {
	feat := cpufeat.Requested()
	if want := feat.Level >= cpufeat.AVX2; vec.SIMD != want {
		t.Errorf("GOTEN_CPU=%q asks for %+v: vec.SIMD = %v, want %v", os.Getenv("GOTEN_CPU"), feat, vec.SIMD, want)
	}
}
