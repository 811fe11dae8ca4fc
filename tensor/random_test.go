package tensor_test

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"sort"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// TestRandomStreamThreads checks Note [Random streams]: the same seed
// gives the same values on 1 and 2 threads and on the reference backend
// (one element at a time), for fills long enough to be split in many
// chunks, and a generator's successive draws continue the stream.
func TestRandomStreamThreads(t *testing.T) {
	draws := func() [][]float64 {
		g := NewGenerator(42)
		x := Zeros(Float32, 3, 70001).Transpose(0, 1) // a strided fill: row-major order of the view
		x.NormalInPlace(g, 1, 2)
		return [][]float64{
			g.Rand(Float64, 200003).Float64s(),
			g.Randn(Float32, 5, 40000).Float64s(),
			g.RandInt(-7, 1000, Int64, 100001).Float64s(),
			g.Bernoulli(Full(Scalar(0.3), Float64, 90000)).Float64s(),
			x.Float64s(),
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := draws()
	runtime.GOMAXPROCS(2)
	two := draws()
	for k := range one {
		if !slices.Equal(one[k], two[k]) {
			t.Errorf("draw %d differs between 1 and 2 threads", k)
		}
	}
	g := NewGenerator(42)
	ref := Zeros(Float32, 3, 70001).ToDevice(refDevice).Transpose(0, 1)
	ref.NormalInPlace(g, 1, 2)
	if !slices.Equal(ref.ToDevice(CPU).Float64s(), one[4]) {
		t.Errorf("normal_ on the reference backend differs from the CPU's")
	}
	a, b := NewGenerator(3).Rand(Float64, 10).Float64s(), NewGenerator(3)
	b.Rand(Float64, 4)
	if rest := b.Rand(Float64, 6).Float64s(); !slices.Equal(rest, a[4:]) {
		t.Errorf("a second draw does not continue the stream: %v, want %v", rest, a[4:])
	}
	if c := NewGenerator(4).Rand(Float64, 10).Float64s(); slices.Equal(c, a) {
		t.Errorf("seeds 3 and 4 give the same values")
	}
}

// ks returns the Kolmogorov–Smirnov statistic of xs against cdf.
func ks(xs []float64, cdf func(float64) float64) float64 {
	xs = slices.Clone(xs)
	sort.Float64s(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = max(d, f-float64(i)/n, float64(i+1)/n-f)
	}
	return d
}

// TestRandomDistributions checks the fills' distributions with
// Kolmogorov–Smirnov tests at significance 0.001 (critical value
// 1.95/√n), and the discrete ones by their frequencies.
func TestRandomDistributions(t *testing.T) {
	const n = 20000
	crit := 1.95 / math.Sqrt(n)
	g := NewGenerator(2024)
	phi := func(mean, std float64) func(float64) float64 {
		return func(x float64) float64 { return 0.5 * math.Erfc(-(x-mean)/(std*math.Sqrt2)) }
	}
	uniform := func(lo, hi float64) func(float64) float64 {
		return func(x float64) float64 { return min(max((x-lo)/(hi-lo), 0), 1) }
	}
	for _, c := range []struct {
		name string
		xs   []float64
		cdf  func(float64) float64
	}{
		{"rand-float64", g.Rand(Float64, n).Float64s(), uniform(0, 1)},
		{"rand-float32", g.Rand(Float32, n).Float64s(), uniform(0, 1)},
		{"uniform_-float64", Zeros(Float64, n).UniformInPlace(g, -3, 5).Float64s(), uniform(-3, 5)},
		{"randn-float64", g.Randn(Float64, n).Float64s(), phi(0, 1)},
		{"normal_-float32", Zeros(Float32, n).NormalInPlace(g, 2, 0.5).Float64s(), phi(2, 0.5)},
	} {
		if d := ks(c.xs, c.cdf); d > crit {
			t.Errorf("%s: KS statistic %.4f above %.4f", c.name, d, crit)
		}
		// the test has power: a shift by 2.5% of the range fails it
		lo, hi := slices.Min(c.xs), slices.Max(c.xs)
		shifted := make([]float64, len(c.xs))
		for i, x := range c.xs {
			shifted[i] = x + 0.025*(hi-lo)
		}
		if d := ks(shifted, c.cdf); d <= crit {
			t.Errorf("%s: the KS test does not see a shift of 2.5%% of the range (%.4f)", c.name, d)
		}
	}
	// randint: every value of [-3, 7) with frequency 1/10 (within 5 sigma)
	counts := map[float64]int{}
	for _, v := range g.RandInt(-3, 7, Int32, n).Float64s() {
		counts[v]++
	}
	sigma := math.Sqrt(n * 0.1 * 0.9)
	for v := -3.0; v < 7; v++ {
		if c := float64(counts[v]); math.Abs(c-n*0.1) > 5*sigma {
			t.Errorf("randint: %v drawn %v times of %d", v, c, n)
		}
	}
	if len(counts) != 10 {
		t.Errorf("randint: values %v outside [-3, 7)", counts)
	}
	ones := 0.0
	for _, v := range g.Bernoulli(Full(Scalar(0.25), Float32, n)).Float64s() {
		ones += v
	}
	if math.Abs(ones-n*0.25) > 5*math.Sqrt(n*0.25*0.75) {
		t.Errorf("bernoulli(0.25): %v ones of %d", ones, n)
	}
	perm := g.Randperm(1000, Int64).Int64s()
	sorted := slices.Clone(perm)
	slices.Sort(sorted)
	for i, v := range sorted {
		if v != int64(i) {
			t.Fatalf("randperm is not a permutation of 0..999")
		}
	}
	if slices.IsSorted(perm) {
		t.Errorf("randperm(1000) came out sorted")
	}
}

// TestRandomRefusals checks PyTorch's refusals: rand and randn of an
// integer dtype, randint over an empty range, bad probabilities, and an
// in-place fill of a leaf that requires grad.
func TestRandomRefusals(t *testing.T) {
	g := NewGenerator(1)
	for name, c := range map[string]struct {
		f    func()
		kind ErrorKind
	}{
		"rand-int32":       {func() { g.Rand(Int32, 3) }, DTypeError},
		"randn-int64":      {func() { g.Randn(Int64, 3) }, DTypeError},
		"randint-bool":     {func() { g.RandInt(0, 2, Bool, 3) }, DTypeError},
		"randint-empty":    {func() { g.RandInt(3, 3, Int64, 3) }, ValueError},
		"normal_-std":      {func() { Zeros(Float32, 2).NormalInPlace(g, 0, -1) }, ValueError},
		"dropout-p":        {func() { Dropout(Zeros(Float32, 2), 1.5, true, g) }, ValueError},
		"uniform_-leaf":    {func() { Zeros(Float64, 2).SetRequiresGrad(true).UniformInPlace(g, 0, 1) }, AutogradError},
		"bernoulli_-range": {func() { Zeros(Float64, 2).BernoulliInPlace(g, 2) }, ValueError},
	} {
		var e *Error
		if err := Try(c.f); !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("%s: %v, want a %s error", name, err, c.kind)
		}
	}
}

// TestDropout checks dropout's scaling, its zero fraction and its
// gradient (the mask, scaled).
func TestDropout(t *testing.T) {
	g := NewGenerator(8)
	x := Ones(Float64, 10000).SetRequiresGrad(true)
	y := Dropout(x, 0.3, true, g)
	y.Sum().Backward()
	zeros := 0
	vs, gs := y.Float64s(), x.Grad().Float64s()
	for i, v := range vs {
		switch {
		case v == 0:
			zeros++
		case math.Abs(v-1/0.7) > 1e-12:
			t.Fatalf("kept element %v, want 1/0.7", v)
		}
		if gs[i] != v {
			t.Fatalf("gradient %v where the output is %v", gs[i], v)
		}
	}
	if math.Abs(float64(zeros)-3000) > 5*math.Sqrt(10000*0.3*0.7) {
		t.Errorf("%d zeros of 10000 at p = 0.3", zeros)
	}
	if Dropout(x, 0.3, false, g) != x {
		t.Errorf("dropout outside training changed x")
	}
}
