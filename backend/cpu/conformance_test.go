package cpu

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// The conformance cases whose single step is one kernel call (an
// elementwise op, a conversion, a simple reduction) are run here straight
// on the backend, with a minimal stand-in for the op layer (promotion
// through iter, scalars as wrapped 0-d views). Cases that need more of the
// op layer (errors, views, int floor/ceil, bool square, ...) are skipped.

const casesDir = "../../testdata/conformance/cases/"

type confCase struct {
	ID      string                     `json:"id"`
	Inputs  map[string]json.RawMessage `json:"inputs"`
	Program []confStep                 `json:"program"`
	Expect  map[string]confTensor      `json:"expect"`
	Error   json.RawMessage            `json:"error"`
	Grad    json.RawMessage            `json:"grad"`
	Rtol    *float64                   `json:"rtol"`
	Atol    *float64                   `json:"atol"`
}

type confStep struct {
	Out    json.RawMessage            `json:"out"`
	Op     string                     `json:"op"`
	Args   []json.RawMessage          `json:"args"`
	Kwargs map[string]json.RawMessage `json:"kwargs"`
}

type confTensor struct {
	DType   string            `json:"dtype"`
	Shape   []int             `json:"shape"`
	Values  []json.RawMessage `json:"values"`
	Strides []int             `json:"strides"`
	Offset  int               `json:"offset"`
	Storage []json.RawMessage `json:"storage"`
	Fill    json.RawMessage   `json:"fill"`
	Nested  json.RawMessage   `json:"nested"`
	Samples json.RawMessage   `json:"samples"`
}

var errSkip = errors.New("skip")

func TestConformance(t *testing.T) {
	for _, suite := range []string{"unary", "binary", "ternary", "promotion", "copy_cast", "out_inplace", "reductions"} {
		t.Run(suite, func(t *testing.T) {
			f, err := os.Open(casesDir + suite + ".jsonl")
			if errors.Is(err, os.ErrNotExist) {
				t.Skipf("%s not found", suite)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<26)
			ran, skipped := 0, 0
			skippedOps := map[string]int{}
			for sc.Scan() {
				var c confCase
				if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
					t.Fatalf("bad case: %v", err)
				}
				err := runCase(&c)
				switch {
				case errors.Is(err, errSkip):
					skipped++
					if len(c.Program) > 0 {
						skippedOps[c.Program[0].Op]++
					}
				case err != nil:
					ran++
					t.Errorf("FAIL %s: %v", c.ID, err)
				default:
					ran++
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			var sk []string
			for op, n := range skippedOps {
				sk = append(sk, fmt.Sprintf("%s:%d", op, n))
			}
			sort.Strings(sk)
			t.Logf("%s: ran %d, skipped %d (%s)", suite, ran, skipped, strings.Join(sk, " "))
		})
	}
}

var unaryCodes = map[string]kernel.Code{
	"neg": kernel.Neg, "abs": kernel.Abs, "sign": kernel.Sign, "exp": kernel.Exp, "exp2": kernel.Exp2,
	"expm1": kernel.Expm1, "log": kernel.Log, "log2": kernel.Log2, "log10": kernel.Log10, "log1p": kernel.Log1p,
	"sqrt": kernel.Sqrt, "rsqrt": kernel.Rsqrt, "reciprocal": kernel.Reciprocal, "square": kernel.Square,
	"sin": kernel.Sin, "cos": kernel.Cos, "tan": kernel.Tan, "asin": kernel.Asin, "acos": kernel.Acos,
	"atan": kernel.Atan, "sinh": kernel.Sinh, "cosh": kernel.Cosh, "tanh": kernel.Tanh, "asinh": kernel.Asinh,
	"acosh": kernel.Acosh, "atanh": kernel.Atanh, "sigmoid": kernel.Sigmoid, "logit": kernel.Logit,
	"relu": kernel.Relu, "gelu": kernel.Gelu, "silu": kernel.Silu, "erf": kernel.Erf, "erfc": kernel.Erfc,
	"floor": kernel.Floor, "ceil": kernel.Ceil, "round": kernel.Round, "trunc": kernel.Trunc, "frac": kernel.Frac,
	"logical_not": kernel.LogicalNot, "bitwise_not": kernel.BitwiseNot, "isnan": kernel.IsNan,
	"isinf": kernel.IsInf, "isfinite": kernel.IsFinite, "signbit": kernel.Signbit,
}

// floatValued unary ops promote integer inputs to float32.
var floatValued = map[string]bool{
	"exp": true, "exp2": true, "expm1": true, "log": true, "log2": true, "log10": true, "log1p": true,
	"sqrt": true, "rsqrt": true, "reciprocal": true, "sin": true, "cos": true, "tan": true, "asin": true,
	"acos": true, "atan": true, "sinh": true, "cosh": true, "tanh": true, "asinh": true, "acosh": true,
	"atanh": true, "sigmoid": true, "logit": true, "gelu": true, "silu": true, "erf": true, "erfc": true,
	"atan2": true, "hypot": true, "copysign": true, "div": true,
}

var binaryCodes = map[string]kernel.Code{
	"add": kernel.Add, "sub": kernel.Sub, "mul": kernel.Mul, "div": kernel.Div, "floor_divide": kernel.DivFloor,
	"remainder": kernel.Remainder, "fmod": kernel.Fmod, "pow": kernel.Pow, "maximum": kernel.Maximum,
	"minimum": kernel.Minimum, "fmax": kernel.Fmax, "fmin": kernel.Fmin, "atan2": kernel.Atan2,
	"hypot": kernel.Hypot, "copysign": kernel.Copysign, "eq": kernel.Eq, "ne": kernel.Ne, "lt": kernel.Lt,
	"le": kernel.Le, "gt": kernel.Gt, "ge": kernel.Ge, "logical_and": kernel.LogicalAnd,
	"logical_or": kernel.LogicalOr, "logical_xor": kernel.LogicalXor, "bitwise_and": kernel.BitwiseAnd,
	"bitwise_or": kernel.BitwiseOr, "bitwise_xor": kernel.BitwiseXor, "bitwise_left_shift": kernel.ShiftLeft,
	"bitwise_right_shift": kernel.ShiftRight,
}

var reduceCodes = map[string]kernel.Code{"sum": kernel.Sum, "prod": kernel.Prod, "amax": kernel.Amax, "amin": kernel.Amin}

type env map[string]*raw.View

func runCase(c *confCase) error {
	if c.Error != nil || c.Grad != nil || len(c.Program) != 1 {
		return errSkip
	}
	e := env{}
	for name, msg := range c.Inputs {
		v, err := parseInput(msg)
		if err != nil {
			return err
		}
		e[name] = v
	}
	s := c.Program[0]
	var outName string
	if json.Unmarshal(s.Out, &outName) != nil {
		return errSkip
	}
	res, err := runStep(e, s)
	if err != nil {
		return err
	}
	e[outName] = res
	names := make([]string, 0, len(c.Expect))
	for name := range c.Expect {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want := c.Expect[name]
		got, ok := e[name]
		if !ok {
			return fmt.Errorf("no result %q", name)
		}
		if err := compare(got, want, c.Rtol, c.Atol); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// arg returns a tensor name's view or a scalar wrapped as a 0-d view.
func (e env) arg(msg json.RawMessage) (*raw.View, bool) {
	var name string
	if json.Unmarshal(msg, &name) == nil {
		v, ok := e[name]
		return v, ok
	}
	var sc map[string]json.RawMessage
	if json.Unmarshal(msg, &sc) != nil {
		return nil, false
	}
	for k, val := range sc {
		var d dtype.DType
		switch k {
		case "int":
			d = dtype.Int64
		case "float":
			d = dtype.Float64
		case "bool":
			d = dtype.Bool
		default:
			return nil, false
		}
		v := raw.New(d, nil)
		setElem(v, 0, parseNum(val))
		v.Wrapped = true
		return v, true
	}
	return nil, false
}

func scalarArgs(msg json.RawMessage, a *kernel.Args) bool {
	var sc map[string]json.RawMessage
	if json.Unmarshal(msg, &sc) != nil {
		return false
	}
	for k, val := range sc {
		f := parseNum(val)
		a.AlphaF, a.AlphaI = f, int64(f)
		return k == "int" || k == "float" || k == "bool"
	}
	return false
}

func isNull(msg json.RawMessage) bool { return msg == nil || string(msg) == "null" }

func runStep(e env, s confStep) (*raw.View, error) {
	be := New()
	args := kernel.DefaultArgs
	op := s.Op
	inPlace := strings.HasSuffix(op, "_") && op != "copy_"
	if inPlace {
		op = strings.TrimSuffix(op, "_")
	}
	var out *raw.View
	if o, ok := s.Kwargs["out"]; ok {
		v, ok := e.arg(o)
		if !ok {
			return nil, errSkip
		}
		out = v
	}
	var ins []*raw.View
	for _, a := range s.Args {
		v, ok := e.arg(a)
		if !ok {
			ins = append(ins, nil)
			continue
		}
		ins = append(ins, v)
	}
	pointwise := func(code kernel.Code, inputs []*raw.View, intToFloat bool) (*raw.View, error) {
		for _, v := range inputs {
			if v == nil {
				return nil, errSkip
			}
		}
		cfg := iter.NewConfig()
		switch {
		case inPlace:
			cfg.AddOutput(inputs[0]).CastCommonDTypeToOutputs(true)
		case out != nil:
			cfg.AddOutput(out).CastCommonDTypeToOutputs(true)
		case kernel.OutputsBool(code):
			cfg.AddOutputDType(dtype.Bool)
		default:
			cfg.AddOutput(nil)
		}
		if code == kernel.Where {
			var st dtype.ResultState
			for _, v := range inputs[1:] {
				st.Update(v.DType, v.Dim(), v.Wrapped)
			}
			cfg.StaticDType(st.Result())
		}
		for _, v := range inputs {
			cfg.AddInput(v)
		}
		cfg.PromoteInputsToCommonDType(true).PromoteIntegerInputsToFloat(intToFloat)
		if out != nil || inPlace {
			cfg.CastCommonDTypeToOutputs(true)
		}
		p, err := cfg.Build()
		if err != nil {
			return nil, fmt.Errorf("build: %v", err)
		}
		if code == kernel.Sub && p.CommonDType() == dtype.Bool {
			return nil, errSkip
		}
		if err := be.Pointwise(code, p, &args); err != nil {
			return nil, err
		}
		return p.Output(0), nil
	}
	if code, ok := unaryCodes[op]; ok && len(ins) >= 1 {
		a := ins[0]
		if a == nil {
			return nil, errSkip
		}
		switch {
		case a.DType.IsIntOrBool() && (op == "floor" || op == "ceil" || op == "round" || op == "trunc"):
			return nil, errSkip // identity, done by the op layer
		case a.DType == dtype.Bool && (op == "square" || op == "neg" || op == "relu"):
			return nil, errSkip
		case op == "round" && len(ins) > 1:
			return nil, errSkip // decimals
		case op == "gelu":
			if m, ok := s.Kwargs["approximate"]; ok && string(m) == `"string:tanh"` {
				code = kernel.GeluTanh
			}
		case op == "logit":
			eps := s.Kwargs["eps"]
			if len(s.Args) > 1 {
				eps = s.Args[1]
			}
			if !isNull(eps) {
				var ea kernel.Args
				if !scalarArgs(eps, &ea) {
					return nil, errSkip
				}
				args.Eps, args.HasEps = ea.AlphaF, true
			}
		}
		return pointwise(code, ins[:1], floatValued[op])
	}
	if code, ok := binaryCodes[op]; ok && len(ins) == 2 {
		if al, ok := s.Kwargs["alpha"]; ok {
			if !scalarArgs(al, &args) {
				return nil, errSkip
			}
		}
		intToFloat := floatValued[op]
		if op == "div" {
			if rm, ok := s.Kwargs["rounding_mode"]; ok && !isNull(rm) {
				intToFloat = false
				switch string(rm) {
				case `"string:trunc"`:
					code = kernel.DivTrunc
				case `"string:floor"`:
					code = kernel.DivFloor
				default:
					return nil, errSkip
				}
			}
		}
		return pointwise(code, ins, intToFloat)
	}
	switch op {
	case "where":
		if len(ins) != 3 {
			return nil, errSkip
		}
		return pointwise(kernel.Where, ins, false)
	case "clamp":
		lo, hi := argOrKw(e, s, 1, "min"), argOrKw(e, s, 2, "max")
		switch {
		case lo != nil && hi != nil:
			return pointwise(kernel.Clamp, []*raw.View{ins[0], lo, hi}, false)
		case lo != nil:
			return pointwise(kernel.ClampMin, []*raw.View{ins[0], lo}, false)
		case hi != nil:
			return pointwise(kernel.ClampMax, []*raw.View{ins[0], hi}, false)
		}
		return nil, errSkip
	case "addcmul", "addcdiv", "lerp":
		if len(ins) != 3 {
			return nil, errSkip
		}
		if v, ok := s.Kwargs["value"]; ok && !scalarArgs(v, &args) {
			return nil, errSkip
		}
		code := map[string]kernel.Code{"addcmul": kernel.Addcmul, "addcdiv": kernel.Addcdiv, "lerp": kernel.Lerp}[op]
		return pointwise(code, ins, false)
	case "to":
		var d struct{ DType string }
		if len(s.Args) != 2 || json.Unmarshal(s.Args[1], &d) != nil {
			return nil, errSkip
		}
		dt, ok := dtype.Parse(d.DType)
		if !ok || ins[0] == nil {
			return nil, errSkip
		}
		if dt == ins[0].DType {
			return ins[0], nil
		}
		p, err := iter.NewConfig().AddOutputDType(dt).AddInput(ins[0]).CheckAllSameDType(false).Build()
		if err != nil {
			return nil, err
		}
		return p.Output(0), be.Copy(p)
	case "copy_":
		if len(ins) != 2 || ins[0] == nil || ins[1] == nil {
			return nil, errSkip
		}
		p, err := iter.NewConfig().AddOutput(ins[0]).AddInput(ins[1]).CheckAllSameDType(false).ResizeOutputs(false).Build()
		if err != nil {
			return nil, err
		}
		return ins[0], be.Copy(p)
	case "contiguous":
		if ins[0] == nil {
			return nil, errSkip
		}
		p, err := iter.NewConfig().AddOutputDType(ins[0].DType).AddInput(ins[0]).Build()
		if err != nil {
			return nil, err
		}
		return p.Output(0), be.Copy(p)
	case "sum", "prod", "amax", "amin":
		return runReduce(be, e, s, reduceCodes[op], ins[0], out)
	}
	return nil, errSkip
}

func argOrKw(e env, s confStep, i int, kw string) *raw.View {
	var m json.RawMessage
	if i < len(s.Args) {
		m = s.Args[i]
	}
	if k, ok := s.Kwargs[kw]; ok {
		m = k
	}
	if isNull(m) {
		return nil
	}
	v, _ := e.arg(m)
	return v
}

func runReduce(be *Backend, e env, s confStep, code kernel.Code, a, out *raw.View) (*raw.View, error) {
	if a == nil || out != nil {
		return nil, errSkip
	}
	nd := a.Dim()
	reduced := make([]bool, nd)
	all := true
	if len(s.Args) > 1 && !isNull(s.Args[1]) {
		var dims []int
		var one int
		if json.Unmarshal(s.Args[1], &one) == nil {
			dims = []int{one}
		} else if json.Unmarshal(s.Args[1], &dims) != nil {
			return nil, errSkip
		}
		if len(dims) > 0 {
			all = false
		}
		for _, d := range dims {
			w, err := shape.WrapDim(d, max(nd, 1))
			if err != nil {
				return nil, errSkip
			}
			if nd > 0 {
				reduced[w] = true
			}
		}
	}
	keep := false
	if len(s.Args) > 2 {
		json.Unmarshal(s.Args[2], &keep)
	}
	if k, ok := s.Kwargs["keepdim"]; ok {
		json.Unmarshal(k, &keep)
	}
	acc := a.DType
	if code == kernel.Sum || code == kernel.Prod {
		if acc.IsIntOrBool() {
			acc = dtype.Int64
		}
		if m, ok := s.Kwargs["dtype"]; ok {
			var d struct{ DType string }
			json.Unmarshal(m, &d)
			acc, _ = dtype.Parse(d.DType)
		}
	}
	if (code == kernel.Amax || code == kernel.Amin) && a.NumEl() == 0 {
		return nil, errSkip // an index error, raised by the op layer
	}
	keepShape := make([]int, nd)
	var outShape []int
	for d := 0; d < nd; d++ {
		keepShape[d] = a.Shape[d]
		if all || reduced[d] {
			keepShape[d] = 1
			if !keep {
				continue
			}
		}
		outShape = append(outShape, keepShape[d])
	}
	o := raw.New(acc, keepShape)
	p, err := iter.NewConfig().AddOutput(o).AddInput(a).IsReduction(true).StaticDType(acc).CheckMemOverlap(false).Build()
	if err != nil {
		return nil, err
	}
	if err := be.Reduce(code, p, nil); err != nil {
		return nil, err
	}
	return o.WithLayout(outShape, shape.Contiguous(outShape), 0), nil
}

func parseNum(m json.RawMessage) float64 {
	var s string
	if json.Unmarshal(m, &s) == nil {
		switch s {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
		panic("bad number " + s)
	}
	var b bool
	if json.Unmarshal(m, &b) == nil {
		if b {
			return 1
		}
		return 0
	}
	var f float64
	if err := json.Unmarshal(m, &f); err != nil {
		panic(err)
	}
	return f
}

func parseInput(msg json.RawMessage) (*raw.View, error) {
	var t confTensor
	if err := json.Unmarshal(msg, &t); err != nil {
		return nil, err
	}
	if t.Nested != nil || t.Fill != nil {
		return nil, errSkip
	}
	dt, ok := dtype.Parse(t.DType)
	if !ok {
		return nil, fmt.Errorf("bad dtype %q", t.DType)
	}
	if t.Storage != nil {
		base := raw.New(dt, []int{len(t.Storage)})
		for i, m := range t.Storage {
			setElem(base, i, parseNum(m))
		}
		return base.WithLayout(t.Shape, t.Strides, t.Offset), nil
	}
	v := raw.New(dt, t.Shape)
	for i, m := range t.Values {
		setElem(v, i, parseNum(m))
	}
	return v, nil
}

func compare(got *raw.View, want confTensor, rtol, atol *float64) error {
	if want.Samples != nil || want.Nested != nil {
		return nil
	}
	if got.DType.String() != want.DType {
		return fmt.Errorf("dtype %s, want %s", got.DType, want.DType)
	}
	if !shape.Equal(got.Shape, want.Shape) && !(len(got.Shape) == 0 && len(want.Shape) == 0) {
		return fmt.Errorf("shape %v, want %v", got.Shape, want.Shape)
	}
	rt, at := defaultTol(got.DType)
	if rtol != nil {
		rt, at = *rtol, *atol
	}
	for i, m := range want.Values {
		w := parseNum(m)
		g := getElem(got, i)
		if !close(g, w, rt, at, got.DType.IsFloat()) {
			return fmt.Errorf("element %d: got %v, want %v", i, g, w)
		}
	}
	return nil
}

func defaultTol(d dtype.DType) (rtol, atol float64) {
	switch d {
	case dtype.Float64:
		return 1e-7, 1e-7
	case dtype.Float32:
		return 1.3e-5, 1e-5
	case dtype.Float16:
		return 1e-3, 1e-3
	case dtype.BFloat16:
		return 1.6e-2, 1e-2
	}
	return 0, 0
}

func close(g, w, rtol, atol float64, isFloat bool) bool {
	if !isFloat {
		return g == w
	}
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return g == w
	}
	return math.Abs(g-w) <= atol+rtol*math.Abs(w)
}
