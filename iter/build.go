package iter

import (
	"fmt"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Build checks the operands and computes the plan. Nothing is written to
// any operand's memory; outputs may be resized or allocated.
func (c *Config) Build() (*Plan, error) {
	p := &Plan{nOutputs: len(c.outputs), isReduction: c.isReduction}
	// common dtype
	var st dtype.ResultState
	for _, v := range c.inputs {
		st.Update(v.DType, v.Dim(), v.Wrapped)
	}
	for i, v := range c.outputs {
		if c.readWrite[i] && v != nil {
			st.Update(v.DType, v.Dim(), false)
		}
	}
	common := st.Result()
	if c.staticDType != dtype.Invalid {
		common = c.staticDType
	}
	if c.promoteIntToFloat && common.IsIntOrBool() {
		common = dtype.Default
	}
	if c.checkSameDType {
		for _, v := range c.inputs {
			if v.DType != common && common != dtype.Invalid {
				return nil, errs.New(errs.DType, c.opName, "expected all operands to have the same dtype, got %s and %s", common, v.DType)
			}
		}
	}
	p.common = common
	// broadcast shape
	var sh []int
	if c.staticShape != nil {
		sh = append([]int{}, c.staticShape...)
	} else {
		first := true
		add := func(s []int) error {
			if first {
				sh = append([]int{}, s...)
				first = false
				return nil
			}
			b, err := shape.Broadcast(sh, s)
			if err != nil {
				return err
			}
			sh = b
			return nil
		}
		for i, v := range c.outputs {
			if v != nil && (!c.resizeOutputs || c.readWrite[i]) {
				if err := add(v.Shape); err != nil {
					return nil, err
				}
			}
		}
		for _, v := range c.inputs {
			if err := add(v.Shape); err != nil {
				return nil, err
			}
		}
	}
	// outputs
	for i, v := range c.outputs {
		if v == nil {
			d := c.outDTypes[i]
			if d == dtype.Invalid {
				d = common
			}
			v = raw.New(d, sh)
		} else {
			if c.enforceSafeCast && common != dtype.Invalid && !dtype.CanCast(common, v.DType) {
				return nil, errs.New(errs.DType, c.opName, "result type %s can't be cast to the desired output type %s", common, v.DType)
			}
			if !shape.Equal(v.Shape, sh) && !c.isReduction {
				if c.resizeOutputs && v.NumEl() == 0 {
					nv := raw.New(v.DType, sh)
					v.Storage, v.Shape, v.Strides, v.Offset = nv.Storage, nv.Shape, nv.Strides, 0
				} else {
					return nil, errs.New(errs.Shape, c.opName, "output with shape %v doesn't match the broadcast shape %v", v.Shape, sh)
				}
			}
		}
		p.ops = append(p.ops, operandFor(v, sh, true, c.readWrite[i]))
	}
	for _, v := range c.inputs {
		p.ops = append(p.ops, operandFor(v, sh, false, false))
	}
	// plan dims: reverse (fastest first), no coalescing yet
	n := len(sh)
	p.shape = make([]int, n)
	p.perm = make([]int, n)
	for i := 0; i < n; i++ {
		p.shape[i] = sh[n-1-i]
		p.perm[i] = n - 1 - i
	}
	for k := range p.ops {
		st := p.ops[k].Strides
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			st[i], st[j] = st[j], st[i]
		}
	}
	return p, nil
}

func operandFor(v *raw.View, sh []int, out, rw bool) Operand {
	n := len(sh)
	es := v.DType.Size()
	st := make([]int, n)
	off := n - v.Dim()
	for i := n - 1; i >= off; i-- {
		d := i - off
		if v.Shape[d] == 1 && sh[i] != 1 {
			st[i] = 0
		} else {
			st[i] = v.Strides[d] * es
		}
	}
	return Operand{View: v, Storage: v.Storage, Offset: v.ByteOffset(), Strides: st, DType: v.DType, IsOutput: out, IsReadWrite: rw}
}

var _ = fmt.Sprintf
var _ = device.Alloc
