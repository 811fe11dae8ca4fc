package conform

import (
	"fmt"
	"sort"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// call is one STEP's op with its decoded arguments. The op functions read
// their arguments through its accessors, which follow PyTorch's Python
// signatures: each parameter has a position (or -1 when it is keyword-only)
// and a name, and may be given either way. An argument of the wrong kind is
// a bad case; one no op function read is reported as not implemented.
type call struct {
	op     string
	args   []arg
	kwargs map[string]arg
	used   []bool
	usedKw map[string]bool
}

// result is what an op returns: one tensor, or a list (multi); ns, when
// not nil, holds the nested results, in place of the nil entries of ts.
type result struct {
	ts    []*tensor.Tensor
	multi bool
	ns    []*nested.Tensor
}

func one(t *tensor.Tensor) result     { return result{ts: []*tensor.Tensor{t}} }
func many(ts []*tensor.Tensor) result { return result{ts: ts, multi: true} }
func oneNested(n *nested.Tensor) result {
	return result{ts: []*tensor.Tensor{nil}, ns: []*nested.Tensor{n}}
}
func (c *call) missing(what string) error { return missingf("%s: %s", c.op, what) }

func (c *call) label(i int, name string) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("#%d", i)
}

// get returns the parameter at position i or keyword name; ok is false
// when it is absent or null.
func (c *call) get(i int, name string) (a arg, ok bool) {
	if i >= 0 && i < len(c.args) {
		if _, dup := c.kwargs[name]; dup && name != "" {
			panic(badf("%s: %s given by position and keyword", c.op, name))
		}
		c.used[i] = true
		a = c.args[i]
		return a, a.kind != argNull
	}
	if a, ok := c.kwargs[name]; ok && name != "" {
		c.usedKw[name] = true
		return a, a.kind != argNull
	}
	return arg{}, false
}

// opt returns the parameter if it is present and of one of the kinds.
func (c *call) opt(i int, name string, kinds ...argKind) (arg, bool) {
	a, ok := c.get(i, name)
	if !ok {
		return a, false
	}
	for _, k := range kinds {
		if a.kind == k {
			return a, true
		}
	}
	panic(badf("%s: argument %s is a %v, want %v", c.op, c.label(i, name), a.kind, kinds))
}

// need returns the parameter, which must be present and of one of the kinds.
func (c *call) need(i int, name string, kinds ...argKind) arg {
	a, ok := c.opt(i, name, kinds...)
	if !ok {
		panic(badf("%s: missing argument %s", c.op, c.label(i, name)))
	}
	return a
}

// tensor returns a T parameter.
func (c *call) tensor(i int, name string) *tensor.Tensor { return c.need(i, name, argTensor).t }

// operand returns a T or S parameter; an S is a wrapped scalar operand.
func (c *call) operand(i int, name string) *tensor.Tensor {
	a := c.need(i, name, argTensor, argScalar)
	if a.kind == argScalar {
		return a.operand()
	}
	return a.t
}

// optOperand is [call.operand] for a parameter that may be absent (nil).
func (c *call) optOperand(i int, name string) *tensor.Tensor {
	a, ok := c.opt(i, name, argTensor, argScalar)
	switch {
	case !ok:
		return nil
	case a.kind == argScalar:
		return a.operand()
	}
	return a.t
}

func (c *call) intArg(i int, name string) int { return c.need(i, name, argInt).i }

func (c *call) optInt(i int, name string) (int, bool) {
	a, ok := c.opt(i, name, argInt)
	return a.i, ok
}

func (c *call) intOr(i int, name string, def int) int {
	if v, ok := c.optInt(i, name); ok {
		return v
	}
	return def
}

func (c *call) intsArg(i int, name string) []int { return c.need(i, name, argInts).ints }

// dims returns an int|ints parameter as a list.
func (c *call) dims(i int, name string) ([]int, bool) {
	a, ok := c.opt(i, name, argInt, argInts)
	switch {
	case !ok:
		return nil, false
	case a.kind == argInt:
		return []int{a.i}, true
	}
	return a.ints, true
}

func (c *call) flag(i int, name string, def bool) bool {
	if a, ok := c.opt(i, name, argBool); ok {
		return a.b
	}
	return def
}

// number returns an S parameter as a [tensor.Scalar], nil when absent.
func (c *call) number(i int, name string) *tensor.Tensor {
	if a, ok := c.opt(i, name, argScalar); ok {
		return a.operand()
	}
	return nil
}

// optNumber returns an optional S parameter as the variadic argument of
// the API (none, or one [tensor.Scalar]).
func (c *call) optNumber(i int, name string) []*tensor.Tensor {
	if a, ok := c.opt(i, name, argScalar); ok {
		return []*tensor.Tensor{a.operand()}
	}
	return nil
}

func (c *call) dtype(i int, name string) (dtype.DType, bool) {
	a, ok := c.opt(i, name, argDType)
	return a.dt, ok
}

func (c *call) str(i int, name string) (string, bool) {
	a, ok := c.opt(i, name, argString)
	return a.s, ok
}

func (c *call) tensors(i int, name string) []*tensor.Tensor {
	return c.need(i, name, argTensors).ts
}

// out returns the out= tensor, or nil.
func (c *call) out() *tensor.Tensor {
	if a, ok := c.opt(-1, "out", argTensor); ok {
		return a.t
	}
	return nil
}

// unread reports the arguments no accessor read: goten lacks them.
func (c *call) unread() error {
	var names []string
	for i, u := range c.used {
		if !u {
			names = append(names, fmt.Sprintf("argument #%d", i))
		}
	}
	var kws []string
	for k := range c.kwargs {
		if !c.usedKw[k] {
			kws = append(kws, k+"=")
		}
	}
	sort.Strings(kws)
	names = append(names, kws...)
	if len(names) == 0 {
		return nil
	}
	return c.missing(strings.Join(names, ", "))
}
