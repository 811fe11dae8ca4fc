package device

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

func TestMeminfoTotal(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		n    int
		ok   bool
	}{
		{"MemTotal:       1048576 kB\nMemFree:  1 kB\n", 1048576 * 1024, true},
		{"MemFree:  1 kB\nMemTotal: 16 kB\n", 16 * 1024, true},
		{"MemTotal: 16 MB\n", 0, false},
		{"MemTotal: 99999999999999999999 kB\n", 0, false},
		{"", 0, false},
	} {
		p := filepath.Join(dir, "meminfo")
		if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		if n, ok := meminfoTotal(p); n != c.n || ok != c.ok {
			t.Errorf("meminfoTotal(%q) = %d, %v; want %d, %v", c.text, n, ok, c.n, c.ok)
		}
	}
	if _, ok := meminfoTotal(filepath.Join(dir, "none")); ok {
		t.Error("a missing meminfo read as a limit")
	}
	p := filepath.Join(dir, "memory.max")
	for text, want := range map[string]int{"max\n": 0, "1073741824\n": 1 << 30, "0\n": 0} {
		os.WriteFile(p, []byte(text), 0o600)
		if n, _ := readBytes(p); n != want {
			t.Errorf("readBytes(%q) = %d, want %d", text, n, want)
		}
	}
}

// TestAllocLimit: an allocation over the limit is refused with
// ErrMemoryLimit, one at the limit is made; the limit is restored.
func TestAllocLimit(t *testing.T) {
	def := MemoryLimit()
	if def <= 0 || def > maxMemoryLimit {
		t.Fatalf("default limit %d", def)
	}
	prev := SetMemoryLimit(1000)
	defer SetMemoryLimit(prev)
	if prev != def {
		t.Errorf("SetMemoryLimit returned %d, want the default %d", prev, def)
	}
	if _, err := CPUAllocator.Alloc(1000, true); err != nil {
		t.Errorf("an allocation at the limit: %v", err)
	}
	_, err := CPUAllocator.Alloc(1001, false)
	if !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("an allocation over the limit: %v", err)
	}
	s := Alloc(8)
	if err := s.Grow(1 << 20); !errors.Is(err, ErrMemoryLimit) || s.Len() != 8 {
		t.Errorf("Grow over the limit: %v, length %d", err, s.Len())
	}
	SetMemoryLimit(-5)
	if MemoryLimit() != def {
		t.Errorf("SetMemoryLimit(-5) gave %d, want the default %d", MemoryLimit(), def)
	}
	// sizes near the largest int never reach the runtime
	if _, err := CPUAllocator.Alloc(math.MaxInt, false); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("MaxInt bytes: %v", err)
	}
}

// TestSliceBounds: Slice refuses ranges whose end overflows an int.
func TestSliceBounds(t *testing.T) {
	s := Alloc(16)
	for _, c := range [][2]int{{0, 5}, {-1, 1}, {17, 0}, {8, math.MaxInt>>1 + 1}, {0, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Slice[float32](16 bytes, %d, %d) did not panic", c[0], c[1])
				}
			}()
			Slice[float32](s, c[0], c[1])
		}()
	}
	if got := len(Slice[float32](s, 4, 3)); got != 3 {
		t.Errorf("Slice at the end has %d elements", got)
	}
}

// TestGuardedAllocator: Check notices a write just outside a storage, on
// either side, and nothing else.
func TestGuardedAllocator(t *testing.T) {
	a := NewGuardedAllocator()
	s, err := a.Alloc(10, false)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := a.Alloc(3, true)
	if b := z.Bytes(); b[0] != 0 || b[2] != 0 {
		t.Errorf("a zeroed guarded storage holds %v", b)
	}
	for i := range s.Bytes() {
		s.Bytes()[i] = 7 // inside: fine
	}
	if err := a.Check(); err != nil {
		t.Fatalf("writes inside: %v", err)
	}
	if uintptr(s.Pointer())%16 != 0 {
		t.Errorf("a guarded storage at %p is not 16-byte aligned", s.Pointer())
	}
	for _, off := range []int{-1, 10, 13, 10 + GuardBytes} {
		b := unsafe.Slice((*byte)(unsafe.Add(s.Pointer(), off)), 1)
		old := b[0]
		b[0] = 1
		if a.Check() == nil {
			t.Errorf("a write at byte %d of a 10-byte storage went unnoticed", off)
		}
		b[0] = old
	}
	if s.Device().Kind != CPU || s.Allocator() != a {
		t.Errorf("a guarded storage on %v", s.Device())
	}
}
