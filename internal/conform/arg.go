package conform

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/nested"
	"github.com/goten-ml/goten/tensor"
)

// Note [ARG kinds]
// An ARG's JSON kind says what it is (FORMAT.md, ARG), never its position:
//
//	"a"                   a tensor bound to that name
//	"string:xyz"          a string option
//	3 (bare integer)      a structural integer: dim, size, index, start/end/step
//	true (bare boolean)   a boolean option: keepdim, ...
//	[2, 3] / []           a list of structural integers
//	["a", "b"]            a list of tensors
//	{"int": 2}, {"float": 2.5}, {"bool": true}   a Python scalar operand
//	{"dtype": "float16"}  a dtype
//	null                  None
//
// Bare JSON floats are not ARGs. The op functions then ask for the kind they
// expect (a T or an S operand, an int or ints, ...) and a mismatch is a bad case.

type argKind uint8

const (
	argNull argKind = iota
	argTensor
	argString
	argInt
	argBool
	argInts
	argTensors
	argScalar
	argDType
	argNested
	argIndex
)

var argKindNames = [...]string{"null", "tensor", "string", "int", "bool", "ints", "tensor list", "scalar", "dtype", "nested tensor", "index"}

func (k argKind) String() string { return argKindNames[k] }

// arg is a decoded ARG.
type arg struct {
	kind argKind
	t    *tensor.Tensor   // argTensor
	s    string           // argString (without "string:"); argTensor: the name
	i    int              // argInt
	b    bool             // argBool
	ints []int            // argInts
	ts   []*tensor.Tensor // argTensors
	sc   any              // argScalar: the Go value, int64, float64 or bool
	dt   dtype.DType      // argDType
	n    *nested.Tensor   // argNested
	idx  []tensor.Item    // argIndex
}

// operand returns a scalar ARG as a wrapped scalar operand (PyTorch's wrapped numbers).
func (a arg) operand() *tensor.Tensor {
	switch x := a.sc.(type) {
	case int64:
		return tensor.Scalar(x)
	case float64:
		return tensor.Scalar(x)
	case bool:
		return tensor.Scalar(x)
	}
	panic("conform: scalar of no kind")
}

// float returns a scalar ARG as a float64.
func (a arg) float() float64 {
	switch x := a.sc.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// decodeArg decodes an ARG; names are looked up in env, then in nenv (the
// nested tensors).
func decodeArg(r json.RawMessage, env map[string]*tensor.Tensor, nenv map[string]*nested.Tensor) (arg, error) {
	r = bytes.TrimSpace(r)
	if len(r) == 0 {
		return arg{}, badf("empty ARG")
	}
	switch r[0] {
	case 'n':
		return arg{kind: argNull}, nil
	case 't', 'f':
		var b bool
		if err := json.Unmarshal(r, &b); err != nil {
			return arg{}, badf("bad ARG %s", r)
		}
		return arg{kind: argBool, b: b}, nil
	case '"':
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return arg{}, badf("bad ARG %s", r)
		}
		if opt, ok := strings.CutPrefix(s, "string:"); ok {
			return arg{kind: argString, s: opt}, nil
		}
		t, ok := env[s]
		if !ok {
			if n, ok := nenv[s]; ok {
				return arg{kind: argNested, n: n, s: s}, nil
			}
			return arg{}, badf("unknown name %q", s)
		}
		return arg{kind: argTensor, t: t, s: s}, nil
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(r, &items); err != nil {
			return arg{}, badf("bad ARG %s", r)
		}
		if ints, ok := intList(items); ok {
			return arg{kind: argInts, ints: ints}, nil
		}
		a := arg{kind: argTensors}
		for _, it := range items {
			x, err := decodeArg(it, env, nenv)
			if err != nil {
				return arg{}, err
			}
			if x.kind != argTensor {
				return arg{}, badf("bad list ARG %s", r)
			}
			a.ts = append(a.ts, x.t)
		}
		return a, nil
	case '{':
		if fs, err := cases.Fields(r); err == nil && len(fs) == 1 && fs[0].Name == "index" {
			return decodeIndex(fs[0].JSON, env)
		}
		return decodeObjectArg(r)
	}
	i, err := strconv.Atoi(string(r))
	if err != nil {
		return arg{}, badf("bare JSON numbers are structural integers, got %s", r)
	}
	return arg{kind: argInt, i: i}, nil
}

// intList decodes a list of bare integers (the empty list is one).
func intList(items []json.RawMessage) ([]int, bool) {
	ints := make([]int, len(items))
	for k, it := range items {
		v, err := strconv.Atoi(string(bytes.TrimSpace(it)))
		if err != nil {
			return nil, false
		}
		ints[k] = v
	}
	return ints, true
}

func decodeObjectArg(r json.RawMessage) (arg, error) {
	fs, err := cases.Fields(r)
	if err != nil || len(fs) != 1 {
		return arg{}, badf("bad ARG %s", r)
	}
	key, v := fs[0].Name, fs[0].JSON
	switch key {
	case "int":
		i, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return arg{}, badf("bad int scalar %s", v)
		}
		return arg{kind: argScalar, sc: i}, nil
	case "float":
		f, err := decodeFloat(v)
		if err != nil {
			return arg{}, err
		}
		return arg{kind: argScalar, sc: f}, nil
	case "bool":
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return arg{}, badf("bad bool scalar %s", v)
		}
		return arg{kind: argScalar, sc: b}, nil
	case "dtype":
		var name string
		if err := json.Unmarshal(v, &name); err != nil {
			return arg{}, badf("bad dtype %s", v)
		}
		d, err := parseDType(name)
		if err != nil {
			return arg{}, err
		}
		return arg{kind: argDType, dt: d}, nil
	}
	return arg{}, badf("bad ARG %s", r)
}

// decodeIndex decodes an index ARG's items (FORMAT.md): integers, slices
// {"slice": [start, stop, step]} (each may be null), null (a new dim),
// "..." and the names of index tensors.
func decodeIndex(r json.RawMessage, env map[string]*tensor.Tensor) (arg, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(r, &items); err != nil {
		return arg{}, badf("bad index %s", r)
	}
	a := arg{kind: argIndex, idx: []tensor.Item{}}
	for _, it := range items {
		it = bytes.TrimSpace(it)
		switch {
		case string(it) == "null":
			a.idx = append(a.idx, tensor.NewAxis)
		case it[0] == '"':
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return arg{}, badf("bad index item %s", it)
			}
			if s == "..." {
				a.idx = append(a.idx, tensor.Ellipsis)
				continue
			}
			t, ok := env[s]
			if !ok {
				return arg{}, badf("unknown name %q", s)
			}
			a.idx = append(a.idx, tensor.Idx(t))
		case it[0] == '{':
			var sl struct{ Slice []*int }
			if err := json.Unmarshal(it, &sl); err != nil || len(sl.Slice) != 3 {
				return arg{}, badf("bad index item %s", it)
			}
			start, stop, step := sl.Slice[0], sl.Slice[1], sl.Slice[2]
			var item tensor.Item
			switch {
			case start != nil && stop != nil:
				item = tensor.Span(*start, *stop)
			case start != nil:
				item = tensor.From(*start)
			case stop != nil:
				item = tensor.Until(*stop)
			default:
				item = tensor.Whole
			}
			if step != nil {
				item = item.By(*step)
			}
			a.idx = append(a.idx, item)
		default:
			i, err := strconv.Atoi(string(it))
			if err != nil {
				return arg{}, badf("bad index item %s", it)
			}
			a.idx = append(a.idx, tensor.Pos(i))
		}
	}
	return a, nil
}
