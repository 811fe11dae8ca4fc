//go:build amd64 && !purego && !race

// Not under -race: checkptr refuses TestStreamMisaligned's conversions.

package vec

import (
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestStreamAsm checks that the streaming kernels, and only they, store
// with VMOVNTPS/VMOVNTPD and end with SFENCE (the registers are checked by
// TestNoAVX512 and TestUnaryNoAVX512).
func TestStreamAsm(t *testing.T) {
	seen := 0
	elemSeen := map[bool]int{} // the elem kernels' Stream forms, by AVX-512
	for _, file := range []string{"zz_vec_amd64.s", "zz_unary_amd64.s", "zz_elem_amd64.s"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range strings.Split(string(b), "\nTEXT ")[1:] {
			name, _, _ := strings.Cut(fn, "(SB)")
			nt := strings.Contains(fn, "VMOVNTP")
			fence := strings.Contains(fn, "SFENCE")
			stream := strings.HasSuffix(name, "StreamAVX2") || strings.HasSuffix(name, "StreamAVX512")
			switch {
			case file == "zz_elem_amd64.s" && stream:
				elemSeen[strings.HasSuffix(name, "AVX512")]++
			case stream:
				seen++
			}
			if nt != stream || fence != stream {
				t.Errorf("%s: %s: non-temporal stores %v, SFENCE %v", file, name, nt, fence)
			}
		}
	}
	// one AVX2 kernel per case but MulScalarF32/NaN (MulScalarF32's), ExpF32
	// and ExpF64 (elem's)
	if want := len(streamCasesF32()) - 2 + len(streamCasesF64()) - 1; seen != want {
		t.Errorf("%d streaming kernels, want %d", seen, want)
	}
	if elemSeen[false] == 0 || elemSeen[false] != elemSeen[true] {
		t.Errorf("elementwise streaming kernels: %d AVX2, %d AVX-512", elemSeen[false], elemSeen[true])
	}
}

// TestStreamMisaligned gives the streaming primitives a dst whose address
// is not a multiple of the element size: they run the plain kernels.
func TestStreamMisaligned(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 33, 100, 1000} {
		for off := 1; off < 4; off++ {
			mem := make([]byte, 8*n+16)
			a, b := make([]float32, n), make([]float32, n)
			a64, b64 := make([]float64, n), make([]float64, n)
			for i := range a {
				a[i], b[i] = randF32(), randF32()
				a64[i], b64[i] = randF64(), randF64()
			}
			p := unsafe.Pointer(&mem[off])
			d := unsafe.Slice((*float32)(p), n)
			want := make([]float32, n)
			for _, c := range streamCasesF32() {
				c.plain(want, a, b)
				c.stream(d, a, b)
				sameAll(t, c.name+" misaligned", d, want)
			}
			d64 := unsafe.Slice((*float64)(p), n)
			want64 := make([]float64, n)
			for _, c := range streamCasesF64() {
				c.plain(want64, a64, b64)
				c.stream(d64, a64, b64)
				sameAll(t, c.name+" misaligned", d64, want64)
			}
		}
	}
}
