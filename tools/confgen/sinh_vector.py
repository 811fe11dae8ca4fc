#!/usr/bin/python3
"""Prints the patterns of tensor/sinh_vector_test.go: which elements PyTorch 1.13's sinh and cosh
give as +Inf ('+') or -Inf ('-') and which finite ('f'), over the layouts the test builds, for
inputs just beyond ln of the dtype's largest value (89 in float32 and bfloat16, 709.8 in
float64), where sinh and cosh are finite but the SLEEF kernels of PyTorch's vector body overflow
and its scalar tail does not (Note [SLEEF's sinh and cosh] in optable/elem).

    /usr/bin/python3 tools/confgen/sinh_vector.py
"""
import math

import torch

torch.set_num_threads(1)


def values(n, big):
    """The test's inputs (sinhValues in the Go test): -big at multiples of 5, big at the other
    multiples of 3, 1 elsewhere."""
    return [(-big if i % 5 == 0 else big) if i % 3 == 0 or i % 5 == 0 else 1.0 for i in range(n)]


def pattern(t):
    out = ""
    for v in t.double().tolist():
        out += "+" if v == math.inf else "-" if v == -math.inf else "f"
    return out


CASES = {
    "contiguous float32": torch.tensor(values(36, 89.0), dtype=torch.float32),
    "contiguous float64": torch.tensor(values(11, 709.8), dtype=torch.float64),
    "contiguous bfloat16": torch.tensor(values(40, 89.0), dtype=torch.bfloat16),
    "stepped float32": torch.tensor(values(40, 89.0), dtype=torch.float32)[::2],
    "stepped float64": torch.tensor(values(22, 709.8), dtype=torch.float64)[::2],
    "int32": torch.tensor(values(20, 89), dtype=torch.int32),
}

for name, x in CASES.items():
    print(f'{{"{name}", "{pattern(torch.sinh(x))}", "{pattern(torch.cosh(x))}"}},')
