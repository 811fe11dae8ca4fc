//go:build amd64 && !purego

package vec

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReduceNoAVX512 checks that the reduction assembly uses only the 16
// VEX registers, as TestNoAVX512 does for zz_vec_amd64.s.
func TestReduceNoAVX512(t *testing.T) {
	b, err := os.ReadFile("zz_reduce_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		if m := re.FindString(line); m != "" {
			t.Errorf("zz_reduce_amd64.s:%d uses %s: %s", i+1, m, line)
		}
	}
}
