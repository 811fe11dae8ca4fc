package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
)

// TestTernaryLoops checks that clamp's and where's loops, which run the
// ternary kernels where the layout allows (Note [Ternary kernels] in
// asm/ternary.go), give the generated loops' bits on every layout of the
// bounds and branches (slices, broadcast scalars, strided), NaN and signed
// zero bounds included.
func TestTernaryLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	f32s := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.5, -2}
	genF := func() float32 {
		if r.IntN(3) == 0 {
			return f32s[r.IntN(len(f32s))]
		}
		return float32(r.NormFloat64())
	}
	genI := func() int16 { return int16(r.Uint32()) }
	genB := func() bool { return r.IntN(2) == 0 }
	for _, tc := range []struct {
		op        *optable.Op
		d         dtype.DType
		fn, loop  loopFn
		checkLoop func(t *testing.T, name string, fn, loop loopFn)
	}{
		{optable.Clamp, dtype.Float32, pointwiseLoops[optable.Clamp.Code][dtype.Float32], loopClampN[float32], func(t *testing.T, name string, fn, loop loopFn) {
			compareTernary(t, r, name, fn, loop, genF, genF)
		}},
		{optable.Clamp, dtype.Int16, pointwiseLoops[optable.Clamp.Code][dtype.Int16], loopClampN[int16], func(t *testing.T, name string, fn, loop loopFn) {
			compareTernary(t, r, name, fn, loop, genI, genI)
		}},
		{optable.Where, dtype.Float32, pointwiseLoops[optable.Where.Code][dtype.Float32], loopWhereA[float32], func(t *testing.T, name string, fn, loop loopFn) {
			compareTernary(t, r, name, fn, loop, genB, genF)
		}},
		{optable.Where, dtype.Int16, pointwiseLoops[optable.Where.Code][dtype.Int16], loopWhereA[int16], func(t *testing.T, name string, fn, loop loopFn) {
			compareTernary(t, r, name, fn, loop, genB, genI)
		}},
	} {
		if tc.op.SIMD.Ternary == "" {
			t.Fatalf("%s: no ternary kernels in the table", tc.op.Name)
		}
		tc.checkLoop(t, tc.op.Name+" "+tc.d.String(), tc.fn, tc.loop)
	}
}

func compareTernary[C, T comparable](t *testing.T, r *rand.Rand, name string, fn, loop loopFn, genC func() C, genT func() T) {
	var zc C
	var zt T
	cs, es := int(unsafe.Sizeof(zc)), int(unsafe.Sizeof(zt))
	bits := func(v T) uint64 {
		var u uint64
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&u)), 8), unsafe.Slice((*byte)(unsafe.Pointer(&v)), es))
		return u
	}
	for _, n := range []int{1, 7, 33, 100, 1000} {
		a := make([]C, n)
		for i := range a {
			a[i] = genC()
		}
		b, c := make([]T, 2*n), make([]T, 2*n)
		for i := range b {
			b[i], c[i] = genT(), genT()
		}
		for _, st := range [][2]int{{es, es}, {es, 0}, {0, es}, {0, 0}, {2 * es, es}, {es, 2 * es}} {
			got, want := make([]T, n), make([]T, n)
			p := [4]unsafe.Pointer{unsafe.Pointer(&got[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&c[0])}
			s := [4]int{es, cs, st[0], st[1]}
			fn(p, s, n, &kernel.DefaultArgs)
			p[0] = unsafe.Pointer(&want[0])
			loop(p, s, n, &kernel.DefaultArgs)
			for i := range got {
				// a NaN's payload is not the loop's to keep: Go's min and
				// max pick either NaN, the kernels elMax's
				if bits(got[i]) != bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					t.Fatalf("%s n=%d strides %v: [%d] = %v, the generated loop %v", name, n, st, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkTernaryLoops times clamp(x, -1, 1) and where(c, a, b) on 64Ki
// float32 elements (in cache) through the table's loop and the generated
// loop.
func BenchmarkTernaryLoops(b *testing.B) {
	n := 1 << 16
	x, y, o := make([]float32, n), make([]float32, n), make([]float32, n)
	c := make([]bool, n)
	for i := range x {
		x[i], y[i], c[i] = float32(i%7)-3, float32(i), i%3 == 0
	}
	lo, hi := float32(-1), float32(1)
	clamp := [4]unsafe.Pointer{unsafe.Pointer(&o[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&lo), unsafe.Pointer(&hi)}
	where := [4]unsafe.Pointer{unsafe.Pointer(&o[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])}
	for _, bc := range []struct {
		name string
		fn   loopFn
		p    [4]unsafe.Pointer
		s    [4]int
	}{
		{"clamp/table", pointwiseLoops[optable.Clamp.Code][dtype.Float32], clamp, [4]int{4, 4, 0, 0}},
		{"clamp/generated", loopClampN[float32], clamp, [4]int{4, 4, 0, 0}},
		{"where/table", pointwiseLoops[optable.Where.Code][dtype.Float32], where, [4]int{4, 1, 4, 4}},
		{"where/generated", loopWhereA[float32], where, [4]int{4, 1, 4, 4}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(n * 12))
			for range b.N {
				bc.fn(bc.p, bc.s, n, &kernel.DefaultArgs)
			}
		})
	}
}
