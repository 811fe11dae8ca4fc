//go:build amd64 && !purego

package vec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goten-ml/goten/backend/cpu/internal/cpufeat"
)

// TestNoAVX512 checks that the generated assembly (every zz_*_amd64.s)
// uses the EVEX registers (X16-X31, Y16-Y31, Z and K registers) only in
// functions named for AVX-512 (…AVX512), and that Go code calls those
// only where useAVX512 holds (on the line before the call: `case
// useAVX512:` or `if useAVX512 {`), so that a CPU without AVX-512 never
// runs an EVEX instruction.
func TestNoAVX512(t *testing.T) {
	files, err := filepath.Glob("zz_*_amd64.s")
	if err != nil || len(files) < 3 {
		t.Fatalf("generated assembly files: %v, %v", files, err)
	}
	evex := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	text := regexp.MustCompile(`^TEXT\s+·(\w+)\(SB\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fn := ""
		for i, line := range strings.Split(string(b), "\n") {
			if m := text.FindStringSubmatch(line); m != nil {
				fn = m[1]
			}
			if strings.HasPrefix(strings.TrimSpace(line), "//") || strings.HasSuffix(fn, "AVX512") {
				continue
			}
			if m := evex.FindString(line); m != "" {
				t.Errorf("%s:%d: %s uses %s: %s", f, i+1, fn, m, line)
			}
		}
	}
	gos, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`\b\w+AVX512\(`)
	for _, f := range gos {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			l := strings.TrimSpace(line)
			if !call.MatchString(l) || strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "//") {
				continue
			}
			if i == 0 || !strings.Contains(lines[i-1], "useAVX512") {
				t.Errorf("%s:%d calls AVX-512 code without useAVX512 on the line before: %s", f, i+1, l)
			}
		}
	}
}

// TestLevel checks that the kernels run at the level GOTEN_CPU asks for
// (cpufeat.Requested reads it again, which also keys go test's cache on
// it: Note [Kernel levels]), so that the tests of each level test that
// level's kernels.
func TestLevel(t *testing.T) {
	feat := cpufeat.Requested()
	got := [3]bool{useAVX2, useF16C, useAVX512}
	want := [3]bool{feat.Level >= cpufeat.AVX2, feat.F16C, feat.Level >= cpufeat.AVX512}
	if got != want {
		t.Errorf("GOTEN_CPU=%q asks for %+v: useAVX2, useF16C, useAVX512 = %v, want %v",
			os.Getenv("GOTEN_CPU"), feat, got, want)
	}
}
