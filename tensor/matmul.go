package tensor

import "github.com/goten-ml/goten/op"

// Matmul returns the matrix product of a and b by their ranks, as
// torch.matmul: 1-D·1-D is a dot product (0-dim), 2-D·1-D a matrix-vector
// product, 1-D·2-D a vector-matrix product, 2-D·2-D a matrix product, and
// higher ranks a batched product whose batch dims broadcast. Mismatched
// inner sizes are a shape error, mixed dtypes a dtype error.
func Matmul(a, b *Tensor) *Tensor {
	r := newResult(op.Matmul(a.view(), b.view()))
	if recording(a, b) {
		recordProduct("MmBackward0", a, b, r, matmulGrads)
	}
	return r
}

// Matmul returns t·other; see [Matmul].
func (t *Tensor) Matmul(other *Tensor) *Tensor { return Matmul(t, other) }

// Mm returns the product of matrices a [n,k] and b [k,m].
func Mm(a, b *Tensor) *Tensor {
	r := newResult(op.Mm(a.view(), b.view()))
	if recording(a, b) {
		recordProduct("MmBackward0", a, b, r, matmulGrads)
	}
	return r
}

// Bmm returns the batched product of a [B,n,k] and b [B,k,m] (no broadcasting).
func Bmm(a, b *Tensor) *Tensor {
	r := newResult(op.Bmm(a.view(), b.view()))
	if recording(a, b) {
		recordProduct("BmmBackward0", a, b, r, matmulGrads)
	}
	return r
}

// Mv returns the product of matrix a [n,k] and vector x [k].
func Mv(a, x *Tensor) *Tensor {
	r := newResult(op.Mv(a.view(), x.view()))
	if recording(a, x) {
		recordProduct("MvBackward0", a, x, r, matmulGrads)
	}
	return r
}

// Dot returns the inner product of vectors a and b as a 0-dim tensor.
func Dot(a, b *Tensor) *Tensor {
	r := newResult(op.Dot(a.view(), b.view()))
	if recording(a, b) {
		recordProduct("DotBackward0", a, b, r, matmulGrads)
	}
	return r
}

// Linear returns x·wᵀ + bias (torch.nn.functional.linear): x [..., k],
// w [m, k], bias [m] or nil.
func Linear(x, w, bias *Tensor) *Tensor {
	r := newResult(op.Linear(x.view(), w.view(), bias.view()))
	if recording(x, w, bias) {
		record("LinearBackward0", []*Tensor{x, w, bias}, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
			g := gs[0]
			out := make([]*Tensor, 3)
			if n.needs(0) {
				out[0] = g.Matmul(w)
			}
			if n.needs(1) {
				if x.Dim() == 1 {
					out[1] = g.Unsqueeze(1).Mul(x)
				} else {
					// rows counted, not inferred: -1 is ambiguous when k or m is 0
					m, k := w.v.Shape[0], w.v.Shape[1]
					rows := 1
					for _, d := range x.v.Shape[:x.Dim()-1] {
						rows *= d
					}
					out[1] = Mm(g.Reshape(rows, m).T(), x.Reshape(rows, k))
				}
			}
			if n.needs(2) {
				out[2] = g // summed to bias's shape by the engine
			}
			return out
		}, x, w)
	}
	return r
}

// Addmm returns beta·input + alpha·(a·b), input broadcast to [n, m]; beta
// and alpha are [Scalar]s (nil: 1), and beta 0 ignores input, NaN included.
func Addmm(input, a, b *Tensor, beta, alpha *Tensor) *Tensor {
	bs, as := scale("addmm", "beta", beta), scale("addmm", "alpha", alpha)
	r := newResult(op.Addmm(input.view(), a.view(), b.view(), bs, as))
	if recording(input, a, b) {
		recordScaledProduct("AddmmBackward0", input, a, b, r, bs, as)
	}
	return r
}

// Baddbmm returns beta·input + alpha·(a[i]·b[i]) for each batch i; beta and
// alpha are [Scalar]s (nil: 1).
func Baddbmm(input, a, b *Tensor, beta, alpha *Tensor) *Tensor {
	bs, as := scale("baddbmm", "beta", beta), scale("baddbmm", "alpha", alpha)
	r := newResult(op.Baddbmm(input.view(), a.view(), b.view(), bs, as))
	if recording(input, a, b) {
		recordScaledProduct("BaddbmmBackward0", input, a, b, r, bs, as)
	}
	return r
}

// scale reads an optional multiplier: 1 when nil.
func scale(opName, name string, x *Tensor) op.Scalar {
	if x == nil {
		return op.Int(1)
	}
	return number(opName, name, x)
}

// recordProduct records r = a·b for backward, grads giving the factors'
// gradients.
func recordProduct(name string, a, b, r *Tensor, grads func(a, b, g *Tensor, needA, needB bool) (*Tensor, *Tensor)) {
	record(name, []*Tensor{a, b}, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
		ga, gb := grads(a, b, gs[0], n.needs(0), n.needs(1))
		return []*Tensor{ga, gb}
	}, a, b)
}

// recordScaledProduct records r = beta·input + alpha·(a·b) for backward.
func recordScaledProduct(name string, input, a, b, r *Tensor, beta, alpha op.Scalar) {
	record(name, []*Tensor{input, a, b}, []*Tensor{r}, func(n *node, gs []*Tensor) []*Tensor {
		g := gs[0]
		out := make([]*Tensor, 3)
		if n.needs(0) {
			out[0] = g.Mul(Scalar(beta.F))
		}
		ga, gb := matmulGrads(a, b, g.Mul(Scalar(alpha.F)), n.needs(1), n.needs(2))
		out[1], out[2] = ga, gb
		return out
	}, a, b)
}

// matmulGrads returns the gradients of a and b in g = d(a·b) (torch.matmul's
// ranks; batch dims a factor was broadcast over are summed by the engine).
func matmulGrads(a, b, g *Tensor, needA, needB bool) (ga, gb *Tensor) {
	mT := func(t *Tensor) *Tensor { return t.Transpose(-2, -1) }
	switch {
	case a.Dim() == 1 && b.Dim() == 1:
		if needA {
			ga = g.Mul(b)
		}
		if needB {
			gb = g.Mul(a)
		}
	case b.Dim() == 1:
		if needA {
			ga = g.Unsqueeze(-1).Mul(b)
		}
		if needB {
			gb = Matmul(mT(a), g.Unsqueeze(-1)).Squeeze(-1)
		}
	case a.Dim() == 1:
		if needA {
			ga = Matmul(g.Unsqueeze(-2), mT(b)).Squeeze(-2)
		}
		if needB {
			gb = a.Unsqueeze(-1).Mul(g.Unsqueeze(-2))
		}
	default:
		if needA {
			ga = Matmul(g, mT(b))
		}
		if needB {
			gb = Matmul(mT(a), g)
		}
	}
	return ga, gb
}
