package conform

import (
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// nestedOps maps the op names of OPS.md's nested section to the functions
// that run them when an argument is a nested tensor (runOp's choice); the
// ops that make nested tensors from dense ones (nested_tensor, from_padded)
// are in ops.
var nestedOps = map[string]opFunc{
	"softmax":     func(c *call) result { return oneNested(nested.Softmax(c.nested(0, "input"), c.intArg(1, "dim"))) },
	"log_softmax": func(c *call) result { return oneNested(nested.LogSoftmax(c.nested(0, "input"), c.intArg(1, "dim"))) },
	"layer_norm": func(c *call) result {
		x := c.nested(0, "input")
		shape := c.intsArg(1, "normalized_shape")
		eps := 1e-5
		if a, ok := c.opt(4, "eps", argScalar); ok {
			eps = a.float()
		}
		return oneNested(nested.LayerNorm(x, shape, c.optTensor(2, "weight"), c.optTensor(3, "bias"), eps))
	},
	"matmul": func(c *call) result {
		a := c.nested(0, "input")
		o := c.need(1, "other", argNested, argTensor)
		if o.kind == argNested {
			return oneNested(nested.Matmul(a, o.n))
		}
		return oneNested(nested.MatmulDense(a, o.t))
	},
	"bmm": func(c *call) result { return oneNested(nested.Bmm(c.nested(0, "input"), c.nested(1, "mat2"))) },
	"linear": func(c *call) result {
		return oneNested(nested.Linear(c.nested(0, "input"), c.tensor(1, "weight"), c.optTensor(2, "bias")))
	},
	"transpose": func(c *call) result {
		return oneNested(nested.Transpose(c.nested(0, "input"), c.intArg(1, "dim0"), c.intArg(2, "dim1")))
	},
	"scaled_dot_product_attention": func(c *call) result {
		return oneNested(nested.Attention(c.nested(0, "query"), c.nested(1, "key"), c.nested(2, "value"),
			c.flag(-1, "is_causal", false)))
	},
	"embedding": func(c *call) result {
		return oneNested(nested.Embedding(c.nested(0, "input"), c.tensor(1, "weight")))
	},
	"to": func(c *call) result {
		dt, ok := c.dtype(1, "dtype")
		if !ok {
			panic(badf("to needs a dtype"))
		}
		return oneNested(nested.To(c.nested(0, "input"), dt))
	},
	"clone":      func(c *call) result { return oneNested(nested.Clone(c.nested(0, "input"))) },
	"zeros_like": func(c *call) result { return oneNested(nested.ZerosLike(c.nested(0, "input"))) },
	"ones_like":  func(c *call) result { return oneNested(nested.OnesLike(c.nested(0, "input"))) },
	"full_like": func(c *call) result {
		return oneNested(nested.FullLike(c.nested(0, "input"), c.need(1, "fill_value", argScalar).operand()))
	},
	"clamp": func(c *call) result {
		lo, hi := clampBounds(c)
		return oneNested(nested.Clamp(c.nested(0, "input"), lo, hi))
	},
	"where": func(c *call) result {
		return oneNested(nested.Where(c.nested(0, "condition"), c.nested(1, "input"), c.nested(2, "other")))
	},
	"to_padded_tensor": func(c *call) result {
		x := c.nested(0, "input")
		pad := c.need(1, "padding", argScalar).operand()
		var size []int
		if a, ok := c.opt(2, "output_size", argInts); ok {
			size = a.ints
		}
		return one(nested.ToPadded(x, pad, size))
	},
	"unbind":       func(c *call) result { return many(c.nested(0, "input").Unbind()) },
	"nested_sizes": func(c *call) result { return one(c.nested(0, "input").Sizes()) },
	// the reference's metadata are those of the packed layout, whatever
	// the layout its components (and so goten's inputs) have
	"nested_strides": func(c *call) result { return one(packed(c.nested(0, "input")).Strides()) },
	"nested_offsets": func(c *call) result { return one(packed(c.nested(0, "input")).Offsets()) },
	"logit": func(c *call) result {
		var eps []float64
		if a, ok := c.opt(1, "eps", argScalar); ok {
			eps = []float64{a.float()}
		}
		return nestedUnary(c, func(x *tensor.Tensor) *tensor.Tensor { return x.Logit(eps...) })
	},
	"gelu": func(c *call) result {
		mode, _ := c.str(-1, "approximate")
		approx := tensor.Approximate(0)
		if mode == "tanh" {
			approx = tensor.ApproxTanh
		} else if mode != "" && mode != "none" {
			panic(c.missing("approximate=" + mode + " (PyTorch: a value error)"))
		}
		return nestedUnary(c, func(x *tensor.Tensor) *tensor.Tensor { return x.Gelu(approx) })
	},
	"add": func(c *call) result {
		al := alpha(c)
		return nestedBinary(c, func(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Add(a, b, al...) })
	},
	"sub": func(c *call) result {
		al := alpha(c)
		return nestedBinary(c, func(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Sub(a, b, al...) })
	},
	"div": func(c *call) result {
		mode := roundingMode(c)
		return nestedBinary(c, func(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Div(a, b, mode) })
	},
}

func init() {
	for name, u := range unaryOps {
		addNested(name, func(c *call) result { return nestedUnary(c, u.fn) })
	}
	for name, b := range binaryOps {
		addNested(name, func(c *call) result { return nestedBinary(c, b.fn) })
	}
	for _, name := range []string{"sum", "mean", "amax", "amin", "prod", "logsumexp"} {
		r := reductions[name]
		addNested(name, func(c *call) result {
			x := c.nested(0, "input")
			dim := c.intArg(1, "dim")
			return oneNested(nested.Reduce(name, r.fn, x, dim, c.flag(2, "keepdim", false)))
		})
	}
	add("nested_tensor", func(c *call) result {
		ts := c.tensors(0, "tensor_list")
		dt := tensor.Float32
		if len(ts) > 0 {
			dt = ts[0].DType()
		}
		return oneNested(nested.New(ts, dt))
	})
	add("from_padded", func(c *call) result {
		return oneNested(nested.FromPadded(c.tensor(0, "padded"), c.tensor(1, "sizes")))
	})
}

// addNested registers a nested op unless nestedOps has one for it.
func addNested(name string, f opFunc) {
	if _, ok := nestedOps[name]; !ok {
		nestedOps[name] = f
	}
}

// nested returns a nested-tensor parameter.
func (c *call) nested(i int, name string) *nested.Tensor { return c.need(i, name, argNested).n }

// optTensor returns an optional T parameter, nil when absent.
func (c *call) optTensor(i int, name string) *tensor.Tensor {
	if a, ok := c.opt(i, name, argTensor); ok {
		return a.t
	}
	return nil
}

// hasNested reports whether an argument of c is a nested tensor.
func (c *call) hasNested() bool {
	for _, a := range c.args {
		if a.kind == argNested {
			return true
		}
	}
	for _, a := range c.kwargs {
		if a.kind == argNested {
			return true
		}
	}
	return false
}

func nestedUnary(c *call, f nested.UnaryFunc) result {
	if c.out() != nil {
		panic(c.missing("out= of a nested op"))
	}
	return oneNested(nested.Unary(f, c.nested(0, "input")))
}

// nestedBinary runs an elementwise op of two operands, one of them nested
// at least: nested ⊕ nested, nested ⊕ dense or scalar, dense or scalar ⊕ nested.
func nestedBinary(c *call, f nested.BinaryFunc) result {
	if c.out() != nil {
		panic(c.missing("out= of a nested op"))
	}
	a := c.need(0, "input", argNested, argTensor, argScalar)
	b := c.need(1, "other", argNested, argTensor, argScalar)
	dense := func(x arg) *tensor.Tensor {
		if x.kind == argScalar {
			return x.operand()
		}
		return x.t
	}
	switch {
	case a.kind == argNested && b.kind == argNested:
		return oneNested(nested.Binary(c.op, f, a.n, b.n))
	case a.kind == argNested:
		return oneNested(nested.BinaryDense(f, a.n, dense(b)))
	}
	return oneNested(nested.DenseBinary(f, dense(a), b.n))
}

// packed returns t packed: t itself, or a packed copy.
func packed(t *nested.Tensor) *nested.Tensor {
	if t.IsPacked() {
		return t
	}
	return nested.Clone(t)
}
