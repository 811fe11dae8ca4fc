// Command demo trains a small model with goten: an MLP (2→64→64→2, tanh)
// learns to tell two interleaved spirals apart, with cross-entropy and
// Adam, full-batch. It shows a progress bar on stderr while it trains,
// prints the final accuracy, saves the weights as safetensors and reads
// them back (the reloaded model must score the same), and writes two PNG
// plots, the loss curve and the decision regions with the points, naming
// every file it writes on stdout.
//
//	go run ./cmd/demo                 # files in the system's temporary directory
//	go run ./cmd/demo -out plots      # or in a directory of your choice
//	go run ./cmd/demo -semantics      # print examples of goten's semantics instead
//
// The data and the initial weights are seeded: a run gives the same
// numbers on any machine with the same kernels.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/goten-ml/goten/optim"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio/safetensors"
)

// config is one training run's settings (the flags).
type config struct {
	out    string // directory the files go to
	points int    // points per class
	hidden int    // width of the two hidden layers
	steps  int    // full-batch Adam steps
	lr     float64
	noise  float64 // standard deviation of the points' jitter
	seed   uint64
}

// result is what a run measured and wrote.
type result struct {
	losses             []float64 // the loss before each step
	accuracy, reloaded float64
	weights, lossPNG   string
	regionsPNG         string
}

func main() {
	c := config{}
	flag.StringVar(&c.out, "out", os.TempDir(), "directory for the weights and plots")
	flag.IntVar(&c.points, "points", 1000, "points per spiral")
	flag.IntVar(&c.hidden, "hidden", 64, "width of the hidden layers")
	flag.IntVar(&c.steps, "steps", 600, "training steps (full batch)")
	flag.Float64Var(&c.lr, "lr", 0.01, "Adam's learning rate")
	flag.Float64Var(&c.noise, "noise", 0.02, "standard deviation of the points' noise")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the data and the initial weights")
	sem := flag.Bool("semantics", false, "print examples of goten's semantics (broadcasting, promotion, views, errors) and exit")
	flag.Parse()
	if *sem {
		semantics()
		return
	}
	if _, err := run(c, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// spirals returns n points of each of two interleaved spirals, 1.5 turns
// each, radius growing from 0 to 1, jittered by Gaussian noise of
// standard deviation noise: the points [2n, 2] (float32) and their classes
// [2n] (int64), the classes alternating so any prefix is balanced.
func spirals(n int, noise float64, seed uint64) (x, y *tensor.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	xs := make([]float32, 0, 4*n)
	ys := make([]int64, 0, 2*n)
	for i := range n {
		r := (float64(i) + 0.5) / float64(n)
		for c := range 2 {
			theta := 3*math.Pi*r + math.Pi*float64(c)
			xs = append(xs,
				float32(r*math.Cos(theta)+noise*rng.NormFloat64()),
				float32(r*math.Sin(theta)+noise*rng.NormFloat64()))
			ys = append(ys, int64(c))
		}
	}
	return tensor.FromSlice(xs, 2*n, 2), tensor.FromSlice(ys, 2*n)
}

// mlp is the model: its weights by name, as they are saved.
type mlp map[string]*tensor.Tensor

var layers = []string{"fc1", "fc2", "fc3"}

// newMLP returns an MLP in→hidden→hidden→out with PyTorch's nn.Linear
// initialisation (uniform in ±1/√fan_in), seeded.
func newMLP(in, hidden, out int, seed uint64) mlp {
	g := tensor.NewGenerator(seed)
	m := mlp{}
	sizes := []int{in, hidden, hidden, out}
	for i, name := range layers {
		r := 1 / math.Sqrt(float64(sizes[i]))
		m[name+".weight"] = tensor.Zeros(tensor.Float32, sizes[i+1], sizes[i]).UniformInPlace(g, -r, r).SetRequiresGrad(true)
		m[name+".bias"] = tensor.Zeros(tensor.Float32, sizes[i+1]).UniformInPlace(g, -r, r).SetRequiresGrad(true)
	}
	return m
}

func (m mlp) params() []*tensor.Tensor {
	var ps []*tensor.Tensor
	for _, name := range layers {
		ps = append(ps, m[name+".weight"], m[name+".bias"])
	}
	return ps
}

// forward returns the scores [N, 2] of the points x [N, 2].
func (m mlp) forward(x *tensor.Tensor) *tensor.Tensor {
	h := x
	for i, name := range layers {
		h = tensor.Linear(h, m[name+".weight"], m[name+".bias"])
		if i < len(layers)-1 {
			h = h.Tanh()
		}
	}
	return h
}

// predict returns the class of each point of x, without recording a graph.
func (m mlp) predict(x *tensor.Tensor) []int64 {
	var p []int64
	tensor.NoGrad(func() { p = tensor.ToSlice[int64](m.forward(x).ArgMax(tensor.Over(1))) })
	return p
}

// accuracy returns the fraction of the points x that m classes as y.
func (m mlp) accuracy(x, y *tensor.Tensor) float64 {
	p, want := m.predict(x), tensor.ToSlice[int64](y)
	right := 0
	for i := range p {
		if p[i] == want[i] {
			right++
		}
	}
	return float64(right) / float64(len(p))
}

// run trains a model as c says, printing its results and the files it
// writes to stdout and its progress bar to stderr.
func run(c config, stdout, stderr io.Writer) (*result, error) {
	start := time.Now()
	x, y := spirals(c.points, c.noise, c.seed)
	m := newMLP(2, c.hidden, 2, c.seed)
	fmt.Fprintf(stdout, "data: two spirals, %d points each (noise %g); model: MLP 2→%d→%d→2 (tanh), cross-entropy, Adam (lr %g), %d full-batch steps\n",
		c.points, c.noise, c.hidden, c.hidden, c.lr, c.steps)

	opt := optim.NewAdam(m.params(), optim.Adam{LR: c.lr})
	bar := progressbar.NewOptions(c.steps,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("training"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
	)
	res := &result{losses: make([]float64, 0, c.steps)}
	for step := range c.steps {
		opt.ZeroGrad()
		loss := tensor.CrossEntropy(m.forward(x), y)
		loss.Backward()
		opt.Step()
		res.losses = append(res.losses, loss.Item())
		if step%10 == 0 || step == c.steps-1 {
			bar.Describe(fmt.Sprintf("training: loss %.4f", loss.Item()))
		}
		bar.Add(1)
	}
	bar.Finish()
	res.accuracy = m.accuracy(x, y)
	fmt.Fprintf(stdout, "trained in %.1fs: loss %.4f → %.4f, accuracy %.2f%%\n",
		time.Since(start).Seconds(), res.losses[0], res.losses[len(res.losses)-1], 100*res.accuracy)

	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	res.weights = filepath.Join(c.out, "goten-spirals.safetensors")
	if err := safetensors.Save(res.weights, m, map[string]string{"model": fmt.Sprintf("mlp 2-%d-%d-2 tanh", c.hidden, c.hidden)}); err != nil {
		return nil, err
	}
	f, err := safetensors.Load(res.weights)
	if err != nil {
		return nil, err
	}
	for name, w := range m {
		if r := f.Tensors[name]; r == nil || !tensor.Equal(w.Detach(), r) {
			return res, fmt.Errorf("%s: weight %s did not come back as it was saved", res.weights, name)
		}
	}
	res.reloaded = mlp(f.Tensors).accuracy(x, y)
	fmt.Fprintf(stdout, "weights: %s (%d tensors, read back equal); the reloaded model scores %.2f%%\n", res.weights, len(f.Names), 100*res.reloaded)
	if res.reloaded != res.accuracy {
		return res, fmt.Errorf("the reloaded model scores %.4f, the trained one %.4f", res.reloaded, res.accuracy)
	}

	res.lossPNG = filepath.Join(c.out, "goten-spirals-loss.png")
	if err := writePNG(res.lossPNG, lossCurve(res.losses, 480, 300)); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "loss curve (log scale, one decade per grid line): %s\n", res.lossPNG)
	res.regionsPNG = filepath.Join(c.out, "goten-spirals.png")
	if err := writePNG(res.regionsPNG, regions(m, x, y, 400)); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "decision regions and points: %s\n", res.regionsPNG)
	return res, nil
}
