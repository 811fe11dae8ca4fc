// Package gemm computes the general matrix products of goten's CPU backend:
// C = alpha·A·B + beta·C for float32 (F32) and float64 (F64) matrices, and
// batches of such products (F32Batched, F64Batched), and batches of
// bfloat16 and float16 products (BF16Batched, F16Batched: computed in
// float32, rounded once) and of integer ones (IntBatched: computed in
// int64, wrapping). It does what BLAS's sgemm and dgemm do, but every
// operand is a slice with a row and a column stride instead of a transpose
// flag and a leading dimension, so any strided view of a tensor is an
// operand as it is. Package cpu's Backend.MatMul runs all its products
// here.
//
// # Overview
//
// A is m×k, B is k×n and C is m×n. Element (i, p) of A is a[i*rsA+p*csA],
// element (p, j) of B is b[p*rsB+j*csB] and element (i, j) of C is
// c[i*rsC+j*csC]. Product i of a batch reads a[i*bsA:], b[i*bsB:] and
// c[i*bsC:] with those row and column strides.
//
// The products follow BLAS's conventions for the special cases: beta == 0
// ignores C's old values (NaN and Inf in C do not propagate); alpha == 0
// or k == 0 sets C = beta·C without reading A or B; m == 0 or n == 0 does
// nothing.
//
// The implementation is BLIS's (Note [Blocking]): blocks of A and B are
// packed into contiguous slivers sized for the caches, and a microkernel
// keeps a tile of C in registers (12×32 float32 or 12×16 float64 with
// AVX-512, 6×16 or 6×8 with AVX2) while it runs along k. One driver,
// generic in the operands' element type, the packed one and the one it
// computes in, runs every kind of product: 16-bit floats are converted to
// float32 as they are packed, or packed as pairs for a bfloat16
// dot-product kernel (Note [Reduced precision]); integers are widened to
// int64 (Note [Integer products]). Products with m or n of 1 run on
// matrix-vector kernels instead, straight from A (Note [Matrix-vector
// products]).
//
// # Strides
//
// Strides may be any values ≥ 0: row-major and column-major matrices,
// padded rows, transposed views, slices with a step, and, for A and B,
// zero strides (a row or column broadcast). C may not have a zero stride
// in a dimension longer than one, and a batch of more than one product may
// not have a zero batch stride of C; bsA or bsB 0 shares one operand among
// the whole batch. Nothing is copied before the product: packing reads the
// operands through their strides. Both unit-stride layouts of A and of B
// pack with whole-sliver routines; other strides pack element by element.
// The microkernel writes a C with unit column stride directly but for its
// edge tiles, which go through a small buffer (Note [Edges]); a C with unit
// row stride is computed as its transpose (Note [Transposed C]); a C with
// neither goes through the buffer tile by tile.
//
// Every function panics if a dimension, stride or batch stride is
// negative, if C has a zero stride it may not have, or if the last element
// of an operand lies past the end of its slice (in a batch, of any of its
// products; when m or n is 0, only the first product is checked). No
// element outside the three matrices is read or written, so the padding
// between rows of an operand is left as it was.
//
// # Aliasing
//
// C must not overlap A or B, and no two elements of C may be the same
// element of c (nor, in a batch, two products' C): C is written block by
// block while later blocks of A and B are still to be read. Only a zero
// stride of C is detected; another overlap is not checked, and the result
// is then unspecified (though nothing outside the slices is touched: their
// bounds are checked). A and B may overlap each other, or be the same slice.
//
// # Packed layouts
//
// The microkernels read A and B as packed by packA and packB (pack.go). A
// sliver of A holds mr rows, one k step after another: element (i, p) of
// the sliver at index p*mr+i. A sliver of B holds nr columns the same way:
// element (p, j) at p*nr+j. The bfloat16 dot-product kernel's step is a
// pair of k, two bfloat16 in a uint32. The buffers start on a 64-byte
// boundary; a k step of a B sliver is one or two cache lines. Rows and
// columns past the edge of the block are zero (Note [Edges]). The kernel
// stores its mr×nr tile of C with row stride ldc and unit column stride.
//
// # Concurrency
//
// The functions may be called from any number of goroutines at once, as
// long as no call writes memory that another reads or writes. A call
// returns when its product is complete. A large product, or a batch, runs
// on up to GOMAXPROCS goroutines: the caller and
// helpers from a pool of long-lived worker goroutines, started when first
// needed and never stopped, which poll for work for a while after each
// task before they park (Note [Spinning workers]). How products and
// batches are cut is Note [Threads]. The packing buffers are kept between
// calls, one set per goroutine running a product (Note [Workspaces]).
//
// # Determinism
//
// A product gives the same result bit for bit whatever GOMAXPROCS is,
// however it or its batch is cut, and whatever runs beside it: every
// element of C is computed by one goroutine with the same operations
// (Note [Threads]). The result does depend on the kernel that runs (the
// assembly fuses each multiply-add, the Go twins round the multiply and
// the add apart unless the compiler fuses them), on kc (a k longer than kc
// is summed kc at a time into C; Note [Blocking]), and, for beta other
// than 0 and 1, on whether the element lies in an edge tile (Note
// [Edges]). It is therefore not bit for bit that of a plain triple loop or
// of another BLAS. float32 products accumulate in float32, and so do the
// 16-bit ones; integer products are exact modulo 2^64, so their results
// depend on nothing.
//
// # Assembly and pure-Go twins
//
// The layout follows package vec (and gonum's internal/asm). The
// microkernels, the whole-sliver packing routines and the matrix-vector
// kernels are written in Go (kernelGo and kernelPairsGo in kernel.go, the
// packs in pack.go, gemvDotGo and gemvAxpyGo in gemv.go) and in assembly
// (zz_gemm_amd64.s, declared in zz_stubs_amd64.go). f32, f64, bf16 and
// f16 (api.go) start with the Go twins; on amd64, unless the purego build
// tag is set, init (gemm_amd64.go) puts the assembly of the level package
// cpufeat reports in their place (its Note [Kernel levels]): AVX-512
// microkernels (and, with AVX512-BF16, the bfloat16 dot-product kernel,
// bf16dot) at AVX512, AVX2/FMA ones at AVX2; the packs and matrix-vector
// kernels are AVX2 (float16 packs need F16C) at both. GOTEN_CPU=avx2 or
// generic lowers the level, so every path is tested on a machine that has
// the highest (TestLevel checks that the kernels installed are the
// level's). With purego, or on other architectures, the Go twins run
// (gemm_noasm.go). Each assembly routine's doc points to its twin, whose
// doc comment is the exact computation: the packing routines match it bit
// for bit (a float16 NaN's payload aside), the kernels up to the rounding
// of the fused multiply-adds. TestKernelTwins, TestPackTwins,
// TestConvTwins, TestPairTwins and TestGemvTwins compare them. Only the
// functions named for AVX-512 use its registers (TestAVX512Names holds
// the rule); the rest use AVX2, FMA and F16C on the 16 YMM registers.
//
// The assembly and its declarations are generated with avo from goten's
// asm module (asm/gemm.go, gemm512.go, gemmconv.go and gemv.go), never
// edited by hand. avo and the Go assembler have no VDPBF16PS, so
// asm/gemm512.go writes it as its bytes (encodeVDPBF16PS, checked against
// GNU as by the asm module's TestEVEX) with the instruction in a comment
// beside them. To regenerate, run go generate in this directory (the
// directive is in gemm_amd64.go), or from goten's asm directory:
//
//	go run . -out ../backend/cpu/internal/gemm/zz_gemm_amd64.s \
//	    -stubs ../backend/cpu/internal/gemm/zz_stubs_amd64.go -pkg gemm
//
// # Notes
//
// The design notes, next to the code they explain:
//
//   - Note [Blocking] (gemm.go): the five loops, the block sizes and the
//     caches they are sized for.
//   - Note [Edges] (gemm.go): partial tiles and C without unit column
//     stride.
//   - Note [Transposed C] (gemm.go): why a column-major C is computed as
//     its transpose.
//   - Note [Workspaces] (gemm.go): the packing buffers, kept across calls
//     and goroutines.
//   - Note [Threads] (gemm.go): when and how products and batches are cut
//     across goroutines, and why results do not depend on it.
//   - Note [Spinning workers] (pool.go): the helper goroutines.
//   - Note [Reduced precision] (gemm.go): bfloat16 and float16 products,
//     summed in float32 and rounded once.
//   - Note [Integer products] (int.go): integers in int64.
//   - Note [Matrix-vector products] (gemv.go): products with m or n of 1.
//   - Note [Grouped work items] (grouped.go): many products of different
//     sizes in one parallel pass (F32Grouped, ...).
package gemm
