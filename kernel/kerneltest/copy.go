package kerneltest

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// The copy cases: every (source, destination) pair of dtypes × the
// layouts of Note [Layouts] but in-place, compared exactly with the
// reference: a conversion has one right answer (kernel.Backend.Copy's
// rules), and only values for which it is defined are drawn (Note [Value
// pools]).

// copies adds the copy cases.
func (s *suite) copies() {
	for _, src := range dtype.All {
		for _, dst := range dtype.All {
			for _, l := range s.elementwiseLayouts(1) {
				if l.inPlace {
					continue
				}
				path := []string{"copy", src.String() + "-" + dst.String(), l.name}
				s.add(func() error { return s.runCopy(src, dst, l, path) }, path...)
			}
		}
	}
}

// runCopy copies a src tensor into a dst one laid out by l.
func (s *suite) runCopy(src, dst dtype.DType, l layout, path []string) error {
	r := rng(path...)
	outSpec, inSpecs := l.build(1)
	ts := []*tensor{
		newTensor(src, inSpecs[0]).fill(func() value { return copyValue(r, src, dst) }),
		newTensor(dst, outSpec).garbage(),
	}
	run := func(be kernel.Backend, vs []*raw.View) error {
		p, err := iter.NewConfig().AddOutput(vs[1]).AddInput(vs[0]).CheckAllSameDType(false).ResizeOutputs(false).Build()
		if err != nil {
			return kitErr("building the plan: %v", err)
		}
		return be.Copy(p)
	}
	return s.same(ts, []int{1}, exact, run, &elementwise{ts, 1})
}
