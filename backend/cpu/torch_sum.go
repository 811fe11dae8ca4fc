package cpu

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
)

// Note [PyTorch's summation order]
//
// Float addition is not associative: where a sum's partial sums overflow
// (1.7e308 + 1.7e308 is +Inf in float64, after which adding -Inf gives
// NaN) or cancel (-1e308 + 1e308 drops the small terms added before), the
// order of the additions decides the result, not only its last bit. So a
// float32 or float64 sum, nansum or mean of at most torchOrderMax input
// elements adds in PyTorch 1.13's order, step for step: its cascade_sum
// (aten/src/ATen/native/cpu/SumKernel.cpp) over the reduction iterator's
// 2-D blocks, as serial_for_each walks them below its GRAIN_SIZE (where it
// runs on one thread whatever the thread count), accumulating in the
// input's own dtype (float32 adds in float32) into an output first filled
// with zeros. A mean is that sum divided by the count, in the same dtype.
//
// Each block is one of PyTorch's four loops, chosen by the strides (the
// cases of sumBlock): a contiguous reduced dim of at least one vector
// (vectorized_inner_sum), contiguous outputs of at least one vector
// (vectorized_outer_sum), else rows (scalar_inner_sum) or columns
// (scalar_outer_sum). Their sums are rowSum (four interleaved partial
// sums, PyTorch's row_sum) and levelSum (PyTorch's multi_row_sum for one
// column: blocks of 2^k elements added into four levels). PyTorch's
// vectors are AVX2's (its default capability in 1.13, AVX-512 machines
// included: vecLanes), whose lanes add independently, so a vector sum is
// vecLanes scalar sums side by side. goten's plans order and coalesce the
// dims as PyTorch's iterator does (reduced dims first), so the blocks are
// PyTorch's. On 6000 random cases of at most 4096 elements (shapes,
// layouts, dims, extreme values, NaN, -0.0) the bits were torch's in all
// (and in 12000 of up to 20000 elements, run so); before, in about 40% of
// them they were not. TestSumOrder pins a set.
//
// Larger sums keep goten's parallel kernels (Note [Cascade sums]), whose
// float64 accumulation of float32 sums keeps them within an ulp of the
// exact sum. PyTorch runs serially up to its GRAIN_SIZE (32768 elements),
// but these scalar loops take about a nanosecond an element where its
// AVX2 loops and goten's kernels take a fraction (32768 float32 summed
// whole: 43 µs against 3.6 µs on the Zen 3), so they stop at
// torchOrderMax, which the conformance cases' inputs stay under.

// torchOrderMax is the most input elements a sum adds in PyTorch's order.
const torchOrderMax = 4096

// vecLanes returns the lanes of PyTorch 1.13's AVX2 vectors of T.
func vecLanes[T float32 | float64]() int {
	var z T
	return 32 / int(unsafe.Sizeof(z))
}

// torchOrderSum reports whether the CPU adds op over p in PyTorch's order
// (Note [PyTorch's summation order]) and, if so, does.
func torchOrderSum(op *optable.Op, p *iter.Plan) bool {
	if op != optable.Sum && op != optable.NanSum && op != optable.Mean {
		return false
	}
	if p.NumEl() == 0 || p.NumEl() > torchOrderMax || p.NumOperands() != 2 {
		return false
	}
	d := p.Operand(1).DType
	if p.Operand(0).DType != d || p.CommonDType() != d {
		return false
	}
	nan, mean := op == optable.NanSum, op == optable.Mean
	switch d {
	case dtype.Float32:
		walkSum[float32](p, nan, mean)
	case dtype.Float64:
		walkSum[float64](p, nan, mean)
	default:
		return false
	}
	return true
}

// walkSum zeroes the output, adds the plan's 2-D blocks into it in
// serial_for_each's order (the iterator's SerialForEach is PyTorch's
// walk) reading NaN as 0 when nan, and divides by the count for a mean.
func walkSum[T float32 | float64](p *iter.Plan, nan, mean bool) {
	o := p.Output(0)
	var z T
	es := int(unsafe.Sizeof(z))
	base := o.Storage.Pointer()
	o.ElementOffsets(func(off int) { *(*T)(unsafe.Add(base, off*es)) = 0 })
	ob, ib := p.Operand(0).Storage.Pointer(), p.Operand(1).Storage.Pointer()
	p.SerialForEach(func(offs, st []int, n0, n1 int) {
		sumBlock[T](unsafe.Add(ob, offs[0]), unsafe.Add(ib, offs[1]), [4]int{st[0], st[1], st[2], st[3]}, n0, n1, nan)
	}, 0, p.NumEl())
	if mean {
		count := T(p.NumEl() / p.NumOutputElements())
		o.ElementOffsets(func(off int) { *(*T)(unsafe.Add(base, off*es)) /= count })
	}
}

// sumBlock is cascade_sum's loop over one 2-D block of size0 × size1
// elements, strides st (output dim 0, input dim 0, output dim 1, input
// dim 1, in bytes), adding into the output.
func sumBlock[T float32 | float64](o, in unsafe.Pointer, st [4]int, size0, size1 int, nan bool) {
	in0, in1, out0, out1 := st[1], st[3], st[0], st[2]
	if out0 != 0 && out1 == 0 { // the reduced dim first
		in0, in1, out0, out1 = in1, in0, out1, out0
		size0, size1 = size1, size0
	}
	if out0 != 0 && out1 != 0 { // nothing reduced: out + in
		for j := range size1 {
			for i := range size0 {
				q := (*T)(unsafe.Add(o, i*out0+j*out1))
				*q += load[T](unsafe.Add(in, i*in0+j*in1), nan)
			}
		}
		return
	}
	var z T
	es := int(unsafe.Sizeof(z))
	lanes := vecLanes[T]()
	var sums [4 * 8]T // one vector of partial sums per column of a group
	put := func(j, n int) {
		for c := range n {
			*(*T)(unsafe.Add(o, (j+c)*out1)) += sums[c]
		}
	}
	switch {
	case in0 == es && size0 >= lanes: // vectorized_inner_sum
		vecs := size0 / lanes
		for j := range size1 {
			row := unsafe.Add(in, j*in1)
			rowSum(sums[:lanes], row, 0, lanes*es, es, vecs, nan)
			var acc T
			for k := vecs * lanes; k < size0; k++ {
				acc += load[T](unsafe.Add(row, k*es), nan)
			}
			for _, x := range sums[:lanes] {
				acc += x
			}
			*(*T)(unsafe.Add(o, j*out1)) += acc
		}
	case in1 == es && size1 >= lanes: // vectorized_outer_sum
		j := 0
		for ; j+4*lanes <= size1; j += 4 * lanes {
			levelSum(sums[:4*lanes], in, j*es, in0, es, size0, nan)
			put(j, 4*lanes)
		}
		for ; j+lanes <= size1; j += lanes {
			rowSum(sums[:lanes], in, j*es, in0, es, size0, nan)
			put(j, lanes)
		}
		for ; j < size1; j++ {
			rowSum(sums[:1], in, j*es, in0, es, size0, nan)
			put(j, 1)
		}
	case in0 < in1: // scalar_inner_sum
		for j := range size1 {
			rowSum(sums[:1], in, j*in1, in0, es, size0, nan)
			put(j, 1)
		}
	default: // scalar_outer_sum
		j := 0
		for ; j+3 < size1; j += 4 {
			levelSum(sums[:4], in, j*in1, in0, in1, size0, nan)
			put(j, 4)
		}
		for ; j < size1; j++ {
			rowSum(sums[:1], in, j*in1, in0, es, size0, nan)
			put(j, 1)
		}
	}
}

// load reads the element at p, a NaN as 0 for nansum.
func load[T float32 | float64](p unsafe.Pointer, nan bool) T {
	x := *(*T)(p)
	if nan && x != x {
		return 0
	}
	return x
}

// rowSum is PyTorch's row_sum over len(sums) columns side by side (the
// lanes of a vector; col bytes apart), each of size elements stride bytes
// apart from byte off of base: four interleaved levelSums (elements
// 4i+k), the rest added to the first, then the four added in order.
// Addresses are formed only for the elements read: an offset past the
// last one is no pointer.
func rowSum[T float32 | float64](sums []T, base unsafe.Pointer, off, stride, col, size int, nan bool) {
	n := size / 4
	var part [4][8]T
	w := len(sums)
	for k := range part {
		levelSum(part[k][:w], base, off+k*stride, 4*stride, col, n, nan)
	}
	for i := 4 * n; i < size; i++ {
		at := off + i*stride
		for c := range w {
			part[0][c] += load[T](unsafe.Add(base, at+c*col), nan)
		}
	}
	for c := range w {
		sums[c] = part[0][c] + part[1][c] + part[2][c] + part[3][c]
	}
}

// levelSum is PyTorch's multi_row_sum over len(sums) columns side by side
// (col bytes apart; one, or a multiple of four), each of size elements
// stride bytes apart from byte off of base. Addresses are formed only for
// the elements read: an offset past the last one is no pointer.
func levelSum[T float32 | float64](sums []T, base unsafe.Pointer, off, stride, col, size int, nan bool) {
	if len(sums) == 1 {
		sums[0] = levelSum1[T](base, off, stride, size, nan)
		return
	}
	for g := 0; g < len(sums); g += 4 {
		levelSum4((*[4]T)(sums[g:g+4]), base, off+g*col, stride, col, size, nan)
	}
}

// levelShape returns multi_row_sum's levels for size elements: a block
// of 2^power elements is added into the first of four levels, and level
// j into level j+1 when the count is a multiple of 2^(power·(j+1)).
func levelShape(size int) (power, step, mask int) {
	power = max(4, ceilLog2(size)/4)
	step = 1 << power
	return power, step, step - 1
}

// levelSum1 is multi_row_sum for one column, its levels in registers.
func levelSum1[T float32 | float64](base unsafe.Pointer, off, stride, size int, nan bool) T {
	power, step, mask := levelShape(size)
	var l0, l1, l2, l3 T
	i := 0
	for i+step <= size {
		for range step {
			l0 += load[T](unsafe.Add(base, off+i*stride), nan)
			i++
		}
		l1 += l0
		l0 = 0
		if i&(mask<<power) == 0 {
			l2 += l1
			l1 = 0
			if i&(mask<<(2*power)) == 0 {
				l3 += l2
				l2 = 0
			}
		}
	}
	for ; i < size; i++ {
		l0 += load[T](unsafe.Add(base, off+i*stride), nan)
	}
	return l0 + l1 + l2 + l3
}

// levelSum4 is multi_row_sum for four columns col bytes apart, the first
// level in registers.
func levelSum4[T float32 | float64](sums *[4]T, base unsafe.Pointer, off, stride, col, size int, nan bool) {
	power, step, mask := levelShape(size)
	var a0, a1, a2, a3 T
	var up [3][4]T // levels 1 to 3
	i := 0
	for i+step <= size {
		for range step {
			at := off + i*stride
			a0 += load[T](unsafe.Add(base, at), nan)
			a1 += load[T](unsafe.Add(base, at+col), nan)
			a2 += load[T](unsafe.Add(base, at+2*col), nan)
			a3 += load[T](unsafe.Add(base, at+3*col), nan)
			i++
		}
		up[0][0] += a0
		up[0][1] += a1
		up[0][2] += a2
		up[0][3] += a3
		a0, a1, a2, a3 = 0, 0, 0, 0
		for j := 1; j < 3 && i&(mask<<(j*power)) == 0; j++ {
			for c := range 4 {
				up[j][c] += up[j-1][c]
				up[j-1][c] = 0
			}
		}
	}
	for ; i < size; i++ {
		at := off + i*stride
		a0 += load[T](unsafe.Add(base, at), nan)
		a1 += load[T](unsafe.Add(base, at+col), nan)
		a2 += load[T](unsafe.Add(base, at+2*col), nan)
		a3 += load[T](unsafe.Add(base, at+3*col), nan)
	}
	sums[0] = a0 + up[0][0] + up[1][0] + up[2][0]
	sums[1] = a1 + up[0][1] + up[1][1] + up[2][1]
	sums[2] = a2 + up[0][2] + up[1][2] + up[2][2]
	sums[3] = a3 + up[0][3] + up[1][3] + up[2][3]
}

// ceilLog2 is PyTorch's CeilLog2: 1 up to 2, else the bits of x-1.
func ceilLog2(x int) int {
	if x <= 2 {
		return 1
	}
	return mathbits.Len64(uint64(x - 1))
}
