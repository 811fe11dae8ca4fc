package optable

import (
	"slices"
	"strings"

	"github.com/goten-ml/goten/dtype"
)

// Code identifies an op: its position in [Ops]. Backends index their
// dispatch tables by it. The zero Code is no op.
type Code uint16

// Kind says how an op walks its operands, so which executor of package op
// and which method of kernel.Backend run it.
type Kind uint8

// The kinds of ops.
const (
	// Pointwise ops compute each output element from the input elements at
	// the same broadcast position (kernel.Backend.Pointwise).
	Pointwise Kind = iota + 1
	// Reduction ops fold the elements along some dims into one
	// (kernel.Backend.Reduce).
	Reduction
	// Scan ops carry a fold along one dim and write it at every step
	// (kernel.Backend.Scan).
	Scan
	// Row ops read a whole row along one dim before writing it: softmax,
	// log_softmax, layer_norm (kernel.Backend.Scan).
	Row
	// Index ops read or write the elements that advanced indices (int64
	// index tensors broadcast together) point at: index, index_put
	// (kernel.Backend.Index).
	Index
	// Gather ops read or write, along one dim, at the positions an index
	// tensor of the same rank gives: gather, scatter, scatter_add
	// (kernel.Backend.Gather).
	Gather
	// Mask ops pack the elements a mask selects, in row-major order, or
	// unpack into them: masked_select, masked_scatter, nonzero
	// (kernel.Backend.Mask).
	Mask
	// Sort ops order or search each row along one dim: sort, topk,
	// kthvalue, median, searchsorted (kernel.Backend.Sort).
	Sort
	// Random ops fill their output from a counter-based random stream:
	// uniform_, normal_, bernoulli, random_ (kernel.Backend.Random).
	Random
)

var kindNames = [...]string{"", "pointwise", "reduction", "scan", "row", "index", "gather", "mask", "sort", "random"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Op declares one op. Fields are grouped by the kinds that read them; a
// field a kind does not read stays zero.
type Op struct {
	Code Code
	// Name is PyTorch's name of the op, as error messages and the
	// conformance cases spell it ("add", "bitwise_left_shift").
	Name string
	// Go is the op's Go name ("Add", "BitwiseLeftShift"): the name of its
	// declaration here, of its generated kernels and of its API.
	Go string
	// Internal: the op has no API of its own; it is reached through
	// another op's options or arguments (DivTrunc through Div's rounding
	// mode, ClampMin through Clamp with no upper bound, NormOne through
	// Norm's p).
	Internal bool
	Kind     Kind
	// Doc says what the op computes, as a phrase that completes "Exp
	// returns ..." ("e^x"); the generated API documents each function with
	// it.
	Doc string
	// Arity is the number of inputs (a reduction, scan or row op has one,
	// layer_norm's weight and bias aside).
	Arity int
	// Outputs is the number of outputs: 2 for the ops that also return
	// int64 indices (max, min, cummax, cummin), else 1.
	Outputs int

	// The dtype rule of a pointwise op: its compute dtype is
	// torch.result_type of its inputs (of PromoteFrom, when set), raised
	// to float32 for IntToFloat ops and to int64 from bool for
	// BoolToInt64 ones; Accepts lists the compute dtypes it has a kernel
	// for (all when zero); a compute dtype outside is a dtype error with
	// Refusal's text (a format with one %s, the dtype) or PyTorch's
	// "not implemented" message naming Kernel (Name when empty) and the
	// device. A row op's Accepts lists the compute dtypes its kernels run
	// in (softmax, log_softmax and layer_norm: the float dtypes).
	IntToFloat  bool
	BoolToInt64 bool
	PromoteFrom []int
	Accepts     DTypes
	Refusal     string
	Kernel      string
	// ScalarKernel and ScalarAccepts stand for Kernel and Accepts when
	// every input that Scalars lists is a Go number: PyTorch runs another
	// overload then (clamp's Number overloads, whose CPU kernels have no
	// bool or float16 loop, where a lone tensor bound runs maximum's or
	// minimum's kernel, which has them all), a unary op over the input
	// cast to the result dtype, so that an out= (in place, the input)
	// must have the result dtype exactly, checked first.
	ScalarKernel  string
	ScalarAccepts DTypes
	// NaNScalarsFill: with a NaN among the Go numbers that Scalars lists,
	// PyTorch fills the result with NaN instead of running ScalarKernel,
	// so it refuses no dtype then (clamp's two number bounds; the loops
	// here give NaN).
	NaNScalarsFill bool
	// Check rejects arguments PyTorch rejects with a message of its own;
	// nil accepts all.
	Check func(c Call) error
	// Params names the inputs in the generated API and its docs (nil: x
	// for one input, a and b for two).
	Params []string
	// OutBool: the op writes bool whatever its compute dtype (comparisons,
	// logical ops, is* tests).
	OutBool bool
	// CondBool: input 0 is a bool condition, read converted to bool
	// (where).
	CondBool bool
	// IntIdentity: on integer and bool inputs the op is the identity
	// (floor, ceil, round, trunc).
	IntIdentity bool
	// StrictOut: an out= tensor must have the result dtype exactly (abs,
	// neg), and for reductions the input's dtype (amax, amin).
	StrictOut bool
	// Alpha names the op's optional multiplier ("alpha" of add and sub,
	// "value" of addcmul and addcdiv), which must not be a float for
	// integer or bool inputs; empty: the op has none.
	Alpha string
	// IntAlpha lets a float multiplier truncate on integer inputs
	// (addcmul's value, which PyTorch does not refuse).
	IntAlpha bool
	// Scalars lists the inputs that PyTorch's kernel reads, when they are
	// Go numbers, by its checked conversion into the dtype ScalarIn gives,
	// which refuses a number that dtype cannot hold where the operands of
	// add or lt wrap (Note [Checked scalars] in package op). An op with a
	// ScalarIn reads its multiplier (Alpha) and logit's eps so too.
	Scalars  []int
	ScalarIn ScalarIn
	// NegatedAlpha: the kernel reads -alpha (PyTorch's sub runs add's
	// kernel so), which is what must fit: int8's sub takes alpha 128.
	NegatedAlpha bool
	// ZeroDivisor: an integer compute dtype with a zero in input 1 is
	// PyTorch's ZeroDivisionError (div's rounding modes, floor_divide,
	// remainder, fmod; Note [Integer division by zero] in package op).
	ZeroDivisor bool

	// The scalar meaning of a pointwise op, per family of loop dtypes; see
	// Note [Scalar meaning].
	Loops []Loop
	// VectorBody are the compute dtypes for which PyTorch's CPU kernel of
	// the op computes otherwise in the vector body of its loops than in
	// their scalar tail; the op's loops follow kernel.Args' VectorBody
	// (Note [Vector bodies]).
	VectorBody DTypes
	// BF16Steps: PyTorch's CPU kernel computes bfloat16 in bfloat16
	// arithmetic, rounding every operation, and the op's loops do so when
	// kernel.Args' BF16Steps is set (Note [Bfloat16 steps] in package
	// optable/elem); its float32 SIMD kernels then do not run.
	BF16Steps bool
	// SIMD names the CPU's vectorised kernels of the op, if it has any.
	SIMD SIMD

	// The dtype rule of a reduction: Result gives the result dtype for an
	// input (or dtype=) dtype d, or a dtype error; nil means d.
	Result func(d dtype.DType) (dtype.DType, error)
	// NoIdentity: the reduction has no value over no elements, so
	// reducing an empty dim is an index error (amax, max, argmax, ...).
	NoIdentity bool
	// InInput: computed in the input's dtype whatever the result's
	// (indices, all/any, count_nonzero).
	InInput bool
	// OutDecides: dtype=, or else an out= tensor's dtype, is the result
	// dtype (sum, prod).
	OutDecides bool
	// NoBool: PyTorch has no kernel for bool inputs (argmax, argmin).
	NoBool bool
	// NoKernel reports the dtypes PyTorch 1.13 has no CPU kernel for (a
	// dtype error, raised only when there are elements to reduce): in is
	// the input's dtype, d the one computed in, explicit whether dtype=
	// gave it. nil: none.
	NoKernel func(in, d dtype.DType, explicit bool) bool
	// Folds is the scalar meaning of a reduction or scan, per family of
	// loop dtypes (Note [Scalar meaning]).
	Folds []Fold
	// Pick chooses the reduction that runs for order p, for an op whose
	// kernels differ by p (norm); nil: the op itself.
	Pick func(p float64) *Op
	// ListedAllNeedsKeep: an explicit empty dim list (PyTorch's dim=[],
	// which reduces every dim) without keepdim is a shape error for an
	// input with dims and elements, as PyTorch 1.13's composite logsumexp
	// adds its max, kept with size 1 in every dim, in place to a result of
	// no dims.
	ListedAllNeedsKeep bool
	// NeedsFloat: a scan or row op of an integer input without dtype= is
	// a dtype error naming this PyTorch kernel.
	NeedsFloat string

	// Combine is the pointwise op that merges a value an index, gather or
	// mask op writes with the element already there (Add for scatter_add
	// and index_put with accumulate; Mul, Maximum, Minimum for the other
	// scatter reductions); nil: the value replaces it.
	Combine *Op
	// Put: an index or gather op writes through its indices (index_put,
	// scatter) instead of reading through them (index, gather).
	Put bool

	// Grad holds the derivative of the op with respect to each input: a
	// Go expression of package tensor's API giving the input's gradient
	// from g, the gradient of the op's (first) output; it may read the
	// inputs by name (Params, else x for one input, a and b for two),
	// result (the output), indices (the second output of max, min, cummax
	// and cummin) and c, the call (its args, reduced dims, scan dim). ""
	// marks an input that takes no gradient (where's condition); nil, an
	// op that is not differentiable (its outputs are bool or integer). The
	// expressions are written with differentiable ops, so that gradients
	// can be differentiated again (Note [Autograd] in package tensor).
	Grad []string
	// Impl is the op whose kernel runs this one (floor_divide runs div's
	// floor); nil: its own.
	Impl *Op
	// ByScalar, for a binary op either of whose inputs may be a Go number
	// (pow's base or exponent), says how a call whose input i is one and
	// whose other input is a tensor runs, for compute dtype c: the zero
	// [ScalarSteps] runs the op's own kernel with the usual out= rules
	// (Note [Pow's special exponents] in package op).
	ByScalar func(c dtype.DType, i int, s Operand) ScalarSteps
	// Options names the Go type of the op's optional argument in the
	// generated API, which picks a variant of the op from Modes (index 0
	// is the op itself): "Rounding" for div, "Approximate" for gelu.
	Options string
	Modes   []*Op
	// Receiver is the input the method form of the API is called on (1
	// for where: x.Where(cond, y), as PyTorch's Tensor.where).
	Receiver int
	// Keyword names a reduction's own keyword argument besides dims,
	// keepdim and dtype: "correction" (var, std, default 1) or "p" (norm,
	// default 2).
	Keyword string
	// OneDim: the reduction takes at most one dim and reports indices
	// along it (max, min, argmax, argmin); with no dim it reduces the
	// flattened tensor and reports flat indices.
	OneDim bool
	// ManualAPI: the op's API is written by hand, its arguments fitting no
	// generated form (layer_norm's normalized shape, weight and bias).
	ManualAPI bool
}

// Note [Vector bodies]
//
// PyTorch 1.13's CPU loops (cpu_kernel_vec) run a contiguous row, or one
// whose inputs are contiguous but for a single broadcast scalar, two AVX2
// vectors at a time through the op's vectorized function (16 float32, 8
// float64 or 32 bfloat16 elements a step), and the row's last n mod step
// elements, and rows of any other layout, through its scalar function.
// Where the two compute otherwise, an element's result depends on where
// it lies: logit with eps > 0.5 clamps to [eps, 1 - eps] by min(hi, max(lo,
// x)) in the vector body, which gives 1 - eps for every x, and by x < lo ?
// lo : (x > hi ? hi : x) in the tail, and bfloat16 rsqrt rounds √x before
// it divides in the tail only. The loops of such an op (VectorBody names
// the compute dtypes concerned) compute the vector body's meaning when
// kernel.Args' VectorBody is set,
// and the CPU sets it for the first n - n mod step elements of the rows
// PyTorch vectorizes. goten's plans order and coalesce dims as PyTorch's
// iterator does, and a serial walk hands the loops whole rows, so the rows
// are PyTorch's; an input PyTorch converts to the compute dtype it first
// copies, dense, and op does so too for these ops. The nested suites'
// reference applies the dense op to each component, whose own last
// elements are its tail, so package nested runs elementwise ops per
// component unless every component is a whole number of vector steps
// (Note [Components as rows] in package nested). A component the reference
// holds strided, which PyTorch does not vectorize, stays strided where it
// is built as a view (nested.ViewOf, as the conformance driver builds its
// inputs), and the ops run on it as on a strided tensor; one packed by
// nested.New is vectorized. Other backends may ignore it.

// Loop is an op's scalar meaning for a family of loop dtypes.
type Loop struct {
	// Types are the loop dtypes the loop computes in (float16 and
	// bfloat16 compute in float32).
	Types DTypes
	// Pre holds statements run once per row, before any element: they may
	// read args (the *kernel.Args of the call) and name the loop type T.
	Pre string
	// Expr is the result, over the inputs a, b, c of type T (bool for
	// where's condition a).
	Expr string
	// UnitIf, when set, is a condition on args under which UnitExpr
	// replaces Expr for a whole row, without Pre: add with alpha 1 skips a
	// multiply per element.
	UnitIf, UnitExpr string
}

// SIMD names the vectorised kernels of package backend/cpu/internal/vec
// that the CPU backend runs for contiguous rows instead of the generated
// loop (Note [SIMD fast paths] in backend/cpu). A kernel computes the op's
// meaning for its loop dtype, or, where that meaning rounds through
// float64 math, the float32 result within a few ulp of it.
type SIMD struct {
	// Unary names a unary family: vec.<Unary><T>(dst, x []T) for each
	// loop dtype T of Types ("F32", "I8", ...).
	Unary string
	// UnaryArgs names, beside Unary, a unary family whose kernels take scalar parameters
	// after x, vec.<UnaryArgs><T>(dst, x []T, p1, p2 T), for each dtype T
	// of Types: the loop runs it where its UnitIf does not hold (Unary's
	// kernels where it does), or always without a UnitIf. Args are the
	// parameters: expressions of args, converted to T as the loop's Pre
	// converts them.
	UnaryArgs string
	Args      []string
	// Binary names a binary family: vec.<Binary><T>(dst, a, b []T),
	// vec.<Binary>Scalar<T>(dst, a []T, s T) (b a broadcast scalar) and
	// vec.Scalar<Binary><T>(dst, a []T, s T) (s∘a: a the scalar), for
	// each loop dtype T of Types; dst is []bool for an OutBool op. A
	// loop with UnitIf runs the kernel, which computes UnitExpr, only
	// when UnitIf holds.
	Binary string
	// Ternary names a ternary family: vec.<Ternary><L><T>(dst, a, b, c)
	// for each loop dtype T of Types and each layout L of the last two
	// inputs ("": slices, "VS": c a broadcast scalar, "SV": b one, "SS":
	// both; Note [Ternary kernels] in asm/ternary.go); a is a slice,
	// []bool for a CondBool op.
	Ternary string
	// Types lists the loop dtypes of Unary, Binary and Ternary (float16 and
	// bfloat16 run float32's); zero means float32 alone. Bool, stored as
	// one byte 0 or 1, runs the family's uint8 kernels: list it only for
	// a family that moves bytes without arithmetic on them (Select).
	Types DTypes
	// Stream lists the loop dtypes T for which vec also has the Unary or
	// Binary family's Stream variants (<Unary><T>Stream; <Binary><T>Stream,
	// <Binary>Scalar<T>Stream, Scalar<Binary><T>Stream), which store with
	// non-temporal stores (Note [Streaming stores] in backend/cpu); a
	// storage dtype of Half here means its kernels' Stream variants.
	Stream DTypes
	// Arith names the CPU's float32 and float64 arithmetic family ("add",
	// "sub", "mul", "div"), which runs vec's vector-vector,
	// vector-scalar and scalar-vector primitives and their streaming
	// twins; Binary and Types may name other dtypes' kernels beside it.
	Arith string
	// Half lists the storage dtypes (bfloat16, float16) for which vec
	// has the binary family's kernels on the 16-bit elements themselves,
	// converting in registers: vec.<F><S>, vec.<F>Scalar<S> and
	// vec.Scalar<F><S> over []uint16, S "BF16" or "F16", F the Binary
	// family or, without one, the Arith family capitalised. They compute
	// exactly what the float32 loop between buffered casts computes; the
	// CPU runs them when every operand has that dtype (Note [Storage-dtype
	// loops] in backend/cpu).
	Half DTypes
}

// Fold is a reduction's or scan's scalar meaning for a family of loop
// dtypes, in four pieces over an accumulator state $s (Note [Scalar
// meaning]).
type Fold struct {
	Types DTypes
	// State is the Go type of the state ($s); T names the loop type.
	State string
	// Init sets $s to the value over no elements.
	Init string
	// Acc folds the element $v, at index $i along the reduced dim, into $s.
	Acc string
	// Combine folds the state $o of later elements into $s.
	Combine string
	// Project is the result for $s, an expression of type Out (T when
	// empty); c is the *elem.Ctx of the call (the count c.N, ...).
	Project string
	Out     string
	// Index: the op also writes $s.I, the int64 index (max, min).
	Index bool
	// Split: Acc is associative and commutative, so contiguous rows may
	// use several partial states.
	Split bool
	// Cascade: the loop dtypes for which the CPU folds blocks of rows and
	// combines them pairwise (float sums; Note [Cascade sums] in
	// backend/cpu).
	Cascade DTypes
	// CPU names hand-written CPU row functions that replace the generated
	// ones (a format with %s for the loop type), by piece ("row", "cols",
	// "combine"; "cols8", which folds eight rows at once, "rows", which
	// folds several contiguous rows into as many states, and "rowBF16",
	// "rowF16", "cols8BF16", "cols8F16", "rowsBF16", "rowsF16", which fold
	// rows of bfloat16 or float16 elements into a float32 loop's states,
	// and "colsRows" and "cols8Run", which fold several rows into one row
	// of states in one call, have no generated default) and loop dtype;
	// dtype.Invalid matches every dtype. For a scan, "row" replaces the
	// scan of contiguous elements and "cols" the outer-dim scan.
	CPU map[string]map[dtype.DType]string
}

// ScalarIn names the dtype in which an op's kernel reads its Go-number
// arguments, for a compute dtype (Note [Checked scalars] in package op).
type ScalarIn uint8

// The dtypes Go-number arguments are read in.
const (
	// Wrapping: cast like tensors, out-of-range values wrapping (add's
	// operands, the comparisons).
	Wrapping ScalarIn = iota
	// InCompute: the compute dtype (clamp's bounds, where's x and y,
	// add's alpha, logit's eps).
	InCompute
	// InOpMath: the compute dtype, float32 for float16 and bfloat16
	// (addcmul's value, lerp's weight).
	InOpMath
	// InPowExponent: float64 for float32 and float64, else the compute
	// dtype (pow's exponent).
	InPowExponent
)

// Note [Scalars in opmath]
// PyTorch's lerp reads a Go-number weight as its opmath type, float32 for
// bfloat16 (weight.to<opmath_t>()), so a bfloat16 lerp with weight 0.3
// computes with 0.3f, not with bfloat16's 0.30078. op converts such a
// number to float32, and the backends read that operand as float32
// without a round trip through the compute dtype (Op.OpMathScalar).

// OpMathScalar reports whether input i of o, a Go number, is read in
// float32 where the compute dtype c is float16 or bfloat16: one of o's
// Scalars read InOpMath (Note [Scalars in opmath]).
func (o *Op) OpMathScalar(i int, c dtype.DType) bool {
	return o.ScalarIn == InOpMath && c.IsReduced() && slices.Contains(o.Scalars, i)
}

// DType returns the dtype of the conversion for compute dtype c
// (dtype.Invalid for Wrapping).
func (s ScalarIn) DType(c dtype.DType) dtype.DType {
	switch s {
	case InCompute:
		return c
	case InOpMath:
		if c.IsReduced() {
			return dtype.Float32
		}
		return c
	case InPowExponent:
		if c == dtype.Float32 {
			return dtype.Float64
		}
		return c
	}
	return dtype.Invalid
}

// ScalarSteps is how a binary op with a Go-number input runs ([Op.ByScalar]).
// The result is all ones, or the tensor input itself, or First applied to
// it, then Then, when set, to First's result — a unary op, or [Mul], which
// multiplies it by the tensor input once more; none of these: the op's
// kernel. The tensor input is read in the compute dtype, and each step
// rounds to it, as PyTorch's kernels do.
type ScalarSteps struct {
	// StrictOut: an out= tensor (in place: the input) must have the
	// result dtype exactly, as for [Op.StrictOut] (PyTorch's pow(Tensor,
	// Scalar) is a structured unary op whose output is checked so).
	StrictOut bool
	// AnyOut: an out= tensor of any dtype takes the result unchecked
	// (PyTorch's pow(1, Tensor) fills it with ones before any cast check).
	AnyOut      bool
	Ones, Copy  bool
	First, Then *Op
	// Wide, when valid, is the dtype the op computes in, its results then
	// rounded to the result dtype (PyTorch's float32 pow reads a Go-number
	// exponent as a double).
	Wide dtype.DType
}

// Special reports whether s replaces the op's kernel.
func (s ScalarSteps) Special() bool { return s.Ones || s.Copy || s.First != nil || s.Wide.Valid() }

// Call is what an op's Check sees of a call.
type Call struct {
	// Compute is the dtype the op computes in.
	Compute dtype.DType
	// In describes the inputs.
	In []Operand
	// Kernel is PyTorch's name of the op's kernel on the device the op
	// runs on ("clamp_min_cpu"), for messages.
	Kernel string
}

// Operand describes one input of a [Call].
type Operand struct {
	DType   dtype.DType
	Dim     int
	Wrapped bool // a Go number (tensor.Scalar)
	// Number is the Go number's value (when Wrapped), as a float64.
	Number float64
}

// Ops lists every op, in code order: Ops[op.Code] == op. Ops[0] is nil.
var Ops = []*Op{nil}

// def adds op to Ops, giving it the next code, and returns it.
func def(op *Op) *Op {
	op.Code = Code(len(Ops))
	if op.Outputs == 0 {
		op.Outputs = 1
	}
	Ops = append(Ops, op)
	return op
}

// NumCodes is one more than the largest code: the length of tables
// indexed by Code.
func NumCodes() int { return len(Ops) }

// ByName returns the ops of kind k named name (several share a name: the
// variants of norm, gelu and clamp).
func ByName(k Kind, name string) []*Op {
	var r []*Op
	for _, op := range Ops[1:] {
		if op.Kind == k && op.Name == name {
			r = append(r, op)
		}
	}
	return r
}

// KernelOp returns the op whose kernel runs op: op.Impl, or op itself.
func (op *Op) KernelOp() *Op {
	if op.Impl != nil {
		return op.Impl
	}
	return op
}

// KernelName returns PyTorch's name of the op's kernel on device dev, as
// its "not implemented" messages spell it: Kernel with "{dev}" replaced by
// dev, or Name_dev ("add_cpu").
func (op *Op) KernelName(dev string) string {
	if op.Kernel == "" {
		return op.Name + "_" + dev
	}
	return strings.ReplaceAll(op.Kernel, "{dev}", dev)
}

// Accept reports whether the op has a kernel for compute dtype d.
func (op *Op) Accept(d dtype.DType) bool { return op.Accepts == 0 || op.Accepts.Has(d) }

// AcceptNumbers is [Op.Accept] of a call whose inputs that Scalars lists
// are all Go numbers (numbers true): ScalarAccepts decides where the op
// has a ScalarKernel.
func (op *Op) AcceptNumbers(d dtype.DType, numbers bool) bool {
	if numbers && op.ScalarKernel != "" {
		return op.ScalarAccepts == 0 || op.ScalarAccepts.Has(d)
	}
	return op.Accept(d)
}

// KernelNameNumbers is [Op.KernelName] of a call whose inputs that
// Scalars lists are all Go numbers (numbers true): ScalarKernel's name
// where the op has one.
func (op *Op) KernelNameNumbers(dev string, numbers bool) string {
	if numbers && op.ScalarKernel != "" {
		return strings.ReplaceAll(op.ScalarKernel, "{dev}", dev)
	}
	return op.KernelName(dev)
}

// Mode returns the variant of op for option value m (Modes[m]; op itself
// for 0).
func (op *Op) Mode(m int) *Op {
	if m == 0 || m >= len(op.Modes) || op.Modes[m] == nil {
		return op
	}
	return op.Modes[m]
}
