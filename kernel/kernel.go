// Package kernel is the contract between op definitions and backends: the
// scalar arguments of ops, and the [Backend] interface that a device
// implements. Ops are named by their declaration in package optable, whose
// codes index the backends' dispatch tables. Backends receive iterator
// plans (storages, byte offsets, byte strides, dtypes), never Go slices, so
// a GPU backend runs the same plans.
//
// # Pointwise plans
//
// Operand 0 is the output, operands 1.. the op's inputs in the table's
// order. The plan's common dtype is the compute dtype: float16 and bfloat16
// compute in float32. An operand whose dtype differs from the type the op's
// loop reads or writes is converted on the fly (buffered casts). Ops with
// [optable.Op.OutBool] write bool; all others write the compute dtype.
package kernel

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
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
	// AlphaBool records that alpha came from a bool scalar (add and sub
	// take it for bool results only).
	AlphaBool bool
	Eps       float64 // Logit, LayerNorm
	HasEps    bool    // Logit: clamp to [Eps, EpsHi]
	// EpsHi is logit's upper bound: 1 - Eps as its compute dtype holds it
	// (1 in bfloat16 for an Eps below 2^-9).
	EpsHi float64
	// Moment, when not MomentNone, has LayerNorm fill each row of its
	// output with the row's mean (MomentMean) or 1/√(var+eps) (MomentRstd)
	// as the forward computes them, in x's dtype: the statistics PyTorch's
	// native_layer_norm returns for its backward. MomentBoth writes both
	// from one pass over the row: the mean first, the rstd in the rest of
	// the row (a row of one element gets the mean only). Weight and bias
	// are absent then.
	Moment Moment
	// VectorBody: the loop computes elements that PyTorch's CPU kernel
	// computes in the vector body of its loop, where the ops whose
	// optable.Op says VectorBody compute otherwise (Note [Vector bodies]
	// in package optable).
	VectorBody bool
	// BF16Steps: the loop computes bfloat16 elements (in float32) of an op
	// whose optable.Op says BF16Steps, rounding each step to bfloat16 as
	// PyTorch's kernel does (Note [Bfloat16 steps] in optable/elem).
	BF16Steps bool

	Correction float64 // Var, Std: the divisor is max(n - Correction, 0)
	P          float64 // Norm: the order p (±Inf allowed)
	Dim        int     // scans and row ops: the dim of the operands' views to walk
	// LogSumRound, when valid, is the dtype LogSoftmax rounds its sum of
	// exponentials to, and then that sum's log, before it subtracts them
	// (Note [bfloat16 log_softmax] in package op).
	LogSumRound dtype.DType
	// SoftmaxDivide: Softmax divides each exponential by the sum instead
	// of multiplying it by the sum's reciprocal, as PyTorch's kernel over
	// a dim other than the last does (Note [bfloat16 log_softmax]).
	SoftmaxDivide bool
	// LayerNorm: a weight and a bias operand follow x.
	HasWeight, HasBias bool

	// Index ops (Note [Index plans]): per index operand, the size of the
	// dim it indexes, that dim's byte stride in the indexed operand, and
	// the dim's number for messages.
	IndexSizes, IndexStrides, IndexDims []int
	// NoWrap: a negative index is out of range instead of counting from
	// the end (index_select, index_add, index_copy).
	NoWrap bool
	// Mask ops (Note [Mask plans]): the element strides of the packed
	// operand's dims, and its number of slots.
	Packed    []int
	PackedLen int
	// Sort ops (Note [Sort plans]): the k of topk and kthvalue (k-th
	// smallest from 1), descending order (topk's largest), a stable sort,
	// searchsorted's right side.
	K          int
	Descending bool
	Stable     bool
	Right      bool
	// Random ops (Note [Random streams]): the stream's key and the counter
	// of the output's first element; Low and High bound uniform_ ([Low,
	// High)) and random_ ([LowI, HighI)); Low and High are normal_'s mean
	// and standard deviation.
	Seed, Offset uint64
	Low, High    float64
	LowI, HighI  int64
}

// Moment selects a statistic of layer_norm's rows (Args.Moment).
type Moment uint8

// The statistics of Args.Moment.
const (
	MomentNone Moment = iota // the normalized rows
	MomentMean               // each row's mean
	MomentRstd               // each row's 1/√(var+eps)
	MomentBoth               // the mean, then the rstd in the rest of the row
)

// DefaultArgs has Alpha 1.
var DefaultArgs = Args{AlphaF: 1, AlphaI: 1}

// Backend runs plans on one device.
type Backend interface {
	// Name returns the backend's name ("cpu", "ref").
	Name() string
	// Allocator returns the allocator of the backend's device.
	Allocator() device.Allocator
	// Transfer copies nbytes bytes from byte srcOff of src to byte dstOff
	// of dst, where one storage is on the backend's device and the other
	// on it or in host memory: the cross-device copy.
	Transfer(dst *device.Storage, dstOff int, src *device.Storage, srcOff, nbytes int) error
	// Pointwise runs an elementwise op over a plan whose common dtype is the
	// compute dtype. It writes operand 0.
	Pointwise(op *optable.Op, p *iter.Plan, args *Args) error
	// Copy writes operand 1 into operand 0, converting between their dtypes
	// (float → int truncates toward zero; → bool is != 0; → float16/bfloat16
	// rounds to nearest even).
	Copy(p *iter.Plan) error
	// Reduce runs a reduction (an op of kind optable.Reduction with
	// folds) over a reduction plan (Note [Reduction plans]). args nil means
	// [DefaultArgs].
	Reduce(op *optable.Op, p *iter.Plan, args *Args) error
	// Scan runs a scan or a row op (kinds optable.Scan and optable.Row)
	// along Args.Dim of a row plan (Note [Row plans]).
	Scan(op *optable.Op, p *iter.Plan, args *Args) error
	// MatMul runs a batched matrix product (see [Gemm]).
	MatMul(g *Gemm) error
	// Index runs an index op (kind optable.Index) over an index plan
	// (Note [Index plans]).
	Index(op *optable.Op, p *iter.Plan, args *Args) error
	// Gather runs a gather op (kind optable.Gather) along Args.Dim of a
	// gather plan (Note [Gather plans]).
	Gather(op *optable.Op, p *iter.Plan, args *Args) error
	// Mask runs a mask op (kind optable.Mask) over a mask plan (Note [Mask
	// plans]).
	Mask(op *optable.Op, p *iter.Plan, args *Args) error
	// Sort runs a sort op (kind optable.Sort) along Args.Dim of a row plan
	// (Note [Sort plans]).
	Sort(op *optable.Op, p *iter.Plan, args *Args) error
	// Random fills operand 0 of a random plan (kind optable.Random; Note
	// [Random streams]).
	Random(op *optable.Op, p *iter.Plan, args *Args) error
}

// LoopDType returns the element type a loop computes in for a compute
// dtype: float16 and bfloat16 compute in float32 (PyTorch's opmath type).
func LoopDType(compute dtype.DType) dtype.DType {
	if compute.IsReduced() {
		return dtype.Float32
	}
	return compute
}

// LogitLo is logit's lower bound for the elements a loop computes: Eps,
// or in PyTorch's vector body, whose clamp is min(hi, max(lo, x)), the
// smaller of Eps and EpsHi, so that bounds lo > hi give hi for every x
// there as they do in PyTorch (Note [Vector bodies] in package optable).
func (a *Args) LogitLo() float64 {
	if a.VectorBody {
		return min(a.Eps, a.EpsHi)
	}
	return a.Eps
}

// ForCompute returns args for running op in compute dtype compute: args
// itself, or a copy with BF16Steps set where op rounds every step of a
// bfloat16 computation as PyTorch's kernel does (Note [Bfloat16 steps] in
// package optable/elem). Every backend's Pointwise and Scan call it.
func (a *Args) ForCompute(op *optable.Op, compute dtype.DType) *Args {
	if !op.BF16Steps || compute != dtype.BFloat16 || a.BF16Steps {
		return a
	}
	c := *a
	c.BF16Steps = true
	return &c
}
