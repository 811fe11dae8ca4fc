package iter

import (
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// TestCrossedBands checks Note [Crossed operands]: which operands are
// crossed, and that parallel chunks of such plans are bands of whole rows.
func TestCrossedBands(t *testing.T) {
	rows, cols := 300, 517
	a := on(f32(cols, rows), []int{rows, cols}, []int{1, rows}, 0) // a transpose
	b := f32(rows, cols)
	// A new output follows a, the first input that tells (Note [Computing
	// output strides]): then b is crossed.
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(a).AddInput(b))
	if got := []bool{p.Crossed(0), p.Crossed(1), p.Crossed(2)}; got[0] || got[1] || !got[2] {
		t.Fatalf("crossed operands %v, want only input b", got)
	}
	// A given row-major output decides: a is crossed.
	p = mustBuild(t, NewConfig().AddOutput(f32(rows, cols)).AddInput(a).AddInput(b))
	if got := []bool{p.Crossed(0), p.Crossed(1), p.Crossed(2)}; got[0] || !got[1] || got[2] {
		t.Fatalf("crossed operands %v, want only input a", got)
	}
	band := bandBytes / 4
	if r := p.bandRows(); r != band {
		t.Fatalf("bandRows %d, want %d", r, band)
	}
	for _, grain := range []int{1, 1000, 100000} {
		p.ForEachGrain(func(offs []int, strides []int, n0, n1 int) {
			off := offs[0]
			if n0 != cols || off%(cols*4) != 0 {
				t.Errorf("grain %d: a call of %d×%d at byte %d is not whole rows", grain, n0, n1, off)
			}
			if row := off / (cols * 4); row%band != 0 {
				t.Errorf("grain %d: a call starts at row %d, not at a band", grain, row)
			}
		}, grain)
		if got := visits(p, func(l Loop2D) { p.ForEachGrain(l, grain) }); !sameVisits(got, naiveVisits([]int{rows, cols}, []*raw.View{p.Output(0), a, b})) {
			t.Fatalf("grain %d: walk differs", grain)
		}
	}
	// Not crossed: a stride below crossedMinStride, a broadcast, a size-1 dim.
	small := on(f32(10, 4), []int{4, 10}, []int{1, 4}, 0) // dim 0 stride 16 bytes
	q := mustBuild(t, NewConfig().AddOutput(f32(4, 10)).AddInput(small))
	if q.Crossed(1) || q.bandRows() != 0 {
		t.Fatal("a 16-byte stride counts as crossed")
	}
	col := contig(dtype.Float32, rows, 1)
	q = mustBuild(t, NewConfig().AddOutput(nil).AddInput(b).AddInput(col))
	if q.Crossed(2) || q.bandRows() != 0 {
		t.Fatal("a broadcast column counts as crossed")
	}
	// A transposed [20, 517]: the band is all 20 rows.
	a20 := on(f32(cols, 20), []int{20, cols}, []int{1, 20}, 0)
	q = mustBuild(t, NewConfig().AddOutput(f32(20, cols)).AddInput(a20))
	if !q.Crossed(1) || q.bandRows() != 20 {
		t.Fatalf("transposed [20, %d]: crossed %v, band %d", cols, q.Crossed(1), q.bandRows())
	}
}

// TestReleaseAllocs checks Note [Reusing plans]: a plan built, walked and
// released costs no allocation on small contiguous operands.
func TestReleaseAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	a, b, out := f32(16), f32(16), f32(16)
	loop := func(offs []int, strides []int, s0, s1 int) {}
	n := testing.AllocsPerRun(100, func() {
		p, err := NewConfig().AddOutput(out).AddInput(a).AddInput(b).Build()
		if err != nil {
			panic(err)
		}
		p.SerialForEach(loop, 0, p.NumEl())
		p.Release()
	})
	if n > 0 {
		t.Errorf("build, walk and release allocate %v times", n)
	}
	// A released plan comes back clean.
	x := on(f32(10, 4), []int{4, 10}, []int{1, 4}, 0)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(x))
	want := naiveVisits([]int{4, 10}, []*raw.View{p.Output(0), x})
	if got := visits(p, p.ForEach); !sameVisits(got, want) {
		t.Fatal("walk differs")
	}
	p.Release()
	q := mustBuild(t, NewConfig().AddOutput(f32(16)).AddInput(a))
	if q.Ndim() != 1 || q.NumEl() != 16 || q.Output(0).DType != dtype.Float32 || q.IsReduction() || !q.IsFinalOutput() || q.Accumulate() {
		t.Fatalf("reused plan: shape %v", q.Shape())
	}
	q.Release()
}
