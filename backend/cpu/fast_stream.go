package cpu

import (
	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
)

// Note [Streaming stores]
// Large elementwise ops are memory bound, and an ordinary store first reads
// the output's cache line from memory (read-for-ownership): out of cache,
// c = a + b moves 16 bytes per element instead of 12, c = s·a 12 instead
// of 8. The vec primitives' Stream variants store with non-temporal
// stores (Note [Non-temporal stores] in internal/vec), which skip that
// read but write to memory and leave nothing in cache: a result read soon
// after, which would have stayed in cache, then comes back from memory.
// So Pointwise runs the streaming loops (streamLoops, the SIMD loops of
// zz_pointwise.go over the Stream primitives) only when the
// op writes at least streamBytes, involves no buffered cast (the loop may
// then write a scratch buffer that the cast reads right back), and its
// output is dense in the plan's inner dim, in rows of at least
// streamRowBytes: every primitive call ends with SFENCE, which waits for
// the write-combining buffers to drain to memory, about 0.1 µs here, so
// that short rows spend more on it than they save (an add of [N, 1] and [1,
// w] into a 64 MiB output took 14.5 ms streamed against 2.7 plain with
// rows of 256 bytes, 1.4 against 1.35–1.55 with 4 KiB rows, 0.92–0.94
// against 1.3–1.9 with 8 KiB rows, 0.77–0.86 against 1.3–1.55 with 16 KiB;
// a 1-D plan is one call per worker chunk of 256 KiB or more). A plan
// with a crossed operand never streams: its loop runs on the rows of
// tiles, 512 bytes of its crossed operand each (Note [Tiles for crossed
// operands]; the transposed [4096, 4096] add took 16.2-17.0 ms streamed,
// 11.8 plain). The
// choice is made once per call, after the one-row fast path, whose ops are
// far below the threshold and pay nothing for it (Note [Per-op overhead]
// in package op).
//
// Measured on a 2-core AMD EPYC (L2 1 MiB per core, L3 32 MiB), float32,
// two workers, the same arrays again and again (so what fits stays
// cached), streaming time / plain time: c = 2.5·a 1.1–1.35 up to 8 MiB of
// output, 0.95–1.1 at 16–24 MiB, 0.8–0.9 at 28–32 MiB, 0.71–0.83 at 64
// MiB; c = a + b 0.8–0.95 from 2 MiB on, 0.65–0.8 from 20 MiB; c = 2.5·a
// then d = c + b (c read right after) 0.97–1.03 at 16 MiB, 0.85–0.95 from
// 20 MiB, 0.75 at 64 MiB; exp, compute bound on two cores, 0.97–1.03 at
// every size. (This machine's memory is shared and swings between a fast
// and a slow state; the ranges span both.) The threshold, 16 MiB of output
// (half the L3, where an output and its inputs stop fitting in it
// together), is where a result read next breaks even and two-input ops
// gain 10–20%; one-input ops of 16–24 MiB may lose up to 10%, the price of
// not waiting until 28 MiB, which would miss the gains of binary ops on
// tensors of 16–28 MiB (a 2048×2048 float32 is 16 MiB). Prefetching the
// inputs in the streaming loops (PREFETCHT0, 4 KiB ahead) changed nothing.
// In cmd/bench's 64 MiB ops, mul_scalar went from 2.1–2.9 to 1.35–2.15
// ms, add_f32 from 3.0–4.4 to 1.9–3.4 ms, add_bcast_row and add_bcast_col
// from 1.9–2.9 to 1.45–2.45 ms (PyTorch 1.13: 1.3–2.9, 2.2–4.6 and
// 1.3–2.9 ms on the same machine, in the same states).

// streamBytes is the least output, in bytes, that Pointwise writes with
// the streaming loops, streamRowBytes the least length of its rows (the
// plan's inner dim) in bytes (Note [Streaming stores]).
const (
	streamBytes    = 16 << 20
	streamRowBytes = 8 << 10
)

var (
	streamF32 = arith[float32]{
		vec.AddF32Stream, vec.SubF32Stream, vec.MulF32Stream, vec.DivF32Stream,
		vec.AddScalarF32Stream, vec.SubScalarF32Stream, vec.MulScalarF32Stream, vec.DivScalarF32Stream,
		vec.ScalarSubF32Stream, vec.ScalarDivF32Stream,
		vec.AxpyF32Stream,
	}
	streamF64 = arith[float64]{
		vec.AddF64Stream, vec.SubF64Stream, vec.MulF64Stream, vec.DivF64Stream,
		vec.AddScalarF64Stream, vec.SubScalarF64Stream, vec.MulScalarF64Stream, vec.DivScalarF64Stream,
		vec.ScalarSubF64Stream, vec.ScalarDivF64Stream,
		vec.AxpyF64Stream,
	}
)

// streamLoop returns the loop Pointwise runs for op over p, whose loop
// dtype is lt and whose plain loop is fn, when no buffered cast is
// involved: the streaming loop if there is one, p writes at least
// streamBytes, and its output is dense in the inner dim, whose rows are at
// least streamRowBytes long; else fn.
func streamLoop(op *optable.Op, lt dtype.DType, p *iter.Plan, fn loopFn) loopFn {
	s, es := streamLoops[op.Code][lt], lt.Size()
	if s == nil || p.NumEl()*es < streamBytes { // a plan that passes has a dim
		return fn
	}
	if p.LoopStrides()[0] != es || p.Shape()[0]*es < streamRowBytes {
		return fn
	}
	return s
}
