package main

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/goten-ml/goten/tensor"
)

// A short run on a small data set: the loss falls, the reloaded weights
// score as the trained ones, and every file named on stdout is written
// (the plots as PNGs of the expected sizes).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	res, err := run(config{out: dir, points: 100, hidden: 32, steps: 150, lr: 0.02, noise: 0.02, seed: 3}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stdout.String())
	}
	if n := len(res.losses); n != 150 {
		t.Fatalf("%d losses recorded, want 150", n)
	}
	if first, last := res.losses[0], res.losses[len(res.losses)-1]; !(last < 0.5*first) {
		t.Errorf("loss went from %.4f to %.4f, not halved", first, last)
	}
	if res.accuracy <= 0.5 || res.reloaded != res.accuracy {
		t.Errorf("accuracy %.4f, reloaded %.4f: want above chance and equal", res.accuracy, res.reloaded)
	}
	if !strings.Contains(stderr.String(), "150/150") {
		t.Errorf("no finished progress bar on stderr: %q", stderr.String())
	}
	for _, f := range []struct {
		path string
		w, h int // 0 for no image
	}{{res.weights, 0, 0}, {res.lossPNG, 480, 300}, {res.regionsPNG, 400, 400}} {
		if !strings.HasPrefix(f.path, dir) || !strings.Contains(stdout.String(), f.path) {
			t.Errorf("file %q is not in %s or not named on stdout:\n%s", f.path, dir, stdout.String())
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Error(err)
			continue
		}
		if f.w == 0 {
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", f.path, err)
		} else if sz := img.Bounds().Size(); sz.X != f.w || sz.Y != f.h {
			t.Errorf("%s is %v, want %dx%d", f.path, sz, f.w, f.h)
		}
	}
}

// The two spirals are balanced, seeded, and within the plotted plane.
func TestSpirals(t *testing.T) {
	x, y := spirals(50, 0.02, 7)
	x2, _ := spirals(50, 0.02, 7)
	if !tensor.Equal(x, x2) {
		t.Error("the same seed gave different points")
	}
	counts := [2]int{}
	for _, c := range tensor.ToSlice[int64](y) {
		counts[c]++
	}
	if counts != [2]int{50, 50} {
		t.Errorf("classes %v, want 50 each", counts)
	}
	for _, v := range tensor.ToSlice[float32](x) {
		if v < -1.25 || v > 1.25 {
			t.Errorf("coordinate %v outside the plotted plane", v)
		}
	}
}
