// Package iter is goten's TensorIterator: it turns a [Config] of output and
// input views into an immutable [Plan] that kernels walk. The iterator knows
// no ops and no kernels; it returns typed errors (*errs.Error) and never
// panics on bad operands.
//
// Building a plan ([Config.Build]) runs these steps, in PyTorch's order:
//
//  1. mark outputs, and outputs that are also inputs (read-write);
//  2. check memory overlap (Note [Memory overlap]);
//  3. compute the broadcast shape and decide which outputs are resized;
//  4. check devices, compute the common dtype, check casting to outputs;
//  5. compute byte strides (0 on broadcast dims), reorder dims fastest
//     first (Note [Reordering dims]), allocate or resize outputs in the
//     inputs' memory order (Note [Computing output strides]), and coalesce
//     dims (Note [Coalescing]) — or all of that at once when every operand
//     has the same dense layout (Note [Fast setup]).
//
// Every check comes before any output is resized or allocated, and nothing
// is ever written to an operand's memory by Build.
//
// # Devices
//
// A plan describes memory as storages (*device.Storage, a handle on any
// device) and byte offsets and strides into them; the iterator never
// computes an address, so a GPU backend runs the same plans as the CPU one.
// All operands must be on one device (0-dim CPU inputs may join another
// device's, as PyTorch's CPU scalars do); outputs are allocated there, by
// the allocator of the first operand on it ([Config.Allocator] overrides
// it), uninitialised, since kernels write them whole.
//
// # Broadcasting
//
// Operands broadcast as in PyTorch: shapes align at their last dim, and a
// dim of size 1 stretches to any size (its byte stride becomes 0). Shapes
// that do not broadcast fail with an error of kind errs.Shape whose text is
// PyTorch's exactly, e.g. "The size of tensor a (3) must match the size of
// tensor b (4) at non-singleton dimension 1" (no op prefix); "tensor a" is
// the broadcast of the operands before the one that failed. Outputs take part
// in broadcasting when they will not be resized (ResizeOutputs(false),
// read-write outputs, reductions). An output whose shape is not the
// broadcast shape is resized when it has no elements and may be resized;
// otherwise it is a shape error "output with shape [2, 3] doesn't match the
// broadcast shape [2, 2, 3]".
//
// # Type promotion
//
// With [Config.PromoteInputsToCommonDType] the common dtype is
// torch.result_type of the inputs (and of read-write outputs): dimensioned
// tensors outrank 0-dim tensors, which outrank wrapped Go scalars, unless a
// lower-ranked operand is of a higher category. Without it, the common dtype
// is the inputs' dtype when they all agree, and Invalid otherwise.
// [Config.StaticDType] fixes it. Inputs are never converted by Build:
// kernels read them converted to the common dtype, and write outputs
// converted to theirs. With [Config.EnforceSafeCastingToOutput], a common
// dtype that torch.can_cast forbids for an existing output is an errs.DType
// error: "result type Float can't be cast to the desired output type Long"
// (dtypes spelled as PyTorch's ScalarType names).
//
// # Aliasing and in-place
//
// An output that is the same *raw.View as an input, or that is marked with
// [Config.SetReadWrite], is read-write: it is read and written in place, is
// never resized, and takes part in broadcasting and type promotion like an
// input. See Note [Memory overlap] for which aliasing between outputs and
// inputs is an error (errs.Overlap).
//
// # Concurrency
//
// A Plan is immutable once built and may be walked by several goroutines at
// once. [Plan.ForEach] splits large plans over a worker pool
// (internal/parallel); chunks never write the same output element
// concurrently, also for reductions (Note [Parallel reductions]). Outputs
// whose elements overlap in ways PyTorch does not detect (its TOO_HARD case)
// are written in an unspecified order, as in PyTorch.
//
// # Determinism
//
// The plan depends only on the operands and options. [Plan.ForEach] splits
// the range into chunks fixed by the plan (its shape and layout: Note
// [Parallel reductions], Note [Crossed operands]) and the grain size, never
// by the number of threads, so a kernel that combines per-chunk results in
// chunk order gives the same answer for any GOMAXPROCS.
package iter
