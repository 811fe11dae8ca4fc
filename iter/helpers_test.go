package iter

import (
	"errors"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
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
func contig(dt dtype.DType, sizes ...int) *raw.View {
	st := make([]int, len(sizes))
	shape.ContiguousInto(sizes, st)
	return strided(dt, sizes, st, 0, max(shape.NumEl(sizes), 1))
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
			offs[k] = math.MinInt
		}
		mu.Lock()
		out = append(out, local...)
		mu.Unlock()
	})
	return out
}

// naiveVisits returns, for every index of shape (row-major), the byte
// offset of each view broadcast to shape, by index arithmetic.
func naiveVisits(sizes []int, views []*raw.View) [][]int {
	n := shape.NumEl(sizes)
	out := make([][]int, 0, n)
	idx := make([]int, len(sizes))
	for lin := 0; lin < n; lin++ {
		r := lin
		for d := len(sizes) - 1; d >= 0; d-- {
			idx[d] = r % sizes[d]
			r /= sizes[d]
		}
		t := make([]int, len(views))
		for k, v := range views {
			es := v.DType.Size()
			off := v.Offset
			shift := len(sizes) - len(v.Shape)
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

// loadF64 and storeF64 read and write the element at byte offset off of a
// storage, converted through float64 (raw's element access).
func loadF64(s *device.Storage, dt dtype.DType, off int) float64 {
	return raw.LoadFloat64(s, dt, off/dt.Size())
}

func storeF64(s *device.Storage, dt dtype.DType, off int, x float64) {
	raw.StoreFloat64(s, dt, off/dt.Size(), x)
}

// addLoop is a tiny typed kernel: output 0 = the sum of the inputs, read
// and written in their own dtypes through float64.
func addLoop(p *Plan) Loop2D {
	nt, nOut := p.NumOperands(), p.NumOutputs()
	return func(offs []int, strides []int, s0, s1 int) {
		for j := 0; j < s1; j++ {
			for i := 0; i < s0; i++ {
				sum := 0.0
				for k := nOut; k < nt; k++ {
					o := p.Operand(k)
					sum += loadF64(o.Storage, o.DType, offs[k]+i*strides[k]+j*strides[nt+k])
				}
				o := p.Operand(0)
				storeF64(o.Storage, o.DType, offs[0]+i*strides[0]+j*strides[nt], sum)
			}
		}
	}
}
