package iter

import (
	"testing"

	"github.com/goten-ml/goten/raw"
)

func TestCanUse32BitIndexing(t *testing.T) {
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(10, 10)))
	if !p.CanUse32BitIndexing() {
		t.Fatal("small plan cannot use 32-bit indexing")
	}
	defer SetMaxIndexForTesting(100)()
	// 100 elements fit; the largest byte offset (99·4) + 1 does not.
	if p.CanUse32BitIndexing() {
		t.Fatal("byte offsets above the limit")
	}
}

// TestWith32BitIndexing checks that the sub-plans each fit and together
// visit every element of the plan exactly once, with the same offsets.
func TestWith32BitIndexing(t *testing.T) {
	p, views := threeDims(t)
	want := naiveVisits([]int{4, 3, 5}, views)
	for _, limit := range []int{1 << 30, 400, 100, 40, 8} {
		restore := SetMaxIndexForTesting(limit)
		subs := p.With32BitIndexing()
		var got [][]int
		for _, q := range subs {
			if !q.CanUse32BitIndexing() {
				t.Errorf("limit %d: a sub-plan of %v does not fit", limit, q.Shape())
			}
			got = append(got, visits(q, q.ForEach)...)
		}
		restore()
		if limit == 1<<30 && len(subs) != 1 {
			t.Errorf("a plan that fits was split in %d", len(subs))
		}
		if limit < 400 && len(subs) < 2 {
			t.Errorf("limit %d: not split", limit)
		}
		if !sameVisits(got, want) {
			t.Fatalf("limit %d: %d sub-plans visit differently", limit, len(subs))
		}
	}
}

func TestSplitReduction(t *testing.T) {
	in := f32(6, 4)
	p := mustBuild(t, NewConfig().AddOutput(f32(1, 4)).AddInput(in).IsReduction(true))
	// Plan dims: 6 (reduced), 4.
	lo, hi := p.Split(0)
	if lo.IsFinalOutput() || lo.Accumulate() || !hi.IsFinalOutput() || !hi.Accumulate() {
		t.Fatalf("reduced split: lo final %v acc %v, hi final %v acc %v", lo.IsFinalOutput(), lo.Accumulate(), hi.IsFinalOutput(), hi.Accumulate())
	}
	if hi.ViewOffsets()[0] != 3 || hi.Shape()[0] != 3 || lo.Shape()[0] != 3 {
		t.Fatalf("halves %v %v offsets %v", lo.Shape(), hi.Shape(), hi.ViewOffsets())
	}
	lo, hi = p.Split(1)
	if !lo.IsFinalOutput() || hi.Accumulate() {
		t.Fatal("a split on a kept dim marked accumulate")
	}
	got := append(visits(lo, lo.ForEach), visits(hi, hi.ForEach)...)
	if !sameVisits(got, naiveVisits([]int{6, 4}, []*raw.View{p.Output(0), in})) {
		t.Fatal("halves visit differently")
	}
	// Narrow to one row coalesces (non-reduction).
	q := mustBuild(t, NewConfig().AddOutput(nil).AddInput(on(f32(4, 8), []int{4, 5}, []int{8, 1}, 0)))
	if n := q.Narrow(1, 2, 1); n.Ndim() != 1 || n.NumEl() != 5 || n.Operand(1).Offset != 2*32 {
		t.Fatalf("narrowed %v offset %d", n.Shape(), n.Operand(1).Offset)
	}
}
