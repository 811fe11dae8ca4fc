package tensor

import (
	"fmt"
	"slices"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/shape"
)

// Note [Losses as compositions]
//
// The losses (torch.nn.functional's) are written with the API's own
// differentiable ops, as PyTorch writes several of them (cross_entropy is
// log_softmax then nll_loss; the smooth and huber losses and
// binary_cross_entropy_with_logits are where/abs/exp/log compositions),
// so they run on any backend and their gradients, of the target too, come
// from the ops' derivatives and can be differentiated again. Each
// composition is arranged so that its gradient is PyTorch's, kinks and
// all: a branch that where() discards must not produce inf or NaN there
// (0·inf would poison the gradient), the overflow-free logits formula is
// PyTorch's own, and kl_div's NaN gradient of a zero target is PyTorch's
// too (Note [kl_div as PyTorch composes it]). binary_cross_entropy is the exception: log clamped at −100 has no
// gradient where x is 0 or 1, where PyTorch's backward gives (x − t)/
// max(x(1 − x), 1e−12), so its elementwise loss records that derivative
// itself. Checks on values (targets in range, probabilities in [0, 1])
// read the operands on the host before anything is computed.

// LossReduction is how a loss reduces its elementwise values: PyTorch's
// reduction argument. The zero value is the mean.
type LossReduction string

// The reductions of the losses.
const (
	ReduceLossMean      LossReduction = "mean"
	ReduceLossSum       LossReduction = "sum"
	ReduceLossNone      LossReduction = "none"
	ReduceLossBatchMean LossReduction = "batchmean" // kl_div only: the sum divided by the batch size
)

// LossOptions are the optional arguments of the losses; the zero value is
// PyTorch's defaults. A loss ignores the fields it does not take.
type LossOptions struct {
	Reduction LossReduction
	// Weight: cross_entropy and nll_loss, one weight per class ([C]);
	// binary_cross_entropy(_with_logits), weights broadcast to x.
	Weight *Tensor
	// PosWeight: binary_cross_entropy_with_logits, the weight of the
	// positive term, broadcast along the last dim.
	PosWeight *Tensor
	// IgnoreIndex: cross_entropy and nll_loss, the target class whose
	// elements count for nothing, when HasIgnoreIndex (else −100).
	IgnoreIndex    int
	HasIgnoreIndex bool
	// LabelSmoothing: cross_entropy's ε in [0, 1].
	LabelSmoothing float64
	// Beta (smooth_l1_loss) and Delta (huber_loss), when HasBeta or
	// HasDelta (else 1).
	Beta, Delta     float64
	HasBeta, HasDel bool
	// LogTarget: kl_div's target holds log-probabilities.
	LogTarget bool
}

// lossOptions returns the options of the loss name and checks its
// reduction; batchmean is kl_div's alone.
func lossOptions(name string, o []LossOptions) LossOptions {
	var opt LossOptions
	switch len(o) {
	case 0:
	case 1:
		opt = o[0]
	default:
		panic(errs.New(errs.Value, name, "%s takes at most one LossOptions, got %d", name, len(o)))
	}
	switch opt.Reduction {
	case "":
		opt.Reduction = ReduceLossMean
	case ReduceLossMean, ReduceLossSum, ReduceLossNone:
	case ReduceLossBatchMean:
		if name != "kl_div" {
			panic(errs.New(errs.Value, name, "%s is not a valid value for reduction", opt.Reduction))
		}
	default:
		panic(errs.New(errs.Value, name, "%s is not a valid value for reduction", opt.Reduction))
	}
	if !opt.HasIgnoreIndex {
		opt.IgnoreIndex = -100
	}
	return opt
}

// reduceLoss applies r to the elementwise loss l.
func reduceLoss(l *Tensor, r LossReduction) *Tensor {
	switch r {
	case ReduceLossSum:
		return l.Sum()
	case ReduceLossNone:
		return l
	}
	return l.Mean()
}

// broadcastable panics with PyTorch's broadcast error unless x and t
// broadcast together.
func broadcastable(name string, x, t *Tensor) {
	_, err := shape.Broadcast(x.v.Shape, t.v.Shape)
	must(errs.WithOp(err, name))
}

// MSELoss returns the mean squared error of x against t, (x − t)²
// reduced as o says (mean by default): x and t broadcast together (else a
// shape error).
func MSELoss(x, t *Tensor, o ...LossOptions) *Tensor {
	opt := lossOptions("mse_loss", o)
	broadcastable("mse_loss", x, t)
	lossKernelDType("mse_loss", "mse_cpu", x, t, false)
	mse := func() *Tensor {
		a, b := boolsAsNumbers(x, t)
		return reduceLoss(a.Sub(b).Square(), opt.Reduction)
	}
	switch {
	case !recording(x, t):
		return mse()
	case x.DType() == Float16 && t.DType() == Float16:
		// PyTorch 1.13's mse_loss_backward kernel has no float16 loop
		return ownBackward("MseLossBackward0", x, t, mse, missingHalfGrad("mse_loss_backward", "mse_backward_cpu_out"))
	case x.DType() != t.DType():
		// PyTorch's forward promotes, its mse_loss_backward refuses
		// operands of two dtypes: the error comes at backward
		return ownBackward("MseLossBackward0", x, t, mse, mixedDTypesGrad("mse_loss_backward", x, t))
	}
	// PyTorch's mse_loss_backward: norm·(x − t)·g with norm = 2/n for the
	// mean (n the broadcast size), else 2, in that order, so that 2·(x −
	// t) does not overflow where the gradient is finite; t's is the same
	// kernel with x and t swapped
	return ownBackward("MseLossBackward0", x, t, mse, func(nd *node, g *Tensor) []*Tensor {
		a, b := boolsAsNumbers(x, t)
		norm := Scalar(2 * meanNorm(x, t, opt.Reduction))
		out := make([]*Tensor, 2)
		if nd.needs(0) {
			out[0] = a.Sub(b).Mul(norm).Mul(g)
		}
		if nd.needs(1) {
			out[1] = b.Sub(a).Mul(norm).Mul(g)
		}
		return out
	})
}

// meanNorm is the factor of a backward kernel of PyTorch's losses: 1/n for
// the mean over the n elements of x and t broadcast together (F.mse_loss
// and F.huber_loss broadcast first), else 1.
func meanNorm(x, t *Tensor, r LossReduction) float64 {
	if r != ReduceLossMean {
		return 1
	}
	sh, _ := shape.Broadcast(x.v.Shape, t.v.Shape)
	return 1 / float64(shape.NumEl(sh))
}

// ownBackward returns forward's result, computed without recording,
// recorded as node over x and t with the backward grad: for the losses
// whose PyTorch backward is a kernel of its own, whose formula (or
// refusal) grad copies.
func ownBackward(node string, x, t *Tensor, forward func() *Tensor, grad gradFn) *Tensor {
	return recordedAs(node, []*Tensor{x, t}, forward, grad)
}

// recordedAs returns forward's result, computed without recording,
// recorded as node over inputs with the backward grad.
func recordedAs(node string, inputs []*Tensor, forward func() *Tensor, grad gradFn) *Tensor {
	var r *Tensor
	NoGrad(func() { r = forward() })
	return recordNew(node, inputs, r, grad)
}

// missingHalfGrad is the backward of op name whose PyTorch kernel (named
// kernel) has no float16 loop: its dispatch error.
func missingHalfGrad(name, kernel string) gradFn {
	return func(*node, *Tensor) []*Tensor {
		panic(errs.New(errs.DType, name, "%q not implemented for 'Half'", kernel))
	}
}

// lossKernelDType panics with PyTorch's dispatch error unless the
// promoted dtype of x and t is one the loss's CPU kernel (named kernel)
// has a loop for: float16, float32 and float64, and bfloat16 where
// bf16 says so. PyTorch's kernels dispatch on the dtype of their
// TensorIterator, so the check holds for empty operands too.
func lossKernelDType(name, kernel string, x, t *Tensor, bf16 bool) {
	d := dtype.Promote(x.DType(), t.DType())
	if d == Float16 || d == Float32 || d == Float64 || (bf16 && d == BFloat16) {
		return
	}
	panic(errs.New(errs.DType, name, "\"%s\" not implemented for '%s'", kernel, op.TorchName(d)))
}

// mixedDTypesGrad is the backward of a loss whose PyTorch backward runs
// on a TensorIterator that wants one dtype: its error when the target's
// dtype is not the input's. PyTorch computes x's gradient first, and t's
// with the operands swapped, so the dtype expected is that of the first
// operand that wants a gradient.
func mixedDTypesGrad(name string, x, t *Tensor) gradFn {
	return func(n *node, _ *Tensor) []*Tensor {
		want, found := x, t
		if !n.needs(0) {
			want, found = t, x
		}
		panic(errs.New(errs.DType, name, "Found dtype %s but expected %s", op.TorchName(found.DType()), op.TorchName(want.DType())))
	}
}

// boolsAsNumbers returns x and t with a bool operand beside a number cast
// to the other's dtype: PyTorch's mse_loss and smooth_l1_loss kernels
// read a bool as its 0/1 value, where sub (which l1_loss runs) refuses it.
func boolsAsNumbers(x, t *Tensor) (*Tensor, *Tensor) {
	switch {
	case x.DType() == Bool && t.DType() != Bool:
		x = x.To(t.DType())
	case t.DType() == Bool && x.DType() != Bool:
		t = t.To(x.DType())
	}
	return x, t
}

// L1Loss returns |x − t| reduced as o says.
func L1Loss(x, t *Tensor, o ...LossOptions) *Tensor {
	opt := lossOptions("l1_loss", o)
	broadcastable("l1_loss", x, t)
	return reduceLoss(x.Sub(t).Abs(), opt.Reduction)
}

// SmoothL1Loss returns 0.5·(x − t)²/β where |x − t| < β, else |x − t| −
// 0.5·β, reduced as o says (β = o.Beta, 1 by default; β = 0 gives
// |x − t|; a negative β is a value error).
func SmoothL1Loss(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "smooth_l1_loss"
	opt := lossOptions(name, o)
	beta := 1.0
	if opt.HasBeta {
		beta = opt.Beta
	}
	if !(beta >= 0) { // NaN too, as PyTorch's check
		panic(errs.New(errs.Value, name, "smooth_l1_loss does not support negative values for beta."))
	}
	broadcastable(name, x, t)
	lossKernelDType(name, "smooth_l1_cpu", x, t, true)
	if dtype.Promote(x.DType(), t.DType()) == Float16 && recording(x, t) {
		// PyTorch 1.13's smooth_l1_loss_backward kernel has no float16 loop
		return ownBackward("SmoothL1LossBackward0", x, t, func() *Tensor { return SmoothL1Loss(x, t, opt) },
			missingHalfGrad("smooth_l1_loss_backward", "smooth_l1_backward_cpu_out"))
	}
	x, t = boolsAsNumbers(x, t)
	if beta == 0 {
		return reduceLoss(absTiesNegative(x, t), opt.Reduction)
	}
	// PyTorch's bfloat16 kernel computes each element in float32 and
	// rounds it once; its other kernels compute in their dtype
	round := dtype.Invalid
	if dtype.Promote(x.DType(), t.DType()) == BFloat16 {
		round, x, t = BFloat16, x.To(Float32), t.To(Float32)
	}
	d := x.Sub(t)
	a := d.Abs()
	// the square of d only where it is taken (and NaN, whose gradient is
	// NaN in PyTorch too), so that the discarded branch has a finite
	// gradient (Note [Losses as compositions]); ((0.5·z)·z)/β in PyTorch's
	// order, which keeps 0.5·z² finite where z² overflows
	small := a.Lt(Scalar(beta))
	z := Where(small.LogicalOr(d.IsNan()), d, Scalar(0))
	l := Where(small, z.Mul(Scalar(0.5)).Mul(z).Div(Scalar(beta)), a.Sub(Scalar(0.5*beta)))
	if round.Valid() {
		l = l.To(round)
	}
	return reduceLoss(l, opt.Reduction)
}

// absTiesNegative is |x − t| with the derivatives of PyTorch's
// smooth_l1_loss_backward at β = 0, which tests x − t ≤ −β before x − t
// ≥ β: −g for x where x − t ≤ 0 (so at a tie too, where abs's derivative
// is 0), g where x − t > 0, NaN where it is NaN (its x·g/β branch); t's
// is the same kernel with x and t swapped, so a tie gives −g to t too.
func absTiesNegative(x, t *Tensor) *Tensor {
	var a *Tensor
	NoGrad(func() { a = x.Sub(t).Abs() })
	return recordNew("SmoothL1LossBackward0", []*Tensor{x, t}, a, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		side := func(d *Tensor) *Tensor {
			return Where(d.Le(Scalar(0)), g.Neg(), Where(d.Gt(Scalar(0)), g, d))
		}
		if n.needs(0) {
			out[0] = side(x.Sub(t))
		}
		if n.needs(1) {
			out[1] = side(t.Sub(x))
		}
		return out
	})
}

// HuberLoss returns 0.5·(x − t)² where |x − t| < δ, else δ·(|x − t| −
// 0.5·δ), reduced as o says (δ = o.Delta, 1 by default; δ ≤ 0 is a value
// error).
func HuberLoss(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "huber_loss"
	opt := lossOptions(name, o)
	delta := 1.0
	if opt.HasDel {
		delta = opt.Delta
	}
	if !(delta > 0) { // NaN too, as PyTorch's check
		panic(errs.New(errs.Value, name, "huber_loss does not support non-positive values for delta."))
	}
	broadcastable(name, x, t)
	// PyTorch's huber_loss writes its elementwise loss into a tensor of
	// x's dtype through a TensorIterator: the promoted dtype must cast to
	// x's, and its kernel has loops for the floating dtypes only; its
	// backward kernel wants t of x's dtype
	common := dtype.Promote(x.DType(), t.DType())
	if !dtype.CanCast(common, x.DType()) {
		panic(errs.New(errs.DType, name, "result type %s can't be cast to the desired output type %s", op.TorchName(common), op.TorchName(x.DType())))
	}
	if !common.IsFloat() {
		panic(errs.New(errs.DType, name, "\"huber_cpu\" not implemented for '%s'", op.TorchName(common)))
	}
	huber := func() *Tensor {
		x, t := boolsAsNumbers(x, t)
		d := x.Sub(t)
		a := d.Abs()
		// PyTorch's kernel: (0.5·z)·z where z < δ, else δ·(z − 0.5·δ), so
		// that z = δ = inf is inf·(inf − inf), NaN, and 0.5·z² stays
		// finite where z² overflows
		small := a.Lt(Scalar(delta))
		l := Where(small, d.Mul(Scalar(0.5)).Mul(d), a.Sub(Scalar(0.5*delta)).Mul(Scalar(delta)))
		return reduceLoss(l.To(x.DType()), opt.Reduction)
	}
	switch {
	case !recording(x, t):
		return huber()
	case x.DType() != t.DType():
		return ownBackward("HuberLossBackward0", x, t, huber, mixedDTypesGrad("huber_loss_backward", x, t))
	}
	// PyTorch's huber_loss_backward: with d = x − t, −norm·g·δ where d ≤
	// −δ, norm·g·δ where d ≥ δ, else norm·d·g (norm = 1/n for the mean,
	// else 1), so an infinite δ gives the quadratic branch's gradient
	// (the composition's discarded branch would give 0·inf); t's is the
	// same kernel with x and t swapped
	return ownBackward("HuberLossBackward0", x, t, huber, func(nd *node, g *Tensor) []*Tensor {
		norm := meanNorm(x, t, opt.Reduction)
		x, t := boolsAsNumbers(x, t)
		side := func(d *Tensor) *Tensor {
			return Where(d.Le(Scalar(-delta)), g.Mul(Scalar(-norm)).Mul(Scalar(delta)),
				Where(d.Ge(Scalar(delta)), g.Mul(Scalar(norm)).Mul(Scalar(delta)), d.Mul(Scalar(norm)).Mul(g)))
		}
		out := make([]*Tensor, 2)
		if nd.needs(0) {
			out[0] = side(x.Sub(t))
		}
		if nd.needs(1) {
			out[1] = side(t.Sub(x))
		}
		return out
	})
}

// classTargets checks the class targets t of scores x ([N, C, d…] or
// [C] with a 0-dim t): int64 (or uint8 where x has at most 2 dims, as
// PyTorch's nll_loss kernel takes them, unlike its nll_loss2d), of x's
// shape without the class dim, each in [0, C) or the ignored class; a
// weight has length C and x's dtype. It returns t as int64. Reduced
// (reduction not none) over no target (an empty batch, or another dim of
// size 0), PyTorch 1.13's kernels return before they read t, so a t of
// another dtype passes: its dtype error is returned as late, for the
// backward, which does read it. anyKept reports whether some target is
// not the ignored class.
func classTargets(name string, x, t, weight *Tensor, ignore int, r LossReduction) (_ *Tensor, anyKept bool, late error) {
	if x.Dim() == 0 {
		panic(errs.New(errs.Shape, name, "input tensor should be 1D or more"))
	}
	want := x.Shape()
	if x.Dim() == 1 {
		want = nil
	} else {
		want = slices.Delete(want, 1, 2)
	}
	if x.Dim() >= 2 && (t.Dim() == 0 || t.Size(0) != x.Size(0)) {
		n := 0
		if t.Dim() > 0 {
			n = t.Size(0)
		}
		panic(errs.New(errs.Shape, name, "Expected input batch_size (%d) to match target batch_size (%d).", x.Size(0), n))
	}
	if !slices.Equal(t.v.Shape, want) {
		panic(errs.New(errs.Shape, name, "expected target of shape %v for input of shape %v, got %v", want, x.Shape(), t.Shape()))
	}
	c := x.Size(min(1, x.Dim()-1))
	if weight != nil && (weight.Dim() != 1 || weight.Size(0) != c) {
		panic(errs.New(errs.Shape, name, "weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %v", c, weight.Shape()))
	}
	if c == 0 && t.NumEl() > 0 && (x.Dim() == 3 || x.Dim() >= 5) {
		// PyTorch's nll_loss_nd views these as [N, C, 1, −1] for its 2-d
		// kernel; with no class (and some target) that view is [N, 0, 0,
		// 0] and the kernel's size check fails before any target is read
		rest := t.NumEl() / max(x.Size(0), 1)
		panic(errs.New(errs.Shape, name, "size mismatch (got input: [%d, 0, 0, 0] , target: [%d, 1, %d]", x.Size(0), x.Size(0), rest))
	}
	if !x.DType().IsFloat() {
		// the kernel of x's dtype is chosen after the shape checks and
		// before the weight's and the target's dtypes are read
		kernel := "nll_loss_out_frame"
		if x.Dim() > 2 {
			kernel = "nll_loss2d_forward_out_frame"
		}
		panic(errs.New(errs.DType, name, "%q not implemented for '%s'", kernel, op.TorchName(x.DType())))
	}
	if weight != nil && weight.DType() != x.DType() {
		panic(errs.New(errs.DType, name, "expected scalar type %s but found %s", op.TorchName(x.DType()), op.TorchName(weight.DType())))
	}
	if t.DType() != Int64 && (t.DType() != Uint8 || x.Dim() > 2) {
		late = errs.New(errs.DType, name, "expected scalar type Long but found %s", op.TorchName(t.DType()))
		if r == ReduceLossNone || t.NumEl() > 0 {
			panic(late)
		}
	}
	for _, y := range t.Int64s() {
		if y == int64(ignore) {
			continue
		}
		if y < 0 || y >= int64(c) {
			panic(errs.New(errs.Index, name, "Target %d is out of bounds.", y))
		}
		anyKept = true
	}
	if t.DType() != Int64 {
		t = t.To(Int64)
	}
	return t, anyKept, late
}

// lateTargetError returns loss() of x, recorded as node name whose
// backward fails with late, classTargets' error for a target of another
// dtype over an empty batch; loss() itself when late is nil.
func lateTargetError(name string, x *Tensor, late error, loss func() *Tensor) *Tensor {
	if late == nil || !recording(x) {
		return loss()
	}
	return recordedAs(name, []*Tensor{x}, loss, func(*node, *Tensor) []*Tensor { panic(late) })
}

// alongClasses views the class weights w ([C]) along dim cd of ndim
// dims, 1 in the others, to broadcast against scores.
func alongClasses(w *Tensor, ndim, cd int) *Tensor {
	sh := make([]int, ndim)
	for i := range sh {
		sh[i] = 1
	}
	sh[cd] = w.Size(0)
	return w.Reshape(sh...)
}

// classDim is the class dim of scores x: 1, or 0 for unbatched [C].
func classDim(x *Tensor) int { return min(1, x.Dim()-1) }

// classWeights returns the weights of the classes of t (0 where ignored)
// and the mask of the elements not ignored, of t's shape.
func classWeights(x, t, weight *Tensor, ignore int) (w, kept, safe *Tensor) {
	kept = t.Ne(Scalar(int64(ignore)))
	safe = Where(kept, t, Scalar(int64(0)))
	if weight == nil {
		w = kept.To(x.DType())
	} else {
		w = Where(kept, weight.IndexSelect(0, safe.Reshape(-1)).Reshape(t.Shape()...), Scalar(0))
	}
	return w, kept, safe
}

// nll is nll_loss of log-probabilities logp and class targets t (checked).
func nll(logp, t *Tensor, opt LossOptions, smoothing float64) *Tensor {
	cd := classDim(logp)
	w, kept, safe := classWeights(logp, t, opt.Weight, opt.IgnoreIndex)
	// an ignored element gets a gradient of exactly 0 (PyTorch's backward
	// writes nothing there), even where the mean's divisor is 0
	src := logp
	if logp.Size(cd) == 0 {
		// no classes, so every target is ignored (the checks refuse the
		// others) and PyTorch reads nothing: gather from the empty sum
		src = logp.Sum(Over(cd).KeepDim())
	}
	l := Where(kept, src.Gather(cd, safe.Unsqueeze(cd)).Squeeze(cd).Neg().Mul(w), Scalar(0))
	mean := opt.Reduction == ReduceLossMean
	var loss *Tensor
	if mean {
		loss = weightedMean(l.Sum(), w.Sum(), kept)
	} else {
		loss = reduceLoss(l, opt.Reduction)
	}
	if !(smoothing > 0) { // PyTorch 1.13 ignores a negative or NaN ε
		return loss
	}
	// PyTorch mixes the reduced losses, (1 − ε)·nll + ε/C·smooth, so that
	// with no class (C = 0) even an empty sum is 0·∞ = NaN
	c := logp.Size(cd)
	lw := logp
	if opt.Weight != nil {
		lw = logp.Mul(alongClasses(opt.Weight, logp.Dim(), cd))
	}
	smooth := Where(kept, lw.Sum(Over(cd)).Neg(), Scalar(0))
	if mean {
		smooth = smooth.Sum().Div(w.Sum())
	} else {
		smooth = reduceLoss(smooth, opt.Reduction)
	}
	return loss.Mul(Scalar(1 - smoothing)).Add(smooth.Mul(Scalar(smoothing / float64(c))))
}

// weightedMean is sum/total, whose gradient is PyTorch's nll_loss
// backward's, w[y]·(−g/total) at each element kept: when every target is
// ignored the loss is 0/0 = NaN, but the backward writes nothing, so the
// gradient is 0, not NaN; when targets are kept but their weights sum to
// 0, the gradient is w[y]·∓inf (NaN where w[y] is 0). The gradient flows
// through a divisor made 1 in the first case only; the value is the true
// quotient.
func weightedMean(sum, total, kept *Tensor) *Tensor {
	none := total.Eq(Scalar(0)).LogicalAnd(kept.Any().LogicalNot())
	safe := sum.Div(Where(none, Scalar(1), total))
	return safe.Add(Where(none, sum.Div(total).Sub(safe), Scalar(0)).Detach())
}

// NLLLoss returns the negative log-likelihood loss of log-probabilities x
// ([N, C, d…], or [C]) for class targets t (int64, [N, d…], or 0-dim):
// −w[y]·x[y] per element (w = o.Weight, ones by default), 0 where y is the
// ignored class; the mean divides by the sum of the weights w[y] of the
// elements not ignored. A target out of [0, C) that is not ignored is an
// index error, a float target a dtype error, a batch size that differs
// or a weight not of length C a shape error.
func NLLLoss(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "nll_loss"
	opt := lossOptions(name, o)
	t, _, late := classTargets(name, x, t, opt.Weight, opt.IgnoreIndex, opt.Reduction)
	return lateTargetError("NllLossBackward0", x, late, func() *Tensor { return nll(x, t, opt, 0) })
}

// CrossEntropy returns the cross-entropy loss of scores x ([N, C, d…] or
// [C]) for class targets t (int64, [N, d…] or 0-dim: [NLLLoss] of
// x's log_softmax over the class dim, with o.LabelSmoothing ε (at most 1,
// else a value error; PyTorch 1.13 takes a negative one) mixing in
// ε/C of the loss of every class) or for class probabilities t (a float t
// of x's shape: −Σ_c w[c]·((1 − ε)·t[c] + ε/C)·log p[c], the mean over the
// samples; an ignore index is then a value error). Errors as [NLLLoss].
func CrossEntropy(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "cross_entropy"
	opt := lossOptions(name, o)
	// PyTorch takes targets of x's shape as probabilities, whatever their
	// dtype, and checks that first
	probs := slices.Equal(t.v.Shape, x.v.Shape)
	if probs && !t.DType().IsFloat() {
		panic(errs.New(errs.DType, name, "Expected floating point type for target with class probabilities, got %s", op.TorchName(t.DType())))
	}
	if probs {
		return probCrossEntropy(x, t, opt)
	}
	checkLabelSmoothing(name, opt.LabelSmoothing)
	if !x.DType().IsFloat() {
		// PyTorch's log_softmax of x runs, and refuses, before nll_loss
		// reads the targets
		kernel := "log_softmax_lastdim_kernel_impl"
		if x.Dim() > 2 {
			kernel = "softmax_kernel_impl"
		}
		panic(errs.New(errs.DType, name, "%q not implemented for '%s'", kernel, op.TorchName(x.DType())))
	}
	given := t.DType()
	t, anyKept, late := classTargets(name, x, t, opt.Weight, opt.IgnoreIndex, opt.Reduction)
	if opt.LabelSmoothing > 0 && opt.Weight != nil && opt.Reduction == ReduceLossMean && given != Int64 && anyKept {
		// PyTorch 1.13 divides this smoothed mean by weight.gather(0,
		// the targets not ignored), after nll_loss took the target, and
		// gather takes int64 indices only, unless there are none
		panic(errs.New(errs.DType, name, "gather(): Expected dtype int64 for index"))
	}
	cd := classDim(x)
	return lateTargetError("NllLossBackward0", x, late, func() *Tensor { return nll(x.LogSoftmax(Over(cd)), t, opt, opt.LabelSmoothing) })
}

// checkLabelSmoothing refuses an ε above 1; PyTorch checks only a
// positive ε, after the checks of its path (for class probabilities,
// after the weight's shape and x's log_softmax).
func checkLabelSmoothing(name string, eps float64) {
	if eps > 1 {
		panic(errs.New(errs.Value, name, "label_smoothing must be between 0.0 and 1.0. Got: %g", eps))
	}
}

// probCrossEntropy is cross_entropy with class probabilities t.
func probCrossEntropy(x, t *Tensor, opt LossOptions) *Tensor {
	const name = "cross_entropy"
	if opt.HasIgnoreIndex && opt.IgnoreIndex >= 0 {
		panic(errs.New(errs.Value, name, "ignore_index is not supported for floating point target"))
	}
	if x.Dim() == 0 {
		panic(errs.New(errs.Shape, name, "input tensor should be 1D or more"))
	}
	cd := classDim(x)
	c := x.Size(cd)
	if opt.Weight != nil && (opt.Weight.Dim() != 1 || opt.Weight.Size(0) != c) {
		panic(errs.New(errs.Shape, name, "weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %v", c, opt.Weight.Shape()))
	}
	logp := x.LogSoftmax(Over(cd))
	checkLabelSmoothing(name, opt.LabelSmoothing)
	p := t
	if eps := opt.LabelSmoothing; eps > 0 {
		p = t.Mul(Scalar(1 - eps)).Add(Scalar(eps / float64(c)))
	}
	// PyTorch's order: log-probabilities times targets, then times the
	// weights, summed and only then negated, so that an overflow or a
	// rounding falls where it does in torch
	l := logp.Mul(p)
	if opt.Weight != nil {
		l = l.Mul(alongClasses(opt.Weight, x.Dim(), cd))
	}
	switch opt.Reduction {
	case ReduceLossMean:
		return l.Sum().Neg().Div(Scalar(float64(max(x.NumEl()/max(c, 1), 0))))
	case ReduceLossSum:
		return l.Sum().Neg()
	}
	return l.Sum(Over(cd)).Neg()
}

// BinaryCrossEntropy returns −w·(t·log x + (1 − t)·log(1 − x)) with each
// log clamped to ≥ −100, reduced as o says (w = o.Weight broadcast to x,
// 1 by default). x holds probabilities in [0, 1] (else a value error); t
// has x's shape (else a shape error).
func BinaryCrossEntropy(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "binary_cross_entropy"
	opt := lossOptions(name, o)
	if !slices.Equal(x.v.Shape, t.v.Shape) {
		panic(errs.New(errs.Shape, name, "Using a target size (%v) that is different to the input size (%v) is deprecated. Please ensure they have the same size.",
			fmtShape(t), fmtShape(x)))
	}
	sameDType(name, x, t)
	if d := x.DType(); d != Float32 && d != Float64 {
		// PyTorch 1.13's CPU kernel has loops for float32 and float64
		// only, and dispatches before it reads (and range checks) x
		panic(errs.New(errs.DType, name, "\"binary_cross_entropy\" not implemented for '%s'", op.TorchName(d)))
	}
	for _, v := range x.Float64s() {
		if !(v >= 0 && v <= 1) {
			panic(errs.New(errs.Value, name, "all elements of input should be between 0 and 1"))
		}
	}
	clampedLog := func(v *Tensor) *Tensor { return v.Log().Clamp(Scalar(-100), nil) }
	var loss *Tensor
	NoGrad(func() {
		one := Scalar(1)
		l := t.Mul(clampedLog(x)).Add(one.Sub(t).Mul(clampedLog(one.Sub(x)))).Neg()
		if opt.Weight != nil {
			// PyTorch's loss.mul_(weight): in place, so the loss keeps x's dtype
			l = inPlaceOf(name, l, l.Mul(opt.Weight))
		}
		loss = reduceLoss(l, opt.Reduction)
	})
	// One node for the loss and its reduction, as in PyTorch, whose
	// backward scales by the weight and divides by the count last: g·(x −
	// t)/max(x·(1 − x), 1e-12) overflows to ±Inf where the quotient does,
	// even when g/n times it would not.
	return recordNew("BinaryCrossEntropyBackward0", []*Tensor{x, t}, loss, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, 2)
		one := Scalar(1)
		g = g.Expand(x.Shape()...)
		finish := func(d *Tensor) *Tensor {
			if opt.Weight != nil {
				d = inPlaceOf(name, d, d.Mul(opt.Weight))
			}
			if opt.Reduction == ReduceLossMean {
				d = d.Div(Scalar(int64(x.NumEl())))
			}
			return d
		}
		if n.needs(0) {
			// PyTorch's EPSILON is the float32 1e-12
			eps := Scalar(float64(float32(1e-12)))
			out[0] = finish(g.Mul(x.Sub(t)).Div(one.Sub(x).Mul(x).Clamp(eps, nil)))
		}
		if n.needs(1) {
			// −logit(x), unclamped: ±Inf at x = 0 and 1
			out[1] = finish(x.Div(one.Sub(x)).Log().Neg().Mul(g))
		}
		return out
	})
}

// BinaryCrossEntropyWithLogits returns −w·(p·t·log σ(x) + (1 − t)·log(1 −
// σ(x))) reduced as o says, σ the sigmoid, computed without overflow (w =
// o.Weight broadcast to x; p = o.PosWeight broadcast along the last dim,
// 1 by default). t has x's shape (else a shape error). As in PyTorch 1.13
// (Note [bce_with_logits dtypes]), the loss has t's dtype, an integer t
// is a dtype error, and the gradients are PyTorch's formulas; o.Weight
// and o.PosWeight get none (an autograd error if asked for).
func BinaryCrossEntropyWithLogits(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "binary_cross_entropy_with_logits"
	opt := lossOptions(name, o)
	if !slices.Equal(x.v.Shape, t.v.Shape) {
		panic(errs.New(errs.Shape, name, "Target size (%v) must be the same as input size (%v)", fmtShape(t), fmtShape(x)))
	}
	// Note [bce_with_logits dtypes]
	//
	// PyTorch 1.13 computes this loss with in-place ops on 1 − t, so the
	// loss has t's dtype (an integer t cannot hold x·(1 − t): "result type
	// Float can't be cast to the desired output type Byte"), each step
	// rounded to it; with m = max(−x, 0), log(1 + e^−x) = log(e^−m +
	// e^(−x−m)) + m never overflows. Its backward is not the derivative of
	// these steps but BinaryCrossEntropyWithLogitsBackward0's formulas:
	// (σ(x) − t)·g for x and −x·g for t (with pos_weight p: ((p·t + 1 − t)·σ(x)
	// − p·t)·g and (log σ(−x) − p·log σ(x))·g), so an infinite p gives NaN.
	var l *Tensor
	NoGrad(func() {
		one := Scalar(1)
		if x.DType() == Float16 {
			// PyTorch 1.13's clamp_min_ has no CPU loop for float16
			panic(errs.New(errs.DType, name, "\"clamp_min_cpu\" not implemented for 'Half'"))
		}
		m := x.Neg().Clamp(Scalar(0), nil)
		// (−m).exp_(): in place on x's dtype, so an integer x is a
		// dtype error here, after the steps PyTorch runs before it
		logSum := func() *Tensor {
			nm := m.Neg()
			e := inPlaceOf(name, nm, nm.Exp())
			return e.Add(x.Neg().Sub(m).Exp()).Log() // x's dtype
		}
		omt := one.Sub(t)
		if opt.PosWeight != nil {
			lw := opt.PosWeight.Sub(one).Mul(t)
			lw = inPlaceOf(name, lw, lw.Add(one))
			l = inPlaceOf(name, omt, omt.Mul(x))
			lw = inPlaceOf(name, lw, lw.Mul(logSum().Add(m)))
			l = inPlaceOf(name, l, l.Add(lw))
		} else {
			l = inPlaceOf(name, omt, omt.Mul(x))
			l = inPlaceOf(name, l, l.Add(m))
			l = inPlaceOf(name, l, l.Add(logSum()))
		}
		if opt.Weight != nil {
			l = inPlaceOf(name, l, l.Mul(opt.Weight))
		}
		l = reduceLoss(l, opt.Reduction)
	})
	ins := []*Tensor{x, t}
	for _, w := range []*Tensor{opt.Weight, opt.PosWeight} {
		if w != nil {
			ins = append(ins, w)
		}
	}
	return recordNew("BinaryCrossEntropyWithLogitsBackward0", ins, l, func(n *node, g *Tensor) []*Tensor {
		out := make([]*Tensor, len(ins))
		for i := 2; i < len(ins); i++ {
			if n.needs(i) {
				arg := "weight"
				if ins[i] == opt.PosWeight {
					arg = "pos_weight"
				}
				panic(errs.New(errs.Autograd, name, "the derivative for '%s' is not implemented.", arg))
			}
		}
		g0 := g // 0-dim for a reduced loss: it does not promote −x·g
		if opt.Reduction != ReduceLossNone {
			g = g.Expand(x.Shape()...)
		}
		// the mean's division comes last, in the gradient's dtype, as in
		// PyTorch's backward (g may be a float16 loss's)
		mean := func(r *Tensor) *Tensor {
			if opt.Reduction == ReduceLossMean {
				return r.Div(Scalar(float64(max(x.NumEl(), 1))))
			}
			return r
		}
		if n.needs(0) {
			// PyTorch's steps after the first run in place, so they
			// round to its dtype: p·t + 1 of a float16 t keeps σ(x) of a
			// float32 x in float16
			var gx *Tensor
			if p := opt.PosWeight; p != nil {
				pt := p.Mul(t)
				gx = pt.Add(Scalar(1))
				gx = inPlaceOf(name, gx, gx.Sub(t))
				gx = inPlaceOf(name, gx, gx.Mul(x.Sigmoid()))
				gx = inPlaceOf(name, gx, gx.Sub(pt))
				gx = inPlaceOf(name, gx, gx.Mul(g))
			} else {
				gx = x.Sigmoid().Sub(t)
				gx = inPlaceOf(name, gx, gx.Mul(g))
			}
			if opt.Weight != nil {
				gx = inPlaceOf(name, gx, gx.Mul(opt.Weight))
			}
			out[0] = mean(gx)
		}
		if n.needs(1) {
			// PyTorch's steps run in place on the first operand, so with
			// pos_weight they round to x's dtype (a bfloat16 x gives t a
			// bfloat16-rounded gradient); without it −x·g promotes, by
			// the rules of a 0-dim g where the loss was reduced
			var gt *Tensor
			if p := opt.PosWeight; p != nil {
				b := logSigmoid(x)
				b = inPlaceOf(name, b, b.Mul(p))
				gt = logSigmoid(x.Neg())
				gt = inPlaceOf(name, gt, gt.Sub(b))
				gt = inPlaceOf(name, gt, gt.Mul(g))
			} else {
				gt = x.Neg().Mul(g0)
			}
			if opt.Weight != nil {
				gt = inPlaceOf(name, gt, gt.Mul(opt.Weight))
			}
			if opt.Reduction == ReduceLossMean {
				gt = inPlaceOf(name, gt, gt.Div(Scalar(float64(max(x.NumEl(), 1)))))
			}
			out[1] = gt
		}
		return out
	})
}

// logSigmoid is log σ(z) = min(z, 0) − log1p(e^−|z|), which neither
// overflows nor loses the small values (PyTorch's log_sigmoid kernel),
// computed in float32 for a 16-bit z and rounded once, as that kernel
// does.
func logSigmoid(z *Tensor) *Tensor {
	if d := z.DType(); d.IsReduced() {
		return logSigmoid(z.To(Float32)).To(d)
	}
	return z.Clamp(nil, Scalar(0)).Sub(z.Abs().Neg().Exp().Log1p())
}

// inPlaceOf is the rule of PyTorch's in-place a.op_(b) whose
// out-of-place result is r: r cast to a's dtype, a dtype error where
// torch.can_cast refuses the cast, a shape error where r is larger.
func inPlaceOf(name string, a, r *Tensor) *Tensor {
	if !slices.Equal(r.v.Shape, a.v.Shape) { // an in-place op cannot grow a
		panic(errs.New(errs.Shape, name, "output with shape %v doesn't match the broadcast shape %v", a.Shape(), r.Shape()))
	}
	if r.DType() == a.DType() {
		return r
	}
	if !dtype.CanCast(r.DType(), a.DType()) {
		panic(errs.New(errs.DType, name, "result type %s can't be cast to the desired output type %s", op.TorchName(r.DType()), op.TorchName(a.DType())))
	}
	return r.To(a.DType())
}

// KLDiv returns the Kullback–Leibler divergence loss of log-probabilities
// x against t: t·(log t − x), 0 where t = 0, or with o.LogTarget (t holds
// log-probabilities) exp(t)·(t − x); reduced as o says, where
// [ReduceLossBatchMean] divides the sum by x's size along dim 0. x and t
// are floating (else a dtype error) and broadcast together; the result
// has their promoted dtype (Note [kl_div as PyTorch composes it]).
func KLDiv(x, t *Tensor, o ...LossOptions) *Tensor {
	const name = "kl_div"
	opt := lossOptions(name, o)
	// Note [kl_div as PyTorch composes it]
	//
	// PyTorch 1.13's kl_div is a composite of differentiable ops, after
	// one check: xlogy(t, t) − t·x, or exp(t)·(t − x) with log_target. So
	// an integer or bool operand is a dtype error however the other is
	// typed; xlogy(t, t) and exp(t) are of t's dtype, rounded to it before
	// the promoted product is subtracted; exp of a float16 t is its
	// missing CPU kernel; and the gradients are those of the steps: t's,
	// through xlogy's derivatives (xlogy(g, t), 0 where t = 0, plus g·t/t),
	// is NaN where t = 0. batchmean is F.kl_div's sum divided by x.size(0)
	// (a 0-dim x: the sum).
	if !x.DType().IsFloat() || !t.DType().IsFloat() {
		panic(errs.New(errs.DType, name, "kl_div: Integral inputs not supported."))
	}
	if opt.LogTarget && t.DType() == Float16 {
		panic(errs.New(errs.DType, name, "\"exp_vml_cpu\" not implemented for 'Half'"))
	}
	broadcastable(name, x, t)
	var l *Tensor
	if opt.LogTarget {
		l = t.Exp().Mul(t.Sub(x))
	} else {
		l = xlogySelf(t).Sub(t.Mul(x))
	}
	if opt.Reduction == ReduceLossBatchMean {
		l = l.Sum()
		if x.Dim() > 0 {
			l = l.Div(Scalar(float64(x.Size(0))))
		}
		return l
	}
	return reduceLoss(l, opt.Reduction)
}

// xlogySelf is PyTorch's xlogy(t, t) of a floating t: t·log t, 0 where t
// is 0, NaN where t is NaN. Its kernel computes x·std::log(y) in the
// element type, where c10 has a bfloat16 log (rounded before the product)
// and none for float16 (whose log and product are float32, rounded once).
// Its gradient is the sum of xlogy's two derivatives (Note [kl_div as
// PyTorch composes it]).
func xlogySelf(t *Tensor) *Tensor {
	forward := func() *Tensor {
		w := t
		if t.DType() == Float16 {
			w = t.To(Float32)
		}
		return Where(w.Eq(Scalar(0)), Scalar(0), w.Mul(w.Log())).To(t.DType())
	}
	return recordedAs("XlogyBackward0", []*Tensor{t}, forward, func(_ *node, g *Tensor) []*Tensor {
		// xlogy(g, t): NaN where t is, else 0 where g is, else g·log t;
		// masked to 0 where t = 0 (and t ≤ 0)
		glog := Where(g.Eq(Scalar(0)).LogicalAnd(t.IsNan().LogicalNot()), Scalar(0), g.Mul(t.Log()))
		self := Where(t.Eq(Scalar(0)), Scalar(0), glog)
		return []*Tensor{self.Add(g.Mul(t).Div(t))}
	})
}

// sameDType refuses a target of another dtype than x (PyTorch's
// binary_cross_entropy computes in one dtype).
func sameDType(name string, x, t *Tensor) {
	if x.DType() != t.DType() {
		panic(errs.New(errs.DType, name, "Found dtype %s but expected %s", op.TorchName(t.DType()), op.TorchName(x.DType())))
	}
}

// fmtShape formats t's shape as PyTorch prints torch.Size.
func fmtShape(t *Tensor) string { return fmt.Sprintf("torch.Size(%v)", shape.Format(t.v.Shape)) }
