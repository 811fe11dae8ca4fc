package iter

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// GrainSize is the number of elements below which [Plan.ForEach] does not
// split a loop across workers.
const GrainSize = 32768

// Small configs and plans keep their operands and dims in arrays inside the
// Config or Plan, so that building one costs few, small allocations (on
// small tensors the iterator's cost is mostly allocation).
const (
	inlineOps  = 4  // operands a Plan holds without allocating
	inlineInts = 48 // ints (shape, perm, strides) a Plan holds without allocating
	stackDims  = 8  // dims that temporary arrays hold on the stack
)

// Config collects operands and options. Outputs come first, then inputs;
// [Config.Build] turns it into a [Plan]. The zero value is not ready: use
// [NewConfig]. The option methods return c, to be chained.
type Config struct {
	// The operands, in arrays inside the Config for the usual few (so that
	// a Config built and used in one function stays on its stack), and in
	// the spill slices beyond them.
	nOut, nIn int
	outArr    [2]outSpec
	inArr     [4]*raw.View
	outMore   []outSpec
	inMore    []*raw.View

	checkOverlap      bool
	checkSameDType    bool
	promoteInputs     bool
	promoteIntToFloat bool
	castToOutputs     bool
	enforceSafeCast   bool
	resizeOutputs     bool
	isReduction       bool
	linear            bool
	staticDType       dtype.DType
	staticShape       []int
	hasStaticShape    bool
	opName            string
	alloc             device.Allocator
}

// outSpec is one output of a Config.
type outSpec struct {
	view      *raw.View
	dt        dtype.DType // dtype to allocate with; Invalid: the common dtype
	readWrite bool        // also read (in-place)
}

// NewConfig returns a Config with PyTorch's defaults: overlap checks on,
// same-dtype check on, outputs resizable, no promotion.
func NewConfig() *Config {
	return &Config{checkOverlap: true, checkSameDType: true, resizeOutputs: true}
}

// output returns output i's spec.
func (c *Config) output(i int) *outSpec {
	if i < len(c.outArr) {
		return &c.outArr[i]
	}
	return &c.outMore[i-len(c.outArr)]
}

// input returns input i.
func (c *Config) input(i int) *raw.View {
	if i < len(c.inArr) {
		return c.inArr[i]
	}
	return c.inMore[i-len(c.inArr)]
}

// Op names the op in error messages (all but the broadcast error, whose
// text is PyTorch's exactly).
func (c *Config) Op(name string) *Config { c.opName = name; return c }

// Allocator sets the allocator of the outputs to allocate; by default they
// are allocated on the operands' common device, by the allocator of the
// first operand there (CPU memory for a config of outputs alone).
func (c *Config) Allocator(a device.Allocator) *Config { c.alloc = a; return c }

// AddOutput adds an output view; nil means "allocate it" with the common
// dtype (or [Config.AddOutputDType]'s dtype) and the broadcast shape, in
// the inputs' memory order (Note [Computing output strides]). Outputs must
// be added before inputs.
func (c *Config) AddOutput(v *raw.View) *Config {
	o := outSpec{view: v}
	if c.nOut < len(c.outArr) {
		c.outArr[c.nOut] = o
	} else {
		c.outMore = append(c.outMore, o)
	}
	c.nOut++
	return c
}

// AddOutputDType adds an output to be allocated with dtype d.
func (c *Config) AddOutputDType(d dtype.DType) *Config {
	c.AddOutput(nil)
	c.output(c.nOut - 1).dt = d
	return c
}

// AddInput adds an input view. Adding the same *raw.View as an output makes
// that output read-write (an in-place op).
func (c *Config) AddInput(v *raw.View) *Config {
	if c.nIn < len(c.inArr) {
		c.inArr[c.nIn] = v
	} else {
		c.inMore = append(c.inMore, v)
	}
	c.nIn++
	return c
}

// CheckMemOverlap turns the overlap checks on or off (default on); see
// Note [Memory overlap].
func (c *Config) CheckMemOverlap(on bool) *Config { c.checkOverlap = on; return c }

// CheckAllSameDType requires every operand to have the inputs' dtype
// (default on; promotion options and StaticDType turn it off). A mismatch
// is an errs.DType error "Found dtype Long but expected Float".
func (c *Config) CheckAllSameDType(on bool) *Config { c.checkSameDType = on; return c }

// PromoteInputsToCommonDType makes the common dtype the promotion of the
// inputs (torch.result_type); kernels read inputs converted to it.
func (c *Config) PromoteInputsToCommonDType(on bool) *Config {
	c.promoteInputs = on
	if on {
		c.checkSameDType = false
	}
	return c
}

// PromoteIntegerInputsToFloat raises an integer or bool common dtype to
// the default float dtype (float32), as true division does.
func (c *Config) PromoteIntegerInputsToFloat(on bool) *Config { c.promoteIntToFloat = on; return c }

// CastCommonDTypeToOutputs lets outputs have a dtype other than the common
// dtype; kernels convert results when they write them.
func (c *Config) CastCommonDTypeToOutputs(on bool) *Config {
	c.castToOutputs = on
	if on {
		c.checkSameDType = false
	}
	return c
}

// EnforceSafeCastingToOutput fails with a dtype error when the common dtype
// cannot be cast to an existing output's dtype ([dtype.CanCast]).
func (c *Config) EnforceSafeCastingToOutput(on bool) *Config { c.enforceSafeCast = on; return c }

// ResizeOutputs lets Build resize outputs whose shape differs from the
// broadcast shape (default on). PyTorch resizes only outputs with no
// elements; others of the wrong shape are a shape error. Outputs that are
// not resizable take part in broadcasting.
func (c *Config) ResizeOutputs(on bool) *Config { c.resizeOutputs = on; return c }

// IsReduction declares a reduction: outputs are given with size 1 (or
// stride 0) on reduced dims, are never resized, take part in broadcasting,
// and get stride 0 on reduced dims, which the plan puts first (see Note
// [Reductions]). Reductions need every output given (no nil output).
func (c *Config) IsReduction(on bool) *Config { c.isReduction = on; return c }

// EnforceLinearIteration keeps the plan's dims in row-major order (the last
// dim fastest) instead of reordering them by strides, for ops whose result
// depends on the order in which elements are visited.
func (c *Config) EnforceLinearIteration(on bool) *Config { c.linear = on; return c }

// StaticDType fixes the common dtype instead of computing it (no promotion,
// no same-dtype check). Outputs to allocate get dtype d unless
// [Config.AddOutputDType] says otherwise.
func (c *Config) StaticDType(d dtype.DType) *Config {
	c.staticDType = d
	c.checkSameDType = false
	return c
}

// StaticShape fixes the iteration shape instead of broadcasting the
// operands (PyTorch's declare_static_shape): every operand must have
// len(shape) dims, its strides are used as they are, and no output is
// resized or checked against the shape — the caller has checked the shapes.
// Outputs to allocate get this shape.
func (c *Config) StaticShape(shape []int) *Config {
	c.staticShape = append(c.staticShape[:0], shape...)
	c.hasStaticShape = true
	return c
}

// StaticShapeSquash is [Config.StaticShape] with size 1 on the squash
// dims: the plan does not walk those dims, and the kernel walks them itself
// from each operand's view (scans, sorts).
func (c *Config) StaticShapeSquash(shape []int, squash ...int) *Config {
	c.StaticShape(shape)
	for _, d := range squash {
		if d >= 0 && d < len(c.staticShape) {
			c.staticShape[d] = 1
		}
	}
	return c
}

// SetReadWrite marks output i as also read (an in-place op): it takes part
// in type promotion and broadcasting like an input, and is never resized.
// An output that is also added as an input is read-write without this call.
func (c *Config) SetReadWrite(i int) *Config {
	if i < 0 || i >= c.nOut {
		panic("iter: SetReadWrite: no output " + strconv.Itoa(i))
	}
	c.output(i).readWrite = true
	return c
}

// Operand is one operand of a plan: its view, and its layout over the
// plan's dims in bytes.
type Operand struct {
	View     *raw.View // the operand (for outputs: as given, resized, or allocated)
	Storage  *device.Storage
	Offset   int   // byte offset of the first element in Storage
	Strides  []int // byte strides, one per plan dim
	DType    dtype.DType
	IsOutput bool
	// IsReadWrite marks an output that is also an input (in-place ops).
	IsReadWrite bool

	willResize bool // an output of the wrong shape, resized by Build
	defined    bool // has a layout: given, and not to be resized
}

// Plan is an immutable iteration plan over operands, outputs first. Its
// dims are ordered fastest-moving first and coalesced. A Plan may be walked
// by several goroutines at once.
type Plan struct {
	shape    []int
	ops      []Operand
	strides  []int // Loop2D layout: dim 0 strides of every operand, then dim 1's
	nOutputs int
	common   dtype.DType
	// perm[i] is the broadcast dim that was plan dim i before coalescing
	// (Note [Reordering dims]).
	perm        []int
	viewOffsets []int // nil: all zeros
	isReduction bool
	accumulate  bool
	notFinal    bool

	// alloc allocates the outputs: the config's allocator, or that of the
	// operands' common device.
	alloc device.Allocator
	// device is the operands' common device, where the plan runs.
	device device.Device

	// busy guards scratch, the offsets handed to loops by SerialForEach;
	// a concurrent walk allocates its own.
	busy    atomic.Bool
	scratch []int

	used int // ints of buf.ints handed out
	buf  struct {
		ops  [inlineOps]Operand
		ints [inlineInts]int
	}
}

// Note [Reusing plans]
//
// On small tensors an op's cost is mostly the iterator's, and most of that
// was allocating the Plan (a few hundred bytes with pointers). Callers that
// build, run and drop a plan in one function (the op executors) hand it back
// with [Plan.Release]; the next Build takes it from a pool instead of
// allocating. A released plan keeps no operand alive: Release clears its
// views and storages.

var planPool = sync.Pool{New: func() any { return new(Plan) }}

// newPlan returns a plan for nt operands, with its slices in its own arrays
// where they fit: a released plan if there is one, else a new one.
func newPlan(nt int) *Plan {
	p := planPool.Get().(*Plan)
	if nt <= inlineOps {
		p.ops = p.buf.ops[:nt:nt]
	} else {
		p.ops = make([]Operand, nt)
	}
	p.scratch = p.ints(nt)
	p.strides = p.ints(2 * nt)
	return p
}

// Release hands p back to be reused by a later [Config.Build] (Note
// [Reusing plans]). The caller must not use p afterwards, nor the slices
// and operands it returned; the views it returned ([Plan.Output]) stay
// valid. Release must not be called while p is being walked.
func (p *Plan) Release() {
	// The inline arrays are kept all zero between uses (but the ints,
	// which hold no pointers and are always written before being read).
	clear(p.ops)
	p.shape, p.ops, p.strides, p.perm, p.viewOffsets, p.scratch, p.alloc = nil, nil, nil, nil, nil, nil, nil
	p.nOutputs, p.common, p.used = 0, dtype.Invalid, 0
	p.isReduction, p.accumulate, p.notFinal = false, false, false
	planPool.Put(p)
}

// ints returns n ints from the plan's own array if they fit, else new ones.
func (p *Plan) ints(n int) []int {
	if p.used+n <= len(p.buf.ints) {
		s := p.buf.ints[p.used : p.used+n : p.used+n]
		p.used += n
		return s
	}
	return make([]int, n)
}

// setNdim sizes the plan's shape, perm and operand strides for ndim dims
// (contents unspecified). It is called once per plan.
func (p *Plan) setNdim(ndim int) {
	nt := len(p.ops)
	buf := p.ints((2 + nt) * ndim)
	p.shape = buf[:ndim:ndim]
	p.perm = buf[ndim : 2*ndim : 2*ndim]
	for k := range p.ops {
		o := (2 + k) * ndim
		p.ops[k].Strides = buf[o : o+ndim : o+ndim]
	}
}

// shrinkNdim drops the plan's dims from ndim on (after coalescing).
func (p *Plan) shrinkNdim(ndim int) {
	p.shape = p.shape[:ndim]
	if p.viewOffsets != nil {
		p.viewOffsets = p.viewOffsets[:ndim]
	}
	for k := range p.ops {
		p.ops[k].Strides = p.ops[k].Strides[:ndim]
	}
}

// clone returns a deep copy of p (its own arrays; the same views), with
// view offsets.
func (p *Plan) clone() *Plan {
	q := newPlan(len(p.ops))
	copy(q.ops, p.ops)
	q.nOutputs, q.common, q.isReduction, q.alloc, q.device = p.nOutputs, p.common, p.isReduction, p.alloc, p.device
	q.accumulate, q.notFinal = p.accumulate, p.notFinal
	n := len(p.shape)
	q.setNdim(max(n, len(p.perm)))
	q.shrinkNdim(n)
	copy(q.shape, p.shape)
	q.perm = q.perm[:len(p.perm)]
	copy(q.perm, p.perm)
	q.viewOffsets = q.ints(n)
	copy(q.viewOffsets, p.viewOffsets)
	for k := range p.ops {
		copy(q.ops[k].Strides, p.ops[k].Strides)
	}
	q.setLoopStrides()
	return q
}

// setLoopStrides fills the Loop2D stride layout from the operands' strides.
func (p *Plan) setLoopStrides() {
	nt := len(p.ops)
	for k := range p.ops {
		st := p.ops[k].Strides
		p.strides[k], p.strides[nt+k] = 0, 0
		if len(st) > 0 {
			p.strides[k] = st[0]
		}
		if len(st) > 1 {
			p.strides[nt+k] = st[1]
		}
	}
}

// Shape returns the iteration shape (fastest dim first). The caller must
// not modify it.
func (p *Plan) Shape() []int { return p.shape }

// Ndim returns the number of plan dims.
func (p *Plan) Ndim() int { return len(p.shape) }

// NumEl returns the number of iterations.
func (p *Plan) NumEl() int {
	n := 1
	for _, s := range p.shape {
		n *= s
	}
	return n
}

// NumOperands returns the number of operands, outputs first.
func (p *Plan) NumOperands() int { return len(p.ops) }

// NumOutputs returns the number of outputs.
func (p *Plan) NumOutputs() int { return p.nOutputs }

// Operand returns operand i (outputs first). The caller must not modify it.
func (p *Plan) Operand(i int) *Operand { return &p.ops[i] }

// Output returns the view of output i: the given output (maybe resized) or
// the one allocated.
func (p *Plan) Output(i int) *raw.View { return p.ops[i].View }

// LoopStrides returns the byte strides in [Loop2D]'s layout: the strides of
// plan dim 0 for every operand, then those of dim 1 (zeros for missing
// dims). The caller must not modify it.
func (p *Plan) LoopStrides() []int { return p.strides }

// Device returns the device the plan runs on: its operands' common device
// (see the package doc, Devices).
func (p *Plan) Device() device.Device { return p.device }

// CommonDType returns the common (compute) dtype, or Invalid if none was
// computed (inputs of different dtypes without promotion; no inputs).
func (p *Plan) CommonDType() dtype.DType { return p.common }

// IsReduction reports whether the plan was built as a reduction.
func (p *Plan) IsReduction() bool { return p.isReduction }

// IsContiguous reports whether one loop call of [Plan.NumEl] elements with
// every operand's stride equal to its element size covers the plan: one
// element, or one dim in which every operand is contiguous.
func (p *Plan) IsContiguous() bool {
	if p.NumEl() == 1 {
		return true
	}
	if len(p.shape) != 1 {
		return false
	}
	for k := range p.ops {
		if p.ops[k].Strides[0] != p.ops[k].DType.Size() {
			return false
		}
	}
	return true
}

// IsScalar reports whether operand i is the same element for every
// iteration (stride 0 or size 1 on every dim).
func (p *Plan) IsScalar(i int) bool {
	for d, s := range p.ops[i].Strides {
		if s != 0 && p.shape[d] != 1 {
			return false
		}
	}
	return true
}

// IsDimReduced reports whether plan dim d is reduced: some output has
// stride 0 on it and its size is above 1 (see Note [Reductions]).
func (p *Plan) IsDimReduced(d int) bool {
	if p.shape[d] <= 1 {
		return false
	}
	for k := 0; k < p.nOutputs; k++ {
		if p.ops[k].Strides[d] == 0 {
			return true
		}
	}
	return false
}

// NumReduceDims returns the number of plan dims on which output 0 has
// stride 0.
func (p *Plan) NumReduceDims() int {
	n := 0
	if p.nOutputs == 0 {
		return 0
	}
	for _, s := range p.ops[0].Strides {
		if s == 0 {
			n++
		}
	}
	return n
}

// NumOutputElements returns the number of distinct elements of output 0 the
// plan writes: the product of the sizes of the dims where it has a nonzero
// stride (or size 0).
func (p *Plan) NumOutputElements() int {
	n := 1
	for d, s := range p.shape {
		if p.ops[0].Strides[d] != 0 || s == 0 {
			n *= s
		}
	}
	return n
}

// ViewOffsets returns, per plan dim, where the plan starts within the dim
// of the plan it was narrowed or split from (all zeros for a built plan).
// Reductions that report indices (argmax) add it.
func (p *Plan) ViewOffsets() []int {
	if p.viewOffsets == nil {
		return make([]int, len(p.shape))
	}
	return p.viewOffsets
}

// Accumulate reports whether a kernel must combine its results with what the
// outputs already hold, because another sub-plan of the same reduction
// wrote them first ([Plan.Split] on a reduced dim).
func (p *Plan) Accumulate() bool { return p.accumulate }

// IsFinalOutput reports whether this plan's results are final: false for
// the first half of a reduction split on a reduced dim, whose results the
// other half combines with.
func (p *Plan) IsFinalOutput() bool { return !p.notFinal }

// Loop2D is the inner loop of [Plan.ForEach]: offsets holds one byte offset
// per operand (outputs first) into its storage ([Operand.Storage]);
// strides holds the inner byte strides of every operand followed by their
// outer byte strides (PyTorch's layout); the loop runs size1 rows of size0
// elements: element (i, j) of operand k is at byte offsets[k] +
// i·strides[k] + j·strides[nt+k] of its storage, nt = len(offsets). A host
// backend adds the offsets to its storages' addresses; the iterator itself
// never computes an address. The loop may change the entries of offsets
// (they are reset before every call) but must not change strides, nor keep
// either slice after it returns.
type Loop2D func(offsets []int, strides []int, size0, size1 int)
