package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
)

// Note [Generated API]
//
// Every op of the table that is not Internal or ManualAPI gets its API in
// package tensor from one template per kind, so the API is regular by
// construction:
//
//	pointwise  Op(a, b, opt...)      t.Op(b, opt...)    OpTo(dst, a, b, opt...)   t.OpInPlace(b, opt...)
//	reduction  Op(t, o ...Dims)      t.Op(o ...Dims)    OpTo(dst, t, o ...Dims)
//	scan, row  Op(t, o Dims)         t.Op(o Dims)       OpTo(dst, t, o Dims)
//
// where opt is the op's optional argument: its multiplier (alpha of add,
// value of addcmul) as a [Scalar], logit's eps, div's rounding mode, gelu's
// approximation. Ops with indices (max, min, cummax, cummin) return values
// and indices, and their To form takes a dst for each. The method is
// called on the op's Receiver input (x.Where(cond, y)). Each function's
// doc comes from the op's Doc in the table.

// apiOps returns the ops that get a generated API.
func apiOps() []*optable.Op {
	var r []*optable.Op
	for _, op := range optable.Ops[1:] {
		if !op.Internal && !op.ManualAPI {
			r = append(r, op)
		}
	}
	return r
}

// params returns the names of op's inputs in its API.
func params(op *optable.Op) []string {
	switch {
	case op.Params != nil:
		return op.Params
	case op.Kind != optable.Pointwise || op.Arity == 1:
		return []string{"t"}
	}
	return []string{"a", "b"}
}

// option describes the optional trailing argument of a pointwise op: its
// parameter, and the expressions of the op and args to run with it.
func option(op *optable.Op) (param, def, args string) {
	def, args = "optable."+op.Go, "nil"
	switch {
	case op.Alpha != "":
		return op.Alpha + " ...*Tensor", def, fmt.Sprintf("alphaArgs(%q, %q, %s)", op.Name, op.Alpha, op.Alpha)
	case op.Options == "Eps":
		return "eps ...float64", def, fmt.Sprintf("epsArgs(%q, eps)", op.Name)
	case op.Options == "Rounding":
		return "mode ...Rounding", fmt.Sprintf("optable.%s.Mode(modeOf(%q, mode))", op.Go, op.Name), args
	case op.Options == "Approximate":
		return "approximate ...Approximate", fmt.Sprintf("optable.%s.Mode(modeOf(%q, approximate))", op.Go, op.Name), args
	}
	return "", def, args
}

// optionName returns the name of the optional argument declared by param.
func optionName(param string) string { return strings.Fields(param)[0] }

// dtypeNote returns what a pointwise op says of dtypes in its docs.
func dtypeNote(op *optable.Op) string {
	var notes []string
	if op.IntToFloat {
		notes = append(notes, "integer and bool inputs compute in float32")
	}
	if op.OutBool {
		notes = append(notes, "the result is bool")
	}
	if op.Accepts != 0 {
		var refused []string
		for _, d := range dtype.All {
			if !op.Accepts.Has(d) {
				refused = append(refused, d.String())
			}
		}
		if len(refused) > 0 {
			notes = append(notes, "a compute dtype of "+strings.Join(refused, ", ")+" is a dtype error")
		}
	}
	if len(notes) == 0 {
		return ""
	}
	s := strings.Join(notes, "; ")
	return " " + strings.ToUpper(s[:1]) + s[1:] + "."
}

func tensorAPI() []byte {
	var w bytes.Buffer
	w.WriteString(header("tensor"))
	w.WriteString("import \"github.com/goten-ml/goten/optable\"\n\n")
	w.WriteString("// The API of the op table (Note [Generated API] in internal/gen).\n\n")
	for _, op := range apiOps() {
		switch op.Kind {
		case optable.Pointwise:
			emitPointwiseAPI(&w, op)
		case optable.Reduction:
			emitReduceAPI(&w, op)
		case optable.Scan, optable.Row:
			emitScanAPI(&w, op)
		}
	}
	return w.Bytes()
}

func emitPointwiseAPI(w *bytes.Buffer, op *optable.Op) {
	ps := params(op)
	opt, def, args := option(op)
	sig := func(names []string) string {
		s := strings.Join(names, ", ") + " *Tensor"
		if opt != "" {
			s += ", " + opt
		}
		return s
	}
	optArg := ""
	if opt != "" {
		optArg = ", " + optionName(opt) + "..."
	}
	call := func(dst, inPlace string, ins []string) string {
		return fmt.Sprintf("pointwise(%s, %s, %s, %s, %s)", def, dst, inPlace, args, strings.Join(ins, ", "))
	}
	over := " for each element x of t"
	if len(ps) > 1 {
		over = ", elementwise over " + joinAnd(ps) + " broadcast together (each may be a [Scalar])"
	}
	optDoc := ""
	if opt != "" {
		optDoc = fmt.Sprintf(" The optional %s is at most one value.", optionName(opt))
	}
	// the function
	comment(w, fmt.Sprintf("%s returns %s%s.%s%s", op.Go, op.Doc, over, dtypeNote(op), optDoc))
	printf(w, "func %s(%s) *Tensor { return %s }\n\n", op.Go, sig(ps), call("nil", "false", ps))
	// the method
	var rest, callIns []string
	for i, p := range ps {
		if i != op.Receiver {
			rest = append(rest, p)
		}
		if i == op.Receiver {
			callIns = append(callIns, "t")
		} else {
			callIns = append(callIns, p)
		}
	}
	methodSig := strings.Join(rest, ", ")
	if len(rest) > 0 {
		methodSig += " *Tensor"
	}
	if opt != "" {
		if methodSig != "" {
			methodSig += ", "
		}
		methodSig += opt
	}
	printf(w, "// %s returns [%s](%s).\n", op.Go, op.Go, strings.Join(callIns, ", ")+optArg)
	printf(w, "func (t *Tensor) %s(%s) *Tensor { return %s }\n\n", op.Go, methodSig, call("nil", "false", callIns))
	// out=
	printf(w, "// %sTo writes [%s](%s) into dst and returns dst (PyTorch's out=; see the\n// package doc, Aliasing and in-place).\n", op.Go, op.Go, strings.Join(ps, ", ")+optArg)
	printf(w, "func %sTo(dst, %s) *Tensor { return %s }\n\n", op.Go, sig(ps), call("dst", "false", ps))
	// in place
	printf(w, "// %sInPlace overwrites t with [%s](%s) and returns t.\n", op.Go, op.Go, strings.Join(callIns, ", ")+optArg)
	printf(w, "func (t *Tensor) %sInPlace(%s) *Tensor { return %s }\n\n", op.Go, methodSig, call("nil", "true", callIns))
}

// comment writes text as a doc comment wrapped at 80 columns.
func comment(w *bytes.Buffer, text string) {
	line := "//"
	for _, word := range strings.Fields(text) {
		if len(line)+1+len([]rune(word)) > 80 && line != "//" {
			w.WriteString(line + "\n")
			line = "//"
		}
		line += " " + word
	}
	w.WriteString(line + "\n")
}

// joinAnd joins names as "a, b and c".
func joinAnd(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// keywordDoc is what a reduction says of its own keyword argument and of
// the dims it takes.
func keywordDoc(op *optable.Op) string {
	if op.OneDim {
		return " It reduces at most one dim; with none, it reduces the flattened tensor (indices into it)."
	}
	switch op.Keyword {
	case "correction":
		return " [Dims.Correction] sets the correction."
	case "p":
		return " [Dims.P] sets p."
	}
	return ""
}

func emitReduceAPI(w *bytes.Buffer, op *optable.Op) {
	res, ret, retVals, dsts := "*Tensor", "r[0]", "", "dst"
	what := "a new tensor"
	if op.Outputs == 2 {
		res, ret, retVals, dsts = "(values, indices *Tensor)", "r[0], r[1]", "", "values, indices"
		what = "new tensors of values and int64 indices"
	}
	_ = retVals
	comment(w, fmt.Sprintf("%s returns %s, over the dims of t that o selects (all of them when o is absent; see [Dims]), as %s.%s", op.Go, op.Doc, what, keywordDoc(op)))
	printf(w, "func %s(t *Tensor, o ...Dims) %s {\nr := reduce(optable.%s, nil, t, o)\nreturn %s\n}\n\n", op.Go, res, op.Go, ret)
	printf(w, "// %s returns [%s](t, o...).\n", op.Go, op.Go)
	printf(w, "func (t *Tensor) %s(o ...Dims) %s {\nr := reduce(optable.%s, nil, t, o)\nreturn %s\n}\n\n", op.Go, res, op.Go, ret)
	printf(w, "// %sTo writes [%s](t, o...) into %s and returns %s (PyTorch's out=: an\n// empty output is resized; its dtype must be the result's).\n", op.Go, op.Go, dsts, dsts)
	printf(w, "func %sTo(%s, t *Tensor, o ...Dims) %s {\nr := reduce(optable.%s, []*Tensor{%s}, t, o)\nreturn %s\n}\n\n", op.Go, dsts+" *Tensor", toResults(op), op.Go, dsts, ret)
}

// toResults is the result list of an op's To form: its outputs, unnamed
// (the parameters bear their names).
func toResults(op *optable.Op) string {
	if op.Outputs == 2 {
		return "(*Tensor, *Tensor)"
	}
	return "*Tensor"
}

func emitScanAPI(w *bytes.Buffer, op *optable.Op) {
	res, ret, dsts := "*Tensor", "r[0]", "dst"
	what := "a new tensor of t's shape"
	if op.Outputs == 2 {
		res, ret, dsts = "(values, indices *Tensor)", "r[0], r[1]", "values, indices"
		what = "new tensors of t's shape: the values and their int64 indices"
	}
	float := ""
	if op.NeedsFloat != "" {
		float = " Integer and bool tensors need a float dtype ([Dims.As])."
	}
	comment(w, fmt.Sprintf("%s returns %s, along the one dim of t that o selects, as %s.%s", op.Go, op.Doc, what, float))
	printf(w, "func %s(t *Tensor, o Dims) %s {\nr := scan(optable.%s, nil, t, o)\nreturn %s\n}\n\n", op.Go, res, op.Go, ret)
	printf(w, "// %s returns [%s](t, o).\n", op.Go, op.Go)
	printf(w, "func (t *Tensor) %s(o Dims) %s {\nr := scan(optable.%s, nil, t, o)\nreturn %s\n}\n\n", op.Go, res, op.Go, ret)
	printf(w, "// %sTo writes [%s](t, o) into %s and returns %s (PyTorch's out=: an\n// empty output is resized; its dtype must be the result's).\n", op.Go, op.Go, dsts, dsts)
	printf(w, "func %sTo(%s, t *Tensor, o Dims) %s {\nr := scan(optable.%s, []*Tensor{%s}, t, o)\nreturn %s\n}\n\n", op.Go, dsts+" *Tensor", toResults(op), op.Go, dsts, ret)
}

// testDType picks the dtype a generated test feeds op: float32 where the
// op computes in it, else int32, else bool.
func testDType(op *optable.Op) string {
	for _, d := range []dtype.DType{dtype.Float32, dtype.Int32, dtype.Bool} {
		if !op.Accept(d) {
			continue
		}
		if op.Kind != optable.Pointwise || op.IntToFloat {
			return dtypeName(d)
		}
		if _, ok := loopFor(op.KernelOp(), d); ok {
			return dtypeName(d)
		}
	}
	return "dtype.Invalid"
}

// optionValue is a value of op's optional argument for a generated test.
func optionValue(op *optable.Op) string {
	switch {
	case op.Alpha != "":
		if testDType(op) == "dtype.Float32" {
			return "tensor.Scalar(0.5)"
		}
		return "tensor.Scalar(2)"
	case op.Options == "Eps":
		return "0.25"
	case op.Options == "Rounding":
		return "tensor.RoundFloor"
	case op.Options == "Approximate":
		return "tensor.ApproxTanh"
	}
	return ""
}

// tensorAPITest writes a test that runs every generated function: each
// form of an op (function, method, To, InPlace; with and without its
// option) must agree with the others and with the reference backend.
func tensorAPITest() []byte {
	var w bytes.Buffer
	w.WriteString("// Code generated by go run ./internal/gen tensor; DO NOT EDIT.\n\npackage tensor_test\n\n")
	w.WriteString("import (\n\"testing\"\n\n\"github.com/goten-ml/goten/dtype\"\n\"github.com/goten-ml/goten/tensor\"\n)\n\n")
	w.WriteString("// TestGeneratedAPI runs every function the op table generates (Note\n// [Generated API] in internal/gen): the forms of each op must give the\n// same result, which must be the reference backend's.\nfunc TestGeneratedAPI(t *testing.T) {\n")
	for _, op := range apiOps() {
		dt := testDType(op)
		printf(&w, "t.Run(%q, func(t *testing.T) {\n", op.Go)
		switch op.Kind {
		case optable.Pointwise:
			ps := append([]string(nil), params(op)...)
			for i, p := range ps {
				if p == "t" { // the test's *testing.T
					ps[i] = "x"
				}
			}
			var ins []string
			for i, p := range ps {
				d := dt
				if i == 0 && op.CondBool {
					d = "dtype.Bool"
				}
				printf(&w, "%s := sample(%s, %d, 2, 3)\n", p, d, i)
				ins = append(ins, p)
			}
			var rest []string
			for i, p := range ps {
				if i != op.Receiver {
					rest = append(rest, p)
				}
			}
			recv := ps[op.Receiver]
			args := strings.Join(ins, ", ")
			rargs := strings.Join(rest, ", ")
			opts := []string{""}
			if v := optionValue(op); v != "" {
				opts = append(opts, v)
			}
			for _, o := range opts {
				oa, ra := args, rargs
				if o != "" {
					oa += ", " + o
					if ra != "" {
						ra += ", "
					}
					ra += o
				}
				printf(&w, "{\nwant := onRef(tensor.%s, %s)\n", op.Go, oa)
				printf(&w, "same(t, \"%s\", tensor.%s(%s), want)\n", op.Go, op.Go, oa)
				printf(&w, "same(t, \"method\", %s.%s(%s), want)\n", recv, op.Go, ra)
				printf(&w, "dst := tensor.Empty(want.DType(), 0)\nsame(t, \"To\", tensor.%sTo(dst, %s), want)\nsame(t, \"To's dst\", dst, want)\n", op.Go, oa)
				printf(&w, "if dtype.CanCast(want.DType(), %s.DType()) {\nc := %s.Clone()\nwantIn := want.To(c.DType())\nsame(t, \"InPlace\", c.%sInPlace(%s), wantIn)\nsame(t, \"InPlace's receiver\", c, wantIn)\n}\n}\n", recv, recv, op.Go, ra)
			}
		case optable.Reduction:
			printf(&w, "x := sample(%s, 0, 2, 3)\n", dt)
			if op.Outputs == 2 {
				printf(&w, "v, i := tensor.%s(x)\nwv, wi := onRef2(func(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) { return tensor.%s(x) }, x)\nsame(t, \"values\", v, wv)\nsame(t, \"indices\", i, wi)\n", op.Go, op.Go)
				printf(&w, "wv, wi = onRef2(func(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) { return x.%s(tensor.Over(1).KeepDim()) }, x)\nv, i = x.%s(tensor.Over(1).KeepDim())\nsame(t, \"method values\", v, wv)\nsame(t, \"method indices\", i, wi)\n", op.Go, op.Go)
				printf(&w, "dv, di := tensor.Empty(wv.DType(), 0), tensor.Empty(dtype.Int64, 0)\ntensor.%sTo(dv, di, x, tensor.Over(1).KeepDim())\nsame(t, \"To values\", dv, wv)\nsame(t, \"To indices\", di, wi)\n", op.Go)
				break
			}
			printf(&w, "want := onRef(tensor.%s, x)\nsame(t, \"%s\", tensor.%s(x), want)\n", op.Go, op.Go, op.Go)
			printf(&w, "want = onRef(func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { return x.%s(o...) }, x, tensor.Over(1))\nsame(t, \"method\", x.%s(tensor.Over(1)), want)\n", op.Go, op.Go)
			printf(&w, "dst := tensor.Empty(want.DType(), 0)\nsame(t, \"To\", tensor.%sTo(dst, x, tensor.Over(1)), want)\nsame(t, \"To's dst\", dst, want)\n", op.Go)
		default:
			printf(&w, "x := sample(%s, 0, 2, 3)\n", dt)
			if op.Outputs == 2 {
				printf(&w, "wv, wi := onRef2(func(x *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) { return tensor.%s(x, tensor.Over(1)) }, x)\n", op.Go)
				printf(&w, "v, i := tensor.%s(x, tensor.Over(1))\nsame(t, \"values\", v, wv)\nsame(t, \"indices\", i, wi)\n", op.Go)
				printf(&w, "v, i = x.%s(tensor.Over(1))\nsame(t, \"method values\", v, wv)\nsame(t, \"method indices\", i, wi)\n", op.Go)
				printf(&w, "dv, di := tensor.Empty(wv.DType(), 0), tensor.Empty(dtype.Int64, 0)\ntensor.%sTo(dv, di, x, tensor.Over(1))\nsame(t, \"To values\", dv, wv)\nsame(t, \"To indices\", di, wi)\n", op.Go)
				break
			}
			printf(&w, "want := onRef(func(x *tensor.Tensor, o ...tensor.Dims) *tensor.Tensor { return tensor.%s(x, o[0]) }, x, tensor.Over(1))\n", op.Go)
			printf(&w, "same(t, \"%s\", tensor.%s(x, tensor.Over(1)), want)\nsame(t, \"method\", x.%s(tensor.Over(1)), want)\n", op.Go, op.Go, op.Go)
			printf(&w, "dst := tensor.Empty(want.DType(), 0)\nsame(t, \"To\", tensor.%sTo(dst, x, tensor.Over(1)), want)\nsame(t, \"To's dst\", dst, want)\n", op.Go)
		}
		w.WriteString("})\n")
	}
	w.WriteString("}\n")
	return w.Bytes()
}

// conformOps writes the conformance runner's table of the generated API
// (internal/conform/zz_ops.go): each elementwise op without options,
// reduction and scan of the table by PyTorch's name, so that the runner
// reaches every such op of the table without a hand-kept list.
func conformOps() []byte {
	var w bytes.Buffer
	w.WriteString(header("conform"))
	w.WriteString("import \"github.com/goten-ml/goten/tensor\"\n\n")
	var unary, binary, reds, scans []*optable.Op
	for _, op := range apiOps() {
		switch {
		case op.Kind == optable.Pointwise && op.Alpha == "" && op.Options == "" && op.Arity == 1:
			unary = append(unary, op)
		case op.Kind == optable.Pointwise && op.Alpha == "" && op.Options == "" && op.Arity == 2:
			binary = append(binary, op)
		case op.Kind == optable.Reduction:
			reds = append(reds, op)
		case op.Kind == optable.Scan || op.Kind == optable.Row:
			scans = append(scans, op)
		}
	}
	w.WriteString("// unaryOps are the table's elementwise ops of one input without options.\nvar unaryOps = map[string]unary{\n")
	for _, op := range unary {
		printf(&w, "%q: {tensor.%s, tensor.%sTo, (*tensor.Tensor).%sInPlace},\n", op.Name, op.Go, op.Go, op.Go)
	}
	w.WriteString("}\n\n// binaryOps are the table's elementwise ops of two inputs without options.\nvar binaryOps = map[string]binary{\n")
	for _, op := range binary {
		printf(&w, "%q: {tensor.%s, tensor.%sTo, (*tensor.Tensor).%sInPlace},\n", op.Name, op.Go, op.Go, op.Go)
	}
	w.WriteString("}\n\n// reductions are the table's reductions.\nvar reductions = map[string]reduction{\n")
	for _, op := range reds {
		if op.Outputs == 2 {
			printf(&w, "%q: {fn2: tensor.%s, to2: tensor.%sTo, keyword: %q, oneDim: %v},\n", op.Name, op.Go, op.Go, op.Keyword, op.OneDim)
		} else {
			printf(&w, "%q: {fn: tensor.%s, to: tensor.%sTo, keyword: %q, oneDim: %v},\n", op.Name, op.Go, op.Go, op.Keyword, op.OneDim)
		}
	}
	w.WriteString("}\n\n// scans are the table's scans and row ops along one dim.\nvar scans = map[string]scanOp{\n")
	for _, op := range scans {
		if op.Outputs == 2 {
			printf(&w, "%q: {fn2: tensor.%s, to2: tensor.%sTo},\n", op.Name, op.Go, op.Go)
		} else {
			printf(&w, "%q: {fn: tensor.%s, to: tensor.%sTo},\n", op.Name, op.Go, op.Go)
		}
	}
	w.WriteString("}\n")
	return w.Bytes()
}
