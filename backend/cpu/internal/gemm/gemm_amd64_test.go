//go:build amd64 && !purego

package gemm

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/goten-ml/goten/backend/cpu/internal/cpufeat"
)

// TestAVX512Names holds the rule that lets AVX-512 into this package's
// assembly: only a function whose name says AVX512 may use the registers
// that need EVEX (X16-X31, Y16-Y31, Z and K registers), and only those run
// when cpufeat's level is AVX512 (init, gemm_amd64.go).
func TestAVX512Names(t *testing.T) {
	b, err := os.ReadFile("zz_gemm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	seen := 0
	for _, fn := range strings.Split(string(b), "\nTEXT ")[1:] {
		name, _, _ := strings.Cut(fn, "(SB)")
		name = strings.TrimPrefix(name, "·")
		uses := ""
		for _, line := range strings.Split(fn, "\n") {
			if l := strings.TrimSpace(line); !strings.HasPrefix(l, "//") {
				if m := re.FindString(l); m != "" {
					uses = m
					break
				}
			}
		}
		if named := strings.Contains(name, "AVX512"); named {
			seen++
			if uses == "" {
				t.Errorf("%s is named AVX512 but uses no EVEX register", name)
			}
		} else if uses != "" {
			t.Errorf("%s uses %s but is not named AVX512", name, uses)
		}
	}
	if seen == 0 {
		t.Error("no AVX512 kernels found")
	}
}

// TestLevel checks that the kernels installed are those of the level
// GOTEN_CPU asks for (cpufeat.Requested reads it again, which also keys go
// test's cache on it: Note [Kernel levels]), so that the tests of each
// level test that level's kernels.
func TestLevel(t *testing.T) {
	feat := cpufeat.Requested()
	want := map[cpufeat.Level][2]int{
		cpufeat.Generic: {mrF32, nrF32},
		cpufeat.AVX2:    {mrAVX2, nrF32AVX2},
		cpufeat.AVX512:  {mrAVX512, nrF32AVX512},
	}[feat.Level]
	if got := [2]int{f32.mr, f32.nr}; got != want {
		t.Errorf("level %v: float32 tile %v, want %v", feat.Level, got, want)
	}
	if bf16.mr != f32.mr || bf16.nr != f32.nr || f16.nr != f32.nr {
		t.Errorf("16-bit products do not run on the float32 kernel")
	}
	if wantDot := feat.Level >= cpufeat.AVX512 && feat.AVX512BF16; (bf16dot != nil) != wantDot {
		t.Errorf("level %v, AVX512-BF16 %v: bfloat16 dot-product kernel installed %v, want %v",
			feat.Level, feat.AVX512BF16, bf16dot != nil, wantDot)
	}
}
