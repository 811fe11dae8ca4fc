package vec

import (
	"fmt"
	"testing"
)

// ternaryKernels are the four layouts of one ternary kernel family and
// type, with its element function (Note [Ternary kernels] in
// asm/ternary.go).
type ternaryKernels[C, T elem] struct {
	name string
	vv   func(dst []T, a []C, b, c []T)
	vs   func(dst []T, a []C, b []T, c T)
	sv   func(dst []T, a []C, b T, c []T)
	ss   func(dst []T, a []C, b, c T)
	f    func(C, T, T) T
}

// TestTernaryKernels checks every ternary kernel against its element
// function, bit for bit, at every length up to 140 and some long ones, at
// unaligned offsets, with guard bands, and in place.
func TestTernaryKernels(t *testing.T) {
	randBool := func() bool { return rng.Intn(2) == 0 }
	checkTernary(t, ternaryKernels[float32, float32]{"ClampF32", ClampF32, ClampVSF32, ClampSVF32, ClampSSF32, elClamp[float32]}, randF32, randF32)
	checkTernary(t, ternaryKernels[float64, float64]{"ClampF64", ClampF64, ClampVSF64, ClampSVF64, ClampSSF64, elClamp[float64]}, randF64, randF64)
	checkTernary(t, ternaryKernels[int8, int8]{"ClampI8", ClampI8, ClampVSI8, ClampSVI8, ClampSSI8, elClamp[int8]}, randInt[int8], randInt[int8])
	checkTernary(t, ternaryKernels[int16, int16]{"ClampI16", ClampI16, ClampVSI16, ClampSVI16, ClampSSI16, elClamp[int16]}, randInt[int16], randInt[int16])
	checkTernary(t, ternaryKernels[int32, int32]{"ClampI32", ClampI32, ClampVSI32, ClampSVI32, ClampSSI32, elClamp[int32]}, randInt[int32], randInt[int32])
	checkTernary(t, ternaryKernels[int64, int64]{"ClampI64", ClampI64, ClampVSI64, ClampSVI64, ClampSSI64, elClamp[int64]}, randInt[int64], randInt[int64])
	checkTernary(t, ternaryKernels[uint8, uint8]{"ClampU8", ClampU8, ClampVSU8, ClampSVU8, ClampSSU8, elClamp[uint8]}, randInt[uint8], randInt[uint8])
	checkTernary(t, ternaryKernels[bool, float32]{"SelectF32", SelectF32, SelectVSF32, SelectSVF32, SelectSSF32, elSelect[float32]}, randBool, randF32)
	checkTernary(t, ternaryKernels[bool, float64]{"SelectF64", SelectF64, SelectVSF64, SelectSVF64, SelectSSF64, elSelect[float64]}, randBool, randF64)
	checkTernary(t, ternaryKernels[bool, int8]{"SelectI8", SelectI8, SelectVSI8, SelectSVI8, SelectSSI8, elSelect[int8]}, randBool, randInt[int8])
	checkTernary(t, ternaryKernels[bool, int16]{"SelectI16", SelectI16, SelectVSI16, SelectSVI16, SelectSSI16, elSelect[int16]}, randBool, randInt[int16])
	checkTernary(t, ternaryKernels[bool, int32]{"SelectI32", SelectI32, SelectVSI32, SelectSVI32, SelectSSI32, elSelect[int32]}, randBool, randInt[int32])
	checkTernary(t, ternaryKernels[bool, int64]{"SelectI64", SelectI64, SelectVSI64, SelectSVI64, SelectSSI64, elSelect[int64]}, randBool, randInt[int64])
	checkTernary(t, ternaryKernels[bool, uint8]{"SelectU8", SelectU8, SelectVSU8, SelectSVU8, SelectSSU8, elSelect[uint8]}, randBool, randInt[uint8])
}

func checkTernary[C, T elem](t *testing.T, k ternaryKernels[C, T], genC func() C, genT func() T) {
	t.Helper()
	var ns []int
	for n := 0; n <= 140; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 255, 256, 257, 1000, 4099)
	fill := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = genT()
		}
		return v
	}
	for _, n := range ns {
		off := rng.Intn(8)
		a := make([]C, n+off)
		for i := range a {
			a[i] = genC()
		}
		a = a[off:]
		b, c := fill(n + off)[off:], fill(n + 3)[3:]
		bs, cs := genT(), genT()
		if sc := scalars(genT); rng.Intn(2) == 0 {
			bs, cs = sc[rng.Intn(len(sc))], sc[rng.Intn(len(sc))]
		}
		for li, layout := range []string{"", "VS", "SV", "SS"} {
			// dst inside a guard band of random values
			guard := fill(n + 16)
			buf := append([]T(nil), guard...)
			dst := buf[8 : 8+n]
			switch layout {
			case "":
				k.vv(dst, a, b, c)
			case "VS":
				k.vs(dst, a, b, cs)
			case "SV":
				k.sv(dst, a, bs, c)
			default:
				k.ss(dst, a, bs, cs)
			}
			for i := range buf {
				var w T
				if i < 8 || i >= 8+n {
					w = guard[i]
				} else {
					j := i - 8
					bj, cj := bs, cs
					if li < 2 {
						bj = b[j]
					}
					if li%2 == 0 {
						cj = c[j]
					}
					w = k.f(a[j], bj, cj)
				}
				if bitsOf(buf[i]) != bitsOf(w) {
					where := fmt.Sprintf("[%d]", i-8)
					if i < 8 || i >= 8+n {
						where = fmt.Sprintf("guard %d", i)
					}
					t.Fatalf("%s%s n=%d %s: got %v (%#x), want %v (%#x)", k.name, layout, n, where, buf[i], bitsOf(buf[i]), w, bitsOf(w))
				}
			}
		}
		// in place: dst is the second input
		want := make([]T, n)
		for i := range want {
			want[i] = k.f(a[i], b[i], cs)
		}
		in := append([]T(nil), b...)
		k.vs(in, a, in, cs)
		for i := range in {
			if bitsOf(in[i]) != bitsOf(want[i]) {
				t.Fatalf("%sVS in place n=%d [%d]: got %v, want %v", k.name, n, i, in[i], want[i])
			}
		}
	}
}
