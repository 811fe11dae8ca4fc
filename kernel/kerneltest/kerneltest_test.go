package kerneltest

import (
	"errors"
	"strings"
	"testing"

	"github.com/goten-ml/goten/backend/cpu"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// The kit must fail a backend that is wrong. Each broken backend below
// wraps the CPU backend and gets one thing wrong; TestKitCatches runs the
// cases where that shows, and cases where it must not, and checks which
// ones the kit reports.

// expPlusOne adds 1 to element 3 (in plan order) of every exp result.
type expPlusOne struct{ kernel.Backend }

func (b expPlusOne) Pointwise(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	if err := b.Backend.Pointwise(op, p, args); err != nil || op != optable.Exp || p.NumEl() <= 3 {
		return err
	}
	o := p.Operand(0)
	off := elementOffset(p, 0, 3)
	raw.StoreFloat64(o.Storage, o.DType, off, raw.LoadFloat64(o.Storage, o.DType, off)+1)
	return nil
}

// bytePastCopy writes the byte just past a copy's last output element, when
// its storage has one.
type bytePastCopy struct{ kernel.Backend }

func (b bytePastCopy) Copy(p *iter.Plan) error {
	if err := b.Backend.Copy(p); err != nil || p.NumEl() == 0 {
		return err
	}
	o := p.Operand(0)
	end := (elementOffset(p, 0, p.NumEl()-1) + 1) * o.DType.Size()
	if end < o.Storage.Len() {
		o.Storage.Bytes()[end] = 0x77
	}
	return nil
}

// noCorrection computes every variance with correction 0.
type noCorrection struct{ kernel.Backend }

func (b noCorrection) Reduce(op *optable.Op, p *iter.Plan, args *kernel.Args) error {
	a := kernel.DefaultArgs
	if args != nil {
		a = *args
	}
	a.Correction = 0
	return b.Backend.Reduce(op, p, &a)
}

// readsC adds C's old contents to a product with beta 0.
type readsC struct{ kernel.Backend }

func (b readsC) MatMul(g *kernel.Gemm) error {
	h := *g
	if h.Beta == 0 {
		h.Beta = 1
	}
	return b.Backend.MatMul(&h)
}

// groupsReadC is the CPU backend whose grouped products add C's old
// contents with beta 0, and whose ragged softmax ignores the causal mask.
type groupsReadC struct{ *cpu.Backend }

func (b groupsReadC) GroupedMatMul(g *kernel.Grouped) error {
	h := *g
	if h.Beta == 0 {
		h.Beta = 1
	}
	return b.Backend.GroupedMatMul(&h)
}

func (b groupsReadC) RaggedSoftmax(s *kernel.RaggedSoftmax) error {
	r := *s
	r.Causal = false
	return b.Backend.RaggedSoftmax(&r)
}

// elementOffset returns the storage element offset of element i, in plan
// order (dim 0 fastest), of operand k of a plan with nonnegative strides.
func elementOffset(p *iter.Plan, k, i int) int {
	o := p.Operand(k)
	off := o.Offset
	for d, s := range p.Shape() {
		off += (i % s) * o.Strides[d]
		i /= s
	}
	return off / o.DType.Size()
}

// outcome runs the checks of b whose paths start with one of prefixes and
// returns the paths of those that failed and the number run.
func outcome(t *testing.T, b kernel.Backend, prefixes ...string) (failed []string, ran int) {
	t.Helper()
	for _, c := range newSuite(b, true).all() {
		path := strings.Join(c.path, "/")
		match := false
		for _, p := range prefixes {
			match = match || strings.HasPrefix(path, p)
		}
		if !match {
			continue
		}
		ran++
		var skip skipped
		if err := c.run(); err != nil && !errors.As(err, &skip) {
			if ke := (*kitError)(nil); errors.As(err, &ke) {
				t.Errorf("%s: the kit itself failed: %v", path, err)
			}
			failed = append(failed, path)
		}
	}
	if ran == 0 {
		t.Fatalf("no checks match %v", prefixes)
	}
	return failed, ran
}

func TestKitCatches(t *testing.T) {
	for _, c := range []struct {
		name     string
		b        kernel.Backend
		prefixes []string
		// wrong reports whether the check at path must fail; every other
		// check run must pass
		wrong func(path string) bool
		// all: every check for which wrong holds must fail (else some)
		all bool
	}{
		{"exp element 3", expPlusOne{cpu.New()}, []string{"pointwise/Exp/", "pointwise/Log/"},
			func(path string) bool { return strings.Contains(path, "/Exp/") }, false},
		{"copy past the end", bytePastCopy{cpu.New()}, []string{"copy/"},
			func(path string) bool {
				return strings.HasSuffix(path, "/sliced") || strings.HasSuffix(path, "/long-strided") || strings.HasSuffix(path, "/crossed-sliced")
			}, true},
		{"variance correction ignored", noCorrection{cpu.New()}, []string{"reduce/Var(", "reduce/Std("},
			func(path string) bool { return strings.Contains(path, "correction=1") }, false},
		{"matmul reads C with beta 0", readsC{cpu.New()}, []string{"matmul/float32/", "matmul/int32/"},
			func(path string) bool { return strings.HasSuffix(path, "-beta0") }, false},
		{"grouped products read C with beta 0, softmax unmasked", groupsReadC{cpu.New()}, []string{"grouped/float32/", "grouped/int64/", "ragged-softmax/"},
			func(path string) bool {
				return strings.HasSuffix(path, "-beta0") || strings.Contains(path, "causaltrue")
			}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			failed, ran := outcome(t, c.b, c.prefixes...)
			isFailed := map[string]bool{}
			for _, f := range failed {
				isFailed[f] = true
				if !c.wrong(f) {
					t.Errorf("%s failed, but the backend is right there", f)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("none of %d checks failed", ran)
			}
			if c.all {
				for _, ch := range newSuite(c.b, true).all() {
					if path := strings.Join(ch.path, "/"); strings.HasPrefix(path, c.prefixes[0]) && c.wrong(path) && !isFailed[path] {
						t.Errorf("%s passed", path)
					}
				}
			}
			t.Logf("%d of %d checks failed", len(failed), ran)
		})
	}
}
