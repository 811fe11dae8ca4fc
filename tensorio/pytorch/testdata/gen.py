"""Writes torch.save checkpoints for goten's pytorch tests.

usage: gen.py OUTDIR

Values: element i (row-major) of every base tensor is value(dtype, i), as in
the other formats' generators; the Go tests compute the same formula.
"""
import collections
import pickle
import sys

import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


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


def gen(out):
    # one tensor of every dtype
    torch.save({str(dt).split(".")[1]: make(dt, (2, 3, 4)) for dt in DTYPES}, f"{out}/dtypes.pt")
    # a module's state dict (an OrderedDict with _metadata), with a
    # parameter that requires grad and a buffer
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(make(torch.float32, p.shape) + i)
    torch.save(m.state_dict(), f"{out}/state_dict.pt")
    # views sharing one storage: a base, its transpose, a slice with an
    # offset, a strided column, an expanded (stride 0) row, a 0-d element
    base = make(torch.float32, (4, 5))
    torch.save(collections.OrderedDict([
        ("base", base), ("t", base.t()), ("rows", base[1:3]), ("col", base[:, 2]),
        ("expand", base[0].expand(3, 5)), ("elem", base[2, 3]), ("other", make(torch.int64, (3,))),
    ]), f"{out}/views.pt")
    # a lone tensor, 0-d and empty ones, nested containers
    torch.save(make(torch.float64, (3, 2)), f"{out}/tensor.pt")
    torch.save({"scalar": make(torch.float32, ()), "empty": make(torch.int32, (0, 4)),
                "list": [make(torch.int8, (2,)), 1, 2.5, "s", None, True], "tuple": (1, (2, 3))}, f"{out}/misc.pt")
    # a parameter pickled whole (torch._utils._rebuild_parameter)
    torch.save(torch.nn.Parameter(make(torch.float32, (2,))), f"{out}/parameter.pt")
    # refused: a module pickled whole (its class is a global), the legacy format
    torch.save(torch.nn.Linear(2, 2), f"{out}/module.pt")
    torch.save(make(torch.float32, (2,)), f"{out}/legacy.pt", _use_new_zipfile_serialization=False)
    # pickle protocol 4 (SHORT_BINUNICODE, MEMOIZE, FRAME, STACK_GLOBAL)
    torch.save({"x": make(torch.float16, (3,))}, f"{out}/protocol4.pt", pickle_protocol=4)


if __name__ == "__main__":
    gen(sys.argv[1])
