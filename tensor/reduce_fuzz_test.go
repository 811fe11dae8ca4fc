package tensor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/tensor"
)

// The reduction fuzz test: random reductions over random dims of random
// views (permuted, strided, broadcast, offset; sizes from 0 to a few
// hundred, so that every strategy of the CPU kernel — inner, outer, full,
// SIMD rows, converted inputs — is reached) against a naive reference
// written here with index arithmetic in float64: every input element is
// read by its multi-index and appended to the list of its output element.

// reduceCase is one random reduction.
type reduceCase struct {
	op      string
	dt      dtype.DType
	in      *raw.View
	dims    []int // nil: all
	keepdim bool
	p       float64 // norm
	corr    int     // var, std
}

var fuzzReduceOps = []string{"sum", "nansum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin",
	"argmax_flat", "var", "std", "norm", "logsumexp", "all", "any", "count_nonzero"}

// randomSizes returns a shape with mostly small sizes, sometimes long
// rows, and at most about 20000 elements.
func randomSizes(r *rand.Rand) []int {
	nd := r.IntN(5)
	s := make([]int, nd)
	total := 1
	for i := range s {
		switch k := r.IntN(12); {
		case k == 0:
			s[i] = 0
		case k < 3:
			s[i] = 17 + r.IntN(40)
		case k == 3:
			s[i] = 200 + r.IntN(400)
		default:
			s[i] = 1 + r.IntN(5)
		}
		if total*max(s[i], 1) > 20000 {
			s[i] = 1 + r.IntN(3)
		}
		total *= max(s[i], 1)
	}
	return s
}

func newReduceCase(seed uint64) reduceCase {
	r := rand.New(rand.NewPCG(seed, 11))
	c := reduceCase{op: fuzzReduceOps[r.IntN(len(fuzzReduceOps))]}
	floats := []dtype.DType{dtype.Float32, dtype.Float64, dtype.Float16, dtype.BFloat16}
	switch c.op {
	case "mean", "var", "std", "norm", "logsumexp":
		c.dt = floats[r.IntN(len(floats))]
	default:
		c.dt = dtype.All[r.IntN(len(dtype.All))]
	}
	c.in = randomView(r, c.dt, randomSizes(r))
	if c.dt.IsFloat() && r.IntN(4) == 0 && c.in.NumEl() > 0 { // a NaN somewhere in the storage
		c.in.SetFloat64(r.IntN(c.in.Storage.Len()/c.dt.Size()), math.NaN())
	}
	nd := c.in.Dim()
	switch {
	case c.op == "argmax_flat":
	case c.op == "max" || c.op == "min" || c.op == "argmax" || c.op == "argmin":
		c.dims = []int{r.IntN(max(nd, 1)) - r.IntN(2)*max(nd, 1)}
	case nd > 0 && r.IntN(4) != 0:
		for _, d := range r.Perm(nd)[:1+r.IntN(nd)] {
			if r.IntN(2) == 0 {
				d -= nd
			}
			c.dims = append(c.dims, d)
		}
	}
	c.keepdim = r.IntN(2) == 0 && c.op != "argmax_flat" && c.op != "count_nonzero"
	c.p = []float64{0, 1, 2, 3, math.Inf(1), math.Inf(-1)}[r.IntN(6)]
	c.corr = r.IntN(3)
	return c
}

func (c reduceCase) String() string {
	return fmt.Sprintf("%s(%s%v strides %v offset %d, dims %v, keepdim %v, p %v, correction %d)",
		c.op, c.dt, c.in.Shape, c.in.Strides, c.in.Offset, c.dims, c.keepdim, c.p, c.corr)
}

// run computes the case with goten: the result, and the indices of max/min.
func (c reduceCase) run() (res, idx *tensor.Tensor, err error) {
	t := tensor.FromRaw(c.in)
	var o tensor.Dims // no dims: every one, with no dim list (Over() is dim=[], which logsumexp refuses)
	if len(c.dims) > 0 {
		o = tensor.Over(c.dims...)
	}
	if c.keepdim {
		o = o.KeepDim()
	}
	err = tensor.Try(func() {
		switch c.op {
		case "sum":
			res = t.Sum(o)
		case "nansum":
			res = t.NanSum(o)
		case "mean":
			res = t.Mean(o)
		case "prod":
			res = t.Prod(o)
		case "amax":
			res = t.Amax(o)
		case "amin":
			res = t.Amin(o)
		case "max":
			res, idx = t.Max(o)
		case "min":
			res, idx = t.Min(o)
		case "argmax":
			res = t.ArgMax(o)
		case "argmin":
			res = t.ArgMin(o)
		case "argmax_flat":
			res = t.ArgMax()
		case "var":
			res = t.Var(o.Correction(float64(c.corr)))
		case "std":
			res = t.Std(o.Correction(float64(c.corr)))
		case "norm":
			res = t.Norm(o.P(c.p))
		case "logsumexp":
			res = t.LogSumExp(o)
		case "all":
			res = t.All(o)
		case "any":
			res = t.Any(o)
		case "count_nonzero":
			res = t.CountNonzero(tensor.Over(c.dims...))
		}
	})
	return res, idx, err
}

// elem is an input element: its value and its index along the reduced dim.
type refElem struct {
	v   float64
	idx int
}

// want computes the case naively: the result dtype and shape, the values,
// the indices (max, min), and whether goten must refuse it (an empty
// reduction without identity).
func (c reduceCase) want() (dt dtype.DType, shape []int, vals []float64, idxs []int, refuse bool) {
	v := c.in
	nd := v.Dim()
	reduced := make([]bool, nd)
	flat := c.op == "argmax_flat"
	if len(c.dims) == 0 || flat {
		for d := range reduced {
			reduced[d] = true
		}
	}
	for _, d := range c.dims {
		if nd > 0 {
			reduced[(d+nd)%nd] = true
		}
	}
	var outShape []int
	for d, s := range v.Shape {
		switch {
		case !reduced[d]:
			outShape = append(outShape, s)
		case c.keepdim:
			outShape = append(outShape, 1)
		}
	}
	if outShape == nil {
		outShape = []int{}
	}
	// the result dtype
	dt = c.dt
	switch c.op {
	case "sum", "nansum", "prod":
		if c.dt.IsIntOrBool() {
			dt = dtype.Int64
		}
	case "argmax", "argmin", "argmax_flat", "count_nonzero":
		dt = dtype.Int64
	case "all", "any":
		dt = dtype.Bool
		if c.dt == dtype.Uint8 {
			dt = dtype.Uint8
		}
	}
	noIdentity := map[string]bool{"amax": true, "amin": true, "max": true, "min": true, "argmax": true, "argmin": true, "argmax_flat": true}[c.op]
	for d, s := range v.Shape {
		if reduced[d] && s == 0 && noIdentity {
			refuse = true
		}
	}
	if noIdentity && v.NumEl() == 0 && (len(c.dims) == 0 || flat) {
		refuse = true
	}
	// gather
	nOut := 1
	for _, s := range outShape {
		nOut *= s
	}
	if argIndex := c.op == "argmax" || c.op == "argmin" || c.op == "argmax_flat"; argIndex && c.dt == dtype.Bool && nOut > 0 && !(c.op != "argmax_flat" && nd > 0 && v.NumEl() == nOut) {
		refuse = true // PyTorch has no argmax/argmin kernel for bool (but along a dim of size 1 it needs none)
	}
	if c.op == "prod" && c.dt.IsReduced() && v.NumEl() > 0 {
		refuse = true // nor a prod kernel for float16 and bfloat16
	}
	lists := make([][]refElem, nOut)
	idx := make([]int, nd)
	for i := 0; i < v.NumEl(); i++ {
		rem := i
		for d := nd - 1; d >= 0; d-- {
			idx[d] = rem % v.Shape[d]
			rem /= v.Shape[d]
		}
		off, o, ri := v.Offset, 0, 0
		for d := 0; d < nd; d++ {
			off += idx[d] * v.Strides[d]
			if reduced[d] {
				ri = ri*v.Shape[d] + idx[d] // the index along the (single) reduced dim, or the flat index
				if c.keepdim {
					o *= 1
				}
				continue
			}
			o = o*v.Shape[d] + idx[d]
		}
		lists[o] = append(lists[o], refElem{v.Float64At(off), ri})
	}
	vals = make([]float64, nOut)
	idxs = make([]int, nOut)
	for o, l := range lists {
		vals[o], idxs[o] = c.reduceList(l)
		vals[o] = roundTo(vals[o], dt)
	}
	return dt, outShape, vals, idxs, refuse
}

func (c reduceCase) reduceList(l []refElem) (float64, int) {
	n := float64(len(l))
	isInt := !c.dt.IsFloat()
	switch c.op {
	case "sum", "nansum", "mean":
		var s float64
		var si int64
		for _, e := range l {
			if c.op == "nansum" && math.IsNaN(e.v) {
				continue
			}
			s += e.v
			si += int64(e.v)
		}
		if isInt {
			return float64(si), 0
		}
		if c.op == "mean" {
			if c.dt.IsReduced() {
				s = roundTo(s, c.dt)
			}
			return s / n, 0
		}
		return s, 0
	case "prod":
		p, pi := 1.0, int64(1)
		for _, e := range l {
			p *= e.v
			pi *= int64(e.v)
		}
		if isInt {
			return float64(pi), 0
		}
		return p, 0
	case "amax", "amin", "max", "min", "argmax", "argmin", "argmax_flat":
		if len(l) == 0 {
			return 0, 0
		}
		isMax := c.op == "amax" || c.op == "max" || c.op == "argmax" || c.op == "argmax_flat"
		best := l[0]
		for _, e := range l[1:] {
			if math.IsNaN(best.v) {
				break
			}
			if math.IsNaN(e.v) || isMax && e.v > best.v || !isMax && e.v < best.v {
				best = e
			}
		}
		if strings := c.op; strings == "argmax" || strings == "argmin" || strings == "argmax_flat" {
			return float64(best.idx), best.idx
		}
		return best.v, best.idx
	case "var", "std":
		var mean float64
		for _, e := range l {
			mean += e.v
		}
		mean /= n
		var m2 float64
		for _, e := range l {
			m2 += (e.v - mean) * (e.v - mean)
		}
		if len(l) == 0 {
			m2 = 0
		}
		r := m2 / math.Max(n-float64(c.corr), 0)
		if c.op == "std" {
			r = math.Sqrt(r)
		}
		return r, 0
	case "norm":
		var s float64
		switch {
		case math.IsInf(c.p, 1):
			for _, e := range l {
				if a := math.Abs(e.v); a > s || math.IsNaN(a) {
					s = a
				}
			}
		case math.IsInf(c.p, -1):
			s = math.Inf(1)
			for _, e := range l {
				if a := math.Abs(e.v); a < s || math.IsNaN(a) {
					s = a
				}
				if math.IsNaN(s) {
					break
				}
			}
		case c.p == 0:
			for _, e := range l {
				if e.v != 0 {
					s++
				}
			}
		default:
			for _, e := range l {
				s += math.Pow(math.Abs(e.v), c.p)
			}
			s = math.Pow(s, 1/c.p)
		}
		return s, 0
	case "logsumexp":
		m := math.Inf(-1)
		for _, e := range l {
			if e.v > m || math.IsNaN(e.v) {
				m = e.v
			}
		}
		if math.IsInf(m, 0) || math.IsNaN(m) {
			if math.IsNaN(m) {
				return m, 0
			}
			if len(l) == 0 || math.IsInf(m, -1) {
				return math.Inf(-1), 0
			}
			return m, 0
		}
		var s float64
		for _, e := range l {
			s += math.Exp(e.v - m)
		}
		return m + math.Log(s), 0
	case "all", "any", "count_nonzero":
		all, any, cnt := true, false, 0
		for _, e := range l {
			nz := e.v != 0 || math.IsNaN(e.v)
			all, any = all && nz, any || nz
			if nz {
				cnt++
			}
		}
		switch c.op {
		case "all":
			return b2f(all), 0
		case "any":
			return b2f(any), 0
		}
		return float64(cnt), 0
	}
	panic("unknown op " + c.op)
}

// tolerance returns the relative and absolute tolerance of the case.
func (c reduceCase) tolerance(dt dtype.DType) (rtol, atol float64) {
	exact := map[string]bool{"amax": true, "amin": true, "max": true, "min": true, "argmax": true, "argmin": true,
		"argmax_flat": true, "all": true, "any": true, "count_nonzero": true}[c.op]
	switch {
	case exact || !dt.IsFloat():
		return 0, 0
	case dt == dtype.Float64:
		return 1e-9, 1e-9
	case dt == dtype.Float32:
		return 1e-5, 1e-5
	case dt == dtype.Float16:
		return 2e-3, 2e-3
	}
	return 2e-2, 2e-2
}

func checkReduce(t *testing.T, seed uint64) {
	c := newReduceCase(seed)
	if c.op == "prod" && c.dt.IsFloat() && c.in.NumEl() > 64 {
		c.op = "sum" // long float products under- and overflow; their rounding is not the point
	}
	got, gotIdx, err := c.run()
	dt, shape, vals, idxs, refuse := c.want()
	desc := fmt.Sprintf("seed %d: %v", seed, c)
	if refuse {
		if err == nil {
			t.Fatalf("%s: no error over an empty reduction or a dtype PyTorch refuses", desc)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", desc, err)
	}
	if got.DType() != dt || !slices.Equal(got.Shape(), shape) {
		t.Fatalf("%s: got %s%v, want %s%v", desc, got.DType(), got.Shape(), dt, shape)
	}
	rtol, atol := c.tolerance(dt)
	gv := got.Raw()
	k := 0
	gv.ElementOffsets(func(off int) {
		g, w := gv.Float64At(off), vals[k]
		if !(g == w || math.IsNaN(g) && math.IsNaN(w) || math.Abs(g-w) <= atol+rtol*math.Abs(w)) {
			t.Fatalf("%s: element %d = %v, want %v", desc, k, g, w)
		}
		k++
	})
	if gotIdx != nil {
		k = 0
		gotIdx.Raw().ElementOffsets(func(off int) {
			if g := gotIdx.Raw().Int64At(off); g != int64(idxs[k]) {
				t.Fatalf("%s: index %d = %d, want %d", desc, k, g, idxs[k])
			}
			k++
		})
	}
}

// FuzzReduce runs random reductions over random dims and views through the
// public API and checks them against the naive reference.
func FuzzReduce(f *testing.F) {
	for s := uint64(0); s < 20; s++ {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkReduce(t, seed) })
}

// TestReduceRandom runs many seeds of FuzzReduce as a plain test.
func TestReduceRandom(t *testing.T) {
	n := uint64(3000)
	if testing.Short() {
		n = 300
	}
	for s := uint64(0); s < n; s++ {
		checkReduce(t, s)
	}
}
