package kerneltest

import (
	"fmt"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The random cases (Note [Random streams] in package kernel): every
// random op × every dtype (refused where the reference refuses: uniform_
// and normal_ of integers) × outputs contiguous, transposed (the stream
// still follows row-major order), strided in a larger storage, empty and,
// in normal mode, long enough for several chunks. The stream is a pure
// function of the seed, the counter and the position, so a backend must
// reproduce the reference's values exactly; bernoulli reads probabilities
// of 0, 1 and between.

// rcaseArgs returns the arguments of random op in dtype d.
func randomArgs(op *optable.Op, d dtype.DType) kernel.Args {
	a := kernel.DefaultArgs
	a.Seed, a.Offset = 0x5eed+uint64(op.Code), 7
	switch op {
	case optable.Uniform:
		a.Low, a.High = -2, 3
	case optable.Normal:
		a.Low, a.High = 1, 2
	case optable.RandInt:
		a.LowI, a.HighI = -3, 100
		switch {
		case d == dtype.Bool:
			a.LowI, a.HighI = 0, 2
		case d == dtype.Uint8:
			a.LowI, a.HighI = 0, 200
		case d.IsInt():
		default:
			a.LowI, a.HighI = -1000, 1000
		}
	}
	return a
}

// randoms adds the random cases.
func (s *suite) randoms() {
	shapes := [][]int{{7}, {3, 5}, {0, 4}}
	if !s.short && !raceEnabled {
		shapes = append(shapes, []int{5, 9000})
	}
	for _, op := range optable.Ops[1:] {
		if op.Kind != optable.Random {
			continue
		}
		for _, d := range dtype.All {
			path := []string{"random", op.Go, d.String()}
			probe := func(be kernel.Backend) error {
				ts := randomTensors(op, d, []int{2}, "contiguous", []string{"probe"})
				p, err := place(be, ts)
				if err != nil {
					return err
				}
				return runRandomCase(be, op, d, []int{2}, p.views)
			}
			if !s.runs(probe(s.ref), path, probe) {
				continue
			}
			for _, sh := range shapes {
				for _, l := range []string{"contiguous", "transposed", "strided"} {
					p := append(append([]string{}, path...), fmt.Sprintf("%s-%s", shapeName(sh), l))
					s.add(func() error {
						ts := randomTensors(op, d, sh, l, p)
						run := func(be kernel.Backend, vs []*raw.View) error { return runRandomCase(be, op, d, sh, vs) }
						return s.same(ts, []int{0}, exact, run, nil)
					}, p...)
				}
			}
		}
	}
}

// randomTensors builds the output (garbage) and, for bernoulli, its
// probabilities.
func randomTensors(op *optable.Op, d dtype.DType, sh []int, layout string, path []string) []*tensor {
	ts := []*tensor{newTensor(d, outputSpec(sh, layout)).garbage()}
	if op == optable.Bernoulli {
		r := rng(path...)
		ps := []float64{0, 1, 0.5, 0.25, 0.9}
		ts = append(ts, newTensor(dtype.Float64, inputSpec(sh, layout)).fill(func() value { return fv(ps[r.IntN(len(ps))]) }))
	}
	return ts
}

// runRandomCase builds a random plan over views vs and runs it on be.
func runRandomCase(be kernel.Backend, op *optable.Op, d dtype.DType, sh []int, vs []*raw.View) error {
	cfg := iter.NewConfig().StaticShape(sh).StaticDType(d).CheckMemOverlap(false).ResizeOutputs(false).
		EnforceLinearIteration(true).AddOutput(vs[0])
	if op == optable.Bernoulli {
		cfg.AddInput(vs[1])
	}
	p, err := cfg.Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	args := randomArgs(op, d)
	return be.Random(op, p, &args)
}
