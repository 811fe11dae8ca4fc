package cpu

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// TestStreamLoops runs every streaming loop and its plain twin of
// pointwiseLoops on the same rows (contiguous, a scalar on either side,
// strided, alpha ≠ 1, dst at every element offset, in place) and wants
// the same bits (Note [Streaming stores]).
func TestStreamLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, code := range pointwiseOps() {
		for d := dtype.DType(0); int(d) < dtype.Count; d++ {
			sfn := streamLoops[code.Code][d]
			if sfn == nil {
				continue
			}
			fn := pointwiseLoops[code.Code][d]
			if fn == nil {
				t.Fatalf("%s %s: a streaming loop but no plain one", code.Name, d)
			}
			switch d {
			case dtype.Float32:
				checkStreamLoop[float32](t, r, code, fn, sfn)
			case dtype.Float64:
				checkStreamLoop[float64](t, r, code, fn, sfn)
			case dtype.Int8:
				checkStreamLoop[int8](t, r, code, fn, sfn)
			case dtype.Int16:
				checkStreamLoop[int16](t, r, code, fn, sfn)
			case dtype.Int32:
				checkStreamLoop[int32](t, r, code, fn, sfn)
			case dtype.Int64:
				checkStreamLoop[int64](t, r, code, fn, sfn)
			case dtype.Uint8:
				checkStreamLoop[uint8](t, r, code, fn, sfn)
			case dtype.BFloat16, dtype.Float16: // as bits (Note [Storage-dtype loops])
				checkStreamLoop[uint16](t, r, code, fn, sfn)
			default:
				t.Fatalf("%s: streaming loop for %s", code.Name, d)
			}
		}
	}
}

// streamElem is the element types of the streaming loops (uint16: the
// bits of a 16-bit float).
type streamElem interface {
	float32 | float64 | int8 | int16 | int32 | int64 | uint8 | uint16
}

func checkStreamLoop[T streamElem](t *testing.T, r *rand.Rand, code *optable.Op, fn, sfn loopFn) {
	var z T
	es := int(unsafe.Sizeof(z))
	nin := code.Arity
	argss := []*kernel.Args{&kernel.DefaultArgs}
	if code == optable.Add || code == optable.Sub {
		a := kernel.DefaultArgs
		a.AlphaF, a.AlphaI = 2.5, 3
		argss = append(argss, &a)
	}
	gen := func(n int) []T {
		v := make([]T, n+8)
		for i := range v {
			if _, bits := any(z).(uint16); bits {
				v[i] = any(uint16(r.Uint32())).(T) // every bfloat16, NaNs too
				continue
			}
			v[i] = T(r.NormFloat64() * 3)
		}
		return v
	}
	// input strides: contiguous, a scalar right or left, strided
	layouts := [][3]int{{es, es, es}, {es, es, 0}, {es, 0, es}, {es, 2 * es, es}}
	for _, n := range []int{0, 1, 7, 8, 9, 33, 100, 1000, 4099} {
		for _, st := range layouts {
			for _, args := range argss {
				a, b := gen(2*n), gen(2*n)
				od := r.IntN(8)
				want, got := make([]T, n+16), make([]T, n+16)
				var p, q [4]unsafe.Pointer
				s := [4]int{es, st[1], st[2]}
				p[1], p[2] = unsafe.Pointer(&a[r.IntN(8)]), unsafe.Pointer(&b[r.IntN(8)])
				if nin == 1 {
					s[2], p[2] = 0, nil
				}
				q = p
				p[0], q[0] = unsafe.Pointer(&want[od]), unsafe.Pointer(&got[od])
				fn(p, s, n, args)
				sfn(q, s, n, args)
				sameFloats(t, code.Name, got, want, n, st, od)
				// in place: dst is input 1
				if st[1] == es {
					in := append([]T(nil), a...)
					q[0], q[1] = unsafe.Pointer(&in[od]), unsafe.Pointer(&in[od])
					p[1] = q[1]
					fn(p, s, n, args) // want from the same input
					sfn(q, s, n, args)
					sameFloats(t, code.Name+" in place", in[od:od+n], want[od:od+n], n, st, od)
				}
			}
		}
	}
}

func sameFloats[T streamElem](t *testing.T, name string, got, want []T, n int, st [3]int, od int) {
	t.Helper()
	for i := range got {
		if g, w := float64(got[i]), float64(want[i]); math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
			t.Fatalf("%s n=%d strides=%v dst offset %d: [%d] = %v, want %v", name, n, st, od, i, g, w)
		}
	}
}

// TestStreamChoice checks when Pointwise picks the streaming loop: an
// output of at least streamBytes, dense in rows of at least streamRowBytes.
func TestStreamChoice(t *testing.T) {
	big := streamBytes / 4
	f32 := dtype.Float32
	ptr := func(f loopFn) uintptr { return reflect.ValueOf(f).Pointer() }
	addS := ptr(streamLoops[optable.Add.Code][f32])
	for _, c := range []struct {
		name   string
		out    *raw.View
		ins    []*raw.View
		stream bool
	}{
		{"big", raw.New(f32, []int{big}), []*raw.View{raw.New(f32, []int{big}), raw.New(f32, []int{big})}, true},
		{"big 2-d", raw.New(f32, []int{64, big / 64}), []*raw.View{raw.New(f32, []int{64, big / 64}), raw.New(f32, []int{big / 64})}, true},
		{"small", raw.New(f32, []int{big - 1}), []*raw.View{raw.New(f32, []int{big - 1}), raw.New(f32, []int{big - 1})}, false},
		{"rows of 8 KiB", raw.New(f32, []int{big / 2048, 2048}), []*raw.View{raw.New(f32, []int{big / 2048, 1}), raw.New(f32, []int{2048})}, true},
		{"rows of 4 KiB", raw.New(f32, []int{big / 1024, 1024}), []*raw.View{raw.New(f32, []int{big / 1024, 1}), raw.New(f32, []int{1024})}, false},
		{"strided output", raw.New(f32, []int{2 * big}).WithLayout([]int{big}, []int{2}, 0),
			[]*raw.View{raw.New(f32, []int{big}), raw.New(f32, []int{big})}, false},
	} {
		p := build(t, c.out, c.ins...)
		got := ptr(streamLoop(optable.Add, f32, p, pointwiseLoops[optable.Add.Code][f32])) == addS
		if got != c.stream {
			t.Errorf("%s: streaming %v, want %v", c.name, got, c.stream)
		}
	}
	if streamLoop(optable.Atan2, f32, build(t, nil, raw.New(f32, []int{big}), raw.New(f32, []int{big})), nil) != nil {
		t.Errorf("atan2: a streaming loop, want none")
	}
}

// TestStreamPointwise runs a streamed Pointwise end to end, split across
// workers, and a buffered one of the same size (which must not stream).
func TestStreamPointwise(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB of operands")
	}
	n := streamBytes/4 + 13
	be := New()
	a := filled(dtype.Float32, []int{n}, func(i int) float64 { return float64(i%1000) / 100 })
	b := filled(dtype.Float32, []int{n}, func(i int) float64 { return float64(i % 13) })
	h := filled(dtype.Float16, []int{n}, func(i int) float64 { return float64(i % 13) })
	for _, c := range []struct {
		code *optable.Op
		ins  []*raw.View
		want func(i int) float64
	}{
		{optable.Mul, []*raw.View{a, b}, func(i int) float64 { return roundTo(dtype.Float32, getElem(a, i)*getElem(b, i)) }},
		{optable.Sub, []*raw.View{a, h}, func(i int) float64 { return roundTo(dtype.Float32, getElem(a, i)-getElem(h, i)) }},
		{optable.Sigmoid, []*raw.View{a}, func(i int) float64 { return 1 / (1 + math.Exp(-getElem(a, i))) }},
	} {
		p := build(t, nil, c.ins...)
		if err := be.Pointwise(c.code, p, nil); err != nil {
			t.Fatal(err)
		}
		checkValues(t, c.code.Name, p.Output(0), c.want, 1e-6)
	}
}
