package optable

import "github.com/goten-ml/goten/dtype"

// scan declares a scan named name (Go name goName) that computes doc, with
// its folds: Project is written at every step.
func scan(name, goName, doc string, o Op, folds ...Fold) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity, o.Folds = name, goName, doc, Scan, 1, folds
	return def(&o)
}

// row declares a row op.
func row(name, goName, doc string, o Op) *Op {
	o.Name, o.Go, o.Doc, o.Kind, o.Arity = name, goName, doc, Row, 1
	return def(&o)
}

// runningMax and runningMin carry the best value and its index; an equal
// value or a NaN takes over the index, and a NaN stays (PyTorch's
// cummax_helper: x >= best).
func runningArg(init, cmpFloat, cmpInt, takeBool string) []Fold {
	f := Fold{State: "elem.Arg[T]", Init: "$s = elem.Arg[T]{V: elem." + init + "[T]()}", Project: "$s.V", Index: true}
	return []Fold{
		with(f, func(f *Fold) { f.Types, f.Acc = Bools, "if "+takeBool+" { $s.V, $s.I = $v, int64($i) }" }),
		with(f, func(f *Fold) { f.Types, f.Acc = Ints, "if $v "+cmpInt+" $s.V { $s.V, $s.I = $v, int64($i) }" }),
		with(f, func(f *Fold) {
			f.Types, f.Acc = Floats, "if $s.V == $s.V && ($v != $v || $v "+cmpFloat+" $s.V) { $s.V, $s.I = $v, int64($i) }"
		}),
	}
}

// The scans. Integers accumulate running sums and products in int64 and
// floats in float64, as PyTorch's CPU kernels do.
var (
	CumSum = scan("cumsum", "CumSum", "the running sum along the dim (bool and integer inputs give int64)", Op{Grad: []string{"reverseCumSum(c, g)"}, Result: intToInt64},
		Fold{Types: Ints, State: "int64", Init: "$s = 0", Acc: "$s += int64($v)", Project: "T($s)"},
		Fold{Types: Floats, State: "float64", Init: "$s = 0", Acc: "$s += float64($v)", Project: "T($s)",
			CPU: cpu(dtype.Float32, "cols", "cumSumColsF32")})
	CumProd = scan("cumprod", "CumProd", "the running product along the dim (bool and integer inputs give int64)", Op{Grad: []string{"cumProdGrad(c, g, x, result)"}, Result: intToInt64},
		Fold{Types: Ints, State: "int64", Init: "$s = 1", Acc: "$s *= int64($v)", Project: "T($s)"},
		Fold{Types: Floats, State: "float64", Init: "$s = 1", Acc: "$s *= float64($v)", Project: "T($s)"})
	CumMax = scan("cummax", "CumMax", "the running maximum along the dim and the int64 index where it was reached (an equal value or a NaN takes over)",
		Op{Grad: []string{"scanIndexGrad(c, g, x, indices)"}, Outputs: 2}, runningArg("Lowest", ">=", ">=", "$v || !$s.V")...)
	CumMin = scan("cummin", "CumMin", "the running minimum along the dim and the int64 index where it was reached (an equal value or a NaN takes over)",
		Op{Grad: []string{"scanIndexGrad(c, g, x, indices)"}, Outputs: 2}, runningArg("Highest", "<=", "<=", "!$v || $s.V")...)
	LogCumSumExp = scan("logcumsumexp", "LogCumSumExp", "the running log Σe^x along the dim", Op{Grad: []string{"logCumSumExpGrad(c, g, x, result)"}, NeedsFloat: "logcumsumexp_out_{dev}"},
		Fold{Types: Floats, State: "float64", Init: "$s = math.Inf(-1)", Acc: "$s = elem.LogAddExp($s, float64($v))", Project: "T($s)",
			CPU: cpu(dtype.Invalid, "row", "logCumSumExpRow[%s]", "cols", "logCumSumExpCols[%s]")})
)

// The row ops: each reads its whole row before writing it, so backends
// implement them by hand (softmax as max, then exponentials and their sum,
// then the scaling).
var (
	Softmax    = row("softmax", "Softmax", "e^(x-max)/Σe^(x-max) along the dim", Op{Grad: []string{"softmaxGrad(c, g, result, false)"}, NeedsFloat: "softmax_lastdim_kernel_impl", Accepts: Floats})
	LogSoftmax = row("log_softmax", "LogSoftmax", "x - max - log Σe^(x-max) along the dim", Op{Grad: []string{"softmaxGrad(c, g, result, true)"}, NeedsFloat: "log_softmax_lastdim_kernel_impl", Accepts: Floats})
	LayerNorm  = row("layer_norm", "LayerNorm", "(x-mean)/√(var+eps)·weight+bias over the trailing dims (biased variance)", Op{Grad: []string{"layerNormGrad(c, g, x, weight)", "layerNormWeightGrad(c, g, x)", "g"}, Params: []string{"x", "weight", "bias"}, ManualAPI: true, Accepts: Floats, BF16Steps: true})
)
