package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
)

// randomMatrix returns a batch of r×c matrices with a random layout
// (row-major, column-major, padded, or broadcast over the batch when
// broadcast is allowed) in a storage of dtype d filled with small random
// values, and the view that covers that storage.
func randomMatrix(rng *rand.Rand, d dtype.DType, batch, r, c int, broadcast bool) (kernel.Matrix, *raw.View) {
	rs, cs := c, 1
	switch rng.IntN(3) {
	case 1:
		rs, cs = 1, r
	case 2:
		rs, cs = c+3, 1
	}
	size := (r-1)*rs + (c-1)*cs + 1
	bs := size + rng.IntN(3)
	if broadcast && rng.IntN(3) == 0 {
		bs = 0
	}
	offset := rng.IntN(4)
	n := offset + (batch-1)*bs + size
	v := raw.New(d, []int{n})
	for i := range n {
		setElem(v, i, float64(rng.IntN(11)-5))
	}
	return kernel.Matrix{Storage: v.Storage, Offset: offset, BatchStride: bs, RowStride: rs, ColStride: cs}, v
}

// TestMatMulMatchesRef runs random batched products of every dtype with
// random layouts, alphas and betas on this backend and on backend/ref and
// compares C element by element (exactly for integers, whose products wrap
// alike; within the dtype's rounding for floats).
func TestMatMulMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dims := []int{1, 2, 3, 7, 17, 33}
	for _, d := range []dtype.DType{dtype.Uint8, dtype.Int8, dtype.Int16, dtype.Int32, dtype.Int64, dtype.Float16, dtype.BFloat16, dtype.Float32, dtype.Float64} {
		for trial := range 40 {
			batch, m, n, k := 1+rng.IntN(3), dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))]
			alpha, beta := []float64{1, 2, -1}[rng.IntN(3)], []float64{0, 1, 3}[rng.IntN(3)]
			a, _ := randomMatrix(rng, d, batch, m, k, true)
			b, _ := randomMatrix(rng, d, batch, k, n, true)
			c, cv := randomMatrix(rng, d, batch, m, n, false)
			cRef := raw.New(d, cv.Shape)
			copy(cRef.Storage.Bytes(), cv.Storage.Bytes())
			g := kernel.Gemm{DType: d, Batch: batch, M: m, N: n, K: k, A: a, B: b, C: c, Alpha: alpha, Beta: beta}
			name := fmt.Sprintf("%s/%d: batch=%d m=%d n=%d k=%d alpha=%v beta=%v", d, trial, batch, m, n, k, alpha, beta)
			if err := New().MatMul(&g); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			g.C.Storage = cRef.Storage
			if err := ref.New().MatMul(&g); err != nil {
				t.Fatalf("%s: ref: %v", name, err)
			}
			tol := 0.0
			if d.IsFloat() {
				// the sum of k products of values up to 5, rounded in the dtype
				tol = 4 * float64(k) * 25 * map[dtype.DType]float64{dtype.Float16: 0x1p-10, dtype.BFloat16: 0x1p-7, dtype.Float32: 0x1p-23, dtype.Float64: 0x1p-52}[d]
			}
			for i := range cv.Shape[0] {
				if got, want := getElem(cv, i), getElem(cRef, i); math.Abs(got-want) > tol {
					t.Fatalf("%s: storage element %d is %v, want %v", name, i, got, want)
				}
			}
		}
	}
}
