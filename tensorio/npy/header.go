package npy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensorio"
)

// header is a parsed .npy header.
type header struct {
	dt      dtype.DType
	swap    bool // the data's byte order is not the host's
	fortran bool
	shape   []int
}

func malformed(msg string, args ...any) error {
	return tensorio.Errorf("npy", tensorio.Malformed, msg, args...)
}

func unsupported(msg string, args ...any) error {
	return tensorio.Errorf("npy", tensorio.Unsupported, msg, args...)
}

// Note [The .npy header]
//
// The header is a Python dict literal written by repr: {'descr': '<f4',
// 'fortran_order': False, 'shape': (2, 3), } padded with spaces and a
// newline. NumPy reads it with ast.literal_eval; we accept the subset its
// writer (and others: ml_dtypes, Julia's, Rust's npy crates) emits —
// strings in either quote, True/False, tuples of non-negative integers,
// trailing commas, any whitespace — and exactly the three keys NumPy
// requires. Anything else is a malformed file: a reader that guessed at
// other literals would accept files NumPy refuses.

// parseHeader parses the dict literal of a .npy header.
func parseHeader(s string) (*header, error) {
	p := &lit{s: s}
	if !p.eat('{') {
		return nil, malformed("header %.40q is not a dict literal", s)
	}
	var h header
	seen := map[string]bool{}
	for {
		if p.eat('}') {
			break
		}
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return nil, malformed("header %.60q: expected 'key': value", s)
		}
		if seen[key] {
			return nil, malformed("header key %q repeated", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			d, ok := p.str()
			if !ok {
				p.space()
				if p.i < len(p.s) && p.s[p.i] == '[' {
					return nil, unsupported("structured arrays (descr is a list of fields) have no goten dtype")
				}
				return nil, malformed("descr is not a string")
			}
			var err error
			if h.dt, h.swap, err = parseDescr(d); err != nil {
				return nil, err
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
			default:
				return nil, malformed("fortran_order is not True or False")
			}
		case "shape":
			sh, ok := p.tuple()
			if !ok {
				return nil, malformed("shape is not a tuple of non-negative integers")
			}
			h.shape = sh
		default:
			return nil, malformed("unexpected header key %q", key)
		}
		if !p.eat(',') {
			if !p.eat('}') {
				return nil, malformed("header %.60q: expected ',' or '}'", s)
			}
			break
		}
	}
	if len(seen) != 3 {
		return nil, malformed("header has keys %v, want descr, fortran_order and shape", keys(seen))
	}
	if strings.TrimSpace(p.s[p.i:]) != "" {
		return nil, malformed("text after the header's dict")
	}
	return &h, nil
}

func keys(m map[string]bool) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	return k
}

// Note [NumPy dtypes]
//
// descr is an array-protocol type string: a byte-order character ('<'
// little, '>' big, '|' not applicable, '=' native), a kind and a size in
// bytes. goten has b1 u1 i1 i2 i4 i8 f2 f4 f8. NumPy has no bfloat16:
// ml_dtypes' bfloat16 arrays are saved with descr '<V2' (a 2-byte void,
// since NumPy's type codes are not extensible; jax-ml/ml_dtypes#41), and
// some writers spell it 'bfloat16'. We read both as bfloat16 — a 2-byte
// void has no other common meaning (Keras reads it so too) — and write
// '<V2', which ml_dtypes reads back with .view(bfloat16). Every other kind
// is refused as unsupported, naming the NumPy type.

var kinds = map[string]dtype.DType{
	"b1": dtype.Bool, "u1": dtype.Uint8, "i1": dtype.Int8, "i2": dtype.Int16, "i4": dtype.Int32,
	"i8": dtype.Int64, "f2": dtype.Float16, "f4": dtype.Float32, "f8": dtype.Float64, "V2": dtype.BFloat16,
}

// parseDescr returns the dtype of a descr string and whether its bytes are
// in the other byte order than the host's (Note [NumPy dtypes]).
func parseDescr(d string) (dtype.DType, bool, error) {
	if d == "bfloat16" {
		return dtype.BFloat16, false, nil
	}
	big := false
	body := d
	if body != "" {
		switch body[0] {
		case '<', '|', '=':
			body = body[1:]
		case '>':
			big, body = true, body[1:]
		}
	}
	if dt, ok := kinds[body]; ok {
		return dt, dt.Size() > 1 && big == tensorio.LittleEndian, nil
	}
	if body == "" {
		return 0, false, malformed("empty descr")
	}
	switch body[0] {
	case 'O':
		return 0, false, unsupported("object arrays (descr %q) hold pickled Python objects, which goten does not read", d)
	case 'c':
		return 0, false, unsupported("complex dtype %q has no goten dtype", d)
	case 'u':
		return 0, false, unsupported("unsigned dtype %q has no goten dtype (goten has uint8 only)", d)
	case 'U', 'S', 'a':
		return 0, false, unsupported("string dtype %q has no goten dtype", d)
	case 'M', 'm':
		return 0, false, unsupported("datetime dtype %q has no goten dtype", d)
	case 'V':
		return 0, false, unsupported("void dtype %q has no goten dtype (only V2, read as bfloat16)", d)
	}
	return 0, false, unsupported("dtype %q has no goten dtype", d)
}

// descr returns the descr NumPy writes for dt on this host's byte order.
func descr(dt dtype.DType) string {
	switch dt {
	case dtype.Bool:
		return "|b1"
	case dtype.Uint8:
		return "|u1"
	case dtype.Int8:
		return "|i1"
	case dtype.BFloat16:
		return "<V2"
	}
	for k, d := range kinds {
		if d == dt {
			return "<" + k
		}
	}
	panic("npy: invalid dtype")
}

// formatHeader returns the dict literal NumPy writes for a C-order array.
func formatHeader(dt dtype.DType, shape []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr(dt))
	for i, s := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(s))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteString("), }")
	return b.String()
}

// lit scans a Python literal.
type lit struct {
	s string
	i int
}

func (p *lit) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *lit) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *lit) word(w string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// str scans a quoted string without escapes (none of the header's strings
// has one).
func (p *lit) str() (string, bool) {
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", false
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+end]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", false
	}
	p.i += end + 2
	return v, true
}

// tuple scans a tuple of non-negative integers: (), (3,), (2, 3), (2, 3,);
// Python 2 writers may suffix an L.
func (p *lit) tuple() ([]int, bool) {
	if !p.eat('(') {
		return nil, false
	}
	sh := []int{}
	for {
		if p.eat(')') {
			return sh, true
		}
		p.space()
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, err := strconv.Atoi(p.s[j:p.i])
		if err != nil || int64(n) > tensorio.MaxBytes {
			return nil, false
		}
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		sh = append(sh, n)
		if !p.eat(',') {
			return sh, p.eat(')') && len(sh) != 1 // (3) is 3, not a tuple
		}
	}
}
