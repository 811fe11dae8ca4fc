package vec

import (
	"math"
	"testing"

	optelem "github.com/goten-ml/goten/optable/elem"
)

// TestMathMP checks the float64 kernels of Note [Float64 functions] and
// Note [Float64 erf] against correctly rounded values (mpRef: mpmath at
// 256 bits, over each domain log-uniformly, the points next to multiples
// of π/2 up to 10^5, arguments next to ±1 and sinh/cosh next to their
// overflow), rather than against Go's math, which is itself up to 25 ulp
// off in places (TestMathAccuracyF64's references). The bounds are the
// kernels' documented ones; sinh and cosh beyond ln(max float64) are
// ±Inf there, as PyTorch's SLEEF kernels give (Note [SLEEF's sinh and
// cosh] in optable/elem).
func TestMathMP(t *testing.T) {
	fns := map[string]struct {
		fn   func(dst, x []float64)
		ulps float64
	}{
		"SinF64": {SinF64, 2}, "CosF64": {CosF64, 2}, "TanF64": {TanF64, 3},
		"AtanF64": {AtanF64, 2}, "AsinF64": {AsinF64, 2}, "AcosF64": {AcosF64, 2},
		"SinhF64": {SinhF64, 3}, "CoshF64": {CoshF64, 3},
		"AsinhF64": {AsinhF64, 3}, "AcoshF64": {AcoshF64, 3}, "AtanhF64": {AtanhF64, 3},
		"ErfF64": {ErfF64, 2}, "ErfcF64": {ErfcF64, 3},
	}
	for name, pts := range mpRef {
		f, ok := fns[name]
		if !ok {
			t.Fatalf("mpRef has %s, which the test does not know", name)
		}
		xs, got := make([]float64, len(pts)), make([]float64, len(pts))
		for i, p := range pts {
			xs[i] = math.Float64frombits(p[0])
		}
		f.fn(got, xs)
		worst, wx := 0.0, 0.0
		for i, p := range pts {
			want := math.Float64frombits(p[1])
			if (name == "SinhF64" || name == "CoshF64") && math.Abs(xs[i]) > optelem.LnMaxF64 {
				want = math.Inf(1)
				if name == "SinhF64" {
					want = math.Copysign(want, xs[i])
				}
			}
			var e float64
			if want == 0 || math.IsInf(want, 0) {
				if got[i] != want {
					t.Errorf("%s(%v) = %v, want %v", name, xs[i], got[i], want)
				}
				continue
			}
			if e = ulpErr64(got[i], want); e > worst {
				worst, wx = e, xs[i]
			}
		}
		t.Logf("%s: worst %.3f ulp from the correctly rounded value, at %v (%d points)", name, worst, wx, len(pts))
		if !(worst <= f.ulps) {
			t.Errorf("%s(%v): %.3f ulp, bound %v", name, wx, worst, f.ulps)
		}
	}
}
