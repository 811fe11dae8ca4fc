package tensor_test

import (
	"math"
	"slices"
	"testing"

	"github.com/goten-ml/goten/dtype"
	. "github.com/goten-ml/goten/tensor"
)

// sameBits reports whether got and want hold the same numbers, NaN
// matching NaN and each zero its sign.
func sameBits(got, want []float64) bool {
	return slices.EqualFunc(got, want, func(g, w float64) bool {
		if g != g || w != w {
			return g != g && w != w
		}
		return g == w && math.Signbit(g) == math.Signbit(w)
	})
}

// TestUniqueWithNaN: PyTorch 1.13's unique leaves NaNs where its
// unordered_set and std::sort put them, and gives each NaN inverse 0 and
// count 0 (Note [Unique with NaN]); along a dim, NaN columns and -0 leave
// the rows' order to its std::sort. The expectations are torch.unique's
// (sorted, with return_inverse and return_counts).
func TestUniqueWithNaN(t *testing.T) {
	// Python's NaN (Go's math.NaN has another payload, which hashes
	// elsewhere)
	nan, nz := math.Float64frombits(0x7ff8000000000000), math.Copysign(0, -1)
	bf16 := func(xs ...float64) *Tensor {
		b := make([]dtype.BF16, len(xs))
		for i, x := range xs {
			b[i] = dtype.BF16FromFloat32(float32(x))
			if x != x {
				// torch's float64 to bfloat16 conversion writes NaN as
				// 0xFFFF in its vector body and 0x7FC0 in the tail
				b[i] = 0x7FC0
				if i < len(xs)-len(xs)%16 {
					b[i] = 0xFFFF
				}
			}
		}
		return FromSlice(b, len(b))
	}
	for _, c := range []struct {
		name           string
		x              *Tensor
		dim            int // -1: none
		values         []float64
		inverse, count []int64
	}{
		{"float64", FromSlice([]float64{3, nan, 1, nan, 2, 1, nan, -1, 0, 2, nan, 5, nz, 4, nan, 3, 7, nan, 6, 1}, 20), -1,
			[]float64{-1, 4, 6, nan, nan, nan, nan, nan, nan, 0, 1, 2, 3, 5, 7},
			[]int64{12, 0, 10, 0, 11, 10, 0, 0, 9, 11, 0, 13, 9, 1, 0, 12, 14, 0, 2, 10},
			[]int64{1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 3, 2, 2, 1, 1}},
		{"float32", FromSlice([]float32{float32(nan), 2, float32(nan), float32(nan), -4, 2, 8, float32(nan), 0.5, -4, 9, float32(nan), 3, float32(nan), -2, 1, 0.25, float32(nan), 6}, 19), -1,
			[]float64{nan, -4, -2, 0.5, 2, 3, 8, 9, nan, 6, nan, nan, nan, nan, nan, 0.25, 1},
			[]int64{0, 4, 0, 0, 1, 4, 6, 0, 3, 1, 7, 0, 5, 0, 2, 16, 15, 0, 9},
			[]int64{0, 2, 1, 1, 2, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1}},
		{"bfloat16", bf16(1, nan, nz, 2, nan, 0, 2, -3, nan, 4, 1, nan, 8, nz, nan, 5, 6, 7, nan), -1,
			[]float64{nan, 1, 4, 6, 7, nan, nan, nan, nan, nan, -3, nz, 0, 2, 5, 8},
			[]int64{1, 0, 11, 13, 0, 12, 13, 10, 0, 2, 1, 0, 15, 11, 0, 14, 3, 4, 0},
			[]int64{0, 2, 1, 1, 1, 0, 0, 0, 0, 0, 1, 2, 1, 2, 1, 1}},
		{"dim with NaN columns", FromSlice([]float64{1, nan, 0, 2, 1, 3, nan, 1, 0, 2, 1, 0.5, -1, nan, 1, nan, 0, 1, nan, nan, 2, 2}, 11, 2), 0,
			[]float64{-1, nan, 1, 0.5, nan, 1, 0, 1, 0, 2, 1, nan, 1, 3, 1, nan, nan, nan, 2, 2},
			[]int64{5, 4, 6, 2, 4, 1, 0, 7, 3, 8, 9},
			[]int64{1, 1, 1, 1, 2, 1, 1, 1, 1, 1}},
	} {
		var u, i, n *Tensor
		if c.dim < 0 {
			u, i, n = Unique(c.x)
		} else {
			u, i, n = UniqueDim(c.x, c.dim)
		}
		if !sameBits(u.Float64s(), c.values) || !slices.Equal(i.Int64s(), c.inverse) || !slices.Equal(n.Int64s(), c.count) {
			t.Errorf("%s: values %v inverse %v counts %v\nwant %v inverse %v counts %v",
				c.name, u.Float64s(), i.Int64s(), n.Int64s(), c.values, c.inverse, c.count)
		}
	}
	// 40 rows [±0, x%2]: std::sort leaves a -0 row first among the rows
	// [0, 1], where a stable sort would keep row 1's +0
	rows := make([]float32, 0, 80)
	for x := 0; x < 40; x++ {
		z := float32(0)
		if x%3 == 0 {
			z = float32(nz)
		}
		rows = append(rows, z, float32(x%2))
	}
	u, i, n := UniqueDim(FromSlice(rows, 40, 2), 0)
	if want := []float64{nz, 0, nz, 1}; !sameBits(u.Float64s(), want) {
		t.Errorf("rows of ±0: values %v, want %v", u.Float64s(), want)
	}
	for k, g := range i.Int64s() {
		if g != int64(k%2) {
			t.Errorf("rows of ±0: inverse %v", i.Int64s())
			break
		}
	}
	if !slices.Equal(n.Int64s(), []int64{20, 20}) {
		t.Errorf("rows of ±0: counts %v", n.Int64s())
	}
}
