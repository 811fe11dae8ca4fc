package tensor_test

import (
	"errors"
	"math/bits"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/tensor"
)

// halfInt squared overflows an int: 2^32 with 64-bit ints, 2^16 with 32.
const halfInt = 1 << (bits.UintSize / 2)

func TestFromStorage(t *testing.T) {
	s := device.Alloc(6 * 4)
	a := tensor.FromStorage(s, tensor.Float32, []int{2, 3}, nil, 0)
	b := tensor.FromStorage(s, tensor.Float32, []int{3, 2}, []int{1, 3}, 0) // a's transpose
	if !a.SharesStorage(b) {
		t.Fatal("two tensors over one storage do not share it")
	}
	a.Set(tensor.Scalar(7), 1, 2)
	if got := b.At(2, 1); got != 7 {
		t.Fatalf("write through one view: the other reads %v, want 7", got)
	}
	c := tensor.FromStorage(s, tensor.Float32, []int{2}, []int{2}, 1)
	if got := c.Float64s(); got[0] != 0 || got[1] != 0 {
		t.Fatalf("offset view reads %v", got)
	}
	c.Set(tensor.Scalar(5), 1) // element 1+2 = a[1,0]
	if a.At(1, 0) != 5 {
		t.Fatalf("offset view wrote elsewhere: a = %v", a.Float64s())
	}
	if e := tensor.FromStorage(s, tensor.Int64, []int{0, 5}, nil, 3); e.NumEl() != 0 {
		t.Fatal("empty view has elements")
	}
	bad := []struct {
		name    string
		dt      tensor.DType
		shape   []int
		strides []int
		offset  int
	}{
		{"past the end", tensor.Float32, []int{7}, nil, 0},
		{"offset past the end", tensor.Float32, []int{2, 3}, nil, 1},
		{"wider dtype", tensor.Float64, []int{2, 3}, nil, 0},
		{"negative stride", tensor.Float32, []int{2}, []int{-1}, 1},
		{"negative size", tensor.Float32, []int{-1}, nil, 0},
		{"negative offset", tensor.Float32, []int{1}, nil, -1},
		{"stride count", tensor.Float32, []int{2}, []int{1, 1}, 0},
		{"overflow", tensor.Float32, []int{halfInt, halfInt}, []int{halfInt, 1}, 0},
		{"invalid dtype", tensor.DType(0), []int{1}, nil, 0},
	}
	for _, c := range bad {
		err := tensor.Try(func() { tensor.FromStorage(s, c.dt, c.shape, c.strides, c.offset) })
		var e *tensor.Error
		// sizes whose product overflows are the shape error every factory gives
		// (Note [Checked sizes]); the rest are value errors
		want := tensor.ValueError
		if c.name == "overflow" {
			want = tensor.ShapeError
		}
		if !errors.As(err, &e) || e.Kind != want {
			t.Errorf("%s: got %v, want a %v error", c.name, err, want)
		}
	}
}

func TestWrapHost(t *testing.T) {
	buf := device.Alloc(32).Bytes() // 16-byte aligned host memory
	released := 0
	s := device.WrapHost(buf, func() { released++ })
	x := tensor.FromStorage(s, tensor.Int32, []int{8}, nil, 0)
	buf[4] = 9
	if x.At(1) != 9 {
		t.Fatalf("wrapped storage does not read the wrapped bytes: %v", x.Float64s())
	}
	if released != 0 {
		t.Fatal("released while in use")
	}
	odd := device.WrapHost(buf[1:17], nil)
	if err := tensor.Try(func() { tensor.FromStorage(odd, tensor.Int32, []int{4}, nil, 0) }); err == nil {
		t.Error("misaligned int32 elements were viewed")
	}
	if y := tensor.FromStorage(odd, tensor.Uint8, []int{16}, nil, 0); y.At(3) != 9 {
		t.Errorf("bytes viewed at an odd address: %v", y.Float64s())
	}
}
