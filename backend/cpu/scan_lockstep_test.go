package cpu

import (
	"bytes"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/dtype"
)

// TestScanRows8 checks every scan's scanRows8 (Note [Rows in lockstep])
// against its row function, byte for byte: eight rows of lengths around
// the skews' solo parts, rows a multiple of 4 KiB apart and not, at the
// skew lockstepSkew picks and at forced ones.
func TestScanRows8(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	seen := 0
	for code := range scanTable {
		for d, f := range scanTable[code] {
			if f.rows8 == nil {
				continue
			}
			seen++
			dt := dtype.DType(d)
			es := dt.Size()
			for _, n := range []int{1, 15, 64, 113, 500, 1024, 1100} {
				for _, pad := range []int{0, 3, 4096 / es} {
					rs := (n + pad) * es
					x := make([]byte, 8*rs+64)
					for i := range x {
						x[i] = byte(rng.Intn(256))
					}
					if dt.IsFloat() {
						fillSmallFloats(x, dt, rng)
					}
					want := make([]byte, 8*rs+64)
					carry := make([]uint64, (f.carry+7)/8)
					for j := 0; j < 8; j++ {
						f.init(ptr(carry), 1)
						f.row(unsafe.Pointer(&want[j*rs]), nil, unsafe.Pointer(&x[j*rs]), n, 0, ptr(carry))
					}
					skews := []int{0, 64 / es, 3 * 64 / es}
					if s, ok := lockstepSkew(unsafe.Pointer(&want[0]), unsafe.Pointer(&x[0]), rs, rs, es, n); ok {
						skews = append(skews, s)
					}
					for _, skew := range skews {
						if 7*skew > n {
							continue
						}
						got := make([]byte, 8*rs+64)
						f.rows8(unsafe.Pointer(&got[0]), unsafe.Pointer(&x[0]), rs, rs, n, skew)
						// the rows, and the gaps after them untouched
						if !bytes.Equal(got, want) {
							t.Fatalf("scan %d, %v, n=%d pad=%d skew=%d: differs from the row function's", code, dt, n, pad, skew)
						}
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no scan has rows8")
	}
}

// fillSmallFloats overwrites x with floats of dtype dt in [-2, 2), so that
// sums and products stay finite and mean something.
func fillSmallFloats(x []byte, dt dtype.DType, rng *rand.Rand) {
	switch dt {
	case dtype.Float32:
		s := unsafe.Slice((*float32)(unsafe.Pointer(&x[0])), len(x)/4)
		for i := range s {
			s[i] = float32(rng.Float64()*4 - 2)
		}
	case dtype.Float64:
		s := unsafe.Slice((*float64)(unsafe.Pointer(&x[0])), len(x)/8)
		for i := range s {
			s[i] = rng.Float64()*4 - 2
		}
	}
}
