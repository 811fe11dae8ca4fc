"""Writes safetensors files with PyTorch for goten's safetensors tests.

The safetensors package is not installed here, so this writes the format as
its specification (huggingface/safetensors README) states it, independently
of goten's Go code: an 8-byte little-endian header length, a JSON header,
the tensors' bytes (torch tensors' own, little-endian).

usage: gen.py OUTDIR       writes the files
       gen.py --check FILE  reads a file goten wrote, checks it, prints ok

Values: element i (row-major) of every tensor is value(dtype, i); the Go
tests compute the same formula.
"""
import json
import struct
import sys

import torch

DTYPES = {
    "BOOL": torch.bool, "U8": torch.uint8, "I8": torch.int8, "I16": torch.int16, "I32": torch.int32,
    "I64": torch.int64, "F16": torch.float16, "BF16": torch.bfloat16, "F32": torch.float32, "F64": torch.float64,
}


def size(dt):
    return torch.empty(0, dtype=dt).element_size()


def value(dt, i):
    if dt == torch.bool:
        return i % 3 == 0
    if dt == torch.uint8:
        return (i * 37) % 23
    if not dt.is_floating_point:
        return (i * 37) % 23 - 11
    return (i - 5) * 0.25


def make(dt, shape):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([value(dt, i) for i in range(n)], dtype=dt).reshape(shape)


def raw(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def write(path, tensors, metadata=None, align=True, pad_to=8):
    """tensors: list of (name, tensor) in the order their bytes are stored."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, t in tensors:
        b = raw(t)
        header[name] = {"dtype": [k for k, v in DTYPES.items() if v == t.dtype][0],
                        "shape": list(t.shape), "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    h = json.dumps(header).encode()
    if align:
        h += b" " * (-len(h) % pad_to)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def gen(out):
    # every dtype, largest first: aligned, viewed in place
    ts = [(k.lower(), make(v, (2, 3, 4))) for k, v in sorted(DTYPES.items(), key=lambda kv: -size(kv[1]))]
    ts += [("scalar", make(torch.float32, ())), ("empty", make(torch.int64, (0, 5)))]
    write(f"{out}/all.safetensors", ts, metadata={"format": "pt", "source": "gen.py"})
    # a 1-byte tensor first and no padding: i64 is misaligned (copied), f32 happens to be aligned
    write(f"{out}/unaligned.safetensors", [("u8", make(torch.uint8, (3,))), ("f32", make(torch.float32, (2, 2))),
                                           ("i64", make(torch.int64, (3,)))], align=False)
    write(f"{out}/empty.safetensors", [])


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    (n,) = struct.unpack("<Q", b[:8])
    header = json.loads(b[8:8 + n])
    meta = header.pop("__metadata__", None)
    data = b[8 + n:]
    out = {}
    for name, r in header.items():
        s, e = r["data_offsets"]
        dt = DTYPES[r["dtype"]]
        store = torch.int16 if dt == torch.bfloat16 else dt
        t = torch.frombuffer(bytearray(data[s:e]), dtype=store) if e > s else torch.empty(0, dtype=store)
        out[name] = t.view(dt).reshape(tuple(r["shape"]))
        assert (8 + n + s) % size(dt) == 0, ("misaligned", name)
    assert max([r["data_offsets"][1] for r in header.values()] or [0]) == len(data), "trailing bytes"
    return out, meta


def check(path):
    ts, meta = read(path)
    assert meta == {"who": "goten"}, meta
    assert len(ts) == 12, sorted(ts)
    for k, dt in DTYPES.items():
        got = ts[k.lower()]
        assert got.dtype == dt and torch.equal(got, make(dt, (2, 3, 4))), k
    assert torch.equal(ts["scalar"], make(torch.float64, ())), ts["scalar"]
    assert ts["empty"].shape == (4, 0) and ts["empty"].dtype == torch.int16
    print("ok")


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        gen(sys.argv[1])
