//go:build amd64 && !purego

package vec

// SIMDF16 reports whether the float16 kernels (AddF16, ...) run in
// assembly: AVX-512, or AVX2 with F16C. Their twins, like the bfloat16
// ones, are slower than the buffered float32 loops (see SIMD).
var SIMDF16 = useAVX512 || useF16C
