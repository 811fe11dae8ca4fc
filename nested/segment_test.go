package nested_test

import (
	"testing"

	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

var denseReductions = map[string]nested.ReduceFunc{
	"sum": tensor.Sum, "mean": tensor.Mean, "amax": tensor.Amax, "amin": tensor.Amin,
}

// Reductions and softmax over the ragged dim (Note [Reductions over the
// ragged dim]) agree with the dense ops on each component, in float32 and
// float64, with and without keepdim, for 1-D and 3-D components.
func TestRaggedDimReductions(t *testing.T) {
	g := tensor.NewGenerator(31)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, shapes := range [][][]int{
			{{3, 2, 4}, {1, 2, 4}, {5, 2, 4}},
			{{4}, {2}, {6}, {1}},
		} {
			cs := ragged(g, shapes...)
			for i := range cs {
				cs[i] = cs[i].To(dt)
			}
			x := nested.New(cs, dt)
			for name, f := range denseReductions {
				for _, keep := range []bool{false, true} {
					got := nested.Reduce(name, f, x, 1, keep)
					o := tensor.Over(0)
					if keep {
						o = o.KeepDim()
					}
					for i, c := range cs {
						closeTo(t, name, got.Component(i), f(c, o))
					}
				}
			}
			sm, lsm := nested.Softmax(x, 1), nested.LogSoftmax(x, 1)
			for i, c := range cs {
				closeTo(t, "softmax", sm.Component(i), c.Softmax(tensor.Over(0)))
				closeTo(t, "log_softmax", lsm.Component(i), c.LogSoftmax(tensor.Over(0)))
			}
		}
	}
	// an empty component: sum 0, softmax empty, amax refused as the dense one
	x := nested.New(ragged(g, []int{2, 3}, []int{0, 3}), tensor.Float64)
	if s := nested.Reduce("sum", tensor.Sum, x, 1, false); !tensor.AllClose(s.Component(1), tensor.Zeros(tensor.Float64, 3), 0, 0, false) {
		t.Errorf("sum over an empty component: %v", s.Component(1).Float64s())
	}
	if s := nested.Softmax(x, 1); s.Component(1).NumEl() != 0 {
		t.Errorf("softmax of an empty component: %v", s.Component(1).Shape())
	}
	if k := errKind(func() { nested.Reduce("amax", tensor.Amax, x, 1, false) }); k != tensor.IndexError {
		t.Errorf("amax over an empty component: kind %v", k)
	}
}

// closeTo compares within float32's precision.
func closeTo(t *testing.T, what string, got, want *tensor.Tensor) {
	t.Helper()
	if got.DType() != want.DType() || !tensor.AllClose(got.To(tensor.Float64), want.To(tensor.Float64), 1e-5, 1e-6, true) {
		t.Fatalf("%s: got %v %v %v, want %v %v %v", what, got.DType(), got.Shape(), got.Float64s(), want.DType(), want.Shape(), want.Float64s())
	}
}

// BenchmarkRaggedSum sums the nested_to_padded workload's components over
// their ragged dim by one segment reduction; BenchmarkRaggedSumPerComponent
// does it by one dense reduction per component, for comparison.
func BenchmarkRaggedSum(b *testing.B) {
	cs, rows, _ := benchComponents()
	x := nested.New(cs, tensor.Float32)
	b.SetBytes(int64(4 * rows * 256))
	b.ResetTimer()
	for range b.N {
		nested.Reduce("sum", tensor.Sum, x, 1, false)
	}
}

func BenchmarkRaggedSumPerComponent(b *testing.B) {
	cs, rows, _ := benchComponents()
	x := nested.New(cs, tensor.Float32)
	b.SetBytes(int64(4 * rows * 256))
	b.ResetTimer()
	for range b.N {
		nested.Map(x, func(c *tensor.Tensor) *tensor.Tensor { return c.Sum(tensor.Over(0)) })
	}
}

// BenchmarkRaggedSoftmax is softmax over the ragged dim by segment
// reductions; BenchmarkRaggedSoftmaxPerComponent per component.
func BenchmarkRaggedSoftmax(b *testing.B) {
	cs, rows, _ := benchComponents()
	x := nested.New(cs, tensor.Float32)
	b.SetBytes(int64(8 * rows * 256))
	b.ResetTimer()
	for range b.N {
		nested.Softmax(x, 1)
	}
}

func BenchmarkRaggedSoftmaxPerComponent(b *testing.B) {
	cs, rows, _ := benchComponents()
	x := nested.New(cs, tensor.Float32)
	b.SetBytes(int64(8 * rows * 256))
	b.ResetTimer()
	for range b.N {
		nested.Map(x, func(c *tensor.Tensor) *tensor.Tensor { return c.Softmax(tensor.Over(0)) })
	}
}

// Reductions over the ragged dim of float16 and bfloat16 tensors are
// segment reductions too (their result is not packed from per-component
// results) and
// agree with the dense reductions of each component, which also
// accumulate in float32, to within an ulp of the dtype (the two sum in
// different orders before their one rounding).
func TestRaggedDimReductions16(t *testing.T) {
	g := tensor.NewGenerator(32)
	cs := ragged(g, []int{3, 2, 4}, []int{1, 2, 4}, []int{7, 2, 4})
	for _, dt := range []tensor.DType{tensor.Float16, tensor.BFloat16} {
		ulp := 1.0 / 1024
		if dt == tensor.BFloat16 {
			ulp = 1.0 / 128
		}
		hs := make([]*tensor.Tensor, len(cs))
		for i, c := range cs {
			hs[i] = c.To(dt)
		}
		x := nested.New(hs, dt).SetRequiresGrad(true)
		for name, f := range denseReductions {
			got := nested.Reduce(name, f, x, 1, false)
			// the per-component path packs its results by Cat
			if fn := got.Values().GradFn(); fn == "CatBackward0" {
				t.Errorf("%s %v: recorded %q, a loop per component", name, dt, fn)
			}
			for i, c := range hs {
				want := f(c, tensor.Over(0)).To(tensor.Float64)
				diff := got.Component(i).To(tensor.Float64).Sub(want).Abs()
				bound := want.Abs().Mul(tensor.Scalar(ulp)).Add(tensor.Scalar(1e-6))
				if diff.Le(bound).All().Item() == 0 {
					t.Errorf("%s %v component %d: %v, want %v", name, dt, i, got.Component(i).To(tensor.Float64).Float64s(), want.Float64s())
				}
			}
		}
	}
}
