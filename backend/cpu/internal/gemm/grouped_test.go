package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestGroupedMatchesSingle checks that a grouped call whose groups differ
// widely in size (so that the large ones are cut into blocks and all run
// in parallel) gives, bit for bit, what each group's product run alone
// gives, and leaves the gaps between the C blocks untouched.
func TestGroupedMatchesSingle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := [][3]int{{300, 200, 96}, {1, 64, 64}, {17, 5, 33}, {64, 1, 70}, {0, 5, 5}, {128, 257, 300}, {9, 9, 0}, {2, 3, 4}}
	var gs []Group
	na, nb, nc := 0, 0, 0
	for i, s := range sizes {
		m, n, k := s[0], s[1], s[2]
		g := Group{M: m, N: n, K: k, OffA: na, RsA: k, CsA: 1, OffB: nb, RsB: n, CsB: 1, OffC: nc, RsC: n, CsC: 1}
		if i%2 == 1 { // transposed A and C
			g.RsA, g.CsA = 1, m
			g.RsC, g.CsC = 1, m
		}
		gs = append(gs, g)
		na, nb, nc = na+m*k+5, nb+k*n+5, nc+m*n+5
	}
	fill := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	a, b, c0 := fill(na), fill(nb), fill(nc)
	for _, beta := range []float32{0, 0.5} {
		got := append([]float32(nil), c0...)
		F32Grouped(gs, 1.5, a, b, beta, got)
		want := append([]float32(nil), c0...)
		for _, g := range gs {
			if g.M == 0 || g.N == 0 {
				continue
			}
			F32(g.M, g.N, g.K, 1.5, a[g.OffA:], g.RsA, g.CsA, b[g.OffB:], g.RsB, g.CsB, beta, want[g.OffC:], g.RsC, g.CsC)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("beta %v: element %d of c is %v, want %v", beta, i, got[i], want[i])
			}
		}
	}
}
