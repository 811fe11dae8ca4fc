package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/tensor"
)

// Run runs one case with its tensors on device dev and returns the reasons
// it failed; none means it passed.
// It follows torch_runner.py's run_case: build the inputs, run the steps in
// order, expect the case's error at its step and no other, then compare the
// names of expect. A panic that is not a *tensor.Error (a bug) fails the case
// and does not stop the caller.
func Run(c *cases.Case, dev tensor.Device) (reasons []string) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && isRunnerError(err) {
				reasons = []string{err.Error()}
				return
			}
			reasons = []string{fmt.Sprintf("runner panic: %v", r)}
		}
	}()
	env := map[string]*tensor.Tensor{}
	for _, in := range c.Inputs {
		t, err := buildTensor(in.JSON, dev)
		if err != nil {
			return []string{fmt.Sprintf("input %s: %v", in.Name, err)}
		}
		env[in.Name] = t
	}
	if (c.Rtol == nil) != (c.Atol == nil) {
		return []string{badf("rtol and atol come together").Error()}
	}
	if c.Error != nil && c.HasExpect {
		return []string{badf("a case has either expect or error").Error()}
	}

	for i, step := range c.Program {
		var before map[string]snapshot
		if c.Error != nil && c.Error.Step == i {
			before = map[string]snapshot{}
			for _, name := range c.Error.Unchanged {
				t, ok := env[name]
				if !ok {
					return []string{badf("unchanged names unknown %q", name).Error()}
				}
				before[name] = takeSnapshot(t)
			}
		}
		res, err := runStep(step, env)
		var lib *tensor.Error
		switch {
		case err == nil:
		case errors.As(err, &lib):
			if c.Error == nil {
				return []string{fmt.Sprintf("step %d (%s) raised: %s", i, step.Op, firstLine(lib))}
			}
			if c.Error.Step != i {
				return []string{fmt.Sprintf("step %d (%s) raised, want the error at step %d: %s",
					i, step.Op, c.Error.Step, firstLine(lib))}
			}
			return checkError(lib, c.Error, before, env)
		default:
			return []string{fmt.Sprintf("step %d (%s): %v", i, step.Op, err)}
		}
		if step.Multi != res.multi || len(step.Out) != len(res.ts) {
			if res.multi {
				return []string{fmt.Sprintf("step %d (%s) returned %d results, want %d", i, step.Op, len(res.ts), len(step.Out))}
			}
			return []string{fmt.Sprintf("step %d (%s) returned one result, want %d", i, step.Op, len(step.Out))}
		}
		for k, name := range step.Out {
			env[name] = res.ts[k]
		}
	}

	if c.Error != nil && c.Error.Step < len(c.Program) {
		return []string{fmt.Sprintf("no error, want %s at step %d", c.Error.Kind, c.Error.Step)}
	}
	if c.Error != nil { // the backward pass must fail
		if c.Grad == nil {
			return []string{badf("an error after the last step needs a grad section").Error()}
		}
		_, err := runGrad(c.Grad, env, dev)
		var lib *tensor.Error
		switch {
		case err == nil:
			return []string{fmt.Sprintf("backward raised nothing, want %s", c.Error.Kind)}
		case errors.As(err, &lib):
			return checkError(lib, c.Error, nil, env)
		}
		return []string{fmt.Sprintf("backward: %v", err)}
	}
	for _, e := range c.Expect {
		got, ok := env[e.Name]
		if !ok {
			reasons = append(reasons, e.Name+": not bound")
			continue
		}
		reasons = append(reasons, checkResult(c, got, e.JSON, env, e.Name)...)
	}
	if c.Grad != nil {
		spec, err := runGrad(c.Grad, env, dev)
		if err != nil {
			var lib *tensor.Error
			if errors.As(err, &lib) {
				return append(reasons, "backward raised: "+firstLine(lib))
			}
			return append(reasons, fmt.Sprintf("backward: %v", err))
		}
		for _, name := range spec.Wrt {
			got := env[name].Grad()
			want := spec.Expect[name]
			switch {
			case cases.IsNull(want) && got != nil:
				reasons = append(reasons, fmt.Sprintf("grad of %s: got a gradient, want none", name))
			case cases.IsNull(want):
			case got == nil:
				reasons = append(reasons, fmt.Sprintf("grad of %s: none, want one", name))
			default:
				reasons = append(reasons, checkResult(c, got, want, env, "grad of "+name)...)
			}
		}
	}
	return reasons
}

// gradSpec is a case's grad section.
type gradSpec struct {
	Of     string                     `json:"of"`
	Seed   json.RawMessage            `json:"seed"`
	Wrt    []string                   `json:"wrt"`
	Expect map[string]json.RawMessage `json:"expect"`
}

// runGrad runs the back-propagation of a grad section: the gradient of
// its output, seeded by its seed or 1, accumulated into the inputs. The
// error is the library's, or a badCase.
func runGrad(raw json.RawMessage, env map[string]*tensor.Tensor, dev tensor.Device) (spec gradSpec, err error) {
	if err := json.Unmarshal(raw, &spec); err != nil {
		return spec, badf("grad: %v", err)
	}
	of, ok := env[spec.Of]
	if !ok {
		return spec, badf("grad of unknown name %q", spec.Of)
	}
	for _, name := range spec.Wrt {
		if _, ok := env[name]; !ok {
			return spec, badf("grad wrt unknown name %q", name)
		}
	}
	var seed []*tensor.Tensor
	if !cases.IsNull(spec.Seed) {
		s, err := buildTensor(spec.Seed, dev)
		if err != nil {
			return spec, err
		}
		seed = append(seed, s)
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && (isRunnerError(e) || isLibraryError(e)) {
				err = e
				return
			}
			err = libraryPanic{r, string(debug.Stack())}
		}
	}()
	of.Backward(seed...)
	return spec, nil
}

// runStep decodes a step's arguments and runs its op. The error is a
// *tensor.Error raised by the library, a badCase or missing, or a
// libraryPanic for any other panic.
func runStep(s cases.Step, env map[string]*tensor.Tensor) (res result, err error) {
	c := &call{op: s.Op, kwargs: map[string]arg{}, usedKw: map[string]bool{}}
	for _, r := range s.Args {
		a, err := decodeArg(r, env)
		if err != nil {
			return res, err
		}
		c.args = append(c.args, a)
	}
	c.used = make([]bool, len(c.args))
	for _, f := range s.Kwargs {
		a, err := decodeArg(f.JSON, env)
		if err != nil {
			return res, err
		}
		c.kwargs[f.Name] = a
	}
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(error); ok && (isRunnerError(e) || isLibraryError(e)) {
			err = e
			return
		}
		err = libraryPanic{r, string(debug.Stack())}
	}()
	res = runOp(c)
	if err := c.unread(); err != nil {
		return res, err
	}
	return res, nil
}

// libraryPanic is a panic that is not a *tensor.Error: a bug.
type libraryPanic struct {
	value any
	stack string
}

func (p libraryPanic) Error() string {
	if at := panicSite(p.stack); at != "" {
		return fmt.Sprintf("panicked: %v (at %s)", p.value, at)
	}
	return fmt.Sprintf("panicked: %v", p.value)
}

// panicSite returns the file:line of the frame that panicked, from a debug.Stack.
func panicSite(stack string) string {
	lines := strings.Split(stack, "\n")
	for k, l := range lines {
		if strings.HasPrefix(l, "panic(") && k+3 < len(lines) {
			loc := strings.TrimSpace(lines[k+3])
			if i := strings.LastIndex(loc, " +0x"); i >= 0 {
				loc = loc[:i]
			}
			if parts := strings.Split(loc, "/"); len(parts) > 2 { // package/file.go:line
				loc = strings.Join(parts[len(parts)-2:], "/")
			}
			return loc
		}
	}
	return ""
}

func isRunnerError(err error) bool {
	switch err.(type) {
	case badCase, missing:
		return true
	}
	return false
}

func isLibraryError(err error) bool {
	_, ok := err.(*tensor.Error)
	return ok
}

// checkError compares the library's error with the expected one.
func checkError(err *tensor.Error, want *cases.ErrorSpec, before map[string]snapshot, env map[string]*tensor.Tensor) []string {
	var reasons []string
	if kind := err.Kind.String(); kind != want.Kind {
		reasons = append(reasons, fmt.Sprintf("error kind %s, want %s: %s", kind, want.Kind, firstLine(err)))
	}
	if want.Exact && err.Msg != want.Message {
		reasons = append(reasons, fmt.Sprintf("message %q, want %q", err.Msg, want.Message))
	}
	if err.Op == "" {
		reasons = append(reasons, fmt.Sprintf("the error names no op: %s", firstLine(err)))
	}
	for _, name := range want.Unchanged {
		if !before[name].same(takeSnapshot(env[name])) {
			reasons = append(reasons, name+" was changed by the failing step")
		}
	}
	return reasons
}

// firstLine describes a library error by its kind and the first line of its message.
func firstLine(err *tensor.Error) string {
	msg, _, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
	return fmt.Sprintf("%s error: %s", err.Kind, msg)
}
