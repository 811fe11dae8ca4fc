package iter

import (
	"slices"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Step 1: devices and operands.

func TestDeviceCheck(t *testing.T) {
	a, b, s := f32(2), f32(2), f32()
	cuda := device.Device{Kind: device.CUDA}
	old := storageDevice
	defer func() { storageDevice = old }()
	storageDevice = func(st *device.Storage) device.Device {
		if st == b.Storage {
			return cuda
		}
		return device.Device{Kind: device.CPU}
	}
	_, err := NewConfig().AddOutput(nil).AddInput(a).AddInput(b).Build()
	wantErr(t, err, errs.Value, "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!")
	// A 0-dim CPU input may go with a CUDA tensor (PyTorch's CPU scalars)...
	if _, err := NewConfig().AddInput(b).AddInput(s).Build(); err != nil {
		t.Fatalf("CPU scalar with CUDA tensor: %v", err)
	}
	// ... but not as an output.
	_, err = NewConfig().AddOutput(f32(2)).AddInput(b).Build()
	wantErr(t, err, errs.Value, "")
}

func TestBadOperands(t *testing.T) {
	_, err := NewConfig().AddOutput(nil).AddInput(nil).Build()
	wantErr(t, err, errs.Value, "")
	bad := f32(2, 3)
	bad.Strides = bad.Strides[:1]
	_, err = NewConfig().AddOutput(nil).AddInput(bad).Build()
	wantErr(t, err, errs.Value, "")
	_, err = NewConfig().AddOutput(nil).AddInput(f32(3)).IsReduction(true).Build()
	wantErr(t, err, errs.Value, "")
}

func TestNdim(t *testing.T) {
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32()).AddInput(f32()))
	if p.Ndim() != 0 || p.NumEl() != 1 || p.Output(0).Dim() != 0 {
		t.Fatalf("0-dim plan: ndim %d numel %d out %v", p.Ndim(), p.NumEl(), p.Output(0).Shape)
	}
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(2, 1, 3)).AddInput(f32(4, 1)))
	if got := p.Output(0).Shape; !slices.Equal(got, []int{2, 4, 3}) {
		t.Fatalf("broadcast output shape %v", got)
	}
}

// Step 2: common dtype.

func TestCommonDType(t *testing.T) {
	I64, I32, U8, I8, F16, BF, F32, F64, B := dtype.Int64, dtype.Int32, dtype.Uint8, dtype.Int8, dtype.Float16, dtype.BFloat16, dtype.Float32, dtype.Float64, dtype.Bool
	cases := []struct {
		name   string
		ins    []*raw.View
		toF    bool
		common dtype.DType
	}{
		{"same", []*raw.View{contig(I32, 2), contig(I32, 2)}, false, I32},
		{"int+float", []*raw.View{contig(I64, 2), contig(F32, 2)}, false, F32},
		{"u8+i8", []*raw.View{contig(U8, 2), contig(I8, 2)}, false, dtype.Int16},
		{"f16+bf16", []*raw.View{contig(F16, 2), contig(BF, 2)}, false, F32},
		{"tensor beats 0-dim", []*raw.View{contig(I32, 2), contig(I64)}, false, I32},
		{"0-dim float beats int tensor", []*raw.View{contig(I32, 2), contig(F64)}, false, F64},
		{"wrapped int", []*raw.View{contig(I8, 2), scalar(I64)}, false, I8},
		{"wrapped float is default", []*raw.View{contig(I64, 2), scalar(F64)}, false, F32},
		{"wrapped float with f16", []*raw.View{contig(F16, 2), scalar(F64)}, false, F16},
		{"wrapped only", []*raw.View{scalar(F64), scalar(I64)}, false, F32},
		{"bool+wrapped int", []*raw.View{contig(B, 2), scalar(I64)}, false, I64},
		{"int to float", []*raw.View{contig(I64, 2), contig(I32, 2)}, true, F32},
		{"bool to float", []*raw.View{contig(B, 2)}, true, F32},
		{"float stays", []*raw.View{contig(F64, 2)}, true, F64},
	}
	for _, c := range cases {
		cfg := NewConfig().AddOutput(nil).PromoteInputsToCommonDType(true).PromoteIntegerInputsToFloat(c.toF)
		for _, v := range c.ins {
			cfg.AddInput(v)
		}
		p, err := cfg.Build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.CommonDType() != c.common || p.Output(0).DType != c.common {
			t.Errorf("%s: common %s output %s, want %s", c.name, p.CommonDType(), p.Output(0).DType, c.common)
		}
	}
}

func TestCommonDTypeReadWrite(t *testing.T) {
	// An in-place int64 self with a float input: the self takes part.
	self := contig(dtype.Int64, 3)
	p := mustBuild(t, NewConfig().AddOutput(self).SetReadWrite(0).AddInput(contig(dtype.Int32, 3)).
		PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true))
	if p.CommonDType() != dtype.Int64 {
		t.Fatalf("read-write self: common %s, want int64", p.CommonDType())
	}
	_, err := NewConfig().AddOutput(self).SetReadWrite(0).AddInput(contig(dtype.Float32, 3)).
		PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true).EnforceSafeCastingToOutput(true).Build()
	wantErr(t, err, errs.DType, "result type Float can't be cast to the desired output type Long")
}

func TestSafeCast(t *testing.T) {
	cases := []struct {
		out, a, b dtype.DType
		msg       string
	}{
		{dtype.Uint8, dtype.Float32, dtype.Float32, "result type Float can't be cast to the desired output type Byte"},
		{dtype.Bool, dtype.Int64, dtype.Int64, "result type Long can't be cast to the desired output type Bool"},
		{dtype.Int8, dtype.BFloat16, dtype.BFloat16, "result type BFloat16 can't be cast to the desired output type Char"},
		{dtype.Int32, dtype.Float64, dtype.Int32, "result type Double can't be cast to the desired output type Int"},
		{dtype.Float64, dtype.Int64, dtype.Float32, ""},
		{dtype.Int8, dtype.Uint8, dtype.Uint8, ""},
	}
	for _, c := range cases {
		out := contig(c.out, 2)
		_, err := NewConfig().Op("add").AddOutput(out).AddInput(contig(c.a, 2)).AddInput(contig(c.b, 2)).
			PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true).EnforceSafeCastingToOutput(true).Build()
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s <- %s, %s: %v", c.out, c.a, c.b, err)
			}
			continue
		}
		wantErr(t, err, errs.DType, "add: "+c.msg)
	}
}

func TestCheckAllSameDType(t *testing.T) {
	_, err := NewConfig().AddOutput(nil).AddInput(f32(2)).AddInput(contig(dtype.Float64, 2)).Build()
	wantErr(t, err, errs.DType, "Found dtype Double but expected Float")
	_, err = NewConfig().AddOutput(contig(dtype.Int64, 2)).AddInput(f32(2)).Build()
	wantErr(t, err, errs.DType, "Found dtype Long but expected Float")
	// Off: the common dtype is the first input's, the output keeps its own.
	p := mustBuild(t, NewConfig().AddOutput(contig(dtype.Int64, 2)).AddInput(f32(2)).CheckAllSameDType(false))
	if p.CommonDType() != dtype.Float32 || p.Operand(0).DType != dtype.Int64 {
		t.Fatalf("copy-like plan: common %s out %s", p.CommonDType(), p.Operand(0).DType)
	}
	// Nullary: nothing to compare with.
	p = mustBuild(t, NewConfig().AddOutput(f32(3)).ResizeOutputs(false))
	if p.CommonDType() != dtype.Invalid {
		t.Fatalf("nullary common %s", p.CommonDType())
	}
	// Different inputs, no promotion, an output to allocate: no dtype for it.
	_, err = NewConfig().AddOutput(nil).AddInput(f32(2)).AddInput(contig(dtype.Int32, 2)).CheckAllSameDType(false).Build()
	wantErr(t, err, errs.DType, "")
}

func TestStaticDType(t *testing.T) {
	p := mustBuild(t, NewConfig().StaticDType(dtype.Float64).AddOutputDType(dtype.Bool).AddOutput(nil).
		AddInput(f32(2)).AddInput(contig(dtype.Int8, 2)))
	if p.CommonDType() != dtype.Float64 || p.Output(0).DType != dtype.Bool || p.Output(1).DType != dtype.Float64 {
		t.Fatalf("static: common %s outs %s %s", p.CommonDType(), p.Output(0).DType, p.Output(1).DType)
	}
}

// Step 3: outputs and read-write operands.

func TestMarkOutputs(t *testing.T) {
	a, b := f32(3), f32(3)
	p := mustBuild(t, NewConfig().AddOutput(a).AddInput(a).AddInput(b))
	if !p.Operand(0).IsOutput || !p.Operand(0).IsReadWrite || p.Operand(1).IsOutput || p.Operand(2).IsReadWrite {
		t.Fatalf("flags: %+v %+v %+v", *p.Operand(0), *p.Operand(1), *p.Operand(2))
	}
	p = mustBuild(t, NewConfig().AddOutput(f32(3)).AddInput(b))
	if p.Operand(0).IsReadWrite {
		t.Fatal("a distinct output marked read-write")
	}
	p = mustBuild(t, NewConfig().AddOutput(a).SetReadWrite(0).AddInput(b))
	if !p.Operand(0).IsReadWrite {
		t.Fatal("SetReadWrite ignored")
	}
}

// Step 4: memory overlap.

func TestOverlap(t *testing.T) {
	base := f32(12)
	sl := func(start, n, step int) *raw.View { return on(base, []int{n}, []int{step}, start) }
	m := f32(4, 4)
	tr := on(m, []int{4, 4}, []int{1, 4}, 0)
	ex := on(base, []int{3, 4}, []int{0, 1}, 0)
	internal := "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
	partial := "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
	cases := []struct {
		name    string
		out, in *raw.View
		msg     string
	}{
		{"partial slices", sl(3, 4, 1), sl(0, 4, 1), partial},
		{"partial slices, out first", sl(0, 4, 1), sl(2, 4, 1), partial},
		{"full: same view", sl(2, 3, 1), nil, ""},
		{"full: same layout, other view", sl(2, 3, 1), sl(2, 3, 1), ""},
		{"disjoint", sl(0, 5, 1), sl(5, 5, 1), ""},
		{"disjoint interleaved (too hard)", sl(0, 6, 2), sl(1, 5, 2), ""},
		{"transposed (same range, other strides)", m, tr, partial},
		{"other shape, same range", on(base, []int{12}, []int{1}, 0), on(base, []int{3, 4}, []int{4, 1}, 0), partial},
		{"expanded output", ex, f32(3, 4), internal},
		{"expanded input is fine", f32(3, 4), ex, ""},
		{"empty output", sl(2, 0, 1), sl(0, 4, 1), ""},
	}
	for _, c := range cases {
		in := c.in
		if in == nil {
			in = c.out
		}
		err := NewConfig().AddOutput(c.out).AddInput(in).checkOverlaps()
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		wantErr(t, err, errs.Overlap, c.msg)
		_, err = NewConfig().AddOutput(c.out).AddInput(in).ResizeOutputs(false).Build()
		wantErr(t, err, errs.Overlap, c.msg)
		// Off: no overlap error (other errors may remain).
		_, err = NewConfig().AddOutput(c.out).AddInput(in).ResizeOutputs(false).CheckMemOverlap(false).Build()
		if e, ok := err.(*errs.Error); ok && e.Kind == errs.Overlap {
			t.Errorf("%s: overlap error with checks off", c.name)
		}
	}
	if InternalOverlap(on(base, []int{2, 2}, []int{1, 1}, 0)) != OverlapTooHard {
		t.Error("strides [1, 1] should be too hard")
	}
	if InternalOverlap(on(base, []int{1, 4}, []int{0, 1}, 0)) != OverlapNo {
		t.Error("stride 0 on a size-1 dim is no overlap")
	}
	if GetOverlapStatus(sl(0, 6, 2), sl(0, 6, 2)) != StatusTooHard {
		t.Error("non-dense views should be too hard")
	}
	if err := CheckNoOverlap("cat", sl(0, 4, 1), sl(0, 4, 1)); err == nil {
		t.Error("CheckNoOverlap allows a full overlap")
	}
}

func TestOverlapBeforeWrite(t *testing.T) {
	// An overlapping output that would be resized is left untouched.
	base := f32(8)
	out := on(base, []int{2, 2}, []int{0, 1}, 0)
	_, err := NewConfig().AddOutput(out).AddInput(f32(3, 2, 2)).Build()
	wantErr(t, err, errs.Overlap, "")
	if !slices.Equal(out.Shape, []int{2, 2}) || out.Storage != base.Storage {
		t.Fatal("output changed by a failing build")
	}
}

// Step 5: broadcast shape.

func TestBroadcastErrors(t *testing.T) {
	cases := []struct {
		a, b []int
		msg  string
	}{
		{[]int{2, 3}, []int{2, 4}, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
		{[]int{3}, []int{4}, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"},
		{[]int{5, 1, 3}, []int{2, 4}, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 2"},
		{[]int{2, 4}, []int{5, 1, 3}, "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 2"},
		{[]int{3, 4}, []int{2, 4}, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"},
		{[]int{3}, []int{0}, "The size of tensor a (3) must match the size of tensor b (0) at non-singleton dimension 0"},
	}
	for _, c := range cases {
		_, err := NewConfig().Op("add").AddOutput(nil).AddInput(f32(c.a...)).AddInput(f32(c.b...)).Build()
		wantErr(t, err, errs.Shape, "add: "+c.msg)
		if e := err.(*errs.Error); e.Msg != c.msg || e.Op != "add" {
			t.Errorf("broadcast error: op %q, message %q; want add, PyTorch's message exactly", e.Op, e.Msg)
		}
	}
	// "tensor a" is the broadcast of the operands before the failing one.
	_, err := NewConfig().AddOutput(nil).AddInput(f32(2, 1)).AddInput(f32(1, 3)).AddInput(f32(2, 4)).Build()
	wantErr(t, err, errs.Shape, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
}

func TestBroadcastWithOutputs(t *testing.T) {
	// In place: the self takes part, and cannot grow.
	a := f32(2, 3)
	_, err := NewConfig().Op("mul_").AddOutput(a).AddInput(a).AddInput(f32(2, 2, 3)).Build()
	wantErr(t, err, errs.Shape, "mul_: output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]")
	s := f32()
	_, err = NewConfig().AddOutput(s).AddInput(s).AddInput(f32(2)).Build()
	wantErr(t, err, errs.Shape, "output with shape [] doesn't match the broadcast shape [2]")
	s3 := f32(3)
	_, err = NewConfig().AddOutput(s3).AddInput(s3).AddInput(f32(4)).Build()
	wantErr(t, err, errs.Shape, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0")
	// An output that may not be resized takes part in broadcasting.
	_, err = NewConfig().AddOutput(f32(4)).AddInput(f32(3)).ResizeOutputs(false).Build()
	wantErr(t, err, errs.Shape, "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0")
	_, err = NewConfig().AddOutput(f32(3)).AddInput(f32(2, 3)).ResizeOutputs(false).Build()
	wantErr(t, err, errs.Shape, "output with shape [3] doesn't match the broadcast shape [2, 3]")
	// A resizable output does not.
	_, err = NewConfig().AddOutput(f32(4)).AddInput(f32(3)).Build()
	wantErr(t, err, errs.Shape, "output with shape [4] doesn't match the broadcast shape [3]")
}

// Step 6: resizing outputs.

func TestResizeOutputs(t *testing.T) {
	out := f32(0)
	in := f32(2, 3)
	p := mustBuild(t, NewConfig().AddOutput(out).AddInput(in))
	if p.Output(0) != out {
		t.Fatal("resized output is not the given view")
	}
	if !slices.Equal(out.Shape, []int{2, 3}) || !slices.Equal(out.Strides, []int{3, 1}) || out.Offset != 0 || out.Storage.Len() < 24 {
		t.Fatalf("resized to %v %v offset %d storage %d", out.Shape, out.Strides, out.Offset, out.Storage.Len())
	}
	// In the inputs' memory order (Note [Computing output strides]).
	out = contig(dtype.Int64, 0)
	tr := on(f32(3, 4), []int{4, 3}, []int{1, 4}, 0)
	mustBuild(t, NewConfig().AddOutput(out).AddInput(tr).CheckAllSameDType(false))
	if out.DType != dtype.Int64 || !slices.Equal(out.Strides, []int{1, 4}) {
		t.Fatalf("resized like a transpose: %s %v", out.DType, out.Strides)
	}
	// With elements: an error, and the output is unchanged.
	out = f32(2, 2)
	st := out.Storage
	_, err := NewConfig().AddOutput(out).AddInput(in).Build()
	wantErr(t, err, errs.Shape, "output with shape [2, 2] doesn't match the broadcast shape [2, 3]")
	if !slices.Equal(out.Shape, []int{2, 2}) || out.Storage != st {
		t.Fatal("a failing build changed the output")
	}
	// Not resizable.
	_, err = NewConfig().AddOutput(f32(0)).AddInput(in).ResizeOutputs(false).Build()
	wantErr(t, err, errs.Shape, "")
	// Empty to empty of another shape.
	out = f32(0)
	mustBuild(t, NewConfig().AddOutput(out).AddInput(f32(2, 4, 0)))
	if !slices.Equal(out.Shape, []int{2, 4, 0}) {
		t.Fatalf("resized to %v", out.Shape)
	}
	// An error after the resize decision (dtype) leaves the output alone.
	out = contig(dtype.Int64, 0)
	_, err = NewConfig().AddOutput(out).AddInput(in).PromoteInputsToCommonDType(true).EnforceSafeCastingToOutput(true).CastCommonDTypeToOutputs(true).Build()
	wantErr(t, err, errs.DType, "")
	if !slices.Equal(out.Shape, []int{0}) {
		t.Fatal("a failing build resized the output")
	}
}

// Step 7: broadcast strides (in bytes).

func TestBroadcastStrides(t *testing.T) {
	a := f32(3, 1)                                               // column
	b := contig(dtype.Float64, 4)                                // row
	out := strided(dtype.Int16, []int{3, 4}, []int{1, 3}, 0, 12) // column-major
	p := mustBuild(t, NewConfig().AddOutput(out).AddInput(a).AddInput(b).CheckAllSameDType(false))
	// Column-major output: plan dim 0 is broadcast dim 0 (size 3).
	if !slices.Equal(p.Shape(), []int{3, 4}) {
		t.Fatalf("plan shape %v", p.Shape())
	}
	want := [][]int{{2, 6}, {4, 0}, {0, 8}}
	for k, w := range want {
		if got := p.Operand(k).Strides; !slices.Equal(got, w) {
			t.Errorf("operand %d strides %v, want %v", k, got, w)
		}
	}
	if got := p.LoopStrides(); !slices.Equal(got, []int{2, 4, 0, 6, 0, 8}) {
		t.Errorf("loop strides %v", got)
	}
	// Leading dims missing from an operand get stride 0.
	p = mustBuild(t, NewConfig().AddOutput(strided(dtype.Float32, []int{2, 3}, []int{1, 2}, 0, 6)).AddInput(f32(3)).ResizeOutputs(false))
	if got := p.Operand(1).Strides; !slices.Equal(got, []int{0, 4}) {
		t.Errorf("missing leading dim: strides %v", got)
	}
}

// Step 8: reordering dims.

func TestReorder(t *testing.T) {
	// A permuted input: the plan walks it in memory order and coalesces.
	in := on(f32(2, 3, 4), []int{4, 2, 3}, []int{1, 12, 4}, 0)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(in).AddInput(f32(4, 2, 3)))
	if !slices.Equal(p.Shape(), []int{4, 6}) || !slices.Equal(p.Output(0).Strides, []int{1, 12, 4}) {
		t.Fatalf("permuted input: plan shape %v output strides %v", p.Shape(), p.Output(0).Strides)
	}
	if !slices.Equal(p.perm, []int{0, 2, 1}) {
		t.Fatalf("perm %v", p.perm)
	}
	// Ambiguous comparisons (broadcast) keep the order; the first operand
	// that can tell decides.
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(3, 1)).AddInput(on(f32(4, 3), []int{3, 4}, []int{1, 3}, 0)))
	if !slices.Equal(p.perm, []int{0, 1}) || !slices.Equal(p.Output(0).Strides, []int{1, 3}) {
		t.Fatalf("perm %v out strides %v", p.perm, p.Output(0).Strides)
	}
	// Equal strides: the smaller dim goes first.
	v := on(f32(6), []int{2, 3}, []int{1, 1}, 0)
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(v))
	if !slices.Equal(p.perm, []int{0, 1}) {
		t.Fatalf("equal strides: perm %v", p.perm)
	}
	// EnforceLinearIteration keeps row-major order.
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(on(f32(3, 4), []int{4, 3}, []int{1, 4}, 0)).EnforceLinearIteration(true))
	if !slices.Equal(p.perm, []int{1, 0}) || !slices.Equal(p.Output(0).Strides, []int{3, 1}) {
		t.Fatalf("linear: perm %v out strides %v", p.perm, p.Output(0).Strides)
	}
}

// Step 9: output strides.

func TestOutputStrides(t *testing.T) {
	tr := on(f32(4, 3), []int{3, 4}, []int{1, 3}, 0) // a transpose
	cases := []struct {
		name string
		ins  []*raw.View
		want []int
	}{
		{"transpose + itself", []*raw.View{tr, tr}, []int{1, 3}},
		{"transpose + contiguous: first wins", []*raw.View{tr, f32(3, 4)}, []int{1, 3}},
		{"contiguous + transpose: first wins", []*raw.View{f32(3, 4), tr}, []int{4, 1}},
		{"broadcast row + transpose", []*raw.View{f32(4), tr}, []int{1, 3}},
		{"broadcast column + transpose", []*raw.View{f32(3, 1), tr}, []int{1, 3}},
		{"channels last", []*raw.View{on(f32(24), []int{2, 3, 2, 2}, []int{12, 1, 6, 3}, 0)}, []int{12, 1, 6, 3}},
		{"stepped slice", []*raw.View{on(f32(24), []int{3, 4}, []int{8, 2}, 0)}, []int{4, 1}},
		{"expanded", []*raw.View{on(f32(4), []int{3, 4}, []int{0, 1}, 0)}, []int{4, 1}},
	}
	for _, c := range cases {
		cfg := NewConfig().AddOutput(nil)
		for _, v := range c.ins {
			cfg.AddInput(v)
		}
		p := mustBuild(t, cfg)
		out := p.Output(0)
		if !slices.Equal(out.Strides, c.want) {
			t.Errorf("%s: output strides %v, want %v", c.name, out.Strides, c.want)
		}
		if !shape.IsNonOverlappingAndDense(out.Shape, out.Strides) || out.Storage.Len() != out.NumEl()*4 {
			t.Errorf("%s: output not dense", c.name)
		}
	}
}

// Step 10: coalescing.

func TestCoalesce(t *testing.T) {
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(2, 3, 4)).AddInput(f32(2, 3, 4)))
	if !slices.Equal(p.Shape(), []int{24}) || !p.IsContiguous() {
		t.Fatalf("contiguous: %v", p.Shape())
	}
	// A column slice of a wider matrix: rows do not join.
	base := f32(3, 8)
	sl := on(base, []int{3, 4}, []int{8, 1}, 2)
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(sl))
	if !slices.Equal(p.Shape(), []int{4, 3}) || p.IsContiguous() {
		t.Fatalf("slice: %v", p.Shape())
	}
	// Size-1 dims vanish; the dim after takes their place.
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(on(base, []int{3, 1, 4}, []int{8, 99, 1}, 0)))
	if !slices.Equal(p.Shape(), []int{4, 3}) || !slices.Equal(p.Operand(1).Strides, []int{4, 32}) {
		t.Fatalf("size-1 dim: %v %v", p.Shape(), p.Operand(1).Strides)
	}
	// A broadcast dim coalesces with another broadcast dim only.
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(f32(2, 3, 4)).AddInput(on(f32(4), []int{2, 3, 4}, []int{0, 0, 1}, 0)))
	if !slices.Equal(p.Shape(), []int{4, 6}) {
		t.Fatalf("broadcast: %v", p.Shape())
	}
}

// Step 11: storages and byte offsets.

func TestOperandOffsets(t *testing.T) {
	base := contig(dtype.Float64, 10)
	v := on(base, []int{3}, []int{2}, 3)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(v))
	op := p.Operand(1)
	if op.Offset != 24 || op.Storage != base.Storage {
		t.Fatalf("offset %d, storage %p (want 24 into %p)", op.Offset, op.Storage, base.Storage)
	}
	if o := p.Operand(0); o.Storage.Device() != base.Storage.Device() || o.Storage.Allocator() != base.Storage.Allocator() {
		t.Fatalf("output allocated on %s, want the input's device %s", o.Storage.Device(), base.Storage.Device())
	}
}

// Fast setup and static shape.

func TestFastSetup(t *testing.T) {
	// Same dense layout everywhere: one dim, output with the same strides.
	in := on(f32(24), []int{2, 3, 4}, []int{1, 8, 2}, 0)
	p := mustBuild(t, NewConfig().AddOutput(nil).AddInput(in).AddInput(on(f32(24), []int{2, 3, 4}, []int{1, 8, 2}, 0)))
	if !slices.Equal(p.Shape(), []int{24}) || !slices.Equal(p.Output(0).Strides, []int{1, 8, 2}) {
		t.Fatalf("dense: plan %v out strides %v", p.Shape(), p.Output(0).Strides)
	}
	// A given output with other strides keeps them (general path).
	out := f32(2, 3, 4)
	p = mustBuild(t, NewConfig().AddOutput(out).AddInput(in))
	if !slices.Equal(out.Strides, []int{12, 4, 1}) || p.Ndim() < 2 {
		t.Fatalf("given output: strides %v plan %v", out.Strides, p.Shape())
	}
	got := visits(p, p.ForEach)
	if !sameVisits(got, naiveVisits([]int{2, 3, 4}, []*raw.View{out, in})) {
		t.Fatal("visits differ")
	}
}

func TestStaticShape(t *testing.T) {
	// A scan over dim 1 of [2, 5]: the plan walks dim 0 only.
	in := f32(2, 5)
	out := f32(2, 5)
	p := mustBuild(t, NewConfig().AddOutput(out).AddInput(in).ResizeOutputs(false).StaticShapeSquash([]int{2, 5}, 1))
	if !slices.Equal(p.Shape(), []int{2}) || p.Operand(1).Strides[0] != 20 {
		t.Fatalf("squashed: %v %v", p.Shape(), p.Operand(1).Strides)
	}
	_, err := NewConfig().AddOutput(out).AddInput(f32(5)).StaticShape([]int{2, 5}).Build()
	wantErr(t, err, errs.Shape, "")
	// An output to allocate gets the static shape.
	p = mustBuild(t, NewConfig().AddOutput(nil).AddInput(in).StaticShape([]int{2, 5}))
	if !slices.Equal(p.Output(0).Shape, []int{2, 5}) {
		t.Fatalf("allocated %v", p.Output(0).Shape)
	}
}

// Reductions.

func TestReductionPlan(t *testing.T) {
	in := f32(4, 3, 5)
	out := strided(dtype.Float32, []int{1, 3, 1}, []int{3, 1, 1}, 0, 3)
	p := mustBuild(t, NewConfig().AddOutput(out).AddInput(in).IsReduction(true).ResizeOutputs(false).CheckMemOverlap(false))
	if out.Storage.Len() != 12 || !slices.Equal(out.Shape, []int{1, 3, 1}) {
		t.Fatal("reduction resized its output")
	}
	// Reduced dims first: 5 (stride 4), 4 (stride 60) are reduced, 3 kept.
	if !slices.Equal(p.Shape(), []int{5, 4, 3}) {
		t.Fatalf("plan shape %v", p.Shape())
	}
	red := []bool{p.IsDimReduced(0), p.IsDimReduced(1), p.IsDimReduced(2)}
	if !slices.Equal(red, []bool{true, true, false}) || p.NumReduceDims() != 2 || p.NumOutputElements() != 3 {
		t.Fatalf("reduced %v count %d out elems %d", red, p.NumReduceDims(), p.NumOutputElements())
	}
	// Contiguous reduced dims coalesce.
	p = mustBuild(t, NewConfig().AddOutput(f32(4, 1, 1)).AddInput(in).IsReduction(true))
	if !slices.Equal(p.Shape(), []int{15, 4}) || !p.IsDimReduced(0) || p.IsDimReduced(1) {
		t.Fatalf("coalesced reduction %v", p.Shape())
	}
	// A full reduction to 0-dim.
	p = mustBuild(t, NewConfig().AddOutput(f32()).AddInput(in).IsReduction(true))
	if !slices.Equal(p.Shape(), []int{60}) || p.NumOutputElements() != 1 {
		t.Fatalf("full reduction %v", p.Shape())
	}
}

// TestReductionForEach sums with a parallel walk and a small grain: no
// two chunks may write the same output element (checked by -race too).
func TestReductionForEach(t *testing.T) {
	const n0, n1 = 64, 50
	in := f32(n0, n1)
	for i := 0; i < n0*n1; i++ {
		storeF64(in.Storage, dtype.Float32, 4*i, float64(i%7))
	}
	for _, keep := range []int{0, 1} {
		shape := []int{n0, 1}
		if keep == 1 {
			shape = []int{1, n1}
		}
		out := f32(shape...)
		p := mustBuild(t, NewConfig().AddOutput(out).AddInput(in).IsReduction(true).ResizeOutputs(false))
		p.ForEachGrain(func(offs []int, strides []int, s0, s1 int) {
			nt := 2
			for j := 0; j < s1; j++ {
				for i := 0; i < s0; i++ {
					o := offs[0] + i*strides[0] + j*strides[nt]
					x := loadF64(in.Storage, dtype.Float32, offs[1]+i*strides[1]+j*strides[nt+1])
					storeF64(out.Storage, dtype.Float32, o, loadF64(out.Storage, dtype.Float32, o)+x)
				}
			}
		}, 16)
		for r := 0; r < out.NumEl(); r++ {
			want := 0.0
			for s := 0; s < in.NumEl()/out.NumEl(); s++ {
				i := r*n1 + s
				if keep == 1 {
					i = s*n1 + r
				}
				want += float64(i % 7)
			}
			if got := loadF64(out.Storage, dtype.Float32, 4*r); got != want {
				t.Fatalf("keep %d: sum %d = %v, want %v", keep, r, got, want)
			}
		}
	}
}
