package conform

import (
	"github.com/goten-ml/goten/tensor"
)

// The indexing and sorting ops (suites indexing and sorting), with
// PyTorch's signatures (OPS.md).
func init() {
	for name, f := range map[string]opFunc{
		"index_select": func(c *call) result {
			return one(tensor.IndexSelect(c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index")))
		},
		"gather": func(c *call) result {
			return one(tensor.Gather(c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index")))
		},
		"scatter":         func(c *call) result { return opScatter(c, false) },
		"scatter_":        func(c *call) result { return opScatter(c, true) },
		"scatter_add":     func(c *call) result { t, d, i, s := scatterArgs(c); return one(tensor.ScatterAdd(t, d, i, s)) },
		"scatter_add_":    func(c *call) result { t, d, i, s := scatterArgs(c); return one(t.ScatterAddInPlace(d, i, s)) },
		"scatter_reduce":  func(c *call) result { return opScatterReduce(c, false) },
		"scatter_reduce_": func(c *call) result { return opScatterReduce(c, true) },
		"index_add":       func(c *call) result { t, d, i, s := indexArgs(c); return one(tensor.IndexAdd(t, d, i, s, alpha(c)...)) },
		"index_add_":      func(c *call) result { t, d, i, s := indexArgs(c); return one(t.IndexAddInPlace(d, i, s, alpha(c)...)) },
		"index_copy":      func(c *call) result { t, d, i, s := indexArgs(c); return one(tensor.IndexCopy(t, d, i, s)) },
		"index_copy_":     func(c *call) result { t, d, i, s := indexArgs(c); return one(t.IndexCopyInPlace(d, i, s)) },
		"index_fill":      func(c *call) result { t, d, i, v := indexFillArgs(c); return one(tensor.IndexFill(t, d, i, v)) },
		"index_fill_":     func(c *call) result { t, d, i, v := indexFillArgs(c); return one(t.IndexFillInPlace(d, i, v)) },
		"masked_fill":     func(c *call) result { t, m, v := maskedFillArgs(c); return one(tensor.MaskedFill(t, m, v)) },
		"masked_fill_":    func(c *call) result { t, m, v := maskedFillArgs(c); return one(t.MaskedFillInPlace(m, v)) },
		"masked_select":   func(c *call) result { return one(tensor.MaskedSelect(c.tensor(0, "input"), c.tensor(1, "mask"))) },
		"masked_scatter":  func(c *call) result { t, m, s := maskedScatterArgs(c); return one(tensor.MaskedScatter(t, m, s)) },
		"masked_scatter_": func(c *call) result { t, m, s := maskedScatterArgs(c); return one(t.MaskedScatterInPlace(m, s)) },
		"take":            func(c *call) result { return one(tensor.Take(c.tensor(0, "input"), c.tensor(1, "index"))) },
		"put":             func(c *call) result { t, i, s, acc := putArgs(c); return one(tensor.Put(t, i, s, acc)) },
		"put_":            func(c *call) result { t, i, s, acc := putArgs(c); return one(t.PutInPlace(i, s, acc)) },
		"index":           func(c *call) result { return one(c.tensor(0, "input").Index(c.need(1, "index", argIndex).idx...)) },
		"index_put":       func(c *call) result { t, its, v, acc := indexPutArgs(c); return one(tensor.IndexPut(t, its, v, acc)) },
		"index_put_":      func(c *call) result { t, its, v, acc := indexPutArgs(c); return one(t.IndexPutInPlace(its, v, acc)) },
		"nonzero":         opNonzero,
		"sort":            opSort,
		"argsort":         opArgsort,
		"topk":            opTopK,
		"kthvalue":        opKthValue,
		"median":          func(c *call) result { return opMedian(c, false) },
		"nanmedian":       func(c *call) result { return opMedian(c, true) },
		"msort":           func(c *call) result { return one(tensor.Msort(c.tensor(0, "input"))) },
		"unique":          opUnique,
		"searchsorted":    opSearchSorted,
		"bincount":        opBincount,
		"histc":           opHistc,
		"embedding":       func(c *call) result { return one(tensor.Embedding(c.tensor(0, "input"), c.tensor(1, "weight"))) },
	} {
		add(name, f)
	}
}

func scatterArgs(c *call) (*tensor.Tensor, int, *tensor.Tensor, *tensor.Tensor) {
	return c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index"), c.operand(3, "src")
}

func opScatter(c *call, inPlace bool) result {
	t, dim, index, src := scatterArgs(c)
	var reduce []tensor.Reduction
	if mode, ok := c.str(-1, "reduce"); ok {
		switch mode {
		case "add":
			reduce = []tensor.Reduction{tensor.ReduceSum}
		case "multiply":
			reduce = []tensor.Reduction{tensor.ReduceProd}
		default:
			reduce = []tensor.Reduction{tensor.ReduceMean} // refused by scatter, as PyTorch refuses the string
		}
	}
	if inPlace {
		return one(t.ScatterInPlace(dim, index, src, reduce...))
	}
	return one(tensor.Scatter(t, dim, index, src, reduce...))
}

func opScatterReduce(c *call, inPlace bool) result {
	t, dim, index, src := c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index"), c.tensor(3, "src")
	mode, _ := c.str(4, "reduce")
	r, ok := map[string]tensor.Reduction{"sum": tensor.ReduceSum, "prod": tensor.ReduceProd, "mean": tensor.ReduceMean,
		"amax": tensor.ReduceAmax, "amin": tensor.ReduceAmin}[mode]
	if !ok {
		r = tensor.Reduction(255) // refused by scatter_reduce
	}
	self := c.flag(-1, "include_self", true)
	if inPlace {
		return one(t.ScatterReduceInPlace(dim, index, src, r, self))
	}
	return one(tensor.ScatterReduce(t, dim, index, src, r, self))
}

func indexArgs(c *call) (*tensor.Tensor, int, *tensor.Tensor, *tensor.Tensor) {
	return c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index"), c.tensor(3, "source")
}

func indexFillArgs(c *call) (*tensor.Tensor, int, *tensor.Tensor, *tensor.Tensor) {
	return c.tensor(0, "input"), c.intArg(1, "dim"), c.tensor(2, "index"), c.operand(3, "value")
}

func maskedFillArgs(c *call) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	return c.tensor(0, "input"), c.tensor(1, "mask"), c.operand(2, "value")
}

func maskedScatterArgs(c *call) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	return c.tensor(0, "input"), c.tensor(1, "mask"), c.tensor(2, "source")
}

func putArgs(c *call) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, bool) {
	return c.tensor(0, "input"), c.tensor(1, "index"), c.tensor(2, "source"), c.flag(3, "accumulate", false)
}

func indexPutArgs(c *call) (*tensor.Tensor, []tensor.Item, *tensor.Tensor, bool) {
	var its []tensor.Item
	for _, t := range c.tensors(1, "indices") {
		its = append(its, tensor.Idx(t))
	}
	return c.tensor(0, "input"), its, c.tensor(2, "values"), c.flag(3, "accumulate", false)
}

func opNonzero(c *call) result {
	if c.flag(-1, "as_tuple", false) {
		panic(c.missing("as_tuple=True"))
	}
	return one(tensor.Nonzero(c.tensor(0, "input")))
}

// sortArgs reads sort's and argsort's dim, descending and stable (which
// changes nothing: goten's sorts are stable).
func sortArgs(c *call) (*tensor.Tensor, int, bool) {
	t := c.tensor(0, "input")
	dim := c.intOr(1, "dim", -1)
	desc := c.flag(2, "descending", false)
	c.flag(-1, "stable", false)
	return t, dim, desc
}

func opSort(c *call) result {
	t, dim, desc := sortArgs(c)
	v, i := tensor.Sort(t, dim, desc)
	return many([]*tensor.Tensor{v, i})
}

func opArgsort(c *call) result {
	t, dim, desc := sortArgs(c)
	return one(tensor.Argsort(t, dim, desc))
}

func opTopK(c *call) result {
	t, k := c.tensor(0, "input"), c.intArg(1, "k")
	dim := c.intOr(2, "dim", -1)
	largest := c.flag(3, "largest", true)
	c.flag(4, "sorted", true) // goten's topk is always sorted
	v, i := tensor.TopK(t, k, dim, largest)
	return many([]*tensor.Tensor{v, i})
}

func opKthValue(c *call) result {
	t, k := c.tensor(0, "input"), c.intArg(1, "k")
	v, i := tensor.KthValue(t, k, c.intOr(2, "dim", -1), c.flag(3, "keepdim", false))
	return many([]*tensor.Tensor{v, i})
}

func opMedian(c *call, nan bool) result {
	t := c.tensor(0, "input")
	dim, ok := c.optInt(1, "dim")
	keep := c.flag(2, "keepdim", false)
	if !ok {
		if nan {
			return one(tensor.NanMedian(t))
		}
		return one(tensor.Median(t))
	}
	var v, i *tensor.Tensor
	if nan {
		v, i = tensor.NanMedianDim(t, dim, keep)
	} else {
		v, i = tensor.MedianDim(t, dim, keep)
	}
	return many([]*tensor.Tensor{v, i})
}

func opUnique(c *call) result {
	t := c.tensor(0, "input")
	if !c.flag(-1, "sorted", true) {
		panic(c.missing("sorted=False"))
	}
	inv, counts := c.flag(-1, "return_inverse", false), c.flag(-1, "return_counts", false)
	var u, i, n *tensor.Tensor
	if dim, ok := c.optInt(-1, "dim"); ok {
		u, i, n = tensor.UniqueDim(t, dim)
	} else {
		u, i, n = tensor.Unique(t)
	}
	if !inv && !counts {
		return one(u)
	}
	r := []*tensor.Tensor{u}
	if inv {
		r = append(r, i)
	}
	if counts {
		r = append(r, n)
	}
	return many(r)
}

func opSearchSorted(c *call) result {
	seq, values := c.tensor(0, "sorted_sequence"), c.operand(1, "input")
	var o tensor.SearchOptions
	o.Int32 = c.flag(-1, "out_int32", false)
	o.Right = c.flag(-1, "right", false)
	if side, ok := c.str(-1, "side"); ok {
		switch side {
		case "right":
			o.Right = true
		case "left":
			if o.Right {
				panic(badf("searchsorted: side=left with right=True"))
			}
		default:
			panic(c.missing("side=" + side))
		}
	}
	if a, ok := c.opt(-1, "sorter", argTensor); ok {
		o.Sorter = a.t
	}
	return one(tensor.SearchSorted(seq, values, o))
}

func opBincount(c *call) result {
	t := c.tensor(0, "input")
	var w *tensor.Tensor
	if a, ok := c.opt(1, "weights", argTensor); ok {
		w = a.t
	}
	return one(tensor.Bincount(t, w, c.intOr(2, "minlength", 0)))
}

func opHistc(c *call) result {
	t := c.tensor(0, "input")
	bins := c.intOr(1, "bins", 100)
	lo, hi := 0.0, 0.0
	if a, ok := c.opt(2, "min", argScalar); ok {
		lo = a.float()
	}
	if a, ok := c.opt(3, "max", argScalar); ok {
		hi = a.float()
	}
	return one(tensor.Histc(t, bins, lo, hi))
}
