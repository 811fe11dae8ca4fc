package tensor_test

import (
	"errors"
	"math"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	. "github.com/goten-ml/goten/tensor"
)

// segmentDense is SegmentReduce by dense reductions of each segment.
func segmentDense(x *Tensor, offsets []int64, r Reduction) *Tensor {
	var parts []*Tensor
	for b := 0; b+1 < len(offsets); b++ {
		s := x.Narrow(0, int(offsets[b]), int(offsets[b+1]-offsets[b]))
		var v *Tensor
		switch r {
		case ReduceSum:
			v = s.Sum(Over(0))
		case ReduceMean:
			v = s.Mean(Over(0))
		case ReduceAmax:
			v = s.Amax(Over(0))
		case ReduceAmin:
			v = s.Amin(Over(0))
		}
		parts = append(parts, v.Unsqueeze(0))
	}
	return Cat(parts, 0)
}

var segReductions = []struct {
	name string
	r    Reduction
}{{"sum", ReduceSum}, {"mean", ReduceMean}, {"amax", ReduceAmax}, {"amin", ReduceAmin}}

// SegmentReduce agrees with the dense reductions of each segment, for
// float32 and float64, 1-D and 3-D inputs, a transposed input, and NaN.
func TestSegmentReduce(t *testing.T) {
	g := NewGenerator(21)
	offsets := []int64{0, 3, 4, 9, 11}
	for _, dt := range []DType{Float32, Float64} {
		inputs := map[string]*Tensor{
			"1d":         g.Randn(dt, 11),
			"3d":         g.Randn(dt, 11, 2, 3),
			"transposed": g.Randn(dt, 5, 11).T(),
		}
		nan := g.Randn(dt, 11, 2)
		nan.Narrow(0, 5, 1).Narrow(1, 1, 1).Fill(Scalar(math.NaN()))
		inputs["nan"] = nan
		for what, x := range inputs {
			for _, sr := range segReductions {
				got, want := SegmentReduce(x, offsets, sr.r), segmentDense(x, offsets, sr.r)
				if !AllClose(got, want, 1e-5, 1e-6, true) {
					t.Errorf("%v %s %s: got %v, want %v", dt, what, sr.name, got.Float64s(), want.Float64s())
				}
			}
		}
	}
	// empty segments: a sum of 0, a mean of NaN, amax refused
	x := g.Randn(Float64, 3, 2)
	e := []int64{0, 0, 3, 3}
	if s := SegmentReduce(x, e, ReduceSum); s.At(0, 1) != 0 || s.At(2, 0) != 0 {
		t.Errorf("sum over empty segments: %v", s.Float64s())
	}
	if m := SegmentReduce(x, e, ReduceMean); !math.IsNaN(m.At(0, 0)) {
		t.Errorf("mean over an empty segment: %v", m.Float64s())
	}
	for _, c := range []struct {
		what    string
		offsets []int64
		r       Reduction
		kind    ErrorKind
	}{
		{"amax of an empty segment", e, ReduceAmax, IndexError},
		{"offsets not ending at the rows", []int64{0, 2}, ReduceSum, ValueError},
		{"offsets decreasing", []int64{0, 2, 1, 3}, ReduceSum, ValueError},
		{"prod", []int64{0, 3}, ReduceProd, ValueError},
	} {
		if k := errorKindOf(func() { SegmentReduce(x, c.offsets, c.r) }); k != c.kind {
			t.Errorf("%s: kind %v, want %v", c.what, k, c.kind)
		}
	}
	if k := errorKindOf(func() { SegmentReduce(Ones(Int64, 3), []int64{0, 3}, ReduceSum) }); k != DTypeError {
		t.Errorf("int64 input: kind %v, want dtype", k)
	}
}

// The gradients of SegmentReduce against finite differences, and equal to
// those of the dense reductions of each segment.
func TestSegmentReduceGrad(t *testing.T) {
	g := NewGenerator(22)
	offsets := []int64{0, 2, 5, 6}
	for _, sr := range segReductions {
		x := g.Randn(Float64, 6, 3).SetRequiresGrad(true)
		f := func(in []*Tensor) []*Tensor { return []*Tensor{SegmentReduce(in[0], offsets, sr.r)} }
		if err := gradcheck.Check(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
			t.Errorf("%s: %v", sr.name, err)
		}
		if err := gradcheck.CheckSecond(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
			t.Errorf("%s, second order: %v", sr.name, err)
		}
		// ties: the gradient split evenly, as the dense amax's
		y := FromSlice([]float64{1, 3, 3, 2, 2, 0}, 6, 1).SetRequiresGrad(true)
		seed := FromSlice([]float64{1, 2, 3}, 3, 1)
		SegmentReduce(y, offsets, sr.r).Backward(seed)
		got := y.Grad().Float64s()
		y2 := FromSlice([]float64{1, 3, 3, 2, 2, 0}, 6, 1).SetRequiresGrad(true)
		segmentDense(y2, offsets, sr.r).Backward(seed)
		want := y2.Grad().Float64s()
		for k := range got {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Errorf("%s with ties: grad %v, want %v", sr.name, got, want)
				break
			}
		}
	}
}

// errorKindOf returns the kind of the error f panics with (0 for none).
func errorKindOf(f func()) ErrorKind {
	var e *Error
	if err := Try(f); errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// SegmentPad against its definition, for a float and an int dtype and a
// strided input; its gradient against finite differences; its errors.
func TestSegmentPad(t *testing.T) {
	g := NewGenerator(23)
	offsets := []int64{0, 2, 2, 5}
	for _, x := range []*Tensor{g.Randn(Float64, 5, 2, 3), g.Randn(Float32, 3, 5).T(), Arange(0, 10, 1, Int16).View(5, 2)} {
		p := SegmentPad(x, offsets, 4, Scalar(-2))
		if p.Size(0) != 3 || p.Size(1) != 4 || p.DType() != x.DType() {
			t.Fatalf("%v: shape %v", x.DType(), p.Shape())
		}
		flat, xs := p.Reshape(3, 4, -1), x.Reshape(5, -1)
		for b := range 3 {
			for r := range 4 {
				for c := range flat.Size(2) {
					want := -2.0
					if n := offsets[b+1] - offsets[b]; int64(r) < n {
						want = xs.At(int(offsets[b])+r, c)
					}
					if got := flat.At(b, r, c); got != want {
						t.Fatalf("%v: (%d, %d, %d) is %v, want %v", x.DType(), b, r, c, got, want)
					}
				}
			}
		}
	}
	x := g.Randn(Float64, 5, 2).SetRequiresGrad(true)
	f := func(in []*Tensor) []*Tensor { return []*Tensor{SegmentPad(in[0], offsets, 3, Scalar(0.5))} }
	if err := gradcheck.Check(f, []*Tensor{x}, gradcheck.Options{}); err != nil {
		t.Error(err)
	}
	if k := errorKindOf(func() { SegmentPad(x, offsets, 2, Scalar(0)) }); k != ValueError {
		t.Errorf("a segment longer than rows: kind %v", k)
	}
	if k := errorKindOf(func() { SegmentPad(x, []int64{0, 4}, 5, Scalar(0)) }); k != ValueError {
		t.Errorf("offsets short of the rows: kind %v", k)
	}
}
