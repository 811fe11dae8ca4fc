package tensor_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestTopKTies checks which of several equal elements topk returns, and
// in which order, against PyTorch 1.13's (Note [topk's tie order] in
// package kernel). Row i holds (i·mul + add) mod m − ⌊m/2⌋, NaN where
// nanEvery divides i+1, -0 for the odd zeros; the expected indices were
// computed with torch.topk on that row as float32, and are the same in
// float64, bfloat16 and (rows without NaN) int32. The rows cover the heap
// (k·64 ≤ n) and the selection with its sort past 16 elements, on the
// CPU's float32 fast path, its other dtypes, a strided row, and the
// reference backend.
func TestTopKTies(t *testing.T) {
	for _, c := range []struct {
		n, mul, add, m, nanEvery, k int
		largest                     bool
		want                        []int64
	}{
		{6, 1, 0, 1, 0, 3, true, []int64{3, 5, 4}},
		{40, 7, 1, 3, 0, 20, true, []int64{19, 34, 4, 37, 7, 31, 10, 28, 13, 25, 16, 22, 1, 33, 21, 39, 0, 27, 36, 24}},
		{40, 7, 1, 3, 5, 25, false, []int64{26, 17, 32, 11, 35, 20, 8, 23, 5, 38, 2, 36, 33, 6, 3, 12, 0, 15, 18, 30, 21, 27, 31, 1, 28}},
		{200, 13, 2, 5, 0, 3, true, []int64{14, 4, 9}},
		{200, 7, 3, 4, 9, 3, false, []int64{11, 3, 7}},
		{130, 1, 0, 2, 0, 2, true, []int64{3, 1}},
		{1000, 17, 5, 10, 0, 99, false, []int64{915, 955, 615, 75, 935, 455, 625, 85, 445, 925, 635, 95, 435, 595, 645, 105, 425, 905, 415, 115, 655, 405, 665, 125, 895, 555, 465, 35, 995, 965, 65, 585, 5, 505, 535, 45, 605, 395, 575, 975, 475, 15, 985, 515, 525, 55, 485, 565, 25, 225, 195, 735, 835, 315, 205, 745, 825, 305, 215, 295, 755, 815, 325, 285, 765, 805, 235, 275, 775, 265, 245, 795, 785, 255, 865, 135, 675, 885, 385, 685, 145, 375, 875, 155, 695, 365, 545, 165, 355, 705, 855, 175, 345, 715, 335, 185, 845, 725, 945}},
		{1000, 31, 4, 6, 7, 15, true, []int64{76, 48, 69, 83, 27, 90, 20, 97, 41, 55, 104, 13, 62, 34, 6}},
		{50, 5, 0, 6, 4, 50, true, []int64{47, 3, 43, 39, 7, 35, 31, 27, 11, 23, 19, 15, 49, 13, 25, 1, 37, 20, 26, 14, 8, 38, 44, 2, 32, 9, 45, 21, 33, 22, 28, 34, 10, 46, 4, 16, 40, 29, 17, 5, 41, 0, 12, 42, 36, 30, 18, 48, 6, 24}},
		{4096, 7919, 13, 9, 0, 16, true, []int64{104, 50, 95, 59, 5, 122, 68, 131, 23, 77, 113, 32, 140, 86, 41, 14}},
		{128, 5, 1, 3, 0, 2, false, []int64{4, 1}},
		{192, 1, 0, 2, 0, 3, true, []int64{5, 1, 3}},
	} {
		vals := make([]float32, 2*c.n) // every other one: the strided row
		for i := range c.n {
			x := float32((i*c.mul+c.add)%c.m - c.m/2)
			switch {
			case c.nanEvery > 0 && (i+1)%c.nanEvery == 0:
				x = float32(math.NaN())
			case x == 0 && i%2 == 1:
				x = float32(math.Copysign(0, -1))
			}
			vals[2*i] = x
		}
		wide := FromSlice(vals, c.n, 2)
		rows := map[string]*Tensor{"contiguous": wide.Select(1, 0).Contiguous(), "strided": wide.Select(1, 0)}
		dtypes := []DType{Float32, Float64, BFloat16}
		if c.nanEvery == 0 {
			dtypes = append(dtypes, Int32)
		}
		for _, dt := range dtypes {
			for layout, x := range rows {
				for _, dev := range []Device{CPU, refDevice} {
					name := fmt.Sprintf("n=%d k=%d largest=%v %v %s on %v", c.n, c.k, c.largest, dt, layout, dev)
					_, i := TopK(x.To(dt).ToDevice(dev), c.k, 0, c.largest)
					if got := i.Int64s(); !slices.Equal(got, c.want) {
						t.Errorf("%s: indices %v, want PyTorch's %v", name, got, c.want)
					}
				}
			}
		}
	}
}
