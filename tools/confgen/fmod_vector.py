"""Prints, for TestFmodVectorBody (tensor/fmod_vector_test.go), where
PyTorch 1.13's fmod, remainder and floor_divide give NaN because SLEEF's
fmod overflows its first quotient in the vector body of their loops
(Note [SLEEF's fmod] in optable/elem): 'n' NaN, '+' +Inf, '-' -Inf, 'f'
finite. Run with a Python that has torch 1.13 (/usr/bin/python3 here)."""
import math
import torch

def pattern(r):
    out = ""
    for v in r.double().tolist():
        if math.isnan(v):
            out += "n"
        elif math.isinf(v):
            out += "+" if v > 0 else "-"
        else:
            out += "f"
    return out

CASES = [
    ("contiguous float64 by 1e-310", torch.full((19,), 1.0, dtype=torch.float64), 1e-310),
    ("contiguous float64 by 0.5", torch.full((19,), 1.7e308, dtype=torch.float64), 0.5),
    ("contiguous float32 by 1e-40", torch.full((35,), 1.0, dtype=torch.float32), 1e-40),
    ("stepped float64 by 1e-310", torch.full((38,), 1.0, dtype=torch.float64)[::2], 1e-310),
    ("bfloat16 by 1e-40", torch.full((40,), 1.0, dtype=torch.bfloat16), 1e-40),
    ("float16 by 1e-7", torch.full((40,), 60000.0, dtype=torch.float16), 1e-7),
]
for name, a, b in CASES:
    bt = torch.tensor(b, dtype=a.dtype)
    pats = [pattern(getattr(torch, f)(a, bt)) for f in ("fmod", "remainder", "floor_divide")]
    print('{"%s", "%s", "%s", "%s"},' % (name, *pats))
