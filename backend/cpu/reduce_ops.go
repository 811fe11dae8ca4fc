package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
)

// redID names a reduction of the generic reduce kernel (zz_reduce.go).
type redID int

// redFuncs is one reduction for one loop type, as the generic reduce kernel
// takes it (Note [Generated reductions] in internal/gen): the size of its
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
	row func(st, in unsafe.Pointer, is, n, idx int, c *redCtx)
	// cols folds element in[k·is], with index idx, into state k, k < n.
	// The n states have all seen the same number of elements.
	cols func(st, in unsafe.Pointer, is, n, idx int, c *redCtx)
	// cols4, when set, folds four contiguous rows at once into n states
	// (an outer reduction without conversion; ops without indices).
	cols4 func(st unsafe.Pointer, in [4]unsafe.Pointer, n int, c *redCtx)
	// combine folds state k of src, which saw later elements, into state k of dst.
	combine func(dst, src unsafe.Pointer, n int, c *redCtx)
	// project writes the n results (and indices) of n states, contiguous.
	project func(dst, dsti, st unsafe.Pointer, n int, c *redCtx)
}

// redCtx is what a reduction's pieces may read besides their state.
type redCtx struct {
	n          int     // elements reduced into each output
	correction float64 // Var, Std
	p          float64 // NormP
	// roundTo, when a 16-bit float, rounds a Mean's sum to it before the
	// division, as PyTorch's mean (sum, then div_) does.
	roundTo dtype.DType
}

// mean returns s/n, s first rounded to c.roundTo.
func (c *redCtx) mean(s float64) float64 {
	switch c.roundTo {
	case dtype.Float16:
		s = float64(dtype.HalfFromFloat32(float32(s)).Float32())
	case dtype.BFloat16:
		s = float64(dtype.BF16FromFloat32(float32(s)).Float32())
	}
	return s / float64(c.n)
}

// variance returns m2/max(n - correction, 0) (NaN for 0/0, +Inf for x/0).
func (c *redCtx) variance(s welford) float64 {
	return s.m2 / max(s.n-c.correction, 0)
}

type ordered interface {
	bool | uint8 | int8 | int16 | int32 | int64 | float32 | float64
}

// argState is the state of Max, Min, ArgMax and ArgMin: the best value so
// far and its index.
type argState[T ordered] struct {
	v T
	i int64
}

// lowest returns the smallest value of T (-Inf for floats, false for bool).
func lowest[T ordered]() T {
	var z T
	switch p := any(&z).(type) {
	case *int8:
		*p = math.MinInt8
	case *int16:
		*p = math.MinInt16
	case *int32:
		*p = math.MinInt32
	case *int64:
		*p = math.MinInt64
	case *float32:
		*p = float32(math.Inf(-1))
	case *float64:
		*p = math.Inf(-1)
	}
	return z
}

// highest returns the largest value of T (+Inf for floats, true for bool).
func highest[T ordered]() T {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = true
	case *uint8:
		*p = math.MaxUint8
	case *int8:
		*p = math.MaxInt8
	case *int16:
		*p = math.MaxInt16
	case *int32:
		*p = math.MaxInt32
	case *int64:
		*p = math.MaxInt64
	case *float32:
		*p = float32(math.Inf(1))
	case *float64:
		*p = math.Inf(1)
	}
	return z
}

func abs[T float](x T) T { return T(math.Abs(float64(x))) }

// welford is the state of Var and Std: count, mean and the sum of squared
// deviations from the mean, in float64 (PyTorch's WelfordData<double>).
type welford struct{ n, mean, m2 float64 }

// add folds one element in (Welford's update).
func (s *welford) add(x float64) {
	s.n++
	d := x - s.mean
	s.mean += d / s.n
	s.m2 += d * (x - s.mean)
}

// merge folds o in (Chan et al.'s pairwise combination).
func (s *welford) merge(o welford) {
	switch {
	case o.n == 0:
		return
	case s.n == 0:
		*s = o
		return
	}
	n := s.n + o.n
	d := o.mean - s.mean
	s.mean += d * (o.n / n)
	s.m2 += o.m2 + d*d*(s.n*o.n/n)
	s.n = n
}

// rowWelford folds a row in with two passes (its mean, then the squared
// deviations from it) and merges the row's statistics into the state: more
// accurate than Welford's update and without a division per element.
func rowWelford[T float](st, in unsafe.Pointer, is, n, idx int, _ *redCtx) {
	if n == 0 {
		return
	}
	var sum, m2 float64
	if is == int(unsafe.Sizeof(T(0))) {
		x := unsafe.Slice((*T)(in), n)
		var s0, s1, s2, s3 float64
		k := 0
		for ; k+4 <= len(x); k += 4 {
			s0 += float64(x[k])
			s1 += float64(x[k+1])
			s2 += float64(x[k+2])
			s3 += float64(x[k+3])
		}
		for ; k < len(x); k++ {
			s0 += float64(x[k])
		}
		sum = (s0 + s1) + (s2 + s3)
		mean := sum / float64(n)
		s0, s1, s2, s3 = 0, 0, 0, 0
		k = 0
		for ; k+4 <= len(x); k += 4 {
			d0, d1, d2, d3 := float64(x[k])-mean, float64(x[k+1])-mean, float64(x[k+2])-mean, float64(x[k+3])-mean
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		for ; k < len(x); k++ {
			d := float64(x[k]) - mean
			s0 += d * d
		}
		m2 = (s0 + s1) + (s2 + s3)
		(*welford)(st).merge(welford{float64(n), mean, m2})
		return
	}
	for k := 0; k < n; k++ {
		sum += float64(*(*T)(unsafe.Add(in, k*is)))
	}
	mean := sum / float64(n)
	for k := 0; k < n; k++ {
		d := float64(*(*T)(unsafe.Add(in, k*is))) - mean
		m2 += d * d
	}
	(*welford)(st).merge(welford{float64(n), mean, m2})
}

// colsWelford is Welford's update across outputs; the states have all seen
// the same count, so the division is one per row.
func colsWelford[T float](st, in unsafe.Pointer, is, n, idx int, _ *redCtx) {
	if n == 0 {
		return
	}
	ss := unsafe.Slice((*welford)(st), n)
	cnt := ss[0].n + 1
	inv := 1 / cnt
	for k := range ss {
		x := float64(*(*T)(unsafe.Add(in, k*is)))
		s := &ss[k]
		d := x - s.mean
		s.mean += d * inv
		s.m2 += d * (x - s.mean)
		s.n = cnt
	}
}

// lse is the state of LogSumExp: the running max m and Σ e^(x-m).
type lse struct{ m, s float64 }

func (a *lse) add(x float64) {
	switch {
	case x != x:
		a.m = x
	case a.m != a.m || math.IsInf(a.m, 1) || math.IsInf(x, -1):
	case math.IsInf(x, 1):
		a.m, a.s = x, 1
	case x > a.m:
		a.s = a.s*math.Exp(a.m-x) + 1
		a.m = x
	default:
		a.s += math.Exp(x - a.m)
	}
}

func (a *lse) merge(o lse) {
	switch {
	case o.m != o.m:
		a.m = o.m
	case a.m != a.m || math.IsInf(a.m, 1) || math.IsInf(o.m, -1):
	case math.IsInf(o.m, 1) || math.IsInf(a.m, -1):
		*a = o
	case o.m > a.m:
		a.s = a.s*math.Exp(a.m-o.m) + o.s
		a.m = o.m
	default:
		a.s += o.s * math.Exp(o.m-a.m)
	}
}

func (a lse) value() float64 {
	if a.m != a.m || math.IsInf(a.m, 0) {
		return a.m
	}
	return a.m + math.Log(a.s)
}

// Note [SIMD rows]
// The float32/float64 sums, max and min of contiguous rows, and the
// outer-reduction sums across outputs, call internal/vec's primitives;
// strided rows fall back to the generated loops. Max/Min with an index
// find the extreme value with MaxF32/MinF32 and then its first position
// with a scan of the row (in cache).

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

func rowSumF32(st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != 4 {
		rowSum1[float32](st, in, is, n, idx, c)
		return
	}
	*(*float64)(st) += vec.SumF32F64(unsafe.Slice((*float32)(in), n))
}

func rowSumF64(st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != 8 {
		rowSum2[float64](st, in, is, n, idx, c)
		return
	}
	*(*float64)(st) += vec.SumF64(unsafe.Slice((*float64)(in), n))
}

func colsSumF32(st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != 4 {
		colsSum1[float32](st, in, is, n, idx, c)
		return
	}
	vec.AccF32F64(unsafe.Slice((*float64)(st), n), unsafe.Slice((*float32)(in), n))
}

// cols4SumF32 adds four float32 rows to float64 states in one pass.
func cols4SumF32(st unsafe.Pointer, in [4]unsafe.Pointer, n int, _ *redCtx) {
	x := func(k int) []float32 { return unsafe.Slice((*float32)(in[k]), n) }
	vec.AccRows4F32F64(unsafe.Slice((*float64)(st), n), x(0), x(1), x(2), x(3))
}

func init() {
	redTable[redSum][dtype.Float32].cols4 = cols4SumF32
	redTable[redMean][dtype.Float32].cols4 = cols4SumF32
}

func colsSumF64(st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != 8 {
		colsSum2[float64](st, in, is, n, idx, c)
		return
	}
	s := unsafe.Slice((*float64)(st), n)
	vec.AddF64(s, s, unsafe.Slice((*float64)(in), n))
}

func combineSumF64(dst, src unsafe.Pointer, n int, _ *redCtx) {
	d := unsafe.Slice((*float64)(dst), n)
	vec.AddF64(d, d, unsafe.Slice((*float64)(src), n))
}

// rowAmax folds a row into Amax's state (NaN propagates).
func rowAmax[T float](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
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

// rowAmin folds a row into Amin's state (NaN propagates).
func rowAmin[T float](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
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

// extremeAt returns the index of the first NaN of x if nan, else of the first m.
func extremeAt[T float](x []T, m T, nan bool) int {
	for j, v := range x {
		if nan && v != v || !nan && v == m {
			return j
		}
	}
	return 0
}

// rowArgMax folds a row into the state of Max and ArgMax.
func rowArgMax[T float](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowMax2[T](st, in, is, n, idx, c)
		return
	}
	x := unsafe.Slice((*T)(in), n)
	m, nan := vecMax(x, true)
	j := extremeAt(x, m, nan)
	s := (*argState[T])(st)
	if v := x[j]; v > s.v || v != v && s.v == s.v {
		s.v, s.i = v, int64(idx+j)
	}
}

// rowArgMin folds a row into the state of Min and ArgMin.
func rowArgMin[T float](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {
	if is != int(unsafe.Sizeof(T(0))) || n == 0 {
		rowMin2[T](st, in, is, n, idx, c)
		return
	}
	x := unsafe.Slice((*T)(in), n)
	m, nan := vecMax(x, false)
	j := extremeAt(x, m, nan)
	s := (*argState[T])(st)
	if v := x[j]; v < s.v || v != v && s.v == s.v {
		s.v, s.i = v, int64(idx+j)
	}
}
