// Package tensor is goten's user API: strided tensors of ten dtypes, their
// constructors, views and ops, with PyTorch 1.13's semantics.
//
// A [Tensor] is a strided view of a storage. Ops build a plan with the
// TensorIterator (package iter), which broadcasts, promotes, checks memory
// overlap, reorders and coalesces dims, and runs the kernels of the
// backend of the tensors' device over it.
//
// # Naming
//
// The API of every elementwise op, reduction, scan and softmax is
// generated from the op table (package optable), so one rule spells each
// concept, without exceptions:
//
//	concept                    spelling                                         example
//	elementwise op             a function, and a method on its first input     Add(a, b), a.Add(b), Exp(t), t.Exp()
//	out= (write into dst)      OpTo(dst, inputs...)                             AddTo(dst, a, b)
//	in place                   input.OpInPlace(others...)                       a.AddInPlace(b)
//	an optional keyword        a trailing variadic argument                     Add(a, b, alpha), Div(a, b, RoundFloor), Logit(t, eps)
//	a Go number                Scalar(x), wherever an op takes a number         a.Mul(Scalar(2.5)), t.Fill(Scalar(0))
//	dims, keepdim, dtype=      a Dims from Over, the same for every reduction   t.Sum(Over(0, 1).KeepDim().As(Float64))
//	reduction                  a function, a method, OpTo; no dims: all         t.Sum(), t.Var(Over(1).Correction(0))
//	values and indices         two results; OpTo takes a dst for each           v, i := t.Max(Over(1))
//	scan, softmax              one dim, given as Dims                           t.CumSum(Over(1)), t.Softmax(Over(-1))
//	view                       a method returning a view sharing storage        t.T(), t.Narrow(0, 1, 2)
//	constructor                a function of the dtype and shape                Zeros(Float32, 2, 3), FromSlice(xs, 2, 3)
//	element access             At, Set, Item, ToSlice                           t.At(1, 2), t.Set(Scalar(5), 1, 2)
//	bad input                  a panic with *Error (Try recovers it)            err := Try(func() { a.Add(b) })
//
// The method form of an op with several inputs is called on its first
// input, except where PyTorch's differs (x.Where(cond, y), as
// Tensor.where). Each generated function's doc states what the op
// computes, from the op's entry in the table.
//
// # Broadcasting
//
// Binary and ternary ops broadcast their operands as PyTorch does: shapes
// are aligned at their last dims, and a dim of size 1 (or a missing leading
// dim) stretches to the other's size. Incompatible sizes panic with a shape
// [Error] whose message (its Msg) is PyTorch's exact text, e.g. "The size
// of tensor a (3) must match the size of tensor b (4) at non-singleton
// dimension 1"; its Error() adds the op's name in front.
//
// # Type promotion
//
// The result dtype is torch.result_type of the operands: the highest
// category (bool < integer < float) wins; within it, dimensioned tensors
// outrank 0-dim tensors, which outrank Go scalars made with [Scalar]. A Go
// int counts as int64 and a Go float as float32 when nothing of their
// category outranks them. So int32 + Scalar(0.5) is float32, uint8 +
// Scalar(3) is uint8, float16 + a float64 0-dim tensor is float16, and
// bool + Scalar(2) is int64. Float-valued ops (exp, div, sqrt, ...) compute
// integers in float32; float16 and bfloat16 compute in float32 and round
// to nearest even.
//
// # Aliasing and in-place
//
// View ops (View, Permute, T, Slice, Expand, ...) return tensors sharing
// the input's storage; writes through a view are seen by its base. The
// XxxTo(dst, ...) functions write into dst (PyTorch's out=): dst is resized
// if it has no elements, and may have another dtype if the result can be
// cast to it (floats do not cast to integers, nothing but bool casts to
// bool). XxxInPlace methods write into the receiver, whose shape and dtype
// must hold the result. An output that partly overlaps an input, or whose
// own elements overlap (an expanded tensor), is refused with an overlap
// error; an output that is exactly an input (in-place) is fine. Every check
// happens before anything is written: a failing op leaves its outputs as
// they were.
//
// # Errors
//
// What the caller could have checked — shapes, dims, dtypes, indices —
// makes an op panic with a *[Error] carrying a kind ([ShapeError],
// [DTypeError], [OverlapError], [IndexError], [ViewError], [ValueError]),
// the op's name (Op, set on every error) and a message; [Try] turns such a
// panic into an error. This
// is gonum's rule: expression-style code (a.Add(b).Mul(c)) stays readable,
// and misuse is loud. Functions that read outside data return an error.
//
// # Autograd
//
// A tensor made with SetRequiresGrad(true) is a leaf whose gradient is
// tracked: every op on it records a node of the backward graph (the op's
// derivative is declared beside its forward definition in the op table),
// and [Tensor.Backward] runs the graph in dependency order, accumulating
// gradients into the leaves' [Tensor.Grad]. A gradient that reaches an
// input broadcast in the forward pass is summed back to the input's shape,
// then cast to its dtype. [Grad] returns gradients instead of accumulating
// them; with CreateGraph they can be differentiated again. [NoGrad] turns
// recording off for the calling goroutine only. As in PyTorch, writing in
// place into a leaf that requires grad is an error, and a tensor saved for
// backward and then overwritten is detected by its storage's version
// counter, with PyTorch's message, instead of giving a wrong gradient.
// Package gradcheck checks derivatives against finite differences; package
// optim updates parameters from their gradients.
//
// # Concurrency
//
// Large ops split their work across goroutines (GOMAXPROCS workers, chunks
// of at least 32768 elements). Tensors may be read concurrently; writing a
// tensor while another goroutine reads or writes overlapping memory is a
// data race, as with slices.
//
// # Determinism
//
// Elementwise ops give the same bits for any number of workers. The work
// split depends only on the sizes, never on timing or on GOMAXPROCS, so
// results are reproducible run to run.
package tensor
