package pytorch

import (
	"encoding/binary"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/goten-ml/goten/tensorio"
)

// Note [A restricted unpickler]
//
// torch.save pickles its object with Python's pickle, in which a file may
// name any Python callable (GLOBAL) and call it (REDUCE): unpickling an
// untrusted file runs arbitrary code. This reader executes nothing. It is
// a stack machine over the opcodes pickle protocols 2 to 5 use for plain
// data — None, bools, ints, floats, strings, bytes, tuples, lists, dicts,
// the memo, MARK — and it knows only the globals torch.save emits for
// tensors and state dicts (PyTorch's own weights_only unpickler allows the
// same few): collections.OrderedDict, torch._utils._rebuild_tensor_v2,
// _rebuild_parameter(_with_state), and the typed storage classes
// (torch.FloatStorage, ...) that name a storage's dtype in a persistent
// id. Any other global, and any other opcode, is refused with an
// Unsupported error naming it, before anything is built from it. Every
// read is bounds-checked against the pickle's bytes and every pop against
// the stack; the machine allocates no more than a constant times the
// pickle's length besides the storages it reads.

// global is a GLOBAL the reader knows: its module and name.
type global struct{ module, name string }

// String returns the global's Python name, "torch.FloatStorage".
func (g global) String() string { return g.module + "." + g.name }

var globals = map[global]bool{
	{"collections", "OrderedDict"}:                    true,
	{"torch._utils", "_rebuild_tensor_v2"}:            true,
	{"torch._utils", "_rebuild_parameter"}:            true,
	{"torch._utils", "_rebuild_parameter_with_state"}: true,
	{"torch", "FloatStorage"}:                         true,
	{"torch", "DoubleStorage"}:                        true,
	{"torch", "HalfStorage"}:                          true,
	{"torch", "BFloat16Storage"}:                      true,
	{"torch", "LongStorage"}:                          true,
	{"torch", "IntStorage"}:                           true,
	{"torch", "ShortStorage"}:                         true,
	{"torch", "CharStorage"}:                          true,
	{"torch", "ByteStorage"}:                          true,
	{"torch", "BoolStorage"}:                          true,
}

// Tuple is a Python tuple.
type Tuple []any

// List is a Python list.
type List struct {
	Items []any // the elements, in order
}

// Dict is a Python dict or OrderedDict, in insertion order. Keys are
// strings, ints, floats, bools, nil or tuples of them.
type Dict struct {
	Keys   []any // in insertion order
	Values []any // Values[i] is the value of Keys[i]
	// State is what the pickle set as the object's attributes (for a
	// module's state dict, {"_metadata": versions per submodule}), or nil.
	State any
}

// Get returns the value of key, and whether key is in d.
func (d *Dict) Get(key any) (any, bool) {
	for i, k := range d.Keys {
		if k == key {
			return d.Values[i], true
		}
	}
	return nil, false
}

func (d *Dict) set(k, v any) error {
	switch k.(type) {
	case nil, bool, int64, float64, string:
	default:
		if _, ok := k.(Tuple); !ok {
			return malformed("unhashable dict key of type %T", k)
		}
		return unsupported("tuple dict keys")
	}
	for i, old := range d.Keys {
		if old == k {
			d.Values[i] = v
			return nil
		}
	}
	d.Keys = append(d.Keys, k)
	d.Values = append(d.Values, v)
	return nil
}

type mark struct{}

// machine is the unpickler's state.
type machine struct {
	b     []byte
	i     int
	stack []any
	marks []int
	memo  map[uint32]any
	// persistent resolves a BINPERSID id.
	persistent func(id any) (any, error)
	// reduce applies a known global.
	reduce func(g global, args Tuple) (any, error)
}

func malformed(msg string, args ...any) error {
	return tensorio.Errorf("pytorch", tensorio.Malformed, msg, args...)
}

func unsupported(msg string, args ...any) error {
	return tensorio.Errorf("pytorch", tensorio.Unsupported, msg, args...)
}

func (m *machine) need(n int) ([]byte, error) {
	if n < 0 || n > len(m.b)-m.i {
		return nil, malformed("pickle truncated at byte %d", m.i)
	}
	s := m.b[m.i : m.i+n]
	m.i += n
	return s, nil
}

func (m *machine) pop() (any, error) {
	lo := 0
	if len(m.marks) > 0 {
		lo = m.marks[len(m.marks)-1]
	}
	if len(m.stack) <= lo {
		return nil, malformed("pickle stack underflow at byte %d", m.i)
	}
	v := m.stack[len(m.stack)-1]
	m.stack = m.stack[:len(m.stack)-1]
	return v, nil
}

func (m *machine) top() (any, error) {
	v, err := m.pop()
	if err == nil {
		m.stack = append(m.stack, v)
	}
	return v, err
}

// topDict returns the dict on top of the stack, which opcode op sets
// items of.
func (m *machine) topDict(op string) (*Dict, error) {
	obj, err := m.top()
	if err != nil {
		return nil, err
	}
	d, ok := obj.(*Dict)
	if !ok {
		return nil, malformed("%s on a %T", op, obj)
	}
	return d, nil
}

// popMark pops the items above the last mark, and the mark.
func (m *machine) popMark() ([]any, error) {
	if len(m.marks) == 0 {
		return nil, malformed("pickle: no MARK at byte %d", m.i)
	}
	k := m.marks[len(m.marks)-1]
	m.marks = m.marks[:len(m.marks)-1]
	items := append([]any{}, m.stack[k:]...)
	m.stack = m.stack[:k]
	return items, nil
}

func (m *machine) str(n int) (string, error) {
	s, err := m.need(n)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(s) {
		return "", malformed("pickle: invalid UTF-8 string")
	}
	return string(s), nil
}

// line reads a newline-terminated argument (GLOBAL's).
func (m *machine) line() (string, error) {
	for j := m.i; j < len(m.b); j++ {
		if m.b[j] == '\n' {
			s := string(m.b[m.i:j])
			m.i = j + 1
			return s, nil
		}
	}
	return "", malformed("pickle truncated in a GLOBAL")
}

func (m *machine) global(module, name string) (any, error) {
	g := global{module, name}
	if !globals[g] {
		return nil, unsupported("pickle global %s is not one torch.save writes for tensors (Note [A restricted unpickler])", g)
	}
	return g, nil
}

func (m *machine) memoGet(k uint32) error {
	v, ok := m.memo[k]
	if !ok {
		return malformed("pickle memo %d unset", k)
	}
	m.stack = append(m.stack, v)
	return nil
}

func (m *machine) memoPut(k uint32) error {
	v, err := m.top()
	if err != nil {
		return err
	}
	m.memo[k] = v
	return nil
}

// run executes the pickle and returns the object it builds.
func (m *machine) run() (any, error) {
	m.memo = map[uint32]any{}
	for {
		ops, err := m.need(1)
		if err != nil {
			return nil, err
		}
		op := ops[0]
		switch op {
		case 0x80: // PROTO
			v, err := m.need(1)
			if err != nil {
				return nil, err
			}
			if v[0] > 5 {
				return nil, unsupported("pickle protocol %d", v[0])
			}
		case 0x95: // FRAME: a length, then the framed opcodes (read as they come)
			if _, err := m.need(8); err != nil {
				return nil, err
			}
		case '.': // STOP
			v, err := m.pop()
			if err != nil {
				return nil, err
			}
			return v, nil
		case '(': // MARK
			m.marks = append(m.marks, len(m.stack))
		case 'N':
			m.stack = append(m.stack, nil)
		case 0x88, 0x89: // NEWTRUE, NEWFALSE
			m.stack = append(m.stack, op == 0x88)
		case 'K', 'M', 'J': // BININT1, BININT2, BININT
			n := map[byte]int{'K': 1, 'M': 2, 'J': 4}[op]
			b, err := m.need(n)
			if err != nil {
				return nil, err
			}
			var v int64
			switch n {
			case 1:
				v = int64(b[0])
			case 2:
				v = int64(binary.LittleEndian.Uint16(b))
			default:
				v = int64(int32(binary.LittleEndian.Uint32(b)))
			}
			m.stack = append(m.stack, v)
		case 0x8a: // LONG1: little-endian two's complement of n bytes
			nb, err := m.need(1)
			if err != nil {
				return nil, err
			}
			b, err := m.need(int(nb[0]))
			if err != nil {
				return nil, err
			}
			v, err := long(b)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, v)
		case 'G': // BINFLOAT, big-endian
			b, err := m.need(8)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, math.Float64frombits(binary.BigEndian.Uint64(b)))
		case 'X', 0x8c, 0x8d: // BINUNICODE, SHORT_BINUNICODE, BINUNICODE8
			n, err := m.length(map[byte]int{'X': 4, 0x8c: 1, 0x8d: 8}[op])
			if err != nil {
				return nil, err
			}
			s, err := m.str(n)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, s)
		case 'T', 'U': // BINSTRING, SHORT_BINSTRING (Python 2 str: bytes, read as text)
			n, err := m.length(map[byte]int{'T': 4, 'U': 1}[op])
			if err != nil {
				return nil, err
			}
			s, err := m.need(n)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, string(s))
		case 'B', 'C', 0x8e: // BINBYTES, SHORT_BINBYTES, BINBYTES8
			n, err := m.length(map[byte]int{'B': 4, 'C': 1, 0x8e: 8}[op])
			if err != nil {
				return nil, err
			}
			s, err := m.need(n)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, append([]byte{}, s...))
		case '}':
			m.stack = append(m.stack, &Dict{})
		case ']':
			m.stack = append(m.stack, &List{})
		case ')':
			m.stack = append(m.stack, Tuple{})
		case 0x85, 0x86, 0x87: // TUPLE1, TUPLE2, TUPLE3
			n := int(op - 0x84)
			t := make(Tuple, n)
			for k := n - 1; k >= 0; k-- {
				if t[k], err = m.pop(); err != nil {
					return nil, err
				}
			}
			m.stack = append(m.stack, t)
		case 't', 'l', 'd': // TUPLE, LIST, DICT from the items above a mark
			items, err := m.popMark()
			if err != nil {
				return nil, err
			}
			switch op {
			case 't':
				m.stack = append(m.stack, Tuple(items))
			case 'l':
				m.stack = append(m.stack, &List{Items: items})
			default:
				d := &Dict{}
				if err := setItems(d, items); err != nil {
					return nil, err
				}
				m.stack = append(m.stack, d)
			}
		case 'q': // BINPUT
			b, err := m.need(1)
			if err != nil {
				return nil, err
			}
			if err := m.memoPut(uint32(b[0])); err != nil {
				return nil, err
			}
		case 'r': // LONG_BINPUT
			b, err := m.need(4)
			if err != nil {
				return nil, err
			}
			if err := m.memoPut(binary.LittleEndian.Uint32(b)); err != nil {
				return nil, err
			}
		case 0x94: // MEMOIZE
			if err := m.memoPut(uint32(len(m.memo))); err != nil {
				return nil, err
			}
		case 'h': // BINGET
			b, err := m.need(1)
			if err != nil {
				return nil, err
			}
			if err := m.memoGet(uint32(b[0])); err != nil {
				return nil, err
			}
		case 'j': // LONG_BINGET
			b, err := m.need(4)
			if err != nil {
				return nil, err
			}
			if err := m.memoGet(binary.LittleEndian.Uint32(b)); err != nil {
				return nil, err
			}
		case 'c': // GLOBAL "module\nname\n"
			mod, err := m.line()
			if err != nil {
				return nil, err
			}
			name, err := m.line()
			if err != nil {
				return nil, err
			}
			g, err := m.global(mod, name)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, g)
		case 0x93: // STACK_GLOBAL
			name, err := m.pop()
			if err != nil {
				return nil, err
			}
			mod, err := m.pop()
			if err != nil {
				return nil, err
			}
			ms, ok1 := mod.(string)
			ns, ok2 := name.(string)
			if !ok1 || !ok2 {
				return nil, malformed("STACK_GLOBAL of non-strings")
			}
			g, err := m.global(ms, ns)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, g)
		case 'R': // REDUCE
			args, err := m.pop()
			if err != nil {
				return nil, err
			}
			f, err := m.pop()
			if err != nil {
				return nil, err
			}
			g, ok := f.(global)
			t, ok2 := args.(Tuple)
			if !ok || !ok2 {
				return nil, malformed("REDUCE of %T with %T", f, args)
			}
			v, err := m.reduce(g, t)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, v)
		case 'b': // BUILD: set an object's state
			state, err := m.pop()
			if err != nil {
				return nil, err
			}
			obj, err := m.top()
			if err != nil {
				return nil, err
			}
			d, ok := obj.(*Dict)
			if !ok {
				return nil, unsupported("BUILD of a %T", obj)
			}
			d.State = state
		case 's': // SETITEM
			v, err := m.pop()
			if err != nil {
				return nil, err
			}
			k, err := m.pop()
			if err != nil {
				return nil, err
			}
			d, err := m.topDict("SETITEM")
			if err != nil {
				return nil, err
			}
			if err := d.set(k, v); err != nil {
				return nil, err
			}
		case 'u': // SETITEMS
			items, err := m.popMark()
			if err != nil {
				return nil, err
			}
			d, err := m.topDict("SETITEMS")
			if err != nil {
				return nil, err
			}
			if err := setItems(d, items); err != nil {
				return nil, err
			}
		case 'a', 'e': // APPEND, APPENDS
			var items []any
			if op == 'a' {
				v, err := m.pop()
				if err != nil {
					return nil, err
				}
				items = []any{v}
			} else if items, err = m.popMark(); err != nil {
				return nil, err
			}
			obj, err := m.top()
			if err != nil {
				return nil, err
			}
			l, ok := obj.(*List)
			if !ok {
				return nil, malformed("APPEND on a %T", obj)
			}
			l.Items = append(l.Items, items...)
		case 'Q': // BINPERSID
			id, err := m.pop()
			if err != nil {
				return nil, err
			}
			v, err := m.persistent(id)
			if err != nil {
				return nil, err
			}
			m.stack = append(m.stack, v)
		default:
			return nil, unsupported("pickle opcode 0x%02x at byte %d (Note [A restricted unpickler])", op, m.i-1)
		}
	}
}

// length reads an n-byte little-endian length.
func (m *machine) length(n int) (int, error) {
	b, err := m.need(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	switch n {
	case 1:
		v = uint64(b[0])
	case 4:
		v = uint64(binary.LittleEndian.Uint32(b))
	default:
		v = binary.LittleEndian.Uint64(b)
	}
	if v > uint64(len(m.b)-m.i) {
		return 0, malformed("pickle truncated: a %d-byte string at byte %d", v, m.i)
	}
	return int(v), nil
}

func setItems(d *Dict, items []any) error {
	if len(items)%2 != 0 {
		return malformed("SETITEMS of an odd number of items")
	}
	for k := 0; k < len(items); k += 2 {
		if err := d.set(items[k], items[k+1]); err != nil {
			return err
		}
	}
	return nil
}

// long decodes LONG1's little-endian two's complement integer.
func long(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, nil
	}
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	v := new(big.Int).SetBytes(be)
	if b[len(b)-1]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if !v.IsInt64() {
		return 0, unsupported("integer %v does not fit in 64 bits", v)
	}
	return v.Int64(), nil
}
