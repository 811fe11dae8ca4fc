// Package cpufeat says which instruction sets the CPU backend's kernels may
// use: detected once at start, and lowered for tests with the environment
// variable GOTEN_CPU (Note [Kernel levels]).
package cpufeat

import (
	"fmt"
	"os"
)

// Note [Kernel levels]
//
// A kernel with assembly has up to three paths: AVX-512 (AVX512F, BW, DQ
// and VL, with the OS saving the ZMM and mask registers), AVX2 (AVX2, FMA,
// and the OS saving the YMM registers), and its pure-Go twin, which is
// also what non-amd64 builds and the purego build tag get. Which one runs
// is decided once, at start: the highest level the CPU has, or a lower one
// named by GOTEN_CPU=generic|avx2|avx512 (a level above the CPU's runs the
// CPU's). Deciding once keeps the dispatch to one predictable branch per
// call and lets a package that installs function values at init (gemm)
// do so once. Every path is tested by running the tests again under each
// GOTEN_CPU the machine allows (.ci/run does); tests do not switch levels
// inside one process. GOTEN_CPU is read at package init, before go test
// starts logging the environment variables a test reads, so each package
// whose kernels it selects has a test that reads it again through
// Requested and checks it against Current: that puts the variable in go
// test's cache key, and a cached result of another level is not handed
// back.

// Level is a set of instructions kernels may use; each includes the ones
// below it.
type Level uint8

// The levels, in increasing order.
const (
	Generic Level = iota // pure Go
	AVX2                 // AVX2 and FMA (256-bit vectors)
	AVX512               // AVX512F, BW, DQ and VL (512-bit vectors, masks)
)

func (l Level) String() string {
	switch l {
	case Generic:
		return "generic"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// ParseLevel returns the level named s (a Level's String).
func ParseLevel(s string) (Level, error) {
	for l := Generic; l <= AVX512; l++ {
		if s == l.String() {
			return l, nil
		}
	}
	return Generic, fmt.Errorf("cpufeat: unknown level %q: want generic, avx2 or avx512", s)
}

// Features are the CPU's instruction sets beside its level.
type Features struct {
	// Level is the highest level the CPU and OS support.
	Level Level
	// F16C: half-precision conversions (VCVTPH2PS, VCVTPS2PH), with AVX2.
	F16C bool
	// AVX512BF16: bfloat16 dot products and conversions (VDPBF16PS,
	// VCVTNE2PS2BF16), with AVX-512.
	AVX512BF16 bool
}

var detected = detect()

// Detected returns what the CPU has, whatever GOTEN_CPU says.
func Detected() Features { return detected }

var current = fromEnv(detected, os.Getenv("GOTEN_CPU"))

// Current returns the level kernels run at and the features they may use
// (Note [Kernel levels]).
func Current() Features { return current }

// Requested returns the features GOTEN_CPU asks for now (Detected lowered
// to its level). It reads the variable again, so that a test calling it
// keys go test's cache on it (Note [Kernel levels]); outside tests,
// Current is what the kernels run at.
func Requested() Features { return fromEnv(detected, os.Getenv("GOTEN_CPU")) }

// fromEnv lowers f to the level named by env (empty: f itself). It panics
// on a name it does not know, so that a mistyped test setting cannot
// silently test the wrong path.
func fromEnv(f Features, env string) Features {
	if env == "" {
		return f
	}
	l, err := ParseLevel(env)
	if err != nil {
		panic(fmt.Sprintf("goten: GOTEN_CPU: %v", err))
	}
	return f.Lower(l)
}

// Lower returns f with its level lowered to at most l, and the features
// that need a higher level removed.
func (f Features) Lower(l Level) Features {
	if l < f.Level {
		f.Level = l
	}
	f.F16C = f.F16C && f.Level >= AVX2
	f.AVX512BF16 = f.AVX512BF16 && f.Level >= AVX512
	return f
}
