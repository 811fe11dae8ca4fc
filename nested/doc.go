// Package nested implements nested (ragged) tensors: a batch of tensors
// whose sizes differ, such as sequences of different lengths, kept in one
// values buffer with int64 metadata (PyTorch's NestedTensor), and the ops
// of the user API over them.
//
// # Structure
//
// A [Tensor] has n components of one dtype and one number of dims. Nested
// dim 0 indexes the components; nested dim d ≥ 1 is dim d−1 of every
// component, and negative dims count from the end of the components. An op
// that works along one dim refuses dim 0 with a value error ("cannot apply
// across nested dimension 0").
//
// # Ops
//
// Ops reach the same op definitions and kernels as dense tensors: a
// pointwise op is the dense function, given to [Unary] or [Binary], run over
// the values buffer in one call when the components are packed (Note
// [Packed nested tensors]) and each holds a multiple of 32 elements, so
// that PyTorch's vector body and scalar tail split each component as the
// dense op on it alone would (Note [Components as rows]), else per
// component; ops over trailing dims run once over the buffer
// viewed as rows; reductions and softmax over the ragged dim (component
// dim 0) are segment reductions over the buffer's rows (Note [Reductions
// over the ragged dim]); products of two nested tensors ([Matmul], [Bmm])
// and [Attention] are grouped products over the buffers, every component
// and head in one parallel pass (Note [Grouped products of components]);
// the rest run per component on views of the buffer, and their results
// are packed again with one copy.
//
// # Dense forms
//
// [ToPadded] and [FromPadded] convert to and from the padded form;
// [ToPaddedWithMask] adds the mask of the real elements; [Tensor.CuSeqlens]
// and [FromCuSeqlens] give the packed form's row offsets and take a packed
// [rows, ...] tensor back without a copy.
//
// # Autograd
//
// Gradients follow the values buffer. [Tensor.SetRequiresGrad] makes the
// buffer a leaf, and [Tensor.Grad] returns its gradient with the tensor's
// structure; every op here records through package tensor's engine.
//
// # Errors
//
// As in package tensor, what the caller could have checked panics with a
// *tensor.Error (kind, op, message; PyTorch's text where PyTorch has one);
// [tensor.Try] recovers it.
package nested
