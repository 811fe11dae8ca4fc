//go:build !amd64 || purego

package gemm

// Without assembly the microkernels are their Go twins, kernelF32Go and
// kernelF64Go, which f32 and f64 start with.
