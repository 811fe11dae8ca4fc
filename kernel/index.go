package kernel

// The plans of the ops that move elements to positions other than their
// own (kinds Index, Gather, Mask), of the sorts (Sort) and of the random
// fills (Random). As everywhere in this package, operands are storages,
// byte offsets and byte strides; positions that an index names are turned
// into byte offsets by the backend, which checks them.
//
// Note [Index plans]
//
// An index plan is PyTorch's for index and index_put: an iterator plan over
// the shape of an advanced index's result, operand 0 written, operand 1
// read, operands 2.. the index tensors (int64), all of the plan's shape
// (the index tensors broadcast, with stride 0 on the dims they do not
// vary). One operand is the indexed one: operand 1 (the source) of
// IndexGet, operand 0 (the destination) of the Put ops. It is restrided:
// on the dims the index tensors replace it has byte stride 0, so at plan
// position p it stands at its element of index 0 on those dims, and the
// element p reads or writes lies Σ_k i_k(p)·IndexStrides[k] bytes further,
// where i_k(p) is index operand k's value at p, counted from the end of its
// dim when negative. Every i_k(p) must lie in [-IndexSizes[k],
// IndexSizes[k]) ([0, IndexSizes[k]) with NoWrap); one that does not is an
// errs.Index error "index %d is out of bounds for dimension %d with size
// %d" (the dim IndexDims[k]).
//
//   - IndexGet: out(p) = src at that element.
//   - IndexPut: dst at that element = values(p).
//   - IndexPutAdd (Combine Add): dst at that element += alpha·values(p),
//     alpha AlphaF or AlphaI by the dtype; duplicates add up.
//
// Operands 0 and 1 have the same dtype, the plan's common dtype; values are
// moved, not converted, and IndexPutAdd computes in the loop dtype
// ([LoopDType]), rounding at each write, as PyTorch does. A Put op checks
// every index before it writes anything, so an error leaves the
// destination unchanged. Plan positions that write one element differ only
// on the destination's stride-0 dims, which a backend walks in plan order
// on one worker: duplicates accumulate in a fixed order, and for IndexPut
// the last one in plan order wins.
//
// Note [Gather plans]
//
// A gather plan is a row plan (Note [Row plans]) along Args.Dim over the
// index's shape: operand 0 is written, operand 1 is the index (int64) and
// operand 2 is read. The indexed operand — operand 2 (self) of Gather,
// operand 0 (self) of the Put ops — has the index's sizes but along the
// dim, where its View has its own size n; the other one (Gather's output,
// the Put ops' src) has the index's shape (src keeps its own strides, so a
// larger src contributes its leading part). Along a row, for t below the
// index's length and j = index(t), which must lie in [0, n) (no negative
// indices; else an errs.Index error as for index plans, dim Args.Dim):
//
//   - Gather: out(t) = self(j).
//   - Scatter: self(j) = src(t).
//   - Combine c (ScatterAdd, ScatterMul, ScatterAmax, ScatterAmin):
//     self(j) = c(self(j), src(t)).
//
// Operands 0 and 2 have the plan's common dtype; a combine computes in the
// loop dtype and rounds at each write. Rows write disjoint elements (the
// op layer refuses a self with overlapping elements), so rows may run in
// any order; within a row the writes happen in t order, so duplicates
// combine in a fixed order and the last Scatter wins. A Put op checks
// every index before it writes anything.
//
// Note [Mask plans]
//
// A mask plan walks the operands' (broadcast) shape in plan order: for
// MaskedSelect and Nonzero the plan keeps row-major order
// (iter.Config.EnforceLinearIteration), and MaskedScatter fills self in
// the order the iterator chose, its memory order, as PyTorch's does. Each
// op packs or unpacks the selected positions, in that order, to or from a
// packed operand, which is
// restrided with byte stride 0 on every plan dim: its plan Offset is the
// packed tensor's first element, and its element k lies k·Packed[0]
// elements further (plus m·Packed[1] for column m of Nonzero), for k below
// PackedLen.
//
//   - MaskedSelect: operand 0 the packed output [n], 1 src, 2 the bool
//     mask: out[k] = src(i) for the k-th position i where mask(i).
//   - MaskedScatter: operand 0 self (written where the mask is true), 1
//     the packed source (1-D, at least n elements), 2 the bool mask:
//     self(i) = source[k] for the k-th position i where mask(i).
//   - Nonzero: operand 0 the packed int64 output [n, d], 1 x: row k of out
//     holds the coordinates, over the d dims of x's View (the row-major
//     unravelling of position i), of the k-th position where x is nonzero
//     (NaN is nonzero, -0 is zero).
//
// n is the number of selected positions, which the op layer counts first
// (CountNonzero) to allocate the packed operand; a mask that selects more
// than PackedLen positions is an errs.Shape error. Values are moved, not
// converted: operands 0 and 1 of MaskedSelect and MaskedScatter have the
// same dtype.
//
// Note [Sort plans]
//
// A sort plan is a row plan along Args.Dim (Note [Row plans]), outputs
// first. The order is ascending with NaN above +Inf (NaNs equal one
// another) and -0 equal to +0, reversed by Descending; every op breaks
// ties by the input's order (stable), Descending too, so that all backends
// agree.
//
//   - SortOp: values and int64 indices rows of the input's length n.
//   - TopK: rows of length K: the first K of the order (Descending gives
//     the largest), 0 ≤ K ≤ n.
//   - KthValue: rows of length 1: element K-1 of the ascending order,
//     1 ≤ K ≤ n.
//   - Median: rows of length 1: the first NaN of the row if it has one,
//     else element ⌊(n-1)/2⌋ of the ascending order.
//   - NanMedian: as Median over the row's numbers (m of them): element
//     ⌊(m-1)/2⌋; a row of NaNs only gives its first NaN.
//   - SearchSorted: one output row (int64 or int32) of the values' length,
//     then two inputs: the sorted sequence's row (length m) and the
//     values' row. Each output is the binary search's insertion point
//     (PyTorch's): the first s in [0, m] such that !(seq[s] < v) holds for
//     all later ones — found by bisection with the test !(seq[mid] >= v)
//     (with Right, !(seq[mid] > v)) moving the start past mid.
//
// Values rows have the input's dtype, the plan's common dtype: nothing is
// converted.
//
// Note [Random streams]
//
// A random plan fills operand 0 (Bernoulli reads its probabilities from
// operand 1, float64, of the same shape) in row-major order
// (iter.Config.EnforceLinearIteration). The element at row-major position
// i draws the four 32-bit words of Philox4x32-10 with key Seed and counter
// Offset + i (elem.Philox), and turns them into its value by the
// functions of package optable/elem (elem.UniformOf, elem.NormalOf,
// elem.BernoulliOf, elem.RandIntOf). Each element depends only on the
// seed, the counter and the op's arguments: the stream is the same for any
// number of workers and any split, and a backend that computes it in
// another order computes the same values.
