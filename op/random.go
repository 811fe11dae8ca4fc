package op

import (
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// Random fills out in place with the random op kop (uniform_, normal_,
// bernoulli_ with the float64 probabilities probs of out's shape, random_)
// from the stream of args.Seed starting at counter args.Offset, element i
// of out in row-major order taking counter Offset + i (Note [Random
// streams] in package kernel): the values do not depend on the number of
// workers. A dtype kop does not take is a dtype error, raised before
// anything is written.
func Random(name string, kop *optable.Op, out, probs *raw.View, args *kernel.Args) error {
	cfg := iter.NewConfig().Op(name).StaticShape(out.Shape).StaticDType(out.DType).CheckMemOverlap(false).
		ResizeOutputs(false).EnforceLinearIteration(true).AddOutput(out)
	if kop == optable.Bernoulli {
		cfg.AddInput(probs)
	}
	p, err := cfg.Build()
	if err != nil {
		return err
	}
	be, err := backendOn(name, p.Device())
	if err != nil {
		return err
	}
	return errs.WithOp(be.Random(kop, p, args), name)
}
