package tensor

import (
	"fmt"
	"math"
	"slices"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/shape"
)

// Note [Rearrangements as compositions]
//
// The rearranging ops (flip, roll, rot90, repeat, tile, tril/triu,
// diagonal, diag, diag_embed, trace, repeat_interleave, pad, kron, cross,
// outer, meshgrid, cartesian_prod, one_hot) are compositions of views,
// copies, index_select, where and the matrix family, as several are in
// PyTorch: they run on every backend with no kernel of their own, and
// their gradients come from those ops' derivatives (the sums over repeated
// elements included) and can be differentiated again. Positions computed
// on the host (a pad's mirrored indices, a tril's mask) are moved to the
// operand's device first.

// onDeviceOf returns x, built on the host, on t's device.
func onDeviceOf(t, x *Tensor) *Tensor { return x.ToDevice(t.Device()) }

// wrapDimOf wraps dim against t's dims, panicking with an index error
// named name when it is out of range.
func wrapDimOf(name string, t *Tensor, dim int) int {
	d, err := shape.WrapDim(dim, t.Dim())
	must(errs.WithOp(err, name))
	return d
}

// zeroOf is a 0-dim zero of t's dtype on t's device.
func zeroOf(t *Tensor) *Tensor { return fullOn(t, Scalar(0), t.DType(), nil) }

// Flip returns a copy of t reversed along each of dims (negative from the
// end). A dim listed twice is a value error.
func (t *Tensor) Flip(dims ...int) *Tensor {
	const name = "flip"
	seen := make([]bool, max(t.Dim(), 1))
	for _, d := range dims {
		w := wrapDimOf(name, t, d)
		if seen[w] {
			panic(errs.New(errs.Value, name, "dim %d appears multiple times in the list of dims", w))
		}
		seen[w] = true
	}
	r := t
	for _, d := range dims {
		if t.Dim() > 0 {
			r = flip(r, d)
		}
	}
	if r == t {
		return t.Clone()
	}
	return r
}

// Fliplr returns t flipped along dim 1; t needs at least 2 dims (else a
// shape error).
func (t *Tensor) Fliplr() *Tensor {
	if t.Dim() < 2 {
		panic(errs.New(errs.Shape, "fliplr", "Input must be >= 2-d."))
	}
	return t.Flip(1)
}

// Flipud returns t flipped along dim 0; t needs at least 1 dim (else a
// shape error).
func (t *Tensor) Flipud() *Tensor {
	if t.Dim() < 1 {
		panic(errs.New(errs.Shape, "flipud", "Input must be >= 1-d."))
	}
	return t.Flip(0)
}

// Roll returns a copy of t where, along each of dims, element i moves to
// (i + shift) mod size. Without dims t is rolled as 1-D in row-major
// order and keeps its shape. shifts and dims of different lengths (one
// shift without dims excepted) are a value error.
func (t *Tensor) Roll(shifts []int, dims ...int) *Tensor {
	const name = "roll"
	if len(dims) == 0 {
		if len(shifts) != 1 {
			panic(errs.New(errs.Value, name, "shifts and dimensions must align. shifts: %d, dims:0", len(shifts)))
		}
		return t.Reshape(-1).Roll(shifts, 0).Reshape(t.Shape()...)
	}
	if len(shifts) != len(dims) {
		panic(errs.New(errs.Value, name, "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims)))
	}
	r := t
	for k, d := range dims {
		d = wrapDimOf(name, t, d)
		n := t.Size(d)
		if n == 0 {
			continue
		}
		s := ((shifts[k] % n) + n) % n
		if s == 0 {
			continue
		}
		r = Cat([]*Tensor{r.Narrow(d, n-s, s), r.Narrow(d, 0, n-s)}, d)
	}
	if r == t {
		return t.Clone()
	}
	return r
}

// Rot90 returns t rotated by k·90° in the plane of dims (two distinct
// dims; [0, 1] when absent), from the first dim towards the second. t
// needs at least 2 dims (else a shape error); other dims are a value
// error.
func (t *Tensor) Rot90(k int, dims ...int) *Tensor {
	const name = "rot90"
	if len(dims) == 0 {
		dims = []int{0, 1}
	}
	if len(dims) != 2 {
		panic(errs.New(errs.Value, name, "expected total rotation dims == 2, but got dims = %d", len(dims)))
	}
	if t.Dim() < 2 {
		panic(errs.New(errs.Shape, name, "expected total dims >= 2, but got total dims = %d", t.Dim()))
	}
	d0, d1 := wrapDimOf(name, t, dims[0]), wrapDimOf(name, t, dims[1])
	if d0 == d1 {
		panic(errs.New(errs.Value, name, "expected rotation dims to be different, but got dim0 = %d and dim1 = %d", d0, d1))
	}
	switch ((k % 4) + 4) % 4 {
	case 1:
		return t.Flip(d1).Transpose(d0, d1)
	case 2:
		return t.Flip(d0, d1)
	case 3:
		return t.Flip(d0).Transpose(d0, d1)
	}
	return t.Clone()
}

// Repeat returns t tiled reps[d] times along each dim d; more reps than
// dims add leading dims, fewer are a shape error, a negative one a value
// error.
func (t *Tensor) Repeat(reps ...int) *Tensor {
	const name = "repeat"
	if len(reps) < t.Dim() {
		panic(errs.New(errs.Shape, name, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"))
	}
	for _, r := range reps {
		if r < 0 {
			panic(errs.New(errs.Value, name, "Trying to create tensor with negative dimension %d: %v", r, reps))
		}
	}
	sh := append(slices.Repeat([]int{1}, len(reps)-t.Dim()), t.v.Shape...)
	x := t.Reshape(sh...)
	// [s0, s1, …] → [1, s0, 1, s1, …] → [r0, s0, r1, s1, …] → [r0·s0, …]
	inter, exp, out := make([]int, 0, 2*len(sh)), make([]int, 0, 2*len(sh)), make([]int, len(sh))
	for d, s := range sh {
		inter = append(inter, 1, s)
		exp = append(exp, reps[d], s)
		out[d] = reps[d] * s
	}
	return x.Reshape(inter...).Expand(exp...).Reshape(out...).contiguousCopy(t)
}

// contiguousCopy returns r, unless it shares t's storage (a view): then a
// copy, since the ops that call it promise new tensors.
func (r *Tensor) contiguousCopy(t *Tensor) *Tensor {
	if r.SharesStorage(t) {
		return r.Clone()
	}
	return r
}

// Tile is [Tensor.Repeat] where fewer reps than dims count as leading 1s.
func (t *Tensor) Tile(reps ...int) *Tensor {
	if len(reps) < t.Dim() {
		reps = append(slices.Repeat([]int{1}, t.Dim()-len(reps)), reps...)
	}
	return t.Repeat(reps...)
}

// triangle keeps the elements (i, j) of t's last two dims where keep(j −
// i) holds, zeroing the others.
func triangle(name string, t *Tensor, keep func(int) bool) *Tensor {
	if t.Dim() < 2 {
		if t.NumEl() == 0 {
			// PyTorch 1.13's kernel returns before it reads the dims
			return t.Clone()
		}
		wrapDimOf(name, t, -2) // PyTorch's index error
	}
	n, m := t.Size(-2), t.Size(-1)
	mask := make([]bool, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			mask[i*m+j] = keep(j - i)
		}
	}
	return Where(onDeviceOf(t, FromSlice(mask, n, m)), t, zeroOf(t))
}

// Tril returns t with the elements above the diagonal-th diagonal of its
// last two dims zeroed (those with j − i > diagonal); t needs 2 dims or
// more (else an index error), unless it has no elements.
func (t *Tensor) Tril(diagonal int) *Tensor {
	return triangle("tril", t, func(d int) bool { return d <= diagonal })
}

// Triu returns t with the elements below the diagonal-th diagonal zeroed
// (those with j − i < diagonal).
func (t *Tensor) Triu(diagonal int) *Tensor {
	return triangle("triu", t, func(d int) bool { return d >= diagonal })
}

// Diagonal returns the view of the offset diagonal of every (dim1, dim2)
// plane of t as a new last dim (size 0 beyond the plane). dim1 = dim2 is
// a value error.
func (t *Tensor) Diagonal(offset, dim1, dim2 int) *Tensor {
	const name = "diagonal"
	d1, d2 := wrapDimOf(name, t, dim1), wrapDimOf(name, t, dim2)
	if d1 == d2 {
		panic(errs.New(errs.Value, name, "diagonal dimensions cannot be identical %d, %d", dim1, dim2))
	}
	var n int
	off := t.v.Offset
	if offset >= 0 {
		n = max(min(t.Size(d1), t.Size(d2)-offset), 0)
		if n > 0 {
			off += offset * t.v.Strides[d2]
		}
	} else {
		n = max(min(t.Size(d1)+offset, t.Size(d2)), 0)
		if n > 0 {
			off -= offset * t.v.Strides[d1]
		}
	}
	var sizes, strides []int
	for d := range t.Dim() {
		if d != d1 && d != d2 {
			sizes, strides = append(sizes, t.v.Shape[d]), append(strides, t.v.Strides[d])
		}
	}
	sizes, strides = append(sizes, n), append(strides, t.v.Strides[d1]+t.v.Strides[d2])
	r := t.viewOf(op.AsStrided(t.in(name), sizes, strides, &off))
	// PyTorch's DiagonalBackward0 writes the gradient into the diagonal
	// of zeros of t's shape, whatever t's layout (an expanded t too, whose
	// storage positions an as_strided backward would have to share)
	return narrowed("DiagonalBackward0", t, r, func(z *Tensor) *Tensor { return z.Diagonal(offset, d1, d2) })
}

// DiagEmbed returns a tensor with one dim more than t whose (dim1, dim2)
// planes (dims of the result, negative from the end) hold t's last dim on
// their offset diagonal, zeros elsewhere.
func (t *Tensor) DiagEmbed(offset, dim1, dim2 int) *Tensor {
	const name = "diag_embed"
	nd := t.Dim() + 1
	d1, err := shape.WrapDim(dim1, nd)
	must(errs.WithOp(err, name))
	d2, err := shape.WrapDim(dim2, nd)
	must(errs.WithOp(err, name))
	if d1 == d2 {
		panic(errs.New(errs.Value, name, "diagonal dimensions cannot be identical %d, %d", dim1, dim2))
	}
	n := 1
	var rest []int
	if t.Dim() > 0 {
		n = t.Size(-1)
		rest = t.v.Shape[:t.Dim()-1]
	}
	n += abs(offset)
	sh := make([]int, nd)
	k := 0
	for d := range sh {
		if d == d1 || d == d2 {
			sh[d] = n
			continue
		}
		sh[d] = rest[k]
		k++
	}
	src := t
	if t.Dim() == 0 {
		src = t.Reshape(1)
	}
	return scatterView(src, sh, func(z *Tensor) *Tensor { return z.Diagonal(offset, d1, d2) })
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Diag returns, for a 1-D t, the square matrix of size n + |diagonal|
// with t on its diagonal-th diagonal; for a 2-D t, a copy of that
// diagonal as 1-D. Other ranks are a shape error.
func (t *Tensor) Diag(diagonal int) *Tensor {
	switch t.Dim() {
	case 1:
		return t.DiagEmbed(diagonal, 0, 1)
	case 2:
		return t.Diagonal(diagonal, 0, 1).Clone()
	}
	panic(errs.New(errs.Shape, "diag", "matrix or a vector expected"))
}

// Trace returns the sum of the main diagonal of the 2-D t (other ranks: a
// shape error) as a 0-dim tensor; integer inputs give int64. As PyTorch
// 1.13's CPU kernel, which dispatches before it checks the rank, bool,
// float16 and bfloat16 are a dtype error.
func (t *Tensor) Trace() *Tensor {
	if d := t.DType(); d == Bool || d.IsReduced() {
		panic(errs.New(errs.DType, "trace", "\"trace\" not implemented for '%s'", op.TorchName(d)))
	}
	if t.Dim() != 2 {
		panic(errs.New(errs.Shape, "trace", "trace: expected a matrix, but got tensor with dim %d", t.Dim()))
	}
	return t.Diagonal(0, 0, 1).Sum()
}

// NarrowCopy returns a copy of [Tensor.Narrow]. When the narrowed dim
// keeps its whole size, the copy has the strides PyTorch 1.13's kernel
// gives it and is filled in its order: t's layout (empty_like's) written
// in row-major order, so a t laid out out of row-major order comes back
// with its elements moved (Note [narrow_copy's layout]).
func (t *Tensor) NarrowCopy(dim, start, length int) *Tensor {
	n := t.Narrow(dim, start, length)
	if n.NumEl() == 0 || n.Size(dim) != t.Size(dim) {
		return n.Clone()
	}
	rowMajor := n.Contiguous()
	if rowMajor == n {
		return n.Clone()
	}
	return rowMajor.AsStridedAt(t.Shape(), shape.DenseLike(t.Shape(), t.Strides()), 0)
}

// Note [narrow_copy's layout]
//
// PyTorch 1.13's narrow_copy on the CPU allocates its result with
// empty_like(self), which keeps self's strides (or, for a layout that is
// not dense, dense strides in self's order: shape.DenseLike), resizes it
// to the narrowed shape, which makes it contiguous unless the shape did
// not change, and then copies the narrowed elements in as blocks of
// row-major memory. When the dim keeps its size and self's layout is not
// row-major, the row-major elements thus sit in a permuted layout, and the
// result differs from narrow().clone(). The conformance cases record that
// result, so goten builds the same one.

// RepeatInterleave returns t with each slice along dim repeated in place
// repeats[i] times (one count for all slices when repeats has one
// element); without dim t is flattened first. A negative count is a value
// error; a length other than the dim's size (or 1) a shape error.
func (t *Tensor) RepeatInterleave(repeats []int64, dim ...int) *Tensor {
	const name = "repeat_interleave"
	x, d := t, 0
	switch len(dim) {
	case 0:
		x = t.Reshape(-1)
	case 1:
		d = wrapDimOf(name, t, dim[0])
	default:
		panic(errs.New(errs.Value, name, "repeat_interleave takes at most one dim, got %d", len(dim)))
	}
	n := 1
	if x.Dim() > 0 {
		n = x.Size(d)
	}
	if len(repeats) == 1 {
		repeats = slices.Repeat(repeats, n)
	}
	if len(repeats) != n {
		panic(errs.New(errs.Shape, name, "repeats must have the same size as input along dim"))
	}
	idx, err := interleaveIndex(repeats)
	must(err)
	return x.IndexSelect(d, onDeviceOf(x, idx))
}

// RepeatInterleaveBy is [Tensor.RepeatInterleave] with the counts in a
// tensor (0-dim or 1-D, int32 or int64 as PyTorch's kernel takes them:
// another dtype is a dtype error, after the check of the count's length).
func (t *Tensor) RepeatInterleaveBy(repeats *Tensor, dim ...int) *Tensor {
	const name = "repeat_interleave"
	if repeats.Dim() > 1 {
		panic(errs.New(errs.Value, name, "repeats must be 0-dim or 1-dim tensor"))
	}
	reps := repeats.Int64s()
	if d := repeats.DType(); d != Int32 && d != Int64 {
		if len(reps) != 1 {
			// the length's shape error comes first, the counts' values
			// (negative ones too) are read after the dtype's dispatch
			checkRepeatsLength(t, len(reps), dim)
		}
		panic(errs.New(errs.DType, name, "\"repeat_interleave_cpu\" not implemented for '%s'", op.TorchName(d)))
	}
	return t.RepeatInterleave(reps, dim...)
}

// checkRepeatsLength panics with repeat_interleave's shape error unless n
// counts fit t along dim (or flattened).
func checkRepeatsLength(t *Tensor, n int, dim []int) {
	const name = "repeat_interleave"
	size := t.NumEl()
	if len(dim) == 1 {
		if d := wrapDimOf(name, t, dim[0]); t.Dim() > 0 {
			size = t.Size(d)
		} else {
			size = 1
		}
	}
	if n != size {
		panic(errs.New(errs.Shape, name, "repeats must have the same size as input along dim"))
	}
}

// interleaveIndex returns i repeated repeats[i] times, as int64. Every
// count is checked before anything is allocated, as PyTorch does, and a
// total over the memory limit is a Memory error (Note [Memory limit] in
// package device), not the process's death.
func interleaveIndex(repeats []int64) (*Tensor, error) {
	for _, r := range repeats {
		if r < 0 {
			return nil, errs.New(errs.Value, "repeat_interleave", "repeats can not be negative")
		}
	}
	var total int64 // in int64 whatever int's size: a count of 2^53 must not wrap on 386
	for _, r := range repeats {
		if total > math.MaxInt64-r {
			total = math.MaxInt64
			break
		}
		total += r
	}
	if limit := int64(device.MemoryLimit() / 8); total > limit {
		return nil, &errs.Error{Kind: errs.Memory, Op: "repeat_interleave", Err: device.ErrMemoryLimit,
			Msg: fmt.Sprintf("%v: you tried to allocate %d int64 indices, more than the limit of %d bytes holds (see device.SetMemoryLimit)", device.ErrMemoryLimit, total, limit*8)}
	}
	vals := make([]int64, 0, int(total))
	for i, r := range repeats {
		for range r {
			vals = append(vals, int64(i))
		}
	}
	return FromSlice(vals, len(vals)), nil
}

// RepeatInterleaveCounts returns i repeated counts[i] times (int32 or
// int64 1-D counts, none negative: else a value error), PyTorch's
// repeat_interleave(repeats): the result has the counts' dtype.
func RepeatInterleaveCounts(counts *Tensor) *Tensor {
	if d := counts.DType(); d != Int32 && d != Int64 {
		panic(errs.New(errs.DType, "repeat_interleave", "\"repeat_interleave_cpu\" not implemented for '%s'", op.TorchName(d)))
	}
	idx, err := interleaveIndex(counts.Int64s())
	must(err)
	return onDeviceOf(counts, idx.To(counts.DType())) // PyTorch's result has the counts' dtype
}

// PadMode is how [Pad] fills the border.
type PadMode string

// The modes of [Pad].
const (
	PadConstant  PadMode = "constant"
	PadReflect   PadMode = "reflect"
	PadReplicate PadMode = "replicate"
	PadCircular  PadMode = "circular"
)

// Pad returns t padded as torch.nn.functional.pad: pads holds (before,
// after) pairs for the last dim, then the one before it, …; PadConstant
// fills with value (negative pads remove elements), PadReflect mirrors
// the elements next to the edge (pads below the size), PadReplicate
// repeats the edge element, PadCircular wraps around (pads up to the
// size). An odd number of pads, or more pairs than dims, is a value error.
func (t *Tensor) Pad(pads []int, mode PadMode, value float64) *Tensor {
	const name = "pad"
	if len(pads)%2 != 0 {
		panic(errs.New(errs.Value, name, "Padding length must be divisible by 2"))
	}
	if len(pads)/2 > t.Dim() {
		panic(errs.New(errs.Value, name, "Padding length too large"))
	}
	switch mode {
	case "", PadConstant:
		return padConstant(t, pads, value)
	case PadReplicate:
		if d := t.DType(); d != Float32 && d != Float64 {
			// PyTorch's replication_pad kernels are for float and double
			panic(errs.New(errs.DType, name, "\"replication_pad%dd_cpu\" not implemented for '%s'", len(pads)/2, op.TorchName(d)))
		}
	case PadReflect, PadCircular:
	default:
		panic(errs.New(errs.Value, name, "Unrecognised padding mode %s", mode))
	}
	r := t
	for k := 0; k < len(pads)/2; k++ {
		d := t.Dim() - 1 - k
		a, b, n := pads[2*k], pads[2*k+1], t.Size(d)
		idx := make([]int64, 0, max(n+a+b, 0))
		for i := -a; i < n+b; i++ {
			var j int
			switch mode {
			case PadReflect:
				if a >= n || b >= n {
					panic(errs.New(errs.Value, name, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %v",
						a, b, d, shape.Format(t.v.Shape)))
				}
				j = i
				if j < 0 {
					j = -j
				}
				if j >= n {
					j = 2*(n-1) - j
				}
			case PadReplicate:
				j = min(max(i, 0), n-1)
			case PadCircular:
				if a > n || b > n {
					panic(errs.New(errs.Value, name, "Padding value causes wrapping around more than once."))
				}
				j = ((i % n) + n) % n
			}
			idx = append(idx, int64(j))
		}
		r = r.IndexSelect(d, onDeviceOf(t, FromSlice(idx, len(idx))))
	}
	return r
}

// padConstant is [Tensor.Pad] with PadConstant: t's kept part written
// into a tensor filled with value, its gradient read back from there. It
// follows PyTorch's constant_pad_nd step by step, whose errors depend on
// the order: negative pads first narrow t, dim by dim (narrowForPad's
// errors); with no positive pad that is the result; else every padded
// dim must come out longer than 0.
func padConstant(t *Tensor, pads []int, value float64) *Tensor {
	src, in := t, t.Shape()
	first := t.Dim() - len(pads)/2 // the first padded dim
	padsOf := func(d int) (a, b int) {
		k := t.Dim() - 1 - d
		return pads[2*k], pads[2*k+1]
	}
	for d := first; d < t.Dim(); d++ {
		a, b := padsOf(d)
		if a < 0 {
			src = narrowForPad(src, d, -a, src.Size(d)+a)
		}
		if b < 0 {
			src = narrowForPad(src, d, 0, src.Size(d)+b)
		}
	}
	if !slices.ContainsFunc(pads, func(p int) bool { return p > 0 }) {
		// PyTorch's constant_pad_nd returns a copy of the narrowed input
		// when no pad is positive: value, never written, is not checked
		// against t's dtype
		return src.Clone()
	}
	type span struct{ d, start, n int }
	var spans []span
	sh := slices.Clone(in)
	for d := first; d < t.Dim(); d++ {
		a, b := padsOf(d)
		if sh[d] = in[d] + a + b; sh[d] <= 0 {
			panic(errs.New(errs.Value, "pad", "The input size %d, plus negative padding %d and %d resulted in a negative output size, which is invalid. Check dimension %d of your input.", in[d], a, b, d))
		}
		spans = append(spans, span{d, max(a, 0), src.Size(d)})
	}
	view := func(z *Tensor) *Tensor {
		for _, s := range spans {
			z = z.Narrow(s.d, s.start, s.n)
		}
		return z
	}
	z := fullOn(t, Scalar(value), t.DType(), sh)
	view(z).CopyFrom(src.Detach())
	if recording(src) {
		record("ConstantPadNdBackward0", []*Tensor{src}, []*Tensor{z}, func(_ *node, gs []*Tensor) []*Tensor {
			return []*Tensor{view(gs[0])}
		})
	}
	return z
}

// narrowForPad is t.Narrow(d, start, length) with the checks of PyTorch
// 1.13's narrow, which constant_pad_nd calls for a negative pad: start,
// unless it is the dim's end, is wrapped as if it were a dim index of a
// tensor with as many dims as the dim is long (at least one), and a start
// past that is "Dimension out of range"; a negative length, or one past
// the end, is an index error too.
func narrowForPad(t *Tensor, d, start, length int) *Tensor {
	size := t.Size(d)
	if start != size {
		if n := max(size, 1); start >= n {
			panic(errs.New(errs.Index, "pad", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, start))
		}
	}
	if length < 0 || start > size-length {
		panic(errs.New(errs.Index, "pad", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size))
	}
	return t.Narrow(d, start, length)
}

// OneHot returns the int64 tensor of t's shape and one more dim of size
// classes (max + 1 when classes < 0) with a 1 at each element's value. t
// is int64 (else a dtype error); a value outside [0, classes) is an index
// error.
func OneHot(t *Tensor, classes int) *Tensor {
	const name = "one_hot"
	if t.DType() != Int64 {
		panic(errs.New(errs.DType, name, "one_hot is only applicable to index tensor."))
	}
	vals := t.Int64s()
	if classes < 0 {
		if len(vals) == 0 {
			panic(errs.New(errs.Value, name, "Can not infer total number of classes from empty tensor."))
		}
		classes = int(slices.Max(vals)) + 1
	}
	for _, v := range vals {
		if v < 0 {
			panic(errs.New(errs.Index, name, "Class values must be non-negative."))
		}
		if v >= int64(classes) {
			panic(errs.New(errs.Index, name, "Class values must be smaller than num_classes."))
		}
	}
	c := onDeviceOf(t, Arange(0, float64(classes), 1, Int64))
	return t.Unsqueeze(t.Dim()).Eq(c).To(Int64)
}

// Outer returns the matrix a[i]·b[j] of the 1-D a and b, with mul's type
// promotion.
func Outer(a, b *Tensor) *Tensor {
	if a.Dim() != 1 || b.Dim() != 1 {
		panic(errs.New(errs.Shape, "outer", "outer: expected 1-D inputs, got %dD and %dD", a.Dim(), b.Dim()))
	}
	return a.Unsqueeze(1).Mul(b.Unsqueeze(0))
}

// Kron returns the Kronecker product of a and b (ranks equalized with
// leading 1s), with mul's type promotion. Like PyTorch's, it views its
// product flat, so a product laid out as a permuted input is a view error.
func Kron(a, b *Tensor) *Tensor {
	n := max(a.Dim(), b.Dim())
	as := append(slices.Repeat([]int{1}, n-a.Dim()), a.v.Shape...)
	bs := append(slices.Repeat([]int{1}, n-b.Dim()), b.v.Shape...)
	ai, bi, out := make([]int, 0, 2*n), make([]int, 0, 2*n), make([]int, n)
	for d := range n {
		ai = append(ai, as[d], 1)
		bi = append(bi, 1, bs[d])
		out[d] = as[d] * bs[d]
	}
	// views, as PyTorch's _unsafe_view: a product laid out as a permuted
	// input (the iterator keeps its order) cannot be viewed flat, a view error
	return a.View(ai...).Mul(b.View(bi...)).View(out...)
}

// Cross returns the cross product of the 3-vectors along dim of a and b,
// PyTorch 1.13's torch.cross (linalg.cross): a and b have the same number
// of dims (else a shape error), size 3 along dim (else a shape error), the
// other dims broadcast, and one dtype (else a dtype error) that is neither
// bool nor float16 (no kernel: a dtype error). The checks come in
// PyTorch's order: ranks, dim (an index error), sizes, broadcast, dtypes.
func Cross(a, b *Tensor, dim int) *Tensor {
	const name = "cross"
	if a.Dim() != b.Dim() {
		panic(errs.New(errs.Shape, name, "linalg.cross: inputs must have the same number of dimensions."))
	}
	if a.Dim() == 0 { // PyTorch's input.size(dim) of a 0-dim tensor
		panic(errs.New(errs.Index, name, "Dimension specified as %d but tensor has no dimensions", dim))
	}
	d := wrapDimOf(name, a, dim)
	if a.Size(d) != 3 || b.Size(d) != 3 {
		panic(errs.New(errs.Shape, name, "linalg.cross: inputs dimension %d must have length 3. Got %d and %d", dim, a.Size(d), b.Size(d)))
	}
	broadcastable(name, a, b)
	// PyTorch's kernel dispatches on a's dtype, then reads b as that type
	if dt := a.DType(); dt == Bool || dt == Float16 {
		panic(errs.New(errs.DType, name, "\"cross\" not implemented for '%s'", op.TorchName(dt)))
	}
	if a.DType() != b.DType() {
		panic(errs.New(errs.DType, name, "expected scalar type %s but found %s", op.TorchName(a.DType()), op.TorchName(b.DType())))
	}
	// (a1 b2 − a2 b1, a2 b0 − a0 b2, a0 b1 − a1 b0): a and b rolled
	x, y := a.Roll([]int{-1}, d), b.Roll([]int{-2}, d)
	zw := a.Roll([]int{-2}, d).Mul(b.Roll([]int{-1}, d))
	if dt := a.DType(); dt == Float32 || dt == Float64 {
		// PyTorch's kernel is built with FMA contraction: x·y − z·w is
		// fma(x, y, −round(z·w)), which keeps the rounding error of z·w
		// where the two products are equal
		return Addcmul(zw.Neg(), x, y)
	}
	return x.Mul(y).Sub(zw)
}

// CrossDim returns the dim torch.cross takes when it is given none (a
// deprecated default, unlike linalg.cross's −1): the first dim of a of
// size 3 (none: a shape error).
func CrossDim(a *Tensor) int {
	if i := slices.Index(a.v.Shape, 3); i >= 0 {
		return i
	}
	panic(errs.New(errs.Shape, "cross", "no dimension of size 3 in input"))
}

// Meshgrid returns k tensors of shape [n1, …, nk] for k inputs, each
// 0-dim or 1-D of length ni and of one dtype (else a dtype error): tensor
// i holds input i along dim i. With xy, the first two dims swap (shape
// [n2, n1, n3, …]). The results are expanded views of the inputs.
func Meshgrid(ts []*Tensor, xy bool) []*Tensor {
	const name = "meshgrid"
	if len(ts) == 0 {
		panic(errs.New(errs.Value, name, "meshgrid expects a non-empty TensorList"))
	}
	sh := make([]int, len(ts))
	for i, t := range ts {
		if t.DType() != ts[0].DType() {
			panic(errs.New(errs.DType, name, "meshgrid expects all tensors to have the same dtype"))
		}
		if t.Dim() > 1 {
			panic(errs.New(errs.Shape, name, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %d-D", t.Dim()))
		}
		sh[i] = t.NumEl()
	}
	dimOf := func(i int) int { return i }
	if xy && len(ts) >= 2 {
		sh[0], sh[1] = sh[1], sh[0]
		dimOf = func(i int) int {
			switch i {
			case 0:
				return 1
			case 1:
				return 0
			}
			return i
		}
	}
	out := make([]*Tensor, len(ts))
	for i, t := range ts {
		view := slices.Repeat([]int{1}, len(ts))
		view[dimOf(i)] = t.NumEl()
		out[i] = t.Reshape(view...).Expand(sh...)
	}
	return out
}

// CartesianProd returns every combination of the elements of the 1-D
// ts (of one dtype, else a dtype error) in row-major order: [n1·n2·…, k]
// (one input: itself).
func CartesianProd(ts ...*Tensor) *Tensor {
	if len(ts) == 1 {
		return ts[0].Clone()
	}
	grids := Meshgrid(ts, false)
	cols := make([]*Tensor, len(grids))
	for i, g := range grids {
		cols[i] = g.Reshape(-1)
	}
	return Stack(cols, 1)
}
