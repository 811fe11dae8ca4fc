package cpu

import (
	"math"
	"unsafe"

	"github.com/goten-ml/goten/backend/cpu/internal/vec"
	"github.com/goten-ml/goten/optable/elem"
)

// Note [Vectorised logcumsumexp]
//
// logcumsumexp's recurrence s_t = log(e^s_{t-1} + e^x_t) costs an exp and
// a log1p per element, one after the other (the generated scan, like
// PyTorch's, ran at 40-80 ns an element). logCumSumExpRow takes blocks of
// lcseBlock elements in float64 and moves the transcendental functions out
// of the chain:
//
//	M_t = max(s_{-1}, x_0 … x_t)              prefix max, a compare a step
//	e_t = e^(x_t - M_t)                        vector exp
//	c_t = c_{t-1}·e^(M_{t-1} - M_t) + e_t      scalar chain, an exp only where M grows
//	s_t = M_t + log c_t                        vector log
//
// with c_{-1} = 1 and M_{-1} = s_{-1}, the carry (or c_{-1} = 0 and M_{-1} =
// x_0 when the carry is -Inf, so that s_0 = x_0 exactly). Shifting by the
// running max keeps c_t in [1, t+2): no term overflows, and log c_t is
// accurate. A block with a NaN or an infinity, or a carry that is NaN or
// +Inf, takes the generated scalar recurrence (elem.LogAddExp) instead, so
// specials come out exactly as the reference backend's. The results
// differ from the scalar recurrence by rounding only (a few float64 ulps
// over a row, far inside float32's precision). Over an outer dim the
// recurrence itself vectorises across neighbouring rows (logCumSumExpCols).

// lcseBlock is the block of Note [Vectorised logcumsumexp].
const lcseBlock = 256

// logCumSumExpRow is logcumsumexp's scan of n contiguous elements x into y,
// continuing from the float64 carry c (Note [Vectorised logcumsumexp]).
func logCumSumExpRow[T float32 | float64](y, _, x unsafe.Pointer, n, _ int, c unsafe.Pointer) {
	s := *(*float64)(c)
	xs, ys := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
	var bx, bm, be [lcseBlock]float64
	for o := 0; o < n; o += lcseBlock {
		m := min(lcseBlock, n-o)
		xb, yb := xs[o:o+m], ys[o:o+m]
		xf := bx[:m]
		switch xb := any(xb).(type) {
		case []float32:
			vec.F32ToF64(xf, xb)
		case []float64:
			copy(xf, xb)
		}
		if !lcseBlockOK(xf, bm[:m], s) {
			s = lcseScalar(yb, xf, s)
			continue
		}
		s = lcseVec(xf, bm[:m], be[:m], s)
		switch yb := any(yb).(type) {
		case []float32:
			vec.F64ToF32(yb, be[:m])
		case []float64:
			copy(yb, be[:m])
		}
	}
	*(*float64)(c) = s
}

// lcseBlockOK reports whether the vector path applies to block x after the
// carry s: every element finite and s finite or -Inf. It writes the
// prefix max M_t to pm.
func lcseBlockOK(x, pm []float64, s float64) bool {
	if s != s || s > math.MaxFloat64 {
		return false
	}
	mx := s
	pm = pm[:len(x)]
	for t, v := range x {
		if v-v != 0 { // NaN or infinite
			return false
		}
		if v > mx {
			mx = v
		}
		pm[t] = mx
	}
	return true
}

// lcseVec runs the vector path over block x, with the prefix max in pm,
// into out (float64), and returns the new carry.
func lcseVec(x, pm, out []float64, s float64) float64 {
	c, cur := 1.0, s
	if math.IsInf(s, -1) {
		c, cur = 0, x[0]
	}
	vec.SubF64(out, x, pm)
	vec.ExpF64(out, out)
	for t, e := range out {
		if mt := pm[t]; mt != cur {
			c *= math.Exp(cur - mt)
			cur = mt
		}
		c += e
		out[t] = c
	}
	vec.LogF64(out, out)
	vec.AddF64(out, out, pm)
	return out[len(out)-1]
}

// lcseScalar is the generated scalar recurrence over block x (float64)
// into y, from carry s; it returns the new carry.
func lcseScalar[T float32 | float64](y []T, x []float64, s float64) float64 {
	y = y[:len(x)]
	for k, v := range x {
		s = elem.LogAddExp(s, v)
		y[k] = T(s)
	}
	return s
}

// logCumSumExpCols is logcumsumexp's outer-dim scan (Note [Scans and row
// ops]): w neighbouring rows advance together, step t of every row at
// once, each step the recurrence s = hi + log1p(e^(lo-hi)) (lo, hi the
// min and max of s and x) on vectorised float64 ops. A NaN where the
// recurrence gives one (equal infinities, or a NaN) is recomputed by
// elem.LogAddExp, so specials are the scalar recurrence's.
func logCumSumExpCols[T float32 | float64](y, _, x unsafe.Pointer, ys, _, xs, n, w int, carry unsafe.Pointer) {
	acc := unsafe.Slice((*float64)(carry), w)
	buf := make([]float64, 4*w)
	xf, lo, hi, d := buf[:w], buf[w:2*w], buf[2*w:3*w], buf[3*w:]
	for t := 0; t < n; t++ {
		xr := unsafe.Slice((*T)(unsafe.Add(x, t*xs)), w)
		yr := unsafe.Slice((*T)(unsafe.Add(y, t*ys)), w)
		switch xr := any(xr).(type) {
		case []float32:
			vec.F32ToF64(xf, xr)
		case []float64:
			copy(xf, xr)
		}
		vec.MinimumF64(lo, acc, xf)
		vec.MaximumF64(hi, acc, xf)
		vec.SubF64(d, lo, hi)
		vec.ExpF64(d, d)
		vec.Log1pF64(d, d)
		vec.AddF64(d, hi, d)
		for j, v := range d {
			if v != v {
				d[j] = elem.LogAddExp(acc[j], xf[j])
			}
		}
		copy(acc, d)
		switch yr := any(yr).(type) {
		case []float32:
			vec.F64ToF32(yr, acc)
		case []float64:
			copy(yr, acc)
		}
	}
}
