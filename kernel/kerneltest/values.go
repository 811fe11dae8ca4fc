package kerneltest

import (
	"math"
	"math/rand/v2"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// value is one element to store: floats in f, integers and bools in i.
type value struct {
	f float64
	i int64
}

func fv(f float64) value { return value{f: f} }
func iv(i int64) value   { return value{i: i} }

// store writes v at element off of a host storage of dtype d: integers
// exactly, floats rounded to d.
func (v value) store(st *device.Storage, d dtype.DType, off int) {
	if d.IsFloat() {
		raw.StoreFloat64(st, d, off, v.f)
	} else {
		raw.StoreInt64(st, d, off, v.i)
	}
}

// Note [Value pools]
//
// Inputs are drawn from pools that hold each dtype's special values: ±0,
// ±Inf, NaN, large and small magnitudes, negatives, and for integers
// their full range and its ends. Three restrictions keep cases meaningful:
//
//   - The extremes of a float dtype (its largest finite value and its
//     smallest subnormal) enter only ops of one input. An expression of
//     several inputs (add's a + alpha·b, addcmul's a + value·b·c) may
//     round its intermediates differently in a fast backend — in float32
//     where the reference computes in float64, or not at all in a fused
//     multiply-add — so at the extremes an intermediate overflows in one
//     and not in the other. Their large and small values are 2^±40
//     (2^±12 for float16) instead, whose products of three stay finite
//     and normal.
//   - Integer ops are undefined or meaningless on part of their domain:
//     divisors are nonzero, shift counts lie within the width, and
//     exponents are small (intDomain).
//   - A conversion of a float to an integer is defined only within the
//     integer's range (PyTorch leaves the rest undefined), so such
//     copies draw only values inside it.
//
// Reductions, scans and matrix products draw from smaller pools (foldValue,
// smallInt) whose sums and products are exact or nearly so in every order,
// since a backend may combine partial results in any order.

// floatPools holds floatPool(d, extremes) at [extremes][d].
var floatPools = func() (p [2][dtype.Count][]float64) {
	for _, d := range dtype.All {
		if d.IsFloat() {
			p[0][d], p[1][d] = floatPool(d, false), floatPool(d, true)
		}
	}
	return p
}()

// floatPool returns the float values drawn for dtype d; extremes adds d's
// largest finite value and its smallest subnormal and normal values.
func floatPool(d dtype.DType, extremes bool) []float64 {
	p := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2.5, 3.25, -7, 0.125, 10, 0.75, -0.25, 1.5, 6, -100,
		math.NaN(), math.Inf(1), math.Inf(-1),
		// ties of the 16-bit formats, which round to even: 1, -(1+2⁻⁹), 1 (bfloat16),
		// float16's halfway to overflow, a float16 subnormal halfway to 0
		1 + 0x1p-11, -(1 + 3*0x1p-11), 1 + 0x1p-8, 65520, 0x1p-25}
	big := 0x1p40
	if d == dtype.Float16 {
		big = 0x1p12
	}
	p = append(p, big, -big, 1/big, -1/big, 3*big)
	if !extremes {
		return p
	}
	var max, sub, norm float64
	switch d {
	case dtype.Float16:
		max, sub, norm = 65504, 0x1p-24, 0x1p-14
	case dtype.BFloat16:
		max, sub, norm = 0x1.fep127, 0x1p-133, 0x1p-126
	case dtype.Float32:
		max, sub, norm = math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126
	default:
		max, sub, norm = math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022
	}
	return append(p, max, -max, sub, -sub, norm)
}

// anyValue draws a value of dtype d from its pool (Note [Value pools]).
func anyValue(r *rand.Rand, d dtype.DType, extremes bool) value {
	switch {
	case d == dtype.Bool:
		return iv(r.Int64N(2))
	case d.IsInt():
		return iv(intValue(r, d))
	}
	x := 0
	if extremes {
		x = 1
	}
	p := floatPools[x][d]
	return fv(p[r.IntN(len(p))])
}

// intValue draws an integer of dtype d: small ones, any in its range, its
// ends, or the integers that round to even in a float (2049 in float16,
// 2^24+1 in float32, 2^53+1 in float64).
func intValue(r *rand.Rand, d dtype.DType) int64 {
	lo, hi := intRange(d)
	switch k := r.IntN(20); {
	case k < 9:
		if d == dtype.Uint8 {
			return r.Int64N(10)
		}
		return r.Int64N(19) - 9
	case k < 17:
		if d == dtype.Int64 {
			return int64(r.Uint64())
		}
		return lo + r.Int64N(hi-lo+1)
	}
	ends := []int64{lo, hi}
	for _, x := range []int64{2049, -(1<<24 + 1), 1<<53 + 1} {
		if x >= lo && x <= hi {
			ends = append(ends, x)
		}
	}
	return ends[r.IntN(len(ends))]
}

// intRange returns the smallest and largest values of integer dtype d.
func intRange(d dtype.DType) (lo, hi int64) {
	switch d {
	case dtype.Bool:
		return 0, 1
	case dtype.Uint8:
		return 0, math.MaxUint8
	case dtype.Int8:
		return math.MinInt8, math.MaxInt8
	case dtype.Int16:
		return math.MinInt16, math.MaxInt16
	case dtype.Int32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// intDomain restricts input 1 of the integer ops that are undefined or
// meaningless on part of their domain (Note [Value pools]): it draws a
// value for compute dtype d that an input of dtype e can hold.
var intDomain = map[*optable.Op]func(r *rand.Rand, d, e dtype.DType) int64{
	optable.BitwiseLeftShift:  shiftCount,
	optable.BitwiseRightShift: shiftCount,
	optable.Pow:               smallExponent,
	optable.DivTrunc:          nonzero,
	optable.DivFloor:          nonzero,
	optable.Remainder:         nonzero,
	optable.Fmod:              nonzero,
}

func shiftCount(r *rand.Rand, d, e dtype.DType) int64 {
	n := int64(d.Size() * 8)
	if _, hi := intRange(e); hi < n {
		n = hi + 1
	}
	return r.Int64N(n)
}

func smallExponent(r *rand.Rand, d, e dtype.DType) int64 {
	if e == dtype.Bool {
		return r.Int64N(2)
	}
	if d == dtype.Uint8 || e == dtype.Uint8 {
		return r.Int64N(6)
	}
	return r.Int64N(8) - 2
}

func nonzero(r *rand.Rand, d, e dtype.DType) int64 {
	switch {
	case e == dtype.Bool:
		return 1
	case d == dtype.Uint8 || e == dtype.Uint8:
		return 1 + r.Int64N(9)
	}
	return []int64{-9, -7, -3, -2, -1, 1, 2, 3, 5, 9}[r.IntN(10)]
}

// conditionValue draws a where condition of dtype e: bool, or uint8 whose
// nonzero values are true.
func conditionValue(r *rand.Rand, e dtype.DType) value {
	if e == dtype.Bool {
		return iv(r.Int64N(2))
	}
	return iv([]int64{0, 1, 2, 255}[r.IntN(4)])
}

// pointwiseValue draws input k of op computed in dtype d, the input being
// of dtype e.
func pointwiseValue(r *rand.Rand, op *optable.Op, k int, d, e dtype.DType) value {
	switch {
	case op.CondBool && k == 0:
		return conditionValue(r, e)
	case d.IsInt() && k == 1 && intDomain[op] != nil:
		return iv(intDomain[op](r, d, e))
	}
	return anyValue(r, e, op.Arity == 1)
}

// copyValue draws a value of dtype src to convert to dtype dst.
func copyValue(r *rand.Rand, src, dst dtype.DType) value {
	if !src.IsFloat() || !dst.IsInt() {
		return anyValue(r, src, true)
	}
	lo, hi := intRange(dst)
	for {
		// the pool is stored rounded to src, which may leave dst's range
		v := anyValue(r, src, true)
		x := float64(raw.LoadFloat64(one(src, v), src, 0))
		if t := math.Trunc(x); t >= float64(lo) && t <= float64(hi) && t > -0x1p63 && t < 0x1p63 {
			return v
		}
	}
}

// one returns a host storage holding v as a dtype d element.
func one(d dtype.DType, v value) *device.Storage {
	st := device.Alloc(d.Size())
	v.store(st, d, 0)
	return st
}

// foldValue draws an element of a reduction's or scan's input: mostly ±1,
// some halves and twos and a few quarters up to ±2. Sums are exact in
// every order, and grow along a row (+1 is likelier than -1), so that one
// accumulated in the compute dtype instead of a wider one loses the
// quarters of a float16 sum past 512; the running products of rows of a
// thousand elements stay far inside float32's range (a backend may
// multiply in float32 where the reference does in float64; Note [Value
// pools]).
func foldValue(r *rand.Rand, d dtype.DType) value {
	switch {
	case d == dtype.Bool:
		return iv(r.Int64N(2))
	case d == dtype.Uint8:
		return iv(r.Int64N(7))
	case d.IsInt():
		return iv(r.Int64N(7) - 3)
	}
	switch k := r.IntN(20); {
	case k < 11:
		return fv(1)
	case k < 16:
		return fv(-1)
	case k < 19:
		return fv([]float64{0.5, -0.5, 2, -2}[r.IntN(4)])
	}
	return fv(float64(r.IntN(17)-8) / 4)
}

// specialValue is foldValue with a float's special values a quarter of the
// time: NaN, ±Inf, ±0.
func specialValue(r *rand.Rand, d dtype.DType) value {
	if d.IsFloat() && r.IntN(4) == 0 {
		return fv([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}[r.IntN(5)])
	}
	return foldValue(r, d)
}

// smallInt draws a matrix element: an integer in [-5, 5] (in [0, 5] for
// uint8), so that every product and sum of them is exact in every dtype.
func smallInt(r *rand.Rand, d dtype.DType) value {
	x := r.Int64N(11) - 5
	if d == dtype.Uint8 {
		x = r.Int64N(6)
	}
	if d.IsFloat() {
		return fv(float64(x))
	}
	return iv(x)
}
