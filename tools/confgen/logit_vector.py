#!/usr/bin/python3
"""Prints the patterns of tensor/logit_vector_test.go: which elements PyTorch 1.13's logit with
eps > 0.5 clamps to 1 - eps ('-', its vector body's min(hi, max(lo, x)), or the scalar tail's
x > hi) and which to eps ('+', the scalar tail's x < lo), NaN staying NaN ('n'), over the layouts
the test builds (Note [Vector bodies] in package optable).

    /usr/bin/python3 tools/confgen/logit_vector.py
"""
import torch

EPS = 0.75


def values(n):
    """The test's inputs (logitValues in the Go test): i*0.37 mod 1, NaN at 3."""
    return [float("nan") if i == 3 else (i * 37 % 100) / 100 for i in range(n)]


def pattern(y, dtype):
    lo = torch.tensor(EPS, dtype=dtype)
    hi = 1 - lo
    up, down = torch.logit(lo.reshape(1)).item(), torch.logit(hi.reshape(1)).item()
    out = ""
    for v in y.reshape(-1).tolist():
        out += "n" if v != v else "+" if v == up else "-" if v == down else "?"
    return out


def cases():
    f32, f64, bf16 = torch.float32, torch.float64, torch.bfloat16
    yield "contiguous float32", torch.tensor(values(36), dtype=f32)
    yield "contiguous float64", torch.tensor(values(11), dtype=f64)
    yield "contiguous bfloat16", torch.tensor(values(40), dtype=bf16)
    yield "stepped float32", torch.tensor(values(40), dtype=f32)[::2]
    yield "transposed float32", torch.tensor(values(60), dtype=f32).reshape(20, 3).t()
    yield "expanded float32", torch.tensor([0.1], dtype=f32).expand(20)
    yield "int64 [5, 7]", (torch.arange(35).reshape(5, 7) % 3 - 1)
    mask = torch.tensor([v > 0.5 for v in values(18)])
    yield "expanded bool", mask.as_strided([2, 3, 2, 2], [3, 1, 6, 0], 5)


for name, x in cases():
    dtype = x.dtype if x.dtype.is_floating_point else torch.float32
    print('{"%s", "%s"},' % (name, pattern(torch.logit(x, eps=EPS), dtype)))
