package op

import (
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Matrix products: every entry point reduces to one batched product
// [B, n, k] · [B, k, m] run by the backend's MatMul, with PyTorch's rank
// dispatch (matmul), shape checks and messages. Operands are passed to the
// backend with their own strides: transposed and strided matrices are not
// copied (the GEMM packs them anyway); only broadcast batch dims that
// cannot be flattened into one batch stride are materialised.

func sameFloatDType(name string, a, b *raw.View) error {
	if a.DType != b.DType {
		return errs.New(errs.DType, name, "expected scalar type %s but found %s", a.DType, b.DType)
	}
	return nil
}

// matmulDType refuses bool, for which PyTorch has no product kernel; kernel
// is the name of PyTorch's kernel that its message names, with "{dev}" for
// the device of v.
func matmulDType(name, kernel string, v *raw.View) error {
	if v.DType == dtype.Bool {
		return errs.New(errs.DType, name, "%q not implemented for '%s'", strings.ReplaceAll(kernel, "{dev}", Device(v).String()), v.DType)
	}
	return nil
}

// productDTypes checks the dtypes of the operands a and b of a product of
// outEl elements, each a sum of k products: one dtype (sameFloatDType),
// not bool (matmulDType). PyTorch checks both in its kernel's dispatch,
// which a product without elements, or of zeros (k = 0), never reaches:
// it then refuses neither, and its result takes the dtype of one operand
// (which one depends on the kernel: mm, mv, Bmm, batchedDType).
func productDTypes(name, kernel string, a, b *raw.View, outEl, k int) error {
	if outEl == 0 || k == 0 {
		return nil
	}
	if err := sameFloatDType(name, a, b); err != nil {
		return err
	}
	return matmulDType(name, kernel, a)
}

func matrixOf(v *raw.View, batchStride, rowDim, colDim int) kernel.Matrix {
	return kernel.Matrix{Storage: v.Storage, Offset: v.Offset, BatchStride: batchStride,
		RowStride: v.Strides[rowDim], ColStride: v.Strides[colDim]}
}

// plainMax bounds the products (K·M·N) that PyTorch's bmm and baddbmm
// run in their plain loop (kernel.Gemm's Plain).
const plainMax = 400

// BmmPlain reports whether PyTorch's bmm runs an m×k by k×n product in its
// plain loop (each product rounded, added in order of k), as bmm and
// baddbmm here do too.
func BmmPlain(m, n, k int) bool { return k*m*n < plainMax }

// gemm computes out[b] = alpha·a[b]·b[b] + beta·out[b] over 3-D views;
// bmm says that PyTorch runs the product as bmm or baddbmm, whose small
// matrices it multiplies in a plain loop.
func gemm(a, b, out *raw.View, alpha, beta float64, bmm bool) error {
	g := &kernel.Gemm{
		DType: a.DType, Batch: a.Shape[0], M: a.Shape[1], K: a.Shape[2], N: b.Shape[2],
		A: matrixOf(a, a.Strides[0], 1, 2), B: matrixOf(b, b.Strides[0], 1, 2), C: matrixOf(out, out.Strides[0], 1, 2),
		Alpha: alpha, Beta: beta,
	}
	g.Plain = bmm && BmmPlain(g.M, g.N, g.K)
	if da, db, dc := a.Storage.Device(), b.Storage.Device(), out.Storage.Device(); da != db || da != dc {
		if da == db {
			db = dc
		}
		return errs.New(errs.Value, "matmul", "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", da, db)
	}
	if g.Batch == 0 || g.M == 0 || g.N == 0 {
		return nil
	}
	if g.K == 0 && beta == 0 {
		_, err := Fill(out, Int(0))
		return err
	}
	if g.K == 0 && beta == 1 {
		// out holds input, and the product adds nothing (a bool product
		// has no kernel, so it must not reach one: beta is then true)
		return nil
	}
	be, err := backendOf("matmul", a, b, out)
	if err != nil {
		return err
	}
	return be.MatMul(g)
}

// Mm is torch.mm: [n,k]·[k,m] → [n,m].
func Mm(a, b *raw.View) (*raw.View, error) { return mm(newDest(nil, a, b), a, b) }

// newDest is the result of a product of a and b: a new view, or out.
func newDest(out, a, b *raw.View) *dest {
	return &dest{name: "matmul", out: out, ins: []*raw.View{a, b}}
}

func mm(d *dest, a, b *raw.View) (*raw.View, error) {
	if err := checkMm(a, b); err != nil {
		return nil, err
	}
	out, err := d.alloc(a.DType, []int{a.Shape[0], b.Shape[1]})
	if err != nil {
		return nil, err
	}
	if err := gemm(batch1(a), batch1(b), batch1(out), 1, 0, false); err != nil {
		return nil, err
	}
	return d.finish(out)
}

func checkMm(a, b *raw.View) error {
	if a.Dim() != 2 {
		return errs.New(errs.Shape, "mm", "self must be a matrix")
	}
	if b.Dim() != 2 {
		return errs.New(errs.Shape, "mm", "mat2 must be a matrix")
	}
	if a.Shape[1] != b.Shape[0] {
		return errs.New(errs.Shape, "mm", "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.Shape[0], a.Shape[1], b.Shape[0], b.Shape[1])
	}
	return productDTypes("mm", "addmm_impl_{dev}_", a, b, a.Shape[0]*b.Shape[1], a.Shape[1])
}

// batch1 views a 2-D view as a batch of one.
func batch1(v *raw.View) *raw.View {
	return v.WithLayout([]int{1, v.Shape[0], v.Shape[1]}, []int{0, v.Strides[0], v.Strides[1]}, v.Offset)
}

// Bmm is torch.bmm: [b,n,k]·[b,k,m] → [b,n,m], no broadcasting.
func Bmm(a, b *raw.View) (*raw.View, error) {
	if err := checkBmm(a, b); err != nil {
		return nil, err
	}
	// batch2's dtype: the two are one, or the product is empty
	out, err := empty("matmul", b.DType, []int{a.Shape[0], a.Shape[1], b.Shape[2]}, a)
	if err != nil {
		return nil, err
	}
	if err := gemm(a, b, out, 1, 0, true); err != nil {
		return nil, err
	}
	return out, nil
}

func checkBmm(a, b *raw.View) error {
	if a.Dim() != 3 {
		return errs.New(errs.Shape, "bmm", "batch1 must be a 3D tensor")
	}
	if b.Dim() != 3 {
		return errs.New(errs.Shape, "bmm", "batch2 must be a 3D tensor")
	}
	if b.Shape[0] != a.Shape[0] || b.Shape[1] != a.Shape[2] {
		return errs.New(errs.Shape, "bmm", "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", a.Shape[0], a.Shape[2], b.Shape[0], b.Shape[1])
	}
	return productDTypes("bmm", "bmm", a, b, a.Shape[0]*a.Shape[1]*b.Shape[2], a.Shape[2])
}

// Mv is torch.mv: [n,k]·[k] → [n].
func Mv(a, x *raw.View) (*raw.View, error) { return mv(newDest(nil, a, x), a, x) }

func mv(d *dest, a, x *raw.View) (*raw.View, error) {
	if a.Dim() != 2 || x.Dim() != 1 {
		return nil, errs.New(errs.Shape, "mv", "vector + matrix @ vector expected, got %d, %d, %d", 1, a.Dim(), x.Dim())
	}
	if a.Shape[1] != x.Shape[0] {
		return nil, errs.New(errs.Shape, "mv", "size mismatch, got %d, %dx%d,%d", a.Shape[0], a.Shape[0], a.Shape[1], x.Shape[0])
	}
	if err := productDTypes("mv", "addmv_impl_{dev}", a, x, a.Shape[0], a.Shape[1]); err != nil {
		return nil, err
	}
	// the vector's dtype: the two are one, or the product is empty
	out, err := d.alloc(x.DType, []int{a.Shape[0]})
	if err != nil {
		return nil, err
	}
	xs := x.WithLayout([]int{1, x.Shape[0], 1}, []int{0, x.Strides[0], 1}, x.Offset)
	os := out.WithLayout([]int{1, a.Shape[0], 1}, []int{0, out.Strides[0], 1}, out.Offset)
	if err := gemm(batch1(a), xs, os, 1, 0, false); err != nil {
		return nil, err
	}
	return d.finish(out)
}

// Dot is torch.dot: [k]·[k] → a 0-dim tensor.
func Dot(a, b *raw.View) (*raw.View, error) { return dot(newDest(nil, a, b), a, b) }

func dot(d *dest, a, b *raw.View) (*raw.View, error) {
	if a.Dim() != 1 || b.Dim() != 1 {
		return nil, errs.New(errs.Shape, "dot", "1D tensors expected, but got %dD and %dD tensors", a.Dim(), b.Dim())
	}
	if a.DType != b.DType {
		return nil, errs.New(errs.DType, "dot", "dot : expected both vectors to have same dtype, but found %s and %s", a.DType, b.DType)
	}
	if a.Shape[0] != b.Shape[0] {
		return nil, errs.New(errs.Shape, "dot", "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", a.Shape[0], b.Shape[0], a.Shape[0], b.Shape[0])
	}
	if err := matmulDType("dot", "dot", a); err != nil {
		return nil, err
	}
	out, err := d.alloc(a.DType, []int{})
	if err != nil {
		return nil, err
	}
	as := a.WithLayout([]int{1, 1, a.Shape[0]}, []int{0, 0, a.Strides[0]}, a.Offset)
	bs := b.WithLayout([]int{1, b.Shape[0], 1}, []int{0, b.Strides[0], 0}, b.Offset)
	os := out.WithLayout([]int{1, 1, 1}, []int{0, 0, 0}, out.Offset)
	if err := gemm(as, bs, os, 1, 0, false); err != nil {
		return nil, err
	}
	return d.finish(out)
}

// Matmul is torch.matmul: dot, mv, mm, or a batched product with
// broadcast batch dims, by the operands' ranks.
func Matmul(a, b *raw.View) (*raw.View, error) { return matmul(newDest(nil, a, b), a, b) }

// MatmulTo is [Matmul] into out (PyTorch's out=): out must have the
// result's dtype and shape, or no elements (it is then resized), and no
// overlapping elements. It may share memory with a or b: the product is
// then computed into a new view and copied into out, as it is when out
// cannot be viewed as the batch of matrices the product writes.
func MatmulTo(out, a, b *raw.View) (*raw.View, error) {
	return matmul(newDest(out, a, b), a, b)
}

func matmul(d *dest, a, b *raw.View) (*raw.View, error) {
	da, db := a.Dim(), b.Dim()
	switch {
	case da == 0 || db == 0:
		return nil, errs.New(errs.Shape, "matmul", "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da, db)
	case da == 1 && db == 1:
		return dot(d, a, b)
	case da == 2 && db == 1:
		return mv(d, a, b)
	case da == 1 && db == 2:
		// a row vector times b: mm's checks and messages, then the
		// matrix-vector product bᵀ·a, which writes the 1-D result
		ua, _ := Unsqueeze(a, 0)
		if err := checkMm(ua, b); err != nil {
			return nil, err
		}
		bt, _ := T(b)
		return mv(d, bt, a)
	case da == 2 && db == 2:
		return mm(d, a, b)
	}
	// batched: 1-D operands become matrices, batch dims broadcast
	ua, ub := a, b
	if da == 1 {
		ua, _ = Unsqueeze(a, 0)
	}
	if db == 1 {
		ub, _ = Unsqueeze(b, 1)
	}
	n, k := ua.Shape[ua.Dim()-2], ua.Shape[ua.Dim()-1]
	k2, m := ub.Shape[ub.Dim()-2], ub.Shape[ub.Dim()-1]
	batchShape, err := shape.Broadcast(ua.Shape[:ua.Dim()-2], ub.Shape[:ub.Dim()-2])
	if err != nil {
		return nil, errs.WithOp(err, "matmul")
	}
	if k != k2 {
		return nil, errs.New(errs.Shape, "matmul", "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", shape.NumEl(batchShape)*n, k, k2, m)
	}
	nb := shape.NumEl(batchShape)
	if err := productDTypes("matmul", "bmm", a, b, nb*n*m, k); err != nil {
		return nil, err
	}
	a3, err := batched(ua, batchShape, nb, n, k)
	if err != nil {
		return nil, err
	}
	b3, err := batched(ub, batchShape, nb, k, m)
	if err != nil {
		return nil, err
	}
	// without the dims the 1-D operands gained
	outShape := append([]int{}, batchShape...)
	if da != 1 {
		outShape = append(outShape, n)
	}
	if db != 1 {
		outShape = append(outShape, m)
	}
	out, err := d.alloc(batchedDType(a, b), outShape)
	if err != nil {
		return nil, err
	}
	o3, err := View(out, []int{nb, n, m})
	if err != nil {
		// an out= whose strides cannot be seen as a batch of matrices
		if out, err = d.scratch(a.DType, outShape); err != nil {
			return nil, err
		}
		o3, _ = View(out, []int{nb, n, m})
	}
	if err := gemm(a3, b3, o3, 1, 0, !shouldFold(a, db) && !shouldFold(b, da)); err != nil {
		return nil, err
	}
	return d.finish(out)
}

// batchedDType is the dtype of matmul's batched product of a and b, which
// have one dtype unless the product is empty: then PyTorch's result takes
// the dtype of the operand that its kernel takes it from. PyTorch folds a
// product of a 1-D or 2-D operand and one of three dims or more into mv
// (the vector's dtype) or mm (the first matrix's: a's, or b's when b is
// the folded one, the product being computed transposed), unless the 3-D
// operand is a permuted batch (its last stride not 1, its first the
// product of the other two sizes); otherwise it runs bmm (b's).
func batchedDType(a, b *raw.View) dtype.DType {
	switch da, db := a.Dim(), b.Dim(); {
	case db == 1: // [..., n, k]·[k] is mv
		return b.DType
	case da == 1: // [k]·[..., k, m] is mv of b transposed
		return a.DType
	case db == 2 && !permutedBatch(a): // mm of a folded
		return a.DType
	}
	return b.DType // mm of b folded, or bmm
}

// permutedBatch reports whether v is [b, n, k] with its batch dim slowest
// and its matrices transposed (permute(0, 2, 1) of a contiguous tensor),
// which PyTorch's matmul runs as bmm rather than fold into one matrix.
func permutedBatch(v *raw.View) bool {
	return v.Dim() == 3 && v.Strides[2] != 1 && v.Strides[0] == v.Shape[1]*v.Shape[2]
}

// shouldFold is PyTorch 1.13's should_fold: matmul of t, of three dims or
// more, and an operand of otherDims 1 or 2 runs as mv or mm of t's
// leading dims folded into one, unless t is a permuted batch facing a
// matrix; what does not fold runs as bmm.
func shouldFold(t *raw.View, otherDims int) bool {
	if t.Dim() < 3 || (otherDims != 1 && otherDims != 2) {
		return false
	}
	return !(otherDims == 2 && permutedBatch(t))
}

// batched returns v expanded to batchShape + [rows, cols] as a 3-D view
// [nb, rows, cols], copying only when the batch dims cannot be flattened.
func batched(v *raw.View, batchShape []int, nb, rows, cols int) (*raw.View, error) {
	e, err := Expand(v, append(append([]int{}, batchShape...), rows, cols))
	if err != nil {
		return nil, err
	}
	return Reshape(e, []int{nb, rows, cols})
}

// Linear is torch.nn.functional.linear: x·wᵀ + bias, x [..., k], w [m, k], bias [m] or nil.
func Linear(x, w, bias *raw.View) (*raw.View, error) {
	if w.Dim() != 2 {
		return nil, errs.New(errs.Shape, "linear", "weight must be a matrix, got %dD", w.Dim())
	}
	wt, _ := T(w)
	if x.Dim() == 2 && bias != nil {
		return Addmm(bias, x, wt, Int(1), Int(1))
	}
	if x.Dim() == 3 && bias != nil && x.IsContiguous() {
		// PyTorch folds a contiguous 3-D x to 2-D and runs addmm (its
		// checks and its rules for an empty product); other ranks add
		// the bias to the product in place (promoting)
		x2, err := View(x, []int{x.Shape[0] * x.Shape[1], x.Shape[2]})
		if err != nil {
			return nil, err
		}
		r, err := Addmm(bias, x2, wt, Int(1), Int(1))
		if err != nil {
			return nil, err
		}
		return View(r, []int{x.Shape[0], x.Shape[1], r.Shape[1]})
	}
	r, err := Matmul(x, wt)
	if err != nil {
		return nil, err
	}
	if bias == nil {
		return r, nil
	}
	return Pointwise(optable.Add, nil, true, nil, r, bias)
}

// Addmm is torch.addmm: beta·input + alpha·(a·b); input broadcasts to
// [n, m]; beta 0 ignores input (NaN included).
func Addmm(input, a, b *raw.View, beta, alpha Scalar) (*raw.View, error) {
	// PyTorch's addmm checks the dtypes first, unlike mm
	if input.DType != b.DType {
		return nil, errs.New(errs.DType, "addmm", "self and mat2 must have the same dtype")
	}
	if a.DType != b.DType {
		return nil, errs.New(errs.DType, "addmm", "mat1 and mat2 must have the same dtype")
	}
	if err := checkMm(a, b); err != nil {
		return nil, err
	}
	if err := checkEmptyProductBeta("addmm", a.DType, a.Shape[0]*b.Shape[1], a.Shape[1], beta); err != nil {
		return nil, err
	}
	out, err := scaledInput("addmm", input, a.DType, []int{a.Shape[0], b.Shape[1]}, beta)
	if err != nil {
		return nil, err
	}
	if err := checkScales("addmm", optable.InOpMath.DType(a.DType), out, a.Shape[1], beta, alpha); err != nil {
		return nil, err
	}
	if err := gemm(batch1(a), batch1(b), batch1(out), alpha.F, beta.F, false); err != nil {
		return nil, err
	}
	return out, nil
}

// Baddbmm is torch.baddbmm: beta·input + alpha·(a[i]·b[i]) per batch.
func Baddbmm(input, a, b *raw.View, beta, alpha Scalar) (*raw.View, error) {
	if err := checkBmm(a, b); err != nil {
		return nil, err
	}
	// batch2's dtype, as bmm's: the two are one, or the product is empty
	dt := b.DType
	if err := checkEmptyProductBeta("baddbmm", dt, a.Shape[0]*a.Shape[1]*b.Shape[2], a.Shape[2], beta); err != nil {
		return nil, err
	}
	out, err := scaledInput("baddbmm", input, dt, []int{a.Shape[0], a.Shape[1], b.Shape[2]}, beta)
	if err != nil {
		return nil, err
	}
	if err := checkScales("baddbmm", dt, out, a.Shape[2], beta, alpha); err != nil {
		return nil, err
	}
	if err := gemm(a, b, out, alpha.F, beta.F, true); err != nil {
		return nil, err
	}
	return out, nil
}

// checkEmptyProductBeta refuses a float beta for an integer or bool
// result of n > 0 elements when the product is empty (k = 0), as PyTorch
// does: it then computes beta·input as a multiply by beta in place, whose
// float result cannot be cast to the result's dtype (with k > 0 its kernel
// truncates beta instead, as goten always does); beta 0 only zeroes. A
// bool result refuses an integer beta too (bool times int64 is int64).
func checkEmptyProductBeta(name string, d dtype.DType, n, k int, beta Scalar) error {
	if k != 0 || n == 0 || d.IsFloat() || beta.F == 0 {
		return nil
	}
	switch {
	case beta.Kind == dtype.CatFloat:
		return errs.New(errs.DType, name, "result type %s can't be cast to the desired output type %s", dtype.Float32, d)
	case beta.Kind == dtype.CatInt && d == dtype.Bool:
		// a bool result times an integer beta is int64
		return errs.New(errs.DType, name, "result type %s can't be cast to the desired output type %s", dtype.Int64, d)
	}
	return nil
}

// checkScales refuses a beta or alpha that dtype d cannot hold (Note
// [Checked scalars]): PyTorch's kernels read them in d (float32 for addmm
// of the 16-bit floats) when they run the product, so only for a result
// with elements and k > 0 (with k = 0, beta·input wraps, as a multiply by
// a Go number does).
func checkScales(name string, d dtype.DType, out *raw.View, k int, beta, alpha Scalar) error {
	if out.NumEl() == 0 || k == 0 {
		return nil
	}
	if err := beta.Check(name, d); err != nil {
		return err
	}
	return alpha.Check(name, d)
}

// scaledInput returns a new view of the product's shape and dtype dt
// holding input broadcast to it and converted to dt (the C that the GEMM
// scales by beta; baddbmm converts an input of another dtype, as PyTorch's
// does), or zeros when beta is 0 (input is then ignored, NaN included).
func scaledInput(name string, input *raw.View, dt dtype.DType, sizes []int, beta Scalar) (*raw.View, error) {
	in, err := Expand(input, sizes)
	if err != nil {
		return nil, err
	}
	out, err := empty(name, dt, sizes, input)
	if err != nil {
		return nil, err
	}
	if beta.F == 0 {
		return out, nil
	}
	return CopyInto(name, out, in, false)
}
