//go:build amd64 && !purego

package vec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoAVX512 checks that the generated assembly (every zz_*_amd64.s but
// the AVX-512 kernels' zz_*512_amd64.s, TestAVX512Confined) uses only the
// 16 VEX registers: no X16-X31, Y16-Y31, Z or K registers (which would
// need EVEX).
func TestNoAVX512(t *testing.T) {
	files, err := filepath.Glob("zz_*_amd64.s")
	if err != nil || len(files) < 3 {
		t.Fatalf("generated assembly files: %v, %v", files, err)
	}
	re := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	for _, f := range files {
		if strings.HasSuffix(f, "512_amd64.s") {
			continue
		}
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
