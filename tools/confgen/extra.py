#!/usr/bin/env python3
"""Conformance cases for ops the reference runner (torch_runner.py) does not define.

goten's op table has a few ops beyond OPS.md (softsign, the architecture issue's demonstration of
adding an op). This script writes cases for them in FORMAT.md's format, with expectations computed
by PyTorch 1.13 itself, so that such an op is checked against PyTorch like any other:

    /usr/bin/python3 tools/confgen/extra.py > testdata/conformance-variants/cases/extra.jsonl

Each op gets every dtype (PyTorch's errors included), contiguous and strided inputs, 0-d and empty
ones, special values, and its in-place form where PyTorch has one.
"""
import json
import math
import random

import torch
import torch.nn.functional as F

# name -> (function of the input, in-place form or None)
OPS = {
    "softsign": (F.softsign, None),
}

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e4, -1e-3, float("inf"), float("-inf"), float("nan")]


def name(dt):
    return str(dt).replace("torch.", "")


def encode(x, dt):
    if dt == torch.bool:
        return bool(x)
    if not dt.is_floating_point:
        return int(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(x) if dt != torch.float32 else float(repr(torch.tensor(x, dtype=torch.float32).item()))


def values(t):
    dt = t.dtype
    flat = t.detach().reshape(-1)
    if dt in (torch.float16, torch.bfloat16):
        flat = flat.to(torch.float32)
    return [encode(v, dt) for v in flat.tolist()]


def draw(rng, dt, n, special):
    if dt == torch.bool:
        return torch.tensor([rng.random() < 0.5 for _ in range(n)], dtype=dt)
    if not dt.is_floating_point:
        lo, hi = (0, 255) if dt == torch.uint8 else (-100, 100)
        return torch.tensor([rng.randint(lo, hi) for _ in range(n)]).to(dt)
    xs = [rng.choice(SPECIAL) if special and rng.random() < 0.5 else rng.uniform(-8, 8) for _ in range(n)]
    return torch.tensor(xs, dtype=torch.float64).to(dt)


def case(cid, op, fn, dt, shape, layout, rng, special):
    n = math.prod(shape)
    if layout == "strided" and n > 0:
        # every other element of a larger storage, with an offset
        storage = draw(rng, dt, 2 * n + 1, special)
        x = storage[1::2][:n].reshape(shape) if shape else storage[1]
        inp = {"dtype": name(dt), "shape": list(shape), "strides": [2 * math.prod(shape[k + 1:]) for k in range(len(shape))],
               "offset": 1, "storage": values(storage)}
    else:
        x = draw(rng, dt, n, special).reshape(shape)
        inp = {"dtype": name(dt), "shape": list(shape), "values": values(x)}
    c = {"id": f"extra/{op}/{cid:03d}", "inputs": {"a": inp}, "program": [{"out": "y", "op": op, "args": ["a"]}]}
    try:
        y = fn(x)
    except RuntimeError as e:
        c["error"] = {"kind": "dtype", "step": 0, "message": str(e).split("\n")[0]}
        return c
    c["expect"] = {"y": {"dtype": name(y.dtype), "shape": list(y.shape), "values": values(y)}}
    return c


def main():
    rng = random.Random(1)
    for op, (fn, _) in OPS.items():
        cid = 0
        for dt in DTYPES:
            for shape, layout, special in [((), "contiguous", True), ((7,), "contiguous", True), ((3, 4), "strided", True),
                                           ((0, 3), "contiguous", False), ((2, 1, 5), "contiguous", False)]:
                print(json.dumps(case(cid, op, fn, dt, shape, layout, rng, special), separators=(",", ":")))
                cid += 1


if __name__ == "__main__":
    main()
