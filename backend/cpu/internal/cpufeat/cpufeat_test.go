package cpufeat

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestDetect compares the detection with the kernel's view of the CPU.
func TestDetect(t *testing.T) {
	d := Detected()
	t.Logf("detected %+v, running at %+v (GOTEN_CPU=%q)", d, Current(), os.Getenv("GOTEN_CPU"))
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil || runtime.GOARCH != "amd64" {
		t.Skipf("no /proc/cpuinfo on amd64 to compare with (%v, %s)", err, runtime.GOARCH)
	}
	flags := strings.Fields(strings.SplitN(strings.SplitN(string(b), "flags\t\t: ", 2)[1], "\n", 2)[0])
	has := map[string]bool{}
	for _, f := range flags {
		has[f] = true
	}
	want := Generic
	if has["avx2"] && has["fma"] {
		want = AVX2
		if has["avx512f"] && has["avx512bw"] && has["avx512dq"] && has["avx512vl"] {
			want = AVX512
		}
	}
	if purego {
		want = Generic
	}
	if d.Level != want {
		t.Errorf("/proc/cpuinfo says level %v, detection says %v", want, d.Level)
	}
	if w := want >= AVX2 && has["f16c"]; d.F16C != w {
		t.Errorf("/proc/cpuinfo says f16c = %v, detection says %v", w, d.F16C)
	}
	if w := want >= AVX512 && has["avx512_bf16"]; d.AVX512BF16 != w {
		t.Errorf("/proc/cpuinfo says avx512_bf16 = %v, detection says %v", w, d.AVX512BF16)
	}
}

func TestLevels(t *testing.T) {
	all := Features{Level: AVX512, F16C: true, AVX512BF16: true}
	for _, c := range []struct {
		env  string
		want Features
	}{
		{"", all},
		{"avx512", all},
		{"avx2", Features{Level: AVX2, F16C: true}},
		{"generic", Features{}},
	} {
		if got := fromEnv(all, c.env); got != c.want {
			t.Errorf("GOTEN_CPU=%q: %+v, want %+v", c.env, got, c.want)
		}
	}
	// a level above the CPU's runs the CPU's
	if got := fromEnv(Features{Level: AVX2}, "avx512"); got != (Features{Level: AVX2}) {
		t.Errorf("GOTEN_CPU=avx512 on an AVX2 CPU: %+v", got)
	}
	for l := Generic; l <= AVX512; l++ {
		if p, err := ParseLevel(l.String()); err != nil || p != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l, p, err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "avx3") {
			t.Errorf("GOTEN_CPU=avx3 did not panic naming it: %v", r)
		}
	}()
	fromEnv(all, "avx3")
}
