package cpu

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/op"
	"github.com/goten-ml/goten/raw"
)

// Tests of the fast paths of Notes [Put partitions], [Gather rows] and
// [Top-k thresholds]: results bit-identical on 1, 2 and 3 workers, and to
// plain loops written here, around block edges and on strided operands.

// withProcs runs fn with GOMAXPROCS set to n, and with parts partitions
// of a put (Note [Put partitions]) when parts is positive.
func withProcs(n, parts int, fn func()) {
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	putParts = parts
	defer func() { putParts = 0 }()
	fn()
}

// patternView returns a float view of the given shape filled with the
// benchmarks' pattern ((7919·i + b) mod 1009 − 504)/64; strided (when
// set) makes it a view of every other column of a wider tensor.
func patternView(d dtype.DType, b int, strided bool, sizes ...int) *raw.View {
	v := raw.New(d, sizes)
	if strided && len(sizes) > 0 {
		wide := append([]int{}, sizes...)
		wide[len(wide)-1] = 2*wide[len(wide)-1] + 1
		w := raw.New(d, wide)
		st := append([]int{}, w.Strides...)
		st[len(st)-1] *= 2
		v = w.WithLayout(append([]int{}, sizes...), st, 1)
	}
	for i := range v.NumEl() {
		setElem(v, i, float64((7919*i+b)%1009-504)/64)
	}
	return v
}

// indexView is the benchmarks' index(n, k, b): (7919·i + b) mod k, minus
// k for every third element when neg is set (a negative index).
func indexView(n, k, b int, neg bool) *raw.View {
	v := raw.New(dtype.Int64, []int{n})
	for i := range n {
		x := (7919*i + b) % k
		if neg && i%3 == 0 {
			x -= k
		}
		v.SetInt64(elemOffset(v, i), int64(x))
	}
	return v
}

// cpuNanos returns the process's user and system CPU time, and its minor
// page faults: on a shared machine, the benchmarks' cpu-ns/op measure the
// work more steadily than the wall clock.
func cpuNanos() (int64, int64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), int64(ru.Minflt)
}

// benchCPU runs fn b.N times and reports its CPU time and minor page
// faults per run.
func benchCPU(b *testing.B, fn func()) {
	b.ResetTimer()
	t0, f0 := cpuNanos()
	for range b.N {
		fn()
	}
	t1, f1 := cpuNanos()
	b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(f1-f0)/float64(b.N), "faults/op")
}

// bits returns the row-major elements of v as float64 bits.
func bits(v *raw.View) []uint64 {
	out := make([]uint64, v.NumEl())
	for i := range out {
		if v.DType.IsFloat() {
			out[i] = math.Float64bits(getElem(v, i))
		} else {
			out[i] = uint64(v.Int64At(elemOffset(v, i)))
		}
	}
	return out
}

func sameBits(t *testing.T, what string, got, want []uint64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d is %#x, want %#x", what, i, got[i], want[i])
		}
	}
}

// TestIndexAddPartitions runs index_add_ (a put with Combine, Note [Put
// partitions]) on 1, 2 and 3 workers against a plain loop: float32 adds in
// index order, which the partitioned put must reproduce bit for bit.
func TestIndexAddPartitions(t *testing.T) {
	for _, rows := range []int{1, 2, 3, 5, 64, 1000} {
		for _, cols := range []int{1, 3, 16, 17, 64} {
			for _, strided := range []bool{false, true} {
				n := 2*32768/cols + 7 // above the partitioned put's threshold
				name := fmt.Sprintf("%dx%d/n%d/strided=%v", rows, cols, n, strided)
				idx := indexView(n, rows, 13, false)
				src := patternView(dtype.Float32, 3, strided, n, cols)
				want := make([]float32, rows*cols)
				for i := range want {
					want[i] = float32(i%7) / 8
				}
				for j := range n {
					r := int(idx.Int64At(elemOffset(idx, j)))
					for c := range cols {
						want[r*cols+c] += float32(getElem(src, j*cols+c))
					}
				}
				wb := make([]uint64, len(want))
				for i, x := range want {
					wb[i] = math.Float64bits(float64(x))
				}
				for _, procs := range []int{1, 2, 3, 7} {
					for _, prefetch := range []bool{false, true} {
						acc := patternView(dtype.Float32, 0, strided, rows, cols)
						for i := range rows * cols {
							setElem(acc, i, float64(i%7)/8)
						}
						withPutPrefetch(prefetch, func() {
							withProcs(min(procs, 2), procs, func() {
								if _, err := op.IndexAdd(acc, 0, idx, src, op.Float(1)); err != nil {
									t.Fatal(err)
								}
							})
						})
						sameBits(t, fmt.Sprintf("%s/procs=%d/prefetch=%v", name, procs, prefetch), bits(acc), wb)
					}
				}
			}
		}
	}
}

// withPutPrefetch runs fn with the prefetches of Note [Put rows] on every
// destination (on) or on none.
func withPutPrefetch(on bool, fn func()) {
	oldRows, oldMin := putPrefetchRows, putPrefetchMinBytes
	defer func() { putPrefetchRows, putPrefetchMinBytes = oldRows, oldMin }()
	putPrefetchRows, putPrefetchMinBytes = 0, 0
	if on {
		putPrefetchRows = 3
	}
	fn()
}

// TestPutRows runs puts of whole rows through one index (putRows, Note
// [Put rows]) against a plain loop: index_put_ with negative indices,
// plain (the last duplicate wins) and accumulating, float64 and int32,
// with and without prefetches, on 1 to 3 workers; the rows of the source
// are strided in the last case, which part's own loop takes.
func TestPutRows(t *testing.T) {
	const n, rows = 40009, 37
	for _, dt := range []dtype.DType{dtype.Float64, dtype.Int32} {
		for _, cols := range []int{1, 5, 64} {
			for _, strided := range []bool{false, true} {
				for _, accumulate := range []bool{false, true} {
					idx := indexView(n, rows, 13, true)
					vals := patternView(dt, 5, strided, n, cols)
					want := make([]float64, rows*cols)
					for i := range want {
						want[i] = float64(i % 11)
					}
					for j := range n {
						r := int(idx.Int64At(elemOffset(idx, j)))
						if r < 0 {
							r += rows
						}
						for c := range cols {
							x := getElem(vals, j*cols+c)
							if accumulate {
								want[r*cols+c] += x
							} else {
								want[r*cols+c] = x
							}
						}
					}
					wb := make([]uint64, len(want))
					for i, x := range want {
						if dt.IsFloat() {
							wb[i] = math.Float64bits(x)
						} else {
							wb[i] = uint64(int64(int32(x)))
						}
					}
					for _, procs := range []int{1, 2, 3} {
						for _, prefetch := range []bool{false, true} {
							name := fmt.Sprintf("%s/%dx%d/strided=%v/accumulate=%v/procs=%d/prefetch=%v", dt, rows, cols, strided, accumulate, procs, prefetch)
							dst := raw.New(dt, []int{rows, cols})
							for i := range rows * cols {
								setElem(dst, i, float64(i%11))
							}
							withPutPrefetch(prefetch, func() {
								withProcs(min(procs, 2), procs, func() {
									if _, err := op.IndexPut(dst, []op.Item{{Kind: op.ItemTensor, T: idx}}, vals, accumulate); err != nil {
										t.Fatal(err)
									}
								})
							})
							sameBits(t, name, bits(dst), wb)
						}
					}
				}
			}
		}
	}
}

// TestIndexPutPartitions checks puts of two index tensors, with negative
// indices, plain (the last duplicate wins) and accumulating, along dim 1
// too: 2 and 3 workers give what 1 gives.
func TestIndexPutPartitions(t *testing.T) {
	const n = 70001
	for _, accumulate := range []bool{false, true} {
		for _, rows := range []int{2, 7, 300} {
			i0, i1 := indexView(n, rows, 13, true), indexView(n, 5, 3, false)
			vals := patternView(dtype.Float64, 5, false, n, 3)
			var ref []uint64
			for _, procs := range []int{1, 2, 3, 7} {
				dst := raw.New(dtype.Float64, []int{rows, 3, 5})
				for i := range dst.NumEl() {
					setElem(dst, i, float64(i))
				}
				// dst[i0, :, i1]: the advanced dims go first, [n, 3]
				items := []op.Item{{Kind: op.ItemTensor, T: i0}, {Kind: op.ItemSlice, Step: 1}, {Kind: op.ItemTensor, T: i1}}
				withProcs(min(procs, 2), procs, func() {
					if _, err := op.IndexPut(dst, items, vals, accumulate); err != nil {
						t.Fatal(err)
					}
				})
				if procs == 1 {
					ref = bits(dst)
					continue
				}
				sameBits(t, fmt.Sprintf("accumulate=%v/rows=%d/procs=%d", accumulate, rows, procs), bits(dst), ref)
			}
		}
	}
	// along dim 1 of a transposed destination
	idx := indexView(1<<16+3, 9, 13, false)
	src := patternView(dtype.Float32, 7, false, 1<<16+3, 4).WithLayout([]int{4, 1<<16 + 3}, []int{1, 4}, 0)
	var ref []uint64
	for _, procs := range []int{1, 2} {
		base := raw.New(dtype.Float32, []int{9, 4})
		acc := base.WithLayout([]int{4, 9}, []int{1, 4}, 0)
		withProcs(min(procs, 2), procs, func() {
			if _, err := op.IndexAdd(acc, 1, idx, src, op.Float(0.3)); err != nil {
				t.Fatal(err)
			}
		})
		if procs == 1 {
			ref = bits(acc)
			continue
		}
		sameBits(t, "dim 1, transposed", bits(acc), ref)
	}
}

// BenchmarkIndexAddDim0 is the bench workload index_add_dim0: 2^18 rows
// of 64 float32 into 65536, on one or two workers, with and without the
// prefetches of Note [Put rows].
func BenchmarkIndexAddDim0(b *testing.B) {
	acc := raw.New(dtype.Float32, []int{65536, 64})
	idx := indexView(1<<18, 65536, 13, false)
	src := patternView(dtype.Float32, 3, false, 1<<18, 64)
	for _, c := range []struct {
		procs, parts int
		prefetch     bool
	}{{1, 1, false}, {1, 1, true}, {1, 2, true}, {2, 2, false}, {2, 2, true}} {
		procs := c.procs
		b.Run(fmt.Sprintf("procs=%d/parts=%d/prefetch=%v", c.procs, c.parts, c.prefetch), func(b *testing.B) {
			old := putPrefetchRows
			defer func() { putPrefetchRows = old }()
			if !c.prefetch {
				putPrefetchRows = 0
			}
			withProcs(procs, c.parts, func() {
				b.SetBytes(12 << 18 * 64)
				benchCPU(b, func() {
					if _, err := op.IndexAdd(acc, 0, idx, src, op.Float(1)); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
}

// TestTopKThresholds compares float32 topk (Note [Top-k thresholds]) with
// PyTorch's selection (kernel.TopKOrder) run here on the keys of whole
// rows, values and positions bit for bit: rows with NaNs, both zeros, ties
// and infinities, largest and smallest, k on both sides of the heap's
// edge (kernel.TopKHeap), contiguous and strided.
func TestTopKThresholds(t *testing.T) {
	specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 7.875, -7.875}
	for _, n := range []int{8, 31, 64, 129, 1000, 4096} {
		for _, k := range []int{1, 2, 3, 8, 16, 64} {
			if k > n {
				continue
			}
			for _, strided := range []bool{false, true} {
				for _, nans := range []int{0, 1, 3} {
					v := patternView(dtype.Float32, 13, strided, 3, n)
					for i := range 3 * n {
						switch {
						case nans > 0 && (7*i+nans)%(n/2+3) == 0:
							setElem(v, i, math.NaN())
						case (5*i)%97 < len(specials):
							setElem(v, i, specials[(5*i)%97])
						}
					}
					for _, largest := range []bool{true, false} {
						name := fmt.Sprintf("n=%d/k=%d/strided=%v/nans=%d/largest=%v", n, k, strided, nans, largest)
						vals, idx, err := op.TopK(v, k, 1, largest)
						if err != nil {
							t.Fatal(err)
						}
						var flip uint64
						if largest {
							flip = ^uint64(0)
						}
						gv, gi := bits(vals), bits(idx)
						for r := range 3 {
							row := make([]kernel.Ranked, n)
							for t := range row {
								x := float32(getElem(v, r*n+t))
								row[t] = kernel.Ranked{Key: f32Key(math.Float32bits(x)) ^ flip, Pos: t}
							}
							kernel.TopKOrder(row, k)
							wv, wi := make([]uint64, k), make([]uint64, k)
							for j, e := range row[:k] {
								wv[j], wi[j] = math.Float64bits(getElem(v, r*n+e.Pos)), uint64(e.Pos)
							}
							sameBits(t, name+"/values", gv[r*k:(r+1)*k], wv)
							sameBits(t, name+"/indices", gi[r*k:(r+1)*k], wi)
						}
					}
				}
			}
		}
	}
}

// BenchmarkTopKDim1 is the bench workload topk_dim1: the 16 largest of
// each row of a 4096×4096 float32.
func BenchmarkTopKDim1(b *testing.B) {
	m := patternView(dtype.Float32, 13, false, 4096, 4096)
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			withProcs(procs, 0, func() {
				b.SetBytes(4 * 4096 * 4096)
				benchCPU(b, func() {
					if _, _, err := op.TopK(m, 16, 1, true); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
}

// BenchmarkGatherDim1 is the bench workload gather_dim1: m.gather(1, idx)
// with m 4096×4096 float32 and idx 4096×512, a new output per call, in
// three ways: the plain row loop (mode=plain), the touches of Note [Gather
// rows] (mode=touch) and the prefetches of Note [Gather prefetch]
// (mode=prefetch, what runs).
func BenchmarkGatherDim1(b *testing.B) {
	m := patternView(dtype.Float32, 13, false, 4096, 4096)
	idx := indexView(4096*512, 4096, 13, false).WithLayout([]int{4096, 512}, []int{512, 1}, 0)
	for _, procs := range []int{1, 2} {
		for _, mode := range []string{"plain", "touch", "prefetch"} {
			b.Run(fmt.Sprintf("procs=%d/mode=%s", procs, mode), func(b *testing.B) {
				defer func(f, p bool) { gatherFast, gatherPrefetch = f, p }(gatherFast, gatherPrefetch)
				gatherFast, gatherPrefetch = mode != "plain", mode == "prefetch"
				withProcs(procs, 0, func() {
					b.SetBytes(12 * 4096 * 512)
					benchCPU(b, func() {
						if _, err := op.Gather(m, 1, idx); err != nil {
							b.Fatal(err)
						}
					})
				})
			})
		}
	}
}

// TestGatherRows compares gather along the last dim (Notes [Gather rows]
// and [Gather prefetch]) with a plain loop, on both sides of the touch's
// thresholds (rows of 1023, 1024 and 4097 elements, 1 to 64 indices per
// line, dense and sparse), contiguous and strided, for elements of 1, 2, 4
// and 8 bytes, on 1 and 2 workers, with and without the prefetching path
// (its size thresholds lowered to take every case), and checks that an
// index out of range is reported on each path, in any chunk of a row.
func TestGatherRows(t *testing.T) {
	defer func(b, s, r int) {
		gatherPrefetchMinBytes, gatherPrefetchMinSelfRow, gatherPrefetchMinRow = b, s, r
	}(gatherPrefetchMinBytes, gatherPrefetchMinSelfRow, gatherPrefetchMinRow)
	for _, pf := range []bool{false, true} {
		gatherPrefetchMinBytes = math.MaxInt
		if pf {
			gatherPrefetchMinBytes, gatherPrefetchMinSelfRow, gatherPrefetchMinRow = 0, 0, 1
		}
		for _, d := range []dtype.DType{dtype.Int8, dtype.Float16, dtype.Float32, dtype.Float64} {
			for _, size := range []int{1023, 1024, 4097} {
				for _, n := range []int{1, size / 64, size/16 + 1, 2 * size} {
					for _, strided := range []bool{false, true} {
						const rows = 37
						self := patternView(d, 13, strided, rows, size)
						idx := raw.New(dtype.Int64, []int{rows, n})
						for i := range rows * n {
							idx.SetInt64(elemOffset(idx, i), (7919*int64(i)+5)%int64(size))
						}
						selfBits := bits(self)
						want := make([]uint64, rows*n)
						for r := range rows {
							for c := range n {
								j := int(idx.Int64At(elemOffset(idx, r*n+c)))
								want[r*n+c] = selfBits[r*size+j]
							}
						}
						for _, procs := range []int{1, 2} {
							name := fmt.Sprintf("prefetch=%v/%s/size=%d/n=%d/strided=%v/procs=%d", pf, d, size, n, strided, procs)
							withProcs(procs, 0, func() {
								out, err := op.Gather(self, 1, idx)
								if err != nil {
									t.Fatal(name, err)
								}
								sameBits(t, name, bits(out), want)
							})
						}
					}
				}
			}
		}
		// a bad index in the first row, in the middle of a long row's second
		// chunk and last in the last row; the indices reach a quarter of the
		// row's lines (sparse: the prefetching path)
		for _, at := range []int{0, 7*2048 + 600, 40*2048 - 1} {
			self := patternView(dtype.Float32, 13, false, 40, 2048)
			idx := raw.New(dtype.Int64, []int{40, 2048})
			for i := range 40 * 2048 {
				idx.SetInt64(elemOffset(idx, i), int64((7919*i+5)%32*64))
			}
			for _, bad := range []int64{2048, -1} {
				idx.SetInt64(elemOffset(idx, at), bad)
				for _, procs := range []int{1, 2} {
					withProcs(procs, 0, func() {
						_, err := op.Gather(self, 1, idx)
						var e *errs.Error
						if !errors.As(err, &e) || e.Kind != errs.Index || !strings.Contains(e.Error(), fmt.Sprintf("index %d is out of bounds for dimension 1 with size 2048", bad)) {
							t.Fatalf("prefetch=%v: gather with index %d at %d of a dim of 2048 on %d workers: error %v", pf, bad, at, procs, err)
						}
					})
				}
			}
		}
	}
}
