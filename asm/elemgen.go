package main

// The table of vec's elementwise kernels (elemops.go fills it) and the
// generation of their assembly and Go API.

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
)

// Kernel shapes.
const (
	kUnary   = iota // dst[i] = f(x[i])
	kBinary         // dst[i] = f(a[i], b[i]), and with a or b a scalar
	kCompare        // like kBinary, into bools
)

// efunc is one family of kernels: a function of one or two elements for
// several element types.
type efunc struct {
	stem  string // Go name stem: "Sin" gives SinF32, SinF64
	kind  int
	types []*etype
	// expr is the element expression of the doc comment, a format of the
	// operand names ("sin %s", "max(%s, %s)").
	expr string
	// note is the rest of the doc comment: accuracy, special values.
	note string
	// gofn is the twin's element function, a format of the type suffix
	// (%[1]s: F32) and Go type (%[2]s: float32); default lowerstem%[1]s.
	gofn string
	// body computes one vector; via64 computes float32 kernels in
	// float64 (the body sees F64 and a narrow flag).
	body   func(e *em, in []reg.Register) val
	via64  bool
	fix    bool // a slow path: the Go side defines gofn+"Slow"
	unroll int
	// comm: a binary function that is commutative, so s∘a is a∘s; mirror:
	// the comparison that gives s∘a as a∘'s.
	comm   bool
	mirror string
	// stream: the function also has <name>Stream kernels (AddI8Stream,
	// AddScalarI8Stream, ...), which store dst with non-temporal stores
	// (Note [Non-temporal stores] in vec's stream_amd64.go); their
	// wrappers run the plain kernel up to dst's first vector-aligned
	// address (streamHead).
	stream bool
	// params names a unary function's scalar parameters after x, of x's
	// type and broadcast to every lane (LogitEpsF32(dst, x, lo, hi)); the
	// twin's element function takes them after x.
	params []string
}

// streams reports whether f has Stream kernels: not for comparisons
// (bools) or kernels with a slow path.
func (f *efunc) streams() bool { return f.stream && f.kind != kCompare && !f.fix }

var efuncs []*efunc

func (f *efunc) add() *efunc { efuncs = append(efuncs, f); return f }

// goFn returns the twin's element function for t.
func (f *efunc) goFn(t *etype) string {
	gf := f.gofn
	if gf == "" {
		gf = strings.ToLower(f.stem[:1]) + f.stem[1:] + "%[1]s"
	}
	return fmt.Sprintf(gf, t.name, t.gotype)
}

// variant is one exported function of a family: its inputs' shape.
type variant struct {
	suffix string // "", "Scalar" (a∘s), "ScalarLeft" (s∘a)
	ins    []eparam
	// swap: the signature is (dst, a, s) but the function is s∘a.
	swap bool
}

// variants returns the exported functions of f for t: one for a unary
// function, vector∘vector, vector∘scalar and scalar∘vector for a binary
// one.
func (f *efunc) variants(t *etype) []variant {
	if f.kind == kUnary {
		ins := []eparam{{"x", t, false}}
		for _, p := range f.params {
			ins = append(ins, eparam{p, t, true})
		}
		return []variant{{"", ins, false}}
	}
	return []variant{
		{"", []eparam{{"a", t, false}, {"b", t, false}}, false},
		{"Scalar", []eparam{{"a", t, false}, {"s", t, true}}, false},
		{"ScalarLeft", []eparam{{"a", t, false}, {"s", t, true}}, true},
	}
}

// exported returns the exported name of variant v for t: SinF32,
// MaxScalarF32 (a∘s), ScalarMaxF32 (s∘a).
func (f *efunc) exported(v variant, t *etype) string {
	switch v.suffix {
	case "Scalar":
		return f.stem + "Scalar" + t.name
	case "ScalarLeft":
		return "Scalar" + f.stem + t.name
	}
	return f.stem + t.name
}

// asmFor reports whether variant v has assembly of its own: s∘a of a
// commutative function or a comparison with a mirror calls a∘s.
func (f *efunc) asmFor(v variant) bool {
	return v.suffix != "ScalarLeft" || !f.comm && f.mirror == ""
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// genElem emits every kernel of the table, and writes the Go API to the
// files named by api (a path prefix).
func genElem(api string) {
	ConstraintExpr("amd64,!purego")
	elemOps()
	halfOps()
	mathOps()
	powIntOps()
	logitEpsOps()
	for _, s := range []*isa{isaAVX2, isaAVX512} {
		for _, f := range efuncs {
			for _, t := range f.types {
				for _, v := range f.variants(t) {
					if !f.asmFor(v) {
						continue
					}
					ct := t
					if f.via64 && t == eF32 {
						ct = eF64
					}
					if t == eBF16 || t == eF16 {
						ct = eF32
					}
					dst := t
					if f.kind == kCompare {
						dst = eBool
					}
					name := lowerFirst(f.exported(v, t)) + s.name
					unroll := f.unroll
					if unroll == 0 {
						unroll = 4
					}
					if s.evex() {
						unroll = max(1, unroll/2)
					}
					(&ekernel{
						fname: name, isa: s, ct: ct, dst: dst, ins: v.ins,
						body: f.body, unroll: unroll, fix: f.fix, swap: v.swap,
						doc: fmt.Sprintf("%s is %s in %s; see there for the exact loop.", name, f.exported(v, t), s.name),
					}).generate()
					if f.streams() {
						sname := lowerFirst(f.exported(v, t)) + "Stream" + s.name
						(&ekernel{
							fname: sname, isa: s, ct: ct, dst: dst, ins: v.ins,
							body: f.body, unroll: unroll, swap: v.swap, stream: true,
							doc: fmt.Sprintf("%s is %s in %s with non-temporal stores: dst must be %d-byte aligned.", sname, f.exported(v, t), s.name, s.bytes),
						}).generate()
					}
				}
			}
		}
	}
	if api != "" {
		writeGo(api+"_amd64.go", apiFile(true))
		writeGo(api+"_other.go", apiFile(false))
		writeGo(api+"_test.go", apiTable())
	}
}

func writeGo(path string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		fmt.Fprintf(os.Stderr, "asm: %s: %v\n%s", path, err, src)
		os.Exit(1)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "asm:", err)
		os.Exit(1)
	}
}

const genHeader = "// Code generated by command: go run main.go -part elem. DO NOT EDIT.\n\n"

// apiFile returns the exported functions: with asm, dispatching on the
// level (Note [Kernel levels] in package cpufeat); without, the twins.
func apiFile(asm bool) []byte {
	var w bytes.Buffer
	w.WriteString(genHeader)
	if asm {
		w.WriteString("//go:build amd64 && !purego\n\npackage vec\n\n")
	} else {
		w.WriteString("//go:build !amd64 || purego\n\npackage vec\n\n")
	}
	for _, f := range efuncs {
		for _, t := range f.types {
			for _, v := range f.variants(t) {
				writeWrapper(&w, f, t, v, asm)
				if f.streams() {
					writeStreamWrapper(&w, f, t, v, asm)
				}
			}
		}
	}
	return w.Bytes()
}

// writeStreamWrapper writes the Stream form of variant v: the plain
// kernel up to dst's first vector-aligned address, the non-temporal
// kernel after it (without assembly, the plain kernel).
func writeStreamWrapper(w *bytes.Buffer, f *efunc, t *etype, v variant, asm bool) {
	name := f.exported(v, t)
	var args, params, slices, heads, rests []string
	for _, p := range v.ins {
		args = append(args, p.name)
		if p.scalar {
			params = append(params, p.name+" "+p.t.gotype)
			heads = append(heads, p.name)
			continue
		}
		params = append(params, p.name+" []"+p.t.gotype)
		slices = append(slices, p.name)
		heads = append(heads, p.name+"[:h]")
		rests = append(rests, p.name+"[h:]")
	}
	fmt.Fprintf(w, "// %sStream is [%s] with dst stored by non-temporal stores (Note\n// [Non-temporal stores]), for outputs far larger than the caches.\n// Its exact loop is %s's.\n", name, name, name)
	fmt.Fprintf(w, "func %sStream(dst []%s, %s) {\n", name, t.gotype, strings.Join(params, ", "))
	if !asm {
		fmt.Fprintf(w, "%s(dst, %s)\n}\n\n", name, strings.Join(args, ", "))
		return
	}
	if !f.asmFor(v) {
		// s∘a through a∘s
		other := f.stem
		if f.mirror != "" {
			other = f.mirror
		}
		fmt.Fprintf(w, "%sScalar%sStream(dst, a, s)\n}\n\n", other, t.name)
		return
	}
	for _, p := range slices {
		fmt.Fprintf(w, "%s = %s[:len(dst)]\n", p, p)
	}
	w.WriteString("h := streamHead(dst)\nif h < 0 {\n")
	fmt.Fprintf(w, "%s(dst, %s)\nreturn\n}\n", name, strings.Join(args, ", "))
	fmt.Fprintf(w, "%s(dst[:h], %s)\n", name, strings.Join(heads, ", "))
	fmt.Fprintf(w, "dst, %s = dst[h:], %s\n", strings.Join(slices, ", "), strings.Join(rests, ", "))
	inner := lowerFirst(name) + "Stream"
	if t == eF16 { // AVX2 without F16C has no float16 kernels
		fmt.Fprintf(w, "if !useAVX512 && !useF16C {\n%s(dst, %s)\nreturn\n}\n", name, strings.Join(args, ", "))
	}
	fmt.Fprintf(w, "if useAVX512 {\n%sAVX512(dst, %s)\n} else {\n%sAVX2(dst, %s)\n}\n}\n\n", inner, strings.Join(args, ", "), inner, strings.Join(args, ", "))
}

// twinCall returns the Go statement of variant v's exact loop.
func twinCall(f *efunc, t *etype, v variant) string {
	fn := f.goFn(t)
	switch {
	case f.kind == kUnary && len(f.params) > 0:
		return fmt.Sprintf("unaryGo(dst, x, %s)", f.withParams(fn, t, t.gotype))
	case f.kind == kUnary:
		return fmt.Sprintf("unaryGo(dst, x, %s)", fn)
	case v.suffix == "":
		return fmt.Sprintf("binaryGo(dst, a, b, %s)", fn)
	case v.suffix == "Scalar":
		return fmt.Sprintf("binaryScalarGo(dst, a, s, %s)", fn)
	}
	return fmt.Sprintf("scalarBinaryGo(dst, a, s, %s)", fn)
}

func writeWrapper(w *bytes.Buffer, f *efunc, t *etype, v variant, asm bool) {
	name := f.exported(v, t)
	dstT := t.gotype
	if f.kind == kCompare {
		dstT = "bool"
	}
	var args, params []string
	var elems []string
	for _, p := range v.ins {
		if p.scalar {
			params = append(params, p.name+" "+p.t.gotype)
			elems = append(elems, p.name)
		} else {
			params = append(params, p.name+" []"+p.t.gotype)
			elems = append(elems, p.name+"[i]")
		}
		args = append(args, p.name)
	}
	if v.suffix == "ScalarLeft" {
		// s∘a: the element expression has s first
		elems = []string{"s", "a[i]"}
	}
	fmt.Fprintf(w, "// %s sets dst[i] = %s", name, fmt.Sprintf(f.expr, toAny(elems)...))
	if f.note != "" {
		fmt.Fprintf(w, ", %s", f.note)
	}
	fmt.Fprintf(w, ".\n// Its exact loop is %s.\n", twinCall(f, t, v))
	fmt.Fprintf(w, "func %s(dst []%s, %s) {\n", name, dstT, strings.Join(params, ", "))
	twin := twinCall(f, t, v)
	if !asm {
		fmt.Fprintf(w, "%s\n}\n\n", twin)
		return
	}
	if !f.asmFor(v) {
		// s∘a through a∘s
		other := f.stem
		if f.mirror != "" {
			other = f.mirror
		}
		fmt.Fprintf(w, "%sScalar%s(dst, a, s)\n}\n\n", other, t.name)
		return
	}
	var slices []string
	for _, p := range v.ins {
		if !p.scalar {
			fmt.Fprintf(w, "%s = %s[:len(dst)]\n", p.name, p.name)
			slices = append(slices, p.name)
		}
	}
	if f.fix {
		// the slow path reads the inputs after the kernel wrote dst
		// (Note [In place with a slow path])
		inner := lowerFirst(name) + "Kernels"
		var over, bufs, copies, chunk, next []string
		for _, p := range slices {
			over = append(over, fmt.Sprintf("overlaps(dst, %s)", p))
			bufs = append(bufs, "buf"+p)
			copies = append(copies, fmt.Sprintf("copy(buf%s[:n], %s)\n", p, p))
			next = append(next, p+"[n:]")
		}
		for _, p := range v.ins {
			if p.scalar {
				chunk = append(chunk, p.name)
			} else {
				chunk = append(chunk, "buf"+p.name+"[:n]")
			}
		}
		fmt.Fprintf(w, "if %s {\n", strings.Join(over, " || "))
		fmt.Fprintf(w, "var %s [elemChunk]%s\n", strings.Join(bufs, ", "), t.gotype)
		w.WriteString("for len(dst) > 0 {\nn := min(len(dst), elemChunk)\n")
		w.WriteString(strings.Join(copies, ""))
		fmt.Fprintf(w, "%s(dst[:n], %s)\n", inner, strings.Join(chunk, ", "))
		fmt.Fprintf(w, "dst, %s = dst[n:], %s\n}\nreturn\n}\n", strings.Join(slices, ", "), strings.Join(next, ", "))
		fmt.Fprintf(w, "%s(dst, %s)\n}\n\n", inner, strings.Join(args, ", "))
		fmt.Fprintf(w, "// %s is %s on inputs dst does not overlap.\n", inner, name)
		fmt.Fprintf(w, "func %s(dst []%s, %s) {\n", inner, dstT, strings.Join(params, ", "))
	}
	w.WriteString("switch {\n")
	for _, s := range []*isa{isaAVX512, isaAVX2} {
		fmt.Fprintf(w, "case %s:\n", levelFlag(s, t))
		call := fmt.Sprintf("%s%s(dst, %s)", lowerFirst(name), s.name, strings.Join(args, ", "))
		if f.fix {
			fmt.Fprintf(w, "if %s {\n%s\n}\n", call, fixCall(f, t, v))
		} else {
			fmt.Fprintf(w, "%s\n", call)
		}
	}
	fmt.Fprintf(w, "default:\n%s\n}\n}\n\n", twin)
}

// levelFlag returns the flag under which the kernels of t at level s run:
// useAVX512, useAVX2, or useF16C for float16's AVX2 kernels.
func levelFlag(s *isa, t *etype) string {
	if t == eF16 && !s.evex() {
		return "useF16C"
	}
	return "use" + s.name
}

// fixCall returns the statement that redoes the flagged elements of a
// kernel with a slow path.
func fixCall(f *efunc, t *etype, v variant) string {
	fn := f.goFn(t)
	switch {
	case f.kind == kUnary && len(f.params) > 0:
		return fmt.Sprintf("fixUnary(dst, x, %s, %s)", f.withParams(fn, t, t.gotype), f.withParams(fn+"Slow", t, "bool"))
	case f.kind == kUnary:
		return fmt.Sprintf("fixUnary(dst, x, %s, %sSlow)", fn, fn)
	case v.suffix == "":
		return fmt.Sprintf("fixBinary(dst, a, b, %s, %sSlow)", fn, fn)
	case v.suffix == "Scalar":
		return fmt.Sprintf("fixBinaryScalar(dst, a, s, %s, %sSlow)", fn, fn)
	}
	return fmt.Sprintf("fixScalarBinary(dst, a, s, %s, %sSlow)", fn, fn)
}

// withParams returns the element function fn of a unary function with
// params as a function of x alone, closing over the parameters.
func (f *efunc) withParams(fn string, t *etype, result string) string {
	return fmt.Sprintf("func(x %s) %s { return %s(x, %s) }", t.gotype, result, fn, strings.Join(f.params, ", "))
}

func toAny(ss []string) []any {
	r := make([]any, len(ss))
	for i, s := range ss {
		r[i] = s
	}
	return r
}

// apiTable returns the test table of every exported kernel with its
// twin's element function.
func apiTable() []byte {
	var w bytes.Buffer
	w.WriteString(genHeader + "package vec\n\n")
	w.WriteString("// elemKernels lists every elementwise kernel of zz_elem_amd64.go with the\n// element function of its twin.\nvar elemKernels = []elemKernel{\n")
	for _, f := range efuncs {
		for _, t := range f.types {
			for _, v := range f.variants(t) {
				fmt.Fprintf(&w, "{name: %q, stem: %q, variant: %q, fn: %s, elem: %s},\n",
					f.exported(v, t), f.stem, v.suffix, f.exported(v, t), f.goFn(t))
				if f.streams() {
					fmt.Fprintf(&w, "{name: %q, stem: %q, variant: %q, fn: %s, elem: %s},\n",
						f.exported(v, t)+"Stream", f.stem, v.suffix, f.exported(v, t)+"Stream", f.goFn(t))
				}
			}
		}
	}
	w.WriteString("}\n")
	return w.Bytes()
}
