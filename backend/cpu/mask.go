package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/parallel"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// Note [Packing in parallel]
//
// A mask op writes the k-th selected element to (or reads it from) slot k
// of a packed operand (Note [Mask plans] in package kernel), so a worker
// must know how many elements the ranges before its own select. The walk
// is cut into chunks fixed by the number of elements alone
// (parallel.Chunks): a first parallel pass counts each chunk's selected
// elements, their prefix sums give each chunk its first slot, and a second
// parallel pass packs. The packing loop itself is branch-free: each
// element is copied into a small buffer and the slot advances by the mask
// byte (0 or 1), then the buffer's selected prefix is copied out, so
// random masks cost no mispredicted branches.

// maskGrain is the smallest chunk of a mask walk.
const maskGrain = 1 << 16

// maskCall is the state of one Mask call.
type maskCall struct {
	op     *optable.Op
	p      *iter.Plan
	es     int
	base   [3]unsafe.Pointer
	packed unsafe.Pointer // the packed operand's first element
	ps     int            // its byte stride (between rows for Nonzero)
	pcs    int            // Nonzero: its byte stride between columns
	limit  int            // its number of slots
	nzMask uint64         // Nonzero: the bits that make an element nonzero
	shape  []int          // Nonzero: x's shape
	counts []int
}

// chunks returns the chunk size and count of the walk.
func (c *maskCall) chunks() (int, int) { return parallel.Chunks(c.p.NumEl(), maskGrain) }

// selected returns the number of selected elements of a Loop2D range:
// the mask's true bytes, or x's nonzero elements.
func (c *maskCall) selected(offs, strides []int, n0, n1 int) int {
	nops := c.p.NumOperands()
	k := 2
	if c.op == optable.Nonzero {
		k = 1
	}
	total := 0
	for j := 0; j < n1; j++ {
		ptr := unsafe.Add(c.base[k], offs[k]+j*strides[nops+k])
		s := strides[k]
		if c.op == optable.Nonzero {
			for i := 0; i < n0; i++ {
				if loadBits(unsafe.Add(ptr, i*s), c.es)&c.nzMask != 0 {
					total++
				}
			}
			continue
		}
		for i := 0; i < n0; i++ {
			total += int(*(*uint8)(unsafe.Add(ptr, i*s)))
		}
	}
	return total
}

// loadBits reads an element of es bytes as an integer.
func loadBits(p unsafe.Pointer, es int) uint64 {
	switch es {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// packRow packs the n selected elements of a row (src at byte stride ss,
// mask at ms) into slots k… of the packed operand, and returns the next
// slot.
func packRow[W uint8 | uint16 | uint32 | uint64](c *maskCall, k int, src, mask unsafe.Pointer, ss, ms, n int) int {
	var buf [bufLen + 1]W
	for off := 0; off < n; off += bufLen {
		m := min(bufLen, n-off)
		s, mk := unsafe.Add(src, off*ss), unsafe.Add(mask, off*ms)
		got := 0
		for i := 0; i < m; i++ {
			buf[got] = *(*W)(unsafe.Add(s, i*ss))
			got += int(*(*uint8)(unsafe.Add(mk, i*ms)))
		}
		if got == 0 {
			// no slot to write: k may be the slot past the last, whose
			// address lies outside the packed allocation
			continue
		}
		dst := unsafe.Add(c.packed, k*c.ps)
		if c.ps == int(unsafe.Sizeof(W(0))) {
			copy(unsafe.Slice((*W)(dst), got), buf[:got])
		} else {
			for i := 0; i < got; i++ {
				*(*W)(unsafe.Add(dst, i*c.ps)) = buf[i]
			}
		}
		k += got
	}
	return k
}

// unpackRow writes slots k… of the packed operand into the selected
// elements of a row of self and returns the next slot.
func unpackRow[W uint8 | uint16 | uint32 | uint64](c *maskCall, k int, self, mask unsafe.Pointer, ss, ms, n int) int {
	for i := 0; i < n; i++ {
		if *(*uint8)(unsafe.Add(mask, i*ms)) != 0 {
			*(*W)(unsafe.Add(self, i*ss)) = *(*W)(unsafe.Add(c.packed, k*c.ps))
			k++
		}
	}
	return k
}

// pack runs the chunk's packing (or unpacking) from slot k.
func (c *maskCall) pack(begin, end, k int) {
	nops := c.p.NumOperands()
	var coords []int
	if c.op == optable.Nonzero {
		coords = make([]int, len(c.shape))
		rest := begin
		for d := len(c.shape) - 1; d >= 0; d-- {
			coords[d] = rest % c.shape[d]
			rest /= c.shape[d]
		}
	}
	c.p.SerialForEach(func(offs, strides []int, n0, n1 int) {
		for j := 0; j < n1; j++ {
			row := func(q int) unsafe.Pointer { return unsafe.Add(c.base[q], offs[q]+j*strides[nops+q]) }
			switch c.op {
			case optable.MaskedSelect:
				k = packBySize(c, k, row(1), row(2), strides[1], strides[2], n0)
			case optable.MaskedScatter:
				k = unpackBySize(c, k, row(0), row(2), strides[0], strides[2], n0)
			case optable.Nonzero:
				x, s := row(1), strides[1]
				for i := 0; i < n0; i++ {
					if loadBits(unsafe.Add(x, i*s), c.es)&c.nzMask != 0 {
						out := unsafe.Add(c.packed, k*c.ps)
						for m, v := range coords {
							*(*int64)(unsafe.Add(out, m*c.pcs)) = int64(v)
						}
						k++
					}
					for d := len(coords) - 1; d >= 0; d-- {
						if coords[d]++; coords[d] < c.shape[d] {
							break
						}
						coords[d] = 0
					}
				}
			}
		}
	}, begin, end)
}

func packBySize(c *maskCall, k int, src, mask unsafe.Pointer, ss, ms, n int) int {
	switch c.es {
	case 1:
		return packRow[uint8](c, k, src, mask, ss, ms, n)
	case 2:
		return packRow[uint16](c, k, src, mask, ss, ms, n)
	case 4:
		return packRow[uint32](c, k, src, mask, ss, ms, n)
	}
	return packRow[uint64](c, k, src, mask, ss, ms, n)
}

func unpackBySize(c *maskCall, k int, self, mask unsafe.Pointer, ss, ms, n int) int {
	switch c.es {
	case 1:
		return unpackRow[uint8](c, k, self, mask, ss, ms, n)
	case 2:
		return unpackRow[uint16](c, k, self, mask, ss, ms, n)
	case 4:
		return unpackRow[uint32](c, k, self, mask, ss, ms, n)
	}
	return unpackRow[uint64](c, k, self, mask, ss, ms, n)
}

// Mask runs a mask op over a mask plan (Note [Packing in parallel]).
func (*Backend) Mask(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Mask || p.NumOutputs() != 1 || p.NumOperands() != op.Arity+1 {
		return errs.New(errs.Value, op.Name, "%s: not a mask plan", op.Name)
	}
	c := &maskCall{op: op, p: p}
	for k := 0; k < p.NumOperands(); k++ {
		c.base[k] = p.Operand(k).Storage.Pointer()
	}
	po := 0 // the packed operand
	switch op {
	case optable.MaskedSelect, optable.MaskedScatter:
		dt := p.Operand(0).DType
		if !dt.Valid() || p.Operand(1).DType != dt || p.Operand(2).DType != dtype.Bool {
			return errs.New(errs.DType, op.Name, "mask operands of dtypes %s, %s, %s", dt, p.Operand(1).DType, p.Operand(2).DType)
		}
		c.es = dt.Size()
		if op == optable.MaskedScatter {
			po = 1
		}
	case optable.Nonzero:
		if p.Operand(0).DType != dtype.Int64 || !p.Operand(1).DType.Valid() {
			return errs.New(errs.DType, op.Name, "nonzero writes int64, not %s", p.Operand(0).DType)
		}
		x := p.Operand(1)
		c.es, c.shape = x.DType.Size(), x.View.Shape
		c.nzMask = ^uint64(0)
		switch x.DType {
		case dtype.Float16, dtype.BFloat16:
			c.nzMask = 0x7fff
		case dtype.Float32:
			c.nzMask = 0x7fffffff
		case dtype.Float64:
			c.nzMask = 1<<63 - 1
		}
	default:
		return errs.New(errs.Value, op.Name, "%s has no mask kernel", op.Name)
	}
	pk := p.Operand(po)
	if len(args.Packed) == 0 || op == optable.Nonzero && len(c.shape) > 1 && len(args.Packed) < 2 {
		return errs.New(errs.Value, op.Name, "%s: no packed layout", op.Name)
	}
	c.packed = unsafe.Add(pk.Storage.Pointer(), pk.Offset)
	c.ps = args.Packed[0] * pk.DType.Size()
	if len(args.Packed) > 1 {
		c.pcs = args.Packed[1] * pk.DType.Size()
	}
	c.limit = args.PackedLen
	n := p.NumEl()
	if n == 0 {
		return nil
	}
	size, count := c.chunks()
	c.counts = make([]int, count+1)
	parallel.For(count, 1, func(b, e int) {
		for ch := b; ch < e; ch++ {
			sel := 0
			p.SerialForEach(func(offs, strides []int, n0, n1 int) { sel += c.selected(offs, strides, n0, n1) },
				ch*size, min((ch+1)*size, n))
			c.counts[ch+1] = sel
		}
	})
	for ch := 0; ch < count; ch++ {
		c.counts[ch+1] += c.counts[ch]
	}
	if c.counts[count] > c.limit {
		return errs.New(errs.Shape, op.Name, "the mask selects %d elements, the packed operand holds %d", c.counts[count], c.limit)
	}
	parallel.For(count, 1, func(b, e int) {
		for ch := b; ch < e; ch++ {
			c.pack(ch*size, min((ch+1)*size, n), c.counts[ch])
		}
	})
	return nil
}
