package tensor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/tensor"
)

// binaryOps are the ops the fuzz test draws from, each with its meaning
// written naively in float64 (exact for these ops on values that fit).
var binaryOps = []struct {
	name string
	run  func(a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor
	out  func(dst, a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor
	ref  func(x, y float64) float64
	bool bool // result is bool
}{
	{"add", tensor.Add, tensor.AddTo, func(x, y float64) float64 { return x + y }, false},
	{"sub", tensor.Sub, tensor.SubTo, func(x, y float64) float64 { return x - y }, false},
	{"mul", noAlpha(tensor.Mul), noAlphaTo(tensor.MulTo), func(x, y float64) float64 { return x * y }, false},
	{"maximum", noAlpha(tensor.Maximum), noAlphaTo(tensor.MaximumTo), math.Max, false},
	{"lt", noAlpha(tensor.Lt), noAlphaTo(tensor.LtTo), func(x, y float64) float64 { return b2f(x < y) }, true},
	{"eq", noAlpha(tensor.Eq), noAlphaTo(tensor.EqTo), func(x, y float64) float64 { return b2f(x == y) }, true},
}

// noAlpha and noAlphaTo give an op without alpha the signature of add's.
func noAlpha(f func(a, b *tensor.Tensor) *tensor.Tensor) func(a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor {
	return func(a, b *tensor.Tensor, _ ...*tensor.Tensor) *tensor.Tensor { return f(a, b) }
}

func noAlphaTo(f func(dst, a, b *tensor.Tensor) *tensor.Tensor) func(dst, a, b *tensor.Tensor, alpha ...*tensor.Tensor) *tensor.Tensor {
	return func(dst, a, b *tensor.Tensor, _ ...*tensor.Tensor) *tensor.Tensor { return f(dst, a, b) }
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// randomView returns a view of the given shape over a larger random
// storage: dims permuted in memory, strided with steps, some broadcast
// (stride 0 where the size is 1 is also used), at a random offset.
func randomView(r *rand.Rand, dt dtype.DType, sizes []int) *raw.View {
	n := len(sizes)
	order := r.Perm(n)
	strides := make([]int, n)
	span := 1
	for _, d := range order {
		step := 1 + r.IntN(2)
		if sizes[d] == 1 && r.IntN(3) == 0 {
			strides[d] = 0 // broadcast-like: stride 0 on a size-1 dim
			continue
		}
		strides[d] = span * step
		span *= max(sizes[d], 1) * step
	}
	offset := r.IntN(4)
	v := &raw.View{Storage: device.Alloc((span + offset + 1) * dt.Size()), DType: dt,
		Shape: append([]int{}, sizes...), Strides: strides, Offset: offset}
	for i := 0; i < span+offset+1; i++ {
		x := float64(r.IntN(17) - 8)
		if dt.IsFloat() {
			x /= 4
		}
		if dt == dtype.Uint8 {
			x = math.Abs(x)
		}
		v.SetFloat64(i, x)
	}
	return v
}

// operandShape derives a shape that broadcasts to out: some leading dims
// dropped, some dims set to 1.
func operandShape(r *rand.Rand, out []int) []int {
	s := append([]int{}, out[r.IntN(len(out)+1):]...)
	for i := range s {
		if r.IntN(3) == 0 {
			s[i] = 1
		}
	}
	return s
}

// at reads the element at a broadcast index of v (index arithmetic).
func at(v *raw.View, idx []int) float64 {
	off := v.Offset
	lead := len(idx) - v.Dim()
	for d := 0; d < v.Dim(); d++ {
		if v.Shape[d] != 1 {
			off += idx[lead+d] * v.Strides[d]
		}
	}
	return v.Float64At(off)
}

// roundTo converts x to dtype d as storing it would.
func roundTo(x float64, d dtype.DType) float64 {
	v := raw.New(d, []int{})
	if d.IsFloat() {
		v.SetFloat64(0, x)
	} else {
		v.SetInt64(0, int64(x))
	}
	return v.Float64At(0)
}

func checkBinary(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	o := binaryOps[r.IntN(len(binaryOps))]
	nd := r.IntN(5)
	out := make([]int, nd)
	for i := range out {
		out[i] = r.IntN(4) + 1
		if r.IntN(12) == 0 {
			out[i] = 0
		}
	}
	dts := dtype.All
	da, db := dts[r.IntN(len(dts))], dts[r.IntN(len(dts))]
	if o.name == "sub" { // which refuses a bool operand, as PyTorch's sub_check
		if da == dtype.Bool {
			da = dtype.Int16
		}
		if db == dtype.Bool {
			db = dtype.Int16
		}
	}
	va, vb := randomView(r, da, operandShape(r, out)), randomView(r, db, operandShape(r, out))
	a, b := tensor.FromRaw(va), tensor.FromRaw(vb)
	var st dtype.ResultState
	st.Update(da, va.Dim(), false)
	st.Update(db, vb.Dim(), false)
	want := st.Result()
	if o.bool {
		want = dtype.Bool
	}
	var got *tensor.Tensor
	var err error
	if r.IntN(3) == 0 && want != dtype.Bool { // out= into a strided view of the result dtype
		dst := tensor.FromRaw(randomViewDense(r, want, shapeOf(va, vb)))
		err = tensor.Try(func() { got = o.out(dst, a, b) })
	} else {
		err = tensor.Try(func() { got = o.run(a, b) })
	}
	desc := fmt.Sprintf("seed %d: %s(%s%v strides %v, %s%v strides %v)", seed, o.name, da, va.Shape, va.Strides, db, vb.Shape, vb.Strides)
	if err != nil {
		t.Fatalf("%s: %v", desc, err)
	}
	if got.DType() != want {
		t.Fatalf("%s: dtype %s, want %s", desc, got.DType(), want)
	}
	sh := got.Shape()
	gv := got.Raw()
	idx := make([]int, len(sh))
	for i := 0; i < got.NumEl(); i++ {
		rem := i
		for d := len(sh) - 1; d >= 0; d-- {
			idx[d] = rem % sh[d]
			rem /= sh[d]
		}
		// inputs are read as the compute dtype, then the op runs, then the result is stored
		x, y := roundTo(at(va, idx), st.Result()), roundTo(at(vb, idx), st.Result())
		exp := roundTo(o.ref(x, y), want)
		g := at(gv, idx)
		if g != exp && !(math.IsNaN(g) && math.IsNaN(exp)) {
			t.Fatalf("%s: element %v = %v, want %v", desc, idx, g, exp)
		}
	}
}

func shapeOf(a, b *raw.View) []int {
	n := max(a.Dim(), b.Dim())
	s := make([]int, n)
	for i := 0; i < n; i++ {
		sa, sb := 1, 1
		if j := i - (n - a.Dim()); j >= 0 {
			sa = a.Shape[j]
		}
		if j := i - (n - b.Dim()); j >= 0 {
			sb = b.Shape[j]
		}
		s[i] = max(sa, sb)
		if sa == 0 || sb == 0 {
			s[i] = 0
		}
	}
	return s
}

// randomViewDense is randomView without stride-0 dims (a valid output).
func randomViewDense(r *rand.Rand, dt dtype.DType, sizes []int) *raw.View {
	v := randomView(r, dt, sizes)
	for d, s := range v.Strides {
		if s == 0 {
			v.Strides[d] = 1 // size-1 dim: any stride addresses the one element
		}
	}
	return v
}

// FuzzBinary runs random binary ops on random views of random dtypes
// through the public API (iterator and CPU kernels) and checks every
// element against index arithmetic.
func FuzzBinary(f *testing.F) {
	for s := uint64(0); s < 300; s++ {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkBinary(t, seed) })
}
