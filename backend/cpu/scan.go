package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Note [Scans and row ops]
//
// Scan walks a row plan (Note [Row plans] in package kernel): every plan
// element starts a row of length L along Args.Dim. Scans (cumsum, ...)
// carry a state along the row, so a row can be processed in chunks: a
// contiguous row of the loop dtype is scanned in place in one call; any
// other row is gathered (and converted) into a buffer bufLen elements at a
// time, scanned, and scattered back. When the plan's fastest dim is
// contiguous for every operand — a scan over an outer dim, like cumsum over
// dim 0 of a matrix — scanWidth neighbouring rows are scanned together, one
// contiguous run of elements at a time: out[t, :] = out[t-1, :] + x[t, :],
// a vectorised row-by-row add at memory speed (PyTorch 1.13 walks each
// column on its own instead).
//
// Row ops (softmax, log_softmax, layer_norm) read their row more than once,
// so a row that is not contiguous in the loop dtype is gathered whole into
// a row buffer first. Each is one pass over memory when the row fits in
// cache: max, then exponentials and their sum, then the scaling.
//
// Workers take ranges of rows; each row is computed by one worker in a
// fixed order, so results are reproducible.

const scanWidth = 2048 // rows scanned together on the outer-dim fast path

// Note [Rows in lockstep]
//
// A scan along contiguous rows is a chain of dependent steps per row
// (cumsum's float64 adds, each waiting for the last), so a row at a time
// runs at the latency of a step, not at the speed of memory. Eight rows
// scanned together, a step of each in turn (scanRows8, their carries in
// eight variables), are eight chains that the core overlaps; each row's
// steps are the same as alone, so the bits do not change.
//
// Rows together meet 4K aliasing: a load whose address matches an earlier
// store's in its low 12 bits waits for that store. Rows a multiple of 4
// KiB apart (of 1024 float32), with y and x alike aligned, put element t
// of every row at the same address modulo 4 KiB, and the eight rows in
// step ran 3-4× slower than a row at a time. So row j runs skew·j elements
// ahead of row 0, skew the least multiple of a cache line that keeps every
// row's loads at least a line away, modulo 4 KiB, from every other row's
// stores (lockstepSkew), its first skew·j elements and its last
// skew·(7−j) alone.
// [4096, 4096] float32 cumsum over dim 1 into a buffer of its own, the
// rows' kernels alternated three times in one process on the 2-core Zen 5
// VM (p10 of 15, skew 16): one goroutine 14.3 → 10.3 ms, two 7.2 → 5.1-5.3
// ms; the steps' instructions (conversions to and from float64, the
// bounds checks), no longer their latency, take the time now.

// minLockstepLen is the shortest row scanned eight rows at a time (Note
// [Rows in lockstep]): below it the calls cost more than the chains.
const minLockstepLen = 64

// lockstepSkew returns the skew, in elements of es bytes, at which
// scanRows8 reads the eight rows at x (xrs bytes apart) while it writes
// those at y (yrs apart) without 4K aliasing (Note [Rows in lockstep]),
// and false if none up to n/28 elements (a quarter of a row alone) is.
func lockstepSkew(y, x unsafe.Pointer, yrs, xrs, es, n int) (int, bool) {
	const line, page = 64, 4096
	for skew := 0; 28*skew <= n; skew += line / es {
		clear := true
		for j := 0; j < 8 && clear; j++ {
			for k := 0; k < 8; k++ {
				d := (uintptr(x) + uintptr(k*(xrs+skew*es)) - uintptr(y) - uintptr(j*(yrs+skew*es))) % page
				if j != k && (d < line || d > page-line) {
					clear = false
					break
				}
			}
		}
		if clear {
			return skew, true
		}
	}
	return 0, false
}

// scanFuncs is one scan for one loop type. The carry is the state passed
// along a row, in an 8-byte aligned buffer.
type scanFuncs struct {
	carry int // bytes of one carry
	init  func(c unsafe.Pointer, n int)
	// row scans n contiguous elements x (indices idx…) into y (and yi),
	// continuing from the carry c.
	row func(y, yi, x unsafe.Pointer, n, idx int, c unsafe.Pointer)
	// cols scans w neighbouring rows together over n steps: element t of
	// row j of x is at x + t·xs + j·es (likewise y, yi), carries c[0:w].
	// Optional.
	cols func(y, yi, x unsafe.Pointer, ys, yis, xs, n, w int, c unsafe.Pointer)
	// rows8 scans eight rows of n contiguous elements from fresh carries,
	// each as row scans it, together, row j skew·j elements ahead (Note
	// [Rows in lockstep]): row j of x at x + j·xrs (likewise y with yrs).
	// Scans without indices.
	rows8 func(y, x unsafe.Pointer, yrs, xrs, n, skew int)
}

// cumSumColsF32 is cumsum's scanCols for float32 on internal/vec: a
// vectorised row-by-row add in float64 (Note [Scans and row ops]), four
// steps at a time where the steps go forward in memory
// (vec.CumAccRows4F32F64: the same bits, the four rows read together).
func cumSumColsF32(y, _, x unsafe.Pointer, ys, _, xs, n, w int, c unsafe.Pointer) {
	acc := unsafe.Slice((*float64)(c), w)
	row := func(p unsafe.Pointer, t, s, k int) []float32 {
		return unsafe.Slice((*float32)(unsafe.Add(p, t*s)), k)
	}
	t := 0
	if xs >= 0 && ys >= 0 {
		for ; t+4 <= n; t += 4 {
			vec.CumAccRows4F32F64(acc, row(x, t, xs, 3*xs/4+w), xs/4, row(y, t, ys, 3*ys/4+w), ys/4)
		}
	}
	for ; t < n; t++ {
		vec.CumAccF32F64(acc, row(x, t, xs, w), row(y, t, ys, w))
	}
}

// scanTable is the dispatch table of the scans [op code][loop dtype],
// filled by zz_fold.go; a zero scanFuncs where an op has none.
var scanTable = make([][dtype.Count]scanFuncs, optable.NumCodes())

// rowFn computes a row op on a contiguous row x of n elements of the loop
// dtype into y; w and b are the LayerNorm weight and bias rows (nil when absent).
type rowFn func(y, x, w, b unsafe.Pointer, n int, args *kernel.Args)

// rowTable is the dispatch table of the row ops [op code][loop dtype].
var rowTable = make([][dtype.Count]rowFn, optable.NumCodes())

func init() {
	rowTable[optable.Softmax.Code] = [dtype.Count]rowFn{dtype.Float32: softmaxRowF32, dtype.Float64: softmaxRow[float64]}
	rowTable[optable.LogSoftmax.Code] = [dtype.Count]rowFn{dtype.Float32: logSoftmaxRowF32, dtype.Float64: logSoftmaxRow[float64]}
	rowTable[optable.LayerNorm.Code] = [dtype.Count]rowFn{dtype.Float32: layerNormRowF32, dtype.Float64: layerNormRow[float64]}
}

// The float32 rows run on internal/vec (Note [SIMD rows]): the max, then
// e^(x-max) and its sum in one pass, then the scaling; layer_norm's mean,
// squared deviations and affine map. Rows with a NaN or an infinite max,
// and layer_norm without weight or bias, take the generic loops.

func softmaxRowF32(y, x, w, b unsafe.Pointer, n int, args *kernel.Args) {
	xs, ys := unsafe.Slice((*float32)(x), n), unsafe.Slice((*float32)(y), n)
	m, nan := vec.MaxF32(xs)
	if nan || math.IsInf(float64(m), 0) {
		softmaxRow[float32](y, x, w, b, n, args)
		return
	}
	s := vec.ExpSubSumF32(ys, xs, m)
	if args != nil && args.SoftmaxDivide {
		vec.DivScalarF32(ys, ys, s)
		return
	}
	vec.MulScalarF32(ys, ys, 1/s)
}

func logSoftmaxRowF32(y, x, w, b unsafe.Pointer, n int, args *kernel.Args) {
	xs, ys := unsafe.Slice((*float32)(x), n), unsafe.Slice((*float32)(y), n)
	m, nan := vec.MaxF32(xs)
	if nan || math.IsInf(float64(m), 0) || y == x {
		logSoftmaxRow[float32](y, x, w, b, n, args)
		return
	}
	s := vec.ExpSubSumF32(ys, xs, m) // ys as scratch
	// (x - max) - log(sum), in that order, as PyTorch: x - (max + log(sum))
	// loses log(sum) when max is large (log_softmax([1e8, 1e8]) = -log 2, not 0).
	vec.AddScalarF32(ys, xs, -m)
	vec.AddScalarF32(ys, ys, -float32(logSum(float64(s), args)))
}

// logSum is log(s) for LogSoftmax, rounded as args asks
// (elem.LogSum).
func logSum(s float64, args *kernel.Args) float64 {
	if args == nil {
		return math.Log(s)
	}
	return elem.LogSum(s, args.LogSumRound)
}

func layerNormRowF32(y, x, w, b unsafe.Pointer, n int, args *kernel.Args) {
	if args.BF16Steps {
		layerNormRowBF16(y, x, w, b, n, args)
		return
	}
	if args.Moment != kernel.MomentNone {
		layerNormRow[float32](y, x, w, b, n, args)
		return
	}
	xs, ys := unsafe.Slice((*float32)(x), n), unsafe.Slice((*float32)(y), n)
	// the sum in float64 lanes (float32 only in pairwise powers of two),
	// so that the mean of n equal values is that value (a float32 sum of
	// three 0.847162 is not three times it) and their variance 0, as
	// PyTorch's Welford moments give: with eps = 0 such a row is 0·Inf,
	// NaN, in PyTorch, not x's rounding error blown up
	mean := float32(vec.SumF32F64(xs, false) / float64(n))
	v := vec.SumSqDevF32(xs, mean) / float32(n)
	rstd := float32(1 / math.Sqrt(float64(v)+args.Eps))
	// without a weight or a bias, the same kernel with ones for the
	// weight and negative zeros for the bias, which change nothing:
	// fma(v, 1, −0) is v, a zero's sign too (+0 would turn −0 into +0)
	for lo := 0; lo < n; lo += len(affineOnes) {
		hi := min(n, lo+len(affineOnes))
		ws, bs := affineOnes[:hi-lo], affineNegZeros[:hi-lo]
		if w != nil {
			ws = unsafe.Slice((*float32)(w), n)[lo:hi]
		}
		if b != nil {
			bs = unsafe.Slice((*float32)(b), n)[lo:hi]
		}
		vec.NormAffineF32(ys[lo:hi], xs[lo:hi], ws, bs, mean, rstd)
	}
}

// affineOnes and affineNegZeros stand in for a missing weight and bias of
// float32 layer_norm, a slice of the row at a time (layerNormRowF32);
// read-only, shared by every worker.
var affineOnes, affineNegZeros = func() (ones, negZeros []float32) {
	ones, negZeros = make([]float32, 4096), make([]float32, 4096)
	for k := range ones {
		ones[k], negZeros[k] = 1, float32(math.Copysign(0, -1))
	}
	return ones, negZeros
}()

// layerNormBF16Vec are the loops of bfloat16 layer_norm on internal/vec:
// the moments' loops over 16 lanes in assembly, the affine map in vec's
// element-wise calls.
var layerNormBF16Vec = &elem.LayerNormBF16Kernels{Chunk: vec.WelfordChunkBF16, Merge: vec.MergeLanesBF16, Affine: affineBF16}

// affineBF16 is elem.AffineBF16 in vec's element-wise calls, one
// rounding each, as its float32 operations.
func affineBF16(y, x, w, b []float32, scale, bias float32) {
	vec.MulScalarF32(y, x, scale)
	vec.AddScalarF32(y, y, bias)
	if w != nil {
		vec.MulF32(y, y, w)
	}
	if b != nil {
		vec.AddF32(y, y, b)
	}
}

// layerNormRowBF16 is layer_norm of a bfloat16 row read as float32: the
// scale and bias of PyTorch's bfloat16 moments, then x·scale + bias, the
// weight and the bias in float32 (Note [Bfloat16 steps] in optable/elem).
func layerNormRowBF16(y, x, w, b unsafe.Pointer, n int, args *kernel.Args) {
	if args.Moment != kernel.MomentNone {
		mean, rstd := elem.LayerNormMomentsBF16(unsafe.Slice((*float32)(x), n), args.Eps, layerNormBF16Vec)
		fillMoment(unsafe.Slice((*float32)(y), n), mean, rstd, args.Moment)
		return
	}
	var ws, bs []float32
	if w != nil {
		ws = unsafe.Slice((*float32)(w), n)
	}
	if b != nil {
		bs = unsafe.Slice((*float32)(b), n)
	}
	elem.LayerNormRowBF16(unsafe.Slice((*float32)(y), n), unsafe.Slice((*float32)(x), n), ws, bs, args.Eps, layerNormBF16Vec)
}

// fillMoment fills y with the row's mean or rstd, or both, as m asks
// (Args.Moment).
func fillMoment[T float](y []T, mean, rstd T, m kernel.Moment) {
	v := mean
	if m != kernel.MomentMean {
		v = rstd
	}
	for k := range y {
		y[k] = v
	}
	if m == kernel.MomentBoth && len(y) > 0 {
		y[0] = mean
	}
}

// rowMax returns the max of x, NaN if there is one.
func rowMax[T float](x []T) T {
	m := T(math.Inf(-1))
	for _, v := range x {
		if v > m || v != v {
			m = v
			if v != v {
				return v
			}
		}
	}
	return m
}

func softmaxRow[T float](y, x, _, _ unsafe.Pointer, n int, args *kernel.Args) {
	xs, ys := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
	ys = ys[:len(xs)]
	m := float64(rowMax(xs))
	var s float64
	for k, v := range xs {
		e := math.Exp(float64(v) - m)
		ys[k] = T(e)
		s += e
	}
	if args != nil && args.SoftmaxDivide {
		for k := range ys {
			ys[k] = T(float64(ys[k]) / float64(T(s)))
		}
		return
	}
	inv := 1 / s
	for k := range ys {
		ys[k] = T(float64(ys[k]) * inv)
	}
}

func logSoftmaxRow[T float](y, x, _, _ unsafe.Pointer, n int, args *kernel.Args) {
	xs, ys := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
	ys = ys[:len(xs)]
	m := float64(rowMax(xs))
	var s float64
	for _, v := range xs {
		s += math.Exp(float64(v) - m)
	}
	ls := logSum(s, args)
	for k, v := range xs {
		ys[k] = T((float64(v) - m) - ls) // not v - (m + ls): see logSoftmaxRowF32
	}
}

func layerNormRow[T float](y, x, w, b unsafe.Pointer, n int, args *kernel.Args) {
	xs, ys := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
	ys = ys[:len(xs)]
	if n == 0 {
		return
	}
	// the mean as x[0] + Σ(x - x[0])/n: of n equal values exactly that
	// value, their variance 0, as PyTorch's Welford moments give (a
	// float64 sum of a hundred 0.001 is not a hundred times it), so that
	// with eps = 0 such a row is NaN, as in PyTorch
	shift := float64(xs[0])
	if math.IsInf(shift, 0) {
		shift = 0 // a row with an infinity has the plain sum's mean (its ±Inf or NaN), as the reference
	}
	var sum float64
	for _, v := range xs {
		sum += float64(v) - shift
	}
	mean := shift + sum/float64(n)
	var m2 float64
	for _, v := range xs {
		d := float64(v) - mean
		m2 += d * d
	}
	rstd := 1 / math.Sqrt(m2/float64(n)+args.Eps)
	if args.Moment != kernel.MomentNone {
		fillMoment(ys, T(mean), T(rstd), args.Moment)
		return
	}
	switch {
	case w != nil && b != nil:
		ws, bs := unsafe.Slice((*T)(w), n), unsafe.Slice((*T)(b), n)
		for k, v := range xs {
			ys[k] = T((float64(v)-mean)*rstd*float64(ws[k]) + float64(bs[k]))
		}
	case w != nil:
		ws := unsafe.Slice((*T)(w), n)
		for k, v := range xs {
			ys[k] = T((float64(v) - mean) * rstd * float64(ws[k]))
		}
	case b != nil:
		bs := unsafe.Slice((*T)(b), n)
		for k, v := range xs {
			ys[k] = T((float64(v)-mean)*rstd + float64(bs[k]))
		}
	default:
		for k, v := range xs {
			ys[k] = T((float64(v) - mean) * rstd)
		}
	}
}

// Scan runs a scan (CumSum … LogCumSumExp) or a row op (Softmax,
// LogSoftmax, LayerNorm) along args.Dim of a row plan (Note [Row plans]
// in package kernel; Note [Scans and row ops]).
func (*Backend) Scan(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if op.Kind != optable.Scan && op.Kind != optable.Row {
		return errs.New(errs.Value, op.Name, "%s is not a scan or row op", op.Name)
	}
	if args == nil {
		args = &kernel.DefaultArgs
	}
	nout := op.Outputs
	nin := 1
	if op == optable.LayerNorm {
		nin += b2n(args.HasWeight) + b2n(args.HasBias)
	}
	if p.NumOutputs() != nout || p.NumOperands() != nout+nin {
		return errs.New(errs.Value, op.Name, "expected %d outputs and %d inputs, got %d operands", nout, nin, p.NumOperands())
	}
	compute := p.CommonDType()
	args = args.ForCompute(op, compute)
	lt := kernel.LoopDType(compute)
	s := &scanner{op: op, args: args, nout: nout, lt: lt, es: lt.Size()}
	if lt.Valid() {
		if op.Kind == optable.Scan {
			s.scan = &scanTable[op.Code][lt]
			if s.scan.row == nil {
				s.scan = nil
			}
		} else {
			s.row = rowTable[op.Code][lt]
		}
	}
	if s.scan == nil && s.row == nil {
		return notImplemented(op, compute)
	}
	dim := args.Dim
	for k := 0; k < p.NumOperands(); k++ {
		o := p.Operand(k)
		if !o.DType.Valid() {
			return notImplemented(op, o.DType)
		}
		if dim < 0 || dim >= o.View.Dim() {
			return errs.New(errs.Index, op.Name, "dim %d out of range for operand %d", dim, k)
		}
	}
	in := p.Operand(nout)
	s.n = in.View.Shape[dim]
	s.direct = true
	for k := 0; k < p.NumOperands(); k++ {
		o := p.Operand(k)
		s.dimSt[k] = o.View.Strides[dim] * o.DType.Size()
		want, via := lt, compute
		if k == 1 && nout == 2 {
			want, via = dtype.Int64, dtype.Int64
		}
		if k < nout {
			s.conv[k], s.cvt[k] = chain(want, via, o.DType)
		} else {
			s.conv[k], s.cvt[k] = chain(o.DType, compute, lt)
		}
		if k <= nout && (s.cvt[k] || s.dimSt[k] != want.Size() && s.n > 1) {
			s.direct = false
		}
	}
	if p.NumEl() == 0 || s.n == 0 {
		return nil
	}
	// the fast path over an outer dim: the plan's fastest dim contiguous
	st := p.LoopStrides()
	s.cols = s.scan != nil && s.scan.cols != nil && !s.anyCvt(p.NumOperands()) && p.Ndim() > 0
	for k := 0; k < p.NumOperands() && s.cols; k++ {
		if st[k] != p.Operand(k).DType.Size() {
			s.cols = false
		}
	}
	if s.row != nil && p.Ndim() > 0 && p.Shape()[0] >= rowColsMin {
		s.rowCols = rowColsTable[op.Code][lt]
		s.colsWidth = rowColsWidth
		if s.anyCvt(p.NumOperands()) {
			// Note [Converted outer rows]
			s.colsWidth = min(rowColsWidth, colsBlockBytes/(s.n*s.es))
			if s.colsWidth < rowColsMin {
				s.rowCols = nil
			}
		}
		for k := 0; k < p.NumOperands() && s.rowCols != nil; k++ {
			if st[k] != p.Operand(k).DType.Size() {
				s.rowCols = nil
			}
		}
	}
	for k := 0; k < p.NumOperands(); k++ {
		s.base[k] = p.Operand(k).Storage.Pointer()
		s.esz[k] = p.Operand(k).DType.Size()
	}
	if s.row != nil {
		s.prepareRowInputs(p)
	}
	grain := max(1, iter.GrainSize/s.n)
	if s.cols {
		grain = max(grain, scanWidth)
	}
	if s.rowCols != nil {
		grain = max(grain, s.colsWidth)
	}
	p.ForEachGrain(s.loop, grain)
	return nil
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scanner is the state of one Scan call, shared read-only by its workers.
type scanner struct {
	op        *optable.Op
	args      *kernel.Args
	nout      int
	lt        dtype.DType
	es        int // loop dtype size
	scan      *scanFuncs
	row       rowFn
	rowCols   rowColsFn         // the outer-dim path of a row op (Note [Row ops over an outer dim])
	colsWidth int               // the neighbouring rows rowCols computes at once
	n         int               // row length
	dimSt     [4]int            // byte stride along the row, per operand
	conv      [4]conv           // per operand: to (inputs) or from (outputs) the loop dtype
	cvt       [4]bool           // conv needed
	direct    bool              // every row is contiguous in the loop dtype
	cols      bool              // the outer-dim fast path applies
	wb        [2][]byte         // LayerNorm weight and bias rows in the loop dtype (nil: absent)
	base      [4]unsafe.Pointer // each operand's storage address (the walk hands offsets)
	esz       [4]int            // each operand's element size
}

func (s *scanner) anyCvt(n int) bool {
	for k := 0; k < n; k++ {
		if s.cvt[k] {
			return true
		}
	}
	return false
}

// prepareRowInputs reads LayerNorm's weight and bias (the same row for
// every plan element) into contiguous loop-dtype rows.
func (s *scanner) prepareRowInputs(p *iter.Plan) {
	k := s.nout + 1
	var stage [bufLen]uint64 // one for the call's weight and bias
	for i, has := range []bool{s.args.HasWeight, s.args.HasBias} {
		if !has || s.op != optable.LayerNorm {
			continue
		}
		buf := make([]byte, s.n*s.es+8)
		s.gather(unsafe.Pointer(&buf[0]), addr(p, k), k, 0, s.n, unsafe.Pointer(&stage[0]))
		s.wb[i] = buf
		k++
	}
}

// gather converts m elements of operand k's row at base, from element off,
// into the contiguous loop-dtype buffer dst; stage is a staging buffer of
// bufLen words for two-step conversions. (A staging array of its own
// would escape to the heap through the conversion's function values: two
// allocations of 2 KiB a row, a third of a bfloat16 softmax's time.)
func (s *scanner) gather(dst, base unsafe.Pointer, k, off, m int, stage unsafe.Pointer) {
	src := unsafe.Add(base, off*s.dimSt[k])
	if s.cvt[k] {
		for o := 0; o < m; o += bufLen {
			c := min(bufLen, m-o)
			s.conv[k].run(unsafe.Add(dst, o*s.es), unsafe.Add(src, o*s.dimSt[k]), s.es, s.dimSt[k], c, stage)
		}
		return
	}
	copyStrided2(dst, src, s.es, s.dimSt[k], s.es, m)
}

// scatter writes m results of es bytes from the contiguous buffer src into
// output k's row at base, from element off, converting them; stage is as
// gather's.
func (s *scanner) scatter(base, src unsafe.Pointer, k, off, m, es int, stage unsafe.Pointer) {
	dst := unsafe.Add(base, off*s.dimSt[k])
	if s.cvt[k] {
		for o := 0; o < m; o += bufLen {
			c := min(bufLen, m-o)
			s.conv[k].run(unsafe.Add(dst, o*s.dimSt[k]), unsafe.Add(src, o*es), s.dimSt[k], es, c, stage)
		}
		return
	}
	copyStrided2(dst, src, s.dimSt[k], es, es, m)
}

// copyStrided2 copies m elements of es bytes from src (byte stride ss) to
// dst (byte stride ds).
func copyStrided2(dst, src unsafe.Pointer, ds, ss, es, m int) {
	if ds == es && ss == es {
		copy(unsafe.Slice((*byte)(dst), m*es), unsafe.Slice((*byte)(src), m*es))
		return
	}
	for k := 0; k < m; k++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, k*ds)), es), unsafe.Slice((*byte)(unsafe.Add(src, k*ss)), es))
	}
}

// loop is the Loop2D of a Scan call.
func (s *scanner) loop(offs []int, strides []int, n0, n1 int) {
	nt := len(offs)
	var ptrs [4]unsafe.Pointer
	var carry []uint64
	var rowBufs [][]uint64
	var scratch []float64
	var block []uint64
	for j := 0; j < n1; j++ {
		for k := 0; k < nt; k++ {
			ptrs[k] = unsafe.Add(s.base[k], offs[k]+j*strides[nt+k])
		}
		if s.rowCols != nil && n0 > 1 {
			if scratch == nil {
				scratch = make([]float64, 4*rowColsWidth)
				if s.anyCvt(nt) {
					block = getColsBlock(bufLen + (s.n*s.colsWidth*s.es+7)/8)
					defer colsBlocks.Put(&block)
				}
			}
			s.rowColsBlock(ptrs, n0, scratch, block)
			continue
		}
		if s.cols && n0 > 1 {
			if carry == nil {
				carry = make([]uint64, (scanWidth*s.scan.carry+7)/8)
			}
			s.colsBlock(ptrs, n0, carry)
			continue
		}
		i := 0
		if s.scan != nil && s.scan.rows8 != nil && s.direct && s.n >= minLockstepLen {
			// eight rows at a time (Note [Rows in lockstep]); with y and x
			// rows equally far apart, every group of eight has the first
			// one's offsets modulo 4 KiB, and its skew
			in := s.nout
			skew, ok := 0, false
			for ; i+8 <= n0; i += 8 {
				y, x := unsafe.Add(ptrs[0], i*strides[0]), unsafe.Add(ptrs[in], i*strides[in])
				if i == 0 || strides[0] != strides[in] {
					skew, ok = lockstepSkew(y, x, strides[0], strides[in], s.es, s.n)
				}
				if !ok {
					break
				}
				s.scan.rows8(y, x, strides[0], strides[in], s.n, skew)
			}
		}
		for ; i < n0; i++ {
			var q [4]unsafe.Pointer
			for k := 0; k < nt; k++ {
				q[k] = unsafe.Add(ptrs[k], i*strides[k])
			}
			if s.scan != nil {
				if carry == nil {
					carry = make([]uint64, (s.scan.carry+7)/8)
				}
				s.scanRow(q, carry)
			} else {
				if rowBufs == nil && !s.direct {
					rowBufs = [][]uint64{make([]uint64, (s.n*s.es+7)/8), make([]uint64, (s.n*s.es+7)/8), make([]uint64, bufLen)}
				}
				s.rowOp(q, rowBufs)
			}
		}
	}
}

// colsBlock scans n0 neighbouring rows together (the outer-dim fast path).
func (s *scanner) colsBlock(ptrs [4]unsafe.Pointer, n0 int, carry []uint64) {
	in := s.nout
	for c0 := 0; c0 < n0; c0 += scanWidth {
		w := min(scanWidth, n0-c0)
		s.scan.init(ptr(carry), w)
		var yi unsafe.Pointer
		if s.nout == 2 {
			yi = unsafe.Add(ptrs[1], c0*8)
		}
		s.scan.cols(unsafe.Add(ptrs[0], c0*s.es), yi, unsafe.Add(ptrs[in], c0*s.es), s.dimSt[0], s.dimSt[1], s.dimSt[in], s.n, w, ptr(carry))
	}
}

// scanRow scans one row.
func (s *scanner) scanRow(q [4]unsafe.Pointer, carry []uint64) {
	f := s.scan
	f.init(ptr(carry), 1)
	in := s.nout
	var yi unsafe.Pointer
	if s.nout == 2 {
		yi = q[1]
	}
	if s.direct {
		f.row(q[0], yi, q[in], s.n, 0, ptr(carry))
		return
	}
	bufs := bufPool.Get().(*chunkBufs)
	x, y, yb := unsafe.Pointer(&bufs[0][0]), unsafe.Pointer(&bufs[1][0]), unsafe.Pointer(&bufs[2][0])
	stage := unsafe.Pointer(&bufs[4][0])
	for off := 0; off < s.n; off += bufLen {
		m := min(bufLen, s.n-off)
		s.gather(x, q[in], in, off, m, stage)
		f.row(y, yb, x, m, off, ptr(carry))
		s.scatter(q[0], y, 0, off, m, s.es, stage)
		if s.nout == 2 {
			s.scatter(q[1], yb, 1, off, m, 8, stage)
		}
	}
	bufPool.Put(bufs)
}

// rowOp runs a row op on one row.
func (s *scanner) rowOp(q [4]unsafe.Pointer, bufs [][]uint64) {
	in := s.nout
	var w, b unsafe.Pointer
	if s.wb[0] != nil {
		w = unsafe.Pointer(&s.wb[0][0])
	}
	if s.wb[1] != nil {
		b = unsafe.Pointer(&s.wb[1][0])
	}
	if s.direct {
		s.row(q[0], q[in], w, b, s.n, s.args)
		return
	}
	x, y := ptr(bufs[0]), ptr(bufs[1])
	stage := ptr(bufs[2])
	s.gather(x, q[in], in, 0, s.n, stage)
	s.row(y, x, w, b, s.n, s.args)
	s.scatter(q[0], y, 0, 0, s.n, s.es, stage)
}
