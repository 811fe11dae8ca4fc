package optable

import (
	"maps"
	"math"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
)

// reduction declares a reduction named name (Go name goName) that computes
// doc, with its folds.
func reduction(name, goName, doc string, o Op, folds ...Fold) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity, o.Folds = name, goName, doc, Reduction, 1, folds
	return def(&o)
}

// with returns f changed by edit.
func with(f Fold, edit func(*Fold)) Fold {
	edit(&f)
	return f
}

// cpu names hand-written CPU pieces: pairs of a piece and a function name.
func cpu(d dtype.DType, pieces ...string) map[string]map[dtype.DType]string {
	m := map[string]map[dtype.DType]string{}
	for i := 0; i+1 < len(pieces); i += 2 {
		m[pieces[i]] = map[dtype.DType]string{d: pieces[i+1]}
	}
	return m
}

// withRows adds to a fold's CPU functions (nil: none yet) those of one
// dtype, pieces as cpu takes them: rows functions, a project.
func withRows(m map[string]map[dtype.DType]string, d dtype.DType, pieces ...string) map[string]map[dtype.DType]string {
	if m == nil {
		m = map[string]map[dtype.DType]string{}
	}
	for k, v := range cpu(d, pieces...) {
		m[k] = v
	}
	return m
}

// The folds that several reductions share.
var (
	sumFold = Fold{State: "T", Init: "$s = 0", Acc: "$s += $v", Combine: "$s += $o", Project: "$s", Split: true}
	sumInts = with(sumFold, func(f *Fold) { f.Types = Ints })
	// float32 sums accumulate in float64 (Note [Cascade sums] in backend/cpu).
	sumF32 = with(sumFold, func(f *Fold) {
		f.Types, f.State, f.Acc, f.Project = Of(dtype.Float32), "float64", "$s += float64($v)", "T($s)"
		f.CPU = cpu(dtype.Float32, "row", "rowSumF32", "cols", "colsSumF32", "cols8", "cols8SumF32", "rows", "rowsSumF32", "combine", "combineSumF64",
			"rowBF16", "rowSumBF16", "rowF16", "rowSumF16", "cols8BF16", "cols8SumBF16", "cols8F16", "cols8SumF16",
			"rowsBF16", "rowsSumBF16", "rowsF16", "rowsSumF16", "rowsBF16Four", "rowsSumBF16Four", "rowsF16Four", "rowsSumF16Four",
			"rowFour", "rowSumF32Four", "rowsFour", "rowsSumF32Four", "rowBF16Four", "rowSumBF16Four", "rowF16Four", "rowSumF16Four",
			"cols8Run", "cols8RunSumF32", "project", "projectSumF32")
	})
	sumF64 = with(sumFold, func(f *Fold) {
		f.Types, f.Cascade = Of(dtype.Float64), Of(dtype.Float64)
		f.CPU = cpu(dtype.Float64, "row", "rowSumF64", "cols", "colsSumF64", "combine", "combineSumF64")
	})
	maxFloats = Fold{Types: Floats, State: "T", Init: "$s = T(math.Inf(-1))", Acc: "if $v > $s || $v != $v { $s = $v }",
		Combine: "if $o > $s || $o != $o { $s = $o }", Project: "$s", Split: true,
		CPU: withRows(cpu(dtype.Invalid, "row", "rowAmax[%s]", "cols", "colsAmax[%s]"), dtype.Float32, "rows", "rowsAmaxF32", "rowsFour", "rowsAmaxF32Four", "colsRows", "colsRowsAmaxF32")}
	minFloats = Fold{Types: Floats, State: "T", Init: "$s = T(math.Inf(1))", Acc: "if $v < $s || $v != $v { $s = $v }",
		Combine: "if $o < $s || $o != $o { $s = $o }", Project: "$s", Split: true,
		CPU: withRows(cpu(dtype.Invalid, "row", "rowAmin[%s]", "cols", "colsAmin[%s]"), dtype.Float32, "rows", "rowsAminF32", "rowsFour", "rowsAminF32Four", "colsRows", "colsRowsAminF32")}
	maxInts  = Fold{Types: Ints, State: "T", Init: "$s = elem.Lowest[T]()", Acc: "$s = max($s, $v)", Combine: "$s = max($s, $o)", Project: "$s", Split: true}
	minInts  = Fold{Types: Ints, State: "T", Init: "$s = elem.Highest[T]()", Acc: "$s = min($s, $v)", Combine: "$s = min($s, $o)", Project: "$s", Split: true}
	maxBools = Fold{Types: Bools, State: "T", Init: "$s = false", Acc: "$s = $s || $v", Combine: "$s = $s || $o", Project: "$s"}
	minBools = Fold{Types: Bools, State: "T", Init: "$s = true", Acc: "$s = $s && $v", Combine: "$s = $s && $o", Project: "$s"}
	// Ties keep the earlier index; the first NaN wins over any number.
	argMaxFloats = Fold{Types: Floats, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: elem.Lowest[T]()}",
		Acc:     "if $v > $s.V || $v != $v && $s.V == $s.V { $s.V, $s.I = $v, int64($i) }",
		Combine: "if $o.V > $s.V || $o.V != $o.V && $s.V == $s.V { $s = $o }", Project: "$s.V", Index: true,
		CPU: withRows(cpu(dtype.Invalid, "row", "rowArgMax[%s]"), dtype.Float32, "colsRows", "colsRowsArgMaxF32", "rows", "rowsArgMaxF32")}
	argMinFloats = Fold{Types: Floats, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: elem.Highest[T]()}",
		Acc:     "if $v < $s.V || $v != $v && $s.V == $s.V { $s.V, $s.I = $v, int64($i) }",
		Combine: "if $o.V < $s.V || $o.V != $o.V && $s.V == $s.V { $s = $o }", Project: "$s.V", Index: true,
		CPU: withRows(cpu(dtype.Invalid, "row", "rowArgMin[%s]"), dtype.Float32, "colsRows", "colsRowsArgMinF32", "rows", "rowsArgMinF32")}
	argMaxInts = Fold{Types: Ints, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: elem.Lowest[T]()}",
		Acc: "if $v > $s.V { $s.V, $s.I = $v, int64($i) }", Combine: "if $o.V > $s.V { $s = $o }", Project: "$s.V", Index: true}
	argMinInts = Fold{Types: Ints, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: elem.Highest[T]()}",
		Acc: "if $v < $s.V { $s.V, $s.I = $v, int64($i) }", Combine: "if $o.V < $s.V { $s = $o }", Project: "$s.V", Index: true}
	argMaxBools = Fold{Types: Bools, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{}",
		Acc: "if $v && !$s.V { $s.V, $s.I = true, int64($i) }", Combine: "if $o.V && !$s.V { $s = $o }", Project: "$s.V", Index: true}
	argMinBools = Fold{Types: Bools, State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: true}",
		Acc: "if !$v && $s.V { $s.V, $s.I = false, int64($i) }", Combine: "if !$o.V && $s.V { $s = $o }", Project: "$s.V", Index: true}
	welford = Fold{Types: Floats, State: "elem.Welford", Init: "$s = elem.Welford{}", Acc: "$s.Add(float64($v))", Combine: "$s.Merge($o)",
		Project: "T(c.Variance($s))", Cascade: Floats,
		CPU: withRows(cpu(dtype.Invalid, "row", "rowWelford[%s]", "cols", "colsWelford[%s]"), dtype.Float32, "rowsFour", "rowsWelfordF32Four")}
	normFold   = Fold{Types: Floats, State: "float64", Init: "$s = 0", Combine: "$s += $o", Project: "T($s)", Split: true, Cascade: Floats}
	allBools   = Fold{Types: Bools, State: "T", Init: "$s = true", Acc: "$s = $s && $v", Combine: "$s = $s && $o", Project: "bool($s)", Out: "bool"}
	anyBools   = Fold{Types: Bools, State: "T", Init: "$s = false", Acc: "$s = $s || $v", Combine: "$s = $s || $o", Project: "bool($s)", Out: "bool"}
	countBools = Fold{Types: Bools, State: "int64", Init: "$s = 0", Acc: "if $v { $s++ }", Combine: "$s += $o", Project: "$s", Out: "int64", Split: true}
)

// nanSum is a sum that skips NaN elements.
func nanSum(f Fold) Fold {
	f.Acc = "if $v == $v { " + f.Acc + " }"
	f.CPU = nil
	return f
}

// mean is a sum divided by the count, whose results the CPU backend
// writes with project (a fold of the one dtype d).
func mean(f Fold, d dtype.DType, project string) Fold {
	f.Project = "T(c.Mean(float64($s)))"
	f.CPU = withRows(maps.Clone(f.CPU), d, "project", project)
	return f
}

// argOnly writes the index of an arg fold instead of its value.
func argOnly(f Fold) Fold {
	f.Project, f.Out, f.Index = "$s.I", "int64", false
	return f
}

// Result rules of reductions.

func intToInt64(d dtype.DType) (dtype.DType, error) {
	if d.IsIntOrBool() {
		return dtype.Int64, nil
	}
	return d, nil
}

func alwaysInt64(dtype.DType) (dtype.DType, error) { return dtype.Int64, nil }

func boolOrUint8(d dtype.DType) (dtype.DType, error) {
	if d == dtype.Uint8 {
		return dtype.Uint8, nil
	}
	return dtype.Bool, nil
}

func floatOnly(name, msg string) func(d dtype.DType) (dtype.DType, error) {
	return func(d dtype.DType) (dtype.DType, error) {
		if !d.IsFloat() {
			return 0, errs.New(errs.DType, name, msg, d)
		}
		return d, nil
	}
}

func intToFloat(d dtype.DType) (dtype.DType, error) {
	if d.IsIntOrBool() {
		return dtype.Default, nil
	}
	return d, nil
}

// The kernels of norm, one per kind of order p ([Norm] picks one).
var (
	NormZero = reduction("norm", "NormZero", "the number of nonzero elements", Op{Internal: true},
		with(normFold, func(f *Fold) { f.Acc, f.Cascade = "if $v != 0 { $s++ }", 0 }))
	NormOne = reduction("norm", "NormOne", "Σ|x|", Op{Internal: true}, with(normFold, func(f *Fold) { f.Acc = "$s += math.Abs(float64($v))" }))
	// float32's squares are exact and added in float64 lanes, which need
	// no cascade (Note [Rows in one call] in backend/cpu)
	NormTwo = reduction("norm", "NormTwo", "√Σx²", Op{Internal: true}, with(normFold, func(f *Fold) {
		f.Acc, f.Project, f.Cascade = "$s += float64($v) * float64($v)", "T(math.Sqrt($s))", Of(dtype.Float64)
		f.CPU = cpu(dtype.Float32, "row", "rowNormTwoF32", "rows", "rowsNormTwoF32", "rowFour", "rowNormTwoF32Four", "rowsFour", "rowsNormTwoF32Four")
	}))
	NormInf = reduction("norm", "NormInf", "max|x|", Op{Internal: true}, Fold{Types: Floats, State: "T", Init: "$s = 0",
		Acc: "if a := elem.Abs($v); a > $s || a != a { $s = a }", Combine: "if $o > $s || $o != $o { $s = $o }", Project: "$s", Split: true})
	NormNegInf = reduction("norm", "NormNegInf", "min|x|", Op{Internal: true}, Fold{Types: Floats, State: "T", Init: "$s = T(math.Inf(1))",
		Acc: "if a := elem.Abs($v); a < $s || a != a { $s = a }", Combine: "if $o < $s || $o != $o { $s = $o }", Project: "$s", Split: true})
	NormP = reduction("norm", "NormP", "(Σ|x|^p)^(1/p)", Op{Internal: true}, with(normFold, func(f *Fold) {
		f.Acc, f.Project = "$s += math.Pow(math.Abs(float64($v)), c.P)", "T(math.Pow($s, 1/c.P))"
	}))
)

// The reductions.
var (
	Sum = reduction("sum", "Sum", "the sum of the elements (bool and integer inputs give int64; float sums are pairwise)",
		Op{Grad: []string{"unreduce(c, g)"}, Result: intToInt64, OutDecides: true}, sumInts, sumF32, sumF64)
	NanSum = reduction("nansum", "NanSum", "the sum of the elements, NaN counted as 0",
		Op{Grad: []string{"keepGrad(unreduce(c, g), x.IsNan().LogicalNot())"}, Result: intToInt64, OutDecides: true,
			// an integer input is summed by sum whatever dtype=
			NoKernel: func(in, d dtype.DType, explicit bool) bool { return in.IsFloat() && explicit && !d.IsFloat() }},
		sumInts, nanSum(sumF32), nanSum(sumF64))
	Mean = reduction("mean", "Mean", "the mean of the elements (float inputs, or a float dtype)",
		Op{Grad: []string{"unreduce(c, g).Div(Scalar(c.count()))"}, OutDecides: true, Result: floatOnly("mean", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s")},
		mean(sumF32, dtype.Float32, "projectMeanF32"), mean(sumF64, dtype.Float64, "projectMeanF64"))
	Prod = reduction("prod", "Prod", "the product of the elements (bool and integer inputs give int64)",
		Op{Grad: []string{"prodGrad(c, g, x, result)"}, Result: intToInt64, OutDecides: true, NoKernel: func(_, d dtype.DType, _ bool) bool { return d.IsReduced() }},
		Fold{Types: Numbers, State: "T", Init: "$s = 1", Acc: "$s *= $v", Combine: "$s *= $o", Project: "$s", Split: true,
			CPU: cpu(dtype.Float32, "row", "rowProdF32", "cols", "colsProdF32", "rows", "rowsProdF32", "rowsFour", "rowsProdF32Four",
				"colsRows", "colsRowsProdF32")})
	Amax = reduction("amax", "Amax", "the largest element (NaN if any is)", Op{Grad: []string{"evenGrad(c, g, x, result)"}, NoIdentity: true, StrictOut: true},
		maxBools, maxInts, maxFloats)
	Amin = reduction("amin", "Amin", "the smallest element (NaN if any is)", Op{Grad: []string{"evenGrad(c, g, x, result)"}, NoIdentity: true, StrictOut: true},
		minBools, minInts, minFloats)
	Max = reduction("max", "Max", "the largest element and the int64 index of its first occurrence (a NaN, if any)",
		Op{Grad: []string{"indexGrad(c, g, x, indices)"}, NoIdentity: true, Outputs: 2, OneDim: true}, argMaxBools, argMaxInts, argMaxFloats)
	Min = reduction("min", "Min", "the smallest element and the int64 index of its first occurrence (a NaN, if any)",
		Op{Grad: []string{"indexGrad(c, g, x, indices)"}, NoIdentity: true, Outputs: 2, OneDim: true}, argMinBools, argMinInts, argMinFloats)
	ArgMax = reduction("argmax", "ArgMax", "the int64 index of the first largest element (of a NaN, if any)",
		Op{NoIdentity: true, InInput: true, NoBool: true, OneDim: true, Result: alwaysInt64}, argOnly(argMaxBools), argOnly(argMaxInts), argOnly(argMaxFloats))
	ArgMin = reduction("argmin", "ArgMin", "the int64 index of the first smallest element (of a NaN, if any)",
		Op{NoIdentity: true, InInput: true, NoBool: true, OneDim: true, Result: alwaysInt64}, argOnly(argMinBools), argOnly(argMinInts), argOnly(argMinFloats))
	Var = reduction("var", "Var", "the variance Σ(x-mean)²/max(n-correction, 0) (correction 1 unless given)",
		Op{Grad: []string{"varGrad(c, g, x)"}, Keyword: "correction", Result: floatOnly("var", "std and var only support floating point and complex dtypes, got %s")}, welford)
	Std = reduction("std", "Std", "the standard deviation, the square root of the variance (correction 1 unless given)",
		Op{Grad: []string{"stdGrad(c, g, x, result)"}, Keyword: "correction", Result: floatOnly("std", "std and var only support floating point and complex dtypes, got %s")},
		with(welford, func(f *Fold) { f.Project = "T(math.Sqrt(c.Variance($s)))" }))
	Norm = reduction("norm", "Norm", "the vector p-norm (Σ|x|^p)^(1/p) (p 2 unless given; ±Inf: max or min |x|; 0: the number of nonzeros)",
		Op{Grad: []string{"normGrad(c, g, x, result)"}, Keyword: "p", Result: floatOnly("norm", "norm(): input dtype should be either floating point or complex. Got %s instead."), Pick: pickNorm})
	LogSumExp = reduction("logsumexp", "LogSumExp", "log Σe^x, computed stably (integer inputs give float32)", Op{Grad: []string{"unreduce(c, g).Mul(x.Sub(keepDims(c, result)).Exp())"}, Result: intToFloat, ListedAllNeedsKeep: true},
		Fold{Types: Floats, State: "elem.LSE", Init: "$s = elem.NewLSE()", Acc: "$s.Add(float64($v))", Combine: "$s.Merge($o)", Project: "T($s.Value())"})
	All = reduction("all", "All", "whether every element is nonzero (bool; uint8 for uint8 inputs)", Op{InInput: true, Result: boolOrUint8},
		allBools, with(allBools, func(f *Fold) { f.Types, f.State, f.Project, f.Acc = Numbers, "bool", "$s", "$s = $s && $v != 0" }))
	Any = reduction("any", "Any", "whether some element is nonzero (bool; uint8 for uint8 inputs)", Op{InInput: true, Result: boolOrUint8},
		anyBools, with(anyBools, func(f *Fold) { f.Types, f.State, f.Project, f.Acc = Numbers, "bool", "$s", "$s = $s || $v != 0" }))
	CountNonzero = reduction("count_nonzero", "CountNonzero", "the int64 number of nonzero elements", Op{InInput: true, Result: alwaysInt64},
		countBools, with(countBools, func(f *Fold) { f.Types, f.Acc = Numbers, "if $v != 0 { $s++ }" }))
)

// pickNorm returns the kernel of norm for order p.
func pickNorm(p float64) *Op {
	switch {
	case p == 0:
		return NormZero
	case p == 1:
		return NormOne
	case p == 2:
		return NormTwo
	case math.IsInf(p, 1):
		return NormInf
	case math.IsInf(p, -1):
		return NormNegInf
	}
	return NormP
}
