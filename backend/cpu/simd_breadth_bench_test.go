package cpu

import (
	"fmt"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/kernel"
)

// BenchmarkSIMDvsLoop times the SIMD loops of integer pow, logit with
// eps and where on bools against the generated scalar loops they fall
// back to, on one goroutine over 64Ki contiguous elements (dst, x and y
// in L2): the ratio of the pairs is the kernels' speedup.
func BenchmarkSIMDvsLoop(b *testing.B) {
	const n = 1 << 16
	r := rand.New(rand.NewSource(1))
	eps := kernel.DefaultArgs
	eps.Eps, eps.EpsHi, eps.HasEps = 1e-6, 1-1e-6, true
	type pair struct {
		name      string
		simd, ref loopFn
		args      *kernel.Args
	}
	run := func(b *testing.B, ps []pair, p [4]unsafe.Pointer, s [4]int, bytes int) {
		for _, q := range ps {
			for _, v := range []struct {
				name string
				fn   loopFn
			}{{"simd", q.simd}, {"loop", q.ref}} {
				b.Run(q.name+"/"+v.name, func(b *testing.B) {
					b.SetBytes(int64(bytes))
					b.ReportAllocs()
					args := q.args
					if args == nil {
						args = &kernel.DefaultArgs
					}
					for range b.N {
						v.fn(p, s, n, args)
					}
				})
			}
		}
	}
	intPow := func(b *testing.B, name string, size int, simd, ref loopFn, set func(x, e unsafe.Pointer, i int, xv, ev int64)) {
		x, e, d := make([]byte, n*size), make([]byte, n*size), make([]byte, n*size)
		p := [4]unsafe.Pointer{unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&e[0])}
		for i := range n {
			set(p[1], p[2], i, r.Int63n(7)-3, r.Int63n(8))
		}
		// a 0-d exponent of 2 or 3 (x**2, x**3), and a tensor of exponents in [0, 8)
		for _, k := range []int64{2, 3} {
			ex := make([]byte, size)
			set(p[1], unsafe.Pointer(&ex[0]), 0, r.Int63n(7)-3, k)
			set(p[1], p[1], 0, 1, 1) // keep x[0] nonzero
			pk := p
			pk[2] = unsafe.Pointer(&ex[0])
			run(b, []pair{{fmt.Sprintf("pow/%s/x**%d", name, k), simd, ref, nil}}, pk, [4]int{size, size, 0}, 2*n*size)
		}
		run(b, []pair{{"pow/" + name + "/x**t", simd, ref, nil}}, p, [4]int{size, size, size}, 3*n*size)
	}
	intPow(b, "int8", 1, simdPowI8, loopPowS[int8], func(x, e unsafe.Pointer, i int, xv, ev int64) {
		*(*int8)(unsafe.Add(x, i)) = int8(xv)
		*(*int8)(unsafe.Add(e, i)) = int8(ev)
	})
	intPow(b, "uint8", 1, simdPowU8, loopPowU[uint8], func(x, e unsafe.Pointer, i int, xv, ev int64) {
		*(*uint8)(unsafe.Add(x, i)) = uint8(xv)
		*(*uint8)(unsafe.Add(e, i)) = uint8(ev)
	})
	intPow(b, "int16", 2, simdPowI16, loopPowS[int16], func(x, e unsafe.Pointer, i int, xv, ev int64) {
		*(*int16)(unsafe.Add(x, 2*i)) = int16(xv)
		*(*int16)(unsafe.Add(e, 2*i)) = int16(ev)
	})
	intPow(b, "int32", 4, simdPowI32, loopPowS[int32], func(x, e unsafe.Pointer, i int, xv, ev int64) {
		*(*int32)(unsafe.Add(x, 4*i)) = int32(xv)
		*(*int32)(unsafe.Add(e, 4*i)) = int32(ev)
	})
	intPow(b, "int64", 8, simdPowI64, loopPowS[int64], func(x, e unsafe.Pointer, i int, xv, ev int64) {
		*(*int64)(unsafe.Add(x, 8*i)) = xv
		*(*int64)(unsafe.Add(e, 8*i)) = ev
	})

	// logit with eps over [0, 1]
	x32, d32 := make([]float32, n), make([]float32, n)
	x64, d64 := make([]float64, n), make([]float64, n)
	for i := range n {
		x32[i], x64[i] = r.Float32(), r.Float64()
	}
	run(b, []pair{{"logit_eps/float32", simdLogitF32, loopLogitF[float32], &eps}},
		[4]unsafe.Pointer{unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0])}, [4]int{4, 4}, 8*n)
	run(b, []pair{{"logit_eps/float64", simdLogitF64, loopLogitF[float64], &eps}},
		[4]unsafe.Pointer{unsafe.Pointer(&d64[0]), unsafe.Pointer(&x64[0])}, [4]int{8, 8}, 16*n)

	// where on bools
	c, xb, yb, db := make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
	for i := range n {
		c[i], xb[i], yb[i] = r.Intn(2) == 0, r.Intn(2) == 0, r.Intn(2) == 0
	}
	run(b, []pair{{"where/bool", simdWhereBool, loopWhereA[bool], nil}},
		[4]unsafe.Pointer{unsafe.Pointer(&db[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&xb[0]), unsafe.Pointer(&yb[0])}, [4]int{1, 1, 1, 1}, 4*n)
}
