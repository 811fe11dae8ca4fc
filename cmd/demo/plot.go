package main

// Note [Plots with the standard library]
//
// The two plots are drawn with image and image/png rather than a plotting
// library: gonum.org/v1/plot builds without cgo on every GOARCH, but it
// brings nine modules (fonts, LaTeX, PDF, SVG, freetype, …) into goten's
// go.mod for two pictures, and its current release raises the go line
// above goten's. Without a font the plots carry no text: the demo prints
// what they show (the loss curve's scale, the files) on stdout.

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"

	"github.com/goten-ml/goten/tensor"
)

var (
	white = color.RGBA{255, 255, 255, 255}
	grid  = color.RGBA{225, 225, 225, 255}
	axis  = color.RGBA{90, 90, 90, 255}
	line  = color.RGBA{31, 119, 180, 255}
	// the classes' colours: points, and the lighter regions
	dots  = [2]color.RGBA{{31, 119, 180, 255}, {214, 39, 40, 255}}
	areas = [2]color.RGBA{{198, 219, 239, 255}, {252, 201, 201, 255}}
)

// writePNG writes img to the file at path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// segment draws a line two pixels wide from (x0, y0) to (x1, y1).
func segment(img *image.RGBA, x0, y0, x1, y1 float64, c color.RGBA) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := int(math.Round(x0+t*(x1-x0))), int(math.Round(y0+t*(y1-y0)))
		fill(img, image.Rect(x, y, x+2, y+2), c)
	}
}

// lossCurve plots losses against the step, the loss on a log scale with a
// grid line at each power of ten.
func lossCurve(losses []float64, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), white)
	const margin = 20
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range losses {
		if l > 0 {
			lo, hi = math.Min(lo, math.Log10(l)), math.Max(hi, math.Log10(l))
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = -1, 0
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi == lo {
		hi++
	}
	px := func(step int) float64 {
		return margin + float64(step)*float64(w-2*margin)/math.Max(1, float64(len(losses)-1))
	}
	py := func(l float64) float64 {
		v := lo
		if l > 0 {
			v = math.Log10(l)
		}
		return float64(h-margin) - (v-lo)/(hi-lo)*float64(h-2*margin)
	}
	for d := lo; d <= hi; d++ {
		y := int(py(math.Pow(10, d)))
		fill(img, image.Rect(margin, y, w-margin, y+1), grid)
	}
	fill(img, image.Rect(margin-1, margin, margin, h-margin+1), axis)
	fill(img, image.Rect(margin-1, h-margin, w-margin, h-margin+1), axis)
	for i := 1; i < len(losses); i++ {
		segment(img, px(i-1), py(losses[i-1]), px(i), py(losses[i]), line)
	}
	return img
}

// regions draws the plane [-1.25, 1.25]² at size×size pixels, each pixel
// coloured by the class m predicts there, and the points x with their
// classes y on top.
func regions(m mlp, x, y *tensor.Tensor, size int) *image.RGBA {
	const extent = 1.25
	coord := func(p int) float32 { return float32(-extent + 2*extent*(float64(p)+0.5)/float64(size)) }
	plane := make([]float32, 0, 2*size*size)
	for py := range size {
		for px := range size {
			plane = append(plane, coord(px), -coord(py))
		}
	}
	classes := m.predict(tensor.FromSlice(plane, size*size, 2))
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for i, c := range classes {
		img.SetRGBA(i%size, i/size, areas[c])
	}
	pts, labels := tensor.ToSlice[float32](x), tensor.ToSlice[int64](y)
	for i, c := range labels {
		px := int((float64(pts[2*i]) + extent) / (2 * extent) * float64(size))
		py := int((extent - float64(pts[2*i+1])) / (2 * extent) * float64(size))
		fill(img, image.Rect(px-1, py-1, px+2, py+2), dots[c])
	}
	return img
}
