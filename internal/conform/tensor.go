package conform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/internal/cases"
	"github.com/goten-ml/goten/tensor"
)

// badCase is a case that does not follow FORMAT.md: a bug in the case (or
// in this runner), not in the library.
type badCase string

func (e badCase) Error() string { return "bad case: " + string(e) }

func badf(format string, args ...any) badCase { return badCase(fmt.Sprintf(format, args...)) }

// missing is an op, argument or feature goten does not have yet.
type missing string

func (e missing) Error() string { return "not implemented: " + string(e) }

func missingf(format string, args ...any) missing { return missing(fmt.Sprintf(format, args...)) }

// tensorJSON is a TENSOR (an input) or a RESULT (an expectation).
type tensorJSON struct {
	DType        string            `json:"dtype"`
	Shape        []int             `json:"shape"`
	Values       json.RawMessage   `json:"values"`
	Storage      json.RawMessage   `json:"storage"`
	Strides      []int             `json:"strides"`
	Offset       *int              `json:"offset"`
	Fill         *fillJSON         `json:"fill"`
	StorageSize  *int              `json:"storage_size"`
	Nested       json.RawMessage   `json:"nested"`
	RequiresGrad bool              `json:"requires_grad"`
	Shares       *string           `json:"shares"`
	Samples      []json.RawMessage `json:"samples"`
	Sum          json.RawMessage   `json:"sum"`
	AbsSum       json.RawMessage   `json:"abs_sum"`
}

// fillJSON is the fill form: element i is ((a·i + b) mod m − c) / d.
type fillJSON struct {
	A, B, M, C, D int64
}

func (f *fillJSON) at(i int) float64 {
	v := (f.A*int64(i) + f.B) % f.M // a·i + b ≥ 0 in every case; Python's mod otherwise
	if v < 0 {
		v += f.M
	}
	return float64(v-f.C) / float64(f.D)
}

func parseDType(name string) (dtype.DType, error) {
	d, ok := dtype.Parse(name)
	if !ok {
		return d, badf("unknown dtype %q", name)
	}
	return d, nil
}

// pythonNaN is the NaN of Python's float("nan"), which the reference
// runner reads "nan" as: the quiet NaN without payload. Its bits matter
// where PyTorch reads a float's bytes (Note [Masks of other dtypes] in
// package op); Go's math.NaN() has a payload of 1.
var pythonNaN = math.Float64frombits(0x7ff8000000000000)

// decodeFloat decodes a float value: a JSON number or "nan", "inf", "-inf".
func decodeFloat(r json.RawMessage) (float64, error) {
	var s string
	if err := json.Unmarshal(r, &s); err == nil {
		switch s {
		case "nan":
			return pythonNaN, nil
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		}
		return 0, badf("bad float value %q", s)
	}
	f, err := strconv.ParseFloat(string(r), 64)
	if err != nil {
		return 0, badf("bad float value %s", r)
	}
	return f, nil
}

// decodeInt decodes an integer value: a JSON integer (or, for bool dtypes, true/false).
func decodeInt(r json.RawMessage, dt dtype.DType) (int64, error) {
	if dt == dtype.Bool {
		switch string(r) {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		return 0, badf("bool values must be true/false, got %s", r)
	}
	i, err := strconv.ParseInt(string(r), 10, 64)
	if err != nil {
		return 0, badf("integer values must be JSON integers, got %s", r)
	}
	return i, nil
}

// elems holds decoded values of a dtype: f for float dtypes, i for integer
// and bool dtypes (bools as 0 and 1).
type elems struct {
	f []float64
	i []int64
}

func (e elems) len() int { return max(len(e.f), len(e.i)) }

// at returns element k as a float64 (exact for the integers of the cases, within ±2^53).
func (e elems) at(k int) float64 {
	if e.f != nil {
		return e.f[k]
	}
	return float64(e.i[k])
}

func decodeList(rs []json.RawMessage, dt dtype.DType) (elems, error) {
	var e elems
	if dt.IsFloat() {
		e.f = make([]float64, len(rs))
		for k, r := range rs {
			v, err := decodeFloat(r)
			if err != nil {
				return e, err
			}
			e.f[k] = v
		}
		return e, nil
	}
	e.i = make([]int64, len(rs))
	for k, r := range rs {
		v, err := decodeInt(r, dt)
		if err != nil {
			return e, err
		}
		e.i[k] = v
	}
	return e, nil
}

func decodeValues(r json.RawMessage, dt dtype.DType) (elems, error) {
	var rs []json.RawMessage
	if err := json.Unmarshal(r, &rs); err != nil {
		return elems{}, badf("values must be a list")
	}
	return decodeList(rs, dt)
}

func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for k := len(shape) - 1; k >= 0; k-- {
		st[k] = acc
		acc *= max(shape[k], 1)
	}
	return st
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// buildTensor builds an input TENSOR on device dev: exactly the view it
// describes over exactly the storage it describes.
func buildTensor(r json.RawMessage, dev tensor.Device) (*tensor.Tensor, error) {
	v, err := buildView(r, dev)
	if err != nil {
		return nil, err
	}
	t := v.base.AsStridedAt(v.shape, v.strides, v.offset)
	if v.requiresGrad {
		// the view itself is the leaf
		t = t.Detach().SetRequiresGrad(true)
	}
	return t, nil
}

// view is a TENSOR as a view of a 1-D storage: the storage, and the view's
// shape, strides and offset in it.
type view struct {
	base           *tensor.Tensor
	shape, strides []int
	offset         int
	requiresGrad   bool
}

// buildView returns the storage and layout of a TENSOR.
func buildView(r json.RawMessage, dev tensor.Device) (view, error) {
	var tj tensorJSON
	if err := json.Unmarshal(r, &tj); err != nil {
		return view{}, badf("TENSOR: %v", err)
	}
	if !cases.IsNull(tj.Nested) {
		return view{}, missing("nested tensors")
	}
	dt, err := parseDType(tj.DType)
	if err != nil {
		return view{}, err
	}
	for _, s := range tj.Shape {
		if s < 0 {
			return view{}, badf("negative size in shape %v", tj.Shape)
		}
	}
	n := numel(tj.Shape)
	strides, offset := contiguousStrides(tj.Shape), 0
	var size int                // storage elements
	var value func(int) float64 // storage element k, before conversion to dt
	switch {
	case !cases.IsNull(tj.Values) || !cases.IsNull(tj.Storage):
		src := tj.Values
		if cases.IsNull(src) {
			src = tj.Storage
			if tj.Strides == nil {
				return view{}, badf("the storage form needs strides")
			}
			strides = tj.Strides
			if tj.Offset != nil {
				offset = *tj.Offset
			}
		}
		e, err := decodeValues(src, dt)
		if err != nil {
			return view{}, err
		}
		size, value = e.len(), e.at
		if !cases.IsNull(tj.Values) && size != n {
			return view{}, badf("%d values for shape %v", size, tj.Shape)
		}
	case tj.Fill != nil:
		if tj.Fill.M <= 0 || tj.Fill.D == 0 {
			return view{}, badf("bad fill %+v", *tj.Fill)
		}
		size, value = n, tj.Fill.at
		if tj.StorageSize != nil {
			if tj.Strides == nil {
				return view{}, badf("storage_size needs strides")
			}
			size, strides = *tj.StorageSize, tj.Strides
			if tj.Offset != nil {
				offset = *tj.Offset
			}
		}
	default:
		return view{}, badf("TENSOR needs values, storage or fill")
	}
	if len(strides) != len(tj.Shape) {
		return view{}, badf("strides %v for shape %v", strides, tj.Shape)
	}
	if n > 0 {
		lo, hi := offset, offset
		for k, s := range tj.Shape {
			if strides[k] < 0 {
				lo += (s - 1) * strides[k]
			} else {
				hi += (s - 1) * strides[k]
			}
		}
		if lo < 0 || hi >= size {
			return view{}, badf("view [%d, %d] lies outside its storage of %d elements", lo, hi, size)
		}
	}
	return view{storage(dt, size, value).ToDevice(dev), tj.Shape, strides, offset, tj.RequiresGrad}, nil
}

// storage returns a 1-D tensor of n elements: element k is value(k)
// converted to dt by the library's rules (bool: ≠ 0; integers: truncation;
// 16-bit floats: via float32, to nearest even), converted here in Go, not
// by the library's kernels.
func storage(dt dtype.DType, n int, value func(int) float64) *tensor.Tensor {
	switch dt {
	case dtype.Bool:
		return tensor.FromSlice(fill(n, func(k int) bool { return value(k) != 0 }))
	case dtype.Uint8:
		return tensor.FromSlice(fill(n, func(k int) uint8 { return uint8(int64(value(k))) }))
	case dtype.Int8:
		return tensor.FromSlice(fill(n, func(k int) int8 { return int8(int64(value(k))) }))
	case dtype.Int16:
		return tensor.FromSlice(fill(n, func(k int) int16 { return int16(int64(value(k))) }))
	case dtype.Int32:
		return tensor.FromSlice(fill(n, func(k int) int32 { return int32(int64(value(k))) }))
	case dtype.Int64:
		return tensor.FromSlice(fill(n, func(k int) int64 { return int64(value(k)) }))
	case dtype.Float16:
		return tensor.FromSlice(fill(n, func(k int) dtype.Half { return dtype.HalfFromFloat32(float32(value(k))) }))
	case dtype.BFloat16:
		// torch_runner converts the storage from float64 with PyTorch's
		// .to(bfloat16), whose vectorized loop writes a NaN as 0xFFFF
		// (sign bit set) in the first n - n mod 16 elements and its
		// scalar tail as 0x7FC0: signbit tells them apart
		body := n - n%16
		return tensor.FromSlice(fill(n, func(k int) dtype.BF16 {
			v := value(k)
			if v != v && k < body {
				return dtype.BF16(0xFFFF)
			}
			return dtype.BF16FromFloat32(float32(v))
		}))
	case dtype.Float32:
		return tensor.FromSlice(fill(n, func(k int) float32 { return float32(value(k)) }))
	case dtype.Float64:
		return tensor.FromSlice(fill(n, value))
	}
	panic(badf("invalid dtype %v", dt))
}

func fill[T any](n int, f func(int) T) []T {
	s := make([]T, n)
	for k := range s {
		s[k] = f(k)
	}
	return s
}

// read returns t's elements in row-major order: as float64 for float
// dtypes, as int64 for integer and bool dtypes.
func read(t *tensor.Tensor) elems {
	switch t.DType() {
	case dtype.Bool:
		return elems{i: convert(tensor.ToSlice[bool](t), func(x bool) int64 {
			if x {
				return 1
			}
			return 0
		})}
	case dtype.Uint8:
		return elems{i: convert(tensor.ToSlice[uint8](t), func(x uint8) int64 { return int64(x) })}
	case dtype.Int8:
		return elems{i: convert(tensor.ToSlice[int8](t), func(x int8) int64 { return int64(x) })}
	case dtype.Int16:
		return elems{i: convert(tensor.ToSlice[int16](t), func(x int16) int64 { return int64(x) })}
	case dtype.Int32:
		return elems{i: convert(tensor.ToSlice[int32](t), func(x int32) int64 { return int64(x) })}
	case dtype.Int64:
		return elems{i: tensor.ToSlice[int64](t)}
	case dtype.Float16:
		return elems{f: convert(tensor.ToSlice[dtype.Half](t), func(x dtype.Half) float64 { return float64(x.Float32()) })}
	case dtype.BFloat16:
		return elems{f: convert(tensor.ToSlice[dtype.BF16](t), func(x dtype.BF16) float64 { return float64(x.Float32()) })}
	case dtype.Float32:
		return elems{f: convert(tensor.ToSlice[float32](t), func(x float32) float64 { return float64(x) })}
	case dtype.Float64:
		return elems{f: tensor.ToSlice[float64](t)}
	}
	panic(fmt.Sprintf("result of invalid dtype %v", t.DType()))
}

func convert[T, U any](xs []T, conv func(T) U) []U {
	out := make([]U, len(xs))
	for k, x := range xs {
		out[k] = conv(x)
	}
	return out
}
