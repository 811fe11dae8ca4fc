//go:build !amd64 || purego

package vec

// SIMDF16 reports whether the float16 kernels run in assembly: never
// without it.
const SIMDF16 = false
