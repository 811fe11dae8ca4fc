package main

import (
	"bytes"
	"fmt"
	"strings"
)

// Note [Generated reductions]
//
// A reduction is given to the generic reduce kernel (backend/cpu/reduce.go)
// as four pieces, written once per op below over an accumulator state $s:
//
//	init     $s = the value over no elements
//	acc      fold the element $v, at index $i along the reduced dim, into $s
//	combine  fold the state $o of later elements into $s
//	project  the result written for $s (the context c gives the count
//	         c.n, the correction, p, ...)
//
// From them this file writes, per op and loop type, the row functions the
// kernel calls: init (n states), row (fold a strided row into one state,
// with a contiguous fast path that splits associative ops into four partial
// states for instruction-level parallelism), cols (fold element k of a row
// into state k: an outer reduction, across outputs), combine (n states)
// and project (n states into n results), and the table [op][loop dtype].
// The kernel calls them per row, never per element. Hand-written row
// functions replace generated ones where a better algorithm exists (SIMD
// sums, two-pass Welford blocks): rowOver and colsOver name them.

// redVar is one family of loop types of a reduction sharing its pieces.
type redVar struct {
	types   []string
	state   string // Go type of the state ($T is the loop type)
	init    string // statement
	acc     string // statement
	combine string // statement
	project string // expression of type out
	out     string // Go type of the result; "" means T
	index   bool   // project also writes $s.i, the int64 index (Max, Min)
	split   bool   // acc is associative and commutative: contiguous rows use four partial states
	cascade bool   // the kernel folds blocks of rows and combines them pairwise (float sums)
	// rowOver, colsOver and combineOver name hand-written replacements (a
	// format with %s for the loop type), by loop type; "*" matches every type.
	rowOver, colsOver, combineOver map[string]string
}

type redOp struct {
	id   string // the reduction's name in the kernel: red<id>
	vars []redVar
}

func with(v redVar, f func(*redVar)) redVar { f(&v); return v }

var (
	sumVar = redVar{state: "T", init: "$s = 0", acc: "$s += $v", combine: "$s += $o", project: "$s", split: true}
	// float32 sums accumulate in float64 (Note [Cascade sums] in backend/cpu).
	sumF32 = with(sumVar, func(v *redVar) {
		v.types, v.state, v.acc, v.project = []string{"float32"}, "float64", "$s += float64($v)", "T($s)"
		v.rowOver = map[string]string{"float32": "rowSumF32"}
		v.colsOver = map[string]string{"float32": "colsSumF32"}
		v.combineOver = map[string]string{"float32": "combineSumF64"}
	})
	sumF64 = with(sumVar, func(v *redVar) {
		v.types, v.cascade = []string{"float64"}, true
		v.rowOver = map[string]string{"float64": "rowSumF64"}
		v.colsOver = map[string]string{"float64": "colsSumF64"}
		v.combineOver = map[string]string{"float64": "combineSumF64"}
	})
	sumI     = with(sumVar, func(v *redVar) { v.types = tI })
	maxF     = redVar{types: tF, state: "T", init: "$s = T(math.Inf(-1))", acc: "if $v > $s || $v != $v { $s = $v }", combine: "if $o > $s || $o != $o { $s = $o }", project: "$s", split: true, rowOver: map[string]string{"*": "rowAmax[%s]"}}
	minF     = redVar{types: tF, state: "T", init: "$s = T(math.Inf(1))", acc: "if $v < $s || $v != $v { $s = $v }", combine: "if $o < $s || $o != $o { $s = $o }", project: "$s", split: true, rowOver: map[string]string{"*": "rowAmin[%s]"}}
	maxI     = redVar{types: tI, state: "T", init: "$s = lowest[T]()", acc: "$s = max($s, $v)", combine: "$s = max($s, $o)", project: "$s", split: true}
	minI     = redVar{types: tI, state: "T", init: "$s = highest[T]()", acc: "$s = min($s, $v)", combine: "$s = min($s, $o)", project: "$s", split: true}
	maxB     = redVar{types: tB, state: "T", init: "$s = false", acc: "$s = $s || $v", combine: "$s = $s || $o", project: "$s"}
	minB     = redVar{types: tB, state: "T", init: "$s = true", acc: "$s = $s && $v", combine: "$s = $s && $o", project: "$s"}
	argInit  = "$s = argState[T]{v: lowest[T]()}"
	argInitM = "$s = argState[T]{v: highest[T]()}"
	// Ties keep the earlier index; the first NaN wins over any number.
	argMaxF = redVar{types: tF, state: "argState[T]", init: argInit, acc: "if $v > $s.v || $v != $v && $s.v == $s.v { $s.v, $s.i = $v, int64($i) }",
		combine: "if $o.v > $s.v || $o.v != $o.v && $s.v == $s.v { $s = $o }", project: "$s.v", index: true, rowOver: map[string]string{"*": "rowArgMax[%s]"}}
	argMinF = redVar{types: tF, state: "argState[T]", init: argInitM, acc: "if $v < $s.v || $v != $v && $s.v == $s.v { $s.v, $s.i = $v, int64($i) }",
		combine: "if $o.v < $s.v || $o.v != $o.v && $s.v == $s.v { $s = $o }", project: "$s.v", index: true, rowOver: map[string]string{"*": "rowArgMin[%s]"}}
	argMaxI = redVar{types: tI, state: "argState[T]", init: argInit, acc: "if $v > $s.v { $s.v, $s.i = $v, int64($i) }",
		combine: "if $o.v > $s.v { $s = $o }", project: "$s.v", index: true}
	argMinI = redVar{types: tI, state: "argState[T]", init: argInitM, acc: "if $v < $s.v { $s.v, $s.i = $v, int64($i) }",
		combine: "if $o.v < $s.v { $s = $o }", project: "$s.v", index: true}
	argMaxB = redVar{types: tB, state: "argState[T]", init: "$s = argState[T]{}", acc: "if $v && !$s.v { $s.v, $s.i = true, int64($i) }",
		combine: "if $o.v && !$s.v { $s = $o }", project: "$s.v", index: true}
	argMinB = redVar{types: tB, state: "argState[T]", init: "$s = argState[T]{v: true}", acc: "if !$v && $s.v { $s.v, $s.i = false, int64($i) }",
		combine: "if !$o.v && $s.v { $s = $o }", project: "$s.v", index: true}
	welfordF = redVar{types: tF, state: "welford", init: "$s = welford{}", acc: "$s.add(float64($v))", combine: "$s.merge($o)",
		project: "T(c.variance($s))", cascade: true,
		rowOver: map[string]string{"*": "rowWelford[%s]"}, colsOver: map[string]string{"*": "colsWelford[%s]"}}
	normF = redVar{types: tF, state: "float64", init: "$s = 0", combine: "$s += $o", project: "T($s)", split: true, cascade: true}
	allB  = redVar{types: tB, state: "T", init: "$s = true", acc: "$s = $s && $v", combine: "$s = $s && $o", project: "bool($s)", out: "bool"}
	anyB  = redVar{types: tB, state: "T", init: "$s = false", acc: "$s = $s || $v", combine: "$s = $s || $o", project: "bool($s)", out: "bool"}
	cntB  = redVar{types: tB, state: "int64", init: "$s = 0", acc: "if $v { $s++ }", combine: "$s += $o", project: "$s", out: "int64", split: true}
)

func nanSum(v redVar) redVar {
	v.acc = strings.Replace(v.acc, "$s +=", "if $v == $v { $s +=", 1) + " }"
	v.rowOver, v.colsOver, v.combineOver = nil, nil, nil
	return v
}

func mean(v redVar) redVar {
	v.project = "T(c.mean(float64($s)))"
	return v
}

func argOnly(v redVar) redVar {
	v.project, v.out, v.index = "$s.i", "int64", false
	return v
}

// redOps lists every reduction the kernel runs; kernel codes map onto them
// (Norm by its p, Mean onto a sum with another project, ...).
var redOps = []redOp{
	{"Sum", []redVar{sumI, sumF32, sumF64}},
	{"NanSum", []redVar{sumI, nanSum(sumF32), nanSum(sumF64)}},
	{"Mean", []redVar{mean(sumF32), mean(sumF64)}},
	{"Prod", []redVar{{types: tN, state: "T", init: "$s = 1", acc: "$s *= $v", combine: "$s *= $o", project: "$s", split: true}}},
	{"Amax", []redVar{maxB, maxI, maxF}},
	{"Amin", []redVar{minB, minI, minF}},
	{"Max", []redVar{argMaxB, argMaxI, argMaxF}},
	{"Min", []redVar{argMinB, argMinI, argMinF}},
	{"ArgMax", []redVar{argOnly(argMaxB), argOnly(argMaxI), argOnly(argMaxF)}},
	{"ArgMin", []redVar{argOnly(argMinB), argOnly(argMinI), argOnly(argMinF)}},
	{"Var", []redVar{welfordF}},
	{"Std", []redVar{with(welfordF, func(v *redVar) { v.project = "T(math.Sqrt(c.variance($s)))" })}},
	{"Norm0", []redVar{with(normF, func(v *redVar) { v.acc = "if $v != 0 { $s++ }"; v.cascade = false })}},
	{"Norm1", []redVar{with(normF, func(v *redVar) { v.acc = "$s += math.Abs(float64($v))" })}},
	{"Norm2", []redVar{with(normF, func(v *redVar) {
		v.acc = "$s += float64($v) * float64($v)"
		v.project = "T(math.Sqrt($s))"
	})}},
	{"NormP", []redVar{with(normF, func(v *redVar) {
		v.acc = "$s += math.Pow(math.Abs(float64($v)), c.p)"
		v.project = "T(math.Pow($s, 1/c.p))"
	})}},
	{"NormInf", []redVar{{types: tF, state: "T", init: "$s = 0", acc: "if a := abs($v); a > $s || a != a { $s = a }",
		combine: "if $o > $s || $o != $o { $s = $o }", project: "$s", split: true}}},
	{"NormNegInf", []redVar{{types: tF, state: "T", init: "$s = T(math.Inf(1))", acc: "if a := abs($v); a < $s || a != a { $s = a }",
		combine: "if $o < $s || $o != $o { $s = $o }", project: "$s", split: true}}},
	{"LogSumExp", []redVar{{types: tF, state: "lse", init: "$s = lse{m: math.Inf(-1)}", acc: "$s.add(float64($v))",
		combine: "$s.merge($o)", project: "T($s.value())"}}},
	{"All", []redVar{allB, with(allB, func(v *redVar) { v.types, v.state, v.project, v.acc = tN, "bool", "$s", "$s = $s && $v != 0" })}},
	{"Any", []redVar{anyB, with(anyB, func(v *redVar) { v.types, v.state, v.project, v.acc = tN, "bool", "$s", "$s = $s || $v != 0" })}},
	{"CountNonzero", []redVar{cntB, with(cntB, func(v *redVar) { v.types, v.acc = tN, "if $v != 0 { $s++ }" })}},
}

// reds lists the reduction, scan and row codes with PyTorch's names, for
// the codeNames table (zz_pointwise.go).
var reds = []struct{ code, name string }{
	{"Sum", "sum"}, {"Prod", "prod"}, {"Amax", "amax"}, {"Amin", "amin"}, {"Mean", "mean"},
	{"NanSum", "nansum"}, {"Max", "max"}, {"Min", "min"}, {"ArgMax", "argmax"}, {"ArgMin", "argmin"},
	{"Var", "var"}, {"Std", "std"}, {"Norm", "norm"}, {"LogSumExp", "logsumexp"}, {"All", "all"},
	{"Any", "any"}, {"CountNonzero", "count_nonzero"}, {"CumSum", "cumsum"}, {"CumProd", "cumprod"},
	{"CumMax", "cummax"}, {"CumMin", "cummin"}, {"LogCumSumExp", "logcumsumexp"}, {"Softmax", "softmax"},
	{"LogSoftmax", "log_softmax"}, {"LayerNorm", "layer_norm"},
}

// sub replaces the placeholders of a piece.
func sub(piece string, kv ...string) string {
	return strings.NewReplacer(kv...).Replace(piece)
}

func genReduce() []byte {
	var w bytes.Buffer
	w.WriteString(header)
	w.WriteString("import (\n\"math\"\n\"unsafe\"\n\n\"github.com/goten-ml/goten/dtype\"\n)\n\n")
	w.WriteString("// The reductions of the generic reduce kernel (Note [Generated reductions]).\nconst (\n")
	for i, o := range redOps {
		if i == 0 {
			fmt.Fprintf(&w, "red%s redID = iota\n", o.id)
		} else {
			fmt.Fprintf(&w, "red%s\n", o.id)
		}
	}
	w.WriteString("numRed\n)\n\n")
	for _, o := range redOps {
		for vi, vr := range o.vars {
			emitRed(&w, o, vi, vr)
		}
	}
	w.WriteString("// redTable is the dispatch table [reduction][loop dtype].\nvar redTable = [numRed][dtype.Count]redFuncs{\n")
	for _, o := range redOps {
		fmt.Fprintf(&w, "red%s: {\n", o.id)
		for _, t := range loopTypes {
			for vi, vr := range o.vars {
				if !contains(vr.types, t) {
					continue
				}
				name := fmt.Sprintf("%s%d", o.id, vi)
				st := strings.ReplaceAll(vr.state, "T", t)
				out := vr.out
				if out == "" {
					out = t
				}
				row, cols := fmt.Sprintf("row%s[%s]", name, t), fmt.Sprintf("cols%s[%s]", name, t)
				if f := redOver(vr.rowOver, t); f != "" {
					row = f
				}
				if f := redOver(vr.colsOver, t); f != "" {
					cols = f
				}
				combine := fmt.Sprintf("combine%s[%s]", name, t)
				if f := redOver(vr.combineOver, t); f != "" {
					combine = f
				}
				fmt.Fprintf(&w, "dtype.%s: {size: int(unsafe.Sizeof(*new(%s))), out: dtype.%s, index: %v, cascade: %v,\n", dtypeOf[t], st, dtypeOf[out], vr.index, vr.cascade)
				fmt.Fprintf(&w, "init: init%s[%s], row: %s, cols: %s, combine: %s, project: project%s[%s]},\n", name, t, row, cols, combine, name, t)
			}
		}
		w.WriteString("},\n")
	}
	w.WriteString("}\n")
	return w.Bytes()
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func redOver(m map[string]string, t string) string {
	if f, ok := m[t]; ok {
		return f
	}
	if f, ok := m["*"]; ok {
		return fmt.Sprintf(f, t)
	}
	return ""
}

// emitRed writes the five row functions of one variant.
func emitRed(w *bytes.Buffer, o redOp, vi int, vr redVar) {
	name := fmt.Sprintf("%s%d", o.id, vi)
	cons := constraint(vr.types)
	st := vr.state
	out := vr.out
	if out == "" {
		out = "T"
	}
	// init
	fmt.Fprintf(w, "// init%s sets n states of red%s to the value over no elements: %s.\n", name, o.id, vr.init)
	fmt.Fprintf(w, "func init%s[T %s](st unsafe.Pointer, n int) {\nss := unsafe.Slice((*%s)(st), n)\nfor k := range ss {\n%s\n}\n}\n\n",
		name, cons, st, sub(vr.init, "$s", "ss[k]"))
	// row
	fmt.Fprintf(w, "// row%s folds n elements of a row (byte stride is, indices idx…) into one state: %s.\n", name, vr.acc)
	fmt.Fprintf(w, "func row%s[T %s](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {\n", name, cons)
	fmt.Fprintf(w, "s := *(*%s)(st)\nvar z T\nif is == int(unsafe.Sizeof(z)) {\nx := unsafe.Slice((*T)(in), n)\n", st)
	if vr.split {
		fmt.Fprintf(w, "if len(x) >= 16 {\nvar s0, s1, s2, s3 %s\n", st)
		for _, p := range []string{"s0", "s1", "s2", "s3"} {
			w.WriteString(sub(vr.init, "$s", p) + "\n")
		}
		w.WriteString("k := 0\nfor ; k+4 <= len(x); k += 4 {\n")
		for j, p := range []string{"s0", "s1", "s2", "s3"} {
			w.WriteString(sub(vr.acc, "$s", p, "$v", fmt.Sprintf("x[k+%d]", j), "$i", fmt.Sprintf("(idx + k + %d)", j)) + "\n")
		}
		w.WriteString("}\n")
		w.WriteString(sub(vr.combine, "$s", "s0", "$o", "s1") + "\n" + sub(vr.combine, "$s", "s2", "$o", "s3") + "\n" +
			sub(vr.combine, "$s", "s0", "$o", "s2") + "\n" + sub(vr.combine, "$s", "s", "$o", "s0") + "\n")
		w.WriteString("x = x[k:]\nidx += k\n}\n")
	}
	fmt.Fprintf(w, "for k, v := range x {\n_ = k\n%s\n}\n", sub(vr.acc, "$s", "s", "$v", "v", "$i", "(idx + k)"))
	fmt.Fprintf(w, "} else {\nfor k := 0; k < n; k++ {\nv := *(*T)(unsafe.Add(in, k*is))\n%s\n}\n}\n", sub(vr.acc, "$s", "s", "$v", "v", "$i", "(idx + k)"))
	fmt.Fprintf(w, "*(*%s)(st) = s\n_ = c\n}\n\n", st)
	// cols
	fmt.Fprintf(w, "// cols%s folds element k of a row (byte stride is, index idx) into state k, k < n.\n", name)
	fmt.Fprintf(w, "func cols%s[T %s](st, in unsafe.Pointer, is, n, idx int, c *redCtx) {\n", name, cons)
	fmt.Fprintf(w, "ss := unsafe.Slice((*%s)(st), n)\nvar z T\nif is == int(unsafe.Sizeof(z)) {\nx := unsafe.Slice((*T)(in), n)\nx = x[:len(ss)]\n", st)
	fmt.Fprintf(w, "for k := range ss {\n%s\n}\nreturn\n}\n", sub(vr.acc, "$s", "ss[k]", "$v", "x[k]", "$i", "idx"))
	fmt.Fprintf(w, "for k := range ss {\nv := *(*T)(unsafe.Add(in, k*is))\n%s\n}\n_ = c\n}\n\n", sub(vr.acc, "$s", "ss[k]", "$v", "v", "$i", "idx"))
	// combine
	fmt.Fprintf(w, "// combine%s folds state k of src (later elements) into state k of dst: %s.\n", name, vr.combine)
	fmt.Fprintf(w, "func combine%s[T %s](dst, src unsafe.Pointer, n int, c *redCtx) {\n", name, cons)
	fmt.Fprintf(w, "d, o := unsafe.Slice((*%s)(dst), n), unsafe.Slice((*%s)(src), n)\no = o[:len(d)]\nfor k := range d {\n%s\n}\n_ = c\n}\n\n",
		st, st, sub(vr.combine, "$s", "d[k]", "$o", "o[k]"))
	// project
	fmt.Fprintf(w, "// project%s writes the results of n states: %s", name, vr.project)
	if vr.index {
		w.WriteString(", and their indices")
	}
	w.WriteString(".\n")
	fmt.Fprintf(w, "func project%s[T %s](dst, dsti, st unsafe.Pointer, n int, c *redCtx) {\n", name, cons)
	fmt.Fprintf(w, "ss := unsafe.Slice((*%s)(st), n)\nr := unsafe.Slice((*%s)(dst), n)\nr = r[:len(ss)]\n", st, out)
	if vr.index {
		w.WriteString("ri := unsafe.Slice((*int64)(dsti), n)\nri = ri[:len(ss)]\n")
	}
	fmt.Fprintf(w, "for k := range ss {\nr[k] = %s\n", sub(vr.project, "$s", "ss[k]"))
	if vr.index {
		w.WriteString("ri[k] = ss[k].i\n")
	}
	w.WriteString("}\n_ = c\n}\n\n")
}
