package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The sort cases (Note [Sort plans] in package kernel): sort (ascending
// and descending), topk (k of 0, 1, 3 and the whole row, largest and
// smallest), kthvalue, median and nanmedian × every dtype (refused where
// the reference refuses) × rows short enough for an insertion sort and
// long enough for a radix sort, along every dim, contiguous, transposed or
// strided. Rows draw from small pools full of ties, with ±0, ±Inf and NaN
// for floats and the ends of the range for integers, so that a backend
// must order NaN last and break ties by position exactly as the reference
// does. searchsorted searches sorted rows (a 1-D sequence broadcast over
// the values, and one row per row of values) to the left and to the
// right, into int64 and int32.

// sortValue draws an element of a sorted row: ties, signed zeros,
// infinities and NaN.
func sortValue(r *rand.Rand, d dtype.DType) value {
	switch {
	case d == dtype.Bool:
		return iv(int64(r.IntN(2)))
	case d.IsFloat():
		pool := []float64{-2, -1, math.Copysign(0, -1), 0, 0.5, 1, 1, 3, math.NaN(), math.Inf(1), math.Inf(-1)}
		return fv(pool[r.IntN(len(pool))])
	}
	lo, hi := intRange(d)
	switch r.IntN(8) {
	case 0:
		return iv(lo)
	case 1:
		return iv(hi)
	}
	if d == dtype.Uint8 {
		return iv(int64(r.IntN(6)))
	}
	return iv(int64(r.IntN(7) - 3))
}

// sortCase is one sort case: op along dim of an input of shape shape.
type sortCase struct {
	op     *optable.Op
	d      dtype.DType
	args   kernel.Args
	name   string
	shape  []int
	dim    int
	layout string
}

// sortVariants returns the arguments op runs with, named.
func sortVariants(op *optable.Op) []sortCase {
	var r []sortCase
	add := func(name string, edit func(a *kernel.Args)) {
		a := kernel.DefaultArgs
		edit(&a)
		r = append(r, sortCase{op: op, args: a, name: name})
	}
	switch op {
	case optable.SortOp:
		add("ascending", func(a *kernel.Args) {})
		add("descending", func(a *kernel.Args) { a.Descending = true })
	case optable.TopK:
		for _, k := range []int{0, 1, 3, -1} {
			for _, largest := range []bool{true, false} {
				add(fmt.Sprintf("k%d-largest=%v", k, largest), func(a *kernel.Args) { a.K, a.Descending = k, largest })
			}
		}
	case optable.KthValue:
		for _, k := range []int{1, -2, -1} {
			add(fmt.Sprintf("k%d", k), func(a *kernel.Args) { a.K = k })
		}
	default:
		add(op.Go, func(a *kernel.Args) {})
	}
	return r
}

// sortRows returns the output rows' length of c for input rows of n.
func sortRows(c sortCase, n int) int {
	switch c.op {
	case optable.SortOp:
		return n
	case optable.TopK:
		if c.args.K < 0 {
			return n
		}
		return min(c.args.K, n)
	}
	return 1
}

// sorts adds the sort cases.
func (s *suite) sorts() {
	shapes := [][]int{{1}, {7}, {3, 40}, {2, 3, 5}, {0, 3}}
	if !s.short && !raceEnabled {
		shapes = append(shapes, []int{4, 1000}, []int{20000, 2})
	}
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Sort || op == optable.SearchSorted {
			continue
		}
		for _, v := range sortVariants(op) {
			for _, d := range dtype.All {
				path := []string{"sort", op.Go, v.name, d.String()}
				base := v
				base.d = d
				probe := func(be kernel.Backend) error {
					c := base
					c.shape, c.dim, c.layout = []int{3}, 0, "contiguous"
					ts := sortTensors(c, []string{"probe"})
					p, err := place(be, ts)
					if err != nil {
						return err
					}
					return runSortCase(be, c, p.views)
				}
				if !s.runs(probe(s.ref), path, probe) {
					continue
				}
				for _, sh := range shapes {
					for dim := range sh {
						if sh[dim] == 0 && op != optable.SortOp && op != optable.TopK {
							continue // no k-th element of an empty row
						}
						for _, l := range []string{"contiguous", "transposed", "strided"} {
							c := base
							c.shape, c.dim, c.layout = sh, dim, l
							p := append(append([]string{}, path...), fmt.Sprintf("%s-dim%d-%s", shapeName(sh), dim, l))
							s.add(func() error { return s.runSort(c, p) }, p...)
						}
					}
				}
			}
		}
	}
	s.searches()
}

// sortArgs resolves c's arguments for rows of n: negative ks count from
// the end.
func sortArgs(c sortCase, n int) kernel.Args {
	a := c.args
	if c.op == optable.KthValue && a.K < 0 {
		a.K = max(1, n+2+a.K) // -1: the last, -2: the middle
		if c.args.K == -2 {
			a.K = max(1, (n+1)/2)
		}
	}
	if c.op == optable.TopK {
		a.K = sortRows(c, n)
	}
	return a
}

// sortTensors builds c's tensors: the input, then the values and indices
// outputs.
func sortTensors(c sortCase, path []string) []*tensor {
	r := rng(path...)
	in := newTensor(c.d, inputSpec(c.shape, c.layout)).fill(func() value { return sortValue(r, c.d) })
	out := append([]int{}, c.shape...)
	out[c.dim] = sortRows(c, c.shape[c.dim])
	return []*tensor{in, newTensor(c.d, outputSpec(out, c.layout)).garbage(), newTensor(dtype.Int64, outputSpec(out, c.layout)).garbage()}
}

// runSortCase builds c's row plan over views vs and runs it on be.
func runSortCase(be kernel.Backend, c sortCase, vs []*raw.View) error {
	p, err := iter.NewConfig().StaticShapeSquash(c.shape, c.dim).StaticDType(c.d).CheckMemOverlap(false).
		ResizeOutputs(false).AddOutput(vs[1]).AddOutput(vs[2]).AddInput(vs[0]).Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	args := sortArgs(c, c.shape[c.dim])
	args.Dim = c.dim
	return be.Sort(c.op, p, &args)
}

// runSort runs case c, whose values are drawn from path.
func (s *suite) runSort(c sortCase, path []string) error {
	ts := sortTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error { return runSortCase(be, c, vs) }
	return s.same(ts, []int{1, 2}, exact, run, nil)
}

// searches adds the searchsorted cases.
func (s *suite) searches() {
	op := optable.SearchSorted
	for _, d := range dtype.All {
		path := []string{"sort", op.Go, d.String()}
		probe := func(be kernel.Backend) error {
			ts := searchTensors(d, []int{3}, []int{2}, dtype.Int64, []string{"probe"})
			p, err := place(be, ts)
			if err != nil {
				return err
			}
			return runSearchCase(be, []int{2}, false, p.views)
		}
		if !s.runs(probe(s.ref), path, probe) {
			continue
		}
		for _, sh := range [][2][]int{{{9}, {3, 4}}, {{3, 9}, {3, 5}}, {{40}, {200}}, {{0}, {4}}} {
			for _, right := range []bool{false, true} {
				for _, out := range []dtype.DType{dtype.Int64, dtype.Int32} {
					name := fmt.Sprintf("%s-in-%s-right=%v-%s", shapeName(sh[1]), shapeName(sh[0]), right, out)
					p := append(append([]string{}, path...), name)
					seq, vals := sh[0], sh[1]
					s.add(func() error {
						ts := searchTensors(d, seq, vals, out, p)
						run := func(be kernel.Backend, vs []*raw.View) error { return runSearchCase(be, vals, right, vs) }
						return s.same(ts, []int{2}, exact, run, nil)
					}, p...)
				}
			}
		}
	}
}

// searchTensors builds a searchsorted case: the sequence (rows sorted on
// the host), the values, the output.
func searchTensors(d dtype.DType, seq, vals []int, out dtype.DType, path []string) []*tensor {
	r := rng(path...)
	st := newTensor(d, dense(seq...))
	m := seq[len(seq)-1]
	rows := 1
	if m > 0 {
		rows = st.spec.numel() / m
	}
	for row := 0; row < rows && m > 0; row++ {
		xs := make([]value, m)
		for i := range xs {
			xs[i] = sortValue(r, d)
		}
		sort.SliceStable(xs, func(a, b int) bool {
			if d.IsFloat() {
				fa, fb := xs[a].f, xs[b].f
				return !math.IsNaN(fa) && (math.IsNaN(fb) || fa < fb)
			}
			return xs[a].i < xs[b].i
		})
		for i, x := range xs {
			x.store(st.host, d, row*m+i)
		}
	}
	vt := newTensor(d, inputSpec(vals, "strided")).fill(func() value { return sortValue(r, d) })
	return []*tensor{st, vt, newTensor(out, outputSpec(vals, "strided")).garbage()}
}

// runSearchCase builds a searchsorted row plan over the values' last dim.
func runSearchCase(be kernel.Backend, vals []int, right bool, vs []*raw.View) error {
	seq := vs[0]
	last := len(vals) - 1
	if seq.Dim() == 1 {
		sizes := append(append([]int{}, vals[:last]...), seq.Shape[0])
		st := make([]int, len(sizes))
		st[last] = seq.Strides[0]
		seq = seq.WithLayout(sizes, st, seq.Offset)
	}
	p, err := iter.NewConfig().StaticShapeSquash(vals, last).StaticDType(vs[0].DType).CheckMemOverlap(false).
		ResizeOutputs(false).AddOutput(vs[2]).AddInput(seq).AddInput(vs[1]).Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	args := kernel.DefaultArgs
	args.Dim, args.Right = last, right
	return be.Sort(optable.SearchSorted, p, &args)
}
