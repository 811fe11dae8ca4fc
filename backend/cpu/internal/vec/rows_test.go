package vec

import (
	"math"
	"testing"
)

// rowsCase is a rows primitive and the scalar primitive it must match.
type rowsCase[T float32 | float64] struct {
	name string
	rows func(dst, a, s []T, r ScalarRows)
	one  func(dst, a []T, s T)
}

// checkRows runs c on layout r (in place over a when inPlace) with values
// from rnd, against c.one row by row, bit for bit (NaNs as NaNs); the
// elements of dst outside the rows must keep their sentinel.
func checkRows[T float32 | float64](t *testing.T, c rowsCase[T], r ScalarRows, inPlace bool, rnd func() T, bits func(T) uint64) {
	t.Helper()
	nd := (r.Rows-1)*r.DstStride + r.RowLen + 3
	na := (r.Rows-1)*r.AStride + r.RowLen
	a, s := make([]T, max(na, nd)), make([]T, (r.Rows-1)*r.SStride+1)
	for i := range a {
		a[i] = rnd()
	}
	for i := range s {
		s[i] = rnd()
	}
	got, want := make([]T, nd), make([]T, nd)
	for i := range got {
		got[i] = T(math.NaN())
	}
	gotSrc, wantSrc := a[:na], a[:na]
	if inPlace {
		copy(got, a)
		gotSrc, wantSrc = got, want
	}
	copy(want, got)
	for i := 0; i < r.Rows; i++ {
		c.one(want[i*r.DstStride:][:r.RowLen], wantSrc[i*r.AStride:][:r.RowLen], s[i*r.SStride])
	}
	c.rows(got, gotSrc, s, r)
	for i := range got {
		if bits(got[i]) != bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
			t.Fatalf("%s %+v in place %v: element %d is %#x, want %#x", c.name, r, inPlace, i, bits(got[i]), bits(want[i]))
		}
	}
}

// TestScalarRows checks each rows primitive against its scalar primitive
// run row by row (the twins' loop), bit for bit, on layouts whose rows
// cover the unrolled, vector and element loops, with strides of 0 for a
// and s, rows apart in dst, and dst written in place over a; elements
// outside the rows must keep their sentinel.
func TestScalarRows(t *testing.T) {
	ops32 := []rowsCase[float32]{
		{"AddScalarRowsF32", AddScalarRowsF32, AddScalarF32}, {"SubScalarRowsF32", SubScalarRowsF32, SubScalarF32},
		{"MulScalarRowsF32", MulScalarRowsF32, MulScalarF32}, {"DivScalarRowsF32", DivScalarRowsF32, DivScalarF32},
	}
	ops64 := []rowsCase[float64]{
		{"AddScalarRowsF64", AddScalarRowsF64, AddScalarF64}, {"SubScalarRowsF64", SubScalarRowsF64, SubScalarF64},
		{"MulScalarRowsF64", MulScalarRowsF64, MulScalarF64}, {"DivScalarRowsF64", DivScalarRowsF64, DivScalarF64},
	}
	bits32 := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	for trial := 0; trial < 300; trial++ {
		r := ScalarRows{Rows: 1 + rng.Intn(9), RowLen: rng.Intn(81)}
		r.DstStride = r.RowLen + rng.Intn(5)
		r.AStride = []int{0, r.RowLen, r.RowLen + 3}[rng.Intn(3)]
		r.SStride = rng.Intn(3)
		inPlace := trial%5 == 0
		if inPlace {
			r.AStride = r.DstStride
		}
		for _, c := range ops32 {
			checkRows(t, c, r, inPlace, randF32, bits32)
		}
		for _, c := range ops64 {
			checkRows(t, c, r, inPlace, randF64, math.Float64bits)
		}
	}
}

// TestScalarRowsBounds: a layout that reaches past an operand panics
// before anything is written; an empty one does nothing.
func TestScalarRowsBounds(t *testing.T) {
	dst, a, s := make([]float32, 10), make([]float32, 10), make([]float32, 2)
	for _, r := range []ScalarRows{
		{Rows: 2, RowLen: 6, DstStride: 6, AStride: 0, SStride: 1},  // dst too short
		{Rows: 2, RowLen: 4, DstStride: 4, AStride: 8, SStride: 1},  // a too short
		{Rows: 2, RowLen: 4, DstStride: 4, AStride: 4, SStride: 2},  // s too short
		{Rows: 2, RowLen: 4, DstStride: -4, AStride: 4, SStride: 1}, // negative stride
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", r)
				}
			}()
			AddScalarRowsF32(dst, a, s, r)
		}()
		for i, v := range dst {
			if v != 0 {
				t.Fatalf("%+v: dst[%d] written", r, i)
			}
		}
	}
	AddScalarRowsF32(nil, nil, nil, ScalarRows{Rows: 0, RowLen: 5})
	AddScalarRowsF32(nil, nil, nil, ScalarRows{Rows: 3, RowLen: 0})
}

// convRows is a rows conversion and the conversion it must match.
type convRows struct {
	name string
	rows func(dst []uint16, src []float32, rows, rowLen, dstStride, srcStride int)
	one  func(dst []uint16, src []float32)
}

var convRowsCases = []convRows{{"F32ToBF16Rows", F32ToBF16Rows, F32ToBF16}, {"F32ToF16Rows", F32ToF16Rows, F32ToF16}}

// TestConvRows checks each rows conversion against its conversion run row
// by row, bit for bit, on random bit patterns (NaNs, infinities,
// subnormals and ties among them) over layouts whose rows cover the
// unrolled, vector and element loops, with a source stride of 0 and
// destination rows apart; elements outside the rows must keep their
// sentinel.
func TestConvRows(t *testing.T) {
	const sentinel = 0xdead
	for trial := 0; trial < 300; trial++ {
		rows, rowLen := 1+rng.Intn(13), rng.Intn(70)
		dstStride := rowLen + rng.Intn(5)
		srcStride := []int{0, rowLen, rowLen + 3}[rng.Intn(3)]
		src := make([]float32, (rows-1)*srcStride+rowLen)
		for i := range src {
			src[i] = math.Float32frombits(rng.Uint32())
			if i%3 == 0 {
				src[i] = randF32()
			}
		}
		for _, c := range convRowsCases {
			got, want := make([]uint16, (rows-1)*dstStride+rowLen+3), make([]uint16, 0)
			for i := range got {
				got[i] = sentinel
			}
			want = append(want, got...)
			for r := 0; r < rows; r++ {
				c.one(want[r*dstStride:][:rowLen], src[r*srcStride:][:rowLen])
			}
			c.rows(got, src, rows, rowLen, dstStride, srcStride)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: %d rows of %d, strides %d, %d: element %d is %#04x, want %#04x", c.name, rows, rowLen, dstStride, srcStride, i, got[i], want[i])
				}
			}
		}
	}
}

// TestConvRowsBounds: rows that reach past an operand panic before
// anything is written; empty ones do nothing.
func TestConvRowsBounds(t *testing.T) {
	for _, c := range convRowsCases {
		dst, src := make([]uint16, 10), make([]float32, 10)
		for i := range src {
			src[i] = 1
		}
		for _, l := range [][4]int{
			{2, 6, 6, 0},  // dst too short
			{2, 4, 4, 8},  // src too short
			{2, 4, -4, 4}, // negative stride
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s %v: no panic", c.name, l)
					}
				}()
				c.rows(dst, src, l[0], l[1], l[2], l[3])
			}()
			for i, v := range dst {
				if v != 0 {
					t.Fatalf("%s %v: dst[%d] written", c.name, l, i)
				}
			}
		}
		c.rows(nil, nil, 0, 5, 5, 5)
		c.rows(nil, nil, 3, 0, 0, 0)
	}
}
