package tensor_test

import (
	"math"
	"slices"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestKthValueTies checks the index kthvalue returns among equal elements
// against PyTorch 1.13's (Note [kthvalue's tie order] in package kernel):
// the expected indices were computed with torch.kthvalue for every k.
func TestKthValueTies(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		row  []float32
		want []int64
	}{
		{[]float32{2, 2, 2, 2, 2, 2}, []int64{4, 2, 0, 3, 1, 5}},
		{[]float32{1, 3, 1, 3, 1, 3, 1}, []int64{4, 6, 0, 2, 1, 5, 3}},
		{[]float32{5, 1, 5, 1, 5, 1, 5, 1, 5}, []int64{3, 7, 5, 1, 4, 0, 6, 2, 8}},
		{[]float32{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, []int64{5, 1, 9, 8, 0, 4, 2, 10, 3, 7, 6, 11}},
		{[]float32{float32(nan), 1, float32(nan), 1, float32(math.Copysign(0, -1)), 0}, []int64{5, 4, 1, 3, 0, 2}},
	} {
		for _, dev := range []Device{CPU, refDevice} {
			x := FromSlice(c.row, len(c.row)).ToDevice(dev)
			var got []int64
			for k := 1; k <= len(c.row); k++ {
				_, i := KthValue(x, k, 0, false)
				got = append(got, i.Int64s()...)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%v on %v: kthvalue indices %v, want PyTorch's %v", c.row, dev, got, c.want)
			}
		}
	}
}
