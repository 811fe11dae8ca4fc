// Package repr prints strided views the way PyTorch 1.13 prints a CPU
// tensor (torch/_tensor_str.py with the default print options: precision 4,
// threshold 1000, edgeitems 3, linewidth 80).
//
// # Layout
//
// The text is "tensor(" followed by nested brackets, one level per dim, and
// suffixes such as ", dtype=torch.float16" before the closing parenthesis.
// Rows of a 2-D block are separated by one newline, blocks of higher dims by
// dim-1 newlines, and each nested line is indented to sit under the bracket
// that opens it. A 1-D row that does not fit in 80 columns wraps.
//
// # Numbers
//
// All printed elements share one format and one width, chosen from the
// finite nonzero values that are printed (Note [Float format]). Integers
// print plainly, bools as True and False.
//
// # Summarisation
//
// A view with more than 1000 elements prints only the first and last three
// entries of every dim longer than six, with "..." between them.
package repr

import (
	"math"
	"strconv"
	"strings"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/raw"
)

// PyTorch's default print options (torch.set_printoptions(profile="default")).
const (
	precision = 4    // digits after the point (Options.Precision)
	threshold = 1000 // summarise when numel exceeds this
	edgeItems = 3    // entries kept at each end of a summarised dim
	lineWidth = 80   // columns before a row wraps
)

const prefix = "tensor("

// Format returns PyTorch's repr of v, e.g.
//
//	tensor([[1., 2.],
//	        [3., 4.]])
//
// float32, int64 and bool are not named; other dtypes add a dtype suffix
// (", dtype=torch.int32"). An empty view prints "tensor([]" with its size
// when it is not 1-D and its dtype when it is not float32. A view on a
// device other than the CPU gets a device suffix, but its storage must still
// be readable from the host. Format panics if v's dtype is invalid or its
// elements lie outside its storage.
func Format(v *raw.View) string { return FormatOptions(v, Options{}) }

// Options changes the print options of [FormatOptions].
type Options struct {
	// Precision is the number of digits after the point of floats (0:
	// PyTorch's default, 4; a negative one prints none).
	Precision int
	// Extra are suffixes placed after the dtype's, such as
	// "requires_grad=True" (see [FormatWith]).
	Extra []string
}

// FormatWith is [Format] with extra suffixes, such as "requires_grad=True"
// or "grad_fn=<AddBackward0>", placed after the dtype suffix. Like every
// suffix, each goes on the same line as the text before it when that line
// stays within 80 columns, and on a new line indented under "tensor("
// otherwise.
func FormatWith(v *raw.View, extra ...string) string {
	return FormatOptions(v, Options{Extra: extra})
}

// FormatOptions is [Format] with the print options o, as
// torch.set_printoptions sets them.
func FormatOptions(v *raw.View, o Options) string {
	prec := o.Precision
	switch {
	case prec == 0:
		prec = precision
	case prec < 0:
		prec = 0
	}
	var suffixes []string
	if d := v.Storage.Device(); d.Kind != device.CPU {
		suffixes = append(suffixes, "device='"+d.String()+"'")
	}
	var body string
	if v.NumEl() == 0 {
		body = "[]"
		if v.Dim() != 1 {
			suffixes = append(suffixes, "size="+pyTuple(v.Shape))
		}
		// Nothing shows an empty view's dtype, so only float32 goes unnamed.
		if v.DType != dtype.Default {
			suffixes = append(suffixes, "dtype=torch."+v.DType.String())
		}
	} else {
		switch v.DType {
		case dtype.Default, dtype.Int64, dtype.Bool:
		default:
			suffixes = append(suffixes, "dtype=torch."+v.DType.String())
		}
		body = tensorStr(v, len(prefix), prec)
	}
	suffixes = append(suffixes, o.Extra...)
	return addSuffixes(prefix+body, suffixes, len(prefix))
}

// addSuffixes appends ", suffix" for each suffix and the closing
// parenthesis, breaking the line before a suffix that would pass the line
// width. Its arithmetic is _add_suffixes's, which counts two more columns
// on the last line than it holds.
func addSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	last := len(s) - strings.LastIndexByte(s, '\n') + 1
	for _, suf := range suffixes {
		if last+len(suf)+2 > lineWidth {
			b.WriteString(",\n")
			b.WriteString(strings.Repeat(" ", indent))
			b.WriteString(suf)
			last = indent + len(suf)
		} else {
			b.WriteString(", ")
			b.WriteString(suf)
			last += len(suf) + 2
		}
	}
	b.WriteByte(')')
	return b.String()
}

// pyTuple writes sizes as Python writes a tuple of ints: "(0,)", "(2, 0)".
func pyTuple(sizes []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, n := range sizes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	if len(sizes) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// printer walks one non-empty view: which entries it prints, and how.
type printer struct {
	v         *raw.View
	summarise bool
	prec      int // digits after the point
	f         formatter
}

// tensorStr is _tensor_str for a non-empty view: the bracketed body, whose
// continuation lines assume the body starts at column indent.
func tensorStr(v *raw.View, indent, prec int) string {
	p := &printer{v: v, summarise: v.NumEl() > threshold, prec: prec}
	p.f = newFormatter(p)
	var b strings.Builder
	p.write(&b, 0, v.Offset, indent)
	return b.String()
}

// each calls fn with the indices of a dim of size n that are printed, in
// order, and with -1 where the "..." of a summarised dim goes.
func (p *printer) each(n int, fn func(i int)) {
	if !p.summarise || n <= 2*edgeItems {
		for i := range n {
			fn(i)
		}
		return
	}
	for i := range edgeItems {
		fn(i)
	}
	fn(-1)
	for i := n - edgeItems; i < n; i++ {
		fn(i)
	}
}

// visit calls fn with the storage element offset of every printed element,
// in row-major order, from dim d of the sub-view starting at off.
func (p *printer) visit(d, off int, fn func(off int)) {
	if d == p.v.Dim() {
		fn(off)
		return
	}
	stride := p.v.Strides[d]
	p.each(p.v.Shape[d], func(i int) {
		if i >= 0 {
			p.visit(d+1, off+i*stride, fn)
		}
	})
}

// write writes the sub-view from dim d starting at storage element off,
// whose opening bracket sits at column indent.
func (p *printer) write(b *strings.Builder, d, off, indent int) {
	v := p.v
	switch v.Dim() - d {
	case 0:
		b.WriteString(p.f.format(p.load(off)))
		return
	case 1:
		p.writeRow(b, d, off, indent)
		return
	}
	sep := "," + strings.Repeat("\n", v.Dim()-d-1) + strings.Repeat(" ", indent+1)
	stride := v.Strides[d]
	first := true
	b.WriteByte('[')
	p.each(v.Shape[d], func(i int) {
		if !first {
			b.WriteString(sep)
		}
		first = false
		if i < 0 {
			b.WriteString("...")
			return
		}
		p.write(b, d+1, off+i*stride, indent+1)
	})
	b.WriteByte(']')
}

// writeRow writes the last dim, d, as a row of elements ([1, 2, 3]),
// wrapped so that each line holds as many elements as fit in the line width
// after indent columns (at least one). The " ..." of a summarised row
// counts as one element.
func (p *printer) writeRow(b *strings.Builder, d, off, indent int) {
	perLine := max(1, (lineWidth-indent)/(p.f.width+2))
	stride := p.v.Strides[d]
	k := 0
	b.WriteByte('[')
	p.each(p.v.Shape[d], func(i int) {
		switch {
		case k == 0:
		case k%perLine == 0:
			b.WriteString(",\n")
			b.WriteString(strings.Repeat(" ", indent+1))
		default:
			b.WriteString(", ")
		}
		k++
		if i < 0 {
			b.WriteString(" ...")
			return
		}
		b.WriteString(p.f.format(p.load(off + i*stride)))
	})
	b.WriteByte(']')
}

// value is one element: f for floats, i for integers, t for bools.
type value struct {
	f float64
	i int64
	t bool
}

// load reads the element at storage element offset off. Float16 and
// bfloat16 widen exactly to float64, as PyTorch prints them through float32.
func (p *printer) load(off int) value {
	switch v := p.v; {
	case v.DType == dtype.Bool:
		return value{t: v.Int64At(off) != 0}
	case v.DType.IsInt():
		return value{i: v.Int64At(off)}
	}
	return value{f: p.v.Float64At(off)}
}

// Note [Float format]
// As _Formatter does, one pass over the printed elements picks the format
// of all of them. Only finite nonzero values take part (zeros, nan and inf
// never change the format or the width, which starts at 1); with none, the
// format is the integer one below.
//   - All integer-valued: "{:.0f}" with a trailing "." ("3.", "-0.", while
//     nan and inf print bare), unless max/min > 1000 or max > 1e8 (of
//     absolute values), which selects scientific.
//   - Otherwise "{:.4f}", unless max/min > 1000, max > 1e8 or min < 1e-4,
//     which selects scientific, "{:.4e}" ("1.0000e+10").
// The width is the longest finite nonzero value's text (plus one for the
// integer format's "."), and every element is right-aligned to it; longer
// texts (nan, inf, a zero's "-0.") are not cut. Python and Go both round the
// exact binary value to nearest with ties to even, so the digits agree.

// formatter holds the format chosen for a view's elements.
type formatter struct {
	dt      dtype.DType
	prec    int  // digits after the point
	intMode bool // floats: every finite nonzero value is an integer
	sciMode bool // floats: scientific notation
	width   int
}

// newFormatter chooses the format of p's printed elements (Note [Float format]).
func newFormatter(p *printer) formatter {
	f := formatter{dt: p.v.DType, prec: p.prec, intMode: true, width: 1}
	if !f.dt.IsFloat() {
		p.visit(0, p.v.Offset, func(off int) {
			f.width = max(f.width, len(f.format(p.load(off))))
		})
		return f
	}
	var vals []float64
	lo, hi := math.Inf(1), 0.0
	p.visit(0, p.v.Offset, func(off int) {
		x := p.load(off).f
		if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		vals = append(vals, x)
		a := math.Abs(x)
		lo, hi = min(lo, a), max(hi, a)
		if x != math.Ceil(x) {
			f.intMode = false
		}
	})
	if len(vals) == 0 {
		return f
	}
	f.sciMode = hi/lo > 1000 || hi > 1e8 || (!f.intMode && lo < 1e-4)
	for _, x := range vals {
		switch {
		case f.sciMode:
			f.width = max(f.width, len(pyFloat(x, 'e', f.prec)))
		case f.intMode:
			f.width = max(f.width, len(pyFloat(x, 'f', 0))+1)
		default:
			f.width = max(f.width, len(pyFloat(x, 'f', f.prec)))
		}
	}
	return f
}

// format returns x's text, right-aligned to the formatter's width.
func (f *formatter) format(x value) string {
	var s string
	switch {
	case f.dt == dtype.Bool:
		s = "False"
		if x.t {
			s = "True"
		}
	case !f.dt.IsFloat():
		s = strconv.FormatInt(x.i, 10)
	case f.sciMode:
		s = pyFloat(x.f, 'e', f.prec)
	case f.intMode:
		s = pyFloat(x.f, 'f', 0)
		if !math.IsInf(x.f, 0) && !math.IsNaN(x.f) {
			s += "."
		}
	default:
		s = pyFloat(x.f, 'f', f.prec)
	}
	if n := f.width - len(s); n > 0 {
		s = strings.Repeat(" ", n) + s
	}
	return s
}

// pyFloat formats x as Python's format(x, ".{prec}{fmt}") does for fmt 'e'
// or 'f': like strconv, but with nan, inf and -inf spelt in lower case.
func pyFloat(x float64, fmt byte, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, fmt, prec, 64)
}
