package op

import (
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/errs"
	"github.com/goten-ml/goten/iter"
	"github.com/goten-ml/goten/kernel"
	"github.com/goten-ml/goten/raw"
	"github.com/goten-ml/goten/shape"
)

// Scan defines an op along one dim: a scan (cumsum, ...) or a row op
// (softmax, log_softmax). Its result has the input's shape. One executor
// ([Scan.Run]) serves them all: it restrides the dim away (Note [Row
// plans] in package kernel) so the iterator walks every other dim, in
// parallel, and the backend walks the dim itself.
type Scan struct {
	Name string
	Code kernel.Code
	// Result returns the result dtype for an input of dtype d (after any
	// dtype= conversion), or a dtype error; nil means d.
	Result func(d dtype.DType) (dtype.DType, error)
	// NeedsFloat: an integer input without dtype= is a dtype error
	// (softmax); PyTorch names the kernel in the message.
	NeedsFloat string
}

var (
	// CumSum is torch.cumsum: bool and integer inputs give int64.
	CumSum = &Scan{Name: "cumsum", Code: kernel.CumSum, Result: intToInt64}
	// CumProd is torch.cumprod: bool and integer inputs give int64.
	CumProd = &Scan{Name: "cumprod", Code: kernel.CumProd, Result: intToInt64}
	// CumMax is torch.cummax: values and int64 indices.
	CumMax = &Scan{Name: "cummax", Code: kernel.CumMax}
	// CumMin is torch.cummin: values and int64 indices.
	CumMin = &Scan{Name: "cummin", Code: kernel.CumMin}
	// LogCumSumExp is torch.logcumsumexp, floats only.
	LogCumSumExp = &Scan{Name: "logcumsumexp", Code: kernel.LogCumSumExp, NeedsFloat: "logcumsumexp_out_cpu"}
	// Softmax is torch.softmax.
	Softmax = &Scan{Name: "softmax", Code: kernel.Softmax, NeedsFloat: "softmax_lastdim_kernel_impl"}
	// LogSoftmax is torch.log_softmax.
	LogSoftmax = &Scan{Name: "log_softmax", Code: kernel.LogSoftmax, NeedsFloat: "log_softmax_lastdim_kernel_impl"}
)

// Run computes the op along dim into a new view. dt, when valid, is the
// dtype= argument: the input is read converted to it, and the result has it.
func (s *Scan) Run(in *raw.View, dim int, dt dtype.DType) (*raw.View, error) {
	outs, err := s.run(in, dim, dt)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// RunIndices computes CumMax or CumMin along dim: the running values and
// the int64 indices where they were reached.
func (s *Scan) RunIndices(in *raw.View, dim int) (values, indices *raw.View, err error) {
	if kernel.NumOutputs(s.Code) != 2 {
		return nil, nil, errs.New(errs.Value, s.Name, "%s returns no indices", s.Name)
	}
	outs, err := s.run(in, dim, dtype.Invalid)
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}

func (s *Scan) run(in *raw.View, dim int, dt dtype.DType) ([]*raw.View, error) {
	d, err := shape.WrapDim(dim, in.Dim())
	if err != nil {
		return nil, err
	}
	src := in.DType
	if dt.Valid() {
		src = dt
	}
	// softmax and log_softmax run no kernel on an empty input (logcumsumexp checks anyway)
	if s.NeedsFloat != "" && !src.IsFloat() && (in.NumEl() > 0 || s.Code == kernel.LogCumSumExp) {
		return nil, errs.New(errs.DType, s.Name, "\"%s\" not implemented for '%s'", s.NeedsFloat, src)
	}
	result := src
	if s.Result != nil && !dt.Valid() { // dtype= names the result
		if result, err = s.Result(src); err != nil {
			return nil, err
		}
	}
	if result == dtype.Bool && (s.Code == kernel.CumSum || s.Code == kernel.CumProd) && in.NumEl() > 0 {
		// PyTorch has no bool running sum or product; a 0-d input is only converted.
		if in.Dim() > 0 {
			return nil, errs.New(errs.DType, s.Name, "\"%s_out_cpu\" not implemented for '%s'", s.Name, result)
		}
		out := raw.New(result, in.Shape)
		_, err := CopyInto(s.Name, out, in, false)
		return []*raw.View{out}, err
	}
	outs := []*raw.View{raw.New(result, in.Shape)}
	if kernel.NumOutputs(s.Code) == 2 {
		outs = append(outs, raw.New(dtype.Int64, in.Shape))
	}
	if in.NumEl() == 0 {
		return outs, nil
	}
	args := kernel.DefaultArgs
	args.Dim = d
	if err := runRows(s.Name, s.Code, outs, []*raw.View{in}, d, result, &args); err != nil {
		return nil, err
	}
	return outs, nil
}

// runRows builds the row plan of Note [Row plans] (a 0-d operand is seen as
// one element of a 1-d row) and runs code on the backend.
func runRows(name string, code kernel.Code, outs, ins []*raw.View, dim int, compute dtype.DType, args *kernel.Args) error {
	lift := func(v *raw.View) *raw.View {
		if v.Dim() == 0 {
			return v.WithLayout([]int{1}, []int{1}, v.Offset)
		}
		return v
	}
	full := lift(ins[0]).Shape
	cfg := iter.NewConfig().Op(name).StaticShapeSquash(full, dim).StaticDType(compute).CheckMemOverlap(false)
	for _, o := range outs {
		cfg.AddOutput(lift(o))
	}
	for _, v := range ins {
		cfg.AddInput(lift(v))
	}
	p, err := cfg.Build()
	if err != nil {
		return err
	}
	return Backend.Scan(code, p, args)
}
