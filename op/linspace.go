package op

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Note [PyTorch's linspace]
//
// PyTorch 1.13's linspace kernel (RangeFactoriesKernel.cpp) computes in
// the result's dtype, not in float64: the step is (end - start)/(steps-1)
// in that dtype (in float64 for integers), and element i is start +
// step·i for i below steps/2 and end - step·(steps-1-i) from there, each
// operation rounded to the dtype (float16 and bfloat16 round every
// operation to 16 bits, converting an integer operand to the 16-bit type
// first, as c10's operators do). And it is vectorized: its loop fills
// whole pairs of vectors (32 bytes each at the AVX2 level its CPU build
// runs at) while they fit, then the rest one element at a time. A vector
// whose first index is j gets base + step·k in its lane k, base being
// element j computed as above; for integers base is converted to the
// dtype first and each lane converted after, so linspace(0, 10, 8) in
// int64 is [0, 1, 2, 4, 5, 6, 7, 9]: its last element is not 10. Linspace
// reproduces all of this (with the fused operations of linspaceArith), so
// its elements, and the bins of Histc, whose last edge is the last
// element, are PyTorch's bit for bit: TestLinspaceMatchesPyTorch compares
// cases computed by PyTorch (tools/confgen/linspace_ref.py). PyTorch
// splits more than 32768 steps between its threads, each part vectorized
// from its own start; Linspace computes them as one part.

// linspaceVectorBytes is the width of PyTorch's vectors at its AVX2
// level.
const linspaceVectorBytes = 32

// Linspace returns the steps elements of PyTorch's linspace from start to
// end in dtype d (Note [PyTorch's linspace]), each as the float64 of the
// d value; start and end are taken as elements of d (already checked and
// converted by the caller for integers).
func Linspace(start, end float64, steps int, d dtype.DType) []float64 {
	out := make([]float64, steps)
	if steps == 0 {
		return out
	}
	ar := linspaceArith(d)
	s, e := ar.round(start), ar.round(end)
	if steps == 1 {
		out[0] = s
		return out
	}
	step := ar.op(ar.op(e-s) / ar.integer(steps-1))
	half := steps / 2
	// element i computed alone (the kernel's scalar loop)
	at := func(i int) float64 {
		if i < half {
			return ar.madd(s, step, i)
		}
		return ar.madd(e, -step, steps-1-i)
	}
	lanes := linspaceVectorBytes / d.Size()
	vectored := steps / (2 * lanes) * (2 * lanes)
	for j := 0; j < vectored; j += lanes {
		base := ar.store(at(j))
		out[j] = base
		for k := 1; k < lanes; k++ {
			out[j+k] = ar.store(ar.lane(base, step, k))
		}
	}
	for i := vectored; i < steps; i++ {
		out[i] = ar.store(at(i))
	}
	return out
}

// linspaceArithmetic is how PyTorch's linspace kernel rounds in one
// dtype: round converts a bound to the dtype, op rounds one operation's
// result, integer converts an integer operand, madd computes z + x·i as
// the kernel's scalar expressions do, and store converts a computed value
// to an element.
type linspaceArithmetic struct {
	round, store, op func(float64) float64
	integer          func(int) float64
	madd             func(z, x float64, i int) float64
	fusedLanes       bool // the vector lanes' base + k·step fused too
}

// lane returns lane k of a vector of base base.
func (a linspaceArithmetic) lane(base, step float64, k int) float64 {
	if a.fusedLanes {
		return a.madd(base, step, k)
	}
	return a.op(base + a.op(step*a.integer(k)))
}

// linspaceArith returns the arithmetic of d's linspace kernel. Its AVX2
// build contracts the scalar expressions z + x·i (the elements of its
// scalar loop and each vector's base) into one fused multiply-add (GCC's
// default -ffp-contract=fast) for float32, float64 and the float64 steps
// of integers, but not the vector lanes' base + k·step, except uint8's
// (found by comparing with PyTorch: its vector type is built another
// way); c10's float16 and bfloat16 operators round each product and sum
// to 16 bits instead, converting an integer operand to the 16-bit type
// first (so 293 is 292 in bfloat16). A float32 operation computed in
// float64 and rounded once is the float32 operation; a fused float32
// multiply-add so computed can differ from the hardware's in the last bit
// only where rounding twice does, about once in 2^29.
func linspaceArith(d dtype.DType) linspaceArithmetic {
	// the explicit conversion rounds x·y before a sum: Go may otherwise
	// fuse the two, as it does on arm64
	same := func(x float64) float64 { return float64(x) }
	exact := func(i int) float64 { return float64(i) }
	fused := func(z, x float64, i int) float64 { return math.FMA(x, float64(i), z) }
	switch d {
	case dtype.Float64:
		return linspaceArithmetic{round: same, store: same, op: same, integer: exact, madd: fused}
	case dtype.Float32:
		f32 := func(x float64) float64 { return dtype.Round(d, x) }
		i32 := func(i int) float64 { return float64(float32(i)) }
		return linspaceArithmetic{round: f32, store: same, op: f32, integer: i32, madd: func(z, x float64, i int) float64 {
			return f32(math.FMA(x, i32(i), z))
		}}
	case dtype.Float16, dtype.BFloat16:
		r := func(x float64) float64 { return dtype.Round(d, x) }
		i16 := func(i int) float64 { return r(float64(float32(i))) }
		return linspaceArithmetic{round: r, store: same, op: r, integer: i16, madd: func(z, x float64, i int) float64 {
			return r(z + r(x*i16(i)))
		}}
	}
	// integers: the step and the sums in float64, elements truncated (an
	// integer has no -0)
	trunc := func(x float64) float64 { return math.Trunc(x) + 0 }
	return linspaceArithmetic{round: same, store: trunc, op: same, integer: exact, madd: fused, fusedLanes: d == dtype.Uint8}
}

// Note [PyTorch's arange]
//
// PyTorch 1.13's arange kernel for floats computes in the accumulate type
// (float64 for float32 and float64, float32 for float16 and bfloat16):
// element i is start + step·i there, fused into one multiply-add by its
// AVX2 build, then rounded to the dtype; and like linspace's (Note
// [PyTorch's linspace]) its loop fills whole pairs of vectors first, lane
// k of the vector starting at j being base + step·k, base being element j
// rounded to the dtype: fused in float64 for float32 and float64, two
// float32 operations for float16 and bfloat16 (found by comparing with
// PyTorch). ArangeFloat reproduces it bit for bit
// (TestArangeMatchesPyTorch); integer dtypes compute exactly in int64 and
// need none of this.

// ArangeFloat returns the n elements of PyTorch's float arange from start
// by step in the float dtype d (Note [PyTorch's arange]), each as the
// float64 of the d value.
func ArangeFloat(start, step float64, n int, d dtype.DType) []float64 {
	if !d.IsFloat() {
		panic("op.ArangeFloat: " + d.String() + " is not a float dtype")
	}
	out := make([]float64, n)
	round := linspaceArith(d).round                      // to d
	acc := func(x float64) float64 { return float64(x) } // no fusing (see linspaceArith)
	if d.Size() == 2 {
		// float32 accumulates; an operation computed in float64 and
		// rounded once is the float32 operation
		acc = func(x float64) float64 { return float64(float32(x)) }
	}
	start, step = acc(start), acc(step)
	at := func(i int) float64 { return acc(math.FMA(step, float64(i), start)) }
	lanes := linspaceVectorBytes / d.Size()
	vectored := n / (2 * lanes) * (2 * lanes)
	for j := 0; j < vectored; j += lanes {
		base := round(at(j))
		out[j] = base
		for k := 1; k < lanes; k++ {
			if d.Size() == 2 {
				out[j+k] = round(acc(base + acc(step*float64(k))))
			} else {
				out[j+k] = round(math.FMA(step, float64(k), base))
			}
		}
	}
	for i := vectored; i < n; i++ {
		out[i] = round(at(i))
	}
	return out
}

// Logspace returns the steps elements of PyTorch 1.13's logspace from
// base^start to base^end in dtype d, before their conversion to d (the
// caller's): its kernel (not vectorized) takes start and end as elements
// of d, their difference in d (exactly for integers), a float64 step
// (end - start)/(steps-1), and exponent i start + step·i
// below steps/2 and end - step·(steps-1-i) from there, multiplied and
// added apart (this kernel is built without FMA: fused, 10^(-1 + 14·9/42)
// in int32 would be 99 where PyTorch has 100); one step is start itself,
// unconverted; base is raised to them in float64 (math.Pow, which can
// differ from the C library's pow in the last bit or two of a float64).
func Logspace(start, end float64, steps int, base float64, d dtype.DType) []float64 {
	out := make([]float64, steps)
	if steps == 1 {
		out[0] = math.Pow(base, start)
	}
	if steps < 2 {
		return out
	}
	ar := linspaceArith(d)
	s, e := ar.round(start), ar.round(end)
	step := ar.op(e-s) / float64(steps-1)
	half := steps / 2
	for i := range out {
		x := e - float64(step*float64(steps-1-i))
		if i < half {
			x = s + float64(step*float64(i))
		}
		out[i] = math.Pow(base, x)
	}
	return out
}
