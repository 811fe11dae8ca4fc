// Command bench times the workloads of ../shared/bench/WORKLOADS.md that
// goten implements so far, by the same names and with the same timing
// method as torch_ref.py (3 warm-up runs, then the median of -reps runs,
// batching runs under 1 ms), so that compare.py can set the two side by side.
//
//	go run ./cmd/bench [-json] [-reps N] [REGEX]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"time"

	"github.com/goten-ml/goten/tensor"
)

const (
	n = 1 << 24
	s = 4096
)

// pattern fills a tensor like the conformance cases: element i is
// ((a·i + b) mod m − c)/d computed in float64, converted to dt.
func pattern(dt tensor.DType, b int, shape ...int) *tensor.Tensor {
	total := 1
	for _, x := range shape {
		total *= x
	}
	vals := make([]float64, total)
	for i := range vals {
		vals[i] = float64((7919*i+b)%1009-504) / 64
	}
	return tensor.FromSlice(vals, shape...).To(dt)
}

type workload struct {
	name         string
	run          func()
	bytes, flops int
}

// families lists the functions that build each family of workloads, in the
// order WORKLOADS.md gives them; each file of this command adds its own.
var families = []func() []workload{elementwise}

// elementwise builds the elementwise and copy workloads.
func elementwise() []workload {
	f32 := tensor.Float32
	a, b := pattern(f32, 13, n), pattern(f32, 29, n)
	out := tensor.Empty(f32, n)
	smallA, smallB, smallO := pattern(f32, 13, 1<<14), pattern(f32, 29, 1<<14), tensor.Empty(f32, 1<<14)
	tinyA, tinyB, tinyO := pattern(f32, 13, 16), pattern(f32, 29, 16), tensor.Empty(f32, 16)
	m, row, col := pattern(f32, 13, s, s), pattern(f32, 13, s), pattern(f32, 13, s, 1)
	m2 := pattern(f32, 31, s, s)
	o2 := tensor.Empty(f32, s, s)
	ai := pattern(tensor.Int32, 13, n)
	cond := a.Gt(tensor.Scalar(0))
	p := pattern(f32, 13, 64, 64, 64, 64)
	two := tensor.Scalar(2.5)
	e := 4
	return []workload{
		{"copy_f32", func() { out.CopyFrom(a) }, 2 * e * n, 0},
		{"add_f32", func() { tensor.AddTo(out, a, b) }, 3 * e * n, n},
		{"add_f32_alloc", func() { a.Add(b) }, 3 * e * n, n},
		{"add_f32_16k", func() { tensor.AddTo(smallO, smallA, smallB) }, 3 * e * (1 << 14), 1 << 14},
		{"add_f32_16", func() { tensor.AddTo(tinyO, tinyA, tinyB) }, 3 * e * 16, 16},
		{"add_bcast_row", func() { tensor.AddTo(o2, m, row) }, 2 * e * s * s, s * s},
		{"add_bcast_col", func() { tensor.AddTo(o2, m, col) }, 2 * e * s * s, s * s},
		{"add_transposed", func() { tensor.AddTo(o2, m.T(), m2) }, 3 * e * s * s, s * s},
		{"add_i32_f32", func() { tensor.AddTo(out, ai, b) }, 3 * e * n, n},
		{"mul_scalar", func() { tensor.MulTo(out, a, two) }, 2 * e * n, n},
		{"where_f32", func() { tensor.Where(cond, a, b) }, 3*e*n + n, n},
		{"cast_f32_f16", func() { a.To(tensor.Float16) }, 6 * n, 0},
		{"contiguous_permute", func() { p.Permute(0, 2, 3, 1).Contiguous() }, 2 * e * p.NumEl(), 0},
		{"exp_f32", func() { tensor.ExpTo(out, a) }, 2 * e * n, n},
		{"tanh_f32", func() { tensor.TanhTo(out, a) }, 2 * e * n, n},
		{"sigmoid_f32", func() { tensor.SigmoidTo(out, a) }, 2 * e * n, n},
		{"gelu_f32", func() { a.Gelu() }, 2 * e * n, n},
	}
}

type result struct {
	Name     string  `json:"name"`
	MedianMS float64 `json:"median_ms"`
	MinMS    float64 `json:"min_ms"`
	MaxMS    float64 `json:"max_ms"`
	Bytes    int     `json:"bytes"`
	Flops    int     `json:"flops"`
}

// measure times w as torch_ref.py does.
func measure(w workload, reps int) result {
	for i := 0; i < 3; i++ {
		w.run()
	}
	t0 := time.Now()
	w.run()
	one := time.Since(t0).Seconds()
	inner := 1
	if one < 1e-3 {
		inner = max(1, int(1e-3/max(one, 1e-7)))
	}
	ts := make([]float64, reps)
	for r := range ts {
		t0 := time.Now()
		for i := 0; i < inner; i++ {
			w.run()
		}
		ts[r] = time.Since(t0).Seconds() / float64(inner)
	}
	sort.Float64s(ts)
	return result{w.name, ts[len(ts)/2] * 1e3, ts[0] * 1e3, ts[len(ts)-1] * 1e3, w.bytes, w.flops}
}

// report prints one workload's timing.
func report(r result, asJSON bool) {
	if asJSON {
		line, _ := json.Marshal(r)
		fmt.Println(string(line))
		return
	}
	secs := r.MedianMS / 1e3
	fmt.Printf("%-22s %10.3f %10.3f %10.3f %8.2f %9.2f\n", r.Name, r.MedianMS, r.MinMS, r.MaxMS,
		float64(r.Bytes)/secs/1e9, float64(r.Flops)/secs/1e9)
}

func main() {
	asJSON := flag.Bool("json", false, "print one JSON object per workload, as torch_ref.py does")
	reps := flag.Int("reps", 20, "timed runs per workload")
	flag.Parse()
	var only *regexp.Regexp
	if flag.NArg() > 0 {
		only = regexp.MustCompile(flag.Arg(0))
	}
	if !*asJSON {
		fmt.Printf("%-22s %10s %10s %10s %8s %9s\n", "workload", "median ms", "min ms", "max ms", "GB/s", "GFLOP/s")
	}
	// One family's inputs at a time, freed before the next is built (as
	// torch_ref.py does): the inputs of every family held at once make a
	// heap of gigabytes whose GC pacing lets allocating workloads run on
	// freshly faulted pages, a state that comes and goes between runs.
	for _, f := range families {
		ws := f()
		// the collection that building the inputs started ends before
		// the timing does, rather than marking on a core during it
		runtime.GC()
		for _, w := range ws {
			if only != nil && !only.MatchString(w.name) {
				continue
			}
			report(measure(w, *reps), *asJSON)
		}
		runtime.GC()
	}
	os.Exit(0)
}
