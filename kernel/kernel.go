// Package kernel is the contract between op definitions and backends: op
// codes, their scalar arguments, and the [Backend] interface that a device
// implements. Backends receive iterator plans (storages, byte offsets, byte
// strides, dtypes), never Go slices, so a GPU backend runs the same plans.
//
// # Pointwise plans
//
// Operand 0 is the output, operands 1.. the inputs in the order listed for
// each [Code]. The plan's common dtype is the compute dtype: float16 and
// bfloat16 compute in float32. An operand whose dtype differs from the type
// the op's loop reads or writes is converted on the fly (buffered casts).
// Comparison, logical and is* ops write bool; all others write the compute
// dtype.
package kernel

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
)

// Code names an op that a backend implements.
type Code uint16

// Unary pointwise ops: out = f(a). Float-valued ops receive float compute
// dtypes only (the op layer promotes integers to float32).
const (
	Invalid Code = iota

	Neg        // -a (ints wrap; uint8 modulo 256)
	Abs        // |a|; bool stays bool
	Sign       // -1, 0, 1; sign(NaN) = 0; bool: a
	Exp        // e^a
	Exp2       // 2^a
	Expm1      // e^a - 1
	Log        // ln a
	Log2       // log2 a
	Log10      // log10 a
	Log1p      // ln(1+a)
	Sqrt       // √a
	Rsqrt      // 1/√a
	Reciprocal // 1/a
	Square     // a·a (ints too)
	Sin
	Cos
	Tan
	Asin
	Acos
	Atan
	Sinh
	Cosh
	Tanh
	Asinh
	Acosh
	Atanh
	Sigmoid    // 1/(1+e^-a)
	Logit      // log(p/(1-p)), p = a clamped to [eps, 1-eps] when Args.HasEps
	Relu       // max(a, 0), ints too
	Gelu       // a·Φ(a) (erf form)
	GeluTanh   // 0.5a(1+tanh(√(2/π)(a+0.044715a³)))
	Silu       // a·sigmoid(a)
	Erf        // erf a
	Erfc       // erfc a
	Floor      // floats only (ints are the identity, done by the op layer)
	Ceil       // floats only
	Round      // half to even, floats only
	Trunc      // floats only
	Frac       // a - trunc(a)
	LogicalNot // out bool: a == 0
	BitwiseNot // ^a for ints, !a for bool
	IsNan      // out bool
	IsInf      // out bool
	IsFinite   // out bool
	Signbit    // out bool: sign bit set (-0.0 true); ints: a < 0

	// Binary pointwise ops: out = f(a, b).
	Add        // a + Alpha·b (bool: a || b when Alpha is 1)
	Sub        // a - Alpha·b
	Mul        // a·b (bool: a && b)
	Div        // a / b, floats only
	DivTrunc   // a / b rounded toward zero (ints: Go's /)
	DivFloor   // floor(a / b) (ints: floored division; floats: Python's //)
	Remainder  // a - floor(a/b)·b: the sign of b (Python's %)
	Fmod       // C fmod: the sign of a (ints: Go's %)
	Pow        // a^b (ints: repeated squaring, b ≥ 0)
	Maximum    // NaN propagates
	Minimum    // NaN propagates
	Fmax       // ignores a NaN operand
	Fmin       // ignores a NaN operand
	Atan2      // floats only
	Hypot      // floats only
	Copysign   // floats only
	Eq         // out bool
	Ne         // out bool
	Lt         // out bool
	Le         // out bool
	Gt         // out bool
	Ge         // out bool
	LogicalAnd // out bool, on truth values
	LogicalOr  // out bool
	LogicalXor // out bool
	BitwiseAnd // ints and bool
	BitwiseOr  // ints and bool
	BitwiseXor // ints and bool
	ShiftLeft  // a << b, ints
	ShiftRight // a >> b (arithmetic for signed), ints
	ClampMin   // max(a, b), where b is the lower bound (NaN in a propagates)
	ClampMax   // min(a, b), where b is the upper bound

	// Ternary pointwise ops: out = f(a, b, c).
	Where   // a is the bool condition: a ? b : c (operand dtype of a is bool)
	Clamp   // min(max(a, b), c); NaN in a propagates
	Addcmul // a + Alpha·b·c
	Addcdiv // a + Alpha·b/c, floats only
	Lerp    // a + c·(b - a) (PyTorch's formula: weight < 0.5 ? a + w(b-a) : b - (b-a)(1-w))

	// Reductions (plans built with iter.Config.IsReduction; see Note
	// [Reduction plans]). One output unless said otherwise.
	Sum          // Σ (float sums are pairwise: blocked cascade summation)
	Prod         // Π
	Amax         // max, NaN propagates
	Amin         // min, NaN propagates
	Mean         // Σ/n, floats only
	NanSum       // Σ with NaN counted as 0
	Max          // two outputs: the max (NaN propagates) and the int64 index of its first occurrence (of the first NaN)
	Min          // two outputs: the min and the int64 index of its first occurrence (of the first NaN)
	ArgMax       // output int64: the index of Max
	ArgMin       // output int64: the index of Min
	Var          // Σ(x-mean)²/max(n-Args.Correction, 0) (Welford's combination), floats only
	Std          // √Var
	Norm         // (Σ|x|^p)^(1/p) with p = Args.P; p = ±inf: max/min |x|; p = 0: the count of nonzeros; floats only
	LogSumExp    // log Σ e^x, computed stably, floats only
	All          // output bool (or uint8): every element is nonzero (NaN is nonzero)
	Any          // output bool (or uint8): some element is nonzero
	CountNonzero // output int64: the number of nonzero elements

	// Scans along view dim Args.Dim (see Note [Row plans]): element j of a
	// row of the output is the op over elements 0..j of the input's row.
	CumSum       // running Σ (float32 accumulates in float64, as PyTorch's CPU kernel)
	CumProd      // running Π
	CumMax       // two outputs: running max and the int64 index where it was reached (ties and NaN: the latest)
	CumMin       // two outputs: running min and its index
	LogCumSumExp // running log Σ e^x, floats only

	// Row ops along view dim Args.Dim (Note [Row plans]), floats only.
	Softmax    // e^(x-max)/Σe^(x-max)
	LogSoftmax // x-max-log Σe^(x-max)
	LayerNorm  // (x-mean)/√(var+Args.Eps)·weight+bias, biased variance; operands: output, x, then weight and bias if Args.HasWeight, Args.HasBias

	NumCodes
)

// Note [Reduction plans]
//
// A reduction plan (iter.Config.IsReduction) has its outputs first, with
// byte stride 0 on the reduced dims, then one input; the reduced dims come
// first in the plan's order. The plan's common dtype is the compute dtype:
// the input is read converted to it, and the loop accumulates in its loop
// dtype ([LoopDType]; float16/bfloat16 accumulate in float32, Var and Std
// in float64). Outputs are written converted from the op's result (the
// compute dtype, or int64 indices, bool for All/Any, int64 for
// CountNonzero). The outputs' previous contents are ignored; over no
// elements a backend writes the op's value for the empty set (0 for sums,
// 1 for Prod, NaN for Mean/Var/Std, -inf for LogSumExp, true for All,
// ...; Amax, Amin, Max, Min, ArgMax and ArgMin have none, and their op
// layer refuses empty reductions). Index ops need exactly one reduced dim
// (or none) and report the index along it.
//
// Note [Row plans]
//
// Scans and row ops walk one dim of their operands themselves: the plan is
// built with iter.Config.StaticShapeSquash on that dim (Args.Dim, a dim of
// the operands' views), so each plan element is the first element of a
// row, and the kernel reads the row's length and byte strides from each
// operand's View (Shape[Args.Dim], Strides[Args.Dim]). Outputs come first
// and are never broadcast; the plan's common dtype is the compute dtype, and
// operands of other dtypes are converted row by row.

// Args carries the scalar arguments of an op. Alpha is given both as a
// float and as an integer so the loop uses the one of its compute type.
type Args struct {
	AlphaF float64 // Add, Sub, Addcmul, Addcdiv: the multiplier (1 when absent)
	AlphaI int64
	// AlphaFloat records that alpha came from a float scalar (integer ops reject it).
	AlphaFloat bool
	Eps        float64 // Logit, LayerNorm
	HasEps     bool    // Logit: clamp to [Eps, 1-Eps]

	Correction float64 // Var, Std: the divisor is max(n - Correction, 0)
	P          float64 // Norm: the order p (±Inf allowed)
	Dim        int     // scans and row ops: the dim of the operands' views to walk
	// LayerNorm: a weight and a bias operand follow x.
	HasWeight, HasBias bool
}

// DefaultArgs has Alpha 1.
var DefaultArgs = Args{AlphaF: 1, AlphaI: 1}

// Backend runs plans on one device.
type Backend interface {
	// Name returns the backend's name ("cpu", "ref").
	Name() string
	// Pointwise runs an elementwise op over a plan whose common dtype is the
	// compute dtype. It writes operand 0.
	Pointwise(code Code, p *iter.Plan, args *Args) error
	// Copy writes operand 1 into operand 0, converting between their dtypes
	// (float → int truncates toward zero; → bool is != 0; → float16/bfloat16
	// rounds to nearest even).
	Copy(p *iter.Plan) error
	// Reduce runs a reduction (Sum … CountNonzero) over a reduction plan
	// (Note [Reduction plans]). args nil means [DefaultArgs].
	Reduce(code Code, p *iter.Plan, args *Args) error
	// Scan runs a scan (CumSum … LogCumSumExp) or a row op (Softmax,
	// LogSoftmax, LayerNorm) along Args.Dim of a row plan (Note [Row plans]).
	Scan(code Code, p *iter.Plan, args *Args) error
	// MatMul runs a batched matrix product (see [Gemm]).
	MatMul(g *Gemm) error
}

// OutputsBool reports whether code writes bool whatever its compute dtype.
func OutputsBool(code Code) bool {
	switch code {
	case LogicalNot, IsNan, IsInf, IsFinite, Signbit, Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr, LogicalXor:
		return true
	}
	return false
}

// Arity returns the number of inputs of a pointwise code (0 for reductions).
func Arity(code Code) int {
	switch {
	case code >= Neg && code <= Signbit:
		return 1
	case code >= Add && code <= ClampMax:
		return 2
	case code >= Where && code <= Lerp:
		return 3
	case code >= Sum && code <= CountNonzero:
		return 1
	}
	return 0
}

// IsReduction reports whether code is a reduction (runs through
// [Backend.Reduce]).
func IsReduction(code Code) bool { return code >= Sum && code <= CountNonzero }

// IsScan reports whether code is a scan or a row op (runs through
// [Backend.Scan]).
func IsScan(code Code) bool { return code >= CumSum && code <= LayerNorm }

// NumOutputs returns the number of outputs of a reduction or scan code:
// 2 for the ops that also return indices, else 1.
func NumOutputs(code Code) int {
	switch code {
	case Max, Min, CumMax, CumMin:
		return 2
	}
	return 1
}

// LoopDType returns the element type a loop computes in for a compute
// dtype: float16 and bfloat16 compute in float32 (PyTorch's opmath type).
func LoopDType(compute dtype.DType) dtype.DType {
	if compute.IsReduced() {
		return dtype.Float32
	}
	return compute
}
