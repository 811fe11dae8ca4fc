package iter

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
)

// strided returns a view of a fresh storage of storageN elements.
func strided(dt dtype.DType, shape, strides []int, offset, storageN int) *raw.View {
	return &raw.View{
		Storage: device.Alloc(storageN * dt.Size()),
		DType:   dt,
		Shape:   append([]int{}, shape...),
		Strides: append([]int{}, strides...),
		Offset:  offset,
	}
}

// contig returns a fresh contiguous view.
func contig(dt dtype.DType, shape ...int) *raw.View {
	st := make([]int, len(shape))
	contiguousStrides(shape, st)
	return strided(dt, shape, st, 0, max(numel(shape), 1))
}

// on returns a view of v's storage with another layout.
func on(v *raw.View, shape, strides []int, offset int) *raw.View {
	return &raw.View{Storage: v.Storage, DType: v.DType, Shape: shape, Strides: strides, Offset: offset}
}

// scalar returns a wrapped Go scalar of dtype dt.
func scalar(dt dtype.DType) *raw.View {
	v := contig(dt)
	v.Wrapped = true
	return v
}

func f32(shape ...int) *raw.View { return contig(dtype.Float32, shape...) }

// wantErr checks that err is an *errs.Error of kind k whose Error() is msg
// (or, with msg "", any message).
func wantErr(t *testing.T, err error, k errs.Kind, msg string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want *errs.Error of kind %s", err, err, k)
	}
	if e.Kind != k {
		t.Fatalf("got kind %s (%q), want %s", e.Kind, e.Error(), k)
	}
	if msg != "" && e.Error() != msg {
		t.Fatalf("got message\n\t%q\nwant\n\t%q", e.Error(), msg)
	}
}

func mustBuild(t *testing.T, c *Config) *Plan {
	t.Helper()
	p, err := c.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p
}

// visits walks the plan with run and returns, for every element visited,
// the byte offset of each operand from the start of its storage.
func visits(p *Plan, run func(Loop2D)) [][]int {
	nt := p.NumOperands()
	var mu sync.Mutex
	var out [][]int
	run(func(offs []int, strides []int, s0, s1 int) {
		if len(offs) != nt || len(strides) != 2*nt {
			panic("bad loop arguments")
		}
		var local [][]int
		for j := 0; j < s1; j++ {
			for i := 0; i < s0; i++ {
				t := make([]int, nt)
				for k := range t {
					t[k] = offs[k] + i*strides[k] + j*strides[nt+k]
				}
				local = append(local, t)
			}
		}
		// Loops may change offs: check the iterator resets it.
		for k := range offs {
			offs[k] = -1 << 40
		}
		mu.Lock()
		out = append(out, local...)
		mu.Unlock()
	})
	return out
}

// naiveVisits returns, for every index of shape (row-major), the byte
// offset of each view broadcast to shape, by index arithmetic.
func naiveVisits(shape []int, views []*raw.View) [][]int {
	n := numel(shape)
	out := make([][]int, 0, n)
	idx := make([]int, len(shape))
	for lin := 0; lin < n; lin++ {
		r := lin
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = r % shape[d]
			r /= shape[d]
		}
		t := make([]int, len(views))
		for k, v := range views {
			es := v.DType.Size()
			off := v.Offset
			shift := len(shape) - len(v.Shape)
			for d := range v.Shape {
				if v.Shape[d] != 1 {
					off += idx[shift+d] * v.Strides[d]
				}
			}
			t[k] = off * es
		}
		out = append(out, t)
	}
	return out
}

func sortTuples(ts [][]int) {
	slices.SortFunc(ts, slices.Compare[[]int])
}

// sameVisits reports whether two lists hold the same tuples, counting
// repeats.
func sameVisits(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	sortTuples(a)
	sortTuples(b)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// planViews returns the plan's operand views (outputs as built).
func planViews(p *Plan) []*raw.View {
	vs := make([]*raw.View, p.NumOperands())
	for k := range vs {
		vs[k] = p.Operand(k).View
	}
	return vs
}

// loadF64 and storeF64 read and write one element of any dtype at a byte
// offset of a storage.
func loadF64(s *device.Storage, dt dtype.DType, off int) float64 {
	return loadPtr(unsafe.Add(s.Pointer(), off), dt)
}

func storeF64(s *device.Storage, dt dtype.DType, off int, x float64) {
	storeAt(s.Pointer(), dt, off, x)
}

// addLoop is a tiny typed kernel: output 0 = the sum of the inputs, read
// and written in their own dtypes through float64.
func addLoop(p *Plan) Loop2D {
	nt, nOut := p.NumOperands(), p.NumOutputs()
	dts := make([]dtype.DType, nt)
	base := make([]unsafe.Pointer, nt)
	for k := range dts {
		dts[k] = p.Operand(k).DType
		base[k] = p.Operand(k).Storage.Pointer()
	}
	return func(offs []int, strides []int, s0, s1 int) {
		for j := 0; j < s1; j++ {
			for i := 0; i < s0; i++ {
				sum := 0.0
				for k := nOut; k < nt; k++ {
					sum += loadAt(base[k], dts[k], offs[k]+i*strides[k]+j*strides[nt+k])
				}
				storeAt(base[0], dts[0], offs[0]+i*strides[0]+j*strides[nt], sum)
			}
		}
	}
}

func loadAt(p unsafe.Pointer, dt dtype.DType, off int) float64 {
	return loadPtr(unsafe.Add(p, off), dt)
}

func loadPtr(p unsafe.Pointer, dt dtype.DType) float64 {
	switch dt {
	case dtype.Bool, dtype.Uint8:
		return float64(*(*uint8)(p))
	case dtype.Int8:
		return float64(*(*int8)(p))
	case dtype.Int16:
		return float64(*(*int16)(p))
	case dtype.Int32:
		return float64(*(*int32)(p))
	case dtype.Int64:
		return float64(*(*int64)(p))
	case dtype.Float16:
		return float64((*(*dtype.Half)(p)).Float32())
	case dtype.BFloat16:
		return float64((*(*dtype.BF16)(p)).Float32())
	case dtype.Float32:
		return float64(*(*float32)(p))
	case dtype.Float64:
		return *(*float64)(p)
	}
	panic("bad dtype")
}

func storeAt(p unsafe.Pointer, dt dtype.DType, off int, x float64) {
	p = unsafe.Add(p, off)
	switch dt {
	case dtype.Bool:
		b := uint8(0)
		if x != 0 {
			b = 1
		}
		*(*uint8)(p) = b
	case dtype.Uint8:
		*(*uint8)(p) = uint8(int64(x))
	case dtype.Int8:
		*(*int8)(p) = int8(x)
	case dtype.Int16:
		*(*int16)(p) = int16(x)
	case dtype.Int32:
		*(*int32)(p) = int32(x)
	case dtype.Int64:
		*(*int64)(p) = int64(x)
	case dtype.Float16:
		*(*dtype.Half)(p) = dtype.HalfFromFloat32(float32(x))
	case dtype.BFloat16:
		*(*dtype.BF16)(p) = dtype.BF16FromFloat32(float32(x))
	case dtype.Float32:
		*(*float32)(p) = float32(x)
	case dtype.Float64:
		*(*float64)(p) = x
	default:
		panic("bad dtype")
	}
}
