// Command gen writes the generated loops of package cpu (run by go generate
// in backend/cpu): zz_pointwise.go (one generic loop per op and type
// family, the operator written inline, and the dispatch table
// [code][loop dtype]), zz_reduce.go (the reduction rows and their table)
// and zz_cast.go (one conversion loop per pair of dtypes and the table
// [src][dst]).
//
// Each op's scalar expression is written once, in the tables below, over
// the input values a, b, c of the loop type T (Where: a is bool). Helpers
// the expressions call live in backend/cpu/scalar.go.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// Type families. A constraint lists exact types, never ~T: a float16 built
// on uint16 must never be added as an integer.
var (
	tB   = []string{"bool"}
	tU   = []string{"uint8"}
	tS   = []string{"int8", "int16", "int32", "int64"}
	tI   = cat(tU, tS)
	tF   = []string{"float32", "float64"}
	tSF  = cat(tS, tF)
	tN   = cat(tI, tF)
	tAll = cat(tB, tN)
)

func cat(l ...[]string) []string {
	var r []string
	for _, x := range l {
		r = append(r, x...)
	}
	return r
}

// variant is one family of loop types sharing an expression.
type variant struct {
	name  string   // suffix of the generated function
	types []string // loop element types
	pre   string   // statements run once per row (may use args and T)
	expr  string   // the result over a, b, c
	// unitCond, when set, selects unitExpr (a sibling loop without the
	// scalar argument) for the whole row: Add and Sub with alpha 1 skip a
	// multiply per element.
	unitCond, unitExpr string
}

func unit(vr variant, cond, expr string) variant {
	vr.unitCond, vr.unitExpr = cond, expr
	return vr
}

type opSpec struct {
	code     string // kernel.<code>
	name     string // PyTorch's name, for error messages
	arity    int
	outBool  bool
	condBool bool // input a is bool (Where)
	vars     []variant
	override map[string]string // loop type -> hand-written loop (backend/cpu/fast.go, fast_unary.go)
}

func v(name string, types []string, expr string) variant {
	return variant{name: name, types: types, expr: expr}
}

func vp(name string, types []string, pre, expr string) variant {
	return variant{name: name, types: types, pre: pre, expr: expr}
}

// mathF is a float op computed through float64 math and rounded to T.
func mathF(fn string) variant { return v("F", tF, "T(math."+fn+"(float64(a)))") }

func unary(code, name string, vars ...variant) opSpec {
	return opSpec{code: code, name: name, arity: 1, vars: vars}
}

func binary(code, name string, vars ...variant) opSpec {
	return opSpec{code: code, name: name, arity: 2, vars: vars}
}

func ternary(code, name string, vars ...variant) opSpec {
	return opSpec{code: code, name: name, arity: 3, vars: vars}
}

func boolOut(o opSpec) opSpec { o.outBool = true; return o }

func over(o opSpec, m map[string]string) opSpec { o.override = m; return o }

const (
	alphaI = "alpha := T(args.AlphaI)"
	alphaF = "alpha := T(args.AlphaF)"
)

var ops = []opSpec{
	// unary
	unary("Neg", "neg", v("N", tN, "-a")),
	unary("Abs", "abs", v("B", tB, "a"), v("U", tU, "a"), v("S", tS, "iabs(a)"), v("F", tF, "T(math.Abs(float64(a)))")),
	unary("Sign", "sign", v("B", tB, "a"), v("U", tU, "sgnU(a)"), v("SF", tSF, "sgn(a)")),
	over(unary("Exp", "exp", mathF("Exp")), map[string]string{"float32": "expF32"}),
	unary("Exp2", "exp2", mathF("Exp2")),
	unary("Expm1", "expm1", mathF("Expm1")),
	unary("Log", "log", v("F", tF, "T(logf64(float64(a)))")),
	unary("Log2", "log2", mathF("Log2")),
	unary("Log10", "log10", v("F", tF, "T(log10f64(float64(a)))")),
	unary("Log1p", "log1p", mathF("Log1p")),
	unary("Sqrt", "sqrt", mathF("Sqrt")),
	unary("Rsqrt", "rsqrt", v("F", tF, "T(1 / math.Sqrt(float64(a)))")),
	unary("Reciprocal", "reciprocal", v("F", tF, "1 / a")),
	unary("Square", "square", v("N", tN, "a * a")),
	unary("Sin", "sin", mathF("Sin")),
	unary("Cos", "cos", mathF("Cos")),
	unary("Tan", "tan", mathF("Tan")),
	unary("Asin", "asin", mathF("Asin")),
	unary("Acos", "acos", mathF("Acos")),
	unary("Atan", "atan", mathF("Atan")),
	unary("Sinh", "sinh", mathF("Sinh")),
	unary("Cosh", "cosh", mathF("Cosh")),
	over(unary("Tanh", "tanh", mathF("Tanh")), map[string]string{"float32": "tanhF32"}),
	unary("Asinh", "asinh", mathF("Asinh")),
	unary("Acosh", "acosh", mathF("Acosh")),
	unary("Atanh", "atanh", mathF("Atanh")),
	over(unary("Sigmoid", "sigmoid", v("F", tF, "T(sigmoid(float64(a)))")), map[string]string{"float32": "sigmoidF32"}),
	unary("Logit", "logit", vp("F", tF, "lo := T(args.Eps)\nhi := 1 - lo\nclamp := args.HasEps", "logit(a, lo, hi, clamp)")),
	unary("Relu", "relu", v("N", tN, "max(a, 0)")),
	over(unary("Gelu", "gelu", v("F", tF, "T(gelu(float64(a)))")), map[string]string{"float32": "geluF32"}),
	unary("GeluTanh", "gelu", v("F", tF, "T(geluTanh(float64(a)))")),
	unary("Silu", "silu", v("F", tF, "T(silu(float64(a)))")),
	unary("Erf", "erf", mathF("Erf")),
	unary("Erfc", "erfc", mathF("Erfc")),
	unary("Floor", "floor", mathF("Floor")),
	unary("Ceil", "ceil", mathF("Ceil")),
	unary("Round", "round", mathF("RoundToEven")),
	unary("Trunc", "trunc", mathF("Trunc")),
	unary("Frac", "frac", v("F", tF, "a - T(math.Trunc(float64(a)))")),
	boolOut(unary("LogicalNot", "logical_not", v("B", tB, "!a"), v("N", tN, "a == 0"))),
	unary("BitwiseNot", "bitwise_not", v("B", tB, "!a"), v("I", tI, "^a")),
	boolOut(unary("IsNan", "isnan", v("A", tAll, "a != a"))),
	boolOut(unary("IsInf", "isinf", v("BI", cat(tB, tI), "a != a"), v("F", tF, "math.IsInf(float64(a), 0)"))),
	boolOut(unary("IsFinite", "isfinite", v("BI", cat(tB, tI), "a == a"), v("F", tF, "a-a == 0"))),
	boolOut(unary("Signbit", "signbit", v("B", tB, "a && !a"), v("I", tI, "a < 0"), v("F", tF, "math.Signbit(float64(a))"))),

	// binary
	over(binary("Add", "add",
		vp("B", tB, "alpha := T(args.AlphaI != 0)", "a || (alpha && b)"),
		unit(vp("I", tI, alphaI, "a + alpha*b"), "args.AlphaI == 1", "a + b"),
		unit(vp("F", tF, alphaF, "a + alpha*b"), "args.AlphaF == 1", "a + b")),
		map[string]string{"float32": "addF32", "float64": "addF64"}),
	over(binary("Sub", "sub", unit(vp("I", tI, alphaI, "a - alpha*b"), "args.AlphaI == 1", "a - b"),
		unit(vp("F", tF, alphaF, "a - alpha*b"), "args.AlphaF == 1", "a - b")),
		map[string]string{"float32": "subF32", "float64": "subF64"}),
	over(binary("Mul", "mul", v("B", tB, "a && b"), v("N", tN, "a * b")),
		map[string]string{"float32": "mulF32", "float64": "mulF64"}),
	over(binary("Div", "div", v("F", tF, "a / b")),
		map[string]string{"float32": "divF32", "float64": "divF64"}),
	binary("DivTrunc", "div", v("I", tI, "divTrunc(a, b)"), v("F", tF, "T(math.Trunc(float64(a / b)))")),
	binary("DivFloor", "floor_divide", v("U", tU, "divTrunc(a, b)"), v("S", tS, "divFloor(a, b)"), v("F", tF, "divFloorF(a, b)")),
	binary("Remainder", "remainder", v("U", tU, "modTrunc(a, b)"), v("S", tS, "remI(a, b)"), v("F", tF, "remF(a, b)")),
	binary("Fmod", "fmod", v("I", tI, "modTrunc(a, b)"), v("F", tF, "T(math.Mod(float64(a), float64(b)))")),
	binary("Pow", "pow", v("U", tU, "powU(a, b)"), v("S", tS, "powS(a, b)"), v("F", tF, "T(math.Pow(float64(a), float64(b)))")),
	binary("Maximum", "maximum", v("B", tB, "a || b"), v("N", tN, "max(a, b)")),
	binary("Minimum", "minimum", v("B", tB, "a && b"), v("N", tN, "min(a, b)")),
	binary("Fmax", "fmax", v("B", tB, "a || b"), v("I", tI, "max(a, b)"), v("F", tF, "fmax(a, b)")),
	binary("Fmin", "fmin", v("B", tB, "a && b"), v("I", tI, "min(a, b)"), v("F", tF, "fmin(a, b)")),
	binary("Atan2", "atan2", v("F", tF, "T(math.Atan2(float64(a), float64(b)))")),
	binary("Hypot", "hypot", v("F", tF, "T(math.Hypot(float64(a), float64(b)))")),
	binary("Copysign", "copysign", v("F", tF, "T(math.Copysign(float64(a), float64(b)))")),
	boolOut(binary("Eq", "eq", v("A", tAll, "a == b"))),
	boolOut(binary("Ne", "ne", v("A", tAll, "a != b"))),
	boolOut(binary("Lt", "lt", v("B", tB, "!a && b"), v("N", tN, "a < b"))),
	boolOut(binary("Le", "le", v("B", tB, "!a || b"), v("N", tN, "a <= b"))),
	boolOut(binary("Gt", "gt", v("B", tB, "a && !b"), v("N", tN, "a > b"))),
	boolOut(binary("Ge", "ge", v("B", tB, "a || !b"), v("N", tN, "a >= b"))),
	boolOut(binary("LogicalAnd", "logical_and", v("B", tB, "a && b"), v("N", tN, "a != 0 && b != 0"))),
	boolOut(binary("LogicalOr", "logical_or", v("B", tB, "a || b"), v("N", tN, "a != 0 || b != 0"))),
	boolOut(binary("LogicalXor", "logical_xor", v("B", tB, "a != b"), v("N", tN, "(a != 0) != (b != 0)"))),
	binary("BitwiseAnd", "bitwise_and", v("B", tB, "a && b"), v("I", tI, "a & b")),
	binary("BitwiseOr", "bitwise_or", v("B", tB, "a || b"), v("I", tI, "a | b")),
	binary("BitwiseXor", "bitwise_xor", v("B", tB, "a != b"), v("I", tI, "a ^ b")),
	// Shift counts go through uint64: a negative count becomes a huge one,
	// so it never panics (a count ≥ the width gives 0, or the sign for >>).
	binary("ShiftLeft", "bitwise_left_shift", v("I", tI, "a << uint64(b)")),
	binary("ShiftRight", "bitwise_right_shift", v("I", tI, "a >> uint64(b)")),
	binary("ClampMin", "clamp_min", v("B", tB, "a || b"), v("N", tN, "max(a, b)")),
	binary("ClampMax", "clamp_max", v("B", tB, "a && b"), v("N", tN, "min(a, b)")),

	// ternary
	{code: "Where", name: "where", arity: 3, condBool: true, vars: []variant{v("A", tAll, "sel(a, b, c)")}},
	ternary("Clamp", "clamp", v("N", tN, "min(max(a, b), c)")),
	ternary("Addcmul", "addcmul", vp("I", tI, alphaI, "a + alpha*b*c"), vp("F", tF, alphaF, "a + alpha*b*c")),
	ternary("Addcdiv", "addcdiv", vp("F", tF, alphaF, "a + alpha*b/c")),
	ternary("Lerp", "lerp", v("F", tF, "lerp(a, b, c)")),
}

var dtypeOf = map[string]string{
	"bool": "Bool", "uint8": "Uint8", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
	"float16": "Float16", "bfloat16": "BFloat16", "float32": "Float32", "float64": "Float64",
}

var loopTypes = []string{"bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"}

const header = "// Code generated by go run ./internal/gen; DO NOT EDIT.\n\npackage cpu\n\n"

func main() {
	write("zz_pointwise.go", genPointwise())
	write("zz_reduce.go", genReduce())
	write("zz_cast.go", genCast())
}

func write(name string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(name+".broken", src, 0o644)
		log.Fatalf("%s: %v", name, err)
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		log.Fatal(err)
	}
}

func constraint(types []string) string { return strings.Join(types, " | ") }

func genPointwise() []byte {
	var w bytes.Buffer
	w.WriteString(header)
	w.WriteString("import (\n\"math\"\n\"unsafe\"\n\n\"github.com/goten-ml/goten/dtype\"\n\"github.com/goten-ml/goten/kernel\"\n)\n\n")
	w.WriteString("var _ = math.Abs\n\n")
	for _, o := range ops {
		for _, vr := range o.vars {
			if vr.unitCond != "" {
				emitLoop(&w, o, variant{name: vr.name + "1", types: vr.types, expr: vr.unitExpr})
			}
			emitLoop(&w, o, vr)
		}
	}
	// dispatch table
	w.WriteString("// pointwiseLoops is the dispatch table [code][loop dtype]; nil where\n// the op has no loop for the dtype.\n")
	w.WriteString("var pointwiseLoops = [kernel.NumCodes][dtype.Count]loopFn{\n")
	for _, o := range ops {
		fmt.Fprintf(&w, "kernel.%s: {", o.code)
		for _, t := range loopTypes {
			fn := ""
			for _, vr := range o.vars {
				for _, vt := range vr.types {
					if vt == t {
						fn = fmt.Sprintf("loop%s%s[%s]", o.code, vr.name, t)
					}
				}
			}
			if h, ok := o.override[t]; ok {
				fn = h
			}
			if fn != "" {
				fmt.Fprintf(&w, "dtype.%s: %s, ", dtypeOf[t], fn)
			}
		}
		w.WriteString("},\n")
	}
	w.WriteString("}\n\n")
	w.WriteString("// codeNames holds PyTorch's name of each code, for error messages.\nvar codeNames = [kernel.NumCodes]string{\n")
	for _, o := range ops {
		fmt.Fprintf(&w, "kernel.%s: %q,\n", o.code, o.name)
	}
	for _, r := range reds {
		fmt.Fprintf(&w, "kernel.%s: %q,\n", r.code, r.name)
	}
	w.WriteString("}\n")
	return w.Bytes()
}

// emitLoop writes one generic 1-D loop. Its fast path is picked once per
// row: all operands contiguous (slice loops), one input broadcast (stride
// 0, hoisted out of the loop), or strided pointer arithmetic.
func emitLoop(w *bytes.Buffer, o opSpec, vr variant) {
	outT := "T"
	if o.outBool {
		outT = "bool"
	}
	inT := []string{"T", "T", "T"}
	if o.condBool {
		inT[0] = "bool"
	}
	names := []string{"a", "b", "c"}
	n := o.arity
	expr := vr.expr
	if o.outBool {
		expr = "bool(" + expr + ")"
	}
	fname := fmt.Sprintf("loop%s%s", o.code, vr.name)
	fmt.Fprintf(w, "// %s computes %s for %s.\n", fname, vr.expr, strings.Join(vr.types, ", "))
	fmt.Fprintf(w, "func %s[T %s](p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {\n", fname, constraint(vr.types))
	if vr.unitCond != "" {
		fmt.Fprintf(w, "if %s {\n%s1[T](p, s, n, args)\nreturn\n}\n", vr.unitCond, fname)
	}
	if vr.pre != "" {
		w.WriteString(vr.pre + "\n")
	} else {
		w.WriteString("_ = args\n")
	}
	w.WriteString("var z T\nes := int(unsafe.Sizeof(z))\n_ = es\n")
	size := func(t string) string {
		if t == "bool" {
			return "1"
		}
		return "es"
	}
	// fast paths: a mask of which inputs are broadcast scalars (stride 0)
	var masks [][]bool
	masks = append(masks, make([]bool, n))
	switch n {
	case 2:
		masks = append(masks, []bool{true, false}, []bool{false, true})
	case 3:
		masks = append(masks, []bool{false, false, true}, []bool{false, true, true}, []bool{false, true, false}, []bool{true, false, false})
	}
	for _, m := range masks {
		cond := []string{"s[0] == " + size(outT)}
		for k := 0; k < n; k++ {
			if m[k] {
				cond = append(cond, fmt.Sprintf("s[%d] == 0", k+1))
			} else {
				cond = append(cond, fmt.Sprintf("s[%d] == %s", k+1, size(inT[k])))
			}
		}
		fmt.Fprintf(w, "if %s {\n", strings.Join(cond, " && "))
		fmt.Fprintf(w, "o := unsafe.Slice((*%s)(p[0]), n)\n", outT)
		for k := 0; k < n; k++ {
			if m[k] {
				fmt.Fprintf(w, "%s := *(*%s)(p[%d])\n", names[k], inT[k], k+1)
			} else {
				fmt.Fprintf(w, "x%d := unsafe.Slice((*%s)(p[%d]), n)[:len(o)]\n", k, inT[k], k+1)
			}
		}
		w.WriteString("for i := range o {\n")
		for k := 0; k < n; k++ {
			if !m[k] {
				fmt.Fprintf(w, "%s := x%d[i]\n", names[k], k)
			}
		}
		fmt.Fprintf(w, "o[i] = %s\n}\nreturn\n}\n", expr)
	}
	// strided
	w.WriteString("for i := 0; i < n; i++ {\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(w, "%s := *(*%s)(unsafe.Add(p[%d], i*s[%d]))\n", names[k], inT[k], k+1, k+1)
	}
	fmt.Fprintf(w, "*(*%s)(unsafe.Add(p[0], i*s[0])) = %s\n}\n}\n\n", outT, expr)
}

// cast types: name, Go type, size, kind.
type ctype struct {
	name, gotype string
	size         int
	kind         byte // 'b' bool, 'i' int, 'h' float16/bfloat16, 'f' float32/64
}

var ctypes = []ctype{
	{"bool", "bool", 1, 'b'},
	{"uint8", "uint8", 1, 'i'},
	{"int8", "int8", 1, 'i'},
	{"int16", "int16", 2, 'i'},
	{"int32", "int32", 4, 'i'},
	{"int64", "int64", 8, 'i'},
	{"float16", "dtype.Half", 2, 'h'},
	{"bfloat16", "dtype.BF16", 2, 'h'},
	{"float32", "float32", 4, 'f'},
	{"float64", "float64", 8, 'f'},
}

// conv returns the expression converting v (of src's read type: bool
// sources are read as uint8) to dst. See Note [Conversions] in cast.go.
func conv(src, dst ctype) string {
	switch {
	case src.name == dst.name:
		if src.kind == 'b' {
			return "v != 0"
		}
		return "v"
	case dst.kind == 'b':
		if src.kind == 'h' {
			return "uint16(v)&0x7fff != 0"
		}
		return "v != 0"
	case dst.name == "float16", dst.name == "bfloat16":
		from := "HalfFromFloat32"
		one := "0x3c00"
		if dst.name == "bfloat16" {
			from, one = "BF16FromFloat32", "0x3f80"
		}
		switch {
		case src.kind == 'b':
			return fmt.Sprintf("%s(uint16(v) * %s)", dst.gotype, one)
		case src.name == "float32":
			return "dtype." + from + "(v)"
		case src.kind == 'h':
			return "dtype." + from + "(v.Float32())"
		}
		return "dtype." + from + "(float32(v))"
	case src.kind == 'h':
		return convF32(dst, "v.Float32()")
	case src.kind == 'f' && dst.kind == 'i':
		return convF32(dst, "v")
	}
	return dst.gotype + "(v)"
}

// convF32 converts a float expression x to dst (not bool, not 16-bit).
func convF32(dst ctype, x string) string {
	if dst.kind == 'i' && dst.size < 4 {
		// narrow integers go through int64, so an out-of-range value
		// wraps as C++'s conversions do on x86 (cases never rely on it)
		return dst.gotype + "(int64(" + x + "))"
	}
	return dst.gotype + "(" + x + ")"
}

// vecConv names the internal/vec primitive for a contiguous conversion.
var vecConv = map[[2]string]string{
	{"float32", "float16"}:  "vec.F32ToF16(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"float16", "float32"}:  "vec.F16ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))",
	{"float32", "bfloat16"}: "vec.F32ToBF16(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"bfloat16", "float32"}: "vec.BF16ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))",
	{"int32", "float32"}:    "vec.I32ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*int32)(src), n))",
	{"float32", "float64"}:  "vec.F32ToF64(unsafe.Slice((*float64)(dst), n), unsafe.Slice((*float32)(src), n))",
	{"float64", "float32"}:  "vec.F64ToF32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*float64)(src), n))",
}

func camel(s string) string {
	switch s {
	case "bfloat16":
		return "BFloat16"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func genCast() []byte {
	var w bytes.Buffer
	w.WriteString(header)
	w.WriteString("import (\n\"unsafe\"\n\n\"github.com/goten-ml/goten/backend/cpu/internal/vec\"\n\"github.com/goten-ml/goten/dtype\"\n)\n\n")
	for _, s := range ctypes {
		for _, d := range ctypes {
			read := s.gotype
			if s.kind == 'b' {
				read = "uint8"
			}
			fname := "cast" + camel(s.name) + "To" + camel(d.name)
			c := conv(s, d)
			fmt.Fprintf(&w, "// %s converts n elements: %s.\n", fname, c)
			fmt.Fprintf(&w, "func %s(dst, src unsafe.Pointer, ds, ss, n int) {\n", fname)
			fmt.Fprintf(&w, "if ds == %d && ss == %d {\n", d.size, s.size)
			if s.name == d.name {
				fmt.Fprintf(&w, "copy(unsafe.Slice((*byte)(dst), n*%d), unsafe.Slice((*byte)(src), n*%d))\nreturn\n}\n", d.size, s.size)
			} else if vc, ok := vecConv[[2]string{s.name, d.name}]; ok {
				fmt.Fprintf(&w, "%s\nreturn\n}\n", vc)
			} else {
				fmt.Fprintf(&w, "o := unsafe.Slice((*%s)(dst), n)\nx := unsafe.Slice((*%s)(src), n)[:len(o)]\nfor i, v := range x {\no[i] = %s\n}\nreturn\n}\n", d.gotype, read, c)
			}
			fmt.Fprintf(&w, "if ss == 0 {\nv := *(*%s)(src)\nr := %s\nif ds == %d {\no := unsafe.Slice((*%s)(dst), n)\nfor i := range o {\no[i] = r\n}\nreturn\n}\n", read, c, d.size, d.gotype)
			fmt.Fprintf(&w, "for i := 0; i < n; i++ {\n*(*%s)(unsafe.Add(dst, i*ds)) = r\n}\nreturn\n}\n", d.gotype)
			fmt.Fprintf(&w, "for i := 0; i < n; i++ {\nv := *(*%s)(unsafe.Add(src, i*ss))\n*(*%s)(unsafe.Add(dst, i*ds)) = %s\n}\n}\n\n", read, d.gotype, c)
		}
	}
	w.WriteString("// casts is the conversion table [src][dst].\nvar casts = [dtype.Count][dtype.Count]castFn{\n")
	for _, s := range ctypes {
		fmt.Fprintf(&w, "dtype.%s: {", dtypeOf[s.name])
		for _, d := range ctypes {
			fmt.Fprintf(&w, "dtype.%s: cast%sTo%s, ", dtypeOf[d.name], camel(s.name), camel(d.name))
		}
		w.WriteString("},\n")
	}
	w.WriteString("}\n")
	return w.Bytes()
}
