package optable

// The ops that move elements between positions other than their own:
// indexing (kinds Index, Gather, Mask), sorting and searching (Sort), and
// the random fills (Random). Their kernels are written by hand in every
// backend, so a declaration here gives the op's name, kind, direction
// (Put), how a written value merges with the old one (Combine) and the
// dtypes it runs in; the plans and arguments each kind's kernel receives
// are in package kernel (Note [Index plans], Note [Gather plans], Note
// [Mask plans], Note [Sort plans], Note [Random streams]). Their API is
// written by hand (package tensor), since their arguments — dims, index
// tensors, k, reduction modes — fit no generated form.

// indexing declares an op of kind k named name (Go name goName).
func indexing(k Kind, name, goName, doc string, o Op) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.ManualAPI = name, goName, doc, k, true
	return def(&o)
}

// The index ops: the advanced indexing of index (x[i, j]) and index_put
// (x[i, j] = v, or += with accumulate). index_select, take, put,
// index_add, index_copy, index_fill and the bool masks of x[m] reach them
// through the op layer.
var (
	IndexGet    = indexing(Index, "index", "Index", "the elements of x at the positions the index tensors give", Op{Arity: 2})
	IndexPut    = indexing(Index, "index_put", "IndexPut", "x with the values written at the positions the index tensors give", Op{Arity: 2, Put: true})
	IndexPutAdd = indexing(Index, "index_put", "IndexPutAdd", "x with alpha·values added at the positions the index tensors give (duplicates add up)",
		Op{Arity: 2, Put: true, Combine: Add, Internal: true})
)

// The gather ops: along one dim, at the positions an index tensor of the
// input's rank gives. scatter_reduce's mean, bincount, histc and one_hot
// reach them through the op layer.
var (
	GatherOp    = indexing(Gather, "gather", "Gather", "x's elements along the dim at the positions the index gives", Op{Arity: 2})
	Scatter     = indexing(Gather, "scatter", "Scatter", "x with src written along the dim at the positions the index gives", Op{Arity: 2, Put: true})
	ScatterAdd  = indexing(Gather, "scatter_add", "ScatterAdd", "x with src added along the dim at the positions the index gives", Op{Arity: 2, Put: true, Combine: Add})
	ScatterMul  = indexing(Gather, "scatter", "ScatterMul", "x multiplied by src along the dim at the positions the index gives", Op{Arity: 2, Put: true, Combine: Mul, Internal: true})
	ScatterAmax = indexing(Gather, "scatter_reduce", "ScatterAmax", "the larger of x and src along the dim at the positions the index gives (NaN if either is)",
		Op{Arity: 2, Put: true, Combine: Maximum, Internal: true})
	ScatterAmin = indexing(Gather, "scatter_reduce", "ScatterAmin", "the smaller of x and src along the dim at the positions the index gives (NaN if either is)",
		Op{Arity: 2, Put: true, Combine: Minimum, Internal: true})
)

// The mask ops: masked_select packs the elements a bool mask selects, in
// row-major order; masked_scatter unpacks a source into them; nonzero
// packs the coordinates of the nonzero elements.
var (
	MaskedSelect  = indexing(Mask, "masked_select", "MaskedSelect", "the elements of x where mask is true, in row-major order", Op{Arity: 2})
	MaskedScatter = indexing(Mask, "masked_scatter", "MaskedScatter", "x with source's elements written in row-major order where mask is true", Op{Arity: 2, Put: true})
	Nonzero       = indexing(Mask, "nonzero", "Nonzero", "the coordinates of x's nonzero elements, in row-major order", Op{Arity: 1})
)

// The sort ops, each along one dim of its input (Note [Sort plans] in
// package kernel). NaN sorts above +Inf, and -0 equals +0.
var (
	SortOp = indexing(Sort, "sort", "Sort", "x sorted along the dim and the int64 indices that sort it", Op{Arity: 1, Outputs: 2, Kernel: "sort_{dev}"})
	TopK   = indexing(Sort, "topk", "TopK", "the k largest (or smallest) elements along the dim, sorted, and their indices",
		Op{Arity: 1, Outputs: 2, Accepts: Numbers, Kernel: "topk_{dev}"})
	KthValue = indexing(Sort, "kthvalue", "KthValue", "the k-th smallest element along the dim and its index",
		Op{Arity: 1, Outputs: 2, Accepts: Numbers, Kernel: "kthvalue_{dev}"})
	Median = indexing(Sort, "median", "Median", "the lower median along the dim and its index (NaN if the row has one)",
		Op{Arity: 1, Outputs: 2, Accepts: Numbers, Kernel: "median_{dev}"})
	NanMedian = indexing(Sort, "nanmedian", "NanMedian", "the lower median of the numbers along the dim and its index (NaN if the row has none)",
		Op{Arity: 1, Outputs: 2, Accepts: Numbers, Kernel: "median_{dev}"})
	SearchSorted = indexing(Sort, "searchsorted", "SearchSorted", "where each value would be inserted in the sorted row",
		Op{Arity: 2, Accepts: Numbers, Kernel: "searchsorted_out_{dev}"})
)

// The random fills (Note [Random streams] in package kernel).
var (
	Uniform   = indexing(Random, "uniform_", "Uniform", "values uniform in [low, high)", Op{Arity: 0, Accepts: Floats, Kernel: "check_uniform_bounds"})
	Normal    = indexing(Random, "normal_", "Normal", "normal values of mean and std", Op{Arity: 0, Accepts: Floats, Kernel: "normal_kernel_{dev}"})
	Bernoulli = indexing(Random, "bernoulli_", "Bernoulli", "1 with probability p, else 0", Op{Arity: 1, Accepts: AnyDType})
	RandInt   = indexing(Random, "random_", "RandInt", "integers uniform in [low, high)", Op{Arity: 0, Accepts: Numbers, Kernel: "random_from_to_range_calc"})
)
