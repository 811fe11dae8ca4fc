package cpu

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// transposed returns a [rows, cols] view of a [cols, rows] storage (its
// transpose): contiguous along its dim 0, crossed in a plan that follows a
// contiguous output (Note [Tiles for crossed operands]).
func transposed(d dtype.DType, rows, cols int) *raw.View {
	return raw.New(d, []int{cols, rows}).WithLayout([]int{rows, cols}, []int{1, rows}, 0)
}

// TestCrossedLarge covers plans split across workers and walked in many
// tiles, some of them partial: direct loops, buffered casts, and copies.
func TestCrossedLarge(t *testing.T) {
	rows, cols := 300, 517 // above GrainSize elements
	if testing.Short() {
		rows, cols = 130, 67
	}
	val := func(i int) float64 { return float64(i%251) - 125 }
	be := New()
	for _, c := range []struct {
		name       string
		code       *optable.Op
		a, b, out  dtype.DType
		transposeB bool
	}{
		{"add/float32", optable.Add, dtype.Float32, dtype.Float32, dtype.Float32, false},
		{"add/float32/both", optable.Add, dtype.Float32, dtype.Float32, dtype.Float32, true},
		{"add/float64", optable.Add, dtype.Float64, dtype.Float64, dtype.Float64, false},
		{"add/int32+float32", optable.Add, dtype.Int32, dtype.Float32, dtype.Float32, false},
		{"mul/float16", optable.Mul, dtype.Float16, dtype.Float16, dtype.Float16, true},
		{"sub/uint8", optable.Sub, dtype.Uint8, dtype.Uint8, dtype.Uint8, false},
		{"add/int16->float32 out", optable.Add, dtype.Int16, dtype.Int16, dtype.Float32, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := transposed(c.a, rows, cols)
			for i := 0; i < a.NumEl(); i++ {
				setElem(a, i, val(i))
			}
			b := raw.New(c.b, []int{rows, cols})
			if c.transposeB {
				b = transposed(c.b, rows, cols)
			}
			for i := 0; i < b.NumEl(); i++ {
				setElem(b, i, val(3*i+1)/4)
			}
			out := raw.New(c.out, []int{rows, cols})
			p := build(t, out, a, b)
			if !p.Crossed(1) {
				t.Fatalf("input a is not crossed in plan %v", p.Shape())
			}
			want := raw.New(c.out, []int{rows, cols})
			if err := ref.New().Pointwise(c.code, build(t, want, a, b), nil); err != nil {
				t.Fatal(err)
			}
			if err := be.Pointwise(c.code, p, nil); err != nil {
				t.Fatal(err)
			}
			checkValues(t, c.name, out, func(i int) float64 { return getElem(want, i) }, 0)
		})
	}
	// copies: rows of 517 elements go through the tiles' buffers, rows of
	// 200 bytes or fewer straight into the output where the dtypes match
	// (Note [Tiles for crossed operands])
	for _, c := range []struct {
		src, dst   dtype.DType
		rows, cols int
	}{
		{dtype.Float32, dtype.Float32, rows, cols}, {dtype.Float16, dtype.Float32, rows, cols},
		{dtype.Uint8, dtype.Uint8, rows, cols}, {dtype.Float64, dtype.Int64, rows, cols}, {dtype.Bool, dtype.Bool, rows, cols},
		{dtype.Float32, dtype.Float32, 1030, 203}, {dtype.Float32, dtype.Float32, 129, 9}, {dtype.Float64, dtype.Float64, 1030, 100},
		{dtype.Int16, dtype.Int16, 300, 200}, {dtype.Uint8, dtype.Uint8, 300, 200}, {dtype.Int32, dtype.Float32, 1030, 203},
	} {
		src, dst, rows, cols := c.src, c.dst, c.rows, c.cols
		if testing.Short() {
			rows, cols = min(rows, 130), min(cols, 67)
		}
		t.Run(fmt.Sprintf("copy/%s->%s/%dx%d", src, dst, rows, cols), func(t *testing.T) {
			a := transposed(src, rows, cols)
			for i := 0; i < a.NumEl(); i++ {
				setElem(a, i, float64(i%251))
			}
			out := raw.New(dst, []int{rows, cols})
			p, err := iter.NewConfig().AddOutput(out).AddInput(a).CheckAllSameDType(false).Build()
			if err != nil {
				t.Fatal(err)
			}
			if err := be.Copy(p); err != nil {
				t.Fatal(err)
			}
			checkValues(t, "copy", out, func(i int) float64 {
				if src == dtype.Bool {
					return getElem(a, i)
				}
				return float64(i % 251)
			}, 0)
		})
	}
}

// TestTiledScatter drives tiled with a crossed output, which plans do not
// produce today (the output decides the plan's order), through every
// element size.
func TestTiledScatter(t *testing.T) {
	for _, es := range []int{1, 2, 4, 8} {
		n0, n1 := 300, 1030 // several tiles, partial ones at both edges
		src := make([]byte, n0*n1*es)
		for i := range src {
			src[i] = byte(i*7 + i/es)
		}
		dst := make([]byte, n0*n1*es+16)
		// out: element (i, j) at i·es + j·n1·es (crossed); in: row-major
		strides := []int{n1 * es, es, es, n0 * es}
		data := [4]unsafe.Pointer{unsafe.Pointer(&dst[8]), unsafe.Pointer(&src[0])}
		esz := [4]int{es, es}
		loop := func(data [4]unsafe.Pointer, st []int, m0, m1 int) {
			if st[0] != es {
				t.Fatalf("out stride %d in a tile, want %d", st[0], es)
			}
			for i := 0; i < m1; i++ {
				for j := 0; j < m0; j++ {
					d := unsafe.Add(data[0], i*st[2]+j*st[0])
					s := unsafe.Add(data[1], i*st[3]+j*st[1])
					copy(unsafe.Slice((*byte)(d), es), unsafe.Slice((*byte)(s), es))
				}
			}
		}
		tiled(loop, 1, 2, &esz, data, strides, n0, n1)
		for i := 0; i < n1; i++ {
			for j := 0; j < n0; j++ {
				for b := 0; b < es; b++ {
					if g, w := dst[8+(i+j*n1)*es+b], src[(i*n0+j)*es+b]; g != w {
						t.Fatalf("es %d: element (%d, %d) byte %d: got %d, want %d", es, i, j, b, g, w)
					}
				}
			}
		}
		for _, b := range append(dst[:8], dst[len(dst)-8:]...) {
			if b != 0 {
				t.Fatalf("es %d: wrote outside the output", es)
			}
		}
	}
}

func TestCrossedAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts need a normal build")
	}
	a := transposed(dtype.Float32, 100, 100)
	b := raw.New(dtype.Float32, []int{100, 100})
	p := build(t, raw.New(dtype.Float32, []int{100, 100}), a, b)
	be := New()
	be.Pointwise(optable.Add, p, nil) // fill the pools
	if allocs := testing.AllocsPerRun(100, func() { be.Pointwise(optable.Add, p, nil) }); allocs > 0 {
		t.Errorf("Pointwise(Add) with a crossed input allocates %v times per call", allocs)
	}
}

// BenchmarkAddCrossed is Add/<dtype>/<shape>/transposed: out = a + b with
// a transposed against a row-major out and b (the add_transposed workload
// at 4096×4096).
func BenchmarkAddCrossed(b *testing.B) {
	for _, n := range []int{256, 4096} {
		a, c, out := transposed(dtype.Float32, n, n), raw.New(dtype.Float32, []int{n, n}), raw.New(dtype.Float32, []int{n, n})
		be := New()
		b.Run(fmt.Sprintf("float32/%dx%d/transposed", n, n), func(b *testing.B) {
			p := build(b, out, a, c)
			b.SetBytes(int64(12 * n * n))
			b.ReportAllocs()
			for range b.N {
				be.Pointwise(optable.Add, p, nil)
			}
		})
	}
}

// BenchmarkCopyCrossed is Copy/<dtype>/<shape>/transposed: a transposed
// source into a row-major destination.
func BenchmarkCopyCrossed(b *testing.B) {
	for _, n := range []int{256, 4096} {
		a, out := transposed(dtype.Float32, n, n), raw.New(dtype.Float32, []int{n, n})
		be := New()
		b.Run(fmt.Sprintf("float32/%dx%d/transposed", n, n), func(b *testing.B) {
			p, _ := iter.NewConfig().AddOutput(out).AddInput(a).Build()
			b.SetBytes(int64(8 * n * n))
			b.ReportAllocs()
			for range b.N {
				be.Copy(p)
			}
		})
	}
}
