// Package tensorio holds what goten's file formats share; the formats
// themselves are its subpackages: [github.com/goten-ml/goten/tensorio/npy]
// (NumPy's .npy and .npz), [github.com/goten-ml/goten/tensorio/safetensors]
// and [github.com/goten-ml/goten/tensorio/pytorch] (torch.save checkpoints,
// read only).
//
// # Errors
//
// Every reader returns a file it cannot read as an [*Error]: [Malformed]
// for a file that breaks its format (truncated, a header that lies about
// sizes or offsets, a shape whose bytes overflow) and [Unsupported] for a
// well-formed file goten cannot represent (object arrays, complex or
// unsigned 16-64-bit dtypes, a pickle global a checkpoint reader does not
// know). I/O errors of the underlying file are returned as they are
// (wrapped). No input makes a reader panic or read outside its buffer: the
// readers are fuzzed from the seed files in their testdata.
//
// # Memory mapping
//
// [MapFile] maps a file into memory (on Linux, macOS and the BSDs; it reads
// the file into memory elsewhere), so that readers can return tensors that
// view the file's bytes in place: opening a large file costs milliseconds,
// and pages are read from disk when an element on them is first touched.
// The mapping is private: writes to such tensors change memory, never the
// file. It is unmapped once no tensor over it is left (Note [Wrapped host
// memory] in package device).
//
// # Byte order
//
// The formats store little-endian data (NumPy's may be big-endian). On a
// little-endian host the bytes are the elements; a big-endian file, or a
// big-endian host, costs a byte-swapped copy.
package tensorio
