// Command asm generates the AVX2/FMA/F16C assembly of goten's packages
// backend/cpu/internal/vec (vec.go) and backend/cpu/internal/gemm (gemm.go),
// and the feature detection of backend/cpu/internal/cpufeat, with avo. It lives in its own module so that the library itself depends on
// nothing. The -pkg flag picks the package.
//
// Regenerate (from this directory, or via go generate in those packages):
//
//	go run . -out ../backend/cpu/internal/vec/zz_vec_amd64.s \
//	    -stubs ../backend/cpu/internal/vec/zz_stubs_amd64.go -pkg vec
//	go run . -out ../backend/cpu/internal/gemm/zz_gemm_amd64.s \
//	    -stubs ../backend/cpu/internal/gemm/zz_stubs_amd64.go -pkg gemm
//	go run . -part reduce -out ../backend/cpu/internal/vec/zz_reduce_amd64.s \
//	    -stubs ../backend/cpu/internal/vec/zz_reduce_stubs_amd64.go -pkg vec
//	go run . -part unary -out ../backend/cpu/internal/vec/zz_unary_amd64.s \
//	    -stubs ../backend/cpu/internal/vec/zz_unary_stubs_amd64.go -pkg vec
//	go run . -out ../backend/cpu/internal/cpufeat/zz_cpuid_amd64.s \
//	    -stubs ../backend/cpu/internal/cpufeat/zz_stubs_amd64.go -pkg cpufeat
//
// -pkg cpufeat generates the CPUID and XGETBV stubs of feature detection.//
// -part reduce generates vec's reduction primitives (reduce.go), -part
// unary its float32 exp, tanh, sigmoid and gelu (unary.go), each into
// files of their own.
//
// The vec kernels all have the same shape: a main loop over unroll×step elements,
// a loop over single vectors of step elements, and a scalar tail that runs
// the same instruction sequence on one element held in the low lane of an
// XMM register (loaded and stored with scalar moves, so nothing outside
// [0, len(dst)) is read or written). The Stream variants of the float
// arithmetic and unary kernels (stream set) first run the scalar sequence
// until dst is 32-byte aligned, then store whole vectors with VMOVNTPS or
// VMOVNTPD, non-temporal stores that skip the read-for-ownership of dst's
// cache lines, and end with SFENCE; they win only on outputs far beyond the
// caches and lose badly when the result is read soon after, so the callers
// pick them by size (Note [Non-temporal stores] in vec's stream_amd64.go).
// Only VEX-encoded AVX, AVX2, FMA and F16C instructions (and SFENCE) are
// used, never AVX-512: the tests check that no register above 15 appears.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"

	. "github.com/mmcloughlin/avo/build"
)

var (
	part = flag.String("part", "", "vec: generate only this part (reduce, reduce512, unary, elem, ternary, gather)")
	api  = flag.String("api", "", "-part elem: write the Go API to this path prefix (+_amd64.go, _other.go, _test.go)")
)

func main() {
	flag.Parse()
	switch pkg := flag.Lookup("pkg").Value.String(); {
	case pkg == "vec" && *part == "reduce":
		genReduce()
	case pkg == "vec" && *part == "reduce512":
		genReduce512()
	case pkg == "vec" && *part == "unary":
		genUnary()
	case pkg == "vec" && *part == "elem":
		genElem(*api)
	case pkg == "vec" && *part == "ternary":
		genTernary(*api)
	case pkg == "vec" && *part == "gather":
		genGather()
	case pkg == "vec":
		genVec()
	case pkg == "gemm":
		genGemm()
	case pkg == "cpufeat":
		ConstraintExpr("amd64,!purego")
		cpuid()
	default:
		fmt.Fprintf(os.Stderr, "asm: -pkg must be vec, gemm or cpufeat, not %q\n", pkg)
		os.Exit(2)
	}
	Generate()
	if *part == "elem" || *part == "ternary" {
		dropSelfMoves(flag.Lookup("out").Value.String())
	}
}

// selfMove matches a full-width vector move of a register onto itself.
var selfMove = regexp.MustCompile(`(?m)^\tVMOV(?:UPS|UPD|DQU|DQU64) +([YZ]\d+), ([YZ]\d+)\n`)

// dropSelfMoves deletes the moves of a vector register onto itself from
// the assembly in path. The elem kernels copy an operand into a fresh
// virtual register before each destructive instruction (an FMA's
// accumulator, say); where the operand dies there, the register allocator
// gives both the same register and the copy becomes a no-op move, a
// third of the instructions of a long Horner chain, each still a slot of
// the core's dispatch width. Only YMM and ZMM moves go: a VEX move of an
// XMM register clears the bits above it, which is not a no-op.
func dropSelfMoves(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "asm:", err)
		os.Exit(1)
	}
	b = selfMove.ReplaceAllFunc(b, func(m []byte) []byte {
		if sm := selfMove.FindSubmatch(m); string(sm[1]) == string(sm[2]) {
			return nil
		}
		return m
	})
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "asm:", err)
		os.Exit(1)
	}
}
