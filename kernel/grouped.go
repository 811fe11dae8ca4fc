package kernel

import (
	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
)

// Note [Grouped products]
//
// A grouped product is G independent matrix products of different sizes
// whose operands lie in three shared storages: the products of the
// components of nested tensors, whose packed buffers hold the components
// one after the other. Group g computes C_g = Alpha·A_g·B_g + Beta·C_g with
// A_g M_g×K_g, B_g K_g×N_g and C_g M_g×N_g; element (i, j) of an operand of
// group g is at element Offset + i·RowStride + j·ColStride of its storage
// (its [Block]), so transposed operands (Kᵀ in attention, the transposes of
// a backward) need no copy. Strides are ≥ 0; A and B may have zero strides
// (broadcast), C not in a dim longer than one. Groups with M, N or K of 0
// are allowed (K = 0 sets C_g = Beta·C_g). Beta 0 ignores C's old values,
// NaN included. The C blocks of different groups must not overlap each
// other nor any A or B block; the op layer guarantees it by writing into a
// new buffer. Float16 and bfloat16 accumulate in float32 and round once;
// integers accumulate in int64, wrapping, alpha and beta truncated (as
// [Gemm]). Groups write disjoint elements, so a backend runs them, and
// parts of them, in any order and in parallel; each element of C is
// computed as a product of its own size would compute it.
//
// The description is plain data (offsets and strides in elements, no Go
// slices, no closures), so a GPU backend implements it as one grouped
// launch (CUTLASS's grouped GEMM, cuBLAS's gemmGroupedBatched) from the
// same struct.

// Block places one operand of one group in its storage, in elements.
type Block struct {
	Offset, RowStride, ColStride int
}

// Group is one product of a grouped product: its sizes and where its
// operands lie (Note [Grouped products]).
type Group struct {
	M, N, K int
	A, B, C Block
	// Plain runs the product as [Gemm]'s Plain: PyTorch's bmm loop for
	// small products, each product rounded and added in order of k (a
	// backend that cannot ignores it).
	Plain bool
}

// Grouped describes a grouped product (Note [Grouped products]): every
// group's operands lie in A, B and C, all of dtype DType.
type Grouped struct {
	DType       dtype.DType
	A, B, C     *device.Storage
	Groups      []Group
	Alpha, Beta float64
}

// Single returns group q of g as a product of its own, q's Plain kept.
func (g *Grouped) Single(q Group) *Gemm {
	return &Gemm{DType: g.DType, Batch: 1, M: q.M, N: q.N, K: q.K,
		A:     Matrix{Storage: g.A, Offset: q.A.Offset, RowStride: q.A.RowStride, ColStride: q.A.ColStride},
		B:     Matrix{Storage: g.B, Offset: q.B.Offset, RowStride: q.B.RowStride, ColStride: q.B.ColStride},
		C:     Matrix{Storage: g.C, Offset: q.C.Offset, RowStride: q.C.RowStride, ColStride: q.C.ColStride},
		Alpha: g.Alpha, Beta: g.Beta, Plain: q.Plain}
}

// GroupedMatMuler is the optional [Backend] method that runs grouped
// products (Note [Grouped products]); the op layer refuses them on a
// backend without it.
type GroupedMatMuler interface {
	// GroupedMatMul runs every product of g.
	GroupedMatMul(g *Grouped) error
}

// Note [Ragged softmax]
//
// A ragged softmax is the softmax over every row of a list of row-major
// matrices of different widths packed in one storage: the scores of
// attention over nested tensors, matrix g being the [Lq_g, Lk_g] scores of
// one component (and one head). Matrix g has Rows rows of Cols elements,
// row stride Cols, from element InOff + Offset of In, GradOff + Offset of
// Grad and OutOff + Offset of Out. With Causal, row i of a matrix keeps
// only its columns j ≤ i (the top-left aligned causal mask: −∞ before the
// softmax, so 0 in Out); a row that has columns keeps column 0, so no
// kept row is empty.
//
// Forward (Backward false) writes Out = softmax(In) row by row. Backward
// writes the gradient of the input from In = the forward's output Y and
// Grad = the gradient of Y: Out = Y ⊙ (Grad − Σ_row Grad ⊙ Y), the masked
// elements 0. Out may be In (in place) but no other overlap; elements
// outside the matrices are neither read nor written. DType is float32 or
// float64 (a backend refuses others with an errs.DType error); float32
// may accumulate its sums in float32 or wider.

// SoftmaxBlock is one matrix of a ragged softmax.
type SoftmaxBlock struct {
	Offset, Rows, Cols int
}

// RaggedSoftmax describes a ragged softmax (Note [Ragged softmax]).
type RaggedSoftmax struct {
	DType          dtype.DType
	In, Grad, Out  *device.Storage
	Blocks         []SoftmaxBlock
	Causal         bool
	Backward       bool
	InOff, GradOff int // element offsets of the matrices' origin in In and Grad
	OutOff         int // and in Out
}

// RaggedSoftmaxer is the optional [Backend] method that runs ragged
// softmaxes (Note [Ragged softmax]); the op layer refuses them on a
// backend without it.
type RaggedSoftmaxer interface {
	// RaggedSoftmax runs s.
	RaggedSoftmax(s *RaggedSoftmax) error
}
