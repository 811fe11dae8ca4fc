// Package vec holds the few SIMD primitives that goten's CPU kernels call on
// contiguous data: float32/float64 arithmetic, fused multiply-add, selection
// and the float conversions; and the reduction primitives (sums, max and
// min of rows, float64 accumulation of float32 rows, the exp-and-sum of
// softmax, layer_norm's moments and affine map: reduce_go.go, generated
// into zz_reduce_amd64.s by asm/reduce.go with -part reduce); and the
// float32 tanh, sigmoid and gelu, polynomials within a few ulp with exact
// special values (unary_go.go, generated into zz_unary_amd64.s by
// asm/unary.go with -part unary; UnarySIMD tells whether they run in
// assembly; float32 exp, SLEEF's expf as PyTorch computes it, is an
// elementwise kernel of asm/elemmath.go, with an AVX-512 path). The float arithmetic and the unary functions have Stream
// variants, the same functions whose assembly writes dst with
// non-temporal stores, for outputs far beyond the caches (Note
// [Non-temporal stores] in stream_amd64.go).
//
// The layout follows gonum's internal/asm. Every primitive has a pure-Go twin
// (arith_go.go, conv_go.go) whose doc comment is its exact loop; it is the
// reference the assembly must match bit for bit. On amd64 the exported
// functions (vec_amd64.go) run AVX2/FMA assembly (F16C for float16) when the
// CPU and OS support it, detected once at start-up with CPUID and XGETBV, and
// the twin otherwise. With the purego build tag, or on other architectures,
// they are the twins (vec_noasm.go).
//
// The assembly (zz_vec_amd64.s) and its Go declarations (zz_stubs_amd64.go)
// are generated with avo from the separate module in goten's asm directory,
// never edited by hand. To regenerate, run go generate in this directory
// (the directive is in vec_amd64.go), or from goten's asm directory:
//
//	go run . -out ../backend/cpu/internal/vec/zz_vec_amd64.s \
//	    -stubs ../backend/cpu/internal/vec/zz_stubs_amd64.go -pkg vec
//
// Every function reads and writes exactly len(dst) elements, at any
// alignment; inputs must be at least that long (shorter ones panic, as the
// twins do). dst may be the very same slice as an input (in place), but must
// not otherwise overlap one.
//
// Results equal the twins' bit for bit, NaN payloads included, with one
// exception: when several operands of one element are NaN, which payload
// comes out follows x86 operand order, which the Go compiler may swap in the
// twins; it is a NaN either way.
package vec
