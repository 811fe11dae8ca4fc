package cpu

import (
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/kernel"
)

// Note [SIMD fast paths]
// float32/float64 add, sub, mul and div (the ops whose optable.SIMD names an
// Arith family; zz_pointwise.go wraps them per dtype) call the internal/vec primitives
// when the output is contiguous and each input is contiguous or a
// broadcast scalar (stride 0); any other layout falls back to the
// generated loop. Add and Sub with alpha ≠ 1 use Axpy (a fused
// multiply-add, as PyTorch's vectorised add does) when all are contiguous.
// The choice is made once per row.

// vecBinary runs vv (all contiguous), vs (b a scalar: dst = a op s) or sv
// (a a scalar: dst = s op b) and reports whether the layout was one of them.
func vecBinary[T float](p [4]unsafe.Pointer, s [4]int, n int, vv func(dst, a, b []T), vs, sv func(dst, a []T, s T)) bool {
	return binaryLayout(vv, vs, sv, p, s, n)
}

// vecAxpy runs dst = a + alpha·b for contiguous a, b, or a + (alpha·b)
// for a scalar b, and reports whether the layout was one of them.
func vecAxpy[T float](p [4]unsafe.Pointer, s [4]int, n int, alpha T, axpy func(dst, a, b []T, alpha T), adds func(dst, a []T, s T)) bool {
	var z T
	es := int(unsafe.Sizeof(z))
	if s[0] != es || s[1] != es {
		return false
	}
	o := unsafe.Slice((*T)(p[0]), n)
	switch s[2] {
	case es:
		axpy(o, unsafe.Slice((*T)(p[1]), n), unsafe.Slice((*T)(p[2]), n), alpha)
	case 0:
		adds(o, unsafe.Slice((*T)(p[1]), n), alpha**(*T)(p[2]))
	default:
		return false
	}
	return true
}

// arith is the set of vec primitives the float loops below call: the
// plain ones (vecF32, vecF64) or their Stream variants (streamF32,
// streamF64 in fast_stream.go, Note [Streaming stores]).
type arith[T float] struct {
	add, sub, mul, div                 func(dst, a, b []T)
	addS, subS, mulS, divS, sSub, sDiv func(dst, a []T, s T)
	axpy                               func(dst, a, b []T, alpha T)
}

var (
	vecF32 = arith[float32]{
		vec.AddF32, vec.SubF32, vec.MulF32, vec.DivF32,
		vec.AddScalarF32, vec.SubScalarF32, vec.MulScalarF32, vec.DivScalarF32, vec.ScalarSubF32, vec.ScalarDivF32,
		vec.AxpyF32,
	}
	vecF64 = arith[float64]{
		vec.AddF64, vec.SubF64, vec.MulF64, vec.DivF64,
		vec.AddScalarF64, vec.SubScalarF64, vec.MulScalarF64, vec.DivScalarF64, vec.ScalarSubF64, vec.ScalarDivF64,
		vec.AxpyF64,
	}
)

// addVec is add's loop through the primitives of v, subVec sub's, mulVec
// mul's and divVec div's (the families optable.SIMD.Arith names); loop,
// the generated loop, runs any other layout.
func addVec[T float](v *arith[T], loop loopFn, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	if alpha := T(args.AlphaF); alpha == 1 {
		if vecBinary(p, s, n, v.add, v.addS, v.addS) {
			return
		}
	} else if vecAxpy(p, s, n, alpha, v.axpy, v.addS) {
		return
	}
	loop(p, s, n, args)
}

func subVec[T float](v *arith[T], loop loopFn, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	if alpha := T(args.AlphaF); alpha == 1 {
		if vecBinary(p, s, n, v.sub, v.subS, v.sSub) {
			return
		}
	} else if vecAxpy(p, s, n, -alpha, v.axpy, v.addS) {
		return
	}
	loop(p, s, n, args)
}

func mulVec[T float](v *arith[T], loop loopFn, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	if !vecBinary(p, s, n, v.mul, v.mulS, v.mulS) {
		loop(p, s, n, args)
	}
}

func divVec[T float](v *arith[T], loop loopFn, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	if !vecBinary(p, s, n, v.div, v.divS, v.sDiv) {
		loop(p, s, n, args)
	}
}
