"""Writes .npy and .npz files with NumPy for goten's npy tests.

usage: gen.py OUTDIR      writes the files (the tests run it into a temp dir;
                          the committed ones in this directory came from it)
       gen.py --check DIR checks the files goten wrote into DIR (check.json
                          lists them) against the same values, read by NumPy

Values: element i (row-major) of every array is value(kind, i) below; the Go
tests compute the same formula.
"""
import json
import os
import sys

import numpy as np


def value(kind, i):
    if kind == "b":
        return i % 3 == 0
    if kind in "ui":
        return (i * 37) % 23 - (0 if kind == "u" else 11)
    return (i - 5) * 0.25


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def array(dt, shape):
    n = int(np.prod(shape, dtype=np.int64))
    kind = np.dtype(dt).kind
    return np.array([value(kind, i) for i in range(n)], dtype=dt).reshape(shape)


def bf16(shape):
    # NumPy has no bfloat16: ml_dtypes' arrays are saved as 2-byte voids.
    # The bfloat16 bits of a float32 value v are its top 16 bits (all our
    # values are exact in bfloat16).
    f = array("float32", shape)
    return (f.view(np.uint32) >> 16).astype(np.uint16).view("V2")


def write(out):
    for dt in DTYPES:
        np.save(os.path.join(out, f"{dt}.npy"), array(dt, (2, 3, 4)))
        np.save(os.path.join(out, f"{dt}_fortran.npy"), np.asfortranarray(array(dt, (2, 3, 4))))
    np.save(os.path.join(out, "bfloat16.npy"), bf16((2, 3, 4)))
    np.save(os.path.join(out, "scalar.npy"), array("float64", ()))
    np.save(os.path.join(out, "empty.npy"), array("int32", (0, 3)))
    np.save(os.path.join(out, "bigendian.npy"), array(">f4", (2, 3)))
    np.save(os.path.join(out, "bigendian_i8.npy"), array(">i8", (5,)))
    np.save(os.path.join(out, "object.npy"), np.array([1, "a", None], dtype=object), allow_pickle=True)
    np.save(os.path.join(out, "complex.npy"), np.ones(3, dtype=np.complex64))
    arrays = {"x": array("float32", (3, 2)), "y": array("int64", (4,)), "z": array("bool", ())}
    np.savez(os.path.join(out, "stored.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "compressed.npz"), **arrays)


def check(d):
    spec = json.load(open(os.path.join(d, "check.json")))
    for name, (dt, shape, permuted) in spec.items():
        # a permuted file holds array(dt, reversed shape).transpose()
        def expect(a):
            return a.transpose() if permuted else a
        path = os.path.join(d, name)
        if name.endswith(".npz"):
            z = np.load(path)
            for k in z.files:
                a = z[k]
                want = array(a.dtype.str, a.shape)
                assert np.array_equal(a, want), (name, k)
            continue
        src = tuple(reversed(shape)) if permuted else tuple(shape)
        a = np.load(path)
        if dt == "bfloat16":
            assert a.dtype == np.dtype("V2"), (name, a.dtype)
            want = expect(bf16(src))
            assert a.shape == tuple(shape) and a.tobytes() == np.ascontiguousarray(want).tobytes(), name
            continue
        assert a.dtype == np.dtype(dt), (name, a.dtype, dt)
        assert a.shape == tuple(shape), (name, a.shape, shape)
        assert np.array_equal(a, expect(array(dt, src))), (name, a)
    print("ok", len(spec))


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        write(sys.argv[1])
