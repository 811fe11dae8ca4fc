package cpu

import (
	"math"
	mathbits "math/bits"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// redFuncs is one reduction for one loop type, as the generic reduce kernel
// takes it (generated from the op's optable.Fold by internal/gen): the size of its
// state, the dtype of its results, and its row functions. States live in
// 8-byte aligned scratch buffers of the kernel.
type redFuncs struct {
	size    int         // bytes of one state
	out     dtype.DType // dtype project writes (indices are int64)
	index   bool        // project also writes int64 indices
	cascade bool        // fold blocks of rows and combine them pairwise (Note [Cascade sums])
	// init sets n states to the value over no elements.
	init func(st unsafe.Pointer, n int)
	// row folds the n elements in[k·is], with indices idx+k, into one state.
	row func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)
	// cols folds element in[k·is], with index idx, into state k, k < n.
	// The n states have all seen the same number of elements.
	cols func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)
	// cols8, when set, folds eight contiguous rows at once into a block
	// of n partial sums (blk, 4 bytes each): sets the block to them (set)
	// or adds them to it, then, if flush, folds the block into the n
	// states (an outer reduction without conversion; ops without indices;
	// Note [Outer streams]).
	cols8 func(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool)
	// cols8BF16 and cols8F16, when set, are cols8 for rows of bfloat16 or
	// float16 elements, converted to float32 as they are read (a float32
	// loop whose input has that dtype), the same bits as cols8 of the
	// converted rows.
	cols8BF16, cols8F16 func(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool)
	// rows, when set, folds m rows of n contiguous elements, rs bytes
	// apart, into m consecutive states, in one call (an inner reduction
	// without conversion; Note [Rows in one call]); a cascading op's
	// rows function folds each row as foldRange's cascade would.
	rows func(st, in unsafe.Pointer, rs, n, m int)
	// rowFour, rowsFour, rowBF16Four, rowF16Four, rowsBF16Four and
	// rowsF16Four, when set, are row, rows, rowBF16, rowF16, rowsBF16 and
	// rowsF16 reading four streams at once, the same bits, for inputs of
	// at least fourStreamsBytes (Note [Four streams] in internal/vec).
	rowFour, rowBF16Four, rowF16Four    func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)
	rowsFour, rowsBF16Four, rowsF16Four func(st, in unsafe.Pointer, rs, n, m int)
	// rowBF16 and rowF16, when set, are row for rows of bfloat16 or
	// float16 elements, read without a conversion buffer (a float32 loop
	// whose input has that dtype and converts to float32 directly).
	rowBF16, rowF16 func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)
	// rowsBF16 and rowsF16, when set, are rows for rows of bfloat16 or
	// float16 elements, read as rowBF16 and rowF16 read them.
	rowsBF16, rowsF16 func(st, in unsafe.Pointer, rs, n, m int)
	// cols8Run, when set, is the fold8 of a run of rows rows of n
	// contiguous elements, rs bytes apart, in one call: the same passes
	// of cols8 and the same rows after them (an outer reduction without
	// conversion over one reduced dim; Note [Rows in registers]).
	cols8Run func(st, blk, in unsafe.Pointer, rs, n, rows int)
	// colsRows, when set, folds rows rows of n contiguous elements, rs
	// bytes apart, the first with index i0, into the n states in one
	// call, as rows calls of cols would (an outer reduction without
	// conversion; Note [Rows in registers]).
	colsRows func(st, in unsafe.Pointer, rs, n, rows, i0 int)
	// combine folds state k of src, which saw later elements, into state k of dst.
	combine func(dst, src unsafe.Pointer, n int, c *elem.Ctx)
	// project writes the n results (and indices) of n states, contiguous.
	project func(dst, dsti, st unsafe.Pointer, n int, c *elem.Ctx)
}

// redTable is the dispatch table of Reduce [op code][loop dtype], filled
// by zz_fold.go; a zero redFuncs where an op has no fold for a dtype.
var redTable = make([][dtype.Count]redFuncs, optable.NumCodes())

// The type sets of the hand-written loops (elem's, by shorter names).
type (
	ordered = elem.Ordered
	float   = elem.Float
)

// rowWelford folds a row in with two passes (its mean, then the squared
// deviations from it) and merges the row's statistics into the state: more
// accurate than Welford's update and without a division per element. Both
// passes add in float64, over a contiguous row in vec's SIMD folds (the
// row is in a cache for the second).
func rowWelford[T float](st, in unsafe.Pointer, is, n, idx int, _ *elem.Ctx) {
	if n == 0 {
		return
	}
	if size := unsafe.Sizeof(T(0)); is == int(size) {
		if size == 4 {
			x := unsafe.Slice((*float32)(in), n)
			mean := vec.SumF32InF64(x) / float64(n)
			welfordMerge[T](st, in, is, n, mean, vec.SumSqDevF32InF64(x, mean))
			return
		}
		x := unsafe.Slice((*float64)(in), n)
		mean := vec.SumF64(x) / float64(n)
		welfordMerge[T](st, in, is, n, mean, vec.SumSqDevF64(x, mean))
		return
	}
	var sum, m2 float64
	for k := 0; k < n; k++ {
		sum += float64(*(*T)(unsafe.Add(in, k*is)))
	}
	mean := sum / float64(n)
	for k := 0; k < n; k++ {
		d := float64(*(*T)(unsafe.Add(in, k*is))) - mean
		m2 += d * d
	}
	welfordMerge[T](st, in, is, n, mean, m2)
}

// welfordMerge ends rowWelford once the row's two passes have given its
// mean and m2: a row of equal values as Welford's update sees it
// (equalRow), then the row's statistics merged into the state.
func welfordMerge[T float](st, in unsafe.Pointer, is, n int, mean, m2 float64) {
	mean, m2 = equalRow[T](in, is, n, mean, m2)
	(*elem.Welford)(st).Merge(elem.Welford{N: float64(n), Mean: mean, M2: m2})
}

// rowsWelfordF32Four is the rows function of Var and Std over contiguous
// float32 rows of large inputs: each row folded as the reducer's cascade
// folds it with rowWelford (blocks of innerBlock elements, combined
// pairwise; the rows left over, m mod 4, with rowWelford itself), the
// same bits, with the first pass over the blocks of rows
// j, j+q, j+2q and j+3q (q = m/4) read together as four streams
// (vec.SumF32InF64Rows4, Note [Four streams] in internal/vec), and the
// second over the four blocks again, from the L1 cache, together too
// (vec.SumSqDevF32InF64Rows4: more chains of adds than one row has).
func rowsWelfordF32Four(st, in unsafe.Pointer, rs, n, m int) {
	states := unsafe.Slice((*elem.Welford)(st), m)
	stride := rs / 4
	x := unsafe.Slice((*float32)(in), (m-1)*stride+n)
	q := m / 4
	var c [4]welfordCascade
	for j := range q {
		for b := 0; b < n; b += innerBlock {
			nb := min(innerBlock, n-b)
			var means, m2 [4]float64
			vec.SumF32InF64Rows4(&means, x[j*stride+b:], q*stride, nb)
			for k := range means {
				means[k] /= float64(nb)
			}
			vec.SumSqDevF32InF64Rows4(&m2, x[j*stride+b:], q*stride, nb, &means)
			for k := range c {
				var blk elem.Welford
				welfordMerge[float32](unsafe.Pointer(&blk), unsafe.Pointer(&x[(j+k*q)*stride+b]), 4, nb, means[k], m2[k])
				c[k].push(blk)
			}
		}
		for k := range c {
			c[k].final(&states[j+k*q])
		}
	}
	for r := 4 * q; r < m; r++ {
		for b := 0; b < n; b += innerBlock {
			var blk elem.Welford
			rowWelford[float32](unsafe.Pointer(&blk), unsafe.Pointer(&x[r*stride+b]), 4, min(innerBlock, n-b), 0, nil)
			c[0].push(blk)
		}
		c[0].final(&states[r])
	}
}

// welfordCascade is the reducer's cascade on one Welford state: the same
// combines in the same order (level k holds the merge of 2^k blocks).
type welfordCascade struct {
	lev  [48]elem.Welford // 2^48 blocks
	used uint64
}

// push adds the next block, as cascade.add does.
func (c *welfordCascade) push(b elem.Welford) {
	k := 0
	for ; c.used&(1<<k) != 0; k++ {
		c.lev[k].Merge(b)
		b = c.lev[k]
		c.used &^= 1 << k
	}
	c.lev[k] = b
	c.used |= 1 << k
}

// final merges every level, oldest first, into dst, as cascade.final does,
// and empties the cascade.
func (c *welfordCascade) final(dst *elem.Welford) {
	for k := mathbits.Len64(c.used) - 1; k >= 0; k-- {
		if c.used&(1<<k) != 0 {
			dst.Merge(c.lev[k])
		}
	}
	c.used = 0
}

// equalRow returns the two passes' mean and m2 of a row of n elements,
// or, for a row of equal values, that value and 0, as Welford's update
// gives them: the float64 sum of n equal values is not always n times the
// value (of 0.001, for most n), and the variance of such a row came out a
// few ulps of the value squared (its std a few ulps of the value), where
// PyTorch's is 0. Every deviation of an equal row is x[0] − mean, so m2 is
// n of its squares; only a row that passes that test is read again, up to
// its first element unlike x[0].
func equalRow[T float](in unsafe.Pointer, is, n int, mean, m2 float64) (float64, float64) {
	x0 := *(*T)(in)
	d := float64(x0) - mean
	if !(m2 > 0 && m2 <= float64(n)*d*d*(1+1e-9)) { // NaN too: a row of infinities stays NaN, as in PyTorch
		return mean, m2
	}
	for k := 1; k < n; k++ {
		if *(*T)(unsafe.Add(in, k*is)) != x0 {
			return mean, m2
		}
	}
	return float64(x0), 0
}

// colsWelford is Welford's update across outputs; the states have all seen
// the same count, so the division is one per row.
func colsWelford[T float](st, in unsafe.Pointer, is, n, idx int, _ *elem.Ctx) {
	if n == 0 {
		return
	}
	ss := unsafe.Slice((*elem.Welford)(st), n)
	cnt := ss[0].N + 1
	inv := 1 / cnt
	for k := range ss {
		x := float64(*(*T)(unsafe.Add(in, k*is)))
		s := &ss[k]
		d := x - s.Mean
		s.Mean += d * inv
		s.M2 += d * (x - s.Mean)
		s.N = cnt
	}
}

// Note [SIMD rows]
// The float32/float64 sums, max and min of contiguous rows, the float32
// product of contiguous rows (vec.ProdF32, 16 lanes), and the
// outer-reduction sums across outputs, call internal/vec's primitives;
// strided rows fall back to the generated loops. Max/Min with an index
// take a row in blocks of argBlock elements: the extreme value of a block
// with MaxF32/MinF32 and, where it beats the state, its first position
// with IndexF32, a second pass over a block still in the L1 cache; so
// memory is read once. They read one row at a time, one stream, where
// Amax reads four rows at once (Note [Four streams] in internal/vec):
// with four, a row is searched after the other three have pushed it out
// of the L1 cache. Measured on the 2-core Zen 5 VM, [4096, 4096] float32
// over dim 1 in groups of 64 rows on two goroutines, variants alternated
// 200 times in one process (ms at p50, two runs): a row at a time
// 1.08-1.11; four consecutive rows 1.48; four rows spread over the group
// 1.30; the spread rows in blocks of 1024 or 2048 elements, each searched
// after its max, 0.95-1.15; four rows' maxima with no search at all
// 0.88-1.03, the most a one-pass four-stream kernel could reach. Such a
// kernel (AVX-512: each lane's extreme and the index of its first
// occurrence, a masked compare and two masked moves a vector) came to
// 0.95-0.99 beside 0.99-1.05 a row at a time, with 16 elements of each
// row a step; with 32 a step (two chains a row), or in turns of 256 a
// row, it was slower than a row at a time (1.08-1.18 beside 1.00-1.09).
// So little was not worth a kernel, and it was not kept.

// vecMax returns the max (or min) of the non-NaN elements of a float32 or
// float64 row and whether some element is NaN (vec.MaxF32, ...).
func vecMax[T float](x []T, isMax bool) (T, bool) {
	p := unsafe.Pointer(unsafe.SliceData(x))
	if unsafe.Sizeof(T(0)) == 4 {
		xs := unsafe.Slice((*float32)(p), len(x))
		var m float32
		var nan bool
		if isMax {
			m, nan = vec.MaxF32(xs)
		} else {
			m, nan = vec.MinF32(xs)
		}
		return T(m), nan
	}
	xs := unsafe.Slice((*float64)(p), len(x))
	var m float64
	var nan bool
	if isMax {
		m, nan = vec.MaxF64(xs)
	} else {
		m, nan = vec.MinF64(xs)
	}
	return T(m), nan
}

// The row functions of the float32 sum and 2-norm, and of the sums of
// bfloat16 and float16 rows: a contiguous row added to a float64 state
// (vec.SumF32F64, vec.SumSqF32F64, vec.SumBF16F64, vec.SumF16F64;
// strided float32 rows take the generated loop); the ...Four forms read
// a long row's quarters together (Note [Four streams] in internal/vec),
// the same bits.
var (
	rowSumF32, rowSumF32Four         = rowF32F64(vec.SumF32F64, rowSum1[float32])
	rowNormTwoF32, rowNormTwoF32Four = rowF32F64(vec.SumSqF32F64, rowNormTwo0[float32])
	rowSumBF16, rowSumBF16Four       = row16F64(vec.SumBF16F64)
	rowSumF16, rowSumF16Four         = row16F64(vec.SumF16F64)
)

// rowFunc is redFuncs.row's type.
type rowFunc = func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)

// rowF32F64 returns the row functions (one stream, four) of sum over
// contiguous float32 rows, strided rows going to strided.
func rowF32F64(sum func([]float32, bool) float64, strided rowFunc) (one, four rowFunc) {
	with := func(four bool) rowFunc {
		return func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
			if is != 4 {
				strided(st, in, is, n, idx, c)
				return
			}
			*(*float64)(st) += sum(unsafe.Slice((*float32)(in), n), four)
		}
	}
	return with(false), with(true)
}

// row16F64 returns the row functions (one stream, four) of sum over
// contiguous rows of 16-bit floats; Reduce calls them on contiguous rows
// only.
func row16F64(sum func([]uint16, bool) float64) (one, four rowFunc) {
	with := func(four bool) rowFunc {
		return func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
			*(*float64)(st) += sum(unsafe.Slice((*uint16)(in), n), four)
		}
	}
	return with(false), with(true)
}

// The rows functions of the float32 sum, 2-norm, product, Amax and Amin,
// and of the sums of bfloat16 and float16 rows: m rows of n contiguous
// elements, rs bytes apart, folded into m consecutive states, each as the
// op's row function would; the ...Four forms read four rows at a time
// (Note [Four streams] in internal/vec), the same bits.
var (
	rowsSumF32, rowsSumF32Four         = rowsOf(vec.SumRowsF32F64)
	rowsNormTwoF32, rowsNormTwoF32Four = rowsOf(vec.SumSqRowsF32F64)
	rowsProdF32, rowsProdF32Four       = rowsOf(vec.ProdRowsF32)
	rowsSumBF16, rowsSumBF16Four       = rowsOf(vec.SumRowsBF16F64)
	rowsSumF16, rowsSumF16Four         = rowsOf(vec.SumRowsF16F64)
	rowsAmaxF32, rowsAmaxF32Four       = rowsExtremeF32(true)
	rowsAminF32, rowsAminF32Four       = rowsExtremeF32(false)
)

// rowsFunc is redFuncs.rows' type.
type rowsFunc = func(st, in unsafe.Pointer, rs, n, m int)

// rowsOf adapts a vec row loop over rows of E into states of type S to
// redFuncs.rows: the rows read one after another, and four at a time.
func rowsOf[S float32 | float64, E float32 | uint16](f func(dst []S, x []E, rowLen, stride int, four bool)) (one, four rowsFunc) {
	with := func(four bool) rowsFunc {
		return func(st, in unsafe.Pointer, rs, n, m int) {
			stride := rs / int(unsafe.Sizeof(E(0)))
			f(unsafe.Slice((*S)(st), m), unsafe.Slice((*E)(in), (m-1)*stride+n), n, stride, four)
		}
	}
	return with(false), with(true)
}

// rowsExtremeF32 returns the rows functions of float32 Amax (isMax) or
// Amin (one stream, four): the extremes of m rows (vec.MaxRowsF32 or
// MinRowsF32), each folded into its state as rowAmax folds a row's
// (a group of rows on the stack, a run of groups in pooled states).
func rowsExtremeF32(isMax bool) (one, four rowsFunc) {
	with := func(four bool) rowsFunc {
		return func(st, in unsafe.Pointer, rs, n, m int) {
			var group [innerGroup]float32
			buf := group[:]
			if m > len(group) {
				b := getStates((m + 1) / 2)
				defer statesPool.Put(b)
				buf = unsafe.Slice((*float32)(ptr(*b)), m)
			}
			stride := rs / 4
			extremeRows(buf[:m], unsafe.Slice((*float32)(in), (m-1)*stride+n), n, stride, four, isMax)
			for r, s := range unsafe.Slice((*float32)(st), m) {
				if v := buf[r]; isMax && v > s || !isMax && v < s || v != v {
					*(*float32)(unsafe.Add(st, 4*r)) = v
				}
			}
		}
	}
	return with(false), with(true)
}

// extremeRows is vec.MaxRowsF32 (isMax) or vec.MinRowsF32, called
// directly so that dst may live on the caller's stack.
func extremeRows(dst, x []float32, rowLen, stride int, four, isMax bool) {
	if isMax {
		vec.MaxRowsF32(dst, x, rowLen, stride, four)
	} else {
		vec.MinRowsF32(dst, x, rowLen, stride, four)
	}
}

// projectSumF32 writes the float32 results of n float64 sums a vector at
// a time (vec.F64ToF32), where the generated project converted one at a
// time: a sixth of [2^22, 4].sum(1). The same roundings.
func projectSumF32(dst, _, st unsafe.Pointer, n int, _ *elem.Ctx) {
	vec.F64ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*float64)(st), n))
}

// projectMeanF32 and projectMeanF64 write Mean's float32 and float64
// results: the float64 sums divided by the count a vector at a time
// (vec.DivScalarF64; then vec.F64ToF32 rounds them to float32), the bits
// of the generated project, which divided one sum at a time: a quarter of
// [2^20, 16].mean(1)'s time, a division's latency per row. A reduced
// float type's sums are rounded to it before the division (elem.Ctx.Mean),
// which the generated project does.
func projectMeanF32(dst, dsti, st unsafe.Pointer, n int, c *elem.Ctx) {
	if c.RoundTo.IsReduced() {
		projectMean0[float32](dst, dsti, st, n, c)
		return
	}
	ss, r := unsafe.Slice((*float64)(st), n), unsafe.Slice((*float32)(dst), n)
	var q [innerGroup]float64
	for off := 0; off < n; off += len(q) {
		m := min(len(q), n-off)
		vec.DivScalarF64(q[:m], ss[off:off+m], float64(c.N))
		vec.F64ToF32(r[off:off+m], q[:m])
	}
}

func projectMeanF64(dst, dsti, st unsafe.Pointer, n int, c *elem.Ctx) {
	if c.RoundTo.IsReduced() {
		projectMean1[float64](dst, dsti, st, n, c)
		return
	}
	vec.DivScalarF64(unsafe.Slice((*float64)(dst), n), unsafe.Slice((*float64)(st), n), float64(c.N))
}

// colsProdF32 multiplies a row of n float32 elements into n Prod states:
// contiguous rows with vec.MulF32 (each product rounded as the generated
// loop's), strided ones with the generated loop.
func colsProdF32(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != 4 {
		colsProd0[float32](st, in, is, n, idx, c)
		return
	}
	s := unsafe.Slice((*float32)(st), n)
	vec.MulF32(s, s, unsafe.Slice((*float32)(in), n))
}

// colsRowsProdF32 multiplies rows rows of n contiguous float32 elements,
// rs bytes apart, into n Prod states (vec.MulAccRowsF32: the bits of rows
// calls of colsProdF32).
func colsRowsProdF32(st, in unsafe.Pointer, rs, n, rows, _ int) {
	colsRowsF32(st, in, rs, n, rows, vec.MulAccRowsF32, colsProdF32)
}

// rowProdF32 multiplies a contiguous float32 row into Prod's state in 16
// lanes (vec.ProdF32); strided rows take the generated loop.
func rowProdF32(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != 4 {
		rowProd0[float32](st, in, is, n, idx, c)
		return
	}
	*(*float32)(st) *= vec.ProdF32(unsafe.Slice((*float32)(in), n))
}

func rowSumF64(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != 8 {
		rowSum2[float64](st, in, is, n, idx, c)
		return
	}
	*(*float64)(st) += vec.SumF64(unsafe.Slice((*float64)(in), n))
}

func colsSumF32(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != 4 {
		colsSum1[float32](st, in, is, n, idx, c)
		return
	}
	vec.AccF32F64(unsafe.Slice((*float64)(st), n), unsafe.Slice((*float32)(in), n))
}

// cols8SumF32 adds eight float32 rows pairwise in float32 into a float32
// block, and the block into the float64 states when flush (Note [Cascade
// sums]).
func cols8SumF32(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool) {
	cols8Sum(st, blk, in, n, set, flush, vec.SumRows8F32, vec.AccRows8F32)
}

// cols8RunSumF32 is cols8SumF32's fold8 over a run of rows, rs bytes
// apart, in one call (vec.SumRows8RunF32), and the rows after its 8q
// passes one by one, as colsSumF32 adds them.
func cols8RunSumF32(st, blk, in unsafe.Pointer, rs, n, rows int) {
	q := rows / 8
	s := unsafe.Slice((*float64)(st), n)
	if q > 0 {
		vec.SumRows8RunF32(s, unsafe.Slice((*float32)(blk), n), unsafe.Slice((*float32)(in), (8*q-1)*(rs/4)+n), rs/4, q)
	}
	for r := 8 * q; r < rows; r++ {
		vec.AccF32F64(s, unsafe.Slice((*float32)(unsafe.Add(in, r*rs)), n))
	}
}

// cols8SumBF16 is cols8SumF32 of bfloat16 rows, converted as they are read.
func cols8SumBF16(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool) {
	cols8Sum(st, blk, in, n, set, flush, vec.SumRows8BF16, vec.AccRows8BF16)
}

// cols8SumF16 is cols8SumF32 of float16 rows, converted as they are read.
func cols8SumF16(st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool) {
	cols8Sum(st, blk, in, n, set, flush, vec.SumRows8F16, vec.AccRows8F16)
}

// cols8Sum is the cols8 of a sum whose rows have elements E: sum sets the
// float32 block to the eight rows added pairwise, acc adds them to it.
func cols8Sum[E float32 | uint16](st, blk unsafe.Pointer, in *[8]unsafe.Pointer, n int, set, flush bool,
	sum, acc func(dst []float32, x0, x1, x2, x3, x4, x5, x6, x7 []E)) {
	x := func(k int) []E { return unsafe.Slice((*E)(in[k]), n) }
	b := unsafe.Slice((*float32)(blk), n)
	rows8 := acc
	if set {
		rows8 = sum
	}
	rows8(b, x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
	if flush {
		vec.AccF32F64(unsafe.Slice((*float64)(st), n), b)
	}
}

func colsSumF64(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != 8 {
		colsSum2[float64](st, in, is, n, idx, c)
		return
	}
	s := unsafe.Slice((*float64)(st), n)
	vec.AddF64(s, s, unsafe.Slice((*float64)(in), n))
}

func combineSumF64(dst, src unsafe.Pointer, n int, _ *elem.Ctx) {
	d := unsafe.Slice((*float64)(dst), n)
	vec.AddF64(d, d, unsafe.Slice((*float64)(src), n))
}

// rowAmax folds a row into Amax's state (NaN propagates).
func rowAmax[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowAmax2[T](st, in, is, n, idx, c)
		return
	}
	m, nan := vecMax(unsafe.Slice((*T)(in), n), true)
	s := (*T)(st)
	if nan {
		m = T(math.NaN())
	}
	if m > *s || m != m {
		*s = m
	}
}

// colsAmax folds a row of n elements into n Amax states (NaN
// propagates); contiguous float32 rows with vec.MaxAccF32.
func colsAmax[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if unsafe.Sizeof(T(0)) != 4 || is != 4 {
		colsAmax2[T](st, in, is, n, idx, c)
		return
	}
	vec.MaxAccF32(unsafe.Slice((*float32)(st), n), unsafe.Slice((*float32)(in), n))
}

// colsRowsAmaxF32 folds rows rows of n contiguous float32 elements, rs
// bytes apart, into n Amax states (vec.MaxAccRowsF32: the bits of rows
// calls of colsAmax).
func colsRowsAmaxF32(st, in unsafe.Pointer, rs, n, rows, _ int) {
	colsRowsF32(st, in, rs, n, rows, vec.MaxAccRowsF32, colsAmax[float32])
}

// colsRowsAminF32 is colsRowsAmaxF32 for Amin (vec.MinAccRowsF32).
func colsRowsAminF32(st, in unsafe.Pointer, rs, n, rows, _ int) {
	colsRowsF32(st, in, rs, n, rows, vec.MinAccRowsF32, colsAmin[float32])
}

// colsRowsArgMaxF32 folds rows rows of n contiguous float32 elements, rs
// bytes apart, the first with index i0, into n ArgMax (and Max) states
// (vec.ArgMaxAccRowsF32: the bits of rows calls of the generated cols).
func colsRowsArgMaxF32(st, in unsafe.Pointer, rs, n, rows, i0 int) {
	colsRowsArg(st, in, rs, n, rows, i0, vec.ArgMaxAccRowsF32, colsArgMax2[float32])
}

// colsRowsArgMinF32 is colsRowsArgMaxF32 for ArgMin and Min
// (vec.ArgMinAccRowsF32).
func colsRowsArgMinF32(st, in unsafe.Pointer, rs, n, rows, i0 int) {
	colsRowsArg(st, in, rs, n, rows, i0, vec.ArgMinAccRowsF32, colsArgMin2[float32])
}

// argRowsBlock is how many columns of states colsRowsArg moves into
// separate values and indices for one call of the vec function.
const argRowsBlock = 128

// colsRowsArg runs accRows on rows rs bytes apart, a block of columns at
// a time, its states' values and indices copied out of the interleaved
// elem.Arg states and back; or cols on each row where the rows are not
// f32RowsApart.
func colsRowsArg(st, in unsafe.Pointer, rs, n, rows, i0 int, accRows func(v []float32, ix []int64, x []float32, stride, rows, i0 int),
	cols func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)) {
	if !f32RowsApart(rs, n) {
		eachColsRow(st, in, rs, n, rows, i0, cols)
		return
	}
	s := unsafe.Slice((*elem.Arg[float32])(st), n)
	x := unsafe.Slice((*float32)(in), (rows-1)*(rs/4)+n)
	var v [argRowsBlock]float32
	var ix [argRowsBlock]int64
	for c0 := 0; c0 < n; c0 += argRowsBlock {
		m := min(argRowsBlock, n-c0)
		for k, a := range s[c0 : c0+m] {
			v[k], ix[k] = a.V, a.I
		}
		accRows(v[:m], ix[:m], x[c0:], rs/4, rows, i0)
		for k := range s[c0 : c0+m] {
			s[c0+k] = elem.Arg[float32]{V: v[k], I: ix[k]}
		}
	}
}

// colsRowsF32 runs accRows on rows rs bytes apart, or cols on each row
// where the rows are not f32RowsApart.
func colsRowsF32(st, in unsafe.Pointer, rs, n, rows int, accRows func(dst, x []float32, stride, rows int),
	cols func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)) {
	if !f32RowsApart(rs, n) {
		eachColsRow(st, in, rs, n, rows, 0, cols)
		return
	}
	accRows(unsafe.Slice((*float32)(st), n), unsafe.Slice((*float32)(in), (rows-1)*(rs/4)+n), rs/4, rows)
}

// f32RowsApart reports whether rows of n float32 elements rs bytes apart
// are a whole number of elements apart, forward and without overlap: what
// the vec row kernels take.
func f32RowsApart(rs, n int) bool { return n > 0 && rs%4 == 0 && rs >= 4*n }

// eachColsRow runs cols on each of rows contiguous rows of n float32
// elements rs bytes apart, row r with index i0+r.
func eachColsRow(st, in unsafe.Pointer, rs, n, rows, i0 int, cols func(st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx)) {
	for r := 0; r < rows; r++ {
		cols(st, unsafe.Add(in, r*rs), 4, n, i0+r, nil)
	}
}

// colsAmin folds a row of n elements into n Amin states (vec.MinAccF32).
func colsAmin[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if unsafe.Sizeof(T(0)) != 4 || is != 4 {
		colsAmin2[T](st, in, is, n, idx, c)
		return
	}
	vec.MinAccF32(unsafe.Slice((*float32)(st), n), unsafe.Slice((*float32)(in), n))
}

// rowAmin folds a row into Amin's state (NaN propagates).
func rowAmin[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowAmin2[T](st, in, is, n, idx, c)
		return
	}
	m, nan := vecMax(unsafe.Slice((*T)(in), n), false)
	s := (*T)(st)
	if nan {
		m = T(math.NaN())
	}
	if m < *s || m != m {
		*s = m
	}
}

// The rows functions of float32 ArgMax and Max with indices (rowsArgMaxF32),
// ArgMin and Min (rowsArgMinF32): each row's index from vec.ArgRowsF32
// (Note [Short arg rows] there), its element folded into the row's state
// as rowArg folds a row's extreme; rows longer than argRowsMaxLen take
// rowArg.
var rowsArgMaxF32, rowsArgMinF32 = rowsArgF32(true), rowsArgF32(false)

// argRowsMaxLen is the longest row rowsArgF32 gives vec.ArgRowsF32, whose
// one accumulator lost to MaxF32's several on longer rows: the argmax of
// 64 MiB of float32 over dim 1, alternated 15 times in one process (ms,
// median of the p50s), rows of 256 and 512 elements even, 1024 1.34
// with rowArg against 1.45, 4096 1.17 against 1.34.
const argRowsMaxLen = 512

func rowsArgF32(isMax bool) rowsFunc {
	return func(st, in unsafe.Pointer, rs, n, m int) {
		size := int(unsafe.Sizeof(elem.Arg[float32]{}))
		if n > argRowsMaxLen || n == 0 {
			for r := 0; r < m; r++ {
				rowArg[float32](unsafe.Add(st, r*size), unsafe.Add(in, r*rs), n, 0, isMax)
			}
			return
		}
		var idx [innerGroup]int32
		stride := rs / 4
		for r0 := 0; r0 < m; r0 += len(idx) {
			k := min(len(idx), m-r0)
			vec.ArgRowsF32(idx[:k], unsafe.Slice((*float32)(unsafe.Add(in, r0*rs)), (k-1)*stride+n), n, stride, isMax)
			for r, j := range idx[:k] {
				s := (*elem.Arg[float32])(unsafe.Add(st, (r0+r)*size))
				v := *(*float32)(unsafe.Add(in, (r0+r)*rs+4*int(j)))
				if s.V == s.V && (v != v || isMax && v > s.V || !isMax && v < s.V) {
					s.V, s.I = v, int64(j)
				}
			}
		}
	}
}

// argBlock is the number of elements Max/Min with an index (and ArgMax,
// ArgMin) take at a time from a contiguous row: the extreme of a block,
// then, only if it beats the state, its first position, found in the
// block while it is still in the L1 cache (Note [SIMD rows]).
const argBlock = 4096

// indexOf returns the index of the first NaN of x if nan, else of the
// first element equal to m (which one of x is).
func indexOf[T float](x []T, m T, nan bool) int {
	if !nan && unsafe.Sizeof(T(0)) == 4 {
		return vec.IndexF32(unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(x))), len(x)), float32(m))
	}
	for j, v := range x {
		if nan && v != v || !nan && v == m {
			return j
		}
	}
	return 0
}

// rowArg folds a row into the state of Max and ArgMax (isMax) or Min and
// ArgMin, block by block.
func rowArg[T float](st, in unsafe.Pointer, n, idx int, isMax bool) {
	x := unsafe.Slice((*T)(in), n)
	s := (*elem.Arg[T])(st)
	for b := 0; b < n && s.V == s.V; b += argBlock {
		blk := x[b:min(n, b+argBlock)]
		m, nan := vecMax(blk, isMax)
		// a NaN beats everything but an earlier NaN, which would have
		// ended the loop
		if nan || isMax && m > s.V || !isMax && m < s.V {
			j := indexOf(blk, m, nan)
			s.V, s.I = blk[j], int64(idx+b+j)
		}
	}
}

// rowArgMax folds a row into the state of Max and ArgMax.
func rowArgMax[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowMax2[T](st, in, is, n, idx, c)
		return
	}
	rowArg[T](st, in, n, idx, true)
}

// rowArgMin folds a row into the state of Min and ArgMin.
func rowArgMin[T float](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowMin2[T](st, in, is, n, idx, c)
		return
	}
	rowArg[T](st, in, n, idx, false)
}
