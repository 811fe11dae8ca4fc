#!/usr/bin/python3
"""Prints the cases of tensor/sum_order_test.go: PyTorch 1.13's sums, nansums and means of small
float32 and float64 tensors, as bits, over layouts that reach each loop of its cascade_sum
(contiguous rows or columns of vectors, strided rows or columns, reductions split into blocks, a
dim of size 1), with values whose partial sums round, overflow or cancel differently in another
order (Note [PyTorch's summation order] in backend/cpu).

    /usr/bin/python3 tools/confgen/sum_order.py > /tmp/cases.go.txt
"""
import struct

import torch

torch.set_num_threads(1)


def values(n, dtype, extreme, nan):
    """The test's inputs, element i of a contiguous base (sumOrderValues in the Go test)."""
    big = 1.7e308 if dtype == torch.float64 else 3e38
    out = []
    for i in range(n):
        x = ((7919 * i + 13) % 1009 - 504) / 64 * 10.0 ** ((i * 7) % 9 - 4)
        if extreme and i % 11 == 3:
            x = big
        elif extreme and i % 11 == 7:
            x = -big
        elif nan and i % 13 == 5:
            x = float("nan")
        out.append(x)
    return torch.tensor(out, dtype=torch.float64).to(dtype)


# name, dtype, base shape, permutation, step of the last dim, op, dims, keepdim, extreme, nan
CASES = [
    ("rows of vectors", "float32", [8, 40], [0, 1], 1, "sum", [1], False, False, False),
    ("rows of vectors", "float64", [8, 40], [0, 1], 1, "sum", [1], False, False, False),
    ("columns, one vector wide", "float32", [40, 8], [0, 1], 1, "sum", [0], False, False, False),
    ("columns, four vectors and more", "float32", [40, 36], [0, 1], 1, "sum", [0], False, False, False),
    ("columns, four vectors and more", "float64", [40, 20], [0, 1], 1, "sum", [0], False, False, False),
    ("strided rows", "float64", [6, 40], [0, 1], 2, "sum", [1], False, False, False),
    ("strided columns", "float64", [40, 6], [0, 1], 2, "sum", [0], False, False, False),
    ("strided columns in fours", "float32", [100, 10], [0, 1], 2, "sum", [0], False, False, False),
    ("transposed, all dims", "float32", [3, 4, 5], [0, 2, 1], 1, "sum", [], False, False, False),
    ("nansum of rows", "float32", [16, 24], [0, 1], 1, "nansum", [1], False, False, True),
    ("mean of columns", "float32", [24, 9], [0, 1], 1, "mean", [0], False, False, False),
    ("mean over two dims", "float64", [5, 7, 3], [0, 1, 2], 1, "mean", [0, 2], True, False, False),
    ("overflow in columns", "float64", [12, 6], [0, 1], 1, "sum", [0], False, True, False),
    ("overflow in rows", "float32", [12, 10], [0, 1], 1, "sum", [1], False, True, False),
    ("overflow in blocks", "float64", [4, 3, 20], [0, 1, 2], 1, "sum", [0, 2], False, True, False),
    ("a dim of size 1, transposed", "float64", [3, 1, 5], [2, 1, 0], 1, "nansum", [1], False, False, True),
    ("levels of columns", "float32", [120, 33], [0, 1], 1, "sum", [0], False, False, False),
    ("levels of a long row", "float64", [512, 8], [0, 1], 1, "sum", [], False, False, False),
    ("transposed columns", "float32", [20, 30], [1, 0], 1, "mean", [1], False, True, False),
    ("rows of one vector", "float32", [16, 8], [0, 1], 1, "sum", [1], False, False, False),
    ("columns, exactly four vectors", "float32", [40, 32], [0, 1], 1, "sum", [0], False, False, False),
    ("strided columns, exactly four", "float64", [40, 8], [0, 1], 2, "sum", [0], False, False, False),
]


def bits(t):
    t = t.contiguous().reshape(-1)
    if t.dtype == torch.float64:
        return [struct.unpack("<Q", struct.pack("<d", x))[0] for x in t.tolist()]
    return [x & 0xFFFFFFFF for x in t.view(torch.int32).tolist()]


for name, dt, base, perm, step, op, dims, keep, extreme, nan in CASES:
    dtype = getattr(torch, dt)
    n = 1
    for s in base:
        n *= s
    x = values(n, dtype, extreme, nan).reshape(base).permute(perm)
    x = x[..., ::step]
    f = getattr(torch, op)
    y = f(x, dims, keep) if dims else f(x)
    want = ", ".join(f"0x{b:x}" for b in bits(y))
    shape = ", ".join(map(str, base))
    print(f'\t{{"{name}", {dt.capitalize()}, []int{{{shape}}}, []int{{{", ".join(map(str, perm))}}}, {step}, '
          f'"{op}", []int{{{", ".join(map(str, dims))}}}, {str(keep).lower()}, {str(extreme).lower()}, '
          f'{str(nan).lower()}, []uint64{{{want}}}}},')
