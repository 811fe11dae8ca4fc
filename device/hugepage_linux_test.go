//go:build linux

package device

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds address a.
func vmFlags(t *testing.T, a uintptr) []string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(a) >= l && uint64(a) < h
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return fields[1:]
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return nil
}

func hasFlag(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

// TestHugePageAdvice checks Note [Huge pages]: with the advice on, a large host storage's
// aligned interior is advised huge ("hg" in its mapping's VmFlags).
func TestHugePageAdvice(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages on this kernel")
	}
	defer func(on bool) { hugeOn = on }(hugeOn)
	hugeOn = true
	s, err := CPUAllocator.Alloc(hugeMin+hugePage, false)
	if err != nil {
		t.Fatal(err)
	}
	p := uintptr(s.Pointer())
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	if !hasFlag(vmFlags(t, lo), "hg") {
		t.Errorf("storage of %d bytes at %#x: interior page %#x not advised huge", s.Len(), p, lo)
	}
	runtime.KeepAlive(s)
}
