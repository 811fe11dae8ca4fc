//go:build !(386 || arm || mips || mipsle)

// The cases of this file have sizes, strides and offsets past 2^31: they
// test the checks of 64-bit ints, and do not compile where int has 32 bits.

package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestBadInputRegressions holds the reproductions of the hardening issue:
// each used to crash, corrupt memory or panic without a typed error, and
// each is now a typed error with PyTorch's wording where it has one
// (Note [Checked sizes] in package shape, Note [Memory limit] in package
// device, Note [Recover boundary]).
func TestBadInputRegressions(t *testing.T) {
	four := func() *Tensor { return FromSlice([]float32{1, 2, 3, 4}) }
	var nilT *Tensor
	for _, c := range []struct {
		name string
		f    func()
		kind ErrorKind
		msg  string
	}{
		// (2^62+1)·4 wraps to 4: the view once wrote past its 16 bytes
		{"reshape overflow", func() { four().Reshape(1<<62+1, 4).Select(0, 100000).Fill(Scalar(1)) },
			ShapeError, "shape '[4611686018427387905, 4]' is invalid for input of size 4"},
		{"view overflow", func() { four().View(1<<62+1, 4) }, ShapeError, "is invalid for input of size 4"},
		{"view -1 overflow", func() { four().View(-1, 1<<62, 4) }, ShapeError, "is invalid for input of size 4"},
		{"unflatten overflow", func() { four().Unflatten(0, 1<<62+1, 4) }, ShapeError, "don't multiply up to the size of dim 0 (4)"},
		// once a SIGSEGV
		{"zeros 2^64", func() { Zeros(Float32, 1<<32, 1<<32).Select(0, 3).Select(0, 7).Fill(Scalar(1)) },
			ShapeError, "Storage size calculation overflowed with sizes=[4294967296, 4294967296]"},
		// once summed to 0
		{"ones 2^64 sum", func() { Ones(Float32, 1<<31, 1<<33).Sum() },
			ShapeError, "Storage size calculation overflowed with sizes=[2147483648, 8589934592]"},
		// PyTorch refuses the view too: "numel: integer multiplication overflow"
		{"expand 2^64", func() { Ones(Float32, 4).Expand(1<<62, 4).Sum() },
			ShapeError, "numel: integer multiplication overflow with sizes=[4611686018427387904, 4]"},
		{"expand 2^90", func() { Ones(Float32, 1, 1, 1).Expand(1<<30, 1<<30, 1<<30) },
			ShapeError, "numel: integer multiplication overflow"},
		// once a 0-byte buffer
		{"empty 2^62 float32", func() { Empty(Float32, 1<<62) },
			ShapeError, "Storage size calculation overflowed with sizes=[4611686018427387904]"},
		{"empty 2^40 2^40 0", func() { Empty(Float32, 1<<40, 1<<40, 0) }, ShapeError, "Stride calculation overflowed"},
		{"empty 0 2^40 2^40", func() { Empty(Float32, 0, 1<<40, 1<<40) }, ShapeError, "Stride calculation overflowed"},
		// found by FuzzBadInput: strides [2^60, 2^60, 2^60, 1], past
		// shape.MaxStride, so that no view of it (ExpandAs) could be made
		{"full empty strides past MaxStride", func() { Full(Scalar(2), Float32, 0, 0, 0, 1<<60) }, ShapeError, "Stride calculation overflowed"},
		{"linspace 2^62", func() { Linspace(0, 1, 1<<62, Float32) },
			ShapeError, "Storage size calculation overflowed with sizes=[4611686018427387904]"},
		{"full 2^62", func() { Full(Scalar(1.5), Float64, 1<<62) }, ShapeError, "Storage size calculation overflowed"},
		{"from_slice overflow", func() { FromSlice([]float32{1, 2, 3, 4}, 1<<62+1, 4) }, ShapeError, "Storage size calculation overflowed"},
		// once the runtime's makeslice panic or a fatal out of memory
		{"arange 1e18", func() { Arange(0, 1e18, 1, Float32) }, MemoryError, "you tried to allocate 4000000000000000000 bytes"},
		{"arange 1e30", func() { Arange(0, 1e30, 1, Float32) }, ValueError, "invalid size, possible overflow?"},
		{"arange inf", func() { Arange(0, math.Inf(1), 1, Float32) }, ValueError, "unsupported range: 0 -> +Inf"},
		{"arange nan step", func() { Arange(0, 1, math.NaN(), Float32) }, ValueError, "invalid size, possible overflow?"},
		{"arange zero step", func() { Arange(0, 1, 0, Float32) }, ValueError, "step must be nonzero"},
		{"arange sign", func() { Arange(0, 1, -1, Float32) }, ValueError, "upper bound and larger bound inconsistent with step sign"},
		// once index out of range in dtype's tables
		{"zeros dtype 99", func() { Zeros(DType(99), 2) }, ValueError, "invalid dtype dtype(99)"},
		{"to dtype 99", func() { four().To(DType(99)) }, ValueError, "invalid dtype dtype(99)"},
		{"zeros invalid dtype", func() { _ = Zeros(DType(0), 2).String() }, ValueError, "invalid dtype invalid"},
		{"arange dtype 99", func() { Arange(0, 4, 1, DType(99)) }, ValueError, "invalid dtype"},
		{"sum as dtype 99", func() { four().Sum(Over().As(DType(99))) }, ValueError, "invalid dtype"},
		{"cumsum as dtype 99", func() { four().CumSum(Over(0).As(DType(99))) }, ValueError, "invalid dtype"},
		// nil operands: once nil dereferences
		{"add nil", func() { four().Add(nil) }, ValueError, "input 1 is nil"},
		{"nil add", func() { nilT.Add(four()) }, ValueError, "input 0 is nil"},
		{"cat nil", func() { Cat([]*Tensor{four(), nil}, 0) }, ValueError, "expected Tensor as element 1 in argument 0, but got nil"},
		{"stack nil", func() { Stack([]*Tensor{nil}, 0) }, ValueError, "expected Tensor as element 0"},
		{"nil reshape", func() { nilT.Reshape(4) }, ValueError, "expected a Tensor, got nil"},
		{"nil shape", func() { nilT.Shape() }, ValueError, "expected a Tensor, got nil"},
		{"zero Tensor", func() { new(Tensor).NumEl() }, ValueError, "got a zero Tensor"},
		{"zero Tensor dst", func() { AddTo(new(Tensor), four(), four()) }, ValueError, "got a zero Tensor"},
		{"nil copy_ source", func() { four().CopyFrom(nil) }, ValueError, "got nil"},
		{"nil expand_as", func() { four().ExpandAs(nil) }, ValueError, "got nil"},
		{"zeros_like nil", func() { ZerosLike(nil) }, ValueError, "got nil"},
		{"nil item", func() { nilT.Item() }, ValueError, "got nil"},
		{"nil set value", func() { four().Set(nil, 0) }, ValueError, "single number"},
		{"nil to_slice", func() { ToSlice[float32](nilT) }, ValueError, "got nil"},
		// views whose numbers overflow
		{"as_strided offset MaxInt", func() { four().AsStridedAt([]int{1}, []int{1}, math.MaxInt) }, ValueError, "invalid storage offset"},
		{"as_strided span overflow", func() { four().AsStrided([]int{32}, []int{1 << 59}) }, ShapeError, "Storage size calculation overflowed with sizes=[32] and strides=[576460752303423488]"},
		{"as_strided stride over MaxStride", func() { four().AsStrided([]int{1, 2}, []int{1 << 62, 1}) }, ValueError, "strides must be in"},
		{"as_strided numel overflow", func() { four().AsStrided([]int{1 << 62, 4}, []int{0, 1}) }, ShapeError, "numel: integer multiplication overflow"},
		{"as_strided out of bounds", func() { four().AsStrided([]int{2, 2}, []int{2, 2}) }, IndexError, "out of bounds for storage of 4 elements"},
		{"narrow length MaxInt", func() { four().Narrow(0, 2, math.MaxInt) }, IndexError, "start (2) + length (9223372036854775807) exceeds dimension size (4)."},
		{"split_with_sizes wrap", func() { Zeros(Float32, 0).SplitSizes([]int{math.MaxInt, math.MaxInt, 2}, 0) }, ShapeError, "split_with_sizes expects split_sizes to sum exactly to 0"},
		{"cat size overflow", func() {
			e := Ones(Float32, 1).Expand(1 << 62)
			Cat([]*Tensor{e, e, e, e}, 0)
		}, ShapeError, "sum past the largest int"},
		{"stack numel overflow", func() {
			e := Ones(Float32, 1).Expand(1 << 62)
			Stack([]*Tensor{e, e, e, e}, 0)
		}, ShapeError, "Storage size calculation overflowed with sizes=[4, 4611686018427387904]"},
		// more pieces than memory holds: once makeslice's panic or a fatal
		// out of memory (PyTorch: std::bad_alloc)
		{"chunk empty MaxInt", func() { Zeros(Float32, 0).Chunk(math.MaxInt, 0) }, MemoryError, "views of the pieces would take more than the limit"},
		{"split expanded 2^40", func() { Ones(Float32, 1).Expand(1<<40).Split(1, 0) }, MemoryError, "1099511627776 views of the pieces"},
		// cat cannot write into one of its inputs: it was resized, then read
		{"cat out= an input", func() {
			d := Zeros(Float32, 0)
			CatTo(d, []*Tensor{d, Ones(Float32, 1, 4, 4)}, 0)
		}, OverlapError, "some elements of the input tensor and the written-to tensor refer to a single memory location"},
		// found by FuzzBadInput: out= an empty input once resized the input
		// under the op, which then indexed its missing dim
		{"matmul out= an empty input", func() {
			e := Zeros(Float32, 0)
			MatmulTo(e, e, e)
		}, OverlapError, "refer to a single memory location"},
		// broadcast shapes whose product overflows
		{"broadcast 2^80", func() {
			Ones(Float32, 1).Expand(1 << 40).Unsqueeze(1).Add(Ones(Float32, 1).Expand(1 << 40))
		}, ShapeError, "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]"},
		{"resize 2^62", func() { AddTo(Empty(Float32, 0), Ones(Float32, 1).Expand(1<<62), Scalar(1)) }, ShapeError, "Storage size calculation overflowed with sizes=[4611686018427387904]"},
	} {
		err := Try(c.f)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want a %v error", c.name, err, c.kind)
			continue
		}
		if e.Kind != c.kind || !strings.Contains(e.Msg, c.msg) || e.Op == "" {
			t.Errorf("%s: got %v error %q (op %q), want %v containing %q", c.name, e.Kind, e.Msg, e.Op, c.kind, c.msg)
		}
	}
}

// TestHugeViewsAllowed: what PyTorch allows near the limits is allowed
// here too, as views over the same memory.
func TestHugeViewsAllowed(t *testing.T) {
	four := FromSlice([]float32{1, 2, 3, 4})
	// 2^62 elements fit an int: a view, as in PyTorch (summing it would run
	// for years there and here alike, so nothing runs over it)
	if n := four.Expand(1<<60, 4).NumEl(); n != 1<<62 {
		t.Errorf("Expand(2^60, 4).NumEl() = %d", n)
	}
	if s := Empty(Float32, 0, 1<<40).Shape(); s[1] != 1<<40 {
		t.Errorf("Empty(0, 2^40).Shape() = %v", s)
	}
	// an expanded view of no elements, however large its other sizes
	if n := Ones(Float32, 0, 1, 1).Expand(0, 1<<40, 1<<40).NumEl(); n != 0 {
		t.Errorf("an empty expand has %d elements", n)
	}
	// a step beyond the size: one element, whatever the stride
	got := four.Slice(0, 1, 4, math.MaxInt).Float64s()
	if len(got) != 1 || got[0] != 2 {
		t.Errorf("Slice(0, 1, 4, MaxInt) = %v, want [2]", got)
	}
	if n := len(four.Chunk(math.MaxInt, 0)); n != 4 {
		t.Errorf("Chunk(MaxInt) gave %d pieces, want 4", n)
	}
	if n := len(four.Split(math.MaxInt, 0)); n != 1 {
		t.Errorf("Split(MaxInt) gave %d pieces, want 1", n)
	}
	// the last element of the storage, through as_strided
	if x := four.AsStridedAt([]int{1}, []int{1 << 40}, 3).Item(); x != 4 {
		t.Errorf("as_strided at offset 3 = %v, want 4", x)
	}
}
