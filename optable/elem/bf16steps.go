package elem

import (
	"math"
	"sync"

	"github.com/goten-ml/goten/dtype"
)

// Note [Bfloat16 steps]
// PyTorch 1.13 writes some CPU kernels in the arithmetic of their scalar_t:
// for bfloat16, every operation of c10::BFloat16 converts its operands to
// float, computes, and rounds the result back to bfloat16, and its
// Vectorized<BFloat16> does the same operation by operation. gelu (both
// forms), silu and logit are such kernels, so their bfloat16 results are
// the float32 operations of their formulas with each result rounded to
// bfloat16, not the formula rounded once (which differs in the last bit for
// a third to a half of random inputs). rsqrt's vector body computes 1/√x
// in float32 and rounds once; its scalar tail divides 1 by √x already
// rounded. The functions here take and return float32 holding bfloat16
// values; the transcendental steps are the float32 functions PyTorch's
// vectorized bfloat16 calls (SLEEF's expf and logf, erf and tanh rounded
// from float64).

// bf rounds x to bfloat16 (nearest even) and back.
func bf(x float32) float32 { return dtype.BF16FromFloat32(x).Float32() }

// The constants of PyTorch's kernels as bfloat16 holds them.
var (
	bfSqrtHalf  = bf(float32(math.Sqrt2 / 2))                              // gelu's M_SQRT1_2
	bfGeluBeta  = bf(float32(math.Sqrt2 * (2 / math.Sqrt(math.Pi)) * 0.5)) // gelu tanh's √(2/π)
	bfGeluKappa = bf(float32(0.044715))
)

// bf16Table holds a function's result for every bfloat16 value, by the
// value's bits, computed on first use: the step-by-step functions below
// take a bfloat16 and round their result, so a lookup is exact, and it
// is ten to twenty times faster than their scalar steps (erf, tanh and exp
// in float64 or SLEEF's float32).
type bf16Table struct {
	once sync.Once
	f    func(x float32) float32
	out  []uint16
}

func (t *bf16Table) build() {
	t.out = make([]uint16, 1<<16)
	for b := range t.out {
		t.out[b] = uint16(math.Float32bits(t.f(math.Float32frombits(uint32(b)<<16))) >> 16)
	}
}

// table returns the results by bits, built on first use.
func (t *bf16Table) table() []uint16 {
	t.once.Do(t.build)
	return t.out
}

// GeluBF16Table, GeluTanhBF16Table and SiluBF16Table return, indexed by a
// bfloat16's bits, the bits of [GeluBF16], [GeluTanhBF16] and [SiluBF16]
// of it: a backend's bfloat16 loop may look its elements up there.
func GeluBF16Table() []uint16 { return geluTable.table() }

// GeluTanhBF16Table: see [GeluBF16Table].
func GeluTanhBF16Table() []uint16 { return geluTanhTable.table() }

// SiluBF16Table: see [GeluBF16Table].
func SiluBF16Table() []uint16 { return siluTable.table() }

// LogitBF16Table is logit's table: [LogitBF16] without a clamp.
func LogitBF16Table() []uint16 { return logitTable.table() }

// at returns f(x) for float32 x holding a bfloat16, computing it where x
// holds more bits.
func (t *bf16Table) at(x float32) float32 {
	b := math.Float32bits(x)
	if b&0xffff != 0 {
		return t.f(x)
	}
	return math.Float32frombits(uint32(t.table()[b>>16]) << 16)
}

var (
	geluTable     = &bf16Table{f: geluBF16Steps}
	geluTanhTable = &bf16Table{f: geluTanhBF16Steps}
	siluTable     = &bf16Table{f: siluBF16Steps}
	logitTable    = &bf16Table{f: logitBF16Steps}
	rsqrtTable    = &bf16Table{f: rsqrtBF16Tail}
)

// GeluBF16 is gelu of bfloat16 x step by step: x·0.5·(1 + erf(x·√½)).
func GeluBF16(x float32) float32 { return geluTable.at(x) }

func geluBF16Steps(x float32) float32 {
	e := bf(float32(math.Erf(float64(bf(x * bfSqrtHalf)))))
	return bf(bf(x*0.5) * bf(1+e))
}

// GeluTanhBF16 is gelu's tanh form of bfloat16 x step by step:
// 0.5·x·(1 + tanh(β·(x + κ·x·x·x))).
func GeluTanhBF16(x float32) float32 { return geluTanhTable.at(x) }

func geluTanhBF16Steps(x float32) float32 {
	cube := bf(bf(x*x) * x)
	inner := bf(bfGeluBeta * bf(x+bf(bfGeluKappa*cube)))
	t := bf(float32(math.Tanh(float64(inner))))
	return bf(bf(0.5*x) * bf(1+t))
}

// SiluBF16 is silu of bfloat16 x step by step: x / (1 + e^-x).
func SiluBF16(x float32) float32 { return siluTable.at(x) }

func siluBF16Steps(x float32) float32 {
	return bf(x / bf(1+bf(ExpF32(-x))))
}

// LogitBF16 is logit of bfloat16 x step by step: log(x / (1 - x)), x
// clamped as [Logit] does first (lo and hi are bfloat16 values, as
// PyTorch converts eps to the compute dtype).
func LogitBF16(x, lo, hi float32, clamp bool) float32 {
	if clamp {
		if x < lo {
			x = lo
		} else if x > hi {
			x = hi
		}
	}
	return logitTable.at(x)
}

func logitBF16Steps(x float32) float32 {
	return bf(LogF32(bf(x / bf(1-x))))
}

// RsqrtBF16 is rsqrt of bfloat16 x: 1/√x rounded once in PyTorch's
// vector body, 1 over the rounded √x in its scalar tail.
func RsqrtBF16(x float32, vectorBody bool) float32 {
	if vectorBody {
		return bf(1 / float32(math.Sqrt(float64(x))))
	}
	return rsqrtTable.at(x)
}

func rsqrtBF16Tail(x float32) float32 {
	return bf(1 / bf(float32(math.Sqrt(float64(x)))))
}

// Lanes and chunks of PyTorch 1.13's RowwiseMoments over bfloat16: an AVX2
// Vectorized<BFloat16> holds 16 elements, and Welford runs over chunks of
// 16 vectors before they are merged.
const (
	momentLanes = 16
	momentChunk = 16
)

// MomentLanes is the Welford state of the 16 lanes of a bfloat16 chunk:
// the lanes' means, then their sums of squared deviations.
type MomentLanes = [2][momentLanes]float32

// LayerNormBF16Kernels are the loops of [LayerNormRowBF16]: its moments'
// loops over the 16 lanes of a chunk, [WelfordChunkBF16] and
// [MergeLanesBF16], and its affine map, [AffineBF16]. A backend may pass
// its own, which must compute the same bits.
type LayerNormBF16Kernels struct {
	Chunk  func(m *MomentLanes, x []float32, coef *[momentChunk]float32)
	Merge  func(w, m *MomentLanes, c, wn float32)
	Affine func(y, x, w, b []float32, scale, bias float32)
}

// layerNormGo are elem's own LayerNormBF16Kernels.
var layerNormGo = &LayerNormBF16Kernels{Chunk: WelfordChunkBF16, Merge: MergeLanesBF16, Affine: AffineBF16}

// WelfordChunkBF16 is one chunk of PyTorch's bfloat16 RowwiseMoments: for
// vector j of x (whole vectors of 16 lanes), lane l's Welford step with
// the coefficient coef[j] (1/(j+1) in bfloat16), every operation rounded
// to bfloat16: d = x − mean, mean += d·coef[j], m2 += d·(x − mean).
func WelfordChunkBF16(m *MomentLanes, x []float32, coef *[momentChunk]float32) {
	m1, m2 := &m[0], &m[1]
	for j := range len(x) / momentLanes {
		c := coef[j]
		v := (*[momentLanes]float32)(x[j*momentLanes:])
		for l := range momentLanes {
			d := bf(v[l] - m1[l])
			m1[l] = bf(m1[l] + bf(d*c))
			m2[l] = bf(m2[l] + bf(d*bf(v[l]-m1[l])))
		}
	}
}

// welfordCoef holds the coefficients of [WelfordChunkBF16]'s steps:
// 1/(j+1) in bfloat16 arithmetic.
var welfordCoef = func() (c [momentChunk]float32) {
	for j := range c {
		c[j] = bf(1 / bf(float32(j+1)))
	}
	return c
}()

// welford is one Welford state in bfloat16 arithmetic: a count, a mean
// and a sum of squared deviations.
type welford struct {
	n      int
	m1, m2 float32
}

// merge is AddMoments: it adds the state of n more elements, mean m1 and
// squared deviations m2, every step rounded to bfloat16.
func (w *welford) merge(n int, m1, m2 float32) {
	c, wn := mergeCoef(w.n, n)
	w.m1, w.m2 = mergeStep(w.m1, w.m2, m1, m2, c, wn)
	w.n += n
}

// mergeCoef returns AddMoments' coefficients for adding n elements to a
// state of wn: n/(wn+n) and wn, in bfloat16.
func mergeCoef(wn, n int) (c, wnBF float32) {
	if total := wn + n; total != 0 {
		c = bf(bf(float32(n)) / bf(float32(total)))
	}
	return c, bf(float32(wn))
}

// mergeStep is AddMoments' step on one lane: the state (wm1, wm2) with
// (m1, m2) added, coefficients c and wn of mergeCoef.
func mergeStep(wm1, wm2, m1, m2, c, wn float32) (float32, float32) {
	delta := bf(m1 - wm1)
	return bf(wm1 + bf(c*delta)), bf(wm2 + bf(m2+bf(bf(bf(delta*delta)*c)*wn)))
}

// MergeLanesBF16 is AddMoments on 16 lanes: each lane of w, the state
// of wn elements, gets the state in m of n more, c = n/(wn + n) and wn
// given in bfloat16 ([mergeCoef]), every step rounded to bfloat16.
func MergeLanesBF16(w, m *MomentLanes, c, wn float32) {
	for l := range momentLanes {
		w[0][l], w[1][l] = mergeStep(w[0][l], w[1][l], m[0][l], m[1][l], c, wn)
	}
}

// laneWelford is the Welford state of 16 lanes that have seen the same
// number of elements.
type laneWelford struct {
	n int
	m MomentLanes
}

// merge adds to each lane the state of n more elements in m, with k's
// Merge.
func (w *laneWelford) merge(n int, m *MomentLanes, k *LayerNormBF16Kernels) {
	c, wn := mergeCoef(w.n, n)
	k.Merge(&w.m, m, c, wn)
	w.n += n
}

// momentScratch is the working state of one [LayerNormBF16] call: a
// chunk's lanes and the cascade's levels. Pointers into it go to the
// kernels' func values, so Go would move it to the heap; it comes from
// momentScratches instead of two allocations per row.
type momentScratch struct {
	m     MomentLanes
	stack []laneWelford
}

var momentScratches = sync.Pool{New: func() any { return new(momentScratch) }}

// LayerNormRowBF16 writes to y the layer_norm of a row x of bfloat16 (as
// float32) with weight w and bias b (nil when absent): the scale and bias
// of [LayerNormBF16], then [AffineBF16]. k runs its loops, elem's own
// when nil.
func LayerNormRowBF16(y, x, w, b []float32, eps float64, k *LayerNormBF16Kernels) {
	if k == nil {
		k = layerNormGo
	}
	scale, bias := LayerNormBF16(x, eps, k)
	k.Affine(y[:len(x)], x, w, b, scale, bias)
}

// AffineBF16 sets y to x·scale + bias, then times the weight w and plus
// the bias b (each nil when absent), each operation in float32, as
// PyTorch's affine over bfloat16 computes it.
func AffineBF16(y, x, w, b []float32, scale, bias float32) {
	y = y[:len(x)]
	for k, v := range x {
		r := float32(v*scale) + bias // the conversions keep Go from fusing
		if w != nil {
			r = float32(r * w[k])
		}
		if b != nil {
			r += b[k]
		}
		y[k] = r
	}
}

// LayerNormBF16 returns the scale and bias PyTorch 1.13's bfloat16
// layer_norm normalises a row of x (float32 holding bfloat16) with, y =
// x·scale + bias before the weight and bias, computed in float32: scale
// is [LayerNormMomentsBF16]'s rstd and bias = −scale · mean, rounded to
// bfloat16.
func LayerNormBF16(x []float32, eps float64, k *LayerNormBF16Kernels) (scale, bias float32) {
	mean, rstd := LayerNormMomentsBF16(x, eps, k)
	return rstd, bf(-rstd * mean)
}

// LayerNormMomentsBF16 returns the mean and rstd = 1/√(var + eps) of a row
// of x (float32 holding bfloat16) as PyTorch 1.13's bfloat16 layer_norm
// computes them and saves them for its backward, in bfloat16. Its
// RowwiseMoments runs in bfloat16 arithmetic (Note [Bfloat16 steps]):
// Welford's algorithm per lane of 16, over chunks of 16 vectors merged in
// a cascade (k's loops, elem's own when nil), the elements past the last
// whole vector one by one, and the lanes merged into them; then rstd, each
// step rounded to bfloat16, eps too.
func LayerNormMomentsBF16(x []float32, eps float64, k *LayerNormBF16Kernels) (mean, rstd float32) {
	if k == nil {
		k = layerNormGo
	}
	n := len(x) / momentLanes
	chunks := (n + momentChunk - 1) / momentChunk
	depth := 0
	for 1<<depth < chunks {
		depth++
	}
	sc := momentScratches.Get().(*momentScratch)
	defer momentScratches.Put(sc)
	if cap(sc.stack) < max(depth, 1) {
		sc.stack = make([]laneWelford, max(depth, 1))
	}
	m, stack := &sc.m, sc.stack[:max(depth, 1)]
	clear(stack)
	for i := 0; i < chunks; i++ {
		base := i * momentChunk * momentLanes
		count := min(momentChunk, n-i*momentChunk)
		*m = MomentLanes{}
		k.Chunk(m, x[base:base+count*momentLanes], &welfordCoef)
		stack[0].merge(count, m, k)
		for j, mask := 1, i+1; j < depth && mask&1 == 0; j, mask = j+1, mask>>1 {
			stack[j].merge(stack[j-1].n, &stack[j-1].m, k)
			stack[j-1] = laneWelford{}
		}
	}
	for i := 1; i < depth; i++ {
		stack[0].merge(stack[i].n, &stack[i].m, k)
	}
	var row welford
	for _, v := range x[n*momentLanes:] {
		d := bf(v - row.m1)
		row.n++
		row.m1 = bf(row.m1 + bf(d/bf(float32(row.n))))
		row.m2 = bf(row.m2 + bf(d*bf(v-row.m1)))
	}
	for l := range momentLanes {
		// a lane's count is the number of whole vectors, as PyTorch's
		// AddMoments is called with it whatever the lane holds
		row.merge(n, stack[0].m[0][l], stack[0].m[1][l])
	}
	variance := bf(row.m2 / bf(float32(len(x))))
	return row.m1, bf(1 / bf(float32(math.Sqrt(float64(bf(variance+bf(float32(eps))))))))
}
