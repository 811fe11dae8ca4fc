// Package kerneltest is the conformance kit of [kernel.Backend]: one suite
// that every backend must pass, as gonum's testblas is for BLAS
// implementations. A backend's own tests call [Run]:
//
//	func TestKit(t *testing.T) { kerneltest.Run(t, cpu.New()) }
//
// The reference backend (backend/ref) is the oracle. Every case builds its
// operands in host memory, places a copy on the backend's device (its
// Allocator and Transfer, so a GPU backend runs the kit unchanged), runs
// the backend, brings the outputs back and compares them, element by
// element and byte by byte around them, with what the reference backend
// computes on its own copy of the same operands. The kit never computes an
// op's value itself: the reference's element functions and folds are
// generated from the same op table as a fast backend's, so what the kit
// checks is everything a backend adds to the table's meaning — strides,
// fast paths, SIMD kernels, buffered casts, tiling, parallel splits, and
// the dtypes it accepts and refuses. (Paths that only operands of many
// megabytes reach, like the CPU's streaming stores, are left to a
// backend's own tests.)
//
// The kit walks the op table (optable.Ops), never a list of ops of its
// own, so a new op is checked as soon as it is declared. Its cases are
// grouped by category, one file each:
//
//   - pointwise.go: every pointwise op × every compute dtype × the layouts
//     of layouts.go, scalar arguments, mixed dtypes, split plans;
//   - copy.go: every pair of dtypes × the same layouts;
//   - reduce.go: every reduction × dtypes × reduced dims × layouts, and a
//     reduction of more than 2^31 elements;
//   - scan.go: every scan and row op × dtypes × dims × layouts;
//   - matmul.go: batched products of every numeric dtype;
//   - index.go: every index and gather op × dtypes × index layouts, and
//     out-of-range positions;
//   - mask.go: masked_select, masked_scatter and nonzero × dtypes ×
//     layouts;
//   - sort.go: every sort op × its arguments × dtypes × dims × layouts,
//     and searchsorted;
//   - random.go: every random op × dtypes × layouts (the streams exactly);
//   - segment.go: the segment reductions and paddings × dtypes ×
//     segmentations × layouts.
//
// harness.go places operands on a device, brings them back and compares
// them; values.go draws the inputs.
package kerneltest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goten-ml/goten/backend/ref"
	"github.com/goten-ml/goten/kernel"
)

// Run runs the whole kit on backend b as subtests of t, named by
// category, op, dtype and layout (TestKit/pointwise/Exp/float32/sliced).
// With testing.Short() it runs every op and dtype on fewer and smaller
// layouts. Run must not run in parallel with other tests that build
// iterator plans: the split-plan cases lower the iterator's index limit
// for a moment (iter.SetMaxIndexForTesting).
func Run(t *testing.T, b kernel.Backend) {
	checks := newSuite(b, testing.Short()).all()
	t.Logf("%d cases on backend %q", len(checks), b.Name())
	runTree(t, checks, 0)
}

// A check is one case of the kit: its path of names (category, op, dtype,
// layout) and the function that runs it and returns what it found wrong.
type check struct {
	path []string
	run  func() error
}

// skipped is the error of a check that did not run, and says why; Run
// reports it as a skipped test, never as a pass.
type skipped string

func (s skipped) Error() string { return string(s) }

// runTree runs checks as nested subtests, one level per element of their
// paths from depth on. Checks sharing a prefix are consecutive.
func runTree(t *testing.T, checks []check, depth int) {
	for i := 0; i < len(checks); {
		name := checks[i].path[depth]
		j := i + 1
		for j < len(checks) && checks[j].path[depth] == name {
			j++
		}
		group := checks[i:j]
		if len(group) == 1 && len(group[0].path) == depth+1 {
			c := group[0]
			t.Run(name, func(t *testing.T) {
				var skip skipped
				switch err := c.run(); {
				case errors.As(err, &skip):
					t.Skip(skip)
				case err != nil:
					t.Error(err)
				}
			})
		} else {
			t.Run(name, func(t *testing.T) { runTree(t, group, depth+1) })
		}
		i = j
	}
}

// suite collects the checks of one backend.
type suite struct {
	b      kernel.Backend
	ref    kernel.Backend
	short  bool
	checks []check
}

func newSuite(b kernel.Backend, short bool) *suite {
	return &suite{b: b, ref: ref.New(), short: short}
}

// all returns every check of the kit, by category.
func (s *suite) all() []check {
	s.pointwise()
	s.copies()
	s.reductions()
	s.scans()
	s.matmuls()
	s.indexes()
	s.gathers()
	s.masks()
	s.sorts()
	s.randoms()
	s.segments()
	s.paddings()
	s.groupeds()
	return s.checks
}

// add adds the check run at path.
func (s *suite) add(run func() error, path ...string) {
	s.checks = append(s.checks, check{path: path, run: run})
}

// rng returns the random source of the check at path: seeded by the path
// alone, so a case draws the same values whichever other cases run.
func rng(path ...string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(strings.Join(path, "/")))
	return rand.New(rand.NewPCG(h.Sum64(), 0x6b6974))
}

// kitError is an error of the kit itself (a plan it could not build, an
// oracle that failed), as opposed to a wrong answer of the backend.
type kitError struct{ msg string }

func (e *kitError) Error() string { return "kerneltest: " + e.msg }

func kitErr(format string, args ...any) error {
	return &kitError{fmt.Sprintf(format, args...)}
}

// runs takes the reference backend's answer refErr to probe (an op run in
// one compute dtype over one element) and reports whether the op runs in
// that dtype. Where the reference refuses it, it adds a check at path that
// the backend refuses it too; where the probe itself failed, a check that
// reports it.
func (s *suite) runs(refErr error, path []string, probe func(be kernel.Backend) error) bool {
	var ke *kitError
	switch {
	case refErr == nil:
		return true
	case errors.As(refErr, &ke):
		s.add(func() error { return refErr }, append(path, "probe")...)
	default:
		s.add(func() error {
			switch err := probe(s.b); {
			case errors.As(err, &ke):
				return err
			case err == nil:
				return fmt.Errorf("ran it, which the reference backend refuses (%v)", refErr)
			}
			return nil
		}, append(path, "refused")...)
	}
	return false
}
