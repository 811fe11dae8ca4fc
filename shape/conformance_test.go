package shape

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/internal/cases"
)

// The views suite of the conformance cases, run on layouts alone: a view's
// values follow from its layout and its input's, so checking sizes,
// strides, offsets, storage sharing and error kinds checks the view ops.
const viewsCases = "../testdata/conformance/cases/views.jsonl"

type confResult struct {
	Shape   []int  `json:"shape"`
	Strides []int  `json:"strides"`
	Offset  *int   `json:"offset"`
	Shares  string `json:"shares"`
}

type confInput struct {
	Shape       []int             `json:"shape"`
	Strides     []int             `json:"strides"`
	Offset      int               `json:"offset"`
	Values      []json.RawMessage `json:"values"`
	Storage     []json.RawMessage `json:"storage"`
	StorageSize *int              `json:"storage_size"`
	Nested      json.RawMessage   `json:"nested"`
}

// binding is what a name holds: a layout over a storage, named by the first
// name bound to it, of storageNumel elements.
type binding struct {
	l            Layout
	storage      string
	storageNumel int
}

// pureViewOps are the ops whose results are views: a program made of them
// only is a "pure view" case.
var pureViewOps = map[string]bool{
	"view": true, "reshape": true, "permute": true, "transpose": true, "t": true,
	"expand": true, "expand_as": true, "narrow": true, "select": true, "slice": true,
	"squeeze": true, "unsqueeze": true, "flatten": true, "unflatten": true,
	"movedim": true, "as_strided": true, "split": true, "chunk": true,
}

func TestConformanceViews(t *testing.T) {
	cs, err := cases.Load(viewsCases)
	if err != nil {
		t.Fatal(err)
	}
	total, passed, pure, purePassed := 0, 0, 0, 0
	for _, c := range cs {
		isPure := true
		for _, s := range c.Program {
			isPure = isPure && pureViewOps[s.Op]
		}
		total++
		if isPure {
			pure++
		}
		if err := runViewsCase(c); err != nil {
			t.Errorf("FAIL %s: %v", c.ID, err)
			continue
		}
		passed++
		if isPure {
			purePassed++
		}
	}
	if total == 0 {
		t.Fatal("no views cases")
	}
	t.Logf("views: %d passed, %d failed (pure view programs: %d of %d)", passed, total-passed, purePassed, pure)
}

func runViewsCase(c *cases.Case) error {
	env := map[string]binding{}
	// every input has its own storage
	for _, f := range c.Inputs {
		name := f.Name
		var in confInput
		if err := json.Unmarshal(f.JSON, &in); err != nil {
			return err
		}
		if in.Nested != nil {
			return fmt.Errorf("nested input %s", name)
		}
		b := binding{storage: name}
		switch {
		case in.Storage != nil:
			b.l = Layout{Sizes: in.Shape, Strides: in.Strides, Offset: in.Offset}
			b.storageNumel = len(in.Storage)
		case in.StorageSize != nil:
			b.l = Layout{Sizes: in.Shape, Strides: in.Strides, Offset: in.Offset}
			b.storageNumel = *in.StorageSize
		default:
			b.l = Dense(in.Shape)
			b.storageNumel = NumEl(in.Shape)
		}
		env[name] = b
	}
	for i, s := range c.Program {
		err := runViewsStep(env, s)
		if c.Error != nil && c.Error.Step == i {
			var e *errs.Error
			if err == nil {
				return fmt.Errorf("step %d (%s): no error, want %s", i, s.Op, c.Error.Kind)
			}
			if !errors.As(err, &e) {
				return fmt.Errorf("step %d (%s): error %T %v, want *errs.Error", i, s.Op, err, err)
			}
			if e.Kind.String() != c.Error.Kind {
				return fmt.Errorf("step %d (%s): error kind %s (%v), want %s", i, s.Op, e.Kind, err, c.Error.Kind)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("step %d (%s): %v", i, s.Op, err)
		}
	}
	if c.Error != nil {
		return fmt.Errorf("no error, want %s at step %d", c.Error.Kind, c.Error.Step)
	}
	for _, f := range c.Expect {
		name := f.Name
		var want confResult
		if err := json.Unmarshal(f.JSON, &want); err != nil {
			return err
		}
		got, ok := env[name]
		if !ok {
			return fmt.Errorf("%s: not bound", name)
		}
		if !Equal(got.l.Sizes, want.Shape) {
			return fmt.Errorf("%s: shape %v, want %v", name, got.l.Sizes, want.Shape)
		}
		if want.Strides != nil {
			for k, s := range want.Shape {
				if s > 1 && got.l.Strides[k] != want.Strides[k] {
					return fmt.Errorf("%s: strides %v, want %v (shape %v)", name, got.l.Strides, want.Strides, want.Shape)
				}
			}
		}
		if want.Shares != "" {
			// shares names the first name bound to the storage, or for a
			// copy another name bound to it: compare storages.
			if other, ok := env[want.Shares]; !ok || got.storage != other.storage {
				return fmt.Errorf("%s: storage of %s, want the storage of %s", name, got.storage, want.Shares)
			}
		} else if got.l.NumEl() > 0 && got.storage != name {
			return fmt.Errorf("%s: a view of %s, want a copy", name, got.storage)
		}
		if want.Offset != nil && got.l.Offset != *want.Offset {
			return fmt.Errorf("%s: offset %d, want %d", name, got.l.Offset, *want.Offset)
		}
	}
	return nil
}

// runViewsStep applies one step to env.
func runViewsStep(env map[string]binding, s cases.Step) error {
	if len(s.Kwargs) > 0 {
		return fmt.Errorf("kwargs %v not supported", s.Kwargs)
	}
	args := s.Args
	tensor := func(i int) (binding, error) {
		var name string
		if err := json.Unmarshal(args[i], &name); err != nil {
			return binding{}, err
		}
		b, ok := env[name]
		if !ok {
			return binding{}, fmt.Errorf("unbound %q", name)
		}
		return b, nil
	}
	ints := func(i int) []int {
		var v []int
		if err := json.Unmarshal(args[i], &v); err == nil {
			return v
		}
		var n int
		if err := json.Unmarshal(args[i], &n); err != nil {
			panic(fmt.Sprintf("%s: arg %d: %s is not ints", s.Op, i, args[i]))
		}
		return []int{n}
	}
	optInt := func(i, def int) *int {
		if i >= len(args) {
			if def == noDefault {
				return nil
			}
			return &def
		}
		var v *int
		if err := json.Unmarshal(args[i], &v); err != nil {
			panic(fmt.Sprintf("%s: arg %d: %s is not an int", s.Op, i, args[i]))
		}
		return v
	}
	intArg := func(i int) int { return *optInt(i, noDefault) }
	tensors := func(i int) ([]binding, error) {
		var names []string
		if err := json.Unmarshal(args[i], &names); err != nil {
			return nil, err
		}
		var out []binding
		for _, n := range names {
			b, ok := env[n]
			if !ok {
				return nil, fmt.Errorf("unbound %q", n)
			}
			out = append(out, b)
		}
		return out, nil
	}

	var out string
	outs := s.Out
	if !s.Multi && len(outs) == 1 {
		out = outs[0]
	}
	// view binds the result as a view of in's storage, fresh as a new one.
	view := func(in binding, l Layout) {
		env[out] = binding{l: l, storage: in.storage, storageNumel: in.storageNumel}
	}
	fresh := func(l Layout) {
		env[out] = binding{l: l, storage: out, storageNumel: l.NumEl()}
	}
	viewOrCopy := func(in binding, l Layout, needCopy bool) {
		if needCopy {
			fresh(l)
		} else {
			view(in, l)
		}
	}
	pieces := func(in binding, ls []Layout) error {
		if len(ls) != len(outs) {
			return fmt.Errorf("%d pieces, want %d", len(ls), len(outs))
		}
		for i, l := range ls {
			env[outs[i]] = binding{l: l, storage: in.storage, storageNumel: in.storageNumel}
		}
		return nil
	}

	if s.Op == "cat" || s.Op == "stack" {
		ins, err := tensors(0)
		if err != nil {
			return err
		}
		shapes := make([][]int, len(ins))
		for i, b := range ins {
			shapes[i] = b.l.Sizes
		}
		dim := *optInt(1, 0)
		var sh []int
		if s.Op == "cat" {
			sh, err = CatShape(shapes, dim)
		} else {
			sh, err = StackShape(shapes, dim)
		}
		if err != nil {
			return err
		}
		fresh(Dense(sh))
		return nil
	}

	in, err := tensor(0)
	if err != nil {
		return err
	}
	var l Layout
	switch s.Op {
	case "view":
		l, err = View(in.l, ints(1))
	case "reshape":
		var c bool
		if l, c, err = Reshape(in.l, ints(1)); err == nil {
			viewOrCopy(in, l, c)
		}
		return err
	case "flatten":
		var c bool
		if l, c, err = Flatten(in.l, *optInt(1, 0), *optInt(2, -1)); err == nil {
			viewOrCopy(in, l, c)
		}
		return err
	case "contiguous":
		if in.l.IsContiguous() {
			view(in, in.l.Clone())
		} else {
			fresh(Dense(in.l.Sizes))
		}
		return nil
	case "clone":
		fresh(Layout{Sizes: dup(in.l.Sizes), Strides: DenseLike(in.l.Sizes, in.l.Strides)})
		return nil
	case "permute":
		l, err = Permute(in.l, ints(1))
	case "transpose":
		l, err = Transpose(in.l, intArg(1), intArg(2))
	case "t":
		l, err = T(in.l)
	case "expand":
		l, err = Expand(in.l, ints(1))
	case "expand_as":
		other, err2 := tensor(1)
		if err2 != nil {
			return err2
		}
		l, err = ExpandAs(in.l, other.l.Sizes)
	case "narrow":
		l, err = Narrow(in.l, intArg(1), intArg(2), intArg(3))
	case "select":
		l, err = Select(in.l, intArg(1), intArg(2))
	case "slice":
		l, err = Slice(in.l, *optInt(1, 0), optInt(2, noDefault), optInt(3, noDefault), *optInt(4, 1))
	case "squeeze":
		if d := optInt(1, noDefault); d != nil {
			l, err = Squeeze(in.l, *d)
		} else {
			l, err = Squeeze(in.l)
		}
	case "unsqueeze":
		l, err = Unsqueeze(in.l, intArg(1))
	case "unflatten":
		l, err = Unflatten(in.l, intArg(1), ints(2))
	case "movedim":
		l, err = Movedim(in.l, ints(1), ints(2))
	case "as_strided":
		l, err = AsStrided(in.l, ints(1), ints(2), optInt(3, noDefault), in.storageNumel)
	case "split":
		var ls []Layout
		dim := *optInt(2, 0)
		var n int
		if json.Unmarshal(args[1], &n) == nil {
			ls, err = Split(in.l, n, dim)
		} else {
			ls, err = SplitSizes(in.l, ints(1), dim)
		}
		if err != nil {
			return err
		}
		return pieces(in, ls)
	case "chunk":
		ls, err := Chunk(in.l, intArg(1), *optInt(2, 0))
		if err != nil {
			return err
		}
		return pieces(in, ls)
	default:
		return fmt.Errorf("op %q not supported", s.Op)
	}
	if err != nil {
		return err
	}
	view(in, l)
	return nil
}

const noDefault = math.MinInt
