package tensor_test

import (
	"strings"
	"testing"

	"github.com/goten-ml/goten/gradcheck"
	. "github.com/goten-ml/goten/tensor"
)

// TestIndexGradients checks the derivatives of the index, gather, mask
// and sort ops (Note [Derivatives of index ops]) against finite
// differences, first and second order, with duplicate positions where the
// op allows them (their gradients add up).
func TestIndexGradients(t *testing.T) {
	g := NewGenerator(7)
	i64 := func(sh []int, xs ...int64) *Tensor { return FromSlice(xs, sh...) }
	mask := FromSlice([]bool{true, false, true, true, false, false, true, false, true, false, false, true}, 3, 4)
	rows := i64([]int{4}, 2, 0, 2, 1)               // duplicates
	pos := i64([]int{2, 4}, 1, 0, 2, 1, 0, 2, 2, 0) // along dim 0 of [3, 4]
	perm := i64([]int{2, 4}, 0, 1, 2, 0, 2, 0, 1, 1)
	flat := i64([]int{5}, 3, -1, 7, 3, 0)
	cases := []struct {
		name   string
		inputs func() []*Tensor
		f      gradcheck.Func
	}{
		{"index_select", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].IndexSelect(0, rows)} }},
		{"index_select-strided", func() []*Tensor { return []*Tensor{strided(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].IndexSelect(1, rows)} }},
		{"gather", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].Gather(0, pos)} }},
		{"scatter", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 2, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Scatter(x[0], 0, perm, x[1])} }},
		{"scatter-larger-src", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 3, 5)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Scatter(x[0], 0, perm, x[1])} }},
		{"scatter_add", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 2, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{ScatterAdd(x[0], 0, pos, x[1])} }},
		{"index_add-alpha", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 4, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{IndexAdd(x[0], 0, rows, x[1], Scalar(-1.5))} }},
		{"index_copy", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 3, 2)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{IndexCopy(x[0], 1, i64([]int{2}, 3, 0), x[1])} }},
		{"index_fill-tensor-value", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{IndexFill(x[0], 1, i64([]int{2}, 3, -4), x[1])} }},
		{"masked_fill", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{MaskedFill(x[0], mask, x[1])} }},
		{"masked_fill-broadcast", func() []*Tensor { return []*Tensor{draw(g, anywhere, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{MaskedFill(x[0], mask, Scalar(3))} }},
		{"masked_select", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{MaskedSelect(x[0], mask)} }},
		{"masked_scatter", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 2, 5)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{MaskedScatter(x[0], mask, x[1])} }},
		{"index-advanced", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].Index(Whole, Idx(rows))} }},
		{"index-mask", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].Index(Idx(mask))} }},
		{"index-basic", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{x[0].Index(Pos(1), From(1).By(2))} }},
		{"index_put-accumulate", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 4)} },
			func(x []*Tensor) []*Tensor {
				return []*Tensor{IndexPut(x[0], []Item{Idx(rows)}, x[1].Unsqueeze(1), true)}
			}},
		{"index_put", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 4)} },
			func(x []*Tensor) []*Tensor {
				return []*Tensor{IndexPut(x[0], []Item{Whole, Idx(i64([]int{2}, 3, 1))}, x[1].Narrow(0, 0, 1), false)}
			}},
		{"take", func() []*Tensor { return []*Tensor{strided(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Take(x[0], flat)} }},
		{"put-accumulate", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 5)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Put(x[0], flat, x[1], true)} }},
		{"put", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 5)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Put(x[0], i64([]int{5}, 3, -1, 7, 2, 0), x[1], false)} }},
		{"sort", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { v, _ := x[0].Sort(0, true); return []*Tensor{v} }},
		{"topk", func() []*Tensor { return []*Tensor{strided(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { v, _ := TopK(x[0], 2, -1, false); return []*Tensor{v} }},
		{"kthvalue", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { v, _ := KthValue(x[0], 2, 1, false); return []*Tensor{v} }},
		{"median-dim-keepdim", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { v, _ := MedianDim(x[0], 0, true); return []*Tensor{v} }},
		{"median-all", func() []*Tensor { return []*Tensor{strided(g, anywhere, 3, 4)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Median(x[0])} }},
		{"nanmedian-all", func() []*Tensor { return []*Tensor{draw(g, anywhere, 5)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{NanMedian(x[0])} }},
		{"embedding", func() []*Tensor { return []*Tensor{draw(g, anywhere, 5, 3)} },
			func(x []*Tensor) []*Tensor { return []*Tensor{Embedding(pos, x[0])} }},
	}
	// scatter_reduce, every reduction with and without self; pos sends
	// two values to some elements and none to others, and src is larger
	// than the index
	for _, r := range []struct {
		name string
		r    Reduction
	}{{"sum", ReduceSum}, {"prod", ReduceProd}, {"mean", ReduceMean}, {"amax", ReduceAmax}, {"amin", ReduceAmin}} {
		for _, self := range []bool{true, false} {
			name := "scatter_reduce-" + r.name
			if !self {
				name += "-exclude_self"
			}
			cases = append(cases, struct {
				name   string
				inputs func() []*Tensor
				f      gradcheck.Func
			}{name, func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 3, 5)} },
				func(x []*Tensor) []*Tensor { return []*Tensor{ScatterReduce(x[0], 0, pos, x[1], r.r, self)} }})
		}
	}
	cases = append(cases, struct {
		name   string
		inputs func() []*Tensor
		f      gradcheck.Func
	}{"scatter_reduce_-prod", func() []*Tensor { return []*Tensor{draw(g, anywhere, 3, 4), draw(g, anywhere, 2, 4)} },
		func(x []*Tensor) []*Tensor {
			return []*Tensor{x[0].Mul(Scalar(1)).ScatterReduceInPlace(0, pos, x[1], ReduceProd, true)}
		}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := gradcheck.Check(c.f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("first derivative: %v", err)
			}
			if err := gradcheck.CheckSecond(c.f, c.inputs(), gradcheck.Options{}); err != nil {
				t.Errorf("second derivative: %v", err)
			}
		})
	}
}

// TestIndexGradientsRefused checks that the ops whose derivative goten
// lacks fail in backward with autograd's error instead of dropping the
// gradient, and that an in-place index write into a leaf that requires
// grad is refused before anything is written.
func TestIndexGradientsRefused(t *testing.T) {
	x := FromSlice([]float64{3, 1, 2}, 3).SetRequiresGrad(true)
	idx := FromSlice([]int64{0, 0}, 2)
	// PyTorch 1.13's messages: the derivative for '_unique2' is not
	// implemented; derivative for aten::scatter is not implemented
	for name, f := range map[string]func() *Tensor{
		"unique":      func() *Tensor { u, _, _ := Unique(x); return u },
		"scatter-mul": func() *Tensor { return Scatter(x, 0, idx, x.Narrow(0, 0, 2), ReduceProd) },
		"scatter-add": func() *Tensor { return Scatter(x, 0, idx, x.Narrow(0, 0, 2), ReduceSum) },
		"bincount":    func() *Tensor { return Bincount(FromSlice([]int64{0, 2, 2}, 3), x, 0) },
	} {
		err := Try(func() { f().Sum().Backward() })
		if e, ok := err.(*Error); !ok || e.Kind != AutogradError || !strings.Contains(e.Error(), "not implemented") {
			t.Errorf("%s: backward gave %v, want autograd's not implemented error", name, err)
		}
	}
	if h := Histc(x, 3, 0, 0); h.RequiresGrad() {
		t.Errorf("histc's result requires grad; PyTorch's does not")
	}
	before := x.Float64s()
	err := Try(func() { x.IndexFillInPlace(0, idx, Scalar(9)) })
	if e, ok := err.(*Error); !ok || e.Kind != AutogradError {
		t.Errorf("index_fill_ on a leaf: %v, want an autograd error", err)
	}
	if got := x.Float64s(); got[0] != before[0] || got[1] != before[1] || got[2] != before[2] {
		t.Errorf("the refused index_fill_ wrote into the leaf")
	}
}
