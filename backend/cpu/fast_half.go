package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/optable/elem"
)

// Note [Storage-dtype loops]
// A float16 or bfloat16 op otherwise runs its float32 loop between
// buffered casts (Note [Buffered casts]): each chunk converted into a
// float32 scratch buffer per input, the float32 loop, the result converted
// back. An op whose optable.SIMD names the storage dtype in Half (add,
// sub, mul and div of bfloat16 and float16) also has a loop for that
// dtype itself in pointwiseLoops, generated into zz_pointwise.go: vec's
// kernels on the 16-bit elements, which convert in registers and pass over
// memory once (Note [Bfloat16 kernels] in internal/vec; float16's convert
// with F16C's VCVTPH2PS and VCVTPS2PH, asm/half.go), the same bits as
// the buffered path, whose float32 operation and roundings they repeat.
// Pointwise runs that loop when every operand, the output included, has
// the dtype (storageLoop); one of another dtype needs the buffered casts
// anyway. A layout the kernels do not take (a strided operand) or an
// argument they do not (add's alpha ≠ 1) runs viaFloat32: the buffered
// path's own row, so the bits are those of the buffered path by
// construction. The choice is made row by row, not once per plan: a
// crossed operand is gathered into a contiguous tile first (Note [Tiles
// for crossed operands]), and its rows then take the kernels. Choosing
// the buffered path per plan instead made a bfloat16 add with a
// transposed operand ([2^17, 8] + [8, 2^17]ᵀ) take 2.4 ms against 1.3,
// and gained nothing elsewhere (an inner stride of 2, alpha = 2: the same
// 0.36 and 0.13 ms), since the buffered path's rows build the same
// conversions. Where SIMD.Stream names the dtype as well, the loop has
// a streaming twin in streamLoops (Note [Streaming stores]): add_bf16's
// 16M elements (a 32 MiB output) took 1.5–1.7 ms with it against
// 2.1–2.3 ms without, side by side on a loaded machine. Without the
// assembly (vec.SIMD false for bfloat16, vec.SIMDF16 for float16: AVX2
// without F16C) the table has no such loop and the buffered path, whose
// float32 loops are generated Go, stays: the kernels' twins convert
// through function calls.

// storageLoop returns the loop of op code c for p's common dtype d where
// it is a storage dtype with a loop of its own and every operand has it
// (Note [Storage-dtype loops], and Note [Bfloat16 step tables]), else nil.
func storageLoop(c optable.Code, d dtype.DType, p *iter.Plan) loopFn {
	if d.Size() != 2 || !d.IsFloat() {
		return nil
	}
	fn := pointwiseLoops[c][d]
	if fn == nil && d == dtype.BFloat16 {
		fn = bf16TableLoops[c]
	}
	if fn == nil {
		return nil
	}
	for k := 0; k < p.NumOperands(); k++ {
		if p.Operand(k).DType != d {
			return nil
		}
	}
	return fn
}

// viaFloat32 runs f32, a float32 loop over nops operands, on n elements of
// operands of the 16-bit float dtype d, as the buffered path does:
// each input chunk converted into a float32 buffer (a broadcast one
// once), the loop, the output chunk rounded back.
func viaFloat32(d dtype.DType, f32 loopFn, nops int, p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	c := call{fn: f32, nops: nops, args: args}
	for k := 0; k < nops; k++ {
		if k == 0 {
			c.conv[0], _ = chain(dtype.Float32, d, d)
		} else {
			c.conv[k], _ = chain(d, d, dtype.Float32)
		}
		c.size[k] = 4
	}
	bufs := bufPool.Get().(*chunkBufs)
	c.row(bufs, p, s[:], n)
	bufPool.Put(bufs)
}

// Note [Bfloat16 step tables]
// PyTorch computes bfloat16 gelu (both forms), silu and logit step by
// step in bfloat16 (Note [Bfloat16 steps] in optable/elem), so their
// results are functions of the element's 16 bits alone (logit's after its
// clamp to bfloat16 bounds), which elem tabulates. Their
// bfloat16 loops look each element up over the 16-bit storage itself, as
// the storage-dtype loops do, instead of running the steps between
// buffered casts. For 1M elements of gelu: 41 ms with the steps between
// buffered casts, 5.5 with a lookup there, 2.5 with this loop (4.6 for
// the float32 kernel between buffered casts, before the steps; PyTorch
// 7.8 on one thread). An output of another dtype still takes the buffered
// path, whose float32 loop looks the element up too.

// bf16TableLoops are the bfloat16 loops of Note [Bfloat16 step tables],
// by op code.
var bf16TableLoops = map[optable.Code]loopFn{
	optable.Gelu.Code:     bf16TableLoop(elem.GeluBF16Table),
	optable.GeluTanh.Code: bf16TableLoop(elem.GeluTanhBF16Table),
	optable.Silu.Code:     bf16TableLoop(elem.SiluBF16Table),
	optable.Logit.Code:    bf16LogitLoop,
}

// bf16LogitLoop is logit's bfloat16 loop: each element clamped to args'
// bounds (bfloat16 values, Note [Vector bodies]'s in a vector body) when
// it has an eps, then looked up.
func bf16LogitLoop(p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {
	t := (*[1 << 16]uint16)(elem.LogitBF16Table())
	lo, hi := float32(args.LogitLo()), float32(args.EpsHi)
	for i := 0; i < n; i++ {
		x := *(*uint16)(unsafe.Add(p[1], i*s[1]))
		if args.HasEps {
			v := dtype.BF16(x).Float32()
			if v < lo {
				v = lo
			} else if v > hi {
				v = hi
			}
			x = uint16(math.Float32bits(v) >> 16)
		}
		*(*uint16)(unsafe.Add(p[0], i*s[0])) = t[x]
	}
}

// bf16TableLoop returns a unary bfloat16 loop that writes table()[x] for
// each element x (its bits).
func bf16TableLoop(table func() []uint16) loopFn {
	return func(p [4]unsafe.Pointer, s [4]int, n int, _ *kernel.Args) {
		t := (*[1 << 16]uint16)(table())
		if s[0] == 2 && s[1] == 2 {
			dst, src := unsafe.Slice((*uint16)(p[0]), n), unsafe.Slice((*uint16)(p[1]), n)
			for i, x := range src {
				dst[i] = t[x]
			}
			return
		}
		for i := 0; i < n; i++ {
			x := *(*uint16)(unsafe.Add(p[1], i*s[1]))
			*(*uint16)(unsafe.Add(p[0], i*s[0])) = t[x]
		}
	}
}
