// Package vec holds the few SIMD primitives that goten's CPU kernels call on
// contiguous data: float32/float64 arithmetic and the float conversions.
// On amd64 with AVX2 and FMA they run in assembly; elsewhere, or with the
// purego build tag, they run their pure-Go twins, whose doc comments give
// the exact loop. Every function reads and writes exactly len(dst) elements;
// inputs must be at least that long.
package vec
