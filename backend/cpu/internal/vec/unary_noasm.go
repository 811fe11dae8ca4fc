//go:build !amd64 || purego

package vec

// UnarySIMD reports whether TanhF32, SigmoidF32 and GeluF32 run
// in assembly. Their pure-Go twins give the same bits but emulate the
// fused multiply-add in software, several times slower than float64 math:
// a caller with another loop should run that one when UnarySIMD is false.
const UnarySIMD = false

// TanhF32 sets dst[i] = tanh x[i], within 1.5 ulp of the correctly rounded
// result: x + x³·P(x²) below |x| = 0.625 (tiny x give x itself, tanh(±0) =
// ±0), ±1 from |x| = 9.011 on and for ±Inf; a NaN comes back unchanged. Its exact loop is tanhF32Go's.
func TanhF32(dst, x []float32) { tanhF32Go(dst, x) }

// SigmoidF32 sets dst[i] = 1/(1+e^-x[i]), within 2.5 ulp of the correctly
// rounded result, subnormal results included: 0 below -103.972 and for
// -Inf, 1 from 16.64 on and for +Inf, 0.5 for ±0; a NaN comes back
// unchanged. Its exact loop is sigmoidF32Go's.
func SigmoidF32(dst, x []float32) { sigmoidF32Go(dst, x) }

// GeluF32 sets dst[i] = x·Φ(x) = 0.5·x·(1+erf(x/√2)), x = x[i]: PyTorch's
// gelu with approximate='none'. It is within 3.5 ulp of the correctly
// rounded result for every x, negative x and subnormal results included
// (1+erf is never formed): 0 (or -0) below -14.34, x itself from 5.35 on,
// gelu(±0) = ±0, gelu(+Inf) = +Inf and gelu(-Inf) = NaN (0·-Inf, as in
// PyTorch); a NaN comes back unchanged. Its exact loop is geluF32Go's.
func GeluF32(dst, x []float32) { geluF32Go(dst, x) }
