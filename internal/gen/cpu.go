package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/optable"
)

// loopName returns the generated loop of op for one family of loop dtypes.
func loopName(op *optable.Op, l optable.Loop) string { return "loop" + op.Go + family(l.Types) }

// vecSuffix returns the suffix of vec's kernels for loop dtype d: F32, I8,
// ...; bool, one byte 0 or 1, runs uint8's (optable's SIMD.Types).
func vecSuffix(d dtype.DType) string {
	return map[dtype.DType]string{dtype.Float32: "F32", dtype.Float64: "F64", dtype.Int8: "I8", dtype.Int16: "I16",
		dtype.Int32: "I32", dtype.Int64: "I64", dtype.Uint8: "U8", dtype.Bool: "U8"}[d]
}

// simdName returns the CPU's SIMD wrapper of op for loop dtype d.
func simdName(op *optable.Op, d dtype.DType) string {
	if d == dtype.Bool {
		return "simd" + op.Go + "Bool"
	}
	return "simd" + op.Go + vecSuffix(d)
}

// arithFor reports whether op's loop dtype d runs the Arith family.
func arithFor(op *optable.Op, d dtype.DType) bool {
	return op.SIMD.Arith != "" && (d == dtype.Float32 || d == dtype.Float64)
}

// simdTypes returns the loop dtypes op has SIMD kernels for.
func simdTypes(op *optable.Op) []dtype.DType {
	var s optable.DTypes
	if op.SIMD.Arith != "" {
		s |= optable.Of(dtype.Float32, dtype.Float64)
	}
	if op.SIMD.Unary != "" || op.SIMD.Binary != "" || op.SIMD.Ternary != "" {
		if op.SIMD.Types == 0 {
			s |= optable.Of(dtype.Float32)
		}
		s |= op.SIMD.Types
	}
	return s.LoopTypes()
}

// streamTypes returns the loop dtypes op has streaming SIMD kernels for
// (Note [Streaming stores] in backend/cpu).
func streamTypes(op *optable.Op) []dtype.DType {
	var r []dtype.DType
	for _, d := range simdTypes(op) {
		if arithFor(op, d) || op.SIMD.Stream.Has(d) {
			r = append(r, d)
		}
	}
	return r
}

// halfDTypes are the storage dtypes the table may name in SIMD.Half, with
// the suffix of vec's kernels and the condition under which they run in
// assembly (their twins are slower than the buffered float32 loop: Note
// [Storage-dtype loops] in backend/cpu).
var halfDTypes = []struct {
	d            dtype.DType
	sfx, enabled string
}{
	{dtype.BFloat16, "BF16", "vec.SIMD"},
	{dtype.Float16, "F16", "vec.SIMDF16"},
}

// halfFamily returns the stem of vec's kernels of op for storage dtypes.
func halfFamily(op *optable.Op) string {
	if op.SIMD.Binary != "" {
		return op.SIMD.Binary
	}
	return strings.ToUpper(op.SIMD.Arith[:1]) + op.SIMD.Arith[1:]
}

// entry returns the loop the dispatch table holds for op and loop dtype
// d: the SIMD wrapper, the generated loop, or "" if none.
func entry(op *optable.Op, d dtype.DType) string {
	for _, sd := range simdTypes(op) {
		if sd == d {
			return simdName(op, d)
		}
	}
	if l, ok := loopFor(op, d); ok {
		return fmt.Sprintf("%s[%s]", loopName(op, l), goType(d))
	}
	return ""
}

// emitHalf writes the loops of op for the storage dtypes SIMD.Half names:
// vec's kernels on the 16-bit elements where the layout allows (and the
// float32 loop's UnitIf holds), else the float32 loop between buffered
// casts, viaFloat32 (Note [Storage-dtype loops] in backend/cpu).
func emitHalf(w *bytes.Buffer, op *optable.Op) {
	for _, h := range halfDTypes {
		if !op.SIMD.Half.Has(h.d) {
			continue
		}
		if op.Kind != optable.Pointwise || op.Arity != 2 || op.OutBool {
			panic(fmt.Sprintf("%s: SIMD.Half needs a binary op", op.Name))
		}
		l, ok := loopFor(op, dtype.Float32)
		if !ok {
			panic(fmt.Sprintf("%s: SIMD.Half without a float32 loop", op.Name))
		}
		for _, st := range []bool{false, true} {
			if st && !op.SIMD.Stream.Has(h.d) {
				continue
			}
			f, name, sfx := halfFamily(op), "simd"+op.Go+h.sfx, h.sfx
			what := "loop"
			if st {
				name, sfx, what = name+"Stream", sfx+"Stream", "streaming loop"
			}
			printf(w, "// %s is %s's %s for %s operands.\n", name, op.Name, what, h.d)
			printf(w, "func %s(p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {\n", name)
			call := fmt.Sprintf("binaryLayout(vec.%s%s, vec.%sScalar%s, vec.Scalar%s%s, p, s, n)", f, sfx, f, sfx, f, sfx)
			if l.UnitIf != "" {
				call = fmt.Sprintf("(%s) && %s", l.UnitIf, call)
			}
			printf(w, "if !(%s) {\nviaFloat32(%s, %s, %d, p, s, n, args)\n}\n}\n\n", call, dtypeName(h.d), entry(op, dtype.Float32), op.Arity+1)
		}
	}
}

// emitHalfInit writes the table entries of op's storage-dtype loops.
func emitHalfInit(w *bytes.Buffer, op *optable.Op) {
	for _, h := range halfDTypes {
		if !op.SIMD.Half.Has(h.d) {
			continue
		}
		printf(w, "if %s {\npointwiseLoops[optable.%s.Code][%s] = simd%s%s\n", h.enabled, op.Go, dtypeName(h.d), op.Go, h.sfx)
		if op.SIMD.Stream.Has(h.d) {
			printf(w, "streamLoops[optable.%s.Code][%s] = simd%s%sStream\n", op.Go, dtypeName(h.d), op.Go, h.sfx)
		}
		w.WriteString("}\n")
	}
}

func cpuPointwise() []byte {
	var w bytes.Buffer
	w.WriteString(header("cpu"))
	w.WriteString("import (\n\"math\"\n\"unsafe\"\n\n\"github.com/goten-ml/goten/backend/cpu/internal/vec\"\n\"github.com/goten-ml/goten/dtype\"\n\"github.com/goten-ml/goten/kernel\"\n\"github.com/goten-ml/goten/optable\"\n\"github.com/goten-ml/goten/optable/elem\"\n)\n\n")
	w.WriteString("var (\n_ = math.Abs\n_ = elem.Select[bool]\n_ = vec.AddF32\n)\n\n")
	pw := ops(optable.Pointwise)
	for _, op := range pw {
		for _, l := range op.Loops {
			if l.UnitIf != "" {
				emitLoop(&w, op, optable.Loop{Types: l.Types, Expr: l.UnitExpr}, loopName(op, l)+"1")
			}
			emitLoop(&w, op, l, loopName(op, l))
		}
		emitSIMD(&w, op)
		emitHalf(&w, op)
	}
	w.WriteString("// init fills the dispatch tables of Pointwise by op code and loop dtype:\n// the generated loops, the SIMD kernels where the table names them,\n// their streaming twins (Note [Streaming stores]) and the loops of\n// storage dtypes (Note [Storage-dtype loops]).\nfunc init() {\n")
	for _, op := range pw {
		printf(&w, "pointwiseLoops[optable.%s.Code] = [dtype.Count]loopFn{", op.Go)
		for _, d := range loopTypes {
			if e := entry(op, d); e != "" {
				printf(&w, "%s: %s, ", dtypeName(d), e)
			}
		}
		w.WriteString("}\n")
		if ds := streamTypes(op); len(ds) > 0 {
			printf(&w, "streamLoops[optable.%s.Code] = [dtype.Count]loopFn{", op.Go)
			for _, d := range ds {
				printf(&w, "%s: %sStream, ", dtypeName(d), simdName(op, d))
			}
			w.WriteString("}\n")
		}
		emitHalfInit(&w, op)
	}
	w.WriteString("}\n")
	return w.Bytes()
}

// emitSIMD writes the CPU's wrappers of op's SIMD kernels: each runs the
// vec primitive where the layout allows and the generated loop otherwise
// (Note [SIMD fast paths] in backend/cpu).
func emitSIMD(w *bytes.Buffer, op *optable.Op) {
	stream := map[dtype.DType]bool{}
	for _, d := range streamTypes(op) {
		stream[d] = true
	}
	for _, d := range simdTypes(op) {
		l, ok := loopFor(op, d)
		if !ok {
			panic(fmt.Sprintf("%s: SIMD kernels for %s, which has no loop", op.Name, d))
		}
		if l.Pre != "" && l.UnitIf == "" && !arithFor(op, d) && op.SIMD.UnaryArgs == "" {
			panic(fmt.Sprintf("%s: SIMD kernels for %s, whose loop reads arguments (Pre)", op.Name, d))
		}
		fallback := fmt.Sprintf("%s[%s]", loopName(op, l), goType(d))
		sfx := vecSuffix(d)
		for _, st := range []bool{false, true} {
			if st && !stream[d] {
				continue
			}
			name, kind := simdName(op, d), "vec"
			if st {
				name, kind = name+"Stream", "stream"
			}
			printf(w, "// %s is %s's %s loop for %s.\n", name, op.Name, map[bool]string{false: "SIMD", true: "streaming SIMD"}[st], goType(d))
			printf(w, "func %s(p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {\n", name)
			var call string
			switch {
			case arithFor(op, d):
				printf(w, "%sVec(&%s%s, %s, p, s, n, args)\n}\n\n", op.SIMD.Arith, kind, sfx, fallback)
				continue
			case op.SIMD.Unary != "":
				prim := "vec." + op.SIMD.Unary + sfx
				if st {
					prim += "Stream"
				}
				call = fmt.Sprintf("unaryVec(%s, p, s, n)", prim)
			case op.SIMD.Ternary != "":
				if st {
					panic(fmt.Sprintf("%s: no streaming ternary kernels", op.Name))
				}
				t := op.SIMD.Ternary
				call = fmt.Sprintf("ternaryLayout(vec.%s%s, vec.%sVS%s, vec.%sSV%s, vec.%sSS%s, p, s, n)", t, sfx, t, sfx, t, sfx, t, sfx)
			default:
				b, ss := op.SIMD.Binary, sfx
				if st {
					ss += "Stream"
				}
				call = fmt.Sprintf("binaryVec(vec.%s%s, vec.%sScalar%s, vec.Scalar%s%s, p, s, n)", b, ss, b, ss, b, ss)
			}
			withArgs := ""
			if a := op.SIMD.UnaryArgs; a != "" {
				if len(op.SIMD.Args) != 2 || st {
					panic(fmt.Sprintf("%s: UnaryArgs takes two Args and no streaming kernels (add a unaryVecN)", op.Name))
				}
				withArgs = fmt.Sprintf("unaryVec2(vec.%s%s, %s(%s), %s(%s), p, s, n)", a, sfx, goType(d), op.SIMD.Args[0], goType(d), op.SIMD.Args[1])
			}
			switch {
			case l.UnitIf != "" && withArgs != "":
				call = fmt.Sprintf("(%s) && %s || !(%s) && %s", l.UnitIf, call, l.UnitIf, withArgs)
			case l.UnitIf != "":
				call = fmt.Sprintf("(%s) && %s", l.UnitIf, call)
			case withArgs != "":
				call = withArgs
			}
			if op.BF16Steps && d == dtype.Float32 {
				// bfloat16 rows stepped in bfloat16 take the loop: its
				// UnitIf keeps them from the kernel, and from the kernel
				// with arguments that runs where UnitIf fails
				if !strings.Contains(l.UnitIf, "!args.BF16Steps") {
					panic(fmt.Sprintf("%s: BF16Steps needs a float32 loop whose UnitIf excludes args.BF16Steps", op.Name))
				}
				if withArgs != "" {
					call = fmt.Sprintf("!args.BF16Steps && (%s)", call)
				}
			}
			printf(w, "if !(%s) {\n%s(p, s, n, args)\n}\n}\n\n", call, fallback)
		}
	}
}

// emitLoop writes one generic 1-D loop. Its fast path is picked once per
// row: all operands contiguous (slice loops), some inputs broadcast
// (stride 0, hoisted out of the loop), or strided pointer arithmetic.
func emitLoop(w *bytes.Buffer, op *optable.Op, l optable.Loop, fname string) {
	outT := "T"
	if op.OutBool {
		outT = "bool"
	}
	inT := []string{"T", "T", "T"}
	if op.CondBool {
		inT[0] = "bool"
	}
	names := []string{"a", "b", "c"}
	n := op.Arity
	expr := l.Expr
	if op.OutBool {
		expr = "bool(" + expr + ")"
	}
	printf(w, "// %s computes %s for %s.\n", fname, l.Expr, strings.ReplaceAll(constraint(l.Types), " |", ","))
	printf(w, "func %s[T %s](p [4]unsafe.Pointer, s [4]int, n int, args *kernel.Args) {\n", fname, constraint(l.Types))
	if l.UnitIf != "" {
		printf(w, "if %s {\n%s1[T](p, s, n, args)\nreturn\n}\n", l.UnitIf, fname)
	}
	if l.Pre != "" {
		w.WriteString(l.Pre + "\n")
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
	// fast paths: which inputs are broadcast scalars (stride 0)
	masks := [][]bool{make([]bool, n)}
	switch n {
	case 1:
		// a broadcast input is read once, before any element is written,
		// as PyTorch's vectorized loops and its VML kernels (which gather
		// a strided input first) read it: an out= resized onto it does
		// not see its own writes
		masks = append(masks, []bool{true})
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
		printf(w, "if %s {\n", strings.Join(cond, " && "))
		printf(w, "o := unsafe.Slice((*%s)(p[0]), n)\n", outT)
		for k := 0; k < n; k++ {
			if m[k] {
				printf(w, "%s := *(*%s)(p[%d])\n", names[k], inT[k], k+1)
			} else {
				printf(w, "x%d := unsafe.Slice((*%s)(p[%d]), n)[:len(o)]\n", k, inT[k], k+1)
			}
		}
		w.WriteString("for i := range o {\n")
		for k := 0; k < n; k++ {
			if !m[k] {
				printf(w, "%s := x%d[i]\n", names[k], k)
			}
		}
		printf(w, "o[i] = %s\n}\nreturn\n}\n", expr)
	}
	w.WriteString("for i := 0; i < n; i++ {\n")
	for k := 0; k < n; k++ {
		printf(w, "%s := *(*%s)(unsafe.Add(p[%d], i*s[%d]))\n", names[k], inT[k], k+1, k+1)
	}
	printf(w, "*(*%s)(unsafe.Add(p[0], i*s[0])) = %s\n}\n}\n\n", outT, expr)
}

// foldName returns the name of a generated piece of fold i of op.
func foldName(piece string, op *optable.Op, i int) string {
	return fmt.Sprintf("%s%s%d", piece, op.Go, i)
}

// cpuPiece returns the CPU function for piece of fold i of op and loop
// dtype d: a hand-written one the table names, or the generated one.
func cpuPiece(piece string, op *optable.Op, i int, d dtype.DType) string {
	f := op.Folds[i]
	for _, key := range []dtype.DType{d, dtype.Invalid} {
		if name, ok := f.CPU[piece][key]; ok {
			if strings.Contains(name, "%s") {
				return fmt.Sprintf(name, goType(d))
			}
			return name
		}
	}
	return fmt.Sprintf("%s[%s]", foldName(piece, op, i), goType(d))
}

func cpuFolds() []byte {
	var w bytes.Buffer
	w.WriteString(header("cpu"))
	w.WriteString("import (\n\"math\"\n\"unsafe\"\n\n\"github.com/goten-ml/goten/dtype\"\n\"github.com/goten-ml/goten/optable\"\n\"github.com/goten-ml/goten/optable/elem\"\n)\n\n")
	w.WriteString("var _ = math.Abs\n\n")
	for _, op := range ops(optable.Reduction) {
		for i, f := range op.Folds {
			emitReduceFold(&w, op, i, f)
		}
	}
	for _, op := range ops(optable.Scan) {
		for i, f := range op.Folds {
			emitScanFold(&w, op, i, f)
		}
	}
	w.WriteString("// init fills the dispatch tables of Reduce and Scan by op code and loop\n// dtype (Note [Scalar meaning] in package optable).\nfunc init() {\n")
	for _, op := range ops(optable.Reduction) {
		if len(op.Folds) == 0 {
			continue
		}
		printf(&w, "redTable[optable.%s.Code] = [dtype.Count]redFuncs{\n", op.Go)
		for _, d := range loopTypes {
			i := foldFor(op, d)
			if i < 0 {
				continue
			}
			f := op.Folds[i]
			out := f.Out
			if out == "" {
				out = goType(d)
			}
			outD, _ := dtype.Parse(out)
			printf(&w, "%s: {size: int(unsafe.Sizeof(*new(%s))), out: %s, index: %v, cascade: %v,\n", dtypeName(d), instantiate(f.State, goType(d)), dtypeName(outD), f.Index, f.Cascade.Has(d))
			cols8 := ""
			for _, piece := range []string{"cols8", "rows", "rowBF16", "rowF16", "cols8BF16", "cols8F16", "rowsBF16", "rowsF16", "rowsBF16Four", "rowsF16Four", "rowFour", "rowsFour", "rowBF16Four", "rowF16Four", "colsRows", "cols8Run"} {
				if name, ok := f.CPU[piece][d]; ok {
					cols8 += ", " + piece + ": " + name
				}
			}
			printf(&w, "init: %s[%s], row: %s, cols: %s, combine: %s, project: %s%s},\n",
				foldName("init", op, i), goType(d), cpuPiece("row", op, i, d), cpuPiece("cols", op, i, d), cpuPiece("combine", op, i, d), cpuPiece("project", op, i, d), cols8)
		}
		w.WriteString("}\n")
	}
	for _, op := range ops(optable.Scan) {
		printf(&w, "scanTable[optable.%s.Code] = [dtype.Count]scanFuncs{\n", op.Go)
		for _, d := range loopTypes {
			i := foldFor(op, d)
			if i < 0 {
				continue
			}
			f := op.Folds[i]
			// hand-written pieces where the table names them: "row" for
			// the scan of contiguous elements, "cols" for the outer-dim scan
			piece := func(key, generated string) string {
				if _, ok := f.CPU[key][d]; ok || f.CPU[key][dtype.Invalid] != "" {
					return cpuPiece(key, op, i, d)
				}
				return fmt.Sprintf("%s[%s]", foldName(generated, op, i), goType(d))
			}
			cols, row := piece("cols", "scanCols"), piece("row", "scanRow")
			// scanRows8 takes the generated row's steps: not for a
			// hand-written row, nor for scans with indices
			rows8 := "nil"
			if _, ok := f.CPU["row"][d]; !ok && f.CPU["row"][dtype.Invalid] == "" && !f.Index {
				rows8 = fmt.Sprintf("%s[%s]", foldName("scanRows8", op, i), goType(d))
			}
			printf(&w, "%s: {carry: int(unsafe.Sizeof(*new(%s))), init: %s[%s], row: %s, cols: %s, rows8: %s},\n", dtypeName(d), instantiate(f.State, goType(d)),
				foldName("scanInit", op, i), goType(d), row, cols, rows8)
		}
		w.WriteString("}\n")
	}
	w.WriteString("}\n")
	return w.Bytes()
}

// emitReduceFold writes the five row functions of one fold of a reduction
// (Note [Reduction strategies] in backend/cpu): init (n states), row (fold
// a strided row into one state, with a contiguous fast path that splits
// associative folds into four partial states for instruction-level
// parallelism), cols (fold element k of a row into state k: an outer
// reduction, across outputs), combine (n states) and project (n states
// into n results).
func emitReduceFold(w *bytes.Buffer, op *optable.Op, i int, f optable.Fold) {
	cons := constraint(f.Types)
	st := f.State
	out := f.Out
	if out == "" {
		out = "T"
	}
	name := func(piece string) string { return foldName(piece, op, i) }
	printf(w, "// %s sets n states of %s to the value over no elements: %s.\n", name("init"), op.Name, f.Init)
	// the value once, then copied: an init that calls a generic function
	// (elem.Lowest[T]) is a call through a dictionary per state; copied
	// in doubling runs, each a memmove, where a store per state took a
	// tenth of [2^22, 4].sum(1) (the first few stored, cheaper than calls)
	printf(w, "func %s[T %s](st unsafe.Pointer, n int) {\nss := unsafe.Slice((*%s)(st), n)\nif n == 0 {\nreturn\n}\n%s\nk := 1\nfor ; k < min(n, 8); k++ {\nss[k] = ss[0]\n}\nfor ; k < n; k *= 2 {\ncopy(ss[k:], ss[:k])\n}\n}\n\n",
		name("init"), cons, st, sub(f.Init, "$s", "ss[0]"))
	printf(w, "// %s folds n elements of a row (byte stride is, indices idx…) into one state: %s.\n", name("row"), f.Acc)
	printf(w, "func %s[T %s](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {\n", name("row"), cons)
	printf(w, "s := *(*%s)(st)\nvar z T\nif is == int(unsafe.Sizeof(z)) {\nx := unsafe.Slice((*T)(in), n)\n", st)
	if f.Split {
		printf(w, "if len(x) >= 16 {\nvar s0, s1, s2, s3 %s\n", st)
		for _, p := range []string{"s0", "s1", "s2", "s3"} {
			w.WriteString(sub(f.Init, "$s", p) + "\n")
		}
		w.WriteString("k := 0\nfor ; k+4 <= len(x); k += 4 {\n")
		for j, p := range []string{"s0", "s1", "s2", "s3"} {
			w.WriteString(sub(f.Acc, "$s", p, "$v", fmt.Sprintf("x[k+%d]", j), "$i", fmt.Sprintf("(idx + k + %d)", j)) + "\n")
		}
		w.WriteString("}\n")
		w.WriteString(sub(f.Combine, "$s", "s0", "$o", "s1") + "\n" + sub(f.Combine, "$s", "s2", "$o", "s3") + "\n" +
			sub(f.Combine, "$s", "s0", "$o", "s2") + "\n" + sub(f.Combine, "$s", "s", "$o", "s0") + "\n")
		w.WriteString("x = x[k:]\nidx += k\n}\n")
	}
	printf(w, "for k, v := range x {\n_ = k\n%s\n}\n", sub(f.Acc, "$s", "s", "$v", "v", "$i", "(idx + k)"))
	printf(w, "} else {\nfor k := 0; k < n; k++ {\nv := *(*T)(unsafe.Add(in, k*is))\n%s\n}\n}\n", sub(f.Acc, "$s", "s", "$v", "v", "$i", "(idx + k)"))
	printf(w, "*(*%s)(st) = s\n_ = c\n}\n\n", st)
	printf(w, "// %s folds element k of a row (byte stride is, index idx) into state k, k < n.\n", name("cols"))
	printf(w, "func %s[T %s](st, in unsafe.Pointer, is, n, idx int, c *elem.Ctx) {\n", name("cols"), cons)
	printf(w, "ss := unsafe.Slice((*%s)(st), n)\nvar z T\nif is == int(unsafe.Sizeof(z)) {\nx := unsafe.Slice((*T)(in), n)\nx = x[:len(ss)]\n", st)
	printf(w, "for k := range ss {\n%s\n}\nreturn\n}\n", sub(f.Acc, "$s", "ss[k]", "$v", "x[k]", "$i", "idx"))
	printf(w, "for k := range ss {\nv := *(*T)(unsafe.Add(in, k*is))\n%s\n}\n_ = c\n}\n\n", sub(f.Acc, "$s", "ss[k]", "$v", "v", "$i", "idx"))
	printf(w, "// %s folds state k of src (later elements) into state k of dst: %s.\n", name("combine"), f.Combine)
	printf(w, "func %s[T %s](dst, src unsafe.Pointer, n int, c *elem.Ctx) {\n", name("combine"), cons)
	printf(w, "d, o := unsafe.Slice((*%s)(dst), n), unsafe.Slice((*%s)(src), n)\no = o[:len(d)]\nfor k := range d {\n%s\n}\n_ = c\n}\n\n",
		st, st, sub(f.Combine, "$s", "d[k]", "$o", "o[k]"))
	printf(w, "// %s writes the results of n states: %s", name("project"), f.Project)
	if f.Index {
		w.WriteString(", and their indices")
	}
	w.WriteString(".\n")
	printf(w, "func %s[T %s](dst, dsti, st unsafe.Pointer, n int, c *elem.Ctx) {\n", name("project"), cons)
	printf(w, "ss := unsafe.Slice((*%s)(st), n)\nr := unsafe.Slice((*%s)(dst), n)\nr = r[:len(ss)]\n", st, out)
	if f.Index {
		w.WriteString("ri := unsafe.Slice((*int64)(dsti), n)\nri = ri[:len(ss)]\n")
	}
	printf(w, "for k := range ss {\nr[k] = %s\n", sub(f.Project, "$s", "ss[k]"))
	if f.Index {
		w.WriteString("ri[k] = ss[k].I\n")
	}
	w.WriteString("}\n_ = c\n}\n\n")
}

// emitScanFold writes the functions of one fold of a scan (Note [Scans and
// row ops] in backend/cpu): scanInit (n carries), scanRow (scan a
// contiguous row, continuing from a carry), scanCols (scan w neighbouring
// rows together, one contiguous run of elements at a time) and scanRows8
// (scan eight contiguous rows together, an element of each in turn).
func emitScanFold(w *bytes.Buffer, op *optable.Op, i int, f optable.Fold) {
	cons := constraint(f.Types)
	st := f.State
	name := func(piece string) string { return foldName(piece, op, i) }
	c := "var c elem.Ctx\n_ = c\n" // scans read no context; the pieces may name it
	printf(w, "// %s sets n carries of %s to %s.\n", name("scanInit"), op.Name, f.Init)
	printf(w, "func %s[T %s](carry unsafe.Pointer, n int) {\nss := unsafe.Slice((*%s)(carry), n)\nfor k := range ss {\n%s\n}\n}\n\n",
		name("scanInit"), cons, st, sub(f.Init, "$s", "ss[k]"))
	printf(w, "// %s scans n contiguous elements x (indices idx…) into y, continuing from the carry: %s; y = %s.\n", name("scanRow"), f.Acc, f.Project)
	printf(w, "func %s[T %s](y, yi, x unsafe.Pointer, n, idx int, carry unsafe.Pointer) {\n%s", name("scanRow"), cons, c)
	printf(w, "s := *(*%s)(carry)\nxs, ys := unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)\nys = ys[:len(xs)]\n", st)
	if f.Index {
		w.WriteString("is := unsafe.Slice((*int64)(yi), n)\nis = is[:len(xs)]\n")
	} else {
		w.WriteString("_ = yi\n")
	}
	printf(w, "for k, v := range xs {\n%s\nys[k] = %s\n", sub(f.Acc, "$s", "s", "$v", "v", "$i", "(idx + k)"), sub(f.Project, "$s", "s"))
	if f.Index {
		w.WriteString("is[k] = s.I\n")
	}
	printf(w, "}\n*(*%s)(carry) = s\n}\n\n", st)
	yi, yis, likewise := "_", "_", "y"
	if f.Index {
		yi, yis, likewise = "yi", "yis", "y, and yi with 8-byte elements"
	}
	printf(w, "// %s scans w neighbouring rows together over n steps: element t of row j of x is at x + t·xs + j·es (likewise %s), carries c[0:w].\n", name("scanCols"), likewise)
	printf(w, "func %s[T %s](y, %s, x unsafe.Pointer, ys, %s, xs, n, w int, carry unsafe.Pointer) {\n%s", name("scanCols"), cons, yi, yis, c)
	printf(w, "acc := unsafe.Slice((*%s)(carry), w)\nfor t := 0; t < n; t++ {\n", st)
	w.WriteString("xr := unsafe.Slice((*T)(unsafe.Add(x, t*xs)), w)\nyr := unsafe.Slice((*T)(unsafe.Add(y, t*ys)), w)\nxr, yr = xr[:len(acc)], yr[:len(acc)]\n")
	if f.Index {
		w.WriteString("ir := unsafe.Slice((*int64)(unsafe.Add(yi, t*yis)), w)\nir = ir[:len(acc)]\n")
	}
	printf(w, "for j := range acc {\n%s\nyr[j] = %s\n", sub(f.Acc, "$s", "acc[j]", "$v", "xr[j]", "$i", "t"), sub(f.Project, "$s", "acc[j]"))
	if f.Index {
		w.WriteString("ir[j] = acc[j].I\n")
	}
	w.WriteString("}\n}\n}\n\n")
	if !f.Index && f.CPU["row"][dtype.Invalid] == "" {
		emitScanRows8(w, op, i, f)
	}
}

// emitScanRows8 writes scanRows8: eight rows of n contiguous elements, row
// j of x at x + j·xrs (likewise y, and yi with 8-byte elements), each
// scanned from a fresh carry with scanRow's steps, together: row j runs
// j·skew elements ahead of row 0 (alone for its first j·skew elements and
// its last (7−j)·skew), and the eight rows take a step each in turn, their
// carries in eight variables (Note [Rows in lockstep] in backend/cpu).
func emitScanRows8(w *bytes.Buffer, op *optable.Op, i int, f optable.Fold) {
	name := foldName("scanRows8", op, i)
	printf(w, "// %s scans eight rows of n ≥ 7·skew contiguous elements from fresh carries, together, row j skew·j elements ahead: row j of x at x + j·xrs (likewise y); each row's steps are scanRow's.\n", name)
	printf(w, "func %s[T %s](y, x unsafe.Pointer, yrs, xrs, n, skew int) {\nvar c elem.Ctx\n_ = c\n", name, constraint(f.Types))
	w.WriteString("var xr, yr [8][]T\n")
	w.WriteString("for j := range xr {\nxr[j] = unsafe.Slice((*T)(unsafe.Add(x, j*xrs)), n)\nyr[j] = unsafe.Slice((*T)(unsafe.Add(y, j*yrs)), n)\n}\n")
	step := func(j int, t string) string {
		sj := fmt.Sprintf("s%d", j)
		return fmt.Sprintf("%s\nyr[%d][%s] = %s\n", sub(f.Acc, "$s", sj, "$v", fmt.Sprintf("xr[%d][%s]", j, t), "$i", t), j, t, sub(f.Project, "$s", sj))
	}
	for j := 0; j < 8; j++ {
		printf(w, "var s%d %s\n%s\n", j, instantiate(f.State, "T"), sub(f.Init, "$s", fmt.Sprintf("s%d", j)))
		printf(w, "for t := 0; t < %d*skew; t++ {\n%s}\n", j, step(j, "t"))
	}
	// the main loop, its loads before its steps and stores
	w.WriteString("m := n - 7*skew\n")
	for j := 0; j < 8; j++ {
		printf(w, "x%d, y%d := xr[%d][%d*skew:][:m], yr[%d][%d*skew:][:m]\n", j, j, j, j, j, j)
	}
	w.WriteString("for u := 0; u < m; u++ {\n")
	for j := 0; j < 8; j++ {
		printf(w, "v%d := x%d[u]\n", j, j)
	}
	for j := 0; j < 8; j++ {
		printf(w, "%s\n", sub(f.Acc, "$s", fmt.Sprintf("s%d", j), "$v", fmt.Sprintf("v%d", j), "$i", fmt.Sprintf("(u + %d*skew)", j)))
	}
	for j := 0; j < 8; j++ {
		printf(w, "y%d[u] = %s\n", j, sub(f.Project, "$s", fmt.Sprintf("s%d", j)))
	}
	w.WriteString("}\n")
	for j := 0; j < 8; j++ {
		printf(w, "for t := m + %d*skew; t < n; t++ {\n%s}\n", j, step(j, "t"))
	}
	w.WriteString("}\n\n")
}
