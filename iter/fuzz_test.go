package iter

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// FuzzPlan builds plans over random views — permuted, sliced with steps,
// expanded, offset, of random dtypes and shapes, 1 to 3 inputs, outputs
// given, allocated, resized or in place — and checks against a naive walk by
// index arithmetic that the plan visits every element exactly once with the
// right byte offset for every operand, and that a tiny typed add through
// the plan computes what the naive walk computes. Run it with
//
//	go test -fuzz=FuzzPlan ./iter
func FuzzPlan(f *testing.F) {
	for seed := uint64(0); seed < 16; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkRandomPlan(t, seed) })
}

// TestPlanRandom runs the fuzz check over a fixed set of seeds.
func TestPlanRandom(t *testing.T) {
	n := uint64(600)
	if testing.Short() {
		n = 100
	}
	for seed := uint64(0); seed < n; seed++ {
		checkRandomPlan(t, seed)
		if t.Failed() {
			return
		}
	}
}

// randomCase describes one random plan.
type randomCase struct {
	shape   []int // the broadcast shape
	ins     []*raw.View
	out     *raw.View // nil: allocate
	inPlace bool
	resize  bool // out is an empty view to resize
	resOff  int  // its storage offset, which resizing keeps
	noResz  bool // ResizeOutputs(false)
	linear  bool
	run     int // how to walk the plan
	limit   int // 32-bit split limit (run 3)
	cuts    []int
}

func (c *randomCase) String() string {
	s := fmt.Sprintf("shape %v", c.shape)
	for i, v := range c.ins {
		s += fmt.Sprintf("\n\tin%d %s %v strides %v offset %d", i, v.DType, v.Shape, v.Strides, v.Offset)
	}
	switch {
	case c.inPlace:
		s += "\n\tin place"
	case c.out == nil:
		s += "\n\tout: allocate"
	default:
		s += fmt.Sprintf("\n\tout %s %v strides %v offset %d resize %v", c.out.DType, c.out.Shape, c.out.Strides, c.out.Offset, c.resize)
	}
	return s + fmt.Sprintf("\n\tlinear %v noResize %v run %d limit %d cuts %v", c.linear, c.noResz, c.run, c.limit, c.cuts)
}

// randomLayout returns a view of shape over a fresh storage: dims laid out
// in a random memory order, some with a step of 2, some with padding, some
// expanded (stride 0, where expand[d]), size-1 dims with arbitrary strides,
// at a random offset. Without expanded dims the view does not overlap
// itself.
func randomLayout(r *rand.Rand, dt dtype.DType, shape []int, expand []bool) *raw.View {
	n := len(shape)
	strides := make([]int, n)
	acc := 1
	for _, d := range r.Perm(n) {
		step := 1
		if r.IntN(4) == 0 {
			step = 2
		}
		strides[d] = step * acc
		acc *= max(shape[d]*step+r.IntN(2), 1)
	}
	for d := range shape {
		switch {
		case expand != nil && expand[d]:
			strides[d] = 0
		case shape[d] == 1 && r.IntN(3) == 0:
			strides[d] = r.IntN(50)
		}
	}
	off := r.IntN(3)
	v := strided(dt, shape, strides, off, off+acc+1)
	// Random contents, small enough to be exact in every dtype.
	for i := 0; i < off+acc+1; i++ {
		x := float64(r.IntN(4))
		if dt == dtype.Bool {
			x = float64(r.IntN(2))
		}
		storeF64(v.Storage, dt, i*dt.Size(), x)
	}
	return v
}

func newRandomCase(seed uint64) *randomCase {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := &randomCase{}
	nd := r.IntN(5)
	c.shape = make([]int, nd)
	for d := range c.shape {
		c.shape[d] = 1 + r.IntN(4)
		if r.IntN(25) == 0 {
			c.shape[d] = 0
		}
	}
	anyDType := func() dtype.DType { return dtype.All[r.IntN(len(dtype.All))] }
	nIn := 1 + r.IntN(3)
	for i := 0; i < nIn; i++ {
		ndim := nd
		if nd > 0 && r.IntN(3) == 0 {
			ndim = nd - r.IntN(nd+1)
		}
		shape := make([]int, ndim)
		expand := make([]bool, ndim)
		for d := range shape {
			full := c.shape[nd-ndim+d]
			shape[d] = full
			if r.IntN(4) == 0 {
				shape[d] = 1
				if full > 1 && r.IntN(2) == 0 {
					shape[d], expand[d] = full, true // expanded, not size 1
				}
			}
		}
		v := randomLayout(r, anyDType(), shape, expand)
		if ndim == 0 && r.IntN(2) == 0 {
			v.Wrapped = true
		}
		c.ins = append(c.ins, v)
	}
	// The broadcast shape: dims where every input has size 1 stay 1.
	c.shape = []int{}
	for _, v := range c.ins {
		n := max(len(c.shape), len(v.Shape))
		b := make([]int, n)
		for i := range b {
			b[i] = 1
			if j := i - (n - len(c.shape)); j >= 0 {
				b[i] = c.shape[j]
			}
			if j := i - (n - len(v.Shape)); j >= 0 && v.Shape[j] != 1 {
				b[i] = v.Shape[j]
			}
		}
		c.shape = b
	}
	in0 := c.ins[0]
	if shape.Equal(in0.Shape, c.shape) && InternalOverlap(in0) != OverlapYes && r.IntN(4) == 0 {
		c.inPlace = true
	} else {
		switch r.IntN(3) {
		case 0:
		case 1:
			c.out = randomLayout(r, anyDType(), slices.Clone(c.shape), nil)
			c.noResz = r.IntN(2) == 0
		case 2:
			if shape.NumEl(c.shape) > 0 || len(c.shape) != 1 {
				c.resOff = r.IntN(4)
				c.out = strided(anyDType(), []int{0}, []int{1}, c.resOff, c.resOff+r.IntN(8))
				c.resize = true
			}
		}
	}
	c.linear = r.IntN(6) == 0
	c.run = r.IntN(4)
	n := shape.NumEl(c.shape)
	switch c.run {
	case 2: // SerialForEach over random pieces
		for i := 0; i < 3; i++ {
			c.cuts = append(c.cuts, r.IntN(n+1))
		}
		slices.Sort(c.cuts)
	case 3: // 32-bit split with a low limit
		c.limit = 8 + r.IntN(200)
	}
	return c
}

func (c *randomCase) config() *Config {
	cfg := NewConfig().PromoteInputsToCommonDType(true).CastCommonDTypeToOutputs(true).EnforceLinearIteration(c.linear)
	if c.inPlace {
		cfg.AddOutput(c.ins[0])
	} else {
		cfg.AddOutput(c.out).ResizeOutputs(!c.noResz)
	}
	for _, v := range c.ins {
		cfg.AddInput(v)
	}
	return cfg
}

// walk runs loop over the plan as the case says.
func (c *randomCase) walk(p *Plan, loop Loop2D) {
	switch c.run {
	case 0:
		p.ForEach(loop)
	case 1:
		p.ForEachGrain(loop, 5)
	case 2:
		b := 0
		for _, e := range append(slices.Clone(c.cuts), p.NumEl()) {
			p.SerialForEach(loop, b, e)
			b = e
		}
	case 3:
		restore := SetMaxIndexForTesting(c.limit)
		subs := p.With32BitIndexing()
		restore()
		for _, q := range subs {
			q.ForEach(loop)
		}
	}
}

func checkRandomPlan(t *testing.T, seed uint64) {
	t.Helper()
	c := newRandomCase(seed)
	p, err := c.config().Build()
	if err != nil {
		t.Fatalf("seed %d: Build: %v\n%v", seed, err, c)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d: %s\n%v\nplan %v", seed, fmt.Sprintf(format, args...), c, p.Shape())
	}
	out := p.Output(0)
	if !shape.Equal(out.Shape, c.shape) || p.NumEl() != shape.NumEl(c.shape) {
		fail("output shape %v numel %d", out.Shape, p.NumEl())
	}
	if c.inPlace && out != c.ins[0] || c.out != nil && out != c.out {
		fail("output is not the given view")
	}
	if !c.inPlace && (c.out == nil || c.resize) {
		if !shape.IsNonOverlappingAndDense(out.Shape, out.Strides) {
			fail("allocated output %v strides %v is not dense", out.Shape, out.Strides)
		}
		size := shape.NumEl(out.Shape) * out.DType.Size()
		if c.out == nil && (out.Offset != 0 || out.Storage.Len() != size) {
			fail("allocated output: offset %d, %d bytes of storage, want 0 and %d", out.Offset, out.Storage.Len(), size)
		}
		if c.resize && (out.Offset != c.resOff || out.Storage.Len() < c.resOff*out.DType.Size()+size) {
			fail("resized output: offset %d, %d bytes of storage, want offset %d (kept) and room for %d bytes after it", out.Offset, out.Storage.Len(), c.resOff, size)
		}
	}
	views := append([]*raw.View{out}, c.ins...)

	// Offsets: the plan visits what the naive walk visits.
	want := naiveVisits(c.shape, views)
	if got := visits(p, func(l Loop2D) { c.walk(p, l) }); !sameVisits(got, want) {
		fail("visits differ: got %d, want %d", len(got), len(want))
	}

	// Values: a typed add through the plan against the naive sum.
	expect := make([]float64, len(want))
	scratch := strided(out.DType, nil, nil, 0, 1)
	for i, offs := range want {
		sum := 0.0
		for k, v := range c.ins {
			sum += loadF64(v.Storage, v.DType, offs[k+1])
		}
		storeF64(scratch.Storage, out.DType, 0, sum)
		expect[i] = loadF64(scratch.Storage, out.DType, 0)
	}
	c.walk(p, addLoop(p))
	for i, offs := range want {
		if got := loadF64(out.Storage, out.DType, offs[0]); got != expect[i] {
			fail("element %d: got %v, want %v", i, got, expect[i])
		}
	}
}
