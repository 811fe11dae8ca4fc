package iter

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

func TestDimCounter(t *testing.T) {
	for _, sizes := range [][]int{{}, {5}, {3, 4}, {3, 4, 2}, {2, 1, 3}, {1, 5, 2}, {2, 2, 2, 2, 2, 2, 2, 2, 2}} {
		n := shape.NumEl(sizes)
		for begin := 0; begin <= n; begin++ {
			for end := begin; end <= n; end++ {
				c := NewDimCounter(sizes, begin, end)
				next := begin
				for !c.Done() {
					if c.Offset() != next {
						t.Fatalf("%v [%d,%d): offset %d, want %d", sizes, begin, end, c.Offset(), next)
					}
					// Values are the decomposition of the offset.
					r := next
					for d, s := range sizes {
						if c.Values()[d] != r%s {
							t.Fatalf("%v offset %d: values %v", sizes, next, c.Values())
						}
						r /= s
					}
					s0, s1 := c.Max2DStep()
					if s0 < 1 || s1 < 1 || next+s0*s1 > end {
						t.Fatalf("%v [%d,%d) at %d: step %d×%d", sizes, begin, end, next, s0, s1)
					}
					if len(sizes) > 0 && c.Values()[0]+s0 > sizes[0] {
						t.Fatalf("%v: step %d leaves the row at %v", sizes, s0, c.Values())
					}
					if s1 > 1 && (c.Values()[0] != 0 || s0 != sizes[0] || c.Values()[1]+s1 > sizes[1]) {
						t.Fatalf("%v: 2-D step %d×%d at %v", sizes, s0, s1, c.Values())
					}
					// Greedy: a step is as large as allowed.
					if len(sizes) > 0 && s0 < sizes[0]-c.Values()[0] && next+s0 != end {
						t.Fatalf("%v: short step %d at %v", sizes, s0, c.Values())
					}
					next += s0 * s1
					c.Increment(s0, s1)
				}
				if next != end && begin < end {
					t.Fatalf("%v [%d,%d): stopped at %d", sizes, begin, end, next)
				}
			}
		}
	}
	// A copy walks on its own.
	c := NewDimCounter([]int{3, 4}, 5, 12)
	d := c
	c.Increment(c.Max2DStep())
	if d.Offset() != 5 || d.Values()[0] != 2 || d.Values()[1] != 1 {
		t.Fatalf("copy changed: %d %v", d.Offset(), d.Values())
	}
}

// threeDims returns a plan that does not coalesce: a [4, 3, 5] view with
// gaps plus a transposed input.
func threeDims(t *testing.T) (*Plan, []*raw.View) {
	a := on(f32(4, 4, 6), []int{4, 3, 5}, []int{24, 6, 1}, 1)
	b := on(f32(5, 3, 4), []int{4, 3, 5}, []int{1, 4, 12}, 0)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(a).AddInput(b))
	if p.Ndim() != 3 {
		t.Fatalf("plan %v", p.Shape())
	}
	return p, []*raw.View{p.Output(0), a, b}
}

func TestSerialForEachRanges(t *testing.T) {
	p, views := threeDims(t)
	n := p.NumEl()
	want := naiveVisits([]int{4, 3, 5}, views)
	full := visits(p, func(l Loop2D) { p.SerialForEach(l, 0, n) })
	if !sameVisits(full, want) {
		t.Fatal("full walk differs from the naive walk")
	}
	// Plan order: element i of the range is full[i].
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		b := rng.IntN(n + 1)
		e := b + rng.IntN(n-b+1)
		got := visits(p, func(l Loop2D) { p.SerialForEach(l, b, e) })
		if len(got) != e-b {
			t.Fatalf("[%d,%d): %d visits", b, e, len(got))
		}
		for i := range got {
			if !slices.Equal(got[i], full[b+i]) {
				t.Fatalf("[%d,%d): visit %d is %v, want %v", b, e, i, got[i], full[b+i])
			}
		}
	}
}

func TestForEachParallel(t *testing.T) {
	p, views := threeDims(t)
	want := naiveVisits([]int{4, 3, 5}, views)
	for _, grain := range []int{1, 7, 16, 1000} {
		if got := visits(p, func(l Loop2D) { p.ForEachGrain(l, grain) }); !sameVisits(got, want) {
			t.Fatalf("grain %d: parallel walk differs", grain)
		}
	}
	// Above GrainSize: the default ForEach splits.
	a := on(f32(2, 300, 101), []int{2, 300, 100}, []int{30300, 101, 1}, 0)
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(a))
	if got := visits(p, p.ForEach); !sameVisits(got, naiveVisits([]int{2, 300, 100}, []*raw.View{p.Output(0), a})) {
		t.Fatal("large parallel walk differs")
	}
}

func TestEmptyAndScalarPlans(t *testing.T) {
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(3, 0)))
	calls := 0
	p.ForEach(func([]int, []int, int, int) { calls++ })
	if calls != 0 || p.NumEl() != 0 {
		t.Fatalf("empty plan: %d calls", calls)
	}
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32()).AddInput(scalar(dtype.Float32)))
	got := visits(p, p.ForEach)
	if len(got) != 1 || !slices.Equal(got[0], []int{0, 0, 0}) {
		t.Fatalf("0-dim plan visits %v", got)
	}
}

// TestConcurrentWalks walks one plan from several goroutines at once.
func TestConcurrentWalks(t *testing.T) {
	p, views := threeDims(t)
	want := naiveVisits([]int{4, 3, 5}, views)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if got := visits(p, func(l Loop2D) { p.SerialForEach(l, 0, p.NumEl()) }); !sameVisits(got, want) {
					t.Error("concurrent walk differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestLoopNoAlloc(t *testing.T) {
	a, b := f32(16), f32(16)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(a).AddInput(b))
	loop := func(offs []int, strides []int, s0, s1 int) {}
	if n := testing.AllocsPerRun(100, func() { p.ForEach(loop) }); n != 0 {
		t.Errorf("1-D ForEach allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { p.SerialForEach(loop, 3, 9) }); n != 0 {
		t.Errorf("1-D SerialForEach allocates %v times", n)
	}
	q, _ := threeDims(t)
	if n := testing.AllocsPerRun(100, func() { q.SerialForEach(loop, 7, 50) }); n != 0 {
		t.Errorf("3-D SerialForEach allocates %v times", n)
	}
}

// TestBuildAllocs keeps the cost of building a small plan in check: the
// Config, the Plan, and for an allocated output its view, shape/strides and
// storage.
func TestBuildAllocs(t *testing.T) {
	a, b, out := f32(16), f32(16), f32(16)
	n := testing.AllocsPerRun(100, func() {
		if _, err := NewConfig().AddOutput(out).AddInput(a).AddInput(b).Build(); err != nil {
			panic(err)
		}
	})
	if n > 2 {
		t.Errorf("building with a given output allocates %v times", n)
	}
	n = testing.AllocsPerRun(100, func() {
		if _, err := NewConfig().AddOutput(nil).AddInput(a).AddInput(b).Build(); err != nil {
			panic(err)
		}
	})
	if n > 6 {
		t.Errorf("building with an output to allocate allocates %v times", n)
	}
}
