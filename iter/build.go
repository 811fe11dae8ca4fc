package iter

import (
	"fmt"
	"strconv"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Build checks the operands and computes the plan (see the package
// documentation for the steps). Every check comes before any output is
// resized or allocated; nothing is written to any operand's memory. Errors
// are *errs.Error: errs.Overlap (Note [Memory overlap]), errs.Shape
// (broadcasting, outputs of the wrong shape), errs.DType (same-dtype check,
// unsafe cast to an output), errs.Value (devices, missing operands).
func (c *Config) Build() (*Plan, error) {
	nOut := c.nOut
	p := newPlan(nOut + c.nIn)
	p.nOutputs = nOut
	p.isReduction = c.isReduction
	if err := p.populate(c); err != nil {
		return nil, err
	}
	if c.checkOverlap {
		if err := c.checkOverlaps(); err != nil {
			return nil, err
		}
	}
	sameShape, err := p.computeShape(c)
	if err != nil {
		return nil, err
	}
	if err := p.markResizeOutputs(c); err != nil {
		return nil, err
	}
	if err := p.computeTypes(c); err != nil {
		return nil, err
	}
	done, err := p.fastSetup(c, sameShape)
	if err != nil {
		return nil, err
	}
	if !done {
		p.computeStrides(c)
		p.reorderDims(c)
		if err := p.allocateOutputs(c.opName); err != nil {
			return nil, err
		}
		p.coalesceDims()
	}
	p.setLoopStrides()
	return p, nil
}

// CheckOverlaps runs only the memory-overlap step of [Config.Build]
// (PyTorch's compute_mem_overlaps: each output against itself, then
// against every input that is not that same view) and returns its error,
// if any. An op uses it to report an overlap before an error of its own
// that it found first, in PyTorch's order.
func (c *Config) CheckOverlaps() error { return c.checkOverlaps() }

// CheckShapes runs only the shape steps of [Config.Build] (broadcasting the
// operands, checking outputs that cannot be resized) and returns their
// error, if any, without allocating, resizing or checking anything else. An
// op uses it to report a shape error before a dtype error it found first,
// in PyTorch's order (the iterator computes shapes before dtypes).
func (c *Config) CheckShapes() error {
	p := newPlan(c.nOut + c.nIn)
	defer p.Release()
	p.nOutputs = c.nOut
	p.isReduction = c.isReduction
	if err := p.populate(c); err != nil {
		return err
	}
	if _, err := p.computeShape(c); err != nil {
		return err
	}
	return p.markResizeOutputs(c)
}

// populate fills the operands from the config and marks outputs and
// read-write outputs (PyTorch's populate_operands and mark_outputs).
func (p *Plan) populate(c *Config) error {
	nOut := c.nOut
	for k := range p.ops {
		op := &p.ops[k]
		var v *raw.View
		if k < nOut {
			o := c.output(k)
			v = o.view
			op.IsOutput = true
			op.DType = o.dt
			if v == nil {
				if c.isReduction {
					return errs.New(errs.Value, c.opName, "a reduction needs its outputs given (output %d is nil)", k)
				}
				continue
			}
			op.IsReadWrite = o.readWrite
			for i := 0; i < c.nIn; i++ {
				if c.input(i) == v {
					op.IsReadWrite = true
				}
			}
		} else {
			v = c.input(k - nOut)
			if v == nil {
				return errs.New(errs.Value, c.opName, "input %d is nil", k-nOut)
			}
		}
		if len(v.Strides) != len(v.Shape) {
			return errs.New(errs.Value, c.opName, "operand %d has %d sizes but %d strides", k, len(v.Shape), len(v.Strides))
		}
		if v.Storage == nil {
			return errs.New(errs.Value, c.opName, "operand %d has no storage", k)
		}
		op.View, op.Storage, op.Offset, op.DType = v, v.Storage, v.ByteOffset(), v.DType
		op.defined = true
		if c.hasStaticShape && len(v.Shape) != len(c.staticShape) {
			return errs.New(errs.Shape, c.opName, "operand %d has %d dims but the static shape %s has %d", k, len(v.Shape), fmtShape(c.staticShape), len(c.staticShape))
		}
	}
	return nil
}

// resizable reports whether Build may resize outputs of the wrong shape.
func (c *Config) resizable() bool {
	return c.resizeOutputs && !c.isReduction && !c.hasStaticShape
}

// joinsShape reports whether operand k takes part in the broadcast shape:
// inputs always; outputs when they will not be resized (PyTorch leaves
// outputs out while resizing; read-write outputs are inputs too).
func (p *Plan) joinsShape(c *Config, k int) bool {
	op := &p.ops[k]
	return op.View != nil && (!op.IsOutput || !c.resizable() || op.IsReadWrite)
}

// computeShape sets the plan's shape to the broadcast shape of the
// operands (or the static shape), in the operands' dim order, and reports
// whether all operands that took part had the same shape.
func (p *Plan) computeShape(c *Config) (sameShape bool, err error) {
	if c.hasStaticShape {
		p.setNdim(len(c.staticShape))
		copy(p.shape, c.staticShape)
		return false, nil
	}
	ndim := 0
	for k := range p.ops {
		if p.joinsShape(c, k) {
			ndim = max(ndim, len(p.ops[k].View.Shape))
		}
	}
	p.setNdim(ndim)
	sh := p.shape
	for i := range sh {
		sh[i] = 1
	}
	// sh[ndim-acc:] holds the broadcast of the operands seen so far.
	acc, first := 0, true
	var firstShape []int
	sameShape = true
	for k := range p.ops {
		if !p.joinsShape(c, k) {
			continue
		}
		s := p.ops[k].View.Shape
		if first {
			copy(sh[ndim-len(s):], s)
			acc, first, firstShape = len(s), false, s
			continue
		}
		if !shape.Equal(s, firstShape) {
			sameShape = false
		}
		n := max(acc, len(s))
		for i := n - 1; i >= 0; i-- {
			pos := ndim - n + i
			sa, sb := sh[pos], 1
			if j := i - (n - len(s)); j >= 0 {
				sb = s[j]
			}
			switch {
			case sa == sb || sb == 1:
			case sa == 1:
				sh[pos] = sb
			default:
				// PyTorch's infer_size, exactly (Error adds the op's name).
				return false, &errs.Error{Kind: errs.Shape, Op: c.opName, Msg: "The size of tensor a (" + strconv.Itoa(sa) +
					") must match the size of tensor b (" + strconv.Itoa(sb) +
					") at non-singleton dimension " + strconv.Itoa(i)}
			}
		}
		acc = n
	}
	return sameShape, nil
}

// markResizeOutputs decides which outputs of the wrong shape are resized:
// those that may be and have no elements. Others are a shape error, except
// for reductions, whose outputs keep size 1 on reduced dims.
func (p *Plan) markResizeOutputs(c *Config) error {
	if c.hasStaticShape {
		return nil
	}
	for i := 0; i < p.nOutputs; i++ {
		op := &p.ops[i]
		if op.View == nil || shape.Equal(op.View.Shape, p.shape) {
			continue
		}
		if c.resizable() && !op.IsReadWrite {
			if shape.NumEl(op.View.Shape) == 0 {
				op.willResize, op.defined = true, false
				continue
			}
		} else if c.isReduction {
			continue
		}
		return errs.New(errs.Shape, c.opName, "output with shape %s doesn't match the broadcast shape %s",
			fmtShape(op.View.Shape), fmtShape(p.shape))
	}
	return nil
}

// storageDevice is the device of a storage (a variable so that tests can
// pretend storages live elsewhere).
var storageDevice = (*device.Storage).Device

// computeTypes checks devices and computes the common dtype (PyTorch's
// compute_types; see the package documentation, Type promotion).
func (p *Plan) computeTypes(c *Config) error {
	// Devices: the first non-CPU device is the common one; 0-dim CPU inputs
	// may go with it (PyTorch's CPU scalars).
	common := device.Device{Kind: device.CPU}
	for k := range p.ops {
		if p.ops[k].View != nil {
			if d := storageDevice(p.ops[k].Storage); common.Kind == device.CPU && d.Kind != device.CPU {
				common = d
			}
		}
	}
	for k := range p.ops {
		op := &p.ops[k]
		if op.View == nil {
			continue
		}
		if d := storageDevice(op.Storage); d != common {
			if !op.IsOutput && d.Kind == device.CPU && len(op.View.Shape) == 0 {
				continue
			}
			return errs.New(errs.Value, c.opName, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", common, d)
		}
		if p.alloc == nil {
			p.alloc = op.Storage.Allocator()
		}
	}
	if c.alloc != nil {
		p.alloc = c.alloc
	}
	if p.alloc == nil {
		p.alloc = device.CPUAllocator // no operand given: a plan of outputs to allocate only
	}
	p.device = common

	// The inputs' dtype: read-write outputs first (they stand for self),
	// then inputs, as PyTorch sees them.
	var first dtype.DType
	differ := false
	see := func(d dtype.DType) {
		if first == dtype.Invalid {
			first = d
		} else if d != first {
			differ = true
		}
	}
	for i := 0; i < p.nOutputs; i++ {
		if p.ops[i].IsReadWrite {
			see(p.ops[i].DType)
		}
	}
	for k := p.nOutputs; k < len(p.ops); k++ {
		see(p.ops[k].DType)
	}
	var outFirst dtype.DType
	outDiffer, undefinedOut := false, false
	for i := 0; i < p.nOutputs; i++ {
		op := &p.ops[i]
		if op.View == nil {
			if op.DType == dtype.Invalid && c.staticDType == dtype.Invalid {
				undefinedOut = true
			}
			continue
		}
		if outFirst == dtype.Invalid {
			outFirst = op.DType
		} else if op.DType != outFirst {
			outDiffer = true
		}
	}
	if c.checkSameDType && first != dtype.Invalid && (differ || outDiffer || (outFirst != dtype.Invalid && outFirst != first)) {
		for k := range p.ops {
			if op := &p.ops[k]; op.View != nil && op.DType != first {
				return errs.New(errs.DType, c.opName, "Found dtype %s but expected %s", torchName(op.DType), torchName(first))
			}
		}
	}

	var dt dtype.DType
	switch {
	case c.staticDType != dtype.Invalid:
		dt = c.staticDType
	case c.promoteInputs:
		var st dtype.ResultState
		for i := 0; i < p.nOutputs; i++ {
			if op := &p.ops[i]; op.IsReadWrite {
				st.Update(op.DType, len(op.View.Shape), op.View.Wrapped)
			}
		}
		for i := 0; i < c.nIn; i++ {
			v := c.input(i)
			st.Update(v.DType, len(v.Shape), v.Wrapped)
		}
		dt = st.Result()
	default:
		if differ && (undefinedOut || c.castToOutputs || c.enforceSafeCast) {
			return errs.New(errs.DType, c.opName, "inputs of dtypes %s and %s need PromoteInputsToCommonDType to compute a result", torchName(first), torchName(p.firstOther(first)))
		}
		dt = first
	}
	if c.staticDType == dtype.Invalid && c.promoteIntToFloat && dt.IsIntOrBool() {
		dt = dtype.Default
	}
	p.common = dt

	for i := 0; i < p.nOutputs; i++ {
		op := &p.ops[i]
		if op.View == nil {
			if op.DType == dtype.Invalid {
				op.DType = dt
			}
			if op.DType == dtype.Invalid {
				return errs.New(errs.DType, c.opName, "cannot infer the dtype of output %d: no common dtype", i)
			}
			continue
		}
		if c.enforceSafeCast && dt != dtype.Invalid && op.DType != dt && !dtype.CanCast(dt, op.DType) {
			return errs.New(errs.DType, c.opName, "result type %s can't be cast to the desired output type %s", torchName(dt), torchName(op.DType))
		}
	}
	return nil
}

// firstOther returns the first input dtype other than d.
func (p *Plan) firstOther(d dtype.DType) dtype.DType {
	for k := p.nOutputs; k < len(p.ops); k++ {
		if p.ops[k].DType != d {
			return p.ops[k].DType
		}
	}
	return d
}

// Note [Fast setup]
//
// When every operand that has a layout has the broadcast shape itself and
// all are contiguous, or all are non-overlapping-and-dense with the same
// strides, the plan is one dim of numel elements with each operand's
// element size as its stride, and outputs to allocate get contiguous
// strides, or those same strides (PyTorch's fast_set_up). This skips the
// reorder and coalescing work for the common case, and gives the same
// output layout the general path would on every dim of size > 1. Reductions
// and plans with EnforceLinearIteration over non-contiguous operands take
// the general path. (PyTorch's channels-last fast case is left to the
// general path, which finds the same layout.)

// fastSetup applies Note [Fast setup] if it can and reports whether it did.
func (p *Plan) fastSetup(c *Config, sameShape bool) (bool, error) {
	if p.isReduction || !sameShape {
		return false, nil
	}
	isContig := true
	for k := range p.ops {
		if op := &p.ops[k]; op.defined && !shape.IsContiguous(op.View.Shape, op.View.Strides) {
			isContig = false
			break
		}
	}
	isDense := !isContig && !c.linear
	for k := range p.ops {
		if op := &p.ops[k]; isDense && op.defined && !shape.IsNonOverlappingAndDense(op.View.Shape, op.View.Strides) {
			isDense = false
		}
	}
	var like []int // element strides for outputs to allocate; nil: contiguous
	switch {
	case isContig:
	case isDense:
		// Only when every operand has the same strides; the last one
		// (an input) gives the layout.
		for k := len(p.ops) - 1; k >= 0; k-- {
			op := &p.ops[k]
			if !op.defined {
				continue
			}
			if like == nil {
				like = op.View.Strides
			} else if !shape.Equal(like, op.View.Strides) {
				return false, nil
			}
		}
	default:
		return false, nil
	}
	ndim := len(p.shape)
	for i := range p.perm {
		p.perm[i] = ndim - 1 - i
	}
	for i := 0; i < p.nOutputs; i++ {
		if op := &p.ops[i]; !op.defined {
			v, err := p.outputView(c.opName, i, false)
			if err != nil {
				return false, err
			}
			if like != nil {
				copy(v.Strides, like)
			} else {
				shape.ContiguousInto(v.Shape, v.Strides)
			}
			op.defined = true
		}
	}
	if ndim > 0 {
		n := p.NumEl()
		p.shrinkNdim(1)
		p.shape[0] = n
		for k := range p.ops {
			p.ops[k].Strides[0] = p.ops[k].DType.Size()
		}
	}
	return true, nil
}

// outputView allocates output i's storage for the plan's shape (undoing
// p.perm if the plan's dims are permuted already) and
// installs it: a new view for a nil output, the given view mutated in place
// for one to resize. The caller sets the view's strides.
func (p *Plan) outputView(opName string, i int, permuted bool) (*raw.View, error) {
	op := &p.ops[i]
	ndim := len(p.perm)
	buf := make([]int, 2*ndim)
	sizes, strides := buf[:ndim:ndim], buf[ndim:]
	if permuted {
		for d := range p.perm {
			sizes[p.perm[d]] = p.shape[d]
		}
	} else {
		copy(sizes, p.shape)
	}
	v := op.View
	if v == nil {
		nbytes, err := shape.Bytes(opName, sizes, op.DType.Size()) // broadcast sizes may overflow
		if err != nil {
			return nil, err
		}
		st, err := p.alloc.Alloc(nbytes, false) // the kernel writes it whole
		if err != nil {
			return nil, errs.Alloc(opName, err)
		}
		v = &raw.View{DType: op.DType, Storage: st}
		op.View = v
	}
	if err := v.Resize(sizes, strides); err != nil { // a resized output keeps its storage and offset, as PyTorch's resize_
		return nil, errs.WithOp(err, opName)
	}
	op.Storage, op.Offset, op.DType = v.Storage, v.ByteOffset(), v.DType
	return v, nil
}

// computeStrides sets the byte strides of every operand with a layout over
// the broadcast dims: 0 where the operand has size 1 and the shape does
// not, or where it has no such dim; its own stride otherwise.
func (p *Plan) computeStrides(c *Config) {
	ndim := len(p.shape)
	for k := range p.ops {
		op := &p.ops[k]
		if !op.defined {
			continue
		}
		v, es := op.View, op.DType.Size()
		off := ndim - len(v.Shape)
		for i := 0; i < off; i++ {
			op.Strides[i] = 0
		}
		for i, s := range v.Shape {
			if s == 1 && p.shape[off+i] != 1 && !c.hasStaticShape {
				op.Strides[off+i] = 0
			} else {
				op.Strides[off+i] = v.Strides[i] * es
			}
		}
	}
}

// Note [Reordering dims]
//
// The plan's dims are sorted so that dim 0 moves fastest in memory
// (PyTorch's reorder_dimensions). perm starts as n-1, ..., 0 (row-major
// order reversed) and an insertion sort moves a dim before another when the
// first operand that can tell says so:
//
//   - operands without a layout (outputs to allocate or resize) cannot tell;
//   - for a reduction's outputs, a dim with stride 0 (reduced) goes before
//     one without (Note [Reductions]);
//   - an operand with stride 0 on either dim cannot tell (broadcast);
//   - otherwise the smaller stride goes first; on equal strides the dim of
//     smaller size goes first if that means a swap, else the next operand
//     decides.
//
// When no operand can tell, the dims keep their relative order; the sort
// tolerates these ambiguous comparisons by scanning on past them. Outputs
// are allocated from this order (Note [Computing output strides]), so an op
// on permuted inputs returns a result permuted the same way.
//
// Note [Reductions]
//
// A reduction's outputs are given with size 1 (or stride 0) on reduced
// dims, and get byte stride 0 there; the reorder puts reduced dims first,
// so a loop's inner dims are the reduced ones, and coalescing never merges
// a reduced dim with another (0·n ≠ a nonzero stride). [Plan.IsDimReduced]
// tells which dims are reduced.

// reorderDims applies Note [Reordering dims] and permutes the shape and the
// strides accordingly.
func (p *Plan) reorderDims(c *Config) {
	n := len(p.shape)
	perm := p.perm
	for i := range perm {
		perm[i] = n - 1 - i
	}
	if n > 1 && !c.linear {
		for i := 1; i < n; i++ {
			d1 := i
			for d0 := i - 1; d0 >= 0; d0-- {
				cmp := p.shouldSwap(perm[d0], perm[d1])
				if cmp > 0 {
					perm[d0], perm[d1] = perm[d1], perm[d0]
					d1 = d0
				} else if cmp < 0 {
					break
				}
			}
		}
	}
	var buf [stackDims]int
	tmp := buf[:0]
	if n > stackDims {
		tmp = make([]int, 0, n)
	}
	tmp = tmp[:n]
	permuteInto := func(s []int) {
		copy(tmp, s)
		for i, d := range perm {
			s[i] = tmp[d]
		}
	}
	permuteInto(p.shape)
	for k := range p.ops {
		if p.ops[k].defined {
			permuteInto(p.ops[k].Strides)
		}
	}
}

// shouldSwap returns 1 if broadcast dim d0 should come after d1, -1 if
// before, and 0 if no operand can tell.
func (p *Plan) shouldSwap(d0, d1 int) int {
	for k := range p.ops {
		op := &p.ops[k]
		if !op.defined {
			continue
		}
		s0, s1 := op.Strides[d0], op.Strides[d1]
		if p.isReduction && op.IsOutput && (s0 == 0) != (s1 == 0) {
			if s1 == 0 {
				return 1
			}
			return -1
		}
		switch {
		case s0 == 0 || s1 == 0:
		case s0 < s1:
			return -1
		case s0 > s1:
			return 1
		case p.shape[d0] > p.shape[d1]:
			return 1
		}
	}
	return 0
}

// Note [Computing output strides]
//
// An output that is not given, or is resized, gets a dense layout that
// follows the plan's order of dims (Note [Reordering dims]): the plan's dim
// 0 is its fastest, with stride one element. Undoing the permutation gives
// its strides in its own dim order. So a contiguous input gives a
// contiguous output, a transposed [3, 4] input with strides [1, 3] gives
// an output with strides [1, 3], and a broadcast input never decides the
// layout on the dims where it is broadcast. This is PyTorch's
// allocate_or_resize_outputs; sizes 0 count as 1 in the strides.

// allocateOutputs allocates or resizes outputs as Note [Computing output
// strides] says and sets their plan strides.
func (p *Plan) allocateOutputs(opName string) error {
	for i := 0; i < p.nOutputs; i++ {
		op := &p.ops[i]
		if op.defined {
			continue
		}
		v, err := p.outputView(opName, i, true)
		if err != nil {
			return err
		}
		es := op.DType.Size()
		acc := es
		for d, s := range p.shape {
			op.Strides[d] = acc
			v.Strides[p.perm[d]] = acc / es
			acc *= max(s, 1)
		}
		op.defined = true
	}
	return nil
}

// Note [Coalescing]
//
// Two adjacent plan dims d and d+1 merge into one of size
// shape[d]·shape[d+1] when either has size 1, or when for every operand
// shape[d]·stride[d] == stride[d+1]: walking d+1 then continues exactly
// where walking d ended. After reordering, a contiguous operand set
// coalesces to one dim, whatever the original permutation (PyTorch's
// coalesce_dimensions). perm keeps the order from before coalescing.

// coalesceDims applies Note [Coalescing].
func (p *Plan) coalesceDims() {
	n := len(p.shape)
	if n <= 1 {
		return
	}
	prev := 0
	for d := 1; d < n; d++ {
		if p.canCoalesce(prev, d) {
			if p.shape[prev] == 1 {
				p.replaceStride(prev, d)
			}
			p.shape[prev] *= p.shape[d]
		} else {
			prev++
			if prev != d {
				p.replaceStride(prev, d)
				p.shape[prev] = p.shape[d]
			}
		}
	}
	p.shrinkNdim(prev + 1)
}

func (p *Plan) canCoalesce(d0, d1 int) bool {
	s0, s1 := p.shape[d0], p.shape[d1]
	if s0 == 1 || s1 == 1 {
		return true
	}
	for k := range p.ops {
		if s0*p.ops[k].Strides[d0] != p.ops[k].Strides[d1] {
			return false
		}
	}
	return true
}

func (p *Plan) replaceStride(d0, d1 int) {
	for k := range p.ops {
		p.ops[k].Strides[d0] = p.ops[k].Strides[d1]
	}
	if p.viewOffsets != nil {
		p.viewOffsets[d0] = p.viewOffsets[d1]
	}
}

// fmtShape formats sizes as PyTorch prints them: [2, 3], [] for none.
func fmtShape(s []int) string {
	b := make([]byte, 0, 2+4*len(s))
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(append(b, ']'))
}

// torchNames are PyTorch's ScalarType names, which its messages use.
var torchNames = [dtype.Count]string{"Undefined", "Bool", "Byte", "Char", "Short", "Int", "Long", "Half", "BFloat16", "Float", "Double"}

func torchName(d dtype.DType) string {
	if int(d) < len(torchNames) {
		return torchNames[d]
	}
	return fmt.Sprint(d)
}
