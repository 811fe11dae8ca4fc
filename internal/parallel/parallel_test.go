package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestChunks(t *testing.T) {
	cases := []struct{ n, grain, size, count int }{
		{0, 10, 0, 0},
		{1, 10, 10, 1},
		{10, 10, 10, 1},
		{11, 10, 10, 2},
		{MaxChunks, 0, 1, MaxChunks},
		{MaxChunks + 1, 0, 2, (MaxChunks + 2) / 2},
		{MaxChunks * 10, 10, 10, MaxChunks},
		{MaxChunks*10 + 1, 10, 11, (MaxChunks*10 + 1 + 10) / 11},
	}
	for _, c := range cases {
		size, count := Chunks(c.n, c.grain)
		if size != c.size || count != c.count {
			t.Errorf("Chunks(%d, %d) = %d, %d; want %d, %d", c.n, c.grain, size, count, c.size, c.count)
		}
		if count > MaxChunks {
			t.Errorf("Chunks(%d, %d): %d chunks", c.n, c.grain, count)
		}
	}
}

// TestForCoversOnce checks that every index is visited exactly once and
// that the chunk boundaries do not depend on GOMAXPROCS.
func TestForCoversOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4, 7} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 5, 100, 1000, 12345} {
			for _, grain := range []int{1, 7, 64, 5000} {
				hits := make([]int32, n)
				var mu sync.Mutex
				var bounds [][2]int
				For(n, grain, func(b, e int) {
					if b >= e {
						t.Errorf("empty chunk [%d, %d)", b, e)
					}
					mu.Lock()
					bounds = append(bounds, [2]int{b, e})
					mu.Unlock()
					for i := b; i < e; i++ {
						atomic.AddInt32(&hits[i], 1)
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("procs %d n %d grain %d: index %d visited %d times", procs, n, grain, i, h)
					}
				}
				if n > grain {
					size, count := Chunks(n, grain)
					if len(bounds) != count && !(procs == 1 && len(bounds) == 1) {
						t.Fatalf("n %d grain %d: %d chunks, want %d", n, grain, len(bounds), count)
					}
					if procs > 1 && count > 1 {
						for _, bd := range bounds {
							if bd[0]%size != 0 || (bd[1]-bd[0] != size && bd[1] != n) {
								t.Fatalf("chunk %v not aligned to size %d", bd, size)
							}
						}
					}
				}
			}
		}
	}
}

func TestForNested(t *testing.T) {
	var total atomic.Int64
	For(64, 1, func(b, e int) {
		for i := b; i < e; i++ {
			For(100, 10, func(b, e int) { total.Add(int64(e - b)) })
		}
	})
	if total.Load() != 6400 {
		t.Fatalf("nested total %d, want 6400", total.Load())
	}
}

func TestForPanic(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	For(1000, 10, func(b, e int) {
		if b <= 500 && 500 < e {
			panic("boom")
		}
	})
	t.Fatal("For did not panic")
}

func TestForSmallNoAlloc(t *testing.T) {
	sum := 0
	fn := func(b, e int) { sum += e - b }
	allocs := testing.AllocsPerRun(100, func() { For(100, 1000, fn) })
	if allocs != 0 {
		t.Fatalf("small For allocates %v times", allocs)
	}
}

// TestSpinUntil checks that a spin ends (Note [Spinning workers]): at
// once when its condition holds, after about spinFor when it never does,
// and when another goroutine makes it hold, even with one P (the spin
// yields it).
func TestSpinUntil(t *testing.T) {
	if !spinUntil(func() bool { return true }) {
		t.Fatal("spinUntil of a true condition reported false")
	}
	start := time.Now()
	if spinUntil(func() bool { return false }) {
		t.Fatal("spinUntil of a false condition reported true")
	}
	if d := time.Since(start); d < spinFor || d > spinFor+time.Second {
		t.Errorf("spinUntil gave up after %v, want about %v", d, spinFor)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var flag atomic.Bool
	go flag.Store(true)
	for !spinUntil(flag.Load) {
	}
}

// TestForBackToBack runs many small Fors in a row, so that the workers
// take jobs while spinning as well as after blocking, and checks every
// index is covered once (run with -race to check the hand-off).
func TestForBackToBack(t *testing.T) {
	hits := make([]int32, 4096)
	for k := 0; k < 2000; k++ {
		For(len(hits), 64, func(b, e int) {
			for i := b; i < e; i++ {
				atomic.AddInt32(&hits[i], 1)
			}
		})
		if k%500 == 499 {
			time.Sleep(2 * spinFor) // let the workers block
		}
	}
	for i, h := range hits {
		if h != 2000 {
			t.Fatalf("index %d visited %d times, want 2000", i, h)
		}
	}
}
