package elem

import (
	"math"

	"github.com/goten-ml/goten/dtype"
)

// Ctx is what a reduction's pieces may read besides their state.
type Ctx struct {
	N          int     // elements reduced into each output
	Correction float64 // var, std: the divisor is max(N - Correction, 0)
	P          float64 // norm's order p
	// RoundTo, when a 16-bit float, rounds a mean's sum to it before the
	// division, as PyTorch's mean (sum, then div_) does.
	RoundTo dtype.DType
}

// Mean returns s/N, s first rounded to c.RoundTo.
func (c *Ctx) Mean(s float64) float64 {
	if c.RoundTo.IsReduced() {
		s = dtype.Round(c.RoundTo, s)
	}
	return s / float64(c.N)
}

// Variance returns M2/max(N - Correction, 0) (NaN for 0/0, +Inf for x/0).
func (c *Ctx) Variance(s Welford) float64 {
	return s.M2 / max(s.N-c.Correction, 0)
}

// Arg is the state of max, min, argmax and argmin: the best value so far
// and its index.
type Arg[T Ordered] struct {
	V T
	I int64
}

// Lowest returns the smallest value of T (-Inf for floats, false for bool).
func Lowest[T Ordered]() T {
	var z T
	switch p := any(&z).(type) {
	case *int8:
		*p = math.MinInt8
	case *int16:
		*p = math.MinInt16
	case *int32:
		*p = math.MinInt32
	case *int64:
		*p = math.MinInt64
	case *float32:
		*p = float32(math.Inf(-1))
	case *float64:
		*p = math.Inf(-1)
	}
	return z
}

// Highest returns the largest value of T (+Inf for floats, true for bool).
func Highest[T Ordered]() T {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = true
	case *uint8:
		*p = math.MaxUint8
	case *int8:
		*p = math.MaxInt8
	case *int16:
		*p = math.MaxInt16
	case *int32:
		*p = math.MaxInt32
	case *int64:
		*p = math.MaxInt64
	case *float32:
		*p = float32(math.Inf(1))
	case *float64:
		*p = math.Inf(1)
	}
	return z
}

// Abs is |x| for a float x.
func Abs[T Float](x T) T { return T(math.Abs(float64(x))) }

// Welford is the state of var and std: count, mean and the sum of squared
// deviations from the mean, in float64 (PyTorch's WelfordData<double>).
type Welford struct{ N, Mean, M2 float64 }

// Add folds one element in (Welford's update).
func (s *Welford) Add(x float64) {
	s.N++
	d := x - s.Mean
	s.Mean += d / s.N
	s.M2 += d * (x - s.Mean)
}

// Merge folds o in (Chan et al.'s pairwise combination).
func (s *Welford) Merge(o Welford) {
	switch {
	case o.N == 0:
		return
	case s.N == 0:
		*s = o
		return
	}
	n := s.N + o.N
	d := o.Mean - s.Mean
	s.Mean += d * (o.N / n)
	s.M2 += o.M2 + d*d*(s.N*o.N/n)
	s.N = n
}

// LSE is the state of logsumexp: the running max M and S = Σ e^(x-M).
type LSE struct{ M, S float64 }

// NewLSE returns the state over no elements (log 0 = -Inf).
func NewLSE() LSE { return LSE{M: math.Inf(-1)} }

// Add folds one element in.
func (a *LSE) Add(x float64) {
	switch {
	case x != x:
		a.M = x
	case a.M != a.M || math.IsInf(a.M, 1) || math.IsInf(x, -1):
	case math.IsInf(x, 1):
		a.M, a.S = x, 1
	case x > a.M:
		a.S = a.S*math.Exp(a.M-x) + 1
		a.M = x
	default:
		a.S += math.Exp(x - a.M)
	}
}

// Merge folds the state o of later elements in.
func (a *LSE) Merge(o LSE) {
	switch {
	case o.M != o.M:
		a.M = o.M
	case a.M != a.M || math.IsInf(a.M, 1) || math.IsInf(o.M, -1):
	case math.IsInf(o.M, 1) || math.IsInf(a.M, -1):
		*a = o
	case o.M > a.M:
		a.S = a.S*math.Exp(a.M-o.M) + o.S
		a.M = o.M
	default:
		a.S += o.S * math.Exp(o.M-a.M)
	}
}

// Value returns log Σ e^x.
func (a LSE) Value() float64 {
	if a.M != a.M || math.IsInf(a.M, 0) {
		return a.M
	}
	return a.M + math.Log(a.S)
}

// LogAddExp is log(e^a + e^b) (PyTorch's _log_add_exp_helper); equal
// infinities give themselves.
func LogAddExp(a, b float64) float64 {
	lo, hi := math.Min(a, b), math.Max(a, b)
	if lo != hi || !math.IsInf(lo, 0) {
		return hi + math.Log1p(math.Exp(lo-hi))
	}
	return a
}

// LogSum is log(s), the log of a row's sum of exponentials for
// log_softmax, with s and then its float32 log rounded to round when it
// is valid (Note [bfloat16 log_softmax] in package op).
func LogSum(s float64, round dtype.DType) float64 {
	if !round.Valid() {
		return math.Log(s)
	}
	return dtype.Round(round, float64(float32(math.Log(dtype.Round(round, s)))))
}
