package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/goten-ml/goten/optable"
)

// Note [Generated derivatives]
//
// Each op's Grad expressions (optable.Op.Grad) become one function of
// package tensor, gradOp, that sets c.out[i] for every input i the node
// needs a gradient for, and an entry of the derivatives table that says
// which tensors each expression reads (inputs, result, indices), so that
// recording saves those and no others. Names an expression reads are found
// by scanning it for identifiers not preceded by a dot.

// gradNames returns the names of op's inputs in its Grad expressions.
func gradNames(op *optable.Op) []string {
	switch {
	case op.Params != nil:
		return op.Params
	case op.Arity == 1:
		return []string{"x"}
	}
	return []string{"a", "b"}
}

var identRE = regexp.MustCompile(`\.?\b[A-Za-z_][A-Za-z_0-9]*\b`)

// reads returns the identifiers expr reads (not selectors).
func reads(expr string) map[string]bool {
	r := map[string]bool{}
	for _, id := range identRE.FindAllString(expr, -1) {
		if !strings.HasPrefix(id, ".") {
			r[id] = true
		}
	}
	return r
}

// Bits of a derivative's reads mask beside one bit per input.
const (
	readsResult  = 1 << 6
	readsIndices = 1 << 7
)

func tensorGrads() []byte {
	var w bytes.Buffer
	w.WriteString(header("tensor"))
	var body, inits bytes.Buffer
	usesMath := false
	for _, op := range optable.Ops[1:] {
		if op.Grad == nil {
			continue
		}
		names := gradNames(op)
		if len(op.Grad) != len(names) {
			panic(fmt.Sprintf("%s: %d Grad expressions for %d inputs", op.Go, len(op.Grad), len(names)))
		}
		all := map[string]bool{}
		var masks []string
		for _, e := range op.Grad {
			rd := reads(e)
			mask := 0
			for k, n := range names {
				if rd[n] {
					mask |= 1 << k
				}
			}
			if rd["result"] {
				mask |= readsResult
			}
			if rd["indices"] {
				mask |= readsIndices
			}
			masks = append(masks, fmt.Sprintf("%#x", mask))
			for id := range rd {
				all[id] = true
			}
			usesMath = usesMath || rd["math"]
		}
		fname := "grad" + op.Go
		printf(&body, "// %s is the derivative of %s (optable.%s.Grad).\n", fname, op.Name, op.Go)
		printf(&body, "func %s(c *gradCall) {\n", fname)
		var decl, vals []string
		add := func(name, val string) {
			if all[name] {
				decl, vals = append(decl, name), append(vals, val)
			}
		}
		add("g", "c.g")
		for k, n := range names {
			add(n, fmt.Sprintf("c.in[%d]", k))
		}
		add("result", "c.result")
		add("indices", "c.indices")
		if len(decl) > 0 {
			printf(&body, "%s := %s\n", strings.Join(decl, ", "), strings.Join(vals, ", "))
		}
		for k, e := range op.Grad {
			if e == "" {
				continue
			}
			printf(&body, "if c.needs(%d) {\nc.out[%d] = %s\n}\n", k, k, e)
		}
		body.WriteString("}\n\n")
		printf(&inits, "derivatives[optable.%s.Code] = derivative{fn: %s, reads: []uint8{%s}}\n", op.Go, fname, strings.Join(masks, ", "))
	}
	std := ""
	if usesMath {
		std = "\"math\"\n\n"
	}
	printf(&w, "import (\n%s\"github.com/goten-ml/goten/optable\"\n)\n\n", std)
	w.WriteString("// The derivatives of the op table's ops (Note [Generated derivatives] in\n// internal/gen).\n\n")
	w.Write(body.Bytes())
	w.WriteString("func init() {\n")
	w.Write(inits.Bytes())
	w.WriteString("}\n")
	return w.Bytes()
}
