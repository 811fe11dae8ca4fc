// Package safetensors reads and writes the safetensors format of Hugging
// Face (huggingface/safetensors): an 8-byte little-endian header length, a
// JSON header naming each tensor's dtype, shape and byte range, and the
// tensors' bytes, row-major and little-endian.
//
// # Validation
//
// A reader trusts nothing in the header (Note [Header validation]): the
// header's length, its JSON, every dtype, every shape against its byte
// range, and the ranges themselves, which must tile the data exactly — in
// the file, no gaps, no overlaps, nothing after the last — as the
// reference implementation requires. A file that breaks a rule is a
// [tensorio.Error] of kind [tensorio.Malformed]; a dtype goten lacks (U16,
// U32, U64, F8_*, C64, ...) is [tensorio.Unsupported].
//
// # Memory mapping
//
// [Load] maps the file ([tensorio.MapFile]) and returns tensors that view
// it without copying when a tensor's bytes are aligned for its dtype
// within the file, which writers that follow the format's convention
// ensure (the header is padded to 8 bytes and tensors are ordered by
// dtype size, largest first; [Write] does so). A misaligned tensor is
// copied. Writes to the tensors never reach the file.
package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
)

// File is the contents of a safetensors file.
type File struct {
	// Names lists the tensors in the order of their bytes in the file.
	Names []string
	// Tensors maps a name to its tensor.
	Tensors map[string]*tensor.Tensor
	// Metadata is the header's free-form "__metadata__" (nil if absent).
	Metadata map[string]string
}

// MaxHeader bounds the JSON header's length, as the reference
// implementation does (100 MB).
const MaxHeader = 100_000_000

var dtypes = map[string]dtype.DType{
	"BOOL": dtype.Bool, "U8": dtype.Uint8, "I8": dtype.Int8, "I16": dtype.Int16, "I32": dtype.Int32, "I64": dtype.Int64,
	"F16": dtype.Float16, "BF16": dtype.BFloat16, "F32": dtype.Float32, "F64": dtype.Float64,
}

// others are the format's dtypes that goten lacks.
var others = []string{"U16", "U32", "U64", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F6_E2M3", "F6_E3M2", "F4", "C64", "E8M0"}

func name(dt dtype.DType) string {
	for k, d := range dtypes {
		if d == dt {
			return k
		}
	}
	panic("safetensors: invalid dtype")
}

func malformed(msg string, args ...any) error {
	return tensorio.Errorf("safetensors", tensorio.Malformed, msg, args...)
}

// entry is one tensor's header record.
type entry struct {
	name       string
	dt         dtype.DType
	shape      []int
	begin, end int
}

type record struct {
	DType       string  `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// Note [Header validation]
//
// The checks of the reference implementation (safetensors' Rust crate,
// Metadata::validate), in its order: the header is JSON of an object whose
// values are records of exactly dtype, shape and data_offsets (or the
// metadata, an object of strings); every dtype is known; sorted by begin,
// each record's range starts where the previous one ended (so ranges
// neither overlap nor leave gaps) and does not end before it begins; its
// length is the shape's element count times the dtype's size, computed
// without overflow; and the last range ends at the end of the data.

// parseHeader parses and validates a header for data of dataLen bytes (-1:
// unknown, a stream: the caller checks the end).
func parseHeader(h []byte, dataLen int) ([]entry, map[string]string, error) {
	var raw map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(h))
	if err := d.Decode(&raw); err != nil {
		return nil, nil, malformed("header is not a JSON object: %v", err)
	}
	if raw == nil {
		return nil, nil, malformed("header is null")
	}
	if rest := strings.TrimRight(string(h[d.InputOffset():]), " \t\r\n"); rest != "" {
		return nil, nil, malformed("text after the header's JSON")
	}
	var meta map[string]string
	var es []entry
	for k, v := range raw {
		if k == "__metadata__" {
			if err := json.Unmarshal(v, &meta); err != nil {
				return nil, nil, malformed("__metadata__ is not an object of strings: %v", err)
			}
			continue
		}
		var r record
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, nil, malformed("tensor %q: %v", k, err)
		}
		dt, ok := dtypes[r.DType]
		if !ok {
			if slices.Contains(others, r.DType) {
				return nil, nil, tensorio.Errorf("safetensors", tensorio.Unsupported, "tensor %q: dtype %s has no goten dtype", k, r.DType)
			}
			return nil, nil, malformed("tensor %q: unknown dtype %q", k, r.DType)
		}
		if r.Shape == nil || len(r.DataOffsets) != 2 {
			return nil, nil, malformed("tensor %q: needs a shape and two data_offsets", k)
		}
		shape := make([]int, len(r.Shape))
		for i, s := range r.Shape {
			if s < 0 || s > tensorio.MaxBytes {
				return nil, nil, malformed("tensor %q: size %d in shape %v", k, s, r.Shape)
			}
			shape[i] = int(s)
		}
		b, e := r.DataOffsets[0], r.DataOffsets[1]
		if b < 0 || e < b || e > tensorio.MaxBytes {
			return nil, nil, malformed("tensor %q: data_offsets [%d, %d]", k, b, e)
		}
		es = append(es, entry{name: k, dt: dt, shape: shape, begin: int(b), end: int(e)})
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.begin != b.begin {
			return a.begin - b.begin
		}
		return a.end - b.end
	})
	at := 0
	for _, e := range es {
		if e.begin != at {
			if e.begin < at {
				return nil, nil, malformed("tensor %q: bytes [%d, %d) overlap the previous tensor's, which end at %d", e.name, e.begin, e.end, at)
			}
			return nil, nil, malformed("tensor %q: bytes [%d, %d) leave a gap after %d", e.name, e.begin, e.end, at)
		}
		_, n, ok := tensorio.NumBytes(e.shape, e.dt.Size())
		if !ok || n != e.end-e.begin {
			return nil, nil, malformed("tensor %q: shape %v of %s does not take its %d bytes [%d, %d)", e.name, e.shape, e.dt, e.end-e.begin, e.begin, e.end)
		}
		at = e.end
	}
	if dataLen >= 0 && at != dataLen {
		return nil, nil, malformed("the tensors take %d bytes, the file holds %d after its header", at, dataLen)
	}
	return es, meta, nil
}

// prefix parses the header length of a file's first 8 bytes.
func prefix(b []byte) (int, error) {
	if len(b) < 8 {
		return 0, malformed("truncated: %d bytes, no room for the header's length", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > MaxHeader {
		return 0, malformed("header of %d bytes (at most %d)", n, MaxHeader)
	}
	return int(n), nil
}

// build makes the tensors of es, whose data starts at byte base of s:
// each a storage of its own (Note [One storage per tensor]).
func build(es []entry, meta map[string]string, s *tensor.Storage, base int) *File {
	f := &File{Tensors: make(map[string]*tensor.Tensor, len(es)), Metadata: meta}
	for _, e := range es {
		size := e.dt.Size()
		at := base + e.begin
		var t *tensor.Tensor
		if at%size == 0 && (tensorio.LittleEndian || size == 1) {
			own := device.WrapHost(s.Bytes()[at:base+e.end], func() { keep(s) })
			tensor.Try(func() { t = tensor.FromStorage(own, e.dt, e.shape, nil, 0) })
		}
		if t == nil {
			c := device.Alloc(e.end - e.begin)
			copy(c.Bytes(), s.Bytes()[at:base+e.end])
			if !tensorio.LittleEndian {
				tensorio.Swap(c.Bytes(), size)
			}
			t = tensor.FromStorage(c, e.dt, e.shape, nil, 0)
		}
		f.Names = append(f.Names, e.name)
		f.Tensors[e.name] = t
	}
	return f
}

// Note [One storage per tensor]
//
// The tensors of a file view one buffer (the mapped file), but each gets a
// storage of its own over its bytes ([device.WrapHost]), as each would
// after torch's safetensors.load_file: they do not share storage
// ([tensor.Tensor.SharesStorage] is false), and an in-place write to one
// does not bump the others' version counters (which autograd checks). The
// storage's release function refers to the file's storage, keeping the
// mapping alive while any of them is.

// keep is called by a tensor storage's finalizer; referring to the file's
// storage keeps it, and its mapping, alive until then.
func keep(*tensor.Storage) {}

// View reads a safetensors file held in storage s (from
// [tensorio.MapFile], say): the tensors view s without copying where they
// are aligned (see the package doc).
func View(s *tensor.Storage) (*File, error) {
	b := s.Bytes()
	n, err := prefix(b)
	if err != nil {
		return nil, err
	}
	if len(b)-8 < n {
		return nil, malformed("truncated header: %d bytes of %d", len(b)-8, n)
	}
	es, meta, err := parseHeader(b[8:8+n], len(b)-8-n)
	if err != nil {
		return nil, err
	}
	return build(es, meta, s, 8+n), nil
}

// Load reads the safetensors file at path, memory-mapped (see the package
// doc).
func Load(path string) (*File, error) {
	s, err := tensorio.MapFile(path)
	if err != nil {
		return nil, err
	}
	return View(s)
}

// Read reads a safetensors stream into memory: r must end after the last
// tensor's bytes.
func Read(r io.Reader) (*File, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, short(err, "header length")
	}
	n, err := prefix(pre[:])
	if err != nil {
		return nil, err
	}
	h, err := tensorio.ReadStorage(r, n)
	if err != nil {
		return nil, short(err, "header")
	}
	es, meta, err := parseHeader(h.Bytes(), -1)
	if err != nil {
		return nil, err
	}
	total := 0
	if len(es) > 0 {
		total = es[len(es)-1].end
	}
	s, err := tensorio.ReadStorage(r, total)
	if err != nil {
		return nil, short(err, "data")
	}
	if k, _ := r.Read(make([]byte, 1)); k != 0 {
		return nil, malformed("bytes after the last tensor's")
	}
	return build(es, meta, s, 0), nil
}

func short(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return malformed("truncated %s", what)
	}
	return err
}

// Write writes tensors and metadata (nil for none) as a safetensors
// stream. Tensors are stored by dtype size, largest first, then by name,
// after a header padded with spaces to a multiple of 8 bytes, so that
// every tensor is aligned for its dtype in the file (and [Load] views it
// in place). It returns an error for an empty name or one that is
// "__metadata__".
func Write(w io.Writer, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		if n == "" || n == "__metadata__" {
			return fmt.Errorf("safetensors: tensor name %q", n)
		}
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if sa, sb := tensors[a].DType().Size(), tensors[b].DType().Size(); sa != sb {
			return sb - sa
		}
		return strings.Compare(a, b)
	})
	var hb bytes.Buffer
	hb.WriteByte('{')
	if metadata != nil {
		m, err := json.Marshal(metadata)
		if err != nil {
			return err
		}
		hb.WriteString(`"__metadata__":`)
		hb.Write(m)
	}
	at := 0
	for i, n := range names {
		t := tensors[n]
		nb := t.NumEl() * t.DType().Size()
		k, _ := json.Marshal(n)
		if i > 0 || metadata != nil {
			hb.WriteByte(',')
		}
		shape := t.Shape()
		sh, _ := json.Marshal(shape)
		fmt.Fprintf(&hb, `%s:{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, k, name(t.DType()), sh, at, at+nb)
		at += nb
	}
	hb.WriteByte('}')
	for hb.Len()%8 != 0 {
		hb.WriteByte(' ')
	}
	var pre [8]byte
	binary.LittleEndian.PutUint64(pre[:], uint64(hb.Len()))
	if _, err := w.Write(pre[:]); err != nil {
		return err
	}
	if _, err := w.Write(hb.Bytes()); err != nil {
		return err
	}
	for _, n := range names {
		if _, err := w.Write(tensorio.Bytes(tensors[n])); err != nil {
			return err
		}
	}
	return nil
}

// Save writes tensors and metadata to a safetensors file at path (see
// [Write]).
func Save(path string, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, tensors, metadata); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
