// Package iter is goten's TensorIterator: it turns a [Config] of output and
// input views into an immutable [Plan] that kernels walk. Building a plan
// checks devices, computes the common dtype, checks memory overlap,
// broadcasts shapes, resizes or allocates outputs, computes byte strides,
// reorders dims fastest-moving first and coalesces them. The iterator knows
// no ops and no kernels, and returns typed errors (*errs.Error).
package iter

import (
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// GrainSize is the number of elements below which a loop is not split
// across workers.
const GrainSize = 32768

// Config collects operands and options. Outputs come first; Build turns it
// into a Plan. The zero value is not ready: use [NewConfig].
type Config struct {
	outputs   []*raw.View
	outDTypes []dtype.DType
	inputs    []*raw.View
	readWrite []bool // per output: also read (in-place)

	checkOverlap      bool
	checkSameDType    bool
	promoteInputs     bool
	promoteIntToFloat bool
	castToOutputs     bool
	enforceSafeCast   bool
	resizeOutputs     bool
	isReduction       bool
	staticDType       dtype.DType
	staticShape       []int
	opName            string
}

// NewConfig returns a Config with PyTorch's defaults: overlap checks on,
// same-dtype check on, outputs resizable, no promotion.
func NewConfig() *Config {
	return &Config{checkOverlap: true, checkSameDType: true, resizeOutputs: true}
}

// Op names the op in error messages.
func (c *Config) Op(name string) *Config { c.opName = name; return c }

// AddOutput adds an output view; nil means "allocate it" with the common
// dtype (or [Config.AddOutputDType]'s dtype).
func (c *Config) AddOutput(v *raw.View) *Config {
	c.outputs = append(c.outputs, v)
	c.outDTypes = append(c.outDTypes, dtype.Invalid)
	c.readWrite = append(c.readWrite, false)
	return c
}

// AddOutputDType adds an output to be allocated with dtype d.
func (c *Config) AddOutputDType(d dtype.DType) *Config {
	c.AddOutput(nil)
	c.outDTypes[len(c.outDTypes)-1] = d
	return c
}

// AddInput adds an input view.
func (c *Config) AddInput(v *raw.View) *Config {
	c.inputs = append(c.inputs, v)
	return c
}

// CheckMemOverlap turns the overlap checks on or off (default on).
func (c *Config) CheckMemOverlap(on bool) *Config { c.checkOverlap = on; return c }

// CheckAllSameDType requires every operand to have the same dtype (default
// on; promotion options turn it off).
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
// elements; others of the wrong shape are a shape error.
func (c *Config) ResizeOutputs(on bool) *Config { c.resizeOutputs = on; return c }

// IsReduction declares a reduction: outputs keep size-1 dims where the
// input is larger, and those dims get stride 0 (see Note [Reductions]).
func (c *Config) IsReduction(on bool) *Config { c.isReduction = on; return c }

// StaticDType fixes the common dtype instead of computing it.
func (c *Config) StaticDType(d dtype.DType) *Config { c.staticDType = d; c.checkSameDType = false; return c }

// StaticShape fixes the iteration shape instead of broadcasting the operands.
func (c *Config) StaticShape(shape []int) *Config { c.staticShape = shape; return c }

// SetReadWrite marks output i as also read (an in-place op): it takes part
// in type promotion and broadcasting like an input.
func (c *Config) SetReadWrite(i int) *Config { c.readWrite[i] = true; return c }

// Operand is one operand of a plan: its view, and its layout over the
// plan's dims in bytes.
type Operand struct {
	View     *raw.View // the operand (for outputs: as given, resized, or allocated)
	Storage  *device.Storage
	Offset   int   // byte offset of the first element
	Strides  []int // byte strides, one per plan dim
	DType    dtype.DType
	IsOutput bool
	// IsReadWrite marks an output that is also an input (in-place ops).
	IsReadWrite bool
}

// Plan is an immutable iteration plan over operands, outputs first. Its
// dims are ordered fastest-moving first and coalesced.
type Plan struct {
	shape    []int
	ops      []Operand
	nOutputs int
	common   dtype.DType
	// perm[i] is the original dim of plan dim i before coalescing;
	// kept for restriding and for reductions.
	perm        []int
	isReduction bool
}

// Shape returns the iteration shape (fastest dim first).
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

// Operand returns operand i (outputs first).
func (p *Plan) Operand(i int) *Operand { return &p.ops[i] }

// Output returns the view of output i: the given output (maybe resized) or
// the one allocated.
func (p *Plan) Output(i int) *raw.View { return p.ops[i].View }

// CommonDType returns the common (compute) dtype, or Invalid if none was computed.
func (p *Plan) CommonDType() dtype.DType { return p.common }

// IsReduction reports whether the plan was built as a reduction.
func (p *Plan) IsReduction() bool { return p.isReduction }

// Loop2D is the inner loop of [Plan.ForEach]: data holds one pointer per
// operand; strides holds the inner byte strides of every operand followed
// by their outer byte strides; the loop runs size1 rows of size0 elements.
type Loop2D func(data []unsafe.Pointer, strides []int, size0, size1 int)
