package shape

import (
	"math"
	"math/bits"
	"slices"

	"github.com/goten-ml/goten/errs"
)

// Note [Checked sizes]
//
// Sizes, strides and offsets are ints, and their products overflow
// silently: Reshape(1<<62+1, 4) of four elements once passed the
// element-count check because (2^62+1)·4 wraps to 4, and the view it made
// wrote past its 16-byte storage. So the numbers a user can make a layout
// from are checked where they are computed, with the overflow-checked
// arithmetic below ([MulOK], [AddOK]): an element count ([NumElOK],
// [CheckSizes]), the bytes of an allocation ([Bytes]), a sum of sizes, the
// storage a layout spans ([Span]). And every view a user can make passes
// [CheckView] before any kernel sees it. A layout that passes has
//
//   - sizes ≥ 0 whose product fits in an int,
//   - strides and an offset in [0, MaxStride], so that in bytes they fit
//     an int for every dtype,
//   - when it has elements, offset + Σ(size-1)·stride below the number of
//     elements of its storage (itself at most MaxInt bytes),
//
// and code below it (NumEl, the iterator, the kernels) computes with plain
// ints: every partial product of its sizes, every offset reached by walking
// it, fits. A new dense tensor's sizes pass [CheckSizes], which also bounds
// the product of its sizes with 0s counted as 1, so that its contiguous
// strides fit (PyTorch 1.13 lets those wrap; later versions refuse them with
// "Stride calculation overflowed", as we do).

// MaxStride is the largest stride or storage offset, in elements, of a view
// ([CheckView]): times the size of any dtype (at most 8 bytes) it fits in
// an int.
const MaxStride = math.MaxInt / 8

// MulOK returns a·b and whether it fits in an int, for a, b ≥ 0.
func MulOK(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int(lo), a >= 0 && b >= 0 && hi == 0 && lo <= math.MaxInt
}

// AddOK returns a+b and whether it fits in an int, for a, b ≥ 0.
func AddOK(a, b int) (int, bool) {
	s := a + b
	return s, a >= 0 && b >= 0 && s >= a
}

// NumElOK returns the product of sizes and whether it is an element count:
// every size ≥ 0 and the product fits in an int.
func NumElOK(sizes []int) (int, bool) {
	n := 1
	for _, s := range sizes {
		if s < 0 {
			return 0, false
		}
		if s == 0 {
			n = 0 // no elements, however large the other sizes
		}
	}
	if n == 0 {
		return 0, true
	}
	for _, s := range sizes {
		var ok bool
		if n, ok = MulOK(n, s); !ok {
			return 0, false
		}
	}
	return n, true
}

// CheckSizes checks the sizes of a new dense tensor for op and returns its
// element count: a negative size is a value error; sizes whose product
// overflows an int, or whose contiguous strides (products of the trailing
// sizes, 0s counted as 1) overflow or pass [MaxStride], a shape error. See
// Note [Checked sizes].
func CheckSizes(op string, sizes []int) (int, error) {
	for _, s := range sizes {
		if s < 0 {
			return 0, errs.New(errs.Value, op, "Trying to create tensor with negative dimension %d: %s", s, Format(sizes))
		}
	}
	n, ok := NumElOK(sizes)
	if !ok {
		return 0, errs.New(errs.Shape, op, "Storage size calculation overflowed with sizes=%s", Format(sizes))
	}
	// the contiguous strides, products of max(size, 1) over trailing
	// sizes, must be strides a view may have, in [0, MaxStride] (CheckView):
	// an empty [0, 0, 2^60] would have strides [2^60, 2^60, 1]
	stride := 1
	for i := len(sizes) - 1; i >= 0; i-- {
		if stride > MaxStride {
			return 0, errs.New(errs.Shape, op, "Stride calculation overflowed with sizes=%s", Format(sizes))
		}
		if stride, ok = MulOK(stride, max(sizes[i], 1)); !ok {
			return 0, errs.New(errs.Shape, op, "Stride calculation overflowed with sizes=%s", Format(sizes))
		}
	}
	return n, nil
}

// Bytes returns the size in bytes of a dense storage of sizes with elements
// of itemSize bytes, checked as [CheckSizes] does; a byte count that
// overflows is a shape error too.
func Bytes(op string, sizes []int, itemSize int) (int, error) {
	n, err := CheckSizes(op, sizes)
	if err != nil {
		return 0, err
	}
	b, ok := MulOK(n, itemSize)
	if !ok {
		return 0, errs.New(errs.Shape, op, "Storage size calculation overflowed with sizes=%s", Format(sizes))
	}
	return b, nil
}

// Span returns the number of storage elements a layout reaches from the
// start of its storage: offset + 1 + Σ(size-1)·stride, or 0 when it has no
// elements; ok is false when a size, stride or the offset is negative or
// the sum overflows an int.
func Span(sizes, strides []int, offset int) (n int, ok bool) {
	if offset < 0 || slices.ContainsFunc(sizes, isNeg) || slices.ContainsFunc(strides, isNeg) {
		return 0, false
	}
	if slices.Contains(sizes, 0) {
		return 0, true
	}
	n, ok = AddOK(offset, 1)
	for i, s := range sizes {
		d, fits := MulOK(s-1, strides[i])
		if n, ok = AddOK(n, d); !ok || !fits {
			return 0, false
		}
	}
	return n, ok
}

func isNeg(x int) bool { return x < 0 }

// CheckView checks a view of a storage of storageNumel elements made by op
// (see Note [Checked sizes]): a negative size, stride or offset, or one
// above [MaxStride], is a value error; sizes whose product overflows a
// shape error; elements beyond the storage an index error. Every view op
// runs it on its result.
func CheckView(op string, l Layout, storageNumel int) error {
	if len(l.Sizes) != len(l.Strides) {
		return errs.New(errs.Value, op, "mismatch in length of strides and shape: sizes %s, strides %s", Format(l.Sizes), Format(l.Strides))
	}
	for _, s := range l.Sizes {
		if s < 0 {
			return errs.New(errs.Value, op, "sizes must be non-negative, got sizes: %s", Format(l.Sizes))
		}
	}
	for _, s := range l.Strides {
		if s < 0 || s > MaxStride {
			return errs.New(errs.Value, op, "strides must be in [0, %d], got strides: %s", MaxStride, Format(l.Strides))
		}
	}
	if l.Offset < 0 || l.Offset > MaxStride {
		return errs.New(errs.Value, op, "invalid storage offset %d", l.Offset)
	}
	n, ok := NumElOK(l.Sizes)
	if !ok {
		return errs.New(errs.Shape, op, "numel: integer multiplication overflow with sizes=%s", Format(l.Sizes))
	}
	if n == 0 {
		return nil
	}
	if need, ok := Span(l.Sizes, l.Strides, l.Offset); !ok || need > storageNumel {
		if !ok {
			return errs.New(errs.Shape, op, "Storage size calculation overflowed with sizes=%s and strides=%s", Format(l.Sizes), Format(l.Strides))
		}
		return errs.New(errs.Index, op, "setStorage: sizes %s, strides %s, storage offset %d requiring a storage size of %d elements are out of bounds for storage of %d elements", Format(l.Sizes), Format(l.Strides), l.Offset, need, storageNumel)
	}
	return nil
}
