package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
)

// refType returns the type the reference backend evaluates a family of
// loop dtypes in for compute dtype d: float64 for every float compute
// dtype (then rounded), else d's own type.
func refType(s optable.DTypes, d dtype.DType) string {
	if d.IsFloat() && s.Has(dtype.Float64) {
		return "float64"
	}
	if d.IsReduced() {
		return "float32"
	}
	return goType(d)
}

// refCases groups the compute dtypes by the family and type the reference
// backend evaluates them in: for each, the case list and the family index.
func refCases(types func(d dtype.DType) int, fam func(i int) optable.DTypes) [][3]string {
	groups := map[string]int{}
	var out [][3]string
	for _, d := range dtype.All {
		ld := d
		if d.IsReduced() {
			ld = dtype.Float32
		}
		i := types(ld)
		if i < 0 {
			continue
		}
		t := refType(fam(i), d)
		key := fmt.Sprintf("%d/%s", i, t)
		if g, ok := groups[key]; ok {
			out[g][0] += ", " + dtypeName(d)
			continue
		}
		groups[key] = len(out)
		out = append(out, [3]string{dtypeName(d), fmt.Sprint(i), t})
	}
	return out
}

func refEval() []byte {
	var w bytes.Buffer
	w.WriteString(header("ref"))
	w.WriteString("import (\n\"math\"\n\n\"github.com/goten-ml/goten/dtype\"\n\"github.com/goten-ml/goten/kernel\"\n\"github.com/goten-ml/goten/optable\"\n\"github.com/goten-ml/goten/optable/elem\"\n)\n\n")
	w.WriteString("var _ = math.Abs\n\n")
	var inits []string
	names := []string{"a", "b", "c"}
	for _, op := range ops(optable.Pointwise) {
		for i, l := range op.Loops {
			fname := fmt.Sprintf("elem%s%d", op.Go, i)
			var params []string
			for k := 0; k < op.Arity; k++ {
				t := "T"
				if k == 0 && op.CondBool {
					t = "bool"
				}
				params = append(params, names[k]+" "+t)
			}
			out := "T"
			if op.OutBool {
				out = "bool"
			}
			printf(&w, "// %s is %s of one element of %s: %s.\n", fname, op.Name, strings.ReplaceAll(constraint(l.Types), " |", ","), l.Expr)
			printf(&w, "func %s[T %s](%s, args *kernel.Args) %s {\n", fname, constraint(l.Types), strings.Join(params, ", "), out)
			if l.UnitIf != "" {
				printf(&w, "if %s {\nreturn %s\n}\n", l.UnitIf, l.UnitExpr)
			}
			if l.Pre != "" {
				w.WriteString(l.Pre + "\n")
			} else {
				w.WriteString("_ = args\n")
			}
			printf(&w, "return %s(%s)\n}\n\n", out, l.Expr)
		}
		printf(&w, "// eval%s computes %s of one element in compute dtype d.\n", op.Go, op.Name)
		printf(&w, "func eval%s(x *[3]value, d dtype.DType, args *kernel.Args) (value, bool, bool) {\nswitch d {\n", op.Go)
		find := func(d dtype.DType) int {
			for i, l := range op.Loops {
				if l.Types.Has(d) {
					return i
				}
			}
			return -1
		}
		for _, c := range refCases(find, func(i int) optable.DTypes { return op.Loops[i].Types }) {
			var args []string
			for k := 0; k < op.Arity; k++ {
				t := c[2]
				if k == 0 && op.CondBool {
					t = "bool"
				}
				args = append(args, fmt.Sprintf("as[%s](x[%d])", t, k))
			}
			printf(&w, "case %s:\nreturn result(elem%s%s[%s](%s, args))\n", c[0], op.Go, c[1], c[2], strings.Join(args, ", "))
		}
		w.WriteString("}\nreturn value{}, false, false\n}\n\n")
		inits = append(inits, fmt.Sprintf("evals[optable.%s.Code] = eval%s", op.Go, op.Go))
	}
	for _, op := range ops(optable.Reduction) {
		if len(op.Folds) == 0 {
			continue
		}
		for i, f := range op.Folds {
			fname := fmt.Sprintf("fold%s%d", op.Go, i)
			out := f.Out
			if out == "" {
				out = "T"
			}
			idx := "0"
			if f.Index {
				idx = "s.I"
			}
			printf(&w, "// %s folds a list of elements in order: %s; then %s.\n", fname, f.Acc, f.Project)
			printf(&w, "func %s[T %s](l []item, c *elem.Ctx) (%s, int64) {\nvar s %s\n%s\nfor _, it := range l {\nv := as[T](it.v)\n%s\n}\nreturn %s, %s\n}\n\n",
				fname, constraint(f.Types), out, f.State, sub(f.Init, "$s", "s"), sub(f.Acc, "$s", "s", "$v", "v", "$i", "it.idx"), sub(f.Project, "$s", "s"), idx)
		}
		printf(&w, "// reduce%s folds a list of elements of %s in compute dtype d.\n", op.Go, op.Name)
		printf(&w, "func reduce%s(l []item, d dtype.DType, c *elem.Ctx) (value, int64, bool, bool) {\nswitch d {\n", op.Go)
		find := func(d dtype.DType) int { return foldFor(op, d) }
		for _, c := range refCases(find, func(i int) optable.DTypes { return op.Folds[i].Types }) {
			printf(&w, "case %s:\nreturn foldResult(fold%s%s[%s](l, c))\n", c[0], op.Go, c[1], c[2])
		}
		w.WriteString("}\nreturn value{}, 0, false, false\n}\n\n")
		inits = append(inits, fmt.Sprintf("reductions[optable.%s.Code] = reduce%s", op.Go, op.Go))
	}
	for _, op := range ops(optable.Scan) {
		for i, f := range op.Folds {
			fname := fmt.Sprintf("scan%s%d", op.Go, i)
			appendIdx := ""
			if f.Index {
				appendIdx = "is = append(is, s.I)\n"
			}
			printf(&w, "// %s scans a row in order: %s; y = %s.\n", fname, f.Acc, f.Project)
			printf(&w, "func %s[T %s](l []item) (ys []T, is []int64) {\nvar s %s\n%s\nfor _, it := range l {\nv := as[T](it.v)\n%s\nys = append(ys, %s)\n%s}\nreturn ys, is\n}\n\n",
				fname, constraint(f.Types), f.State, sub(f.Init, "$s", "s"), sub(f.Acc, "$s", "s", "$v", "v", "$i", "it.idx"), sub(f.Project, "$s", "s"), appendIdx)
		}
		printf(&w, "// scan%s scans a row of %s in compute dtype d.\n", op.Go, op.Name)
		printf(&w, "func scan%s(l []item, d dtype.DType) ([]value, []int64, bool, bool) {\nswitch d {\n", op.Go)
		find := func(d dtype.DType) int { return foldFor(op, d) }
		for _, c := range refCases(find, func(i int) optable.DTypes { return op.Folds[i].Types }) {
			printf(&w, "case %s:\nreturn scanResult(scan%s%s[%s](l))\n", c[0], op.Go, c[1], c[2])
		}
		w.WriteString("}\nreturn nil, nil, false, false\n}\n\n")
		inits = append(inits, fmt.Sprintf("scans[optable.%s.Code] = scan%s", op.Go, op.Go))
	}
	w.WriteString("// init fills the reference backend's tables by op code.\nfunc init() {\n")
	w.WriteString(strings.Join(inits, "\n"))
	w.WriteString("\n}\n")
	return w.Bytes()
}
