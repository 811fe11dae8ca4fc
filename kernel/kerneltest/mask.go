package kerneltest

import (
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The mask cases (Note [Mask plans] in package kernel): masked_select,
// masked_scatter and nonzero × every dtype × shapes from one row to, in
// normal mode, one long enough to be packed in several chunks, the data
// contiguous, transposed (masked_scatter then fills in memory order) or
// strided, the mask of the full shape or a broadcast row, the packed
// operand strided in a larger storage. nonzero's inputs hold zeros of
// both signs and NaN. A packed operand with a slot too few must be an
// errs.Shape error.

// mcase is one mask case.
type mcase struct {
	op        *optable.Op
	d         dtype.DType
	shape     []int
	layout    string
	rowMask   bool // the mask a row broadcast over dim 0
	shortSlot bool // one slot fewer than the mask selects
}

// masks adds the mask cases.
func (s *suite) masks() {
	shapes := [][]int{{7}, {3, 5}, {2, 3, 4}, {0, 3}}
	if !s.short && !raceEnabled {
		shapes = append(shapes, []int{3, 70000})
	}
	for _, op := range []*optable.Op{optable.MaskedSelect, optable.MaskedScatter, optable.Nonzero} {
		for _, d := range dtype.All {
			path := []string{"mask", op.Go, d.String()}
			for _, sh := range shapes {
				for _, l := range []string{"contiguous", "transposed", "strided"} {
					for _, row := range []bool{false, true} {
						if row && (op == optable.Nonzero || len(sh) < 2) {
							continue
						}
						c := mcase{op: op, d: d, shape: sh, layout: l, rowMask: row}
						name := shapeName(sh) + "-" + l
						if row {
							name += "-row-mask"
						}
						p := append(append([]string{}, path...), name)
						s.add(func() error { return s.runMask(c, p) }, p...)
					}
				}
			}
			c := mcase{op: op, d: d, shape: []int{3, 5}, layout: "contiguous", shortSlot: true}
			p := append(append([]string{}, path...), "slot-too-few")
			s.add(func() error { return s.runMask(c, p) }, p...)
		}
	}
}

// maskTensors builds c's tensors — the packed operand's partner (0: self,
// src or x), the mask (1, absent for nonzero), the packed operand (last)
// — and returns them, the outputs' indices and the packed layout.
func maskTensors(c mcase, path []string) ([]*tensor, []int, []int, int) {
	r := rng(path...)
	data := newTensor(c.d, inputSpec(c.shape, c.layout))
	if c.op == optable.Nonzero {
		data.fill(func() value {
			switch r.IntN(4) {
			case 0:
				if c.d.IsFloat() {
					return fv(math.Copysign(0, -1))
				}
				return iv(0)
			case 1:
				return fv(0)
			case 2:
				if c.d.IsFloat() {
					return fv(math.NaN())
				}
			}
			return anyValue(r, c.d, true)
		})
	} else {
		data.fill(func() value { return anyValue(r, c.d, true) })
	}
	ts := []*tensor{data}
	n := 0
	if c.op != optable.Nonzero {
		msh := c.shape
		if c.rowMask {
			msh = append([]int{1}, c.shape[1:]...)
		}
		mask := newTensor(dtype.Bool, inputSpec(msh, c.layout)).fill(func() value { return iv(int64(r.IntN(2))) })
		ts = append(ts, mask)
		// the selected positions: the mask's true elements, once per row of
		// the broadcast dim
		reps := 1
		if c.rowMask {
			reps = c.shape[0]
		}
		eachIndex(mask.spec, func(_ []int, off int) {
			if mask.host.Bytes()[off] != 0 {
				n += reps
			}
		})
	} else {
		eachIndex(data.spec, func(_ []int, off int) {
			if x := raw.LoadFloat64(data.host, c.d, off); x != 0 || math.IsNaN(x) {
				n++
			}
		})
	}
	slots := n
	if c.shortSlot && n > 0 {
		slots = n - 1
	}
	var packed *tensor
	var layout []int
	switch c.op {
	case optable.MaskedSelect:
		packed = newTensor(c.d, strided([]int{slots}, []int{2}, 1, 1)).garbage()
		layout = []int{2}
	case optable.MaskedScatter:
		slots += 3
		if c.shortSlot {
			slots -= 3
		}
		packed = newTensor(c.d, strided([]int{slots}, []int{2}, 1, 1)).fill(func() value { return anyValue(r, c.d, true) })
		layout = []int{2}
	case optable.Nonzero:
		nd := len(c.shape)
		packed = newTensor(dtype.Int64, inputSpec([]int{slots, nd}, "transposed")).garbage()
		layout = packed.spec.strides
	}
	ts = append(ts, packed)
	if c.op == optable.MaskedScatter {
		return ts, []int{0}, layout, slots
	}
	return ts, []int{len(ts) - 1}, layout, slots
}

// runMaskCase builds c's mask plan over views vs as the op layer does and
// runs it on be.
func runMaskCase(be kernel.Backend, c mcase, vs []*raw.View, layout []int, slots int) error {
	full := c.shape
	zero := func(v *raw.View) *raw.View { return v.WithLayout(full, make([]int, len(full)), v.Offset) }
	expand := func(v *raw.View) *raw.View {
		st := append([]int{}, v.Strides...)
		for d := range st {
			if v.Shape[d] == 1 && full[d] != 1 {
				st[d] = 0
			}
		}
		return v.WithLayout(full, st, v.Offset)
	}
	packed := vs[len(vs)-1]
	cfg := iter.NewConfig().StaticShape(full).CheckMemOverlap(false).ResizeOutputs(false)
	switch c.op {
	case optable.MaskedSelect:
		cfg.StaticDType(c.d).EnforceLinearIteration(true).AddOutput(zero(packed)).AddInput(vs[0]).AddInput(expand(vs[1]))
	case optable.MaskedScatter:
		cfg.StaticDType(c.d).AddOutput(vs[0]).AddInput(zero(packed)).AddInput(expand(vs[1]))
	case optable.Nonzero:
		cfg.StaticDType(dtype.Int64).EnforceLinearIteration(true).AddOutput(zero(packed)).AddInput(vs[0])
	}
	p, err := cfg.Build()
	if err != nil {
		return kitErr("building the plan: %v", err)
	}
	args := kernel.DefaultArgs
	args.Packed, args.PackedLen = layout, slots
	if p.NumEl() == 0 {
		return nil
	}
	return be.Mask(c.op, p, &args)
}

// runMask runs case c, whose values are drawn from path.
func (s *suite) runMask(c mcase, path []string) error {
	ts, outs, layout, slots := maskTensors(c, path)
	run := func(be kernel.Backend, vs []*raw.View) error { return runMaskCase(be, c, vs, layout, slots) }
	if c.shortSlot {
		if c.op != optable.MaskedScatter {
			outs = nil
		}
		return s.refuses(ts, outs, errs.Shape, run)
	}
	return s.same(ts, outs, exact, run, nil)
}
