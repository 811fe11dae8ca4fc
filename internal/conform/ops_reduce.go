package conform

import (
	"github.com/goten-ml/goten/tensor"
)

// The reductions of OPS.md (suite reductions).
func init() {
	add("sum", func(c *call) result {
		t, o := c.tensor(0, "input"), reduceOpt(c, true)
		if dst := c.out(); dst != nil {
			return one(tensor.SumTo(dst, t, o))
		}
		return one(t.SumOpt(o))
	})
	add("nansum", func(c *call) result { return one(c.tensor(0, "input").NanSum(reduceOpt(c, true))) })
	add("prod", func(c *call) result { return one(c.tensor(0, "input").ProdOpt(reduceOpt(c, true))) })
	add("mean", func(c *call) result { return one(c.tensor(0, "input").Mean(reduceOpt(c, true))) })
	add("amax", func(c *call) result {
		t, o := c.tensor(0, "input"), reduceOpt(c, false)
		if dst := c.out(); dst != nil {
			return one(tensor.AmaxTo(dst, t, o))
		}
		return one(t.Amax(o))
	})
	add("amin", func(c *call) result {
		t, o := c.tensor(0, "input"), reduceOpt(c, false)
		if dst := c.out(); dst != nil {
			return one(tensor.AminTo(dst, t, o))
		}
		return one(t.Amin(o))
	})
	add("max", func(c *call) result { return maxMin(c, (*tensor.Tensor).Max, (*tensor.Tensor).MaxDim) })
	add("min", func(c *call) result { return maxMin(c, (*tensor.Tensor).Min, (*tensor.Tensor).MinDim) })
	add("argmax", func(c *call) result { return argIndex(c, (*tensor.Tensor).ArgMax, (*tensor.Tensor).ArgMaxDim) })
	add("argmin", func(c *call) result { return argIndex(c, (*tensor.Tensor).ArgMin, (*tensor.Tensor).ArgMinDim) })
	add("var", func(c *call) result { t, o, corr := varArgs(c); return one(t.Var(o, corr)) })
	add("std", func(c *call) result { t, o, corr := varArgs(c); return one(t.Std(o, corr)) })
	add("norm", opNorm)
	add("logsumexp", func(c *call) result { return one(c.tensor(0, "input").LogSumExp(reduceOpt(c, false))) })
	add("all", func(c *call) result { return one(c.tensor(0, "input").All(reduceOpt(c, false))) })
	add("any", func(c *call) result { return one(c.tensor(0, "input").Any(reduceOpt(c, false))) })
	add("count_nonzero", func(c *call) result {
		dims, _ := c.dims(1, "dim")
		return one(c.tensor(0, "input").CountNonzero(dims...))
	})
}

// reduceOpt reads a reduction's dim (int|ints), keepdim and, when withDType, dtype.
func reduceOpt(c *call, withDType bool) tensor.ReduceOpt {
	var o tensor.ReduceOpt
	o.Dims, _ = c.dims(1, "dim")
	o.KeepDim = c.flag(2, "keepdim", false)
	if withDType {
		if dt, ok := c.dtype(-1, "dtype"); ok {
			o.DType = dt
		}
	}
	return o
}

// maxMin runs max/min: of all elements, or along a dim with indices.
func maxMin(c *call, all func(*tensor.Tensor) *tensor.Tensor, along func(*tensor.Tensor, int, bool) (*tensor.Tensor, *tensor.Tensor)) result {
	t := c.tensor(0, "input")
	d, ok := c.optInt(1, "dim")
	if !ok {
		return one(all(t))
	}
	v, i := along(t, d, c.flag(2, "keepdim", false))
	return many([]*tensor.Tensor{v, i})
}

// argIndex runs argmax/argmin: of the flattened tensor, or along a dim.
func argIndex(c *call, all func(*tensor.Tensor) *tensor.Tensor, along func(*tensor.Tensor, int, bool) *tensor.Tensor) result {
	t := c.tensor(0, "input")
	d, ok := c.optInt(1, "dim")
	keep := c.flag(2, "keepdim", false)
	if !ok {
		if keep {
			panic(c.missing("keepdim without dim"))
		}
		return one(all(t))
	}
	return one(along(t, d, keep))
}

// varArgs reads var/std's two signatures: (input, dim, unbiased, keepdim,
// *, correction, keepdim) and (input, unbiased).
func varArgs(c *call) (*tensor.Tensor, tensor.ReduceOpt, int) {
	t := c.tensor(0, "input")
	var o tensor.ReduceOpt
	corr := 1
	a, ok := c.get(1, "dim")
	switch {
	case ok && a.kind == argBool:
		if !a.b {
			corr = 0
		}
		return t, o, corr
	case ok && a.kind == argInt:
		o.Dims = []int{a.i}
	case ok && a.kind == argInts:
		o.Dims = a.ints
	case ok:
		panic(badf("%s: dim is a %v", c.op, a.kind))
	}
	if u, ok := c.opt(2, "unbiased", argBool); ok && !u.b {
		corr = 0
	}
	o.KeepDim = c.flag(3, "keepdim", false)
	if v, ok := c.optInt(-1, "correction"); ok {
		corr = v
	}
	return t, o, corr
}

// opNorm is torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None).
func opNorm(c *call) result {
	t := c.tensor(0, "input")
	p := 2.0
	if a, ok := c.opt(1, "p", argScalar, argString); ok {
		switch {
		case a.kind == argScalar:
			p = a.float()
		case a.s == "fro":
		default:
			panic(c.missing("p=" + a.s))
		}
	}
	var o tensor.ReduceOpt
	o.Dims, _ = c.dims(2, "dim")
	o.KeepDim = c.flag(3, "keepdim", false)
	if dt, ok := c.dtype(-1, "dtype"); ok {
		o.DType = dt
	}
	return one(t.Norm(p, o))
}
