package conform

import (
	"strings"

	"github.com/goten-ml/goten/tensor"
)

// opFunc runs one op on its decoded arguments.
type opFunc func(c *call) result

// ops maps each op name of OPS.md that goten has to the function that runs
// it; the elementwise ops without options, the reductions and the scans
// of the op table, and their in-place and out= forms, are added by init
// from zz_ops.go, which is generated from the table. An op missing here is
// reported as not implemented.
var ops = map[string]opFunc{
	// Views and shape ops (suite views).
	"view":    func(c *call) result { return one(c.tensor(0, "input").View(c.intsArg(1, "size")...)) },
	"reshape": func(c *call) result { return one(c.tensor(0, "input").Reshape(c.intsArg(1, "shape")...)) },
	"permute": func(c *call) result { return one(c.tensor(0, "input").Permute(c.intsArg(1, "dims")...)) },
	"transpose": func(c *call) result {
		return one(c.tensor(0, "input").Transpose(c.intArg(1, "dim0"), c.intArg(2, "dim1")))
	},
	"t":         func(c *call) result { return one(c.tensor(0, "input").T()) },
	"expand":    func(c *call) result { return one(c.tensor(0, "input").Expand(c.intsArg(1, "size")...)) },
	"expand_as": func(c *call) result { return one(c.tensor(0, "input").ExpandAs(c.tensor(1, "other"))) },
	"narrow": func(c *call) result {
		return one(c.tensor(0, "input").Narrow(c.intArg(1, "dim"), c.intArg(2, "start"), c.intArg(3, "length")))
	},
	"select": func(c *call) result {
		return one(c.tensor(0, "input").Select(c.intArg(1, "dim"), c.intArg(2, "index")))
	},
	"slice": opSlice,
	"squeeze": func(c *call) result {
		t := c.tensor(0, "input")
		d, ok := c.dims(1, "dim") // a list: PyTorch 2.0's squeeze(dims)
		switch {
		case !ok:
			return one(t.Squeeze())
		case len(d) == 0: // squeezes nothing, where t.Squeeze() squeezes all
			return one(t.AsStridedAt(t.Shape(), t.Strides(), t.Offset()))
		}
		return one(t.Squeeze(d...))
	},
	"unsqueeze": func(c *call) result { return one(c.tensor(0, "input").Unsqueeze(c.intArg(1, "dim"))) },
	"flatten": func(c *call) result {
		return one(c.tensor(0, "input").Flatten(c.intOr(1, "start_dim", 0), c.intOr(2, "end_dim", -1)))
	},
	"unflatten": func(c *call) result {
		return one(c.tensor(0, "input").Unflatten(c.intArg(1, "dim"), c.intsArg(2, "sizes")...))
	},
	"movedim": func(c *call) result {
		t := c.tensor(0, "input")
		src, ok1 := c.dims(1, "source")
		dst, ok2 := c.dims(2, "destination")
		if !ok1 || !ok2 {
			panic(badf("movedim needs source and destination"))
		}
		return one(t.Movedim(src, dst))
	},
	"as_strided": func(c *call) result {
		t := c.tensor(0, "input")
		size, stride := c.intsArg(1, "size"), c.intsArg(2, "stride")
		if off, ok := c.optInt(3, "storage_offset"); ok {
			return one(t.AsStridedAt(size, stride, off))
		}
		return one(t.AsStrided(size, stride))
	},
	"contiguous": func(c *call) result { return one(c.tensor(0, "input").Contiguous()) },
	"clone":      func(c *call) result { return one(c.tensor(0, "input").Clone()) },
	"split": func(c *call) result {
		t := c.tensor(0, "tensor")
		a := c.need(1, "split_size_or_sections", argInt, argInts)
		dim := c.intOr(2, "dim", 0)
		if a.kind == argInt {
			return many(t.Split(a.i, dim))
		}
		return many(t.SplitSizes(a.ints, dim))
	},
	"chunk": func(c *call) result {
		return many(c.tensor(0, "input").Chunk(c.intArg(1, "chunks"), c.intOr(2, "dim", 0)))
	},
	"cat": func(c *call) result {
		ts, dim := c.tensors(0, "tensors"), c.intOr(1, "dim", 0)
		if dst := c.out(); dst != nil {
			return one(tensor.CatTo(dst, ts, dim))
		}
		return one(tensor.Cat(ts, dim))
	},
	"stack": func(c *call) result { return one(tensor.Stack(c.tensors(0, "tensors"), c.intOr(1, "dim", 0))) },

	// Elementwise ops with options (the plain ones are in unaryOps and binaryOps).
	"logit":  opLogit,
	"gelu":   opGelu,
	"add":    func(c *call) result { return addSub(c, tensor.Add, tensor.AddTo) },
	"sub":    func(c *call) result { return addSub(c, tensor.Sub, tensor.SubTo) },
	"add_":   func(c *call) result { return one(c.tensor(0, "input").AddInPlace(c.operand(1, "other"), alpha(c)...)) },
	"sub_":   func(c *call) result { return one(c.tensor(0, "input").SubInPlace(c.operand(1, "other"), alpha(c)...)) },
	"div":    opDiv,
	"div_":   opDivInPlace,
	"where":  opWhere,
	"clamp":  opClamp,
	"clamp_": func(c *call) result { return one(c.tensor(0, "input").ClampInPlace(clampBounds(c))) },
	"addcmul": func(c *call) result {
		t, t1, t2, v := addcArgs(c)
		if dst := c.out(); dst != nil {
			return one(tensor.AddcmulTo(dst, t, t1, t2, v...))
		}
		return one(t.Addcmul(t1, t2, v...))
	},
	"addcmul_": func(c *call) result { t, t1, t2, v := addcArgs(c); return one(t.AddcmulInPlace(t1, t2, v...)) },
	"addcdiv": func(c *call) result {
		t, t1, t2, v := addcArgs(c)
		if dst := c.out(); dst != nil {
			return one(tensor.AddcdivTo(dst, t, t1, t2, v...))
		}
		return one(t.Addcdiv(t1, t2, v...))
	},
	"addcdiv_": func(c *call) result { t, t1, t2, v := addcArgs(c); return one(t.AddcdivInPlace(t1, t2, v...)) },
	"lerp": func(c *call) result {
		t, end, w := c.tensor(0, "input"), c.tensor(1, "end"), c.operand(2, "weight")
		if dst := c.out(); dst != nil {
			return one(tensor.LerpTo(dst, t, end, w))
		}
		return one(t.Lerp(end, w))
	},
	"lerp_": func(c *call) result {
		return one(c.tensor(0, "input").LerpInPlace(c.tensor(1, "end"), c.operand(2, "weight")))
	},

	// Copies and casts.
	"to": func(c *call) result {
		dt, ok := c.dtype(1, "dtype")
		if !ok {
			panic(badf("to needs a dtype"))
		}
		return one(c.tensor(0, "input").To(dt))
	},
	"copy_":      func(c *call) result { return one(c.tensor(0, "input").CopyFrom(c.tensor(1, "src"))) },
	"fill_":      func(c *call) result { return one(c.tensor(0, "input").Fill(c.need(1, "value", argScalar).operand())) },
	"zero_":      func(c *call) result { return one(c.tensor(0, "input").Zero()) },
	"zeros_like": func(c *call) result { return one(tensor.ZerosLike(c.tensor(0, "input"))) },
	"ones_like":  func(c *call) result { return one(tensor.OnesLike(c.tensor(0, "input"))) },
	"full_like": func(c *call) result {
		return one(tensor.FullLike(c.tensor(0, "input"), c.need(1, "fill_value", argScalar).operand()))
	},
}

// unary is an elementwise op of one tensor: its function, its out= form and its in-place form.
type unary struct {
	fn      func(*tensor.Tensor) *tensor.Tensor
	to      func(dst, t *tensor.Tensor) *tensor.Tensor
	inPlace func(*tensor.Tensor) *tensor.Tensor
}

// binary is an elementwise op of two operands (each a tensor or, except
// self of the in-place form, a scalar).
type binary struct {
	fn      func(a, b *tensor.Tensor) *tensor.Tensor
	to      func(dst, a, b *tensor.Tensor) *tensor.Tensor
	inPlace func(t, other *tensor.Tensor) *tensor.Tensor
}

func init() {
	for name, u := range unaryOps {
		add(name, func(c *call) result {
			x := c.tensor(0, "input")
			if dst := c.out(); dst != nil {
				return one(u.to(dst, x))
			}
			return one(u.fn(x))
		})
		add(name+"_", func(c *call) result { return one(u.inPlace(c.tensor(0, "input"))) })
	}
	for name, b := range binaryOps {
		add(name, func(c *call) result { return b.run(c) })
		add(name+"_", func(c *call) result {
			return one(b.inPlace(c.tensor(0, "input"), c.operand(1, "other")))
		})
	}
}

// add registers an op unless ops already has a function for it (an op with options).
func add(name string, f opFunc) {
	if _, ok := ops[name]; !ok {
		ops[name] = f
	}
}

func (b binary) run(c *call) result {
	x, y := c.operand(0, "input"), c.operand(1, "other")
	if dst := c.out(); dst != nil {
		return one(b.to(dst, x, y))
	}
	return one(b.fn(x, y))
}

// opSlice is ATen's slice.Tensor(input, dim=0, start=None, end=None, step=1);
// a null start is the first element (step ≥ 1), a null end the last.
func opSlice(c *call) result {
	t, dim := c.tensor(0, "input"), c.intOr(1, "dim", 0)
	start := c.intOr(2, "start", 0)
	end, hasEnd := c.optInt(3, "end")
	step := c.intOr(4, "step", 1)
	if hasEnd {
		return one(t.Slice(dim, start, end, step))
	}
	return one(t.SliceFrom(dim, start, step))
}

func opLogit(c *call) result {
	x := c.tensor(0, "input")
	a, hasEps := c.opt(1, "eps", argScalar)
	dst := c.out()
	var eps []float64
	if hasEps {
		eps = []float64{a.float()}
	}
	if dst != nil {
		return one(tensor.LogitTo(dst, x, eps...))
	}
	return one(x.Logit(eps...))
}

func opGelu(c *call) result {
	x := c.tensor(0, "input")
	mode, _ := c.str(-1, "approximate")
	dst := c.out()
	var approx tensor.Approximate
	switch mode {
	case "", "none":
	case "tanh":
		approx = tensor.ApproxTanh
	default:
		panic(c.missing("approximate=" + mode + " (PyTorch: a value error)"))
	}
	if dst != nil {
		return one(tensor.GeluTo(dst, x, approx))
	}
	return one(x.Gelu(approx))
}

// alpha returns add's and sub's alpha: none, or the one given.
func alpha(c *call) []*tensor.Tensor { return c.optNumber(-1, "alpha") }

// addSub runs add or sub: a + alpha·b, a − alpha·b.
func addSub(c *call, fn func(a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor,
	to func(dst, a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor) result {
	a, b := c.operand(0, "input"), c.operand(1, "other")
	if dst := c.out(); dst != nil {
		return one(to(dst, a, b, alpha(c)...))
	}
	return one(fn(a, b, alpha(c)...))
}

// roundingMode reads div's rounding_mode.
func roundingMode(c *call) tensor.Rounding {
	mode, ok := c.str(-1, "rounding_mode")
	switch {
	case !ok:
		return tensor.TrueDivision
	case mode == "trunc":
		return tensor.RoundTrunc
	case mode == "floor":
		return tensor.RoundFloor
	}
	panic(c.missing("rounding_mode=" + mode + " (PyTorch: a value error)"))
}

func opDiv(c *call) result {
	a, b := c.operand(0, "input"), c.operand(1, "other")
	mode := roundingMode(c)
	if dst := c.out(); dst != nil {
		return one(tensor.DivTo(dst, a, b, mode))
	}
	return one(tensor.Div(a, b, mode))
}

func opDivInPlace(c *call) result {
	return one(c.tensor(0, "input").DivInPlace(c.operand(1, "other"), roundingMode(c)))
}

func opWhere(c *call) result {
	cond, a, b := c.tensor(0, "condition"), c.operand(1, "input"), c.operand(2, "other")
	if dst := c.out(); dst != nil {
		return one(tensor.WhereTo(dst, cond, a, b))
	}
	return one(tensor.Where(cond, a, b))
}

// clampBounds returns clamp's min and max (T or S, nil where absent).
func clampBounds(c *call) (lo, hi *tensor.Tensor) {
	return c.optOperand(1, "min"), c.optOperand(2, "max")
}

func opClamp(c *call) result {
	t := c.tensor(0, "input")
	lo, hi := clampBounds(c)
	if dst := c.out(); dst != nil {
		return one(tensor.ClampTo(dst, t, lo, hi))
	}
	return one(t.Clamp(lo, hi))
}

// addcArgs returns addcmul's and addcdiv's input, tensor1, tensor2 and
// value (none, or the one given).
func addcArgs(c *call) (t, t1, t2 *tensor.Tensor, value []*tensor.Tensor) {
	return c.tensor(0, "input"), c.tensor(1, "tensor1"), c.tensor(2, "tensor2"), c.optNumber(-1, "value")
}

// runOp dispatches one op.
func runOp(c *call) result {
	table := ops
	if c.hasNested() {
		table = nestedOps
	}
	f, ok := table[c.op]
	if !ok {
		if strings.HasSuffix(c.op, "_") {
			panic(missingf("in-place op %s", c.op))
		}
		if c.hasNested() {
			panic(missingf("op %s of nested tensors", c.op))
		}
		panic(missingf("op %s", c.op))
	}
	return f(c)
}
