#!/usr/bin/python3
"""Prints the cases of tensor/plain_bmm_test.go: PyTorch 1.13's small bmm, baddbmm, batched
matmul and einsum results as bits, whose plain loop rounds every product (no fused multiply-add)
and adds alpha·a·b to beta·c in the order of k, so that products that overflow, and roundings,
come out as PyTorch's (kernel.Gemm's Plain).

    /usr/bin/python3 tools/confgen/plain_bmm.py
"""
import struct

import torch


def bits(t):
    t = t.contiguous().reshape(-1)
    if t.dtype == torch.float64:
        return [struct.unpack("<Q", struct.pack("<d", x))[0] for x in t.tolist()]
    return [x & 0xFFFFFFFF for x in t.view(torch.int32).tolist()]


def vals(n, big):
    """The test's inputs (plainValues in the Go test): element i of a row-major tensor, big at
    every 11th and -big/2 at every 13th unless big is 0."""
    out = []
    for i in range(n):
        x = ((7919 * i + 13) % 1009 - 504) / 64 * 1.1
        if big and i % 11 == 2:
            x = big
        elif big and i % 13 == 5:
            x = -big / 2
        out.append(x)
    return out


# name, dtype, op, batch, m, k, n, beta, alpha, extremes
CASES = [
    ("bmm with overflowing products", "float64", "bmm", 2, 3, 4, 2, 0, 1, True),
    ("bmm of float32", "float32", "bmm", 2, 4, 3, 3, 0, 1, False),
    ("baddbmm", "float32", "baddbmm", 2, 3, 5, 2, 0.5, 2.7, False),
    ("baddbmm of float64", "float64", "baddbmm", 1, 4, 6, 3, 0.3, -1.7, False),
    ("baddbmm with overflowing products", "float32", "baddbmm", 1, 3, 4, 3, 1, 1, True),
    ("batched matmul", "float64", "matmul", 3, 2, 5, 2, 0, 1, False),
    ("einsum", "float32", "einsum", 2, 3, 6, 4, 0, 1, True),
]

for name, dt, op, nb, m, k, n, beta, alpha, extremes in CASES:
    dtype = getattr(torch, dt)
    big = (1.7e308 if dtype == torch.float64 else 3e38) if extremes else 0
    a = torch.tensor(vals(nb * m * k, big), dtype=torch.float64).to(dtype).reshape(nb, m, k)
    b = torch.tensor(vals(nb * k * n, big)[::-1], dtype=torch.float64).to(dtype).reshape(nb, k, n)
    c = torch.tensor([((31 * i) % 17 - 8) / 4 for i in range(nb * m * n)], dtype=torch.float64).to(dtype).reshape(nb, m, n)
    if op == "bmm":
        y = torch.bmm(a, b)
    elif op == "baddbmm":
        y = torch.baddbmm(c, a, b, beta=beta, alpha=alpha)
    elif op == "matmul":
        y = torch.matmul(a, b)
    else:
        y = torch.einsum("bij,bjk->bik", a, b)
    want = ", ".join(f"0x{x:x}" for x in bits(y))
    print(f'\t\t{{"{name}", {dt.capitalize()}, "{op}", {nb}, {m}, {k}, {n}, {beta}, {alpha}, {str(extremes).lower()}, '
          f'[]uint64{{{want}}}}},')
