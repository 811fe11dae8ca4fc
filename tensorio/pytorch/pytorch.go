// Package pytorch reads PyTorch checkpoints: the zip files torch.save
// writes (PyTorch 1.6 and later) of a tensor, a state dict, or plain
// containers of them.
//
// A checkpoint is a pickle of the object whose tensors refer to storages
// stored as separate zip records. The pickle is read by a restricted
// unpickler of this package that runs no code and knows only what
// torch.save writes for tensors (Note [A restricted unpickler]): a file
// that names anything else is refused with a [tensorio.Error] of kind
// [tensorio.Unsupported]. The legacy format (torch.save with
// _use_new_zipfile_serialization=False) and TorchScript archives are
// refused too.
//
// # Storages and views
//
// Tensors that share a storage in the checkpoint — a weight and its
// transpose, slices of one buffer, a tied embedding — share one storage
// in goten ([tensor.Tensor.SharesStorage] is true for them), with the
// same offsets and strides: writes through one are seen by the others, as
// after torch.load. [Load] maps the file and views each storage's record
// in place where it is stored uncompressed, aligned for its dtype
// (torch.save aligns records to 64 bytes) and the host is little-endian; otherwise it
// copies the record.
//
// # Values
//
// [Load] returns the unpickled object: *tensor.Tensor, *[Dict] (a dict or
// OrderedDict, in order), [Tuple], *[List], string, int64, float64, bool,
// []byte or nil. [LoadStateDict] reads a state dict (a dict of names to
// tensors) directly. A tensor's requires_grad is kept.
package pytorch

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/tensor"
	"github.com/goten-ml/goten/tensorio"
)

var storageTypes = map[string]dtype.DType{
	"FloatStorage": dtype.Float32, "DoubleStorage": dtype.Float64, "HalfStorage": dtype.Float16,
	"BFloat16Storage": dtype.BFloat16, "LongStorage": dtype.Int64, "IntStorage": dtype.Int32,
	"ShortStorage": dtype.Int16, "CharStorage": dtype.Int8, "ByteStorage": dtype.Uint8, "BoolStorage": dtype.Bool,
}

// storage is one storage record, loaded once however many tensors view it.
type storage struct {
	dt dtype.DType
	s  *tensor.Storage
}

// reader reads one checkpoint.
type reader struct {
	files    map[string]*zip.File
	prefix   string
	whole    *tensor.Storage // the mapped file, or nil
	storages map[string]*storage
}

// Read reads a checkpoint of size bytes from r into memory (storages are
// copied; see [Load] for a mapped file).
func Read(r io.ReaderAt, size int64) (any, error) {
	return read(r, size, nil)
}

// Load reads the checkpoint at path, memory-mapped (see the package doc).
func Load(path string) (any, error) {
	s, err := tensorio.MapFile(path)
	if err != nil {
		return nil, err
	}
	return read(bytes.NewReader(s.Bytes()), int64(s.Len()), s)
}

func read(r io.ReaderAt, size int64, whole *tensor.Storage) (any, error) {
	var magic [1]byte
	if n, _ := r.ReadAt(magic[:], 0); n == 1 && magic[0] == 0x80 { // a pickle's PROTO
		return nil, unsupported("not a zip file: the legacy torch.save format (before PyTorch 1.6, or _use_new_zipfile_serialization=False) is not read")
	}
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, malformed("not a zip archive: %v", err)
	}
	rd := &reader{files: map[string]*zip.File{}, whole: whole, storages: map[string]*storage{}}
	var pkl *zip.File
	for _, f := range z.File {
		rd.files[f.Name] = f
		if p, ok := strings.CutSuffix(f.Name, "data.pkl"); ok && strings.Count(p, "/") == 1 && strings.HasSuffix(p, "/") {
			if pkl != nil {
				return nil, malformed("two data.pkl records")
			}
			pkl, rd.prefix = f, p
		}
	}
	if pkl == nil {
		return nil, malformed("no data.pkl record: not a torch.save checkpoint")
	}
	if _, ok := rd.files[rd.prefix+"constants.pkl"]; ok {
		return nil, unsupported("a TorchScript archive (torch.jit.save), not a torch.save checkpoint")
	}
	if f, ok := rd.files[rd.prefix+"byteorder"]; ok {
		b, err := rd.record(f, 16)
		if err != nil {
			return nil, err
		}
		if string(b) != "little" {
			return nil, unsupported("byte order %q", b)
		}
	}
	p, err := rd.record(pkl, 1<<30)
	if err != nil {
		return nil, err
	}
	m := &machine{b: p, persistent: rd.persistent, reduce: rd.reduce}
	return m.run()
}

// record reads a small record whole (at most max bytes).
func (rd *reader) record(f *zip.File, max int) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, malformed("record %s of %d bytes", f.Name, f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, malformed("record %s: %v", f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(max)+1))
	if err != nil {
		return nil, malformed("record %s: %v", f.Name, err)
	}
	if len(b) > max {
		return nil, malformed("record %s longer than its size", f.Name)
	}
	return b, nil
}

// persistent resolves a storage's persistent id: ('storage', type, key,
// location, numel).
func (rd *reader) persistent(id any) (any, error) {
	t, ok := id.(Tuple)
	if !ok || len(t) != 5 || t[0] != "storage" {
		return nil, unsupported("persistent id %v is not a storage", id)
	}
	g, ok1 := t[1].(global)
	key, ok2 := t[2].(string)
	numel, ok3 := t[4].(int64)
	if !ok1 || !ok2 || !ok3 || g.module != "torch" {
		return nil, malformed("storage id %v", id)
	}
	dt, ok := storageTypes[g.name]
	if !ok {
		return nil, unsupported("storage type %s", g)
	}
	if s, ok := rd.storages[key]; ok {
		if s.dt != dt || int64(s.s.Len()) != numel*int64(dt.Size()) {
			return nil, malformed("storage %s read as %s of %d elements and as %s of %d", key, s.dt, s.s.Len()/s.dt.Size(), dt, numel)
		}
		return s, nil
	}
	f, ok := rd.files[rd.prefix+"data/"+key]
	if !ok {
		return nil, malformed("no record for storage %q", key)
	}
	if numel < 0 || numel > tensorio.MaxBytes/8 || f.UncompressedSize64 != uint64(numel)*uint64(dt.Size()) {
		return nil, malformed("storage %s: %d elements of %s in a record of %d bytes", key, numel, dt, f.UncompressedSize64)
	}
	s, err := rd.load(f, int(numel)*dt.Size(), dt)
	if err != nil {
		return nil, err
	}
	st := &storage{dt: dt, s: s}
	rd.storages[key] = st
	return st, nil
}

// load returns a storage record's bytes: a view of the mapped file where
// possible, else a copy.
func (rd *reader) load(f *zip.File, n int, dt dtype.DType) (*tensor.Storage, error) {
	if rd.whole != nil && f.Method == zip.Store && tensorio.LittleEndian && n > 0 {
		if off, err := f.DataOffset(); err == nil && off >= 0 && off+int64(n) <= int64(rd.whole.Len()) && off%int64(dt.Size()) == 0 {
			whole := rd.whole
			b := whole.Bytes()[off : off+int64(n)]
			// the record's storage keeps the file's mapping alive
			return device.WrapHost(b, func() { keep(whole) }), nil
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, malformed("record %s: %v", f.Name, err)
	}
	defer rc.Close()
	s, err := tensorio.ReadStorage(rc, n)
	if err != nil {
		return nil, malformed("record %s: %v", f.Name, err)
	}
	if !tensorio.LittleEndian {
		tensorio.Swap(s.Bytes(), dt.Size())
	}
	return s, nil
}

// keep is called by a record storage's finalizer; referring to the file's
// storage keeps it, and its mapping, alive until then.
func keep(*tensor.Storage) {}

func ints(v any) ([]int, bool) {
	t, ok := v.(Tuple)
	if !ok {
		return nil, false
	}
	out := make([]int, len(t))
	for i, x := range t {
		n, ok := x.(int64)
		if !ok || n < 0 || n > tensorio.MaxBytes {
			return nil, false
		}
		out[i] = int(n)
	}
	return out, true
}

// reduce applies one of the known globals.
func (rd *reader) reduce(g global, args Tuple) (any, error) {
	switch g {
	case global{"collections", "OrderedDict"}:
		if len(args) != 0 {
			return nil, unsupported("OrderedDict built from arguments")
		}
		return &Dict{}, nil
	case global{"torch._utils", "_rebuild_tensor_v2"}:
		// (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
		if len(args) < 6 || len(args) > 7 {
			return nil, malformed("_rebuild_tensor_v2 of %d arguments", len(args))
		}
		st, ok := args[0].(*storage)
		off, ok2 := args[1].(int64)
		size, ok3 := ints(args[2])
		stride, ok4 := ints(args[3])
		grad, ok5 := args[4].(bool)
		if !ok || !ok2 || !ok3 || !ok4 || !ok5 || len(size) != len(stride) || off < 0 || off > tensorio.MaxBytes {
			return nil, malformed("_rebuild_tensor_v2 arguments %v", args[1:5])
		}
		var t *tensor.Tensor
		if err := tensor.Try(func() { t = tensor.FromStorage(st.s, st.dt, size, stride, int(off)) }); err != nil {
			return nil, malformed("tensor of sizes %v, strides %v, offset %d over a storage of %d %s elements: %v",
				size, stride, off, st.s.Len()/st.dt.Size(), st.dt, err)
		}
		return requireGrad(t, grad)
	case global{"torch._utils", "_rebuild_parameter"}, global{"torch._utils", "_rebuild_parameter_with_state"}:
		// (data, requires_grad, backward_hooks[, state])
		if len(args) < 3 {
			return nil, malformed("%s of %d arguments", g, len(args))
		}
		t, ok := args[0].(*tensor.Tensor)
		grad, ok2 := args[1].(bool)
		if !ok || !ok2 {
			return nil, malformed("%s of %T, %T", g, args[0], args[1])
		}
		return requireGrad(t, grad)
	}
	return nil, unsupported("calling %s", g)
}

func requireGrad(t *tensor.Tensor, on bool) (*tensor.Tensor, error) {
	if !on {
		return t, nil
	}
	if !t.DType().IsFloat() {
		return nil, malformed("a %s tensor that requires grad", t.DType())
	}
	t.SetRequiresGrad(true)
	return t, nil
}

// StateDict is a module's state dict: tensors by name, in order.
type StateDict struct {
	Names   []string                  // in the checkpoint's order
	Tensors map[string]*tensor.Tensor // by name
}

// LoadStateDict reads a checkpoint of a state dict (torch.save of
// module.state_dict(), or of any dict of names to tensors) at path.
func LoadStateDict(path string) (*StateDict, error) {
	v, err := Load(path)
	if err != nil {
		return nil, err
	}
	return ToStateDict(v)
}

// ToStateDict returns the state dict a loaded object v holds: v must be a
// *Dict of string keys and tensor values.
func ToStateDict(v any) (*StateDict, error) {
	d, ok := v.(*Dict)
	if !ok {
		return nil, errors.New("pytorch: the checkpoint holds a " + typeName(v) + ", not a state dict")
	}
	sd := &StateDict{Tensors: map[string]*tensor.Tensor{}}
	for i, k := range d.Keys {
		name, ok := k.(string)
		t, ok2 := d.Values[i].(*tensor.Tensor)
		if !ok || !ok2 {
			return nil, fmt.Errorf("pytorch: state dict entry %v is a %s, not a tensor", k, typeName(d.Values[i]))
		}
		sd.Names = append(sd.Names, name)
		sd.Tensors[name] = t
	}
	return sd, nil
}

func typeName(v any) string {
	switch v.(type) {
	case *tensor.Tensor:
		return "tensor"
	case *Dict:
		return "dict"
	case Tuple:
		return "tuple"
	case *List:
		return "list"
	case nil:
		return "None"
	}
	return fmt.Sprintf("%T", v)
}
