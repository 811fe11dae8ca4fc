//go:build !amd64 || purego

package gemm

// Without assembly the products run on the Go twins (kernelGo, the Go
// packs and matrix-vector kernels), which f32, f64, bf16 and f16 start
// with.
