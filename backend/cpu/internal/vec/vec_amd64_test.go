//go:build amd64 && !purego

package vec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCPU(t *testing.T) {
	t.Logf("AVX2+FMA assembly: %v, F16C assembly: %v", useAVX2, useF16C)
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		flags := string(b)
		has := func(f string) bool { return strings.Contains(flags, " "+f+" ") || strings.Contains(flags, " "+f+"\n") }
		if want := has("avx2") && has("fma"); want != useAVX2 {
			t.Errorf("/proc/cpuinfo says avx2&&fma = %v, detection says %v", want, useAVX2)
		}
		if want := has("avx2") && has("fma") && has("f16c"); want != useF16C {
			t.Errorf("/proc/cpuinfo says avx2&&fma&&f16c = %v, detection says %v", want, useF16C)
		}
	}
}

// TestNoAVX512 checks that the generated assembly (every zz_*_amd64.s)
// uses only the 16 VEX registers: no X16-X31, Y16-Y31, Z or K registers
// (which would need EVEX).
func TestNoAVX512(t *testing.T) {
	files, err := filepath.Glob("zz_*_amd64.s")
	if err != nil || len(files) < 3 {
		t.Fatalf("generated assembly files: %v, %v", files, err)
	}
	re := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := re.FindString(line); m != "" {
				t.Errorf("%s:%d uses %s: %s", f, i+1, m, line)
			}
		}
	}
}
