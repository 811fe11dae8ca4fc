package shape

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/goten-ml/goten/errs"
)

func lay(sizes, strides []int, offset int) Layout {
	return Layout{Sizes: sizes, Strides: strides, Offset: offset}
}

func ip(i int) *int { return &i }

// sameLayout compares sizes, offset and the strides of dims of size > 1.
func sameLayout(got, want Layout) bool {
	if !Equal(got.Sizes, want.Sizes) || got.Offset != want.Offset || len(got.Strides) != len(want.Strides) {
		return false
	}
	for i, s := range want.Sizes {
		if s > 1 && got.Strides[i] != want.Strides[i] {
			return false
		}
	}
	return true
}

// checkErr reports whether err is an *errs.Error of kind k whose message
// (without the op prefix) is msg, when msg is not empty.
func checkErr(t *testing.T, name string, err error, k errs.Kind, msg string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v (%T), want *errs.Error of kind %s", name, err, err, k)
		return
	}
	if e.Kind != k {
		t.Errorf("%s: kind %s (%v), want %s", name, e.Kind, err, k)
	}
	if msg != "" && e.Msg != msg {
		t.Errorf("%s: message\n  %q\nwant\n  %q", name, e.Msg, msg)
	}
	if e.Op == "" {
		t.Errorf("%s: error %q names no op", name, err)
	}
}

type layoutCase struct {
	name string
	fn   func() (Layout, error)
	want Layout
	kind errs.Kind // 0: no error
	msg  string    // exact message when not empty
}

func runLayoutCases(t *testing.T, cases []layoutCase) {
	t.Helper()
	for _, c := range cases {
		got, err := c.fn()
		if c.kind != 0 {
			checkErr(t, c.name, err, c.kind, c.msg)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !sameLayout(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

var (
	c234  = Dense([]int{2, 3, 4})
	c234T = lay([]int{4, 3, 2}, []int{1, 4, 12}, 0) // c234 permuted (2, 1, 0)
)

func TestView(t *testing.T) {
	view := func(l Layout, sizes ...int) func() (Layout, error) {
		return func() (Layout, error) { return View(l, sizes) }
	}
	const incompatible = "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
	runLayoutCases(t, []layoutCase{
		{name: "merge", fn: view(c234, 6, 4), want: lay([]int{6, 4}, []int{4, 1}, 0)},
		{name: "infer", fn: view(c234, 2, -1), want: lay([]int{2, 12}, []int{12, 1}, 0)},
		{name: "flat", fn: view(c234, -1), want: lay([]int{24}, []int{1}, 0)},
		{name: "ones", fn: view(c234, 1, 2, 1, 12, 1), want: lay([]int{1, 2, 1, 12, 1}, []int{24, 12, 12, 1, 1}, 0)},
		{name: "offset kept", fn: view(lay([]int{2, 3}, []int{3, 1}, 5), 3, 2), want: lay([]int{3, 2}, []int{2, 1}, 5)},
		{name: "split transposed", fn: view(c234T, 2, 2, 3, 2), want: lay([]int{2, 2, 3, 2}, []int{2, 1, 4, 12}, 0)},
		{name: "merge transposed", fn: view(c234T, 12, 2), kind: errs.View, msg: incompatible},
		{name: "sliced rows", fn: view(lay([]int{2, 3}, []int{4, 1}, 1), 6), kind: errs.View, msg: incompatible},
		{name: "sliced rows split", fn: view(lay([]int{2, 4}, []int{8, 1}, 0), 2, 2, 2), want: lay([]int{2, 2, 2}, []int{8, 2, 1}, 0)},
		{name: "expanded", fn: view(lay([]int{3, 4}, []int{0, 1}, 0), 3, 2, 2), want: lay([]int{3, 2, 2}, []int{0, 2, 1}, 0)},
		{name: "expanded merge", fn: view(lay([]int{3, 4}, []int{0, 1}, 0), 12), kind: errs.View},
		{name: "0-dim to ones", fn: view(Dense(nil), 1, 1), want: lay([]int{1, 1}, []int{1, 1}, 0)},
		{name: "ones to 0-dim", fn: view(lay([]int{1, 1}, []int{7, 9}, 2)), want: lay([]int{}, []int{}, 2)},
		{name: "empty same", fn: view(lay([]int{0, 3}, []int{5, 7}, 0), 0, 3), want: lay([]int{0, 3}, []int{5, 7}, 0)},
		{name: "empty reshaped", fn: view(lay([]int{0, 3}, []int{5, 7}, 0), 3, 0, 2), want: lay([]int{3, 0, 2}, []int{2, 2, 1}, 0)},
		{name: "count", fn: view(c234, 2, 5), kind: errs.Shape, msg: "shape '[2, 5]' is invalid for input of size 24"},
		{name: "two infer", fn: view(c234, -1, -1), kind: errs.Value, msg: "only one dimension can be inferred"},
		{name: "negative", fn: view(c234, -2, -12), kind: errs.Value, msg: "invalid shape dimension -2"},
		{name: "ambiguous", fn: view(Dense([]int{0, 2}), -1, 0), kind: errs.Value},
		{name: "not divisible", fn: view(c234, -1, 5), kind: errs.Shape, msg: "shape '[-1, 5]' is invalid for input of size 24"},
	})
}

func TestReshape(t *testing.T) {
	for _, c := range []struct {
		l        Layout
		sizes    []int
		want     Layout
		needCopy bool
	}{
		{c234, []int{4, 6}, lay([]int{4, 6}, []int{6, 1}, 0), false},
		{c234T, []int{24}, lay([]int{24}, []int{1}, 0), true},
		{lay([]int{2, 3}, []int{4, 1}, 3), []int{-1}, lay([]int{6}, []int{1}, 0), true},
		{lay([]int{2, 3}, []int{4, 1}, 3), []int{2, 3, 1}, lay([]int{2, 3, 1}, []int{4, 1, 1}, 3), false},
	} {
		got, needCopy, err := Reshape(c.l, c.sizes)
		if err != nil || needCopy != c.needCopy || !sameLayout(got, c.want) {
			t.Errorf("Reshape(%v, %v) = %v, %v, %v; want %v, %v", c.l, c.sizes, got, needCopy, err, c.want, c.needCopy)
		}
	}
	_, _, err := Reshape(c234, []int{33, 1})
	checkErr(t, "reshape count", err, errs.Shape, "shape '[33, 1]' is invalid for input of size 24")
}

func TestInferSize(t *testing.T) {
	got, err := InferSize([]int{-1, 3}, 12)
	if err != nil || !Equal(got, []int{4, 3}) {
		t.Errorf("InferSize([-1, 3], 12) = %v, %v", got, err)
	}
	got, err = InferSize([]int{0, -1}, 0)
	if err == nil {
		t.Errorf("InferSize([0, -1], 0) = %v, want an error", got)
	}
}

func TestPermuteTransposeT(t *testing.T) {
	runLayoutCases(t, []layoutCase{
		{name: "permute", fn: func() (Layout, error) { return Permute(c234, []int{2, 0, -2}) }, want: lay([]int{4, 2, 3}, []int{1, 12, 4}, 0)},
		{name: "permute 0-dim", fn: func() (Layout, error) { return Permute(Dense(nil), nil) }, want: lay([]int{}, []int{}, 0)},
		{name: "permute length", fn: func() (Layout, error) { return Permute(c234, []int{0, 1, 2, 3}) }, kind: errs.Value},
		{name: "permute dup", fn: func() (Layout, error) { return Permute(c234, []int{0, 1, -3}) }, kind: errs.Value},
		{name: "permute range", fn: func() (Layout, error) { return Permute(c234, []int{0, 1, 3}) }, kind: errs.Index, msg: "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
		{name: "transpose", fn: func() (Layout, error) { return Transpose(c234, 0, -1) }, want: lay([]int{4, 3, 2}, []int{1, 4, 12}, 0)},
		{name: "transpose same", fn: func() (Layout, error) { return Transpose(c234, 1, -2) }, want: c234},
		{name: "transpose 0-dim", fn: func() (Layout, error) { return Transpose(Dense(nil), 0, -1) }, want: lay([]int{}, []int{}, 0)},
		{name: "transpose range", fn: func() (Layout, error) { return Transpose(Dense([]int{2, 2}), 1, 2) }, kind: errs.Index, msg: "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{name: "t", fn: func() (Layout, error) { return T(lay([]int{2, 3}, []int{3, 1}, 1)) }, want: lay([]int{3, 2}, []int{1, 3}, 1)},
		{name: "t 1-d", fn: func() (Layout, error) { return T(Dense([]int{5})) }, want: Dense([]int{5})},
		{name: "t 3-d", fn: func() (Layout, error) { return T(c234) }, kind: errs.Shape, msg: "expects a tensor with <= 2 dimensions, but self is 3D"},
	})
}

func TestExpand(t *testing.T) {
	exp := func(l Layout, sizes ...int) func() (Layout, error) {
		return func() (Layout, error) { return Expand(l, sizes) }
	}
	col := Dense([]int{3, 1})
	runLayoutCases(t, []layoutCase{
		{name: "singleton", fn: exp(col, 3, 4), want: lay([]int{3, 4}, []int{1, 0}, 0)},
		{name: "keep", fn: exp(col, -1, 4), want: lay([]int{3, 4}, []int{1, 0}, 0)},
		{name: "leading", fn: exp(col, 2, 3, 4), want: lay([]int{2, 3, 4}, []int{0, 1, 0}, 0)},
		{name: "leading 1", fn: exp(col, 1, 3, 1), want: lay([]int{1, 3, 1}, []int{3, 1, 1}, 0)},
		{name: "0-dim", fn: exp(lay(nil, nil, 4), 2, 3), want: lay([]int{2, 3}, []int{0, 0}, 4)},
		{name: "same", fn: exp(c234T, 4, 3, 2), want: c234T},
		{name: "mismatch", fn: exp(Dense([]int{3, 1, 2, 5}), 4, 1, 2, 5), kind: errs.Shape,
			msg: "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [4, 1, 2, 5].  Tensor sizes: [3, 1, 2, 5]"},
		{name: "too few", fn: exp(col, 3), kind: errs.Shape},
		{name: "leading -1", fn: exp(col, -1, 3, 4), kind: errs.Value},
		{name: "negative", fn: exp(col, 3, -2), kind: errs.Value},
		{name: "as", fn: func() (Layout, error) { return ExpandAs(col, []int{3, 4}) }, want: lay([]int{3, 4}, []int{1, 0}, 0)},
	})
}

func TestNarrowSelectSlice(t *testing.T) {
	l := lay([]int{4, 5}, []int{10, 2}, 1)
	runLayoutCases(t, []layoutCase{
		{name: "narrow", fn: func() (Layout, error) { return Narrow(l, 1, 1, 3) }, want: lay([]int{4, 3}, []int{10, 2}, 3)},
		{name: "narrow negative start", fn: func() (Layout, error) { return Narrow(l, -2, -2, 2) }, want: lay([]int{2, 5}, []int{10, 2}, 21)},
		{name: "narrow at end", fn: func() (Layout, error) { return Narrow(l, 0, 4, 0) }, want: lay([]int{0, 5}, []int{10, 2}, 41)},
		{name: "narrow beyond", fn: func() (Layout, error) { return Narrow(l, 0, 1, 4) }, kind: errs.Index, msg: "start (1) + length (4) exceeds dimension size (4)."},
		{name: "narrow start range", fn: func() (Layout, error) { return Narrow(l, 0, 5, 0) }, kind: errs.Index},
		{name: "narrow length", fn: func() (Layout, error) { return Narrow(l, 0, 0, -1) }, kind: errs.Value},
		{name: "narrow 0-dim", fn: func() (Layout, error) { return Narrow(Dense(nil), 0, 0, 1) }, kind: errs.Index},
		{name: "select", fn: func() (Layout, error) { return Select(l, 1, -1) }, want: lay([]int{4}, []int{10}, 9)},
		{name: "select 0", fn: func() (Layout, error) { return Select(l, 0, 2) }, want: lay([]int{5}, []int{2}, 21)},
		{name: "select range", fn: func() (Layout, error) { return Select(Dense([]int{2, 5}), -2, 2) }, kind: errs.Index, msg: "index 2 out of range for tensor of size [2, 5] at dimension 0"},
		{name: "select 0-dim", fn: func() (Layout, error) { return Select(Dense(nil), 0, 0) }, kind: errs.Index},
		{name: "slice step", fn: func() (Layout, error) { return Slice(l, 1, ip(1), nil, 2) }, want: lay([]int{4, 2}, []int{10, 4}, 3)},
		{name: "slice negative", fn: func() (Layout, error) { return Slice(l, 0, ip(-3), ip(-1), 1) }, want: lay([]int{2, 5}, []int{10, 2}, 11)},
		{name: "slice clamp", fn: func() (Layout, error) { return Slice(l, 0, ip(-10), ip(10), 3) }, want: lay([]int{2, 5}, []int{30, 2}, 1)},
		{name: "slice empty", fn: func() (Layout, error) { return Slice(l, 0, ip(3), ip(1), 1) }, want: lay([]int{0, 5}, []int{10, 2}, 31)},
		{name: "slice past end", fn: func() (Layout, error) { return Slice(l, 1, ip(7), nil, 1) }, want: lay([]int{4, 0}, []int{10, 2}, 11)},
		{name: "slice zero step", fn: func() (Layout, error) { return Slice(l, 1, nil, nil, 0) }, kind: errs.Value, msg: "slice step must be positive"},
		{name: "slice dim", fn: func() (Layout, error) { return Slice(l, 2, nil, nil, 1) }, kind: errs.Index},
	})
}

func TestSqueezeUnsqueeze(t *testing.T) {
	l := lay([]int{1, 3, 1, 2}, []int{9, 2, 7, 1}, 2)
	runLayoutCases(t, []layoutCase{
		{name: "all", fn: func() (Layout, error) { return Squeeze(l) }, want: lay([]int{3, 2}, []int{2, 1}, 2)},
		{name: "dim", fn: func() (Layout, error) { return Squeeze(l, -2) }, want: lay([]int{1, 3, 2}, []int{9, 2, 1}, 2)},
		{name: "not 1", fn: func() (Layout, error) { return Squeeze(l, 1) }, want: l},
		{name: "0-dim", fn: func() (Layout, error) { return Squeeze(Dense(nil), -1) }, want: lay([]int{}, []int{}, 0)},
		{name: "range", fn: func() (Layout, error) { return Squeeze(l, 4) }, kind: errs.Index, msg: "Dimension out of range (expected to be in range of [-4, 3], but got 4)"},
		// PyTorch 2.0's squeeze(dims): every listed dim of size 1 goes, the others stay
		{name: "dims", fn: func() (Layout, error) { return Squeeze(l, 0, 2) }, want: lay([]int{3, 2}, []int{2, 1}, 2)},
		{name: "dims not 1", fn: func() (Layout, error) { return Squeeze(l, 0, 1) }, want: lay([]int{3, 1, 2}, []int{2, 7, 1}, 2)},
		{name: "dims any order", fn: func() (Layout, error) { return Squeeze(l, -2, 3, 0) }, want: lay([]int{3, 2}, []int{2, 1}, 2)},
		{name: "dims repeated", fn: func() (Layout, error) { return Squeeze(l, 0, -4) }, kind: errs.Value, msg: "dim 0 appears multiple times in the list of dims"},
		{name: "dims repeated not 1", fn: func() (Layout, error) { return Squeeze(l, 1, 1) }, kind: errs.Value, msg: "dim 1 appears multiple times in the list of dims"},
		{name: "dims range", fn: func() (Layout, error) { return Squeeze(l, 0, -5) }, kind: errs.Index},
		{name: "0-dim dims", fn: func() (Layout, error) { return Squeeze(Dense(nil), 0, -1) }, kind: errs.Value, msg: "dim 0 appears multiple times in the list of dims"},
		{name: "unsqueeze front", fn: func() (Layout, error) { return Unsqueeze(c234, 0) }, want: lay([]int{1, 2, 3, 4}, []int{24, 12, 4, 1}, 0)},
		{name: "unsqueeze end", fn: func() (Layout, error) { return Unsqueeze(c234, -1) }, want: lay([]int{2, 3, 4, 1}, []int{12, 4, 1, 1}, 0)},
		{name: "unsqueeze 0-dim", fn: func() (Layout, error) { return Unsqueeze(lay(nil, nil, 3), 0) }, want: lay([]int{1}, []int{1}, 3)},
		{name: "unsqueeze range", fn: func() (Layout, error) { return Unsqueeze(c234, 4) }, kind: errs.Index, msg: "Dimension out of range (expected to be in range of [-4, 3], but got 4)"},
	})
	got, _ := Unsqueeze(c234, 1)
	if !Equal(got.Strides, []int{12, 12, 4, 1}) {
		t.Errorf("Unsqueeze(c234, 1) strides %v, want [12 12 4 1]", got.Strides)
	}
}

func TestFlattenUnflatten(t *testing.T) {
	for _, c := range []struct {
		l          Layout
		start, end int
		want       Layout
		needCopy   bool
	}{
		{c234, 0, -1, lay([]int{24}, []int{1}, 0), false},
		{c234, 1, 2, lay([]int{2, 12}, []int{12, 1}, 0), false},
		{c234T, 0, 1, lay([]int{12, 2}, []int{2, 1}, 0), true},
		{c234T, 1, 1, c234T, false},
		{lay(nil, nil, 3), 0, -1, lay([]int{1}, []int{1}, 3), false},
	} {
		got, needCopy, err := Flatten(c.l, c.start, c.end)
		if err != nil || needCopy != c.needCopy || !sameLayout(got, c.want) {
			t.Errorf("Flatten(%v, %d, %d) = %v, %v, %v; want %v, %v", c.l, c.start, c.end, got, needCopy, err, c.want, c.needCopy)
		}
	}
	_, _, err := Flatten(c234, 2, 1)
	checkErr(t, "flatten order", err, errs.Value, "flatten() has invalid args: start_dim cannot come after end_dim")
	_, _, err = Flatten(c234, 0, 3)
	checkErr(t, "flatten range", err, errs.Index, "")

	runLayoutCases(t, []layoutCase{
		{name: "unflatten", fn: func() (Layout, error) { return Unflatten(c234T, 0, []int{2, -1}) }, want: lay([]int{2, 2, 3, 2}, []int{2, 1, 4, 12}, 0)},
		{name: "unflatten ones", fn: func() (Layout, error) { return Unflatten(c234, -2, []int{1, 3, 1}) }, want: lay([]int{2, 1, 3, 1, 4}, []int{12, 12, 4, 4, 1}, 0)},
		{name: "unflatten mismatch", fn: func() (Layout, error) { return Unflatten(Dense([]int{4, 3}), -2, []int{5, 1}) }, kind: errs.Shape,
			msg: "Provided sizes [5, 1] don't multiply up to the size of dim 0 (4) in the input tensor"},
		{name: "unflatten two -1", fn: func() (Layout, error) { return Unflatten(c234, 0, []int{-1, -1}) }, kind: errs.Value},
		{name: "unflatten empty", fn: func() (Layout, error) { return Unflatten(c234, 0, nil) }, kind: errs.Value},
		{name: "unflatten range", fn: func() (Layout, error) { return Unflatten(c234, 3, []int{1}) }, kind: errs.Index},
	})
}

func TestMovedim(t *testing.T) {
	l := Dense([]int{2, 3, 4, 5})
	mv := func(src, dst []int) func() (Layout, error) {
		return func() (Layout, error) { return Movedim(l, src, dst) }
	}
	runLayoutCases(t, []layoutCase{
		{name: "one", fn: mv([]int{0}, []int{-1}), want: lay([]int{3, 4, 5, 2}, []int{20, 5, 1, 60}, 0)},
		{name: "two", fn: mv([]int{0, 1}, []int{2, 3}), want: lay([]int{4, 5, 2, 3}, []int{5, 1, 60, 20}, 0)},
		{name: "swap", fn: mv([]int{3, 0}, []int{0, 3}), want: lay([]int{5, 3, 4, 2}, []int{1, 20, 5, 60}, 0)},
		{name: "none", fn: mv(nil, nil), want: l},
		{name: "repeated dst", fn: mv([]int{0, 1}, []int{0, -4}), kind: errs.Value, msg: "repeated dim in `destination` ([0, -4])"},
		{name: "repeated src", fn: mv([]int{1, 1}, []int{0, 2}), kind: errs.Value},
		{name: "lengths", fn: mv([]int{1}, []int{0, 2}), kind: errs.Value},
		{name: "range", fn: mv([]int{0}, []int{4}), kind: errs.Index},
	})
}

func TestAsStrided(t *testing.T) {
	l := lay([]int{2, 3}, []int{3, 1}, 1)
	as := func(sizes, strides []int, off *int, n int) func() (Layout, error) {
		return func() (Layout, error) { return AsStrided(l, sizes, strides, off, n) }
	}
	runLayoutCases(t, []layoutCase{
		{name: "own offset", fn: as([]int{2, 2}, []int{1, 2}, nil, 7), want: lay([]int{2, 2}, []int{1, 2}, 1)},
		{name: "offset", fn: as([]int{3}, []int{2}, ip(2), 7), want: lay([]int{3}, []int{2}, 2)},
		{name: "0-dim", fn: as(nil, nil, ip(6), 7), want: lay([]int{}, []int{}, 6)},
		{name: "empty anywhere", fn: as([]int{0, 5}, []int{100, 1}, ip(50), 7), want: lay([]int{0, 5}, []int{100, 1}, 50)},
		{name: "exactly fits", fn: as([]int{7}, []int{1}, ip(0), 7), want: lay([]int{7}, []int{1}, 0)},
		{name: "beyond", fn: as([]int{5}, []int{2}, ip(0), 7), kind: errs.Index},
		{name: "fits strided", fn: as([]int{4}, []int{2}, ip(0), 7), want: lay([]int{4}, []int{2}, 0)},
		{name: "beyond offset", fn: as(nil, nil, ip(7), 7), kind: errs.Index},
		{name: "negative stride", fn: as([]int{2}, []int{-1}, ip(3), 7), kind: errs.Value},
		{name: "lengths", fn: as([]int{2}, []int{1, 1}, nil, 7), kind: errs.Value},
	})
}

func TestSplitChunk(t *testing.T) {
	l := lay([]int{3, 5}, []int{1, 3}, 2)
	sizesOf := func(ls []Layout, dim int) []int {
		var out []int
		for _, p := range ls {
			out = append(out, p.Sizes[dim])
		}
		return out
	}
	offsetsOf := func(ls []Layout) []int {
		var out []int
		for _, p := range ls {
			out = append(out, p.Offset)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		fn      func() ([]Layout, error)
		dim     int
		sizes   []int
		offsets []int
		kind    errs.Kind
	}{
		{name: "split", fn: func() ([]Layout, error) { return Split(l, 2, 1) }, dim: 1, sizes: []int{2, 2, 1}, offsets: []int{2, 8, 14}},
		{name: "split big", fn: func() ([]Layout, error) { return Split(l, 7, -1) }, dim: 1, sizes: []int{5}, offsets: []int{2}},
		{name: "split empty dim", fn: func() ([]Layout, error) { return Split(Dense([]int{0, 2}), 3, 0) }, sizes: []int{0}, offsets: []int{0}},
		{name: "split zero on empty", fn: func() ([]Layout, error) { return Split(Dense([]int{0, 2}), 0, 0) }, sizes: []int{0}, offsets: []int{0}},
		{name: "split zero", fn: func() ([]Layout, error) { return Split(l, 0, 0) }, kind: errs.Value},
		{name: "split negative", fn: func() ([]Layout, error) { return Split(l, -1, 0) }, kind: errs.Value},
		{name: "split dim", fn: func() ([]Layout, error) { return Split(Dense([]int{4}), 1, 2) }, kind: errs.Index},
		{name: "split 0-dim", fn: func() ([]Layout, error) { return Split(Dense(nil), 1, 0) }, kind: errs.Index},
		{name: "sizes", fn: func() ([]Layout, error) { return SplitSizes(l, []int{1, 0, 4}, 1) }, dim: 1, sizes: []int{1, 0, 4}, offsets: []int{2, 5, 5}},
		{name: "sizes sum", fn: func() ([]Layout, error) { return SplitSizes(l, []int{3, 3}, 1) }, kind: errs.Shape},
		{name: "sizes negative", fn: func() ([]Layout, error) { return SplitSizes(l, []int{6, -1}, 1) }, kind: errs.Value},
		{name: "chunk", fn: func() ([]Layout, error) { return Chunk(l, 2, 1) }, dim: 1, sizes: []int{3, 2}, offsets: []int{2, 11}},
		{name: "chunk fewer", fn: func() ([]Layout, error) { return Chunk(Dense([]int{6}), 4, 0) }, sizes: []int{2, 2, 2}, offsets: []int{0, 2, 4}},
		{name: "chunk empty dim", fn: func() ([]Layout, error) { return Chunk(Dense([]int{0}), 3, 0) }, sizes: []int{0, 0, 0}, offsets: []int{0, 0, 0}},
		{name: "chunk zero", fn: func() ([]Layout, error) { return Chunk(l, 0, 1) }, kind: errs.Value},
		{name: "chunk dim", fn: func() ([]Layout, error) { return Chunk(l, 1, 3) }, kind: errs.Index},
	} {
		got, err := c.fn()
		if c.kind != 0 {
			checkErr(t, c.name, err, c.kind, "")
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s, o := sizesOf(got, c.dim), offsetsOf(got); !Equal(s, c.sizes) || !Equal(o, c.offsets) {
			t.Errorf("%s: sizes %v offsets %v, want %v %v", c.name, s, o, c.sizes, c.offsets)
		}
	}
}

func TestCatStackShape(t *testing.T) {
	for _, c := range []struct {
		name   string
		cat    bool
		shapes [][]int
		dim    int
		want   []int
		kind   errs.Kind
		msg    string
	}{
		{name: "cat", cat: true, shapes: [][]int{{2, 3}, {2, 4}}, dim: -1, want: []int{2, 7}},
		{name: "cat skips [0]", cat: true, shapes: [][]int{{0}, {2, 3}, {0}, {1, 3}}, dim: 0, want: []int{3, 3}},
		{name: "cat all skipped", cat: true, shapes: [][]int{{0}, {0}}, dim: 5, want: []int{0}},
		{name: "cat [0, 3] not skipped", cat: true, shapes: [][]int{{0, 3}, {2, 3}}, dim: 0, want: []int{2, 3}},
		{name: "cat sizes", cat: true, shapes: [][]int{{2, 3, 4}, {2, 3, 5}}, dim: -2, kind: errs.Shape,
			msg: "Sizes of tensors must match except in dimension 1. Expected size 4 but got size 5 for tensor number 1 in the list."},
		{name: "cat ndim", cat: true, shapes: [][]int{{2}, {2, 1}}, dim: 0, kind: errs.Shape, msg: "Tensors must have same number of dimensions: got 1 and 2"},
		{name: "cat dim", cat: true, shapes: [][]int{{2, 3}}, dim: 2, kind: errs.Index, msg: "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{name: "cat 0-dim", cat: true, shapes: [][]int{{}, {2}}, dim: 0, kind: errs.Shape},
		{name: "cat none", cat: true, shapes: nil, dim: 0, kind: errs.Value},
		{name: "stack", shapes: [][]int{{2, 3}, {2, 3}, {2, 3}}, dim: 1, want: []int{2, 3, 3}},
		{name: "stack end", shapes: [][]int{{2, 3}, {2, 3}}, dim: -1, want: []int{2, 3, 2}},
		{name: "stack 0-dim", shapes: [][]int{{}, {}}, dim: 0, want: []int{2}},
		{name: "stack sizes", shapes: [][]int{{2, 3}, {2, 3}, {3, 3}}, dim: 0, kind: errs.Shape,
			msg: "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 3] at entry 2"},
		{name: "stack dim", shapes: [][]int{{2, 3}}, dim: 3, kind: errs.Index},
		{name: "stack none", shapes: nil, dim: 0, kind: errs.Value},
	} {
		var got []int
		var err error
		if c.cat {
			got, err = CatShape(c.shapes, c.dim)
		} else {
			got, err = StackShape(c.shapes, c.dim)
		}
		if c.kind != 0 {
			checkErr(t, c.name, err, c.kind, c.msg)
			continue
		}
		if err != nil || !Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func TestDenseLike(t *testing.T) {
	for _, c := range []struct{ sizes, strides, want []int }{
		{[]int{2, 3}, []int{1, 2}, []int{1, 2}},                                 // dense, kept
		{[]int{2, 3}, []int{1, 4}, []int{1, 2}},                                 // gaps removed, order kept
		{[]int{2, 3, 4}, []int{24, 1, 6}, []int{12, 1, 3}},                      // permuted with gaps
		{[]int{3, 4}, []int{0, 1}, []int{4, 1}},                                 // expanded
		{[]int{2, 3}, []int{6, 2}, []int{3, 1}},                                 // sliced rows
		{[]int{6, 5, 4, 3, 2}, []int{6, 0, 120, 0, 1}, []int{6, 36, 180, 2, 1}}, // PyTorch's example order (4, 3, 0, 1, 2)
		{nil, nil, []int{}},
	} {
		if got := DenseLike(c.sizes, c.strides); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DenseLike(%v, %v) = %v, want %v", c.sizes, c.strides, got, c.want)
		}
	}
}

// TestNoAliasing checks that results share no slices with their inputs.
func TestNoAliasing(t *testing.T) {
	in := lay([]int{2, 1, 3}, []int{3, 3, 1}, 0)
	keep := in.Clone()
	fns := map[string]func() (Layout, error){
		"view":      func() (Layout, error) { return View(in, []int{2, 1, 3}) },
		"transpose": func() (Layout, error) { return Transpose(in, 0, 0) },
		"squeeze":   func() (Layout, error) { return Squeeze(in, 0) },
		"expand":    func() (Layout, error) { return Expand(in, []int{2, 1, 3}) },
		"narrow":    func() (Layout, error) { return Narrow(in, 0, 0, 2) },
		"slice":     func() (Layout, error) { return Slice(in, 0, nil, nil, 1) },
		"permute":   func() (Layout, error) { return Permute(in, []int{0, 1, 2}) },
		"movedim":   func() (Layout, error) { return Movedim(in, nil, nil) },
		"flatten": func() (Layout, error) {
			l, _, err := Flatten(in, 1, 1)
			return l, err
		},
		"as_strided": func() (Layout, error) { return AsStrided(in, in.Sizes, in.Strides, nil, 6) },
	}
	for name, fn := range fns {
		got, err := fn()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range got.Sizes {
			got.Sizes[i], got.Strides[i] = -7, -7
		}
		if !reflect.DeepEqual(in, keep) {
			t.Fatalf("%s: writing to the result changed the input to %v", name, in)
		}
	}
}

func ExampleView() {
	l := Dense([]int{2, 3, 4})
	v, _ := View(l, []int{6, -1})
	fmt.Println(v)
	tr, _ := Transpose(l, 0, 2)
	_, err := View(tr, []int{12, 2})
	fmt.Println(err)
	r, needCopy, _ := Reshape(tr, []int{12, 2})
	fmt.Println(r, needCopy)
	// Output:
	// sizes [6, 4] strides [4, 1] offset 0
	// view: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
	// sizes [12, 2] strides [2, 1] offset 0 true
}

func ExampleExpand() {
	l := Layout{Sizes: []int{3, 1}, Strides: []int{1, 1}, Offset: 2}
	e, _ := Expand(l, []int{2, -1, 4})
	fmt.Println(e)
	// Output:
	// sizes [2, 3, 4] strides [0, 1, 0] offset 2
}
