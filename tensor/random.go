package tensor

import (
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// Generator is a seeded source of random tensors, made on the CPU (and
// moved to an operand's device where one is given): a counter-based stream
// (Philox4x32-10 keyed by the seed, Note [Random streams] in package
// kernel) whose counter advances by the number of elements each draw
// fills. The same seed gives the same tensors on every machine, for any
// number of threads and any backend. It is not safe for concurrent use.
type Generator struct {
	seed, offset uint64
}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator { return &Generator{seed: seed} }

// fill runs the random op kop over out (probs: bernoulli's float64
// probabilities) from the generator's counter, which then advances past
// it.
func (g *Generator) fill(name string, kop *optable.Op, out, probs *raw.View, args kernel.Args) {
	args.Seed, args.Offset = g.seed, g.offset
	must(op.Random(name, kop, out, probs, &args))
	g.offset += uint64(out.NumEl())
}

// draw returns a new tensor of dtype dt and shape filled by kop.
func (g *Generator) draw(name string, kop *optable.Op, dt DType, shape []int, args kernel.Args) *Tensor {
	v := alloc(name, dt, shape, false)
	g.fill(name, kop, v, nil, args)
	return wrap(v)
}

// Rand returns a tensor of values uniform in [0, 1) of the float dtype dt
// (another dtype is a dtype error, as in PyTorch).
func (g *Generator) Rand(dt DType, shape ...int) *Tensor {
	return g.draw("rand", optable.Uniform, dt, shape, kernel.Args{Low: 0, High: 1})
}

// Randn returns a tensor of standard normal values of the float dtype dt.
func (g *Generator) Randn(dt DType, shape ...int) *Tensor {
	return g.draw("randn", optable.Normal, dt, shape, kernel.Args{Low: 0, High: 1})
}

// RandInt returns a tensor of integers uniform in [low, high) of dtype dt
// (an integer or float dtype; bool is a dtype error). high ≤ low is a
// value error.
func (g *Generator) RandInt(low, high int64, dt DType, shape ...int) *Tensor {
	return g.draw("randint", optable.RandInt, dt, shape, kernel.Args{LowI: low, HighI: high})
}

// Randperm returns a random permutation of 0 … n−1 of the integer or
// float dtype dt: the order that sorts n uniform float64 draws.
func (g *Generator) Randperm(n int, dt DType) *Tensor {
	if n < 0 {
		panic(errs.New(errs.Value, "randperm", "n must be non-negative, got%d", n))
	}
	return Argsort(g.Rand(Float64, n), 0, false).To(dt)
}

// Bernoulli returns a tensor of p's shape, dtype and device with 1 where
// a draw falls below p (the probabilities, in [0, 1]) and 0 elsewhere.
func (g *Generator) Bernoulli(p *Tensor) *Tensor {
	v := alloc("bernoulli", p.DType(), p.v.Shape, false)
	g.fill("bernoulli", optable.Bernoulli, v, p.ToDevice(CPU).To(Float64).v, kernel.Args{})
	return onDeviceOf(p, wrap(v))
}

// fillInPlace fills t in place with kop, as an overwrite for autograd.
func (g *Generator) fillInPlace(name string, t *Tensor, kop *optable.Op, probs *raw.View, args kernel.Args) *Tensor {
	t.beforeOverwrite(name)
	g.fill(name, kop, t.v, probs, args)
	written(t)
	overwrite(name, t)
	return t
}

// UniformInPlace fills the float t with values uniform in [low, high) and
// returns t (PyTorch's uniform_).
func (t *Tensor) UniformInPlace(g *Generator, low, high float64) *Tensor {
	if low > high {
		panic(errs.New(errs.Value, "uniform_", "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", low, high))
	}
	return g.fillInPlace("uniform_", t, optable.Uniform, nil, kernel.Args{Low: low, High: high})
}

// NormalInPlace fills the float t with normal values of mean and std (≥ 0,
// else a value error) and returns t (PyTorch's normal_).
func (t *Tensor) NormalInPlace(g *Generator, mean, std float64) *Tensor {
	if std < 0 {
		panic(errs.New(errs.Value, "normal_", "normal expects std >= 0.0, but found std %g", std))
	}
	return g.fillInPlace("normal_", t, optable.Normal, nil, kernel.Args{Low: mean, High: std})
}

// BernoulliInPlace fills t with 1 with probability p (in [0, 1], else a
// value error) and 0 otherwise, and returns t (PyTorch's bernoulli_).
func (t *Tensor) BernoulliInPlace(g *Generator, p float64) *Tensor {
	if !(p >= 0 && p <= 1) {
		panic(errs.New(errs.Value, "bernoulli_", "bernoulli_ expects p to be in [0, 1], but got p=%g", p))
	}
	probs := alloc("bernoulli_", Float64, t.v.Shape, false)
	_, err := op.Fill(probs, op.Float(p))
	must(err)
	return g.fillInPlace("bernoulli_", t, optable.Bernoulli, probs, kernel.Args{})
}

// Dropout returns x with each element zeroed with probability p and the
// others scaled by 1/(1 − p) when train (x itself otherwise), drawing
// from g. p outside [0, 1] is a value error. The gradient flows through
// the kept elements, scaled alike.
func Dropout(x *Tensor, p float64, train bool, g *Generator) *Tensor {
	if !(p >= 0 && p <= 1) {
		panic(errs.New(errs.Value, "dropout", "dropout probability has to be between 0 and 1, but got %g", p))
	}
	if !train || p == 0 {
		return x
	}
	if p == 1 {
		return x.Mul(Scalar(0))
	}
	keep := alloc("dropout", x.DType(), x.v.Shape, false)
	probs := alloc("dropout", Float64, x.v.Shape, false)
	_, err := op.Fill(probs, op.Float(1-p))
	must(err)
	g.fill("dropout", optable.Bernoulli, keep, probs, kernel.Args{})
	return x.Mul(onDeviceOf(x, wrap(keep)).Mul(Scalar(1 / (1 - p))))
}
