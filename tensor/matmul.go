package tensor

import "github.com/goten-ml/goten/op"

// Matmul returns the matrix product of a and b by their ranks, as
// torch.matmul: 1-D·1-D is a dot product (0-dim), 2-D·1-D a matrix-vector
// product, 1-D·2-D a vector-matrix product, 2-D·2-D a matrix product, and
// higher ranks a batched product whose batch dims broadcast. Mismatched
// inner sizes are a shape error, mixed dtypes a dtype error.
func Matmul(a, b *Tensor) *Tensor { return viewResult(op.Matmul(a.in("matmul"), b.in("matmul"))) }

// Matmul returns t·other; see [Matmul].
func (t *Tensor) Matmul(other *Tensor) *Tensor { return Matmul(t, other) }

// Mm returns the product of matrices a [n,k] and b [k,m].
func Mm(a, b *Tensor) *Tensor { return viewResult(op.Mm(a.in("mm"), b.in("mm"))) }

// Bmm returns the batched product of a [B,n,k] and b [B,k,m] (no broadcasting).
func Bmm(a, b *Tensor) *Tensor { return viewResult(op.Bmm(a.in("bmm"), b.in("bmm"))) }

// Mv returns the product of matrix a [n,k] and vector x [k].
func Mv(a, x *Tensor) *Tensor { return viewResult(op.Mv(a.in("mv"), x.in("mv"))) }

// Dot returns the inner product of vectors a and b as a 0-dim tensor.
func Dot(a, b *Tensor) *Tensor { return viewResult(op.Dot(a.in("dot"), b.in("dot"))) }

// Linear returns x·wᵀ + bias (torch.nn.functional.linear): x [..., k],
// w [m, k], bias [m] or nil.
func Linear(x, w, bias *Tensor) *Tensor {
	return viewResult(op.Linear(x.in("linear"), w.in("linear"), bias.view()))
}

// Addmm returns beta·input + alpha·(a·b), input broadcast to [n, m]; beta
// and alpha are [Scalar]s (nil: 1), and beta 0 ignores input, NaN included.
func Addmm(input, a, b *Tensor, beta, alpha *Tensor) *Tensor {
	return viewResult(op.Addmm(input.in("addmm"), a.in("addmm"), b.in("addmm"), scale("addmm", "beta", beta), scale("addmm", "alpha", alpha)))
}

// Baddbmm returns beta·input + alpha·(a[i]·b[i]) for each batch i; beta and
// alpha are [Scalar]s (nil: 1).
func Baddbmm(input, a, b *Tensor, beta, alpha *Tensor) *Tensor {
	return viewResult(op.Baddbmm(input.in("baddbmm"), a.in("baddbmm"), b.in("baddbmm"), scale("baddbmm", "beta", beta), scale("baddbmm", "alpha", alpha)))
}

// scale reads an optional multiplier: 1 when nil.
func scale(opName, name string, x *Tensor) op.Scalar {
	if x == nil {
		return op.Int(1)
	}
	return number(opName, name, x)
}
