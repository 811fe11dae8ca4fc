package conform

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
)

// The factories and rearrangements (suite factories), with PyTorch's
// signatures (OPS.md).
func init() {
	for name, f := range map[string]opFunc{
		"arange":   opArange,
		"linspace": func(c *call) result { return opLinspace(c, false) },
		"logspace": func(c *call) result { return opLinspace(c, true) },
		"eye": func(c *call) result {
			n := c.intArg(0, "n")
			m := c.intOr(1, "m", n)
			return one(tensor.Eye(n, m, dtypeOr(c, dtype.Float32)))
		},
		"full": func(c *call) result {
			size := c.intsArg(0, "size")
			v := c.need(1, "fill_value", argScalar)
			def := dtype.Float32
			switch v.sc.(type) {
			case int64:
				def = dtype.Int64
			case bool:
				def = dtype.Bool
			}
			return one(tensor.Full(v.operand(), dtypeOr(c, def), size...))
		},
		"tril": func(c *call) result { return one(c.tensor(0, "input").Tril(c.intOr(1, "diagonal", 0))) },
		"triu": func(c *call) result { return one(c.tensor(0, "input").Triu(c.intOr(1, "diagonal", 0))) },
		"diagonal": func(c *call) result {
			return one(c.tensor(0, "input").Diagonal(c.intOr(1, "offset", 0), c.intOr(2, "dim1", 0), c.intOr(3, "dim2", 1)))
		},
		"diag_embed": func(c *call) result {
			return one(c.tensor(0, "input").DiagEmbed(c.intOr(1, "offset", 0), c.intOr(2, "dim1", -2), c.intOr(3, "dim2", -1)))
		},
		"diag":   func(c *call) result { return one(c.tensor(0, "input").Diag(c.intOr(1, "diagonal", 0))) },
		"trace":  func(c *call) result { return one(c.tensor(0, "input").Trace()) },
		"flip":   func(c *call) result { return one(c.tensor(0, "input").Flip(c.intsArg(1, "dims")...)) },
		"fliplr": func(c *call) result { return one(c.tensor(0, "input").Fliplr()) },
		"flipud": func(c *call) result { return one(c.tensor(0, "input").Flipud()) },
		"roll":   opRoll,
		"rot90":  opRot90,
		"repeat": func(c *call) result { return one(c.tensor(0, "input").Repeat(c.intsArg(1, "repeats")...)) },
		"tile":   func(c *call) result { return one(c.tensor(0, "input").Tile(c.intsArg(1, "dims")...)) },
		"narrow_copy": func(c *call) result {
			return one(c.tensor(0, "input").NarrowCopy(c.intArg(1, "dim"), c.intArg(2, "start"), c.intArg(3, "length")))
		},
		"repeat_interleave": opRepeatInterleave,
		"pad":               opPad,
		"one_hot":           func(c *call) result { return one(tensor.OneHot(c.tensor(0, "input"), c.intOr(1, "num_classes", -1))) },
		"outer":             func(c *call) result { return one(tensor.Outer(c.tensor(0, "input"), c.tensor(1, "vec2"))) },
		"kron":              func(c *call) result { return one(tensor.Kron(c.tensor(0, "input"), c.tensor(1, "other"))) },
		"cross": func(c *call) result {
			a := c.tensor(0, "input")
			d, ok := c.optInt(2, "dim")
			if !ok {
				d = tensor.CrossDim(a)
			}
			return one(tensor.Cross(a, c.tensor(1, "other"), d))
		},
		"cartesian_prod": func(c *call) result { return one(tensor.CartesianProd(c.varTensors()...)) },
		"meshgrid": func(c *call) result {
			ix, _ := c.str(-1, "indexing")
			return many(tensor.Meshgrid(c.varTensors(), ix == "xy"))
		},
		"einsum": func(c *call) result {
			eq, ok := c.str(0, "equation")
			if !ok {
				panic(badf("einsum needs an equation"))
			}
			ts := make([]*tensor.Tensor, 0, len(c.args)-1)
			for i := 1; i < len(c.args); i++ {
				ts = append(ts, c.tensor(i, ""))
			}
			return one(tensor.Einsum(eq, ts...))
		},
	} {
		add(name, f)
	}
}

// varTensors reads the tensors of a variadic signature (f(*tensors)).
func (c *call) varTensors() []*tensor.Tensor {
	ts := make([]*tensor.Tensor, len(c.args))
	for i := range c.args {
		ts[i] = c.tensor(i, "")
	}
	return ts
}

func dtypeOr(c *call, def dtype.DType) dtype.DType {
	if dt, ok := c.dtype(-1, "dtype"); ok {
		return dt
	}
	return def
}

// opArange reads arange(end), arange(start, end) and arange(start, end,
// step); the dtype defaults to int64 when all are ints.
func opArange(c *call) result {
	var vs []arg
	for i := range c.args {
		vs = append(vs, c.need(i, "", argScalar))
	}
	allInt := true
	fs := make([]float64, len(vs))
	for i, v := range vs {
		switch v.sc.(type) {
		case int64, bool: // PyTorch infers int64 from a bool bound too
		default:
			allInt = false
		}
		fs[i] = v.float()
	}
	start, end, step := 0.0, 0.0, 1.0
	switch len(fs) {
	case 1:
		end = fs[0]
	case 2:
		start, end = fs[0], fs[1]
	case 3:
		start, end, step = fs[0], fs[1], fs[2]
	default:
		panic(badf("arange takes 1 to 3 numbers"))
	}
	def := dtype.Float32
	if allInt {
		def = dtype.Int64
	}
	return one(tensor.Arange(start, end, step, dtypeOr(c, def)))
}

func opLinspace(c *call, log bool) result {
	start := c.need(0, "start", argScalar).float()
	end := c.need(1, "end", argScalar).float()
	steps := c.intArg(2, "steps")
	dt := dtypeOr(c, dtype.Float32)
	if !log {
		return one(tensor.Linspace(start, end, steps, dt))
	}
	base := 10.0
	if a, ok := c.opt(3, "base", argScalar); ok {
		base = a.float()
	}
	return one(tensor.Logspace(start, end, steps, base, dt))
}

func opRoll(c *call) result {
	t := c.tensor(0, "input")
	shifts, _ := c.dims(1, "shifts")
	dims, _ := c.dims(2, "dims")
	return one(t.Roll(shifts, dims...))
}

func opRot90(c *call) result {
	t := c.tensor(0, "input")
	k := c.intOr(1, "k", 1)
	dims, _ := c.dims(2, "dims")
	return one(t.Rot90(k, dims...))
}

func opRepeatInterleave(c *call) result {
	a := c.need(0, "input", argTensor)
	r, ok := c.opt(1, "repeats", argInt, argTensor)
	c.optInt(-1, "output_size") // the total: changes nothing
	if !ok {
		return one(tensor.RepeatInterleaveCounts(a.t))
	}
	var dims []int
	if d, ok := c.optInt(2, "dim"); ok {
		dims = []int{d}
	}
	if r.kind == argInt {
		return one(a.t.RepeatInterleave([]int64{int64(r.i)}, dims...))
	}
	return one(a.t.RepeatInterleaveBy(r.t, dims...))
}

func opPad(c *call) result {
	t, pads := c.tensor(0, "input"), c.intsArg(1, "pad")
	mode, _ := c.str(2, "mode")
	v := 0.0
	if a, ok := c.opt(3, "value", argScalar); ok {
		v = a.float()
	}
	return one(t.Pad(pads, tensor.PadMode(mode), v))
}
